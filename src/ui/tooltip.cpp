// tooltip.cpp — tooltips that can be dismissed and hovered (tooltip.h).
#include "ui/tooltip.h"

#include <imgui.h>
#include <imgui_internal.h>  // SetKeyOwner: a press on the tooltip is kept from the item beneath it

#include <algorithm>

#include "app/app.h"

namespace attn::ui {
namespace {

struct Tip {
  std::string title, body;  // no title: the body alone
  bool operator==(const Tip& o) const { return title == o.title && body == o.body; }
  std::string text() const { return title.empty() ? body : title + "\n" + body; }
};

// The tooltip drawn in the last frame: where the pointer was when it first showed, and its window.
struct Shown {
  Tip tip;
  ImVec2 anchor, min, max;
  bool valid = false;
};

App* g_app = nullptr;
bool g_dismissed = false;  // Escape hid the tooltips; the pointer moving shows them again
bool g_took_escape = false;
bool g_held = false;            // the pointer moved onto the last tooltip, or is on its way there
bool g_pressed_on_tip = false;  // a mouse button went down on the tooltip and is not yet released
bool g_asked = false;
Tip g_asked_tip;
Shown g_shown;

bool inside(ImVec2 p, ImVec2 lo, ImVec2 hi) { return p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y; }

// Whether the ray from `from` through `p`, beyond p, meets the box [lo, hi] (the slab test).
bool ray_beyond_meets(ImVec2 from, ImVec2 p, ImVec2 lo, ImVec2 hi) {
  float t_in = 1, t_out = 1e30f;
  const float d[2] = {p.x - from.x, p.y - from.y}, o[2] = {from.x, from.y}, l[2] = {lo.x, lo.y}, h[2] = {hi.x, hi.y};
  for (int k = 0; k < 2; ++k) {
    if (d[k] == 0) {
      if (o[k] < l[k] || o[k] > h[k]) return false;
      continue;
    }
    const float t1 = (l[k] - o[k]) / d[k], t2 = (h[k] - o[k]) / d[k];
    t_in = std::max(t_in, std::min(t1, t2));
    t_out = std::min(t_out, std::max(t1, t2));
  }
  return t_in <= t_out;
}

// On the tooltip, or on the way to it: heading from where it showed towards its near part (within three lines of
// its corner nearest that point), not yet past. A pointer that has not moved follows its item; one moving along a
// row of cells, not towards the tooltip, soon leaves this wedge and the next cell's tooltip shows.
bool on_the_way_or_on(const Shown& s, ImVec2 p) {
  if (!s.valid || (p.x == s.anchor.x && p.y == s.anchor.y)) return false;
  if (inside(p, s.min, s.max)) return true;
  const ImVec2 corner(std::clamp(s.anchor.x, s.min.x, s.max.x), std::clamp(s.anchor.y, s.min.y, s.max.y));
  const float reach = 3 * ImGui::GetFontSize();
  const ImVec2 lo(std::max(s.min.x, corner.x - reach), std::max(s.min.y, corner.y - reach));
  const ImVec2 hi(std::min(s.max.x, corner.x + reach), std::min(s.max.y, corner.y + reach));
  return ray_beyond_meets(s.anchor, p, lo, hi);
}

ImVec2 tip_size(const Tip& t) {
  const ImGuiStyle& st = ImGui::GetStyle();
  const ImVec2 body = ImGui::CalcTextSize(t.body.c_str());
  ImVec2 size = body;
  if (!t.title.empty()) {
    const ImVec2 title = ImGui::CalcTextSize(t.title.c_str());
    size = ImVec2(std::max(title.x, body.x), title.y + body.y + 2 * st.ItemSpacing.y + 1);
  }
  return ImVec2(size.x + 2 * st.WindowPadding.x, size.y + 2 * st.WindowPadding.y);
}

// Beside the anchor, below and to the right as ImGui places tooltips, flipped to the other side where it would
// leave the window.
ImVec2 tip_position(ImVec2 anchor, ImVec2 size) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const ImVec2 offset(16 * ImGui::GetStyle().MouseCursorScale, 10 * ImGui::GetStyle().MouseCursorScale);
  ImVec2 pos(anchor.x + offset.x, anchor.y + offset.y);
  if (pos.x + size.x > display.x) pos.x = std::max(0.0f, anchor.x - offset.x - size.x);
  if (pos.y + size.y > display.y) pos.y = std::max(0.0f, anchor.y - offset.y - size.y);
  return pos;
}

void draw(Shown& s) {
  ImGui::SetNextWindowPos(tip_position(s.anchor, tip_size(s.tip)));
  ImGui::BeginTooltip();
  if (!s.tip.title.empty()) {
    ImGui::TextUnformatted(s.tip.title.c_str());
    ImGui::Separator();
  }
  ImGui::TextUnformatted(s.tip.body.c_str());
  s.min = ImGui::GetWindowPos();
  s.max = ImVec2(s.min.x + ImGui::GetWindowWidth(), s.min.y + ImGui::GetWindowHeight());
  ImGui::EndTooltip();
}

// A tooltip lies over other items (another cell, another panel's slider): a click on it must not act on what is
// beneath, which the learner cannot see. ImGui's tooltips take no input, so the press is claimed here until released.
void keep_presses_on_tooltip(const ImGuiIO& io) {
  if (!ImGui::IsAnyMouseDown()) g_pressed_on_tip = false;
  const bool on_tip = g_shown.valid && !g_dismissed && inside(io.MousePos, g_shown.min, g_shown.max);
  for (int b = 0; b < ImGuiMouseButton_COUNT && on_tip; ++b)
    if (ImGui::IsMouseClicked(b)) g_pressed_on_tip = true;
  if (!g_pressed_on_tip) return;
  for (int b = 0; b < ImGuiMouseButton_COUNT; ++b)
    ImGui::SetKeyOwner(ImGui::MouseButtonToKey(b), ImGui::GetID("tooltip"), ImGuiInputFlags_LockUntilRelease);
}

}  // namespace

