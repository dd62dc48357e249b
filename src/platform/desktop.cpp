// desktop.cpp — `attnplay gui`: the same app in a GLFW window with OpenGL 3.3 core, fully offline.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/app.h"
#include "app/lesson/lesson_run.h"
#include "app/start_view.h"
#include "app/state/state_json.h"
#include "core/json_codec.h"
#include "platform/frame.h"
#include "platform/input_script.h"
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
#ifdef _WIN32
  // Windows keeps a user's settings in %APPDATA% (roaming with the profile); the temp folder is emptied.
  const char* appdata = std::getenv("APPDATA");
  if (!(xdg && *xdg) && appdata && *appdata) xdg = appdata;
#endif
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

// What `attnplay gui …` asked for.
struct GuiOptions {
  std::string state_file, fragment, screenshot, rects_file, input_file, lesson_file;
  std::string catalog_file;  // a translator's catalog (data/strings/<tag>.json) shown without rebuilding
  int frames_to_render = 0;  // 0 = run until the window is closed (or until the input script has run)
  int width = 1280, height = 800;
  bool check_fit = false;  // exit 3 when a tracked control or text ran past its panel's edge in the last frame
                           // or in a frame an input script's check_fit step looked at
};

// Reads argv (argv[0] is the program; "gui" is already stripped); false after printing why it is wrong.
bool parse_gui_options(int argc, char** argv, GuiOptions& opt) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--screenshot" && has_value) {
      opt.screenshot = argv[++i];
    } else if (a == "--input" && has_value) {
      opt.input_file = argv[++i];
    } else if (a == "--lesson" && has_value) {
      opt.lesson_file = argv[++i];
    } else if (a == "--catalog" && has_value) {
      opt.catalog_file = argv[++i];
    } else if (a == "--check-fit") {
      opt.check_fit = true;
    } else if (a == "--dump-rects" && has_value) {
      opt.rects_file = argv[++i];
    } else if (a == "--frames" && has_value) {
      opt.frames_to_render = std::atoi(argv[++i]);
      if (opt.frames_to_render < 1 || opt.frames_to_render > 100000) {
        std::fprintf(stderr, "error: --frames must be between 1 and 100000\n");
        return false;
      }
    } else if (a == "--size" && has_value) {
      if (std::sscanf(argv[++i], "%dx%d", &opt.width, &opt.height) != 2 || opt.width < 200 || opt.height < 200 ||
          opt.width > 8192 || opt.height > 8192) {
        std::fprintf(stderr, "error: --size must look like 1280x800 (200…8192 per side)\n");
        return false;
      }
    } else if (!a.empty() && a[0] != '-' && opt.state_file.empty() && opt.fragment.empty()) {
      // A share link's fragment ("#s=1.…", "s=1.…" or a whole URL ending in one), else a state file.
      if (a[0] == '#' || a.compare(0, 2, "s=") == 0 || a.find("#s=") != std::string::npos)
        opt.fragment = a;
      else
        opt.state_file = a;
    } else {
      std::fprintf(stderr, "error: unknown gui option \"%s\"\n", a.c_str());
      return false;
    }
  }
  if (!opt.screenshot.empty() && opt.frames_to_render == 0 && opt.input_file.empty()) opt.frames_to_render = 3;
  return true;
}

// Loads the state file or share fragment named on the command line; false after printing why it failed.
std::string read_text_file(const std::string& path, std::string& text);  // below, with the host's services

// A translator's catalog joins the languages and is shown (a state file or input script may choose another).
bool add_translator_catalog(App& app, const std::string& path) {
  std::string text, err = read_text_file(path, text);
  const std::string tag = std::filesystem::path(path).stem().string();
  if (err.empty()) err = add_catalog(tag, text);
  if (!err.empty()) {
    std::fprintf(stderr, "error: %s: %s\n", path.c_str(), err.c_str());
    return false;
  }
  return lang_from_code(tag, app.state.lang);
}

bool open_initial_state(App& app, const GuiOptions& opt) {
  if (!opt.catalog_file.empty() && !add_translator_catalog(app, opt.catalog_file)) return false;
  if (!opt.state_file.empty()) {
    std::ifstream in(opt.state_file, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "error: cannot read %s\n", opt.state_file.c_str());
      return false;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string err = apply_state_text(app.state, ss.str());
    if (!err.empty()) {
      std::fprintf(stderr, "error: %s: %s\n", opt.state_file.c_str(), err.c_str());
      return false;
    }
  }
  // Like the web page: a garbled link opens the defaults with a message, never an exit.
  if (!opt.fragment.empty() && !app.open_fragment(opt.fragment))
    std::fprintf(stderr, "warning: %s\n", app.status.c_str());
  return true;
}

