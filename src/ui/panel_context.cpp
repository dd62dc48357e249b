// panel_context.cpp — embed locks and item rectangles, read from the App the context wraps.
#include <imgui.h>

#include <imgui_internal.h>
#include <algorithm>

#include "app/state/registry.h"
#include "ui/panel.h"

namespace attn::ui {

bool PanelContext::hidden(ControlId control) const {
  return app.embed.enabled && app.embed.is_hidden(control_id(control));
}
bool PanelContext::locked(ControlId control) const {
  const char* id = control_id(control);
  if (app.embed.enabled && app.embed.is_locked(id)) return true;
  for (const std::string& locked_id : app.lesson_locks)  // the open lesson step's locks
    if (locked_id == id) return true;
  return false;
}

void PanelContext::check_fit(const std::string& what) {
  // A label or button running past the panel's right edge is cut off for the reader (a panel that scrolls
  // sideways, such as a wide matrix, is not cutting anything).
  // The edge is where the window stops drawing, or the screen's edge for a floating window wider than the
  // screen; full-width rows (headers, tree nodes) end at most half a padding beyond it.
  const ImGuiWindow* w = ImGui::GetCurrentWindowRead();
  const ImGuiViewport* screen = ImGui::GetMainViewport();
  const float right = std::min(w->InnerClipRect.Max.x, screen->WorkPos.x + screen->WorkSize.x) +
                      0.5f * ImGui::GetStyle().WindowPadding.x;
  if (ImGui::GetItemRectMax().x > right + 1.0f && !w->ScrollbarX) app.cut_items.insert(what);
}

void PanelContext::track_id(const std::string& id) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  track_rect_id(id, a.x, a.y, b.x - a.x, b.y - a.y);
  check_fit(id);
  if (ImGui::IsItemFocused()) {  // keyboard focus (Tab / arrows): tests and the screen reader follow it
    app.focused_item = id;
    if (!GImGui->NavDisableHighlight) draw_focus_ring(a.x, a.y, b.x, b.y);
  }
}

// A sighted keyboard learner must see where the focus is (WCAG 2.4.7): a 3 px amber ring with a dark rim,
// visible on both themes, while the keyboard (not the mouse) moves the focus, on the canvas or in its DOM twin.
void PanelContext::draw_focus_ring(float x0, float y0, float x1, float y1) {
  ImDrawList* fg = ImGui::GetForegroundDrawList();
  fg->AddRect(ImVec2(x0 - 4, y0 - 4), ImVec2(x1 + 4, y1 + 4), IM_COL32(20, 20, 20, 255), 3, 0, 1);
  fg->AddRect(ImVec2(x0 - 3, y0 - 3), ImVec2(x1 + 3, y1 + 3), IM_COL32(255, 176, 0, 255), 3, 0, 3);
}

namespace {
// The twin-focused control this canvas last brought into view: each new focus scrolls its panel once, and the
// learner may scroll away from it afterwards. `g_seen_focus` notices the focus moving (and coming back).
std::string g_shown_focus, g_seen_focus;
}  // namespace

void PanelContext::track_rect_id(const std::string& id, float x, float y, float w, float h) {
  app.item_rects[id] = ItemRect{x, y, w, h};  // older ids are mapped to this one where they are looked up
  if (*panel) app.item_panels.emplace(id, panel);
  if (app.dom_focus != g_seen_focus) g_seen_focus = app.dom_focus, g_shown_focus.clear();
  if (app.dom_focus.empty() || id != app.dom_focus) return;
  // The control whose DOM twin has focus (a lesson far down the list, the builder's Save) is scrolled into its
  // panel's view, and its ring drawn only where the panel shows it: never over another panel.
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const ImRect item(x, y, x + w, y + h), shown = window->InnerClipRect;
  if (g_shown_focus != id) {
    g_shown_focus = id;
    if (!shown.Contains(item)) ImGui::ScrollToRect(window, item, ImGuiScrollFlags_KeepVisibleEdgeY);
  }
  if (!shown.Overlaps(item)) return;
  ImGui::GetForegroundDrawList()->PushClipRect(shown.Min, shown.Max, true);
  draw_focus_ring(x, y, x + w, y + h);
  ImGui::GetForegroundDrawList()->PopClipRect();
}

LockScope::LockScope(const PanelContext& ctx, ControlId control) : disabled_(ctx.locked(control)) {
  if (disabled_) ImGui::BeginDisabled();
}
LockScope::~LockScope() {
  if (disabled_) ImGui::EndDisabled();
}

}  // namespace attn::ui
