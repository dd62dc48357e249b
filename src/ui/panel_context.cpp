// panel_context.cpp — embed locks and item rectangles, read from the App the context wraps.
#include <imgui.h>
#include <imgui_internal.h>

#include "app/registry.h"
#include "ui/panel.h"

namespace attn::ui {

bool PanelContext::hidden(const char* control) const { return app.embed.enabled && app.embed.is_hidden(control); }
bool PanelContext::locked(const char* control) const {
  if (app.embed.enabled && app.embed.is_locked(control)) return true;
  for (const std::string& id : app.lesson_locks)  // the open lesson step's locks
    if (id == control) return true;
  return false;
}

void PanelContext::track(const std::string& id) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  track_rect(id, a.x, a.y, b.x - a.x, b.y - a.y);
  // A label or button running past the panel's right edge is cut off for the reader (a panel that scrolls
  // sideways, such as a wide matrix, is not cutting anything).
  // The edge is where the window stops drawing; full-width rows (headers, tree nodes) end at most half a
  // padding beyond it.
  const ImGuiWindow* w = ImGui::GetCurrentWindowRead();
  const float right = w->InnerClipRect.Max.x + 0.5f * ImGui::GetStyle().WindowPadding.x;
  if (b.x > right + 1.0f && !w->ScrollbarX) app.cut_items.insert(id);
  if (ImGui::IsItemFocused()) {  // keyboard focus (Tab / arrows): tests and the screen reader follow it
    const ControlInfo* c = find_control(id);
    app.focused_item = c ? c->id : id;
    // A sighted keyboard learner must see where the focus is (WCAG 2.4.7): a 3 px amber ring with a dark rim,
    // visible on both themes, while the keyboard (not the mouse) moves the focus.
    if (!GImGui->NavDisableHighlight) {
      ImDrawList* fg = ImGui::GetForegroundDrawList();
      fg->AddRect(ImVec2(a.x - 4, a.y - 4), ImVec2(b.x + 4, b.y + 4), IM_COL32(20, 20, 20, 255), 3, 0, 1);
      fg->AddRect(ImVec2(a.x - 3, a.y - 3), ImVec2(b.x + 3, b.y + 3), IM_COL32(255, 176, 0, 255), 3, 0, 3);
    }
  }
}

void PanelContext::track_rect(const std::string& id, float x, float y, float w, float h) {
  const ItemRect rect{x, y, w, h};
  app.item_rects[id] = rect;
  // Controls are found by their id; their older label-text ids stay valid as aliases.
  if (const ControlInfo* c = find_control(id))
    for (const char* name : {c->id, c->label}) app.item_rects[name] = rect;
}

LockScope::LockScope(const PanelContext& ctx, const char* control) : disabled_(ctx.locked(control)) {
  if (disabled_) ImGui::BeginDisabled();
}
LockScope::~LockScope() {
  if (disabled_) ImGui::EndDisabled();
}

}  // namespace attn::ui
