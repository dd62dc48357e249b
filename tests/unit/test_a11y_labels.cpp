// test_a11y_labels.cpp — every control's twin in the parallel DOM is named in words, in the learner's language,
// whether or not its panel has been drawn yet: never by its internal id ("plane_x", "heatmap_scale"), and a choice
// offers words too (the theme's "Dark theme (dark or light)" offers "Dark"/"Light", not "dark"/"light").
// The menus have a twin too.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "app/a11y.h"
#include "app/app.h"
#include "app/base/strings.h"
#include "app/lesson/lesson_run.h"
#include "app/playground/playground.h"
#include "app/state/registry.h"
#include "app/state/state_json.h"
#include "app/state/tiling.h"

using namespace attn;
using nlohmann::json;

// wcag: 2.4.6 — every control twin is labelled in words, in both languages, never by its internal id
TEST_CASE("every control twin has a name in words and its choices say words", "[a11y]") {
  for (Lang lang : languages()) {
    App app;
    app.state.lang = lang;
    REQUIRE(apply_state_json(app.state, {{"panels", {{"embeddings", true}, {"heatmap", true}, {"controls", true}}}}) ==
            "");
    app.tick();
    // Where the canvas drew them (Panel::track records it): the parallel DOM lists drawn controls only.
    for (const auto& [id, panel] : {std::pair{"theme", "controls"},
                                    {"heatmap_scale", "heatmap"},
                                    {"plane_x", "embeddings"},
                                    {"plane_y", "embeddings"}})
      app.item_panels[id] = panel;
    int named = 0;
    const json d = a11y_description(app);
    for (const json& panel : d["panels"])
      for (const json& c : panel["controls"]) {
        const std::string id = c.value("id", ""), label = c.value("label", "");
        INFO(lang_code(lang) << " " << id << ": " << label);
        if (id.find(':') != std::string::npos || id == "d_k") continue;  // families' own labels; d_k is its name
        CHECK(label != id);
        ++named;
        if (c.value("kind", "") == "select" && id != "preset")
          for (const json& o : c["option_labels"]) CHECK(o.get<std::string>().find('_') == std::string::npos);
      }
    CHECK(named == 4);
    for (const json& panel : d["panels"])
      for (const json& c : panel["controls"])
        if (c.value("id", "") == "theme") {
          CHECK(c["option_labels"].size() == 2);
          CHECK(c["option_labels"][0] != "dark");
        }
  }
}

TEST_CASE("the menus' twin opens every panel, a workspace and a language as the canvas's menus do", "[a11y]") {
  App app;
  const json m = a11y_description(app)["menus"];
  REQUIRE(m.is_object());
  // Every panel of the registry, named in words, ticked as it is open.
  REQUIRE(m["panels"].size() == panel_table().size());
  for (const json& p : m["panels"]) {
    INFO(p.dump());
    const PanelInfo* info = find_panel(p["key"].get<std::string>());
    REQUIRE(info);
    CHECK(p["open"] == app.state.panels[info->id]);
    CHECK(p["title"] == tr(Lang::En, (std::string("panel.") + info->key).c_str()));
  }
  // The worksheet and Learn, which only the canvas's View menu opened before.
  for (const char* key : {"worksheet", "learn"}) {
    INFO(key);
    const PanelInfo* info = find_panel(key);
    REQUIRE_FALSE(app.state.panels[info->id]);
    REQUIRE(a11y_act(app, {{"do", "panel"}, {"value", key}, {"open", true}}) == "");
    CHECK(app.state.panels[info->id]);
    REQUIRE(a11y_act(app, {{"do", "panel"}, {"value", key}, {"open", false}}) == "");
    CHECK_FALSE(app.state.panels[info->id]);
  }
  CHECK(a11y_act(app, {{"do", "panel"}, {"value", "nope"}, {"open", true}}) == "no such panel");
  CHECK(a11y_act(app, {{"do", "panel"}, {"value", "learn"}}) == "no such panel");  // open or closed must be said
  REQUIRE_FALSE(workspaces().empty());
  const Workspace& w = workspaces().back();
  REQUIRE(a11y_act(app, {{"do", "workspace"}, {"value", w.key}}) == "");
  for (PanelId id : w.panels) CHECK(app.state.panels[id]);
  REQUIRE(a11y_act(app, {{"do", "language"}, {"value", "hi-Latn"}}) == "");
  CHECK(app.state.lang == Lang::HiLatn);
  CHECK(a11y_description(app)["menus"]["view"] == tr(Lang::HiLatn, "menu.view"));
  CHECK(a11y_act(app, {{"do", "language"}, {"value", "xx"}}) == "no such language");
  // An embed's page decides what shows: no twin, and its actions are refused.
  app.embed.enabled = true;
  CHECK(a11y_description(app)["menus"].is_null());
  CHECK(a11y_act(app, {{"do", "panel"}, {"value", "learn"}, {"open", true}}) != "");
}

