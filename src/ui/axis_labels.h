// axis_labels.h — token names under bars and over heatmap columns that never run into each other and
// always stand under their own slot: shortened with "…" to fit, thinned only when not even that fits.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace attn::ui {

// `s` cut at a UTF-8 boundary and ended with "…" so that it is at most `max_w` wide ("" if even one
// character and the ellipsis are wider).
std::string fit_label(const std::string& s, float max_w);

struct AxisLabels {
  ImVec2 origin;     // top-left of slot 0's label area
  float slot_w = 0;  // width of one slot (bar or column)
  ImU32 color = 0;
  int highlight = -1;  // slot drawn in `highlight_color` (the selected row), or -1
  ImU32 highlight_color = 0;
};

// Draws the labels; returns the slot whose label the pointer is over (for a tooltip), or -1.
int draw_axis_labels(ImDrawList* dl, const std::vector<std::string>& labels, const AxisLabels& a);

}  // namespace attn::ui
