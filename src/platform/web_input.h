// web_input.h — the page's pointer input for ImGui: Emscripten's GLFW mouse in CSS pixels.
#pragma once

struct GLFWwindow;

namespace attn {
// After ImGui_ImplGlfw_InitForOpenGL(window, true): takes over the backend's mouse callbacks.
void install_web_input(GLFWwindow* window);
// Canvas pixels per CSS pixel this frame: GLFW reports the mouse in canvas pixels, ImGui works in CSS pixels.
void set_web_input_scale(float canvas_pixels_per_css_pixel);
}  // namespace attn
