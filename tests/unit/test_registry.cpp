// test_registry.cpp — one list of panels and controls: state JSON, embed parsing and locks all follow it,
// and the tiling never overlaps two panels.
#include <catch2/catch.hpp>
#include <set>

#include "app/app.h"
#include "app/exchange/embed.h"
#include "app/state/registry.h"
#include "app/state/state_json.h"
#include "app/state/tiling.h"

using namespace attn;

TEST_CASE("every registry panel is a state key, an embed name and a visibility flag", "[registry]") {
  for (const PanelInfo& info : panel_table()) {
    INFO(info.key);
    State s = App().state;  // the app's first state
    CHECK(s.panels[info.id] == info.default_open);
    // setState({panels: {<id>: !default}}) flips exactly that panel, and getState reports it.
    const nlohmann::json partial = {{"panels", {{info.key, !info.default_open}}}};
    REQUIRE(apply_state_json(s, partial).empty());
    CHECK(s.panels[info.id] == !info.default_open);
    CHECK(state_to_json(s)["panels"][info.key] == !info.default_open);
    for (const PanelInfo& other : panel_table())
      if (other.id != info.id) CHECK(s.panels[other.id] == other.default_open);
    EmbedSettings e;
    REQUIRE(parse_embed_query(std::string("panels=") + info.key, e).empty());
    REQUIRE(e.panels.size() == 1);
    CHECK(e.panels[0] == info.key);
    if (info.lock[0] != '\0') CHECK(find_control(info.lock) != nullptr);
  }
  State s;
  CHECK_FALSE(apply_state_json(s, {{"panels", {{"nonesuch", true}}}}).empty());
}

TEST_CASE("every control id locks what it names and nothing else", "[registry]") {
  State before;
  before.d_k = 16;
  State changed = before;
  changed.d_k = 300;
  changed.scale = !before.scale;
  changed.temperature = 2.5;
  changed.selected_row = 3;
  changed.dark_theme = !before.dark_theme;
  changed.text_scale = 1.5f;
  changed.heads = 4;
  changed.mask = MaskKind::Causal;
  changed.positional_encoding = PositionalEncoding::Sinusoidal;
  changed.cross.step = 2;
  changed.heatmap_row_scale = !before.heatmap_row_scale;
  changed.plane_x = before.plane_x + 1;
  changed.numerics_multiplier = 3.0;
  // Every control named by a settable state key can be locked (its key is set back); others only with a revert.
  for (const char* id : {"heatmap_scale", "plane_x", "plane_y", "numerics_multiplier", "d_k", "sentence", "mask"})
    CHECK(find_control(id) != nullptr);
  CHECK(find_control("lesson:next") == nullptr);
  for (const ControlInfo& c : control_table()) {
    INFO(c.id);
    CHECK(find_control(c.id) == &c);
    if (*c.label) CHECK(find_control(c.label) == &c);  // the older label-text id still finds it
    EmbedSettings e;
    REQUIRE(parse_embed_query(std::string("lock=") + c.id, e).empty());
    State now = changed;
    revert_locked(now, before, e);
    const std::string id = c.id;
    CHECK((now.d_k == before.d_k) == (id == "d_k"));
    CHECK((now.scale == before.scale) == (id == "scale"));
    CHECK((now.temperature == before.temperature) == (id == "temperature"));
    CHECK((now.heads == before.heads) == (id == "heads"));
    CHECK((now.mask == before.mask) == (id == "mask"));
    CHECK((now.dark_theme == before.dark_theme) == (id == "theme"));
    CHECK((now.heatmap_row_scale == before.heatmap_row_scale) == (id == "heatmap_scale"));
    CHECK((now.plane_x == before.plane_x) == (id == "plane_x"));
    CHECK((now.numerics_multiplier == before.numerics_multiplier) == (id == "numerics_multiplier"));
  }
}

namespace {
bool overlap(const Tile& a, const Tile& b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}
}  // namespace

