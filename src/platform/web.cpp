// web.cpp — the page: Emscripten main loop, canvas sizing for devicePixelRatio, ImGui on WebGL2.
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/exchange/embed.h"
#include "app/exchange/query_state.h"
#include "app/lesson/lesson_builder.h"
#include "app/start_view.h"
#include "platform/frame.h"
#include "platform/platform.h"
#include "platform/web_api.h"
#include "platform/web_input.h"
#include "render/gl.h"
#include "render/heatmap.h"
#include "ui/canvas_exit.h"
#include "ui/shell.h"

// Shows a fatal message in the page (textContent only, see attnplay-api.js).
EM_JS(void, web_fatal, (const char* message), {
  if (Module.attnplayFatal) Module.attnplayFatal(UTF8ToString(message));
});

// Services for the Share panel (App::host); the JavaScript half is Module.attnplayHost in attnplay-api.js.
// Bytes are copied out of the heap before anything asynchronous happens.
EM_JS(void, web_copy_text, (const char* text), { Module.attnplayHost.copyText(UTF8ToString(text)); });

// The system clipboard for the canvas's text fields. Emscripten's GLFW keeps no clipboard, so ImGui's copy goes to
// the page's copyText (navigator.clipboard), and a paste comes from the browser's paste event (attnplay-api.js),
// which arrives after Ctrl+V's keydown and before the frame that handles the key: the text waits here for that
// frame, and is handed over once, so a Ctrl+V without a paste event never pastes an older text.
namespace {
std::string g_pasted, g_handed;
void canvas_copy(void*, const char* text) { web_copy_text(text ? text : ""); }
const char* canvas_paste(void*) {
  g_handed = std::move(g_pasted);
  g_pasted.clear();
  return g_handed.c_str();
}
}  // namespace
EM_JS(void, web_download, (const char* name, const char* mime, const char* data, int size),
      { Module.attnplayHost.download(UTF8ToString(name), UTF8ToString(mime), HEAPU8.slice(data, data + size)); });
EM_JS(void, web_save_png, (const char* name, int w, int h, const unsigned char* rgba),
      { Module.attnplayHost.savePng(UTF8ToString(name), w, h, HEAPU8.slice(rgba, rgba + w * h * 4)); });
EM_JS(void, web_capture_canvas, (const char* name), { Module.attnplayHost.captureCanvas(UTF8ToString(name)); });
EM_JS(void, web_pick_file, (), { Module.attnplayHost.pickFile(); });
EM_JS(void, web_make_course_package, (const char* lessons, const char* scorm),
      { Module.attnplayHost.makeCoursePackage(UTF8ToString(lessons), UTF8ToString(scorm)); });
// A finger can point here: a coarse pointer among the device's pointers (phones, tablets, touch laptops).
// (No === here: clang-format splits it inside EM_JS, and the page's script would not parse.)
EM_JS(int, web_has_touch_screen, (),
      { return globalThis.matchMedia && matchMedia("(any-pointer: coarse)").matches ? 1 : 0; });
// The system asks for a light colour scheme (prefers-color-scheme): the theme until a link or the learner sets one.
EM_JS(int, web_prefers_light, (),
      { return globalThis.matchMedia && matchMedia("(prefers-color-scheme: light)").matches ? 1 : 0; });
// The keyboard leaves the canvas (+1 forward, -1 back, 2 Esc: to the skip links): attnplay-a11y.js moves the focus on
// in the page.
EM_JS(void, web_leave_canvas, (int dir), {
  const c = document.getElementById("canvas");
  if (c) c.dispatchEvent(new CustomEvent("attnplay-leave", {detail : dir}));
});
EM_JS(void, web_save_progress, (const char* json), { Module.attnplayHost.saveProgress(UTF8ToString(json)); });
// 0: the page address without query or fragment, 1: location.search, 2: location.hash, 3: the browser's
// languages (navigator.languages, comma-separated), 4: this page's saved progress ("" = none), 5: what else the page
// found about this visit ("kept" work in this browser, an "inline" copy, "framed" in another page). Caller frees.
EM_JS(char*, web_page_string, (int which), {
  const s = String(Module.attnplayHost.pageString(which) || "");
  const n = lengthBytesUTF8(s) + 1;
  const p = _malloc(n);
  stringToUTF8(s, p, n);
  return p;
});