void begin_tooltips(App& app) {
  g_app = &app;
  const ImGuiIO& io = ImGui::GetIO();
  if (io.MouseDelta.x != 0 || io.MouseDelta.y != 0) g_dismissed = false;
  g_took_escape = ImGui::IsKeyPressed(ImGuiKey_Escape, false) && !app.tooltip.empty();
  if (g_took_escape) g_dismissed = true;
  keep_presses_on_tooltip(io);
  // While a button is down the pointer drags or clicks what is under it, and the tooltip follows that item's text;
  // a press that began on the tooltip is the tooltip's, and it stays.
  g_held = !g_dismissed && (g_pressed_on_tip || (!ImGui::IsAnyMouseDown() && on_the_way_or_on(g_shown, io.MousePos)));
  g_asked = false;
  app.tooltip.clear();
}

void end_tooltips() {
  if (g_dismissed || (!g_held && !g_asked)) {
    g_shown.valid = false;
    return;
  }
  if (!g_held) {  // the item under the pointer: where it first showed, or here when it is new
    if (!g_shown.valid || !(g_shown.tip == g_asked_tip)) g_shown.anchor = ImGui::GetIO().MousePos;
    g_shown.tip = g_asked_tip;
  }
  draw(g_shown);
  g_shown.valid = true;
  if (!g_app) return;
  g_app->tooltip = g_shown.tip.text();
  g_app->item_rects["tooltip"] =
      ItemRect{g_shown.min.x, g_shown.min.y, g_shown.max.x - g_shown.min.x, g_shown.max.y - g_shown.min.y};
}

bool tooltip_took_escape() { return g_took_escape; }

void tooltip(const std::string& text) { tooltip(std::string(), text); }

void tooltip(const std::string& title, const std::string& body) {
  if (g_dismissed) return;
  g_asked = true;
  g_asked_tip = Tip{title, body};
}

}  // namespace attn::ui