// GLFW and an OpenGL 3.3 core window; nullptr after printing why (GLFW is then terminated).
GLFWwindow* open_window(int width, int height) {
  if (!glfwInit()) {
    std::fprintf(stderr, "error: GLFW could not initialise (no display?)\n");
    return nullptr;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  GLFWwindow* window = glfwCreateWindow(width, height, "Attention Playground", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "error: could not open an OpenGL 3.3 window\n");
    glfwTerminate();
    return nullptr;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);
  return window;
}

void init_imgui(GLFWwindow* window) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  static std::string ini;  // ImGui keeps the pointer
  ini = settings_path();
  ImGui::GetIO().IniFilename = ini.c_str();
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  set_glsl_version("#version 330 core");
}

// Lesson progress saved by an earlier run; an unreadable file leaves a status message, not an exit.
void load_saved_progress(App& app) {
  std::ifstream saved(progress_path(), std::ios::binary);
  std::stringstream text;
  text << saved.rdbuf();
  if (saved) {
    const std::string err = load_progress(app, text.str());
    if (!err.empty()) app.status = err;
  }
}

// A file the Share panel opens; anything larger than the JSON limit is refused before it is read.
std::string read_text_file(const std::string& path, std::string& text) {
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
}

// The Share panel's services: the system clipboard and files in the working directory. A canvas capture
// only records the name; the main loop reads the back buffer after the frame is drawn.
void install_host_services(App& app, GLFWwindow* window, std::string& capture_name) {
  app.host.copy_text = [window](const std::string& text) { glfwSetClipboardString(window, text.c_str()); };
  app.host.save_progress = [](const std::string& json) { std::ofstream(progress_path(), std::ios::binary) << json; };
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
      return SaveOutcome{false, name, ""};  // the image could not be encoded
    return save_file(working_directory(), name, png);
  };
  app.host.capture_canvas = [&capture_name](const std::string& name) { capture_name = name; };
  app.host.read_file = read_text_file;
}

// The last frame of a scripted run: the screenshot and where labelled items were drawn (for screenshot
// checks). Returns the exit status.
int finish_scripted_run(const App& app, const GuiOptions& opt, int fw, int fh, const InputScript* script = nullptr) {
  int status = 0;
  if (!opt.screenshot.empty() && !write_screenshot(opt.screenshot, fw, fh)) {
    std::fprintf(stderr, "error: cannot write %s\n", opt.screenshot.c_str());
    status = 1;
  }
  if (!opt.rects_file.empty()) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [label, r] : app.item_rects) j[label] = {{"x", r.x}, {"y", r.y}, {"w", r.w}, {"h", r.h}};
    std::ofstream(opt.rects_file) << j.dump(2);
  }
  std::vector<std::string> cut(app.cut_items.begin(), app.cut_items.end());
  if (script) cut.insert(cut.begin(), script->cut_found().begin(), script->cut_found().end());
  if (opt.check_fit && !cut.empty()) {
    std::string ids;
    for (const std::string& id : cut) ids += (ids.empty() ? "" : ", ") + id;
    std::fprintf(stderr, "cut at the panel's edge: %s\n", ids.c_str());
    if (status == 0) status = 3;
  }
  return status;
}

// An interactive window skips drawing a frame that would show what it shows, and once nothing new has been drawn
// for half a second with no input and no work going on (app_working), it waits for input up to kIdleFrameMs before
// each frame instead of drawing 60 a second: a window left open on a laptop costs next to nothing
// (tests/desktop/idle_window.sh). A window the system asks to redraw (uncovered, restored) draws its next frame.
bool g_window_exposed = false;

void wait_for_input(bool interactive, bool last_drawn, const QuietFrames& quiet) {
  if (!interactive || last_drawn) {
    glfwPollEvents();  // swapping the last frame waited for the display
  } else {
    glfwWaitEventsTimeout(quiet.idle() ? kIdleFrameMs / 1000.0 : 1.0 / 60);
  }
}

