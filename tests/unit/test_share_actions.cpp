// test_share_actions.cpp — the Share panel's actions as its parallel-DOM twins call them: the twins are listed only
// for what the host can do, save the same bytes as the exports, keep the course package's choice, and refuse what is
// not theirs with a reason; the embed options' twins build the code the canvas's button copies.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/a11y.h"
#include "app/app.h"
#include "app/base/colormap.h"
#include "app/content/lesson_file.h"
#include "app/exchange/embed.h"
#include "app/exchange/share.h"
#include "app/exchange/svg_export.h"
#include "app/share_actions.h"
#include "unit_helpers.h"

using unit::twin_of;
using namespace attn;
using nlohmann::json;

namespace {
json share_twins(const App& app) {
  const json d = a11y_description(app);
  for (const json& p : d["panels"])
    if (p["key"] == "share") return p["controls"];
  return json::array();
}
bool has(const json& controls, const std::string& id) {
  for (const json& c : controls)
    if (c["id"] == id) return true;
  return false;
}
}  // namespace

TEST_CASE("the Share panel's twins: what the host can do, the same bytes, the package's choice", "[share]") {
  App app;
  app.state.panels.share = true;
  app.update();

  SECTION("a host that saves nothing gets no export twins, and a save is refused with why") {
    const json twins = share_twins(app);
    CHECK(has(twins, "share:copy_link"));
    CHECK_FALSE(has(twins, "share:csv"));
    CHECK_FALSE(has(twins, "share:lms_download"));
    CHECK(a11y_act(app, json{{"do", "share"}, {"id", "share:csv"}}) == "this page cannot save files here");
  }
  SECTION("the CSV twin saves the result's CSV") {
    std::string name, bytes;
    app.host.download = [&](const std::string& n, const std::string&, const std::string& b) {
      name = n;
      bytes = b;
      return SaveOutcome{true, n, ""};
    };
    CHECK(has(share_twins(app), "share:csv"));
    CHECK(a11y_act(app, json{{"do", "share"}, {"id", "share:csv"}}).empty());
    CHECK(name == "attnplay-result.csv");
    CHECK(bytes == result_csv(app.result));
  }
  SECTION("the package twins keep one choice; an unknown lesson or standard changes nothing") {
    std::string lesson, kind;
    app.host.make_course_package = [&](const std::string& l, const std::string& k) {
      lesson = l;
      kind = k;
    };
    CHECK(has(share_twins(app), "share:lms_kind"));
    CHECK(has(share_twins(app), "share:package:softmax"));
    const auto tick = [&](const std::string& id, bool in) {
      return a11y_act(app, json{{"do", "share"}, {"id", "share:package:" + id}, {"value", in}});
    };
    const std::string first = lessons().front().id;
    CHECK(package_lessons(app) == std::vector<std::string>{first});  // nothing chosen, no lesson open: the first
    CHECK(tick("softmax", true).empty());
    CHECK(a11y_act(app, json{{"do", "share"}, {"id", "share:lms_kind"}, {"value", "cmi5"}}).empty());
    CHECK(tick("no-such-lesson", true) == "unknown share action");
    CHECK(a11y_act(app, json{{"do", "share"}, {"id", "share:lms_kind"}, {"value", "scorm3"}}) ==
          "unknown share action");
    CHECK(package_lessons(app) == std::vector<std::string>{first, "softmax"});  // as the popup showed them ticked
    CHECK(tick(first, false).empty());
    CHECK(a11y_act(app, json{{"do", "share"}, {"id", "share:lms_download"}}).empty());
    CHECK(lesson == "softmax");
    CHECK(kind == "cmi5");
    CHECK(tick("entropy", true).empty());
    CHECK(a11y_act(app, json{{"do", "share"}, {"id", "share:lms_download"}}).empty());
    CHECK(lesson == "softmax,entropy");  // one package, a unit per lesson, in the catalog's order
  }
  SECTION("the heatmap's PNG and SVG paint each weight in the canvas's colour (one colour scale)") {
    int w = 0, h = 0;
    std::vector<uint8_t> rgba;
    app.host.save_png = [&](const std::string& n, int width, int height, const std::vector<uint8_t>& px) {
      w = width;
      h = height;
      rgba = px;
      return SaveOutcome{true, n, ""};
    };
    app.host.download = [](const std::string& n, const std::string&, const std::string&) {
      return SaveOutcome{true, n, ""};
    };
    REQUIRE(a11y_act(app, json{{"do", "share"}, {"id", "share:png_heatmap"}}).empty());
    const auto& weights = app.result.core.first_head().weights;
    REQUIRE(w > 0);
    CHECK(w == h);
    const int cell = w / static_cast<int>(weights.cols());
    const std::string svg = heatmap_svg(app);
    for (int i = 0; i < weights.rows(); ++i)
      for (int j = 0; j < weights.cols(); ++j) {
        const Rgb c = viridis(static_cast<float>(weights(i, j)));
        const size_t at = (static_cast<size_t>(i * cell + cell / 2) * w + j * cell + cell / 2) * 4;
        const auto byte = [](float v) { return static_cast<int>(std::lround(v * 255)); };
        CHECK(int(rgba[at]) == byte(c.r));
        CHECK(int(rgba[at + 1]) == byte(c.g));
        CHECK(int(rgba[at + 2]) == byte(c.b));
        char hex[8];
        std::snprintf(hex, sizeof hex, "#%02x%02x%02x", byte(c.r), byte(c.g), byte(c.b));
        CHECK(svg.find(hex) != std::string::npos);
      }
  }
  SECTION("the embed options' twins: unknown ids refused, the size clamped, invalid origins give why and no code") {
    std::string copied;
    app.host.copy_text = [&](const std::string& t) { copied = t; };
    app.host.page_url = [] { return std::string("https://play.example/"); };
    const auto set = [&](const std::string& id, const json& value) {
      return a11y_act(app, json{{"do", "share"}, {"id", id}, {"value", value}});
    };
    const json groups = share_twins(app);
    REQUIRE(twin_of(groups, "share:show")["kind"] == "group");
    CHECK(twin_of(groups, "share:show")["label"] == "Panels to show");
    CHECK(twin_of(groups, "share:lock")["controls"].size() == control_ids().size());
    CHECK(set("share:show:no-such-panel", true) == "no panel an embed can show: no-such-panel");
    CHECK(set("share:show:share", true) == "no panel an embed can show: share");
    CHECK(set("share:lock:nope", true) == "no control an embed can lock or hide: nope");
    CHECK(set("share:hide:d_k", "yes") == "share:hide:d_k is ticked with true or false");
    CHECK(set("share:embed_width", "wide") == "share:embed_width is a number of pixels");
    CHECK(app.embed_choice.panels == std::vector<std::string>{"heatmap", "saturation"});  // unchanged
    CHECK(set("share:show:variance", true).empty());
    CHECK(set("share:lock:scale", true).empty());
    CHECK(set("share:hide:seed", true).empty());
    CHECK(set("share:embed_width", 50).empty());
    CHECK(set("share:embed_height", 1e12).empty());
    CHECK(app.embed_choice.width == kEmbedMinWidth);
    CHECK(app.embed_choice.height == kEmbedMaxHeight);

    CHECK(set("share:origins", "ftp://course.example").empty());  // kept as typed, its problem shown beside it
    const json twins = share_twins(app);
    CHECK(twin_of(twins, "share:origins")["value"] == "ftp://course.example");
    CHECK(twin_of(twins, "share:origins")["error"].get<std::string>().find("must start with http") !=
          std::string::npos);
    CHECK(twin_of(twins, "share:copy_embed")["disabled"] == true);
    CHECK(twin_of(twins, "share:copy_embed")["reason"] == "Fix the host origins first.");
    CHECK(set("share:copy_embed", nullptr).rfind("Fix the host origins first. origin", 0) == 0);
    CHECK(copied.empty());
    CHECK_FALSE(has(twins, "share:embed_code"));

    CHECK(set("share:origins", "https://Course.example:443").empty());
    CHECK(set("share:copy_embed", nullptr).empty());
    const EmbedCode code = embed_code(app);
    CHECK(copied == code.html);
    CHECK(twin_of(share_twins(app), "share:embed_code")["value"] == code.html);
    CHECK(code.html.find("width=\"200\" height=\"4000\"") != std::string::npos);
    REQUIRE(code.url.rfind("https://play.example/?", 0) == 0);
    EmbedSettings read;
    const std::string query = code.url.substr(code.url.find('?') + 1, code.url.find('#') - code.url.find('?') - 1);
    CHECK(parse_embed_query(query, read) == "");
    CHECK(read.panels == std::vector<std::string>{"heatmap", "saturation", "variance"});
    CHECK(read.locked == std::vector<std::string>{"d_k", "scale"});
    CHECK(read.hidden == std::vector<std::string>{"seed"});
    CHECK(read.origins == std::vector<std::string>{"https://course.example"});

    for (const char* id : {"heatmap", "saturation", "variance"})
      CHECK(set(std::string("share:show:") + id, false).empty());
    CHECK(app.embed_choice.code.empty());  // a change of the choice: the code shown was another's
    CHECK(set("share:copy_embed", nullptr) == "Choose at least one panel to show.");
    CHECK(twin_of(share_twins(app), "share:copy_embed")["reason"] == "Choose at least one panel to show.");
  }
  SECTION("an id that is no Share control is refused") {
    CHECK(a11y_act(app, json{{"do", "share"}, {"id", "d_k"}}) == "unknown share action");
  }
}
