// test_theme.cpp — every text colour of both themes reads at WCAG AA (contrast ≥ 4.5:1) on the panel
// background it is drawn on.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "ui/theme.h"

namespace {
using attn::ui::contrast_ratio;
using attn::ui::Rgb;
double contrast(Rgb a, Rgb b) { return contrast_ratio(a, b); }
}  // namespace

// wcag: 1.4.3 — theme text colours, and black or white text on coloured cells, reach 4.5:1
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
    CHECK(contrast(p.warn, p.window_bg) >= 4.5);
    CHECK(contrast(p.info, p.window_bg) >= 4.5);
  }
  // The stock light theme's caption grey (0.60) would fail: the check can tell.
  CHECK(contrast(Rgb{0.60f, 0.60f, 0.60f}, attn::ui::kLightPalette.window_bg) < 4.5);
}

TEST_CASE("theme: text on a coloured cell reads at 4.5:1 whatever the colour", "[theme]") {
  using attn::ui::ink_on;
  // The heatmap's numbers on every viridis colour (white on mid-green was 3.8:1 before the ink was chosen by contrast).
  double worst = 100;
  for (int k = 0; k <= 1000; ++k) {
    const Rgb cell = attn::ui::viridis(static_cast<float>(k) / 1000);
    worst = std::min(worst, contrast(ink_on(cell), cell));
  }
  CHECK(worst >= 4.5);
  // The worksheet's right / follows-from-a-slip / wrong / not-a-number fills, and the lesson's choice buttons.
  const attn::ui::CellFills& f = attn::ui::kCellFills;
  for (const Rgb& fill : {f.correct, f.carried, f.wrong, f.invalid}) CHECK(contrast(ink_on(fill), fill) >= 4.5);
  // The light theme's black text on the wrong fill, as cells were drawn before: the check can tell.
  CHECK(contrast(attn::ui::kLightPalette.text, f.wrong) < 4.5);
}