// wcag: 2.5.3 3.2.4 — a twin with a name of its own still holds the words the canvas draws beside the control
TEST_CASE("a twin's name holds the label the canvas draws beside its control", "[a11y]") {
  for (Lang lang : languages()) {
    App app;
    app.state.lang = lang;
    REQUIRE(apply_state_json(app.state, {{"panels", {{"heatmap", true}, {"controls", true}}}}) == "");
    app.tick();
    // What the panels record when they draw these two (controls_panel.cpp, heatmap_panel.cpp): a checkbox each,
    // where the twin is a select with a name of its own.
    const std::pair<const char*, const char*> drawn[] = {{"theme", "controls.dark_theme"},
                                                         {"heatmap_scale", "heatmap.row_scale"}};
    for (const auto& [id, key] : drawn) {
      app.item_panels[id] = std::string(id) == "theme" ? "controls" : "heatmap";
      app.item_labels[id] = key;
    }
    int checked = 0;
    const json d = a11y_description(app);
    for (const json& panel : d["panels"])
      for (const json& c : panel["controls"])
        for (const auto& [id, key] : drawn)
          if (c.value("id", "") == id) {
            INFO(lang_code(lang) << " " << id << ": " << c.value("label", ""));
            CHECK(c.value("label", "").find(tr(lang, key)) != std::string::npos);
            ++checked;
          }
    CHECK(checked == 2);
  }
}

// wcag: 1.1.1 — the Saturation panel's curves have a text alternative: a table of the numbers its thick lines join
TEST_CASE("the Saturation panel's curves are a table in the parallel DOM, hidden while a question asks", "[a11y]") {
  App app;
  REQUIRE(apply_state_json(app.state, {{"preset", "default"}, {"d_k", 64}, {"panels", {{"saturation", false}}}}) == "");
  app.tick();
  CHECK(a11y_description(app)["sweep"].is_null());  // no panel, no table
  REQUIRE(apply_state_json(app.state, {{"panels", {{"saturation", true}}}}) == "");
  app.tick();
  const DkSweep& sw = app.result.sweep;
  REQUIRE(sw.available);
  const json t = a11y_description(app)["sweep"];
  CHECK(t["caption"] == "Query \"" + app.result.row_labels[static_cast<size_t>(sw.row)] +
                            "\" as d_k grows: the Saturation panel's curves in numbers");
  REQUIRE(t["table"].size() == sw.d_k.size() + 1);
  CHECK(t["table"][0][1] == "max weight, unscaled");
  int marked = 0;
  for (size_t i = 0; i < sw.d_k.size(); ++i) {
    const json& row = t["table"][i + 1];
    INFO("d_k " << sw.d_k[i]);
    CHECK(std::stod(row[1].get<std::string>()) == Approx(sw.max_weight[0][i]).margin(5e-5));
    CHECK(std::stod(row[2].get<std::string>()) == Approx(sw.max_weight[1][i]).margin(5e-5));
    CHECK(std::stod(row[3].get<std::string>()) == Approx(sw.entropy[0][i]).margin(5e-5));
    CHECK(std::stod(row[4].get<std::string>()) == Approx(sw.entropy[1][i]).margin(5e-5));
    if (row[0] == "64 (now)") ++marked;
  }
  CHECK(marked == 1);
  app.state.lang = Lang::HiLatn;
  CHECK(a11y_description(app)["sweep"]["table"][0][0] == "d_k");
  CHECK(a11y_description(app)["sweep"]["caption"].get<std::string>().find("jab d_k badhta hai") != std::string::npos);
  // "Why divide by √d_k", step 2 asks what the sweep shows: until it is answered the table is not read out either.
  app.state.lang = Lang::En;
  REQUIRE(start_lesson(app, "why-sqrt-dk", 2) == "");
  REQUIRE(apply_state_json(app.state, {{"panels", {{"saturation", true}}}}) == "");
  app.tick();
  const json hidden = a11y_description(app)["sweep"];
  CHECK(hidden.contains("withheld"));
  CHECK_FALSE(hidden.contains("table"));
}

