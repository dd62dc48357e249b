// frame.h — the one frame body both targets run: an ImGui frame of the shell, rendered with GL.
#pragma once

#include <cstdint>
#include <functional>

namespace attn {
class App;
namespace ui {
class Shell;
}

// Where one frame's time went, in milliseconds (steady clock): the model's tick (of which the core's
// recomputation), the panels building their draw lists, ImGui's Render and the digest, and GL's drawing. The
// page's benchmark reads them (attnplay.ui.framePhases()) to say what a frame spends its time on.
struct FramePhases {
  uint64_t frame = 0;
  double tick_ms = 0, recompute_ms = 0, panels_ms = 0, render_ms = 0, gl_ms = 0;
  double around_ms = 0;  // the target's own work around the frame body (the page: its DOM twins and events)
};

// What a target knows about its drawing surface this frame.
struct FrameSurface {
  int framebuffer_w = 0, framebuffer_h = 0;  // device pixels
  // The UI's size in its own units, when the target sets it (the page: CSS pixels); 0 = the backend's.
  float display_w = 0, display_h = 0, display_scale = 1;
  bool hide_pointer = false;  // screenshots show the state, not wherever the pointer happens to rest
  // Where the target keeps the digest of the last frame it drew, if it may skip drawing a frame that
  // would show the same pixels (the page: the canvas keeps showing the last frame drawn into it, and a
  // software GL spends tens of milliseconds per frame). Null: every frame is drawn.
  uint64_t* last_drawn = nullptr;
  bool force_draw = false;  // e.g. the drawing buffer is about to be read
  // Input of the target's own, queued after the backend's events and before ImGui's NewFrame (a script).
  std::function<void()> queue_input;
  FramePhases* phases = nullptr;  // filled when set
};

// NewFrame of both backends, Shell::draw, Render, then, unless the frame would show exactly what the
// last drawn one shows, clear in the theme's background and draw the lists. Returns whether it drew.
bool run_frame(App& app, ui::Shell& shell, const FrameSurface& surface);

// Whether the app has work that goes on across frames without input: a long recomputation, the variance lab's
// Monte Carlo or the d_k sweep's band still being drawn, Learn mode playing. An idle target (a page or a window
// nobody touches) keeps its full frame rate while there is.
bool app_working(const App& app);

// Frames in a row that drew nothing new, with no input, after which a target idles (half a second at 60 a second);
// an idle target runs a frame every kIdleFrameMs until input comes.
constexpr int kQuietFramesBeforeIdle = 30;
constexpr int kIdleFrameMs = 67;

// The frames in a row that changed nothing — nothing new drawn, no input, no work going on across frames — which
// tell a target (the page, the desktop window) when to idle.
class QuietFrames {
 public:
  void wake() { count_ = 0; }  // input, a call from the page, a resized surface
  void after_frame(const App& app, bool drew, bool had_input) {
    count_ = drew || had_input || app_working(app) ? 0 : count_ + 1;
  }
  bool idle() const { return count_ >= kQuietFramesBeforeIdle; }

 private:
  int count_ = 0;
};
}  // namespace attn