TEST_CASE("control ids are unique, follow the id grammar, and every older id still finds its control", "[registry]") {
  // Grammar: a state key, or "<scope>:<name>", lower case, '_' or '-' inside words.
  const auto grammatical = [](const std::string& id) {
    if (id.empty() || id.front() == ':' || id.back() == ':') return false;
    for (char ch : id)
      if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == ':')) return false;
    return true;
  };
  const nlohmann::json schema = state_schema();
  std::set<std::string> seen;
  for (int i = 0; i < static_cast<int>(kControlCount); ++i) {
    const std::string id = control_id(static_cast<ControlId>(i));
    INFO(id);
    CHECK(grammatical(id));
    CHECK(seen.insert(id).second);
    ControlId back{};
    REQUIRE(find_control_id(id, back));
    CHECK(static_cast<int>(back) == i);
    // A control editing one state field is named by its key.
    if (id.find(':') == std::string::npos) CHECK(schema.contains(id));
  }
  // Older label-text ids, exact and as a family's prefix, resolve to today's ids; unknown ids stay as they are.
  CHECK(canonical_control_id("Temperature") == "temperature");
  CHECK(canonical_control_id("Scale by 1/√d_k") == "scale");
  CHECK(canonical_control_id("heatmap") == "heatmap:grid");
  CHECK(canonical_control_id("mask:2,1") == "masks:cell:2,1");
  CHECK(canonical_control_id("point:1") == "embeddings:point:1");
  CHECK(canonical_control_id("embedding 0,0") == "embeddings:cell:0,0");
  CHECK(canonical_control_id("embedding plane") == "embeddings");
  CHECK(canonical_control_id("header:explain") == "header:explain");
  CHECK(canonical_control_id("no such control") == "no such control");
  CHECK(control_id(ControlFamily::lesson_choice, "2") == "lesson:choice:2");
  CHECK(grammatical(control_id(ControlFamily::mask_cell, "1")));
  // Whole-panel locks name controls.
  for (const PanelInfo& p : panel_table()) {
    ControlId lock{};
    if (p.lock[0] != '\0') CHECK(find_control_id(p.lock, lock));
  }
}

TEST_CASE("tiling every panel of every workspace leaves no two panels overlapping", "[registry][tiling]") {
  std::vector<std::vector<PanelId>> sets;
  for (const Workspace& w : workspaces()) sets.push_back(w.panels);
  std::vector<PanelId> all;
  for (const PanelInfo& info : panel_table()) all.push_back(info.id);
  sets.push_back(all);
  const float sizes[][2] = {{1440, 900}, {1024, 700}, {800, 500}, {768, 1024}, {390, 844}, {2560, 1400}};
  for (const auto& set : sets)
    for (const auto& sz : sizes) {
      INFO(set.size() << " panels at " << sz[0] << "×" << sz[1]);
      const std::vector<Tile> tiles = tile_panels(set, 0, 20, sz[0], sz[1] - 20);
      REQUIRE(tiles.size() == set.size());
      for (size_t i = 0; i < tiles.size(); ++i) {
        CHECK(tiles[i].id == set[i]);  // in the order asked for
        CHECK(tiles[i].w > 0);
        CHECK(tiles[i].h > 0);
        CHECK(tiles[i].x >= 0);
        CHECK(tiles[i].x + tiles[i].w <= sz[0]);  // never wider than the window
        if (sz[0] >= kNarrowWidth) CHECK(tiles[i].y + tiles[i].h <= sz[1]);
        for (size_t j = 0; j < i; ++j) CHECK_FALSE(overlap(tiles[i], tiles[j]));
      }
      if (sz[0] < kNarrowWidth)  // phones: one per row, full width
        for (const Tile& t : tiles) CHECK(t.w == sz[0]);
    }
}

TEST_CASE("larger text gets wider columns, and stacked panels once two columns no longer fit", "[registry][tiling]") {
  std::vector<PanelId> all;
  for (const PanelInfo& info : panel_table())
    if (info.id != PanelId::share) all.push_back(info.id);
  const float text = 15;  // the default font size, px
  // Default text: tiled wherever the screen is not narrow (as before the rule), stacked on a phone.
  CHECK_FALSE(stacks_panels(1024, text));
  CHECK_FALSE(stacks_panels(768, text));
  CHECK_FALSE(stacks_panels(kNarrowWidth, text));
  CHECK(stacks_panels(390, text));
  // Text at 1.64×: two columns of kMinColumnEms font sizes fit 1440 px, not 1024 px.
  CHECK_FALSE(stacks_panels(1440, text * 1.64f));
  CHECK(stacks_panels(1024, text * 1.64f));
  // Where it tiles, every column is at least min_column_width wide, so labels have the room they need.
  for (const float scale : {1.0f, 1.3f, 1.64f, 2.0f})
    for (const auto& sz : {std::pair<float, float>{1440, 900}, {1024, 700}, {2560, 1400}, {768, 1024}, {800, 500}}) {
      const float font = text * scale;
      if (stacks_panels(sz.first, font)) continue;
      INFO(sz.first << "×" << sz.second << " at text " << scale << "×");
      for (const Tile& t : tile_panels(all, 0, 20, sz.first, sz.second - 20, min_column_width(font)))
        CHECK(t.w >= min_column_width(font) - 1);
    }
}

TEST_CASE("a workspace opens exactly its panels", "[registry][tiling]") {
  for (const Workspace& w : workspaces()) {
    INFO(w.key);
    PanelVisibility v;
    apply_workspace(v, w);
    for (const PanelInfo& info : panel_table()) {
      const bool in = std::find(w.panels.begin(), w.panels.end(), info.id) != w.panels.end();
      if (info.id != PanelId::share) CHECK(v[info.id] == in);
    }
    CHECK(find_workspace(w.key) == &w);
  }
  CHECK(find_workspace("nonesuch") == nullptr);
}
