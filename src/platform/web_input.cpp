// web_input.cpp — pointer input on the page: the mouse through Emscripten's GLFW, touch through
// Emscripten's touch events, both fed to ImGui's input queue (which keeps a tap's press and release
// in separate frames).
#include "platform/web_input.h"

#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_internal.h>  // ImGuiWindow: the window under the fingers and the ones around it

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "ui/plot.h"

// The learner asked the system for less motion (WCAG 2.3.3): no glide after a swipe.
EM_JS(int, web_prefers_reduced_motion, (),
      { return typeof matchMedia == 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches ? 1 : 0; });

// Emscripten's GLFW also listens to touches and reports them as presses and moves at the last *mouse*
// position (it never moves its cursor for a finger). Calls that a touch event caused are dropped; the
// touch callbacks below handle fingers. window.event is the event being dispatched right now.
EM_JS(int, web_event_is_touch, (), {
  const e = globalThis.event;
  return e && String(e.type).startsWith("touch") ? 1 : 0;
});

namespace attn {
namespace {
bool g_last_pointer_was_touch = false;  // a finger, not the mouse, was the last pointer on the canvas

float g_canvas_scale = 1;

void on_cursor_pos(GLFWwindow* window, double x, double y) {
  if (web_event_is_touch()) return;
  ImGui::GetIO().AddMouseSourceEvent(ImGuiMouseSource_Mouse);
  ImGui_ImplGlfw_CursorPosCallback(window, x / g_canvas_scale, y / g_canvas_scale);
}

void on_mouse_button(GLFWwindow* window, int button, int action, int mods) {
  if (web_event_is_touch()) return;
  g_last_pointer_was_touch = false;
  ImGui::GetIO().AddMouseSourceEvent(ImGuiMouseSource_Mouse);
  ImGui_ImplGlfw_MouseButtonCallback(window, button, action, mods);
}

// Leaving the canvas means "no mouse". The backend is never told: while it believes the pointer is
// outside it polls glfwGetCursorPos every frame, whose answer is in canvas pixels and never follows
// a finger, so it would pull ImGui's pointer away from a touch.
void on_cursor_enter(GLFWwindow*, int entered) {
  if (!entered) ImGui::GetIO().AddMousePosEvent(-FLT_MAX, -FLT_MAX);
}

struct Finger {
  long id;
  ImVec2 pos;  // CSS pixels relative to the canvas
};

// One finger drives the mouse: it hovers where it lands (touch-and-hold shows tooltips) and is a click when
// it lifts first (a tap). Once it has moved past ImGui's drag threshold it either drags what it landed on (a
// press at the landing point) or scrolls, as a native scroll view decides from that first movement: on a
// two-dimensional surface (the embedding plane, the mask grid) it drags; on any other control it drags when
// the movement is mostly sideways (a slider) and scrolls when it is mostly vertical; on no control at all it
// scrolls. A scroll follows the finger and glides on with its speed after the finger lifts. Two fingers always
// scroll the window under them; the page itself never scrolls or zooms.
class TouchInput {
 public:
  void handle(int event_type, const EmscriptenTouchEvent& e) {
    g_last_pointer_was_touch = true;
    const bool cancel = event_type == EMSCRIPTEN_EVENT_TOUCHCANCEL;
    const Change change = apply(e, cancel || event_type == EMSCRIPTEN_EVENT_TOUCHEND);
    ImGuiIO& io = ImGui::GetIO();
    io.AddMouseSourceEvent(ImGuiMouseSource_TouchScreen);
    switch (gesture_) {
      case Gesture::None:
        if (!fingers_.empty()) begin(io);
        break;
      case Gesture::Hover:
        if (fingers_.size() >= 2) {
          begin_scroll(io);
        } else if (change.primary_lifted) {
          if (!cancel) {  // a tap: press and release where the finger landed
            io.AddMouseButtonEvent(0, true);
            io.AddMouseButtonEvent(0, false);
          }
          end(io);
        } else if (moved_past_threshold(io)) {
          if (swipe_scrolls()) {
            begin_swipe(io);
          } else {
            io.AddMouseButtonEvent(0, true);  // still at the landing point: the drag starts where the finger did
            io.AddMousePosEvent(primary_pos().x, primary_pos().y);
            gesture_ = Gesture::Drag;
          }
        }
        break;
      case Gesture::Drag:
        if (change.primary_lifted && !cancel) {
          io.AddMousePosEvent(change.primary_last.x, change.primary_last.y);
          io.AddMouseButtonEvent(0, false);
          end(io);
        } else if (change.primary_lifted || fingers_.size() >= 2) {
          // A cancel or a second finger ends the drag without clicking whatever is under it.
          io.AddMousePosEvent(-FLT_MAX, -FLT_MAX);
          io.AddMouseButtonEvent(0, false);
          if (fingers_.size() >= 2)
            begin_scroll(io);
          else
            end(io);
        } else {
          io.AddMousePosEvent(primary_pos().x, primary_pos().y);
        }
        break;
      case Gesture::Scroll:
        if (fingers_.empty()) {
          if (one_finger_) start_glide();
          end(io);
        } else {
          const ImVec2 c = centroid();
          if (!change.count_changed) scroll_by(ImVec2(c.x - scroll_from_.x, c.y - scroll_from_.y));
          scroll_from_ = c;  // a finger added or lifted moves the centroid without scrolling
        }
        break;
    }
  }