// WebGL state queries answered in the page instead of by the GPU process. ImGui's renderer saves and restores the
// viewport, scissor box and blend state around every frame (imgui_impl_opengl3.cpp), and Chromium answers each of
// those getParameter calls with a round trip to the GPU process that first waits for every command before it: on the
// phone profile the 8 calls took 10–18 ms of each frame of a finger drag (tests/bench/phone_load.mjs). The app is the
// context's only user, so these values change only through the setters wrapped here. A value the shadow would not
// model exactly (an invalid or a clamped argument) drops the entry, and the next query asks the context again.
EM_JS(void, web_shadow_gl_state, (), {
  var gl = GLctx;
  var query = gl.getParameter.bind(gl);
  var VIEWPORT = 0x0BA2, SCISSOR_BOX = 0x0C10;
  var BLEND = [ 0x80C9, 0x80C8, 0x80CB, 0x80CA ];  // SRC_RGB, DST_RGB, SRC_ALPHA, DST_ALPHA
  var EQUATION = [ 0x8009, 0x883D ];               // BLEND_EQUATION_RGB, BLEND_EQUATION_ALPHA
  var shadowed = [ VIEWPORT, SCISSOR_BOX ].concat(BLEND, EQUATION);
  var maxDims = query(0x0D3A);  // MAX_VIEWPORT_DIMS: a larger viewport is clamped
  var known = new Map();
  gl.getParameter = function(p) {
    if (shadowed.indexOf(p) < 0) return query(p);
    if (!known.has(p)) known.set(p, query(p));
    var v = known.get(p);
    return v instanceof Int32Array ? new Int32Array(v) : v;
  };
  var keep = function(names, values, valid) {
    names.forEach(function(p, i) {
      if (valid)
        known.set(p, values[i]);
      else
        known.delete(p);
    });
  };
  var factor = function(f) { return f == 0 || f == 1 || (f >= 0x300 && f <= 0x307); };
  var equation = function(m) { return [ 0x8006, 0x8007, 0x8008, 0x800A, 0x800B ].indexOf(m) >= 0; };
  var blend = function(sr, dr, sa, da) {
    keep(BLEND, [ sr, dr, sa, da ], factor(sr) && factor(dr) && factor(sa) && factor(da));
  };
  var blendEquation = function(r, a) { keep(EQUATION, [ r, a ], equation(r) && equation(a)); };
  var box = function(p, limit) {
    return function(x, y, w, h) {
      keep([p], [Int32Array.of(x, y, w, h)], w >= 0 && h >= 0 && (!limit || (w <= limit[0] && h <= limit[1])));
    };
  };
  var after = function(name, update) {
    var set = gl[name].bind(gl);
    gl[name] = function() {
      set.apply(null, arguments);
      update.apply(null, arguments);
    };
  };
  after("viewport", box(VIEWPORT, maxDims));
  after("scissor", box(SCISSOR_BOX, null));
  after(
      "blendFunc", function(s, d) { blend(s, d, s, d); });
  after("blendFuncSeparate", blend);
  after(
      "blendEquation", function(m) { blendEquation(m, m); });
  after("blendEquationSeparate", blendEquation);
  gl.canvas.addEventListener(
      "webglcontextlost", function() { known.clear(); });
});

