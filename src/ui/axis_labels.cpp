// axis_labels.cpp — shortened, centred, thinned-if-needed slot labels (see axis_labels.h).
#include "ui/axis_labels.h"

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {
const char* const kEllipsis = "\xE2\x80\xA6";  // …

// Length of the UTF-8 character starting at s[i].
size_t utf8_len(const std::string& s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  const size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  return std::min(n, s.size() - i);
}
}  // namespace

std::string fit_label(const std::string& s, float max_w) {
  if (ImGui::CalcTextSize(s.c_str()).x <= max_w) return s;
  std::string best;
  for (size_t i = 0; i < s.size();) {
    i += utf8_len(s, i);
    const std::string cut = s.substr(0, i) + kEllipsis;
    if (ImGui::CalcTextSize(cut.c_str()).x > max_w) break;
    best = cut;
  }
  return best;
}

int draw_axis_labels(ImDrawList* dl, const std::vector<std::string>& labels, const AxisLabels& a) {
  const int m = static_cast<int>(labels.size());
  if (m == 0 || a.slot_w <= 0) return -1;
  // A label needs its full width, or at least its first character and "…"; when some label needs more
  // than a slot even so, every k-th slot gets a label k slots wide (still centred on its own slot).
  float need = 1;
  for (const std::string& t : labels) {
    const float full = ImGui::CalcTextSize(t.c_str()).x;
    const float shortest = t.empty() ? 0 : ImGui::CalcTextSize((t.substr(0, utf8_len(t, 0)) + kEllipsis).c_str()).x;
    need = std::max(need, std::min(full, shortest) + 2);
  }
  const int every = std::max(1, static_cast<int>(std::ceil(need / a.slot_w)));
  const float room = a.slot_w * static_cast<float>(every) - 2;
  const float line_h = ImGui::GetTextLineHeight();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  int hovered = -1;
  for (int j = 0; j < m; j += every) {
    const std::string t = fit_label(labels[static_cast<size_t>(j)], room);
    const float cx = a.origin.x + a.slot_w * (static_cast<float>(j) + 0.5f);
    const float tw = ImGui::CalcTextSize(t.c_str()).x;
    const ImU32 col = j == a.highlight ? a.highlight_color : a.color;
    if (!t.empty()) dl->AddText(ImVec2(cx - tw * 0.5f, a.origin.y), col, t.c_str());
  }
  if (mouse.y >= a.origin.y && mouse.y < a.origin.y + line_h && mouse.x >= a.origin.x) {
    const int j = static_cast<int>((mouse.x - a.origin.x) / a.slot_w);
    if (j >= 0 && j < m) hovered = j;
  }
  return hovered;
}

}  // namespace attn::ui
