// test_a11y_labels.cpp — every control's twin in the parallel DOM is named in words, in the learner's language,
// whether or not its panel has been drawn yet: never by its internal id ("plane_x", "heatmap_scale"), and a choice
// offers words too (a "Theme" of "Dark"/"Light", not a "Dark theme" of "dark"/"light").
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "app/a11y.h"
#include "app/app.h"
#include "app/state_json.h"

using namespace attn;
using nlohmann::json;

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