namespace attn {
namespace {

std::string page_string(int which) {
  char* p = web_page_string(which);
  std::string s = p ? p : "";
  std::free(p);
  return s;
}

// Long recomputations (n = 1024 at large d_k, the variance Monte Carlo) run a slice per frame instead of one long
// frame, from the first frame on.
constexpr double kFrameBudgetMs = 10;

struct WebContext {
  GLFWwindow* window = nullptr;
  App app{kFrameBudgetMs};
  std::unique_ptr<ui::Shell> shell;
  float pixel_ratio = 1;
  int canvas_w = 0, canvas_h = 0;
  std::string capture;      // PNG of the canvas requested: taken right after the next frame is drawn
  uint64_t last_drawn = 0;  // digest of the last frame drawn into the canvas
  QuietFrames quiet;        // when the page may idle
};

// An idle page — nothing drawn differently, no input and no call from the page's scripts for half a second — runs
// its frame 15 times a second on a timer instead of on every animation frame: a lesson left open on a laptop
// during a lecture costs 0.10 of a core instead of 0.30 (tests/bench/idle_page.mjs). Input and calls wake it for
// the next animation frame (attnplay_wake); what changes without them (a training snapshot, a status that
// expires) is drawn within 67 ms and keeps it awake while it changes, as does work that goes on across frames
// (app_working). A hidden page stays on animation frames, which the browser pauses.
bool g_idle = false;
bool g_woken = false;  // input or a call from the page's scripts since the last frame (attnplay_wake)

void set_idle(bool idle) {
  if (idle == g_idle) return;
  g_idle = idle;
  if (idle)
    emscripten_set_main_loop_timing(EM_TIMING_SETTIMEOUT, kIdleFrameMs);
  else
    emscripten_set_main_loop_timing(EM_TIMING_RAF, 1);
}

bool g_in_frame = false;

void wake_now() {
  g_woken = true;
  if (!g_idle || g_in_frame) {
    set_idle(false);
    return;
  }
  set_idle(false);
  // The timer already set would still run the next frame up to 67 ms from now: a fresh loop runs it on the next
  // animation frame, and the old one ends when its timer fires.
  emscripten_pause_main_loop();
  emscripten_resume_main_loop();
}

bool page_hidden() {
  EmscriptenVisibilityChangeEvent visibility;
  return emscripten_get_visibility_status(&visibility) == EMSCRIPTEN_RESULT_SUCCESS && visibility.hidden;
}

// Before a frame: wakes on input, a call, a resized canvas or a hidden page; after enough quiet frames, idles.
void update_idle_timing(WebContext& c, int backing_w, int backing_h) {
  const bool input = !ImGui::GetCurrentContext()->InputEventsQueue.empty();
  if (input || g_woken || backing_w != c.canvas_w || backing_h != c.canvas_h || page_hidden()) {
    g_woken = false;
    c.quiet.wake();
    set_idle(false);
  } else if (c.quiet.idle() && c.capture.empty()) {
    set_idle(true);
  }
}

// Canvas pixels per CSS pixel: the device's ratio, at most 2. Phones report 3 (and more); a 390×844 canvas at 3
// is 3 million pixels that the browser rasterises, composites and (without a GPU) draws in software every frame
// — on the phone profile a finger drag then spent most frames in that — while text at 2 reads the same at arm's
// length. tests/bench/phone_load.mjs measures the drag.
constexpr double kMaxPixelRatio = 2.0;

float canvas_pixel_ratio() { return static_cast<float>(std::min(emscripten_get_device_pixel_ratio(), kMaxPixelRatio)); }

void frame(void* arg) {
  WebContext& c = *static_cast<WebContext*>(arg);
  g_in_frame = true;
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size("#canvas", &css_w, &css_h);
  const float dpr = canvas_pixel_ratio();
  update_idle_timing(c, static_cast<int>(std::lround(css_w * dpr)), static_cast<int>(std::lround(css_h * dpr)));
  if (dpr != c.pixel_ratio) {  // moved to another screen or zoomed: re-rasterise the font
    c.pixel_ratio = dpr;
    ImGui::GetIO().Fonts->Clear();
    c.shell->init(dpr);
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  // The canvas's backing store follows its CSS size × the pixel ratio, so text stays crisp.
  const int bw = std::max(1, static_cast<int>(std::lround(css_w * dpr)));
  const int bh = std::max(1, static_cast<int>(std::lround(css_h * dpr)));
  if (bw != c.canvas_w || bh != c.canvas_h) {
    emscripten_set_canvas_element_size("#canvas", bw, bh);
    c.canvas_w = bw;
    c.canvas_h = bh;
  }
  if (css_w > 0) set_web_input_scale(static_cast<float>(bw / css_w));
  web_input_tick();
  FrameSurface surface;
  surface.framebuffer_w = bw;
  surface.framebuffer_h = bh;
  surface.display_w = static_cast<float>(css_w);
  surface.display_h = static_cast<float>(css_h);
  surface.display_scale = dpr;
  poll_web_train();  // the newest training snapshots, before this frame draws them
  surface.last_drawn = &c.last_drawn;
  surface.force_draw = !c.capture.empty();  // the capture reads the drawing buffer this frame fills
  FramePhases phases;
  surface.phases = &phases;
  const double frame_start = emscripten_get_now();
  const bool painted = run_frame(c.app, *c.shell, surface);
  if (painted) ++c.app.frames_painted;
  c.quiet.after_frame(c.app, painted, false);  // input before the frame woke it (update_idle_timing)
  const double body_ms = phases.tick_ms + phases.panels_ms + phases.render_ms + phases.gl_ms;
  if (const int dir = ui::canvas_focus_exit()) web_leave_canvas(dir);
  if (!c.capture.empty()) {  // the drawing buffer still holds this frame until control returns to the browser
    web_capture_canvas(c.capture.c_str());
    c.capture.clear();
  }
  web_text_sync();
  push_web_changes();
  phases.around_ms = std::max(0.0, emscripten_get_now() - frame_start - body_ms);
  record_frame_phases(phases);
  g_in_frame = false;
}

// What the page knows at start about this visit: a fragment, the query (a lesson link, an embed, an LMS launch) and
// what attnplay-api.js found in the browser (kept work, an inline copy, a frame).
VisitFacts visit_facts(const App& app, const std::string& hash) {
  VisitFacts visit;
  visit.link = hash.size() > 1;
  visit.embed = app.embed.enabled;
  read_visit_query(page_string(1), visit);
  read_visit_words(page_string(5), visit);
  return visit;
}

}  // namespace
}  // namespace attn

int main() {
  using namespace attn;
  if (!glfwInit()) {
    web_fatal("GLFW could not start in this browser");
    return 1;
  }
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  // Every frame clears to an opaque colour and ImGui needs neither depth nor stencil: an opaque canvas without
  // them is cheaper for a phone's compositor (no blending with the page) and has no depth/stencil buffers to clear.
  glfwWindowHint(GLFW_ALPHA_BITS, 0);
  glfwWindowHint(GLFW_DEPTH_BITS, 0);
  glfwWindowHint(GLFW_STENCIL_BITS, 0);
  static WebContext ctx;  // lives for the page's lifetime
  double css_w = 1280, css_h = 800;
  emscripten_get_element_css_size("#canvas", &css_w, &css_h);
  ctx.window =
      glfwCreateWindow(static_cast<int>(css_w), static_cast<int>(css_h), "Attention Playground", nullptr, nullptr);
  if (!ctx.window) {
    web_fatal("WebGL2 is not available in this browser");
    return 1;
  }
  glfwMakeContextCurrent(ctx.window);
  web_shadow_gl_state();
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // layout comes from the URL/state, not from storage
  ImGui_ImplGlfw_InitForOpenGL(ctx.window, true);
  ImGui::GetIO().SetClipboardTextFn = canvas_copy;
  ImGui::GetIO().GetClipboardTextFn = canvas_paste;
  install_web_input(ctx.window, "#canvas");
  ImGui_ImplOpenGL3_Init("#version 300 es");
  set_glsl_version("#version 300 es");
  ctx.pixel_ratio = canvas_pixel_ratio();
  ctx.shell = std::make_unique<ui::Shell>(ctx.app);
  ctx.shell->init(ctx.pixel_ratio);
  bind_web_api(&ctx.app);
  ctx.app.touch_screen = web_has_touch_screen();
  bind_web_train(&ctx.app);
  App& app = ctx.app;
  app.host.copy_text = [](const std::string& text) { web_copy_text(text.c_str()); };
  // The browser saves asynchronously; attnplay-api.js reports a failure through the status itself.
  app.host.download = [](const std::string& name, const std::string& mime, const std::string& bytes) {
    web_download(name.c_str(), mime.c_str(), bytes.data(), static_cast<int>(bytes.size()));
    return SaveOutcome{true, name, ""};
  };
  app.host.save_png = [](const std::string& name, int w, int h, const std::vector<uint8_t>& rgba) {
    web_save_png(name.c_str(), w, h, rgba.data());
    return SaveOutcome{true, name + " (" + std::to_string(w) + "×" + std::to_string(h) + ")", ""};
  };
  app.host.capture_canvas = [](const std::string& name) { ctx.capture = name; };
  app.host.pick_file = [] { web_pick_file(); };
  app.host.make_course_package = [](const std::string& lessons, const std::string& scorm) {
    web_make_course_package(lessons.c_str(), scorm.c_str());
  };
  app.host.page_url = [] { return page_string(0); };
  app.host.save_progress = [](const std::string& json) { web_save_progress(json.c_str()); };
  // Embed settings from the query, the shared state from the fragment (both validated in C++).
  const std::string embed_error = parse_embed_query(page_string(1), app.embed);
  // The browser's language (Hindi → Hinglish); a Hinglish link switches to Hinglish, an English one keeps it.
  app.state.lang = lang_from_preferences(page_string(3));
  app.state.dark_theme = !web_prefers_light();  // a theme in the link, the query or the kept state wins below
  // The saved progress first: opening a link's lesson step records progress, which must add to what was
  // kept (lessons, worksheet cells, an unchecked answer), not replace it.
  if (const std::string err = load_progress(app, page_string(4)); !err.empty()) app.status = err;
  const std::string hash = page_string(2);
  if (is_lesson_link(hash))
    open_lesson_link(app, hash);  // a lesson the builder made (#lesson=1.…)
  else if (hash.size() > 1)
    app.open_fragment(hash);
  // lesson=…&step=…, workspace=…, lang=… (which has the last word on the language)
  const std::string query_error = apply_query_state(app.state, page_string(1));
  if (!query_error.empty()) app.status = query_error;
  if (!embed_error.empty()) app.status = tr_format(app.state.lang, "status.embed_ignored", {{"error", embed_error}});
  app.start_view = first_visit(visit_facts(app, hash));
  emscripten_set_main_loop_arg(frame, &ctx, 0, false);
  return 0;
}

// The page's scripts call this on input and before they call into the app (attnplay-api.js): an idle page runs its
// next frame on the next animation frame.
extern "C" EMSCRIPTEN_KEEPALIVE void attnplay_wake() { attn::wake_now(); }

// What the browser's paste event carried while the canvas had the focus (attnplay-api.js): the next Ctrl+V the
// frame handles in a text field pastes it.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attnplay_paste(const char* text) {
  g_pasted = text ? text : "";
  return "";
}
