// track.cpp — item rectangles in ImGui units (CSS pixels on the web, logical pixels on desktop).
#include "ui/track.h"

#include <imgui.h>

namespace attn::ui {
namespace {
std::map<std::string, ItemRect>* g_rects = nullptr;  // per-frame binding set by the shell
}
void bind_item_rects(std::map<std::string, ItemRect>* rects) { g_rects = rects; }
void track(const std::string& label) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  track_rect(label, a.x, a.y, b.x - a.x, b.y - a.y);
}
void track_rect(const std::string& label, float x, float y, float w, float h) {
  if (g_rects) (*g_rects)[label] = ItemRect{x, y, w, h};
}
}  // namespace attn::ui
