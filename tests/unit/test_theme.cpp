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

// wcag: 1.4.11 — the controls' frames stand out from the panel at 3:1, and a tick or a slider's grab from its frame
TEST_CASE("theme: a control's frame edge, its fill's text and its tick or grab reach their contrast in both themes",
          "[theme]") {
  for (const bool dark : {true, false}) {
    const attn::ui::ThemePalette& p = attn::ui::palette(dark);
    const attn::ui::ControlPalette& c = attn::ui::control_palette(dark);
    INFO((dark ? "dark" : "light") << " theme");
    CHECK(contrast(c.frame_border, p.window_bg) >= 3.0);  // where the control is
    CHECK(contrast(c.frame_border, c.frame_bg) >= 3.0);
    CHECK(contrast(c.mark, c.frame_bg) >= 3.0);  // its state: ticked, the slider's place
    CHECK(contrast(p.text, c.frame_bg) >= 4.5);  // a slider's value, a field's text
  }
  // ImGui's stock dark frame (its fill at 54 % over the panel, no edge drawn) is about 1.5:1: the check can tell.
  const Rgb bg = attn::ui::kDarkPalette.window_bg, stock{0.16f, 0.29f, 0.48f};
  const auto over = [&](float f, float b) { return 0.54f * f + 0.46f * b; };
  CHECK(contrast(Rgb{over(stock.r, bg.r), over(stock.g, bg.g), over(stock.b, bg.b)}, bg) < 3.0);
}

// wcag: 1.4.11 — the plots' lines, bars and points, a lesson's outline and saturation's marks stand out at 3:1 from
// the panel and from a plot's frame, in both themes
TEST_CASE("theme: series, outlines and alarm marks reach 3:1 on the panel and on a plot in both themes", "[theme]") {
  for (const bool dark : {true, false}) {
    const attn::ui::MarkPalette& m = attn::ui::mark_palette(dark);
    const Rgb panel = attn::ui::palette(dark).window_bg, plot = attn::ui::control_palette(dark).frame_bg;
    INFO((dark ? "dark" : "light") << " theme");
    for (const Rgb& mark : {m.scaled, m.unscaled, m.outline, m.alarm}) {
      CHECK(contrast(mark, panel) >= 3.0);
      CHECK(contrast(mark, plot) >= 3.0);
    }
  }
  // The dark theme's series and amber outline, which the light theme drew before, on its white plots: the check can
  // tell.
  const Rgb white_plot = attn::ui::kLightControls.frame_bg;
  CHECK(contrast(attn::ui::kDarkMarks.scaled, white_plot) < 3.0);
  CHECK(contrast(attn::ui::kDarkMarks.unscaled, white_plot) < 3.0);
  CHECK(contrast(attn::ui::kDarkMarks.outline, attn::ui::kLightPalette.window_bg) < 3.0);
}
