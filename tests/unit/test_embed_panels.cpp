// test_embed_panels.cpp — an embed's panels= list cannot give a lesson's answer away nor hide what a step shows:
// while a prediction is unanswered, a listed panel that shows what it asks is hidden; a step's own panels and the
// lesson are shown; the host hears each change once ("embed-panels").
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/exchange/embed.h"
#include "app/lesson/embed_panels.h"
#include "app/lesson/lesson_run.h"

using namespace attn;
using nlohmann::json;

namespace {
std::vector<std::string> keys(const std::vector<PanelId>& ids) {
  std::vector<std::string> out;
  for (PanelId id : ids) out.push_back(panel_info(id).key);
  return out;
}
std::vector<json> told(const App& app) {
  std::vector<json> out;
  for (const json& e : app.events)
    if (e["type"] == "embed-panels") out.push_back(e);
  return out;
}
}  // namespace

TEST_CASE("during a prediction an embed's listed panel that shows the answer is hidden, the step's own shown",
          "[embed][lessons]") {
  App app;
  REQUIRE(parse_embed_query("embed=1&panels=controls,saturation", app.embed) == "");
  app.tick();
  CHECK(keys(embed_panels(app.embed, app).shown) == std::vector<std::string>{"controls", "saturation"});
  CHECK(told(app).empty());  // no lesson: the page's list as it is, nothing to tell

  // "Why divide by √d_k" step 2 asks how the largest weight moves with d_k: the Saturation panel's sweep shows it.
  REQUIRE(start_lesson(app, "why-sqrt-dk", 2) == "");
  app.tick();
  EmbedPanels p = embed_panels(app.embed, app);
  CHECK(keys(p.shown) == std::vector<std::string>{"controls", "heatmap", "lesson"});
  CHECK(p.added == std::vector<std::string>{"heatmap", "lesson"});
  CHECK(p.withheld == std::vector<std::string>{"saturation"});
  REQUIRE(told(app).size() == 1);
  CHECK(told(app)[0]["withheld"] == json::array({"saturation"}));
  app.tick();
  CHECK(told(app).size() == 1);  // once per change

  REQUIRE(answer_choice(app, 2));  // answered: the panel comes back, and the host hears it
  app.tick();
  p = embed_panels(app.embed, app);
  CHECK(keys(p.shown) == std::vector<std::string>{"controls", "saturation", "heatmap", "lesson"});
  CHECK(p.withheld.empty());
  REQUIRE(told(app).size() == 2);
  CHECK(told(app)[1]["withheld"].empty());
}