 private:
  enum class Gesture { None, Hover, Drag, Scroll };
  struct Change {
    bool primary_lifted = false;
    ImVec2 primary_last{0, 0};  // where the primary finger left the glass
    bool count_changed = false;
  };

  // Brings fingers_ up to date with the event's changed touches.
  Change apply(const EmscriptenTouchEvent& e, bool lifted) {
    Change c;
    const size_t before = fingers_.size();
    for (int k = 0; k < e.numTouches; ++k) {
      const EmscriptenTouchPoint& t = e.touches[k];
      if (!t.isChanged) continue;
      const ImVec2 p(static_cast<float>(t.targetX), static_cast<float>(t.targetY));
      auto it = std::find_if(fingers_.begin(), fingers_.end(), [&](const Finger& f) { return f.id == t.identifier; });
      if (!lifted) {
        if (it != fingers_.end())
          it->pos = p;
        else
          fingers_.push_back({t.identifier, p});
      } else if (it != fingers_.end()) {
        if (t.identifier == primary_) {
          c.primary_lifted = true;
          c.primary_last = p;
        }
        fingers_.erase(it);
      }
    }
    c.count_changed = fingers_.size() != before;
    return c;
  }
  ImVec2 primary_pos() const {
    for (const Finger& f : fingers_)
      if (f.id == primary_) return f.pos;
    return landed_;
  }
  ImVec2 centroid() const {
    ImVec2 c(0, 0);
    for (const Finger& f : fingers_) c = ImVec2(c.x + f.pos.x, c.y + f.pos.y);
    const float n = static_cast<float>(std::max<size_t>(1, fingers_.size()));
    return ImVec2(c.x / n, c.y / n);
  }
  bool moved_past_threshold(const ImGuiIO& io) const {
    const ImVec2 p = primary_pos();
    const float dx = p.x - landed_.x, dy = p.y - landed_.y;
    return dx * dx + dy * dy > io.MouseDragThreshold * io.MouseDragThreshold;
  }
  // The first finger hovers (no press yet): touch-and-hold shows what the mouse would.
  void begin(ImGuiIO& io) {
    primary_ = fingers_.front().id;
    landed_ = fingers_.front().pos;
    io.AddMousePosEvent(landed_.x, landed_.y);
    gesture_ = Gesture::Hover;
    if (fingers_.size() >= 2) begin_scroll(io);
  }
  // The pointer rests at the fingers while they move: the hovered window is the one under them.
  void begin_scroll(ImGuiIO& io) {
    scroll_from_ = centroid();
    pending_ = ImVec2(0, 0);
    io.AddMousePosEvent(scroll_from_.x, scroll_from_.y);
    gesture_ = Gesture::Scroll;
    one_finger_ = false;
    velocity_ = ImVec2(0, 0);
  }
  // What the first movement of one finger means (see the class comment), from the item under the landing
  // point in the last frame.
  bool swipe_scrolls() const {
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    const ImGuiID under = g.HoveredId ? g.HoveredId : g.HoveredIdPreviousFrame;
    if (under == 0) return true;
    if (ui::is_two_d_drag_surface(under)) return false;
    const ImVec2 p = primary_pos();
    return std::fabs(p.y - landed_.y) > std::fabs(p.x - landed_.x);
  }
  // One finger scrolls from where it landed, so the content has followed it all the way.
  void begin_swipe(ImGuiIO& io) {
    io.AddMousePosEvent(landed_.x, landed_.y);
    scroll_from_ = landed_;
    pending_ = ImVec2(0, 0);
    gesture_ = Gesture::Scroll;
    one_finger_ = false;  // the threshold's catch-up is no measure of the finger's speed
    const ImVec2 c = centroid();
    scroll_by(ImVec2(c.x - scroll_from_.x, c.y - scroll_from_.y));
    scroll_from_ = c;
    one_finger_ = true;
    velocity_ = ImVec2(0, 0);
    last_move_ms_ = emscripten_get_now();
    move_interval_ms_ = 16;
  }
  // After a swipe the content glides on at the finger's last speed (CSS px per ms), slowing down as a native
  // scroll view does; a new touch stops it.
  void start_glide() {
    // The finger had stopped before it lifted: no move for longer than a few of its own move intervals.
    if (emscripten_get_now() - last_move_ms_ > std::max(150.0, 3 * move_interval_ms_)) velocity_ = ImVec2(0, 0);
    gliding_ = glide_window_ != nullptr && (std::fabs(velocity_.x) > 0.05f || std::fabs(velocity_.y) > 0.05f);
    if (gliding_ && web_prefers_reduced_motion()) gliding_ = false;  // the content stops where the finger left it
  }

