// web_input.h — the page's pointer input for ImGui: Emscripten's GLFW mouse in CSS pixels, and touch.
#pragma once

struct GLFWwindow;

namespace attn {
// After ImGui_ImplGlfw_InitForOpenGL(window, true): takes over the mouse callbacks and listens to
// touches on the canvas (a CSS selector that outlives the page, e.g. "#canvas").
void install_web_input(GLFWwindow* window, const char* canvas_selector);
// After each frame: while ImGui edits text after a touch, the page's hidden text field is focused at the field
// (so a phone shows its keyboard, a decimal one for numbers), and blurred when editing ends.
void web_text_sync();
// Once a frame, before its input is queued: a swipe's glide after the finger lifted.
void web_input_tick();
// Canvas pixels per CSS pixel this frame: GLFW reports the mouse in canvas pixels, ImGui works in CSS pixels.
void set_web_input_scale(float canvas_pixels_per_css_pixel);
}  // namespace attn
