// theme.h — the text and background colours of both themes, declared once: Shell::apply_theme sets
// them and a unit test holds every text/background pair to WCAG AA (4.5:1).
#pragma once

namespace attn::ui {

struct Rgb {
  float r, g, b;  // sRGB, 0…1
};

struct ThemePalette {
  Rgb window_bg;      // panels are opaque: text of the panel underneath never shows through
  Rgb text;           // body text
  Rgb text_disabled;  // captions, axis labels, legends (ImGuiCol_TextDisabled)
  Rgb highlight;      // the selected query row's label and outline
  Rgb title;          // headings such as a preset's title
  Rgb good, bad;      // a right answer, a wrong one
};

// ImGui's StyleColorsDark/Light backgrounds, with secondary text dark or light enough to read: the
// stock light theme's grey captions are about 2.5:1 on its background.
constexpr ThemePalette kDarkPalette{{0.06f, 0.06f, 0.06f},   {1.00f, 1.00f, 1.00f}, {0.64f, 0.64f, 0.64f},
                                    {1.00f, 0.745f, 0.235f}, {0.55f, 0.80f, 1.00f}, {0.50f, 0.90f, 0.50f},
                                    {1.00f, 0.60f, 0.40f}};
constexpr ThemePalette kLightPalette{{0.94f, 0.94f, 0.94f}, {0.00f, 0.00f, 0.00f}, {0.33f, 0.33f, 0.33f},
                                     {0.60f, 0.26f, 0.00f}, {0.08f, 0.35f, 0.67f}, {0.00f, 0.42f, 0.10f},
                                     {0.70f, 0.18f, 0.00f}};

constexpr const ThemePalette& palette(bool dark) { return dark ? kDarkPalette : kLightPalette; }

}  // namespace attn::ui
