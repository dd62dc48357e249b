// test_panel_actions.cpp — the canvas buttons that change the playground, pressed through their parallel-DOM twins:
// Re-roll weights, Shuffle tokens, the Masks panel's Clear buttons and the worksheet's Show me do what the buttons'
// own app functions do, are listed only where the canvas drew them, and are greyed with why while locked.
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/a11y.h"
#include "app/app.h"
#include "app/base/strings.h"
#include "app/panel_actions.h"
#include "app/playground/token_shuffle.h"
#include "app/state/state_json.h"
#include "unit_helpers.h"

using unit::twin_of;
using namespace attn;
using nlohmann::json;

namespace {
json panel_controls(const App& app, const std::string& key) {
  const json d = a11y_description(app);  // held: a range over a part of a temporary would outlive it
  for (const json& p : d["panels"])
    if (p["key"] == key) return p["controls"];
  return json::array();
}
std::string press(App& app, const std::string& id) { return a11y_act(app, json{{"do", "button"}, {"id", id}}); }
// An app as the canvas leaves it after a frame that drew these buttons in these panels.
App drawn_app(const std::vector<std::pair<std::string, std::string>>& drawn) {
  App app;
  REQUIRE(apply_state_text(app.state, R"({"sentence": "dog bites man", "seed": 3})") == "");
  app.state.panels.controls = app.state.panels.positional = app.state.panels.masks = true;
  app.update();
  for (const auto& [id, panel] : drawn) app.item_panels[id] = panel;
  return app;
}
}  // namespace

TEST_CASE("Re-roll weights' twin: listed after the seed where the canvas drew it, the button's reroll", "[twins]") {
  App app = drawn_app({{"seed", "controls"}, {"controls:reroll", "controls"}});
  const json controls = panel_controls(app, "controls");
  const json twin = twin_of(controls, "controls:reroll");
  REQUIRE(twin.is_object());
  CHECK(twin["kind"] == "button");
  CHECK(twin["label"] == tr(Lang::En, "controls.reroll"));
  CHECK_FALSE(twin.contains("disabled"));
  const auto at = [&](const std::string& id) {
    return std::find_if(controls.begin(), controls.end(), [&](const json& c) { return c["id"] == id; }) -
           controls.begin();
  };
  CHECK(at("controls:reroll") == at("seed") + 1);  // beside the seed, as on the canvas

  State expected = app.state;
  reroll(expected);  // what the canvas button calls
  CHECK(press(app, "controls:reroll").empty());
  CHECK(app.state.seed == expected.seed);
  CHECK(app.state.embeddings.isApprox(expected.embeddings));

  SECTION("not drawn (another panel, or hidden), no twin and no press") {
    App other = drawn_app({});
    CHECK(twin_of(panel_controls(other, "controls"), "controls:reroll").is_null());
    const uint64_t seed = other.state.seed;
    CHECK(press(other, "controls:reroll") == "no such button");
    CHECK(other.state.seed == seed);
  }
  SECTION("a lesson step that locks the seed greys it with why; a press changes nothing") {
    app.lesson_locks = {"seed"};
    const json locked = twin_of(panel_controls(app, "controls"), "controls:reroll");
    CHECK(locked["disabled"] == true);
    CHECK(locked["reason"] == tr(Lang::En, "a11y.locked_lesson"));
    const uint64_t seed = app.state.seed;
    CHECK(press(app, "controls:reroll") == "locked");
    CHECK(app.state.seed == seed);
  }
}

TEST_CASE("Shuffle tokens' twin: the canvas's shuffle, and the gap it measures said in the panel", "[twins]") {
  App app = drawn_app({{"positional:shuffle", "positional"}});
  App canvas = drawn_app({});
  REQUIRE(twin_of(panel_controls(app, "positional"), "positional:shuffle").is_object());
  app.state.mask_cells = MaskMat::Ones(3, 3);
  REQUIRE(press(app, "positional:shuffle").empty());
  REQUIRE(shuffle_tokens(canvas.state, canvas.result, canvas.token_shuffle));  // what the canvas button calls
  CHECK(app.state.sentence == canvas.state.sentence);
  CHECK(app.state.embeddings.isApprox(canvas.state.embeddings));
  CHECK_FALSE(app.state.mask_cells.has_value());  // painted cells belonged to the old positions
  std::vector<std::string> tokens = split_tokens(app.state.sentence), before = {"dog", "bites", "man"};
  std::sort(tokens.begin(), tokens.end());
  std::sort(before.begin(), before.end());
  CHECK(tokens == before);

  CHECK(last_shuffle_text(app).empty());  // measured once the shuffled sentence is computed
  app.update();
  app.tick();
  REQUIRE(app.token_shuffle.gap >= 0);
  CHECK(app.token_shuffle.gap < 1e-4);  // no positional encoding: the same rows, permuted
  const std::string said = last_shuffle_text(app);
  CHECK(said.find(tr(Lang::En, "positional.same_rows")) != std::string::npos);
  const json d = a11y_description(app);
  for (const json& p : d["panels"])
    if (p["key"] == "positional") CHECK(p["status"] == said);

  SECTION("a locked sentence greys it with why") {
    app.embed.enabled = true;
    app.embed.locked = {"sentence"};
    const json locked = twin_of(panel_controls(app, "positional"), "positional:shuffle");
    CHECK(locked["disabled"] == true);
    CHECK(locked["reason"] == tr(Lang::En, "a11y.locked_embed"));
    CHECK(press(app, "positional:shuffle") == "locked");
  }
}

