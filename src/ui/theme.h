// theme.h — the text and background colours of both themes, declared once: Shell::apply_theme sets
// them and a unit test holds every text/background pair to WCAG AA (4.5:1), and text on a coloured cell (the
// heatmap's viridis, the worksheet's right/wrong fills) to the same.
#pragma once

#include <algorithm>
#include <cmath>

#include "app/base/colormap.h"

namespace attn::ui {

using attn::Rgb;      // app/base/colormap.h
using attn::viridis;  // the heatmap's colours, the same for the exports

struct ThemePalette {
  Rgb window_bg;      // panels are opaque: text of the panel underneath never shows through
  Rgb text;           // body text
  Rgb text_disabled;  // captions, axis labels, legends (ImGuiCol_TextDisabled)
  Rgb highlight;      // the selected query row's label and outline
  Rgb title;          // headings such as a preset's title
  Rgb good, bad;      // a right answer, a wrong one
  Rgb warn;           // a slip to look at: a remark on a slip, an answer that follows from an earlier one
  Rgb info;           // a worked breakdown ("Show me")
};

// ImGui's StyleColorsDark/Light backgrounds, with secondary text dark or light enough to read: the
// stock light theme's grey captions are about 2.5:1 on its background.
constexpr ThemePalette kDarkPalette{{0.06f, 0.06f, 0.06f},   {1.00f, 1.00f, 1.00f}, {0.64f, 0.64f, 0.64f},
                                    {1.00f, 0.745f, 0.235f}, {0.55f, 0.80f, 1.00f}, {0.50f, 0.90f, 0.50f},
                                    {1.00f, 0.60f, 0.40f},   {1.00f, 0.75f, 0.43f}, {0.59f, 0.78f, 1.00f}};
constexpr ThemePalette kLightPalette{{0.94f, 0.94f, 0.94f}, {0.00f, 0.00f, 0.00f}, {0.33f, 0.33f, 0.33f},
                                     {0.60f, 0.26f, 0.00f}, {0.08f, 0.35f, 0.67f}, {0.00f, 0.42f, 0.10f},
                                     {0.70f, 0.18f, 0.00f}, {0.50f, 0.30f, 0.00f}, {0.08f, 0.35f, 0.67f}};

constexpr const ThemePalette& palette(bool dark) { return dark ? kDarkPalette : kLightPalette; }

// The frames of the controls (sliders, checkboxes, fields, buttons) and the marks of their state (a tick, a slider's
// grab), WCAG 1.4.11: a frame's edge at 3:1 on the panel and on its fill, the mark at 3:1 on the fill. ImGui's stock
// frames are about 1.5:1 on the dark panel and 1.1:1 on the light one, with no edge drawn.
struct ControlPalette {
  Rgb frame_bg;      // a slider's track, a checkbox's box, a field (opaque)
  Rgb frame_border;  // the edge drawn round each frame (ImGuiCol_Border, FrameBorderSize 1)
  Rgb mark;          // a checkbox's tick and a slider's grab
};
constexpr ControlPalette kDarkControls{{0.114f, 0.184f, 0.287f}, {0.48f, 0.50f, 0.58f}, {0.26f, 0.59f, 0.98f}};
constexpr ControlPalette kLightControls{{1.00f, 1.00f, 1.00f}, {0.45f, 0.45f, 0.50f}, {0.10f, 0.40f, 0.80f}};
constexpr const ControlPalette& control_palette(bool dark) { return dark ? kDarkControls : kLightControls; }

// Marks drawn on the panels and inside the plots (WCAG 1.4.11: 3:1 on the panel and on a plot's frame, test_theme.cpp).
// The dark theme's blue, orange and amber are under 3:1 on the light theme's white plots (amber 1.7:1), so each theme
// has its own. The two series differ by more than colour: the unscaled one is dashed (plot.cpp).
struct MarkPalette {
  Rgb scaled;    // a series with ÷√d_k, Learn's model A, a token's point on the embedding plane
  Rgb unscaled;  // a series without it, Learn's model B
  Rgb outline;   // where a lesson points: a panel, the current step's row, an explanation's box
  Rgb alarm;     // saturation: the meter's fill, the saturated weight's line
};
constexpr MarkPalette kDarkMarks{
    {0.275f, 0.588f, 1.00f}, {0.92f, 0.47f, 0.16f}, {1.00f, 0.745f, 0.235f}, {0.90f, 0.235f, 0.196f}};
constexpr MarkPalette kLightMarks{
    {0.10f, 0.40f, 0.80f}, {0.72f, 0.32f, 0.00f}, {0.60f, 0.26f, 0.00f}, {0.75f, 0.10f, 0.05f}};
constexpr const MarkPalette& mark_palette(bool dark) { return dark ? kDarkMarks : kLightMarks; }

// A worksheet cell's fill by its check (the same in both themes; its text is ink_on the fill).
struct CellFills {
  Rgb correct, carried, wrong, invalid;
};
constexpr CellFills kCellFills{
    {0.16f, 0.45f, 0.22f}, {0.45f, 0.40f, 0.12f}, {0.55f, 0.18f, 0.16f}, {0.55f, 0.32f, 0.08f}};

// WCAG 2.x relative luminance of an sRGB colour, and the contrast ratio of two.
inline double relative_luminance(Rgb c) {
  const auto lin = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}
inline double contrast_ratio(Rgb a, Rgb b) {
  const double la = relative_luminance(a), lb = relative_luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}
// Black or white, whichever contrasts more with `bg`: at least 4.58:1 on any colour.
inline Rgb ink_on(Rgb bg) {
  const Rgb black{0, 0, 0}, white{1, 1, 1};
  return contrast_ratio(black, bg) >= contrast_ratio(white, bg) ? black : white;
}

}  // namespace attn::ui
