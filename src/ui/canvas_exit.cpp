// canvas_exit.cpp — notices Tab wrapping around a panel's controls, and an Esc nothing else takes, so the page can
// move the focus out of the canvas (ImGui itself keeps Tab and wraps around inside the focused window).
#include "ui/canvas_exit.h"

#include <imgui.h>
#include <imgui_internal.h>  // NavWindow, NavRectRel: where the keyboard focus sits in its window's content

#include "ui/tooltip.h"

namespace attn::ui {
namespace {

struct Seen {
  ImGuiWindow* window = nullptr;
  ImGuiID id = 0;
  ImRect rect;        // relative to the window's content, so scrolling to the next control does not move it
  bool busy = false;  // an item was being edited or a popup was open: Esc belongs to them
};

Seen g_seen;
int g_tab_dir = 0;     // a Tab press whose result (one frame later) has not been seen yet
int g_tab_frames = 0;  // frames since that press

// True when b comes before a in a window's reading order (ImGui tabs in submission order: rows, then left to right).
bool before(const ImRect& b, const ImRect& a) {
  if (b.Min.y < a.Min.y - 1.0f) return true;
  return b.Min.y <= a.Min.y + 1.0f && b.Min.x < a.Min.x - 1.0f;
}

}  // namespace

int canvas_focus_exit() {
  ImGuiContext& g = *GImGui;
  int exit = 0;
  if (ImGui::IsKeyPressed(ImGuiKey_Escape, false) && !g_seen.busy && !tooltip_took_escape()) exit = 2;
  if (ImGui::IsKeyPressed(ImGuiKey_Tab) && !g.IO.KeyCtrl && !g.IO.KeyAlt && g.NavWindow) {
    g_tab_dir = g.NavTabbingDir;  // this frame's request: 0 when Tab only shows the focus again (after the mouse)
    g_tab_frames = 0;
  } else if (g_tab_dir != 0) {
    ++g_tab_frames;
    const bool moved = g.NavId != g_seen.id;
    const bool same_window = g.NavWindow == g_seen.window && g_seen.id != 0 && g.NavId != 0;
    // Forward: ImGui fell back on the window's first tab stop (NavTabbingResultFirst), i.e. it wrapped — also onto
    // the same control when it is the only one. Backward: the new control comes after the old one.
    if (same_window && g_tab_dir > 0 && g.NavId == g.NavTabbingResultFirst.ID) exit = 1;
    if (same_window && moved && g_tab_dir < 0 && before(g_seen.rect, g.NavWindow->NavRectRel[ImGuiNavLayer_Main]))
      exit = -1;
    if (exit != 0 || moved || g_tab_frames >= 2) g_tab_dir = 0;
  }
  // Remember where the focus is, except while a Tab's result is pending (its starting point is the reference).
  if (g_tab_dir == 0) {
    g_seen.window = g.NavWindow;
    g_seen.id = g.NavId;
    if (g.NavWindow) g_seen.rect = g.NavWindow->NavRectRel[ImGuiNavLayer_Main];
  }
  g_seen.busy = g.ActiveId != 0 || g.OpenPopupStack.Size > 0 || g.NavLayer != ImGuiNavLayer_Main;
  return exit;
}

}  // namespace attn::ui