// Frames until the window closes, or until --frames N have been drawn; returns the exit status.
// With an input script, frames run until it is done and a few more have passed (the last steps' effects are
// drawn), then the run ends like a --frames run.
int run_main_loop(App& app, GLFWwindow* window, const GuiOptions& opt, std::string& capture_name, float xscale,
                  InputScript* script) {
  ui::Shell shell(app);
  shell.init(1.0f);
  if (xscale > 1.01f) app.state.text_scale *= xscale;
  int frames_after_script = 0;
  // Scripted and counted runs draw every frame, as their screenshots and timings expect.
  const bool interactive = !script && opt.frames_to_render <= 0;
  uint64_t last_digest = 0;
  bool drawn = true;
  QuietFrames quiet;
  glfwSetWindowRefreshCallback(window, [](GLFWwindow*) { g_window_exposed = true; });
  while (!glfwWindowShouldClose(window)) {
    wait_for_input(interactive, drawn, quiet);
    FrameSurface surface;
    glfwGetFramebufferSize(window, &surface.framebuffer_w, &surface.framebuffer_h);
    surface.hide_pointer = opt.frames_to_render > 0 && !script;
    if (script) surface.queue_input = [&] { script->queue_frame(app); };
    if (interactive) {
      surface.last_drawn = &last_digest;
      surface.force_draw = g_window_exposed || !capture_name.empty();
      g_window_exposed = false;
    }
    const bool input = !ImGui::GetCurrentContext()->InputEventsQueue.empty();
    drawn = run_frame(app, shell, surface);
    quiet.after_frame(app, drawn, input);
    if (script && script->done() && ++frames_after_script > 5) {
      std::printf("input script: %zu steps in %llu frames (%zu states refused)\n", script->steps(),
                  static_cast<unsigned long long>(app.frames), script->states_refused());
      return finish_scripted_run(app, opt, surface.framebuffer_w, surface.framebuffer_h, script);
    }
    const int fw = surface.framebuffer_w, fh = surface.framebuffer_h;
    if (!capture_name.empty() && drawn) {  // "PNG of the canvas" in the Share panel, once a frame is drawn
      app.status = saved_status(app, write_screenshot(capture_name, fw, fh), capture_name);
      capture_name.clear();
    }
    if (opt.frames_to_render > 0 && static_cast<int>(app.frames) >= opt.frames_to_render)
      return finish_scripted_run(app, opt, fw, fh);
    if (drawn) glfwSwapBuffers(window);
  }
  return 0;
}

void shut_down(GLFWwindow* window) {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
}

}  // namespace

int run_gui(int argc, char** argv) {
  GuiOptions opt;
  if (!parse_gui_options(argc, argv, opt)) return 2;
  // Interactive windows spread long recomputations over frames; a screenshot run computes at once so
  // its N frames show the finished result.
  App app(opt.screenshot.empty() ? 10 : 0);
  if (!open_initial_state(app, opt)) return 1;
  GLFWwindow* window = open_window(opt.width, opt.height);
  if (!window) return 1;
  float xscale = 1, yscale = 1;
  glfwGetWindowContentScale(window, &xscale, &yscale);
  VisitFacts visit;  // read before ImGui writes its settings file: a first run has none, nor any progress
  std::error_code ec;
  visit.kept_work = std::filesystem::exists(settings_path(), ec) || std::filesystem::exists(progress_path(), ec);
  visit.link = !opt.state_file.empty() || !opt.fragment.empty();
  visit.lesson_link = !opt.lesson_file.empty();
  init_imgui(window);
  std::string capture_name;
  install_host_services(app, window, capture_name);
  load_saved_progress(app);
  if (!opt.lesson_file.empty()) {  // a teacher's lesson, opened at its first step as a built-in one is
    std::string text, err = read_text_file(opt.lesson_file, text);
    if (err.empty()) err = open_lesson_file(app, text, opt.lesson_file);
    if (!err.empty()) {
      std::fprintf(stderr, "error: %s: %s\n", opt.lesson_file.c_str(), err.c_str());
      shut_down(window);
      return 1;
    }
  }
  app.start_view = first_visit(visit);
  InputScript script;
  if (!opt.input_file.empty()) {
    std::string text, err = read_text_file(opt.input_file, text);
    if (err.empty()) err = script.load(text);
    if (!err.empty()) {
      std::fprintf(stderr, "error: %s: %s\n", opt.input_file.c_str(), err.c_str());
      shut_down(window);
      return 1;
    }
  }
  const int status = run_main_loop(app, window, opt, capture_name, xscale, opt.input_file.empty() ? nullptr : &script);
  shut_down(window);
  return status;
}

}  // namespace attn
