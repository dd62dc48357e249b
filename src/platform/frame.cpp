// frame.cpp — the frame body shared by web.cpp and desktop.cpp (sokol-style: each target only
// sizes its surface, pumps its events and presents).
#include "platform/frame.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cfloat>

#include "app/app.h"
#include "render/gl.h"
#include "ui/shell.h"

namespace attn {

void run_frame(App& app, ui::Shell& shell, const FrameSurface& surface) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  if (surface.display_w > 0 && surface.display_h > 0) {
    io.DisplaySize = ImVec2(surface.display_w, surface.display_h);
    io.DisplayFramebufferScale = ImVec2(surface.display_scale, surface.display_scale);
  }
  // Queued after the backend's own pointer event, so it is the one ImGui applies.
  if (surface.hide_pointer) io.AddMousePosEvent(-FLT_MAX, -FLT_MAX);
  ImGui::NewFrame();
  shell.draw();
  ImGui::Render();
  glViewport(0, 0, surface.framebuffer_w, surface.framebuffer_h);
  const bool dark = app.state.dark_theme;
  glClearColor(dark ? 0.08f : 0.92f, dark ? 0.08f : 0.92f, dark ? 0.10f : 0.94f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace attn
