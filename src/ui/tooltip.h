// tooltip.h — the canvas's tooltips, made as WCAG 1.4.13 asks of content that appears on hover:
// - dismissible: Escape hides the one showing until the pointer moves (that Escape does not also take the focus out
//   of the canvas: canvas_exit.h);
// - hoverable: a tooltip stays where it first showed, just beside the pointer, and stays (the same text) while the
//   pointer crosses the gap onto it and rests on it, so a learner can move onto it, e.g. under a magnifier, although
//   the pointer then lies over other cells;
// - persistent: it goes when the pointer leaves both its item and it, or on Escape.
// While a mouse button is down (a drag, a click) a tooltip follows the item under the pointer, as before.
// The text shown and where are kept for the page's API (App::tooltip, App::item_rects["tooltip"]).
#pragma once

#include <string>

namespace attn {
class App;
}

namespace attn::ui {

// Once a frame, before the panels.
void begin_tooltips(App& app);
// Once a frame, after the panels: draws the tooltip the panels asked for, or the one the pointer rests on.
void end_tooltips();
bool tooltip_took_escape();

// The tooltip of the item under the pointer this frame (the last asked wins, as with ImGui::SetTooltip).
void tooltip(const std::string& text);
// A tooltip with a title above a rule, its body's own line breaks kept.
void tooltip(const std::string& title, const std::string& body);

}  // namespace attn::ui
