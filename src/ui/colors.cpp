// colors.cpp — colormaps for ImGui-drawn cells (the big heatmap uses the GLSL twin).
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "ui/panel.h"

namespace attn::ui {

unsigned viridis_u32(float t) {
  t = std::clamp(std::isfinite(t) ? t : 0.0f, 0.0f, 1.0f);
  const float c[7][3] = {{0.2777273f, 0.0054073f, 0.3340998f},   {0.1050930f, 1.4046135f, 1.3845902f},
                         {-0.3308618f, 0.2148476f, 0.0950952f},  {-4.6342305f, -5.7991010f, -19.3324410f},
                         {6.2282699f, 14.1799334f, 56.6905526f}, {4.7763850f, -13.7451454f, -65.3530326f},
                         {-5.4354559f, 4.6458526f, 26.3124352f}};
  float rgb[3];
  for (int k = 0; k < 3; ++k) {
    float v = c[6][k];
    for (int i = 5; i >= 0; --i) v = c[i][k] + t * v;
    rgb[k] = std::clamp(v, 0.0f, 1.0f);
  }
  return ImGui::ColorConvertFloat4ToU32(ImVec4(rgb[0], rgb[1], rgb[2], 1.0f));
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

// Black or white text, whichever contrasts more with the cell colour.
unsigned text_on(unsigned bg) {
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(bg);
  const float lum = 0.299f * c.x + 0.587f * c.y + 0.114f * c.z;
  return lum > 0.55f ? IM_COL32(15, 15, 15, 255) : IM_COL32(250, 250, 250, 255);
}

}  // namespace attn::ui
