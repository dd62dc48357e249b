// plot.h — small line/bar plots drawn on ImDrawList (Dear ImGui 1.86 has no ImPlot).
#pragma once

#include <imgui.h>

#include "app/playground/thumbnail.h"
#include "core/attention/scenario.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace attn::ui {

// Theme-aware colours (theme.h), the same in every panel: "scaled" and "unscaled" read alike across plots, and the
// dark theme's amber and light blue, unreadable on a white background, are not used on the light theme.
bool light_theme();
ImU32 scaled_col();     // a series with ÷√d_k
ImU32 unscaled_col();   // a series without it (drawn dashed)
ImU32 outline_col();    // where a lesson points
ImU32 alarm_col();      // saturation's marks
ImU32 highlight_col();  // the selected query
ImU32 title_col();      // headings such as a preset's title
ImU32 good_col();       // a right answer
ImU32 bad_col();        // a wrong one
ImU32 warn_col();       // a slip to look at
ImU32 info_col();       // a worked breakdown

struct Axis {
  double lo = 0, hi = 1;
  bool log = false;   // log axes need lo > 0
  bool ticks = true;  // false: the caller labels the axis (e.g. token names under bars)
};

// One plot: reserves its rectangle (with room for tick labels), draws the frame and ticks, and
// maps data to screen. Everything drawn through it is clipped to the data area.
class Plot {
 public:
  Plot(const char* id, float height, Axis x, Axis y);
  ~Plot();
  Plot(const Plot&) = delete;
  Plot& operator=(const Plot&) = delete;

  ImVec2 at(double x, double y) const;
  double x_of(float screen_x) const;
  double y_of(float screen_y) const;
  // Polyline through the finite points; gaps where a value is not finite.
  void line(const std::vector<double>& xs, const std::vector<double>& ys, ImU32 col, float thick = 2.0f);
  // The area between lo and hi (a spread around a mean), drawn first so lines stay on top.
  void band(const std::vector<double>& xs, const std::vector<double>& lo, const std::vector<double>& hi, ImU32 col);
  void vline(double x, ImU32 col, float thick = 1.0f);
  void hline(double y, ImU32 col, float thick = 1.0f);
  void bar(double x0, double x1, double y, ImU32 col);  // from the bottom of the y axis up to y
  void dot(double x, double y, ImU32 col, float radius = 3.0f);
  bool hovered() const { return hovered_; }
  float mouse_x() const { return ImGui::GetIO().MousePos.x; }
  ImVec2 min() const { return p0_; }
  ImVec2 max() const { return p1_; }

 private:
  double tx(double x) const;
  double ty(double y) const;
  void ticks();
  static int y_ticks(float pixels);
  ImDrawList* dl_;
  ImVec2 p0_, p1_;  // data area on screen
  Axis x_, y_;
  bool hovered_ = false;
};

using Legend = std::vector<std::pair<ImU32, std::string>>;
// Coloured swatches with names, continuing the current line (a plot's title) when they fit. Kept
// outside the plot so it never hides data.
void legend_row(const Legend& entries);
// A small filled label ("SATURATED") that flows like a text item.
void badge(const char* text, ImU32 bg, ImU32 fg = IM_COL32(20, 20, 20, 255));
// A checkbox whose label wraps beside it instead of running past the panel's edge.
bool checkbox_wrapped(const std::string& label, bool* v);
// Word-wrapped text that breaks only at spaces: ImGui's TextWrapped also breaks after '.' and ',',
// which splits numbers such as 0.4011 across lines. col = 0 uses the normal text colour.
void text_wrapped(const std::string& text, ImU32 col = 0);
// Puts the next item on this line when `width` more pixels (after the usual spacing) fit before the panel's
// right edge, else starts a new line: a row of buttons wraps instead of running off a narrow panel.
void same_line_if_fits(float width, float spacing = -1.0f);
// The width a button needs for its label, "##id" suffix not counted.
float button_width(const std::string& label);
// The width a checkbox needs: its box, the gap, and its label ("##id" suffix not counted).
float checkbox_width(const std::string& label);
// A surface a finger drags in two dimensions (the embedding plane, the mask grid), marked after its item each
// frame: on a touch screen a swipe that starts there drags, while elsewhere a mostly vertical swipe scrolls.
void mark_two_d_drag_surface();
bool is_two_d_drag_surface(ImGuiID id);
// A button as wide as the panel whose label wraps onto more lines (the button grows in height) instead of
// being cut: for lesson choices and titles, which are sentences in some languages. `label` may end in "##id".
bool wrapped_button(const std::string& label);
// A slider's width that leaves room for its label on the same line, at least `min_em` em.
float width_beside_label(const std::string& label, float min_em = 6.0f);
// For a slider or text field labelled "text###id": sets the next item's width so its label fits beside it (the usual
// item width, narrower down to `min_em` em) and returns the label; when not even that fits (a longer language, large
// text, a phone), draws the label wrapped above and returns "###id", the field then as wide as the panel.
std::string field_label(const std::string& label, float min_em = 6.0f);
// A matrix's thumbnail (app/playground/thumbnail.h) as coloured rects: viridis for weights in [0, 1], else diverging.
void draw_thumbnail(ImDrawList* dl, ImVec2 p0, float w, float h, const Thumbnail& t, bool probabilities);

// A thumbnail of at most kSide cells per side, pooled again only when `key` changes (the result's revision, a probe's
// serial): pooling reads every cell, a million per head at 1024 tokens.
class ThumbnailCache {
 public:
  static constexpr int kSide = 32;
  const Thumbnail& get(uint64_t key, const Mat& M, bool probabilities);

 private:
  uint64_t key_ = ~0ull;
  Thumbnail thumbnail_;
};
// Text for a number that is never NaN or infinite: the fallback replaces it.
std::string fmt(double v, int decimals = 4, const char* fallback = "—");

}  // namespace attn::ui
