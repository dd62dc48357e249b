// frame.h — the one frame body both targets run: an ImGui frame of the shell, rendered with GL.
#pragma once

namespace attn {
class App;
namespace ui {
class Shell;
}

// What a target knows about its drawing surface this frame.
struct FrameSurface {
  int framebuffer_w = 0, framebuffer_h = 0;  // device pixels
  // The UI's size in its own units, when the target sets it (the page: CSS pixels); 0 = the backend's.
  float display_w = 0, display_h = 0, display_scale = 1;
  bool hide_pointer = false;  // screenshots show the state, not wherever the pointer happens to rest
};

// NewFrame of both backends, Shell::draw, Render, clear in the theme's background, draw the lists.
void run_frame(App& app, ui::Shell& shell, const FrameSurface& surface);
}  // namespace attn
