// test_svg.cpp — the vector figures: one cell per weight, one label per token, text as text, escaped,
// and no NaN anywhere.
#include <catch2/catch.hpp>
#include <regex>

#include "app/app.h"
#include "app/exchange/svg_export.h"
#include "app/state/state_json.h"

using namespace attn;

namespace {
size_t count(const std::string& s, const std::string& pattern) {
  size_t k = 0;
  for (size_t at = s.find(pattern); at != std::string::npos; at = s.find(pattern, at + 1)) ++k;
  return k;
}
}  // namespace

TEST_CASE("SVG exports hold every cell and label as elements and text", "[svg]") {
  App app;
  REQUIRE(apply_state_text(app.state, R"({"sentence": "The <cat> & the mat"})") == "");
  app.update();
  const int n = static_cast<int>(app.result.core.main.weights.rows());
  REQUIRE(n == 5);
  const std::string h = heatmap_svg(app);
  CHECK(h.rfind("<?xml", 0) == 0);
  CHECK(h.find("</svg>") != std::string::npos);
  CHECK(count(h, "<rect class=\"cell\"") == static_cast<size_t>(n * n));
  CHECK(count(h, "class=\"row-label\"") == static_cast<size_t>(n));
  CHECK(count(h, "class=\"col-label\"") == static_cast<size_t>(n));
  CHECK(h.find("&lt;cat&gt;") != std::string::npos);  // token text escaped, never markup
  CHECK(h.find("<cat>") == std::string::npos);
  CHECK(h.find("nan") == std::string::npos);
  CHECK(count(h, "<text") == count(h, "</text>"));
  const std::string s = saturation_svg(app);
  CHECK(count(s, "class=\"bar-scaled\"") == static_cast<size_t>(n));
  CHECK(count(s, "class=\"bar-unscaled\"") == static_cast<size_t>(n));
  const std::string v = variance_svg(app);
  CHECK(count(v, "class=\"bin-unscaled\"") == app.result.variance.hist_unscaled.counts.size());
  CHECK(count(v, "class=\"bin-scaled\"") == app.result.variance.hist_scaled.counts.size());
  CHECK(v.find("q·k / √d_k") != std::string::npos);  // axes labelled
}

TEST_CASE("masked cells are drawn grey, not as weights", "[svg]") {
  App app;
  REQUIRE(apply_state_text(app.state, R"({"mask": "causal"})") == "");
  app.update();
  const std::string h = heatmap_svg(app);
  const int n = static_cast<int>(app.result.core.main.weights.rows());
  CHECK(count(h, "fill=\"#777777\"") == static_cast<size_t>(n * (n - 1) / 2));
}
