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
#include "app/state_json.h"
#include "core/json_codec.h"
#include "platform/frame.h"
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

// Lesson progress beside the window settings (~/.config/attnplay/progress.json).
std::string progress_path() {
  return (std::filesystem::path(settings_path()).parent_path() / "progress.json").string();
}

// Where the Share panel's files go ("." if the working directory has gone away).
std::string working_directory() {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::current_path(ec);
  return ec ? std::string(".") : p.string();
}

// Reads the back buffer (bottom-up in GL) and writes it top-down as PNG.
bool write_screenshot(const std::string& path, int w, int h) {
  std::vector<unsigned char> px(static_cast<size_t>(w) * h * 4), flipped(px.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  const size_t row = static_cast<size_t>(w) * 4;
  for (int y = 0; y < h; ++y)
    std::copy_n(&px[static_cast<size_t>(h - 1 - y) * row], row, &flipped[static_cast<size_t>(y) * row]);
  return stbi_write_png(path.c_str(), w, h, 4, flipped.data(), static_cast<int>(row)) != 0;
}

// The status line after writing a file into the working directory, in the learner's language.
std::string saved_status(const App& app, bool ok, const std::string& name) {
  if (!ok) return tr_format(app.state.lang, "status.write_failed", {{"name", name}});
  return tr_format(app.state.lang, "status.saved_path", {{"path", (std::filesystem::current_path() / name).string()}});
}

}  // namespace

int run_gui(int argc, char** argv) {
  std::string state_file, fragment, screenshot, rects_file;
  int frames_to_render = 0;
  int width = 1280, height = 800;
  for (int i = 1; i < argc; ++i) {  // argv[0] is the program; "gui" is already stripped
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--screenshot" && has_value) {
      screenshot = argv[++i];
    } else if (a == "--dump-rects" && has_value) {
      rects_file = argv[++i];
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
    } else if (!a.empty() && a[0] != '-' && state_file.empty() && fragment.empty()) {
      // A share link's fragment ("#s=1.…", "s=1.…" or a whole URL ending in one), else a state file.
      if (a[0] == '#' || a.compare(0, 2, "s=") == 0 || a.find("#s=") != std::string::npos)
        fragment = a;
      else
        state_file = a;
    } else {
      std::fprintf(stderr, "error: unknown gui option \"%s\"\n", a.c_str());
      return 2;
    }
  }
  App app;
  // Interactive windows spread long recomputations over frames; a screenshot run computes at once so
  // its N frames show the finished result.
  app.frame_budget_ms = screenshot.empty() ? 10 : 0;
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
  // Like the web page: a garbled link opens the defaults with a message, never an exit.
  if (!fragment.empty() && !app.open_fragment(fragment)) std::fprintf(stderr, "warning: %s\n", app.status.c_str());
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
  // The Share panel's services: the system clipboard and files in the working directory.
  std::string capture_name;
  app.host.copy_text = [window](const std::string& text) { glfwSetClipboardString(window, text.c_str()); };
  app.host.save_progress = [](const std::string& json) { std::ofstream(progress_path(), std::ios::binary) << json; };
  {
    std::ifstream saved(progress_path(), std::ios::binary);
    std::stringstream text;
    text << saved.rdbuf();
    if (saved) {
      const std::string err = load_progress(app, text.str());
      if (!err.empty()) app.status = err;
    }
  }
  // Both report what happened; the Share panel shows exactly that (App::download, App::save_png).
  app.host.download = [](const std::string& name, const std::string&, const std::string& bytes) {
    return save_file(working_directory(), name, bytes);
  };
  app.host.save_png = [](const std::string& name, int w, int h, const std::vector<uint8_t>& rgba) {
    std::string png;
    const auto append = [](void* out, void* data, int size) {
      static_cast<std::string*>(out)->append(static_cast<const char*>(data), static_cast<size_t>(size));
    };
    if (!stbi_write_png_to_func(append, &png, w, h, 4, rgba.data(), w * 4))
      return SaveOutcome{false, "Could not encode " + name + " as PNG"};
    return save_file(working_directory(), name, png);
  };
  app.host.capture_canvas = [&capture_name](const std::string& name) { capture_name = name; };
  app.host.read_file = [](const std::string& path, std::string& text) -> std::string {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return "Cannot read " + path;
    if (size > kMaxJsonBytes) return path + " is larger than 64 MiB";
    std::ifstream in(path, std::ios::binary);
    if (!in) return "Cannot read " + path;
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
    return "";
  };
  {
    ui::Shell shell(app);
    shell.init(1.0f);
    if (xscale > 1.01f) app.state.text_scale *= xscale;
    while (!glfwWindowShouldClose(window)) {
      glfwPollEvents();
      FrameSurface surface;
      glfwGetFramebufferSize(window, &surface.framebuffer_w, &surface.framebuffer_h);
      surface.hide_pointer = frames_to_render > 0;
      run_frame(app, shell, surface);
      const int fw = surface.framebuffer_w, fh = surface.framebuffer_h;
      if (!capture_name.empty()) {  // "PNG of the canvas" in the Share panel
        app.status = saved_status(app, write_screenshot(capture_name, fw, fh), capture_name);
        capture_name.clear();
      }
      if (frames_to_render > 0 && static_cast<int>(app.frames) >= frames_to_render) {
        if (!screenshot.empty() && !write_screenshot(screenshot, fw, fh)) {
          std::fprintf(stderr, "error: cannot write %s\n", screenshot.c_str());
          status = 1;
        }
        if (!rects_file.empty()) {  // where labelled items were drawn, for screenshot checks
          nlohmann::json j = nlohmann::json::object();
          for (const auto& [label, r] : app.item_rects) j[label] = {{"x", r.x}, {"y", r.y}, {"w", r.w}, {"h", r.h}};
          std::ofstream(rects_file) << j.dump(2);
        }
        break;
      }
      glfwSwapBuffers(window);
    }
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return status;
}

}  // namespace attn
