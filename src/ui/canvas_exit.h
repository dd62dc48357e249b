// canvas_exit.h — when the keyboard should leave the canvas for the rest of the page (WCAG 2.1.2, no keyboard trap).
#pragma once

namespace attn::ui {

// Called once per frame after the frame was drawn. +1: Tab went past the focused panel's last control (ImGui
// wrapped to its first), so the focus should go on to what follows the canvas in the page; -1: Shift-Tab went
// before the first control; 2: Esc was pressed with nothing to cancel (no edit, no open popup, no tooltip), so the
// focus should go to the skip links at the top of the page; 0: stay.
int canvas_focus_exit();

}  // namespace attn::ui