// wcag: 1.1.1 — the Variance lab's readouts are a table in the parallel DOM, each value with its theory
TEST_CASE("the Variance lab's readouts are the canvas's table in the parallel DOM, each value with its theory",
          "[a11y]") {
  App app;
  REQUIRE(apply_state_json(app.state, {{"preset", "default"}, {"d_k", 16}, {"panels", {{"variance", true}}}}) == "");
  app.tick();
  const VarianceRow& v = app.result.variance;
  REQUIRE(v.samples > 0);
  const json d = a11y_description(app)["variance"];
  CHECK(d["about"].get<std::string>().find(std::to_string(v.samples) + " random pairs") != std::string::npos);
  REQUIRE(d["table"].size() == 5);
  CHECK(d["table"][0] == json({"measured", "q·k  (theory)", "q·k ÷ √d_k  (theory)"}));
  CHECK(d["table"][2][0] == "variance");
  CHECK(d["table"][2][1] == format_shown(v.var_unscaled) + " (theory: 16)");
  CHECK(d["table"][2][2] == format_shown(v.var_scaled) + " (theory: 1)");
  CHECK(d["table"][4][1] == format_shown(std::sqrt(v.var_unscaled)) + " (theory: 4.0000)");
  CHECK(d["table"][3][2] == "—");
  REQUIRE(apply_state_json(app.state, {{"panels", {{"variance", false}}}}) == "");
  app.tick();
  CHECK(a11y_description(app)["variance"].is_null());
}

TEST_CASE("the Variance lab's measurement finished frames after a change moves the change stamp the DOM follows",
          "[a11y]") {
  App app(0.05);  // an interactive page on a slow device: the Monte Carlo runs a small slice per frame
  REQUIRE(apply_state_json(
              app.state, {{"preset", "default"}, {"seed", 987654321}, {"d_k", 64}, {"panels", {{"variance", true}}}}) ==
          "");
  for (int i = 0; i < 100000 && (app.result.variance_pending || app.result.variance.d_k != 64); ++i) app.tick();
  REQUIRE(app.result.variance.d_k == 64);
  // A width and seed no other case measured: the measurements are kept per process (playground.cpp).
  REQUIRE(apply_state_json(app.state, {{"d_k", 1024}}) == "");
  app.tick();
  const uint64_t after_change = app.change_stamp();
  int frames = 0;
  while (app.result.variance.d_k != 1024 && frames < 100000) {
    REQUIRE(app.change_stamp() == after_change);  // nothing new to read yet
    app.tick();
    ++frames;
  }
  REQUIRE(app.result.variance.d_k == 1024);
  CHECK(frames > 0);  // it did take frames: the case the stamp must cover
  CHECK(app.change_stamp() != after_change);
}
