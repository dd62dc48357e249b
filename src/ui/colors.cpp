// colors.cpp — colormaps for ImGui-drawn cells (the big heatmap uses the GLSL twin).
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "ui/panel.h"
#include "ui/theme.h"

namespace attn::ui {

unsigned viridis_u32(float t) {
  const Rgb c = viridis(t);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f));
}

unsigned diverging_u32(float v, float range) {
  float t = range > 0 && std::isfinite(v) ? std::clamp(v / range, -1.0f, 1.0f) : 0.0f;
  // Blue (negative) – light grey (0) – orange (positive): distinguishable with red–green deficiency.
  const ImVec4 neg(0.13f, 0.40f, 0.67f, 1), mid(0.93f, 0.93f, 0.93f, 1), pos(0.85f, 0.37f, 0.0f, 1);
  const ImVec4& end = t < 0 ? neg : pos;
  const float a = std::fabs(t);
  return ImGui::ColorConvertFloat4ToU32(
      ImVec4(mid.x + (end.x - mid.x) * a, mid.y + (end.y - mid.y) * a, mid.z + (end.z - mid.z) * a, 1.0f));
}

void section_header(const char* text) {
  ImGui::Spacing();
  ImGui::TextDisabled("%s", text);
  ImGui::Separator();
}

// Black or white text, whichever contrasts more with the cell colour (theme.h: at least 4.58:1).
unsigned text_on(unsigned bg) {
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(bg);
  const Rgb ink = ink_on({c.x, c.y, c.z});
  return ImGui::ColorConvertFloat4ToU32(ImVec4(ink.r, ink.g, ink.b, 1.0f));
}

}  // namespace attn::ui
