// desktop.cpp — `attnplay gui`: the same app in a GLFW window with OpenGL 3.3 core, fully offline.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
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

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBIW_ASSERT(x) ((void)0)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

#include <vector>

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

// Reads the back buffer (bottom-up in GL) and writes it top-down as PNG.
bool write_screenshot(const std::string& path, int w, int h) {
  std::vector<unsigned char> px(static_cast<size_t>(w) * h * 4), flipped(px.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  const size_t row = static_cast<size_t>(w) * 4;
  for (int y = 0; y < h; ++y) std::copy_n(&px[static_cast<size_t>(h - 1 - y) * row], row, &flipped[static_cast<size_t>(y) * row]);
  return stbi_write_png(path.c_str(), w, h, 4, flipped.data(), static_cast<int>(row)) != 0;
}

}  // namespace

int run_gui(int argc, char** argv) {
  std::string state_file, screenshot;
  int frames_to_render = 0;
  int width = 1280, height = 800;
  for (int i = 1; i < argc; ++i) {  // argv[0] is the program; "gui" is already stripped
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--screenshot" && has_value) {
      screenshot = argv[++i];
    } else if (a == "--frames" && has_value) {
      frames_to_render = std::atoi(argv[++i]);
      if (frames_to_render < 1 || frames_to_render > 100000) {
        std::fprintf(stderr, "error: --frames must be between 1 and 100000\n");
        return 2;
      }
    } else if (a == "--size" && has_value) {
      if (std::sscanf(argv[++i], "%dx%d", &width, &height) != 2 || width < 200 || height < 200 || width > 8192 ||
          height > 8192) {
        std::fprintf(stderr, "error: --size must look like 1280x800 (200…8192 per side)\n");
        return 2;
      }
    } else if (!a.empty() && a[0] != '-' && state_file.empty()) {
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
  if (!screenshot.empty() && frames_to_render == 0) frames_to_render = 3;
  GLFWwindow* window = glfwCreateWindow(width, height, "Attention Playground", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "error: could not open an OpenGL 3.3 window\n");
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);
  float xscale = 1, yscale = 1;
  glfwGetWindowContentScale(window, &xscale, &yscale);

  int status = 0;
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
      if (frames_to_render > 0 && static_cast<int>(app.frames) >= frames_to_render) {
        if (!screenshot.empty() && !write_screenshot(screenshot, fw, fh)) {
          std::fprintf(stderr, "error: cannot write %s\n", screenshot.c_str());
          status = 1;
        }
        break;
      }
      glfwSwapBuffers(window);
    }
    bind_c_api(nullptr);
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return status;
}

}  // namespace attn
