// web.cpp — the page: Emscripten main loop, canvas sizing for devicePixelRatio, ImGui on WebGL2.
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cmath>
#include <memory>

#include "app/app.h"
#include "app/c_api.h"
#include "platform/platform.h"
#include "render/gl.h"
#include "render/heatmap.h"
#include "ui/shell.h"

namespace attn {
namespace {

struct WebContext {
  GLFWwindow* window = nullptr;
  App app;
  std::unique_ptr<ui::Shell> shell;
  float pixel_ratio = 1;
  int canvas_w = 0, canvas_h = 0;
};

void frame(void* arg) {
  WebContext& c = *static_cast<WebContext*>(arg);
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size("#canvas", &css_w, &css_h);
  const float dpr = static_cast<float>(emscripten_get_device_pixel_ratio());
  if (dpr != c.pixel_ratio) {  // moved to another screen or zoomed: re-rasterise the font
    c.pixel_ratio = dpr;
    ImGui::GetIO().Fonts->Clear();
    c.shell->init(dpr);
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  // The canvas's backing store follows its CSS size × devicePixelRatio, so text stays crisp.
  const int bw = std::max(1, static_cast<int>(std::lround(css_w * dpr)));
  const int bh = std::max(1, static_cast<int>(std::lround(css_h * dpr)));
  if (bw != c.canvas_w || bh != c.canvas_h) {
    emscripten_set_canvas_element_size("#canvas", bw, bh);
    c.canvas_w = bw;
    c.canvas_h = bh;
  }
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(css_w), static_cast<float>(css_h));
  io.DisplayFramebufferScale = ImVec2(dpr, dpr);
  // Emscripten's GLFW reports the cursor in canvas (device) pixels; ImGui works in CSS pixels.
  if (io.MousePos.x > -1e30f) io.MousePos = ImVec2(io.MousePos.x / dpr, io.MousePos.y / dpr);
  ImGui::NewFrame();
  c.shell->draw();
  ImGui::Render();
  glViewport(0, 0, bw, bh);
  const bool dark = c.app.state.dark_theme;
  glClearColor(dark ? 0.08f : 0.92f, dark ? 0.08f : 0.92f, dark ? 0.10f : 0.94f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace
}  // namespace attn

int main() {
  using namespace attn;
  if (!glfwInit()) {
    EM_ASM(console.error("attnplay: GLFW could not start"));
    return 1;
  }
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  static WebContext ctx;  // lives for the page's lifetime
  double css_w = 1280, css_h = 800;
  emscripten_get_element_css_size("#canvas", &css_w, &css_h);
  ctx.window = glfwCreateWindow(static_cast<int>(css_w), static_cast<int>(css_h), "Attention Playground", nullptr, nullptr);
  if (!ctx.window) {
    EM_ASM(Module.attnplayFatal && Module.attnplayFatal("WebGL2 is not available in this browser"));
    return 1;
  }
  glfwMakeContextCurrent(ctx.window);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // layout comes from the URL/state, not from storage
  ImGui_ImplGlfw_InitForOpenGL(ctx.window, true);
  ImGui_ImplOpenGL3_Init("#version 300 es");
  set_glsl_version("#version 300 es");
  ctx.pixel_ratio = static_cast<float>(emscripten_get_device_pixel_ratio());
  ctx.shell = std::make_unique<ui::Shell>(ctx.app);
  ctx.shell->init(ctx.pixel_ratio);
  bind_c_api(&ctx.app);
  emscripten_set_main_loop_arg(frame, &ctx, 0, false);
  return 0;
}
