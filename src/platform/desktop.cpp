// desktop.cpp — `attnplay gui`: the same app in a GLFW window with OpenGL 3.3 core, fully offline.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/app.h"
#include "app/c_api.h"
#include "app/state_json.h"
#include "platform/platform.h"
#include "render/gl.h"
#include "render/heatmap.h"
#include "ui/shell.h"

namespace attn {
namespace {

// ImGui window settings live in the user's config folder, never in the working directory.
std::string settings_path() {
  namespace fs = std::filesystem;
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  fs::path dir = xdg && *xdg ? fs::path(xdg) : (home ? fs::path(home) / ".config" : fs::temp_directory_path());
  dir /= "attnplay";
  std::error_code ec;
  fs::create_directories(dir, ec);
  return (dir / "imgui.ini").string();
}

}  // namespace

int run_gui(int argc, char** argv) {
  std::string state_file;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (!a.empty() && a[0] != '-' && state_file.empty()) {
      state_file = a;
    } else {
      std::fprintf(stderr, "error: unknown gui option \"%s\"\n", a.c_str());
      return 2;
    }
  }
  App app;
  if (!state_file.empty()) {
    std::ifstream in(state_file, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "error: cannot read %s\n", state_file.c_str());
      return 1;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string err = apply_state_text(app.state, ss.str());
    if (!err.empty()) {
      std::fprintf(stderr, "error: %s: %s\n", state_file.c_str(), err.c_str());
      return 1;
    }
  }
  if (!glfwInit()) {
    std::fprintf(stderr, "error: GLFW could not initialise (no display?)\n");
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  GLFWwindow* window = glfwCreateWindow(1280, 800, "Attention Playground", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "error: could not open an OpenGL 3.3 window\n");
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);
  float xscale = 1, yscale = 1;
  glfwGetWindowContentScale(window, &xscale, &yscale);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  static std::string ini;  // ImGui keeps the pointer
  ini = settings_path();
  ImGui::GetIO().IniFilename = ini.c_str();
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  set_glsl_version("#version 330 core");
  {
    ui::Shell shell(app);
    shell.init(1.0f);
    if (xscale > 1.01f) app.state.text_scale *= xscale;
    bind_c_api(&app);
    while (!glfwWindowShouldClose(window)) {
      glfwPollEvents();
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      shell.draw();
      ImGui::Render();
      int fw = 0, fh = 0;
      glfwGetFramebufferSize(window, &fw, &fh);
      glViewport(0, 0, fw, fh);
      const bool dark = app.state.dark_theme;
      glClearColor(dark ? 0.08f : 0.92f, dark ? 0.08f : 0.92f, dark ? 0.10f : 0.94f, 1.0f);
      glClear(GL_COLOR_BUFFER_BIT);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      glfwSwapBuffers(window);
    }
    bind_c_api(nullptr);
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return 0;
}

}  // namespace attn