 public:
  // Once a frame, before the frame's input: the glide's next stretch.
  void tick(double now_ms) {
    const float dt = static_cast<float>(std::clamp(now_ms - last_tick_ms_, 0.0, 50.0));
    last_tick_ms_ = now_ms;
    if (!gliding_ || !fingers_.empty()) {
      gliding_ = false;
      return;
    }
    const float rest_y = scroll_window(glide_window_, -velocity_.x * dt, -velocity_.y * dt);
    const float decay = std::exp(-dt / 325.0f);  // iOS's deceleration: about a third of a second
    velocity_ = ImVec2(velocity_.x * decay, velocity_.y * decay);
    if (std::fabs(rest_y) > 0.5f || (std::fabs(velocity_.x) < 0.02f && std::fabs(velocity_.y) < 0.02f))
      gliding_ = false;
  }

 private:
  // The content under the fingers follows them 1:1. What the innermost window under them cannot take
  // (it is at its end, or does not scroll) goes on to the window around it: a panel scrolled to its end
  // hands the gesture to the phone's stack of panels instead of trapping the fingers (ImGui's wheel
  // stays with the hovered window). The hovered window is last frame's, found under the pointer that
  // begin_scroll put at the fingers; until a frame has seen it, the movement waits.
  void scroll_by(ImVec2 delta) {
    pending_ = ImVec2(pending_.x + delta.x, pending_.y + delta.y);
    ImGuiWindow* w = ImGui::GetCurrentContext()->HoveredWindow;
    if (!w) return;
    if (one_finger_) {  // the finger's speed, for the glide after it lifts
      const double now = emscripten_get_now();
      const float dt = static_cast<float>(std::max(1.0, now - last_move_ms_));
      move_interval_ms_ = 0.5 * move_interval_ms_ + 0.5 * dt;
      const ImVec2 v(pending_.x / dt, pending_.y / dt);
      velocity_ = ImVec2(0.6f * v.x + 0.4f * velocity_.x, 0.6f * v.y + 0.4f * velocity_.y);
      last_move_ms_ = now;
    }
    glide_window_ = w;
    scroll_window(w, -pending_.x, -pending_.y);  // fingers up: the content moves up, the scroll grows
    pending_ = ImVec2(0, 0);
  }
  // Scrolls `w` by (dx, dy), handing what it cannot take to the windows around it; returns the y left over.
  static float scroll_window(ImGuiWindow* w, float dx, float dy) {
    for (; w && (dx != 0 || dy != 0); w = w->ParentWindow) {
      if (w->Flags & ImGuiWindowFlags_NoScrollWithMouse) continue;
      dx = take_scroll(w, 0, dx);
      dy = take_scroll(w, 1, dy);
    }
    return dy;
  }
  // Scrolls `w` along `axis` by as much of d as it has room for; returns the rest.
  static float take_scroll(ImGuiWindow* w, int axis, float d) {
    const float max = axis ? w->ScrollMax.y : w->ScrollMax.x;
    if (d == 0 || !(max > 0)) return d;
    const float target = axis ? w->ScrollTarget.y : w->ScrollTarget.x;
    const float now = target < FLT_MAX ? target : (axis ? w->Scroll.y : w->Scroll.x);
    const float next = std::clamp(now + d, 0.0f, max);
    if (next == now) return d;
    if (axis)
      ImGui::SetScrollY(w, next);
    else
      ImGui::SetScrollX(w, next);
    return d - (next - now);
  }
  void end(ImGuiIO& io) {
    io.AddMousePosEvent(-FLT_MAX, -FLT_MAX);  // no hover once the fingers are gone: no tooltip lingers
    gesture_ = Gesture::None;
    primary_ = -1;
  }

