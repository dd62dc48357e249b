// test_theme.cpp — every text colour of both themes reads at WCAG AA (contrast ≥ 4.5:1) on the panel
// background it is drawn on.
#include <catch2/catch.hpp>
#include <cmath>

#include "ui/theme.h"

namespace {
using attn::ui::Rgb;

// WCAG 2.x relative luminance of an sRGB colour.
double luminance(Rgb c) {
  const auto lin = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}
double contrast(Rgb a, Rgb b) {
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}
}  // namespace

TEST_CASE("theme: text, captions, the selected row and titles reach 4.5:1 in both themes", "[theme]") {
  for (const bool dark : {true, false}) {
    const attn::ui::ThemePalette& p = attn::ui::palette(dark);
    INFO((dark ? "dark" : "light") << " theme");
    CHECK(contrast(p.text, p.window_bg) >= 4.5);
    CHECK(contrast(p.text_disabled, p.window_bg) >= 4.5);
    CHECK(contrast(p.highlight, p.window_bg) >= 4.5);
    CHECK(contrast(p.title, p.window_bg) >= 4.5);
    CHECK(contrast(p.good, p.window_bg) >= 4.5);
    CHECK(contrast(p.bad, p.window_bg) >= 4.5);
  }
  // The stock light theme's caption grey (0.60) would fail: the check can tell.
  CHECK(contrast(Rgb{0.60f, 0.60f, 0.60f}, attn::ui::kLightPalette.window_bg) < 4.5);
}