TEST_CASE("the Masks panel's Clear twins clear the painted cells and the padding", "[twins]") {
  App app = drawn_app({{"mask", "masks"}, {"masks:clear_cells", "masks"}, {"masks:clear_padding", "masks"}});
  app.state.mask_cells = MaskMat::Ones(3, 3);
  app.state.key_padding = {false, true, false};
  const json controls = panel_controls(app, "masks");
  CHECK(twin_of(controls, "masks:clear_cells")["label"] == tr(Lang::En, "masks.clear_cells"));
  CHECK(twin_of(controls, "masks:clear_padding")["label"] == tr(Lang::En, "masks.clear_padding"));
  CHECK(press(app, "masks:clear_cells").empty());
  CHECK_FALSE(app.state.mask_cells.has_value());
  CHECK(app.state.key_padding.size() == 3);
  CHECK(press(app, "masks:clear_padding").empty());
  CHECK(app.state.key_padding.empty());
  app.lesson_locks = {"mask"};
  app.state.key_padding = {true, false, false};
  CHECK(twin_of(panel_controls(app, "masks"), "masks:clear_padding")["disabled"] == true);
  CHECK(press(app, "masks:clear_padding") == "locked");
  CHECK(app.state.key_padding.size() == 3);
}

TEST_CASE("Show me's twin: offered under the picked cell's stage, writes out its arithmetic", "[twins]") {
  App app;
  REQUIRE(apply_state_text(app.state, R"({"exercise": "exercise-1"})") == "");
  app.state.panels.worksheet = true;
  sync_worksheet(app);
  REQUIRE(app.worksheet.error.empty());
  const auto stage = [&](const char* id) {
    const json d = a11y_description(app);
    for (const json& s : d["worksheet"]["stages"])
      if (s["id"] == id) return s;
    return json();
  };
  CHECK_FALSE(stage("scores").contains("show"));
  CHECK(a11y_act(app, json{{"do", "show_me"}, {"stage", "scores"}}) == "no cell of this stage is picked");
  REQUIRE(a11y_act(app, json{{"do", "pick_cell"}, {"stage", "scores"}, {"row", 1}, {"col", 0}}).empty());
  CHECK(stage("scores")["show"] == tr(Lang::En, "worksheet.show_me"));
  CHECK(stage("scores")["show_for"] == stage("scores")["rows"][1]["cells"][0]["label"]);  // the cell it refers to
  CHECK_FALSE(stage("Q").contains("show"));
  CHECK_FALSE(stage("scores").contains("breakdown"));
  REQUIRE(a11y_act(app, json{{"do", "show_me"}, {"stage", "scores"}}).empty());
  exercise::CellBreakdown b;
  REQUIRE(exercise::show_cell(app.worksheet.exercise, app.worksheet.answers, exercise::Stage::Scores, 1, 0, b).empty());
  CHECK(stage("scores")["breakdown"] == breakdown_text(app.worksheet.exercise, b, Lang::En));
  CHECK(shown_breakdown(app.worksheet, exercise::Stage::Scores, Lang::En) == stage("scores")["breakdown"]);
  // Another cell picked: Show me refers to it, and the old arithmetic is put away (as clicking a canvas cell does).
  REQUIRE(a11y_act(app, json{{"do", "pick_cell"}, {"stage", "scores"}, {"row", 0}, {"col", 0}}).empty());
  CHECK_FALSE(stage("scores").contains("breakdown"));
  CHECK(a11y_act(app, json{{"do", "pick_cell"}, {"stage", "scores"}, {"row", 99}, {"col", 0}}) ==
        "no such worksheet cell");
}