  std::vector<Finger> fingers_;
  Gesture gesture_ = Gesture::None;
  long primary_ = -1;
  ImVec2 landed_{0, 0};
  ImVec2 scroll_from_{0, 0};
  ImVec2 pending_{0, 0};     // finger movement not yet applied (no hovered window yet)
  bool one_finger_ = false;  // the scroll is a one-finger swipe (it glides on after the lift)
  ImVec2 velocity_{0, 0};    // the swipe's speed, CSS px per ms
  double last_move_ms_ = 0, last_tick_ms_ = 0;
  double move_interval_ms_ = 16;  // the time between the finger's move events, smoothed
  bool gliding_ = false;
  ImGuiWindow* glide_window_ = nullptr;  // the window the swipe scrolled (ImGui keeps windows for good)
};

TouchInput* g_touch = nullptr;

// A phone shows its keyboard only for a focused text field, and the canvas is none: while ImGui edits text
// after a touch, the page focuses a visually hidden <input> at the field (attnplay-api.js, attnplayText) and
// sends what is typed into it back here, character by character.
EM_JS(void, web_text_open, (float x, float y, float w, float h, int numeric), {
  if (Module.attnplayText) Module.attnplayText.open(x, y, w, h, !!numeric);
});
EM_JS(void, web_text_close, (), {
  if (Module.attnplayText) Module.attnplayText.close();
});
bool g_text_open = false;

// Returning true makes Emscripten call preventDefault: no page scroll, zoom or emulated mouse events.
EM_BOOL on_touch(int event_type, const EmscriptenTouchEvent* e, void* user) {
  static_cast<TouchInput*>(user)->handle(event_type, *e);
  return EM_TRUE;
}

// The wheel over the canvas, as the ImGui backend reads it (100 px, 3 lines or 1/80 page a step). The backend
// listens on the document, where Chromium makes wheel listeners passive, so its preventDefault is refused
// with a console error on every notch; on the canvas the listener may prevent the page from scrolling.
EM_BOOL on_wheel(int, const EmscriptenWheelEvent* e, void*) {
  float step = 0;
  if (e->deltaMode == DOM_DELTA_PIXEL)
    step = 1.0f / 100.0f;
  else if (e->deltaMode == DOM_DELTA_LINE)
    step = 1.0f / 3.0f;
  else if (e->deltaMode == DOM_DELTA_PAGE)
    step = 80.0f;
  ImGui::GetIO().AddMouseWheelEvent(static_cast<float>(e->deltaX) * -step, static_cast<float>(e->deltaY) * -step);
  return EM_TRUE;
}

}  // namespace

void install_web_input(GLFWwindow* window, const char* canvas_selector) {
  emscripten_set_wheel_callback(EMSCRIPTEN_EVENT_TARGET_DOCUMENT, nullptr, EM_FALSE, nullptr);  // the backend's
  emscripten_set_wheel_callback(canvas_selector, nullptr, EM_FALSE, on_wheel);
  glfwSetCursorPosCallback(window, on_cursor_pos);
  glfwSetMouseButtonCallback(window, on_mouse_button);
  glfwSetCursorEnterCallback(window, on_cursor_enter);
  ImGui_ImplGlfw_CursorEnterCallback(window, GLFW_TRUE);  // see on_cursor_enter
  ImGui::GetIO().AddMousePosEvent(-FLT_MAX, -FLT_MAX);
  static TouchInput touch;  // lives for the page's lifetime
  g_touch = &touch;
  emscripten_set_touchstart_callback(canvas_selector, &touch, EM_TRUE, on_touch);
  emscripten_set_touchmove_callback(canvas_selector, &touch, EM_TRUE, on_touch);
  emscripten_set_touchend_callback(canvas_selector, &touch, EM_TRUE, on_touch);
  emscripten_set_touchcancel_callback(canvas_selector, &touch, EM_TRUE, on_touch);
}

void web_text_sync() {
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  const bool want = g.IO.WantTextInput && g_last_pointer_was_touch;
  if (want && !g_text_open) {
    const ImGuiInputTextState* st = ImGui::GetInputTextState(g.ActiveId);
    const bool numeric = st && (st->Flags & (ImGuiInputTextFlags_CharsDecimal | ImGuiInputTextFlags_CharsScientific));
    const ImVec2 at = g.PlatformImeData.InputPos;
    web_text_open(at.x, at.y, 120.0f, std::max(16.0f, g.PlatformImeData.InputLineHeight), numeric ? 1 : 0);
    g_text_open = true;
  } else if (!want && g_text_open) {
    web_text_close();
    g_text_open = false;
  }
}

void web_input_tick() {
  if (g_touch) g_touch->tick(emscripten_get_now());
}

void set_web_input_scale(float canvas_pixels_per_css_pixel) {
  if (canvas_pixels_per_css_pixel > 0) g_canvas_scale = canvas_pixels_per_css_pixel;
}

}  // namespace attn

// What the hidden text field received (attnplay-api.js): typed text, and the keys that edit.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attnplay_text_input(const char* text) {
  if (text) ImGui::GetIO().AddInputCharactersUTF8(text);
  return "";
}
extern "C" EMSCRIPTEN_KEEPALIVE const char* attnplay_text_key(const char* name) {
  const std::string k = name ? name : "";
  const ImGuiKey key = k == "Backspace" ? ImGuiKey_Backspace
                       : k == "Enter"   ? ImGuiKey_Enter
                       : k == "Delete"  ? ImGuiKey_Delete
                       : k == "Escape"  ? ImGuiKey_Escape
                                        : ImGuiKey_None;
  if (key != ImGuiKey_None) {
    ImGui::GetIO().AddKeyEvent(key, true);
    ImGui::GetIO().AddKeyEvent(key, false);
  }
  return "";
}
