// tooltip.h — the canvas's tooltips: Escape hides the one showing until the pointer moves (WCAG 1.4.13, content that
// appears on hover can be dismissed without moving the pointer), and the text shown is kept for the page's API.
#pragma once

#include <imgui.h>

namespace attn {
class App;
}

namespace attn::ui {

// Once a frame, before the panels: an Escape while a tooltip showed in the last frame dismisses the tooltips until
// the pointer moves. That Escape is the tooltip's: it does not also take the focus out of the canvas (canvas_exit.h).
void begin_tooltips(App& app);
bool tooltip_took_escape();

// ImGui::SetTooltip, unless the tooltips are dismissed.
void tooltip(const char* fmt, ...) IM_FMTARGS(1);
// ImGui::BeginTooltip for a tooltip drawn item by item, unless dismissed (false: nothing to end); `text` is what the
// API reports it shows.
bool begin_tooltip(const char* text);
void end_tooltip();

}  // namespace attn::ui
