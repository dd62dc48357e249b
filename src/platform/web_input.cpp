// web_input.cpp — pointer input on the page: the mouse through Emscripten's GLFW, fed to ImGui's
// input queue in CSS pixels.
#include "platform/web_input.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>

#include <cfloat>

namespace attn {
namespace {

float g_canvas_scale = 1;

void on_cursor_pos(GLFWwindow* window, double x, double y) {
  ImGui_ImplGlfw_CursorPosCallback(window, x / g_canvas_scale, y / g_canvas_scale);
}

// Leaving the canvas means "no mouse". The backend is never told: while it believes the pointer is
// outside it polls glfwGetCursorPos every frame, whose answer is in canvas pixels.
void on_cursor_enter(GLFWwindow*, int entered) {
  if (!entered) ImGui::GetIO().AddMousePosEvent(-FLT_MAX, -FLT_MAX);
}

}  // namespace

void install_web_input(GLFWwindow* window) {
  glfwSetCursorPosCallback(window, on_cursor_pos);
  glfwSetCursorEnterCallback(window, on_cursor_enter);
  ImGui_ImplGlfw_CursorEnterCallback(window, GLFW_TRUE);  // see on_cursor_enter
  ImGui::GetIO().AddMousePosEvent(-FLT_MAX, -FLT_MAX);
}

void set_web_input_scale(float canvas_pixels_per_css_pixel) {
  if (canvas_pixels_per_css_pixel > 0) g_canvas_scale = canvas_pixels_per_css_pixel;
}

}  // namespace attn
