// web_api.cpp — the one C-ABI bridge between the page's JavaScript and the App (cf. chips' webapi.c).
#include "platform/web_api.h"

#include <emscripten.h>
#include <imgui.h>
#include <imgui_internal.h>  // ImGuiWindow: another window's scroll position (attnplay_panel_scroll)

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/a11y.h"
#include "app/app.h"
#include "app/app_exchange.h"
#include "app/base/page_events.h"
#include "app/base/strings.h"
#include "app/describe/summary.h"
#include "app/exchange/embed.h"
#include "app/exchange/share.h"
#include "app/learn/learn.h"
#include "app/lesson/course_package.h"
#include "app/lesson/lesson_builder.h"
#include "app/lesson/lesson_run.h"
#include "app/lesson/lesson_text.h"
#include "app/state/registry.h"
#include "app/state/state_json.h"
#include "core/hash.h"
#include "core/json_codec.h"

#define ATTNPLAY_EXPORT EMSCRIPTEN_KEEPALIVE

namespace attn {
namespace {
App* g_app = nullptr;  // the bridge is process-wide by nature: one page, one App
std::string g_out;
const char* g_learn_bytes = "";            // attnplay_learn_save()'s bytes, valid until its next call
std::vector<PackageFile> g_package_files;  // a course package's files, held from the first add to finish
constexpr size_t kKeptFramePhases = 600;   // ten seconds at 60 fps: a benchmark's drag fits
std::vector<FramePhases> g_frame_phases;   // a ring, the oldest at g_frame_phases_next once full
size_t g_frame_phases_next = 0;

const char* out(std::string s) {
  g_out = std::move(s);
  return g_out.c_str();
}
}  // namespace
void bind_web_api(App* app) { g_app = app; }

void record_frame_phases(const FramePhases& phases) {
  if (g_frame_phases.size() < kKeptFramePhases) {
    g_frame_phases.push_back(phases);
    return;
  }
  g_frame_phases[g_frame_phases_next] = phases;
  g_frame_phases_next = (g_frame_phases_next + 1) % kKeptFramePhases;
}
}  // namespace attn

using attn::g_app;
using attn::g_learn_bytes;
using attn::g_package_files;
using attn::out;

extern "C" {

ATTNPLAY_EXPORT const char* attnplay_get_state() {
  if (!g_app) return out("null");
  return out(attn::state_to_json(g_app->state).dump());
}

ATTNPLAY_EXPORT const char* attnplay_set_state(const char* json) {
  if (!g_app) return out(R"({"ok":false,"error":"not ready"})");
  const std::string err = json ? attn::apply_state_text(g_app->state, json) : "no state given";
  if (!err.empty()) return out(nlohmann::json{{"ok", false}, {"error", err}}.dump());
  g_app->update();
  return out(R"({"ok":true})");
}

ATTNPLAY_EXPORT const char* attnplay_get_result() {
  if (!g_app) return out("null");
  g_app->update();
  g_app->finish_sweep();
  return out(attn::app_result_json(*g_app).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

ATTNPLAY_EXPORT const char* attnplay_item_rect(const char* label) {
  if (!g_app || !label) return out("null");
  const auto it = g_app->item_rects.find(attn::canonical_control_id(label));
  if (it == g_app->item_rects.end()) return out("null");
  const attn::ItemRect& r = it->second;
  return out(nlohmann::json{{"x", r.x}, {"y", r.y}, {"w", r.w}, {"h", r.h}}.dump());
}

ATTNPLAY_EXPORT const char* attnplay_focused() { return out(g_app ? g_app->focused_item : std::string()); }
// The tooltip the last frame showed, "" when none (Escape dismisses one: ui/tooltip.h).
ATTNPLAY_EXPORT const char* attnplay_tooltip() { return out(g_app ? g_app->tooltip : std::string()); }

ATTNPLAY_EXPORT const char* attnplay_summary() {
  if (!g_app) return out("");
  return out(attn::screen_summary(*g_app, attn::withheld_facts(*g_app)));
}

ATTNPLAY_EXPORT double attnplay_frames() { return g_app ? static_cast<double>(g_app->frames) : 0.0; }
// The first view is on screen (the page resolves `ready`).
ATTNPLAY_EXPORT int attnplay_first_view_drawn() { return g_app && g_app->frames >= attn::App::kFirstViewFrames; }
ATTNPLAY_EXPORT double attnplay_frames_painted() { return g_app ? static_cast<double>(g_app->frames_painted) : 0.0; }

ATTNPLAY_EXPORT const char* attnplay_frame_phases() {
  nlohmann::json rows = nlohmann::json::array();
  for (size_t i = 0; i < attn::g_frame_phases.size(); ++i) {
    const attn::FramePhases& p = attn::g_frame_phases[(attn::g_frame_phases_next + i) % attn::g_frame_phases.size()];
    rows.push_back({{"frame", p.frame},
                    {"tick", p.tick_ms},
                    {"recompute", p.recompute_ms},
                    {"panels", p.panels_ms},
                    {"render", p.render_ms},
                    {"gl", p.gl_ms},
                    {"around", p.around_ms}});
  }
  return out(rows.dump());
}

// ---- sharing and embedding ---------------------------------------------------------------------
ATTNPLAY_EXPORT const char* attnplay_share_link() { return out(g_app ? g_app->share_link() : std::string()); }

ATTNPLAY_EXPORT const char* attnplay_open_fragment(const char* fragment) {
  if (!g_app) return out(R"({"ok":false,"error":"not ready"})");
  if (fragment && attn::is_lesson_link(fragment)) {
    const std::string err = attn::open_lesson_link(*g_app, fragment);
    return out(err.empty() ? nlohmann::json{{"ok", true}}.dump()
                           : nlohmann::json{{"ok", false}, {"error", err}}.dump());
  }
  if (!g_app->open_fragment(fragment ? fragment : ""))
    return out(nlohmann::json{{"ok", false}, {"error", g_app->status}}.dump());
  return out(R"({"ok":true})");
}

ATTNPLAY_EXPORT const char* attnplay_import_json(const char* text, const char* name) {
  if (!g_app) return out(R"({"ok":false,"error":"not ready"})");
  const std::string err = g_app->import_text(text ? text : "", name ? name : "file");
  if (!err.empty()) return out(nlohmann::json{{"ok", false}, {"error", g_app->status}}.dump());
  return out(R"({"ok":true})");
}

// A teacher's lesson file (its text): {"ok": true, "id", "steps", "warnings"} once it is open at step 1, or
// {"ok": false, "error"} with the one reason; a refused lesson changes nothing but the status line.
ATTNPLAY_EXPORT const char* attnplay_load_lesson(const char* text, const char* name) {
  if (!g_app) return out(R"({"ok":false,"error":"not ready"})");
  const std::string err = attn::open_lesson_file(*g_app, text ? text : "", name ? name : "lesson.json");
  const auto replace = nlohmann::json::error_handler_t::replace;  // a message may quote the file's broken bytes
  if (!err.empty())
    return out(nlohmann::json{{"ok", false}, {"error", err}, {"message", g_app->status}}.dump(-1, ' ', false, replace));
  const attn::Lesson* l = attn::open_lesson(*g_app);
  return out(nlohmann::json{{"ok", true},
                            {"id", l ? l->id : ""},
                            {"steps", l ? l->steps.size() : 0},
                            {"warnings", l ? l->warnings : std::vector<std::string>{}}}
                 .dump(-1, ' ', false, replace));
}

ATTNPLAY_EXPORT const char* attnplay_set_status(const char* message) {
  if (g_app && message) {
    std::string m;
    for (const char* c = message; *c && m.size() < 300; ++c) m += (static_cast<unsigned char>(*c) < 0x20) ? ' ' : *c;
    g_app->status = m;
  }
  return out("null");
}

// A catalog text in the learner's language with {name} and {error} filled in: the page's own
// messages (clipboard refused, file too large …) and the words of its HTML controls.
ATTNPLAY_EXPORT const char* attnplay_text(const char* key, const char* name, const char* error) {
  const attn::Lang lang = g_app ? g_app->state.lang : attn::kDefaultLang;
  return out(attn::tr_format(lang, key ? key : "", {{"name", name ? name : ""}, {"error", error ? error : ""}}));
}

ATTNPLAY_EXPORT const char* attnplay_lang() {
  return out(attn::lang_code(g_app ? g_app->state.lang : attn::kDefaultLang));
}

// The catalog file the page should fetch next ("hi-Latn", "en.lessons"), or "": the shown language's texts, then
// the other parts once the page asks for them (with_parts: after its first view) or a lesson is open.
ATTNPLAY_EXPORT const char* attnplay_catalog_missing(int with_parts) {
  const bool in_lesson = g_app && !g_app->state.lesson.id.empty();
  return out(attn::missing_catalog(g_app ? g_app->state.lang : attn::kDefaultLang, with_parts != 0 || in_lesson));
}
// Installs a fetched catalog file by its name: "" or why it was refused (the texts in use stay).
ATTNPLAY_EXPORT const char* attnplay_install_catalog(const char* name, const char* json) {
  return out(attn::install_catalog(name ? name : "", json ? json : ""));
}

ATTNPLAY_EXPORT const char* attnplay_status() { return out(g_app ? g_app->status : std::string()); }

ATTNPLAY_EXPORT const char* attnplay_embed_info() {
  if (!g_app) return out("null");
  const attn::EmbedSettings& e = g_app->embed;
  return out(nlohmann::json{
      {"enabled", e.enabled}, {"panels", e.panels}, {"locked", e.locked}, {"hidden", e.hidden}, {"origins", e.origins}}
                 .dump());
}

// What the page's scripts check a host's messages and files against, from the C++ tables (page_events.h,
// json_codec.h) rather than copies in JavaScript: {"events": [subscribable names], "json_depth", "json_bytes"}.
ATTNPLAY_EXPORT const char* attnplay_host_protocol() {
  return out(nlohmann::json{{"events", attn::subscribable_page_events()},
                            {"json_depth", attn::kMaxJsonDepth},
                            {"json_bytes", attn::kMaxJsonBytes}}
                 .dump());
}

// The first language of a preference list ("hi-IN,en-US", cmi5's languagePreference) the page has, by the rule the
// page's own start uses (strings.h: preferred_language): its tag, or "" when the list names none.
ATTNPLAY_EXPORT const char* attnplay_preferred_language(const char* preferences) {
  attn::Lang l = attn::kDefaultLang;
  return out(preferences && attn::preferred_language(preferences, l) ? attn::lang_code(l) : "");
}

// A cheap probe for change events: the small fields of the state, fingerprints of the large ones, and
// whether the selected row is saturated (max weight > kSaturatedMaxWeight, as in the Saturation panel).
ATTNPLAY_EXPORT const char* attnplay_watch() {
  if (!g_app) return out("null");
  // No update() here: the embed script polls this, and a forced full recomputation would undo the
  // frame loop's spreading of long ones. The frame loop keeps the result current.
  nlohmann::json small = attn::share_state_json(g_app->state);
  const auto digest = [](const nlohmann::json& j) {
    const std::string s = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return std::to_string(attn::fnv1a(s));
  };
  nlohmann::json parts = nlohmann::json::object();
  for (const char* big : {"embeddings", "scenario"}) {
    if (small.contains(big)) {
      parts[big] = digest(small[big]);
      small.erase(big);
    } else {
      parts[big] = "";
    }
  }
  const attn::Result& c = g_app->result.core;
  const attn::HeadResult& h = c.first_head();
  const int row = g_app->state.selected_row;
  const double mw = row >= 0 && row < h.max_weight.size() ? static_cast<double>(h.max_weight(row)) : 0.0;
  return out(nlohmann::json{{"state", small},
                            {"parts", parts},
                            {"row", row},
                            {"max_weight", mw},
                            {"saturated", mw > attn::kSaturatedMaxWeight},
                            {"error", g_app->result.error},
                            {"status", g_app->status}}
                 .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

// ---- lessons ---------------------------------------------------------------------------------------
// Events since the last call (lesson-step, answer, lesson-complete), oldest first; the embed script
// forwards them to subscribed host pages.
ATTNPLAY_EXPORT const char* attnplay_take_events() {
  if (!g_app) return out("[]");
  nlohmann::json list = nlohmann::json::array();
  for (auto& e : g_app->events) list.push_back(std::move(e));
  g_app->events.clear();
  return out(list.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

// Progress kept by the page (local storage), read back at start-up; bad text is ignored with a message.
ATTNPLAY_EXPORT const char* attnplay_load_progress(const char* text) {
  if (!g_app) return out(R"({"ok":false,"error":"not ready"})");
  const std::string err = attn::load_progress(*g_app, text ? text : "");
  if (!err.empty()) return out(nlohmann::json{{"ok", false}, {"error", err}}.dump());
  return out(R"({"ok":true})");
}

// Progress another tab of this page just saved (the page's "storage" event): merged into this tab's.
ATTNPLAY_EXPORT const char* attnplay_merge_progress(const char* text) {
  if (!g_app) return out(R"({"ok":false,"error":"not ready"})");
  const std::string err = attn::merge_progress(*g_app, text ? text : "");
  if (!err.empty()) return out(nlohmann::json{{"ok", false}, {"error", err}}.dump());
  return out(R"({"ok":true})");
}

// Answers an LMS kept for a lesson (attnplay-lms.js, on a relaunch): {"<question id>": {"given", "attempts"}}.
ATTNPLAY_EXPORT const char* attnplay_keep_answers(const char* lesson, const char* answers) {
  if (!g_app) return out(R"({"ok":false,"error":"not ready"})");
  const nlohmann::json a = nlohmann::json::parse(answers ? answers : "", nullptr, false);
  const std::string err = attn::keep_answers(*g_app, lesson ? lesson : "", a);
  if (!err.empty()) return out(nlohmann::json{{"ok", false}, {"error", err}}.dump());
  return out(R"({"ok":true})");
}

// What changed since the last call, cheaply: the page calls this once per drawn frame and refreshes
// its listeners (aria summary, embed events, the address bar) only when the stamp moves.
ATTNPLAY_EXPORT double attnplay_change_stamp() {
  if (!g_app) return 0;
  return static_cast<double>(g_app->change_stamp() & ((1ull << 52) - 1)) + (g_app->events.empty() ? 0 : 0.5);
}

// ---- a course package for an LMS (the Share panel's "Download for an LMS…") -----------------------------
// The page's files, as its site-manifest.json lists them (src/app/lesson/course_package.h), fetched by attnplay-api.js
// and handed in one by one with the list itself; finish zips them with the lessons' manifest and downloads the zip.

ATTNPLAY_EXPORT int attnplay_package_add(const char* name, const char* data, int size) {
  if (!name || !data || size < 0 || g_package_files.size() > 256) return 0;
  g_package_files.push_back({name, std::string(data, static_cast<size_t>(size))});
  return 1;
}

ATTNPLAY_EXPORT const char* attnplay_package_finish(const char* lessons, const char* scorm) {
  std::vector<attn::PackageFile> files = std::move(g_package_files);
  g_package_files.clear();
  if (!g_app || !lessons || !scorm) return out(R"({"ok":false,"error":"not ready"})");
  attn::CoursePackageOptions o;
  o.cmi5 = std::string(scorm) == "cmi5";
  o.scorm = o.cmi5 ? "2004" : scorm;
  for (size_t start = 0, comma = 0; comma != std::string::npos; start = comma + 1) {
    comma = std::string(lessons).find(',', start);
    const std::string id =
        std::string(lessons).substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!id.empty()) o.lessons.push_back(id);
  }
  attn::take_lessons_pass_mark(o);  // a builder's lesson carries the teacher's pass mark
  std::string zip;
  const std::string err = attn::build_course_package(o, files, zip);
  if (!err.empty()) {
    g_app->status = attn::tr_format(g_app->state.lang, "share.lms_failed", {{"error", err}});
    return out(nlohmann::json{{"ok", false}, {"error", err}}.dump());
  }
  const std::string kind = o.cmi5 ? "cmi5" : o.scorm == "1.2" ? "scorm12" : "scorm2004";
  const std::string name = "attnplay-" + o.lessons.front() + "-" + kind + ".zip";
  g_app->download(name, "application/zip", zip);
  return out(nlohmann::json{{"ok", true}, {"name", name}, {"bytes", zip.size()}}.dump());
}

// ---- layout ------------------------------------------------------------------------------------------
// window.attnplay.ui.panelScroll(panel): a panel's window in CSS pixels and how far its content is
// scrolled, from the last frame, or null. The panel is named by its registry key ("explain") or its
// title in the current language ("Explanation"); in the phone layout it is a section of the stack.
// ---- Learn mode's training worker ----------------------------------------------------------------
// A snapshot the worker posted (attnplay-train-worker.js), adopted at the start of a frame (poll_web_train).
ATTNPLAY_EXPORT int attnplay_learn_adopt(const char* data, int size, double generation, const char* probes,
                                         int probes_size) {
  if (!g_app || !data || size < 0) return 0;
  const std::string views = probes && probes_size > 0 ? std::string(probes, static_cast<size_t>(probes_size)) : "";
  const std::string err =
      attn::learn_adopt(*g_app, std::string(data, static_cast<size_t>(size)), static_cast<uint64_t>(generation), views);
  return err.empty() ? 1 : 0;
}

// Learn mode's run for the page to keep in IndexedDB: its size (0 = nothing new since the last call, -1 = forget
// the kept one), bytes at attnplay_learn_bytes(); and a kept run handed back at start-up.
ATTNPLAY_EXPORT int attnplay_learn_save() {
  static std::string kept;
  if (!g_app) return 0;
  std::string bytes;
  switch (attn::learn_snapshot(*g_app, bytes)) {
    case attn::KeptRun::Unchanged:
      return 0;
    case attn::KeptRun::Forget:
      return -1;
    case attn::KeptRun::Save:
      break;
  }
  kept = std::move(bytes);
  g_learn_bytes = kept.data();
  return static_cast<int>(kept.size());
}
ATTNPLAY_EXPORT const char* attnplay_learn_bytes() { return g_learn_bytes; }
ATTNPLAY_EXPORT const char* attnplay_learn_resume(const char* data, int size) {
  if (!g_app || !data || size <= 0) return out(R"({"ok":false,"error":"no run given"})");
  const std::string err = attn::learn_resume(*g_app, std::string(data, static_cast<size_t>(size)));
  return out(err.empty() ? nlohmann::json{{"ok", true}}.dump() : nlohmann::json{{"ok", false}, {"error", err}}.dump());
}

// The worker's script or module failed: training goes on in the frame, and the Learn panel says why.
ATTNPLAY_EXPORT const char* attnplay_learn_worker_failed(const char* reason) {
  if (g_app) attn::learn_worker_failed(*g_app, reason ? reason : "");
  return out("null");
}

ATTNPLAY_EXPORT const char* attnplay_panel_scroll(const char* name) {
  ImGuiContext* g = ImGui::GetCurrentContext();
  if (!g || !name || !g_app) return out("null");
  const attn::PanelInfo* panel = attn::find_panel(name);
  for (const attn::PanelInfo& p : attn::panel_table())
    if (!panel && attn::tr(g_app->state.lang, (std::string("panel.") + p.key).c_str()) == std::string(name)) panel = &p;
  if (!panel) return out("null");
  const std::string tile_suffix = std::string("###") + panel->key;          // a tiled window "<title>###<key>"
  const std::string section = std::string("###stack/") + panel->key + "_";  // a child of the phone stack
  for (const ImGuiWindow* w : g->Windows) {
    const std::string n = w->Name;
    const bool tiled = !(w->Flags & ImGuiWindowFlags_ChildWindow) && n.size() >= tile_suffix.size() &&
                       n.compare(n.size() - tile_suffix.size(), tile_suffix.size(), tile_suffix) == 0;
    if (!w->WasActive || !(tiled || n.compare(0, section.size(), section) == 0)) continue;
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  R"({"x":%.1f,"y":%.1f,"w":%.1f,"h":%.1f,"scrollY":%.1f,"scrollMaxY":%.1f,"lineHeight":%.2f})",
                  w->Pos.x, w->Pos.y, w->Size.x, w->Size.y, w->Scroll.y, w->ScrollMax.y,
                  w->CalcFontSize() + g->Style.ItemSpacing.y);
    return out(buf);
  }
  return out("null");
}

// ---- the parallel DOM (attnplay-a11y.js) ------------------------------------------------------------
// What the page's hidden twin of the canvas shows: open panels with their state-bound controls, the lesson
// step as text, the selected row's weights (a11y.h). Read when the change event fires, not per frame.
ATTNPLAY_EXPORT const char* attnplay_a11y_description() {
  if (!g_app) return out("null");
  return out(attn::a11y_description(*g_app).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

// The control whose DOM twin has focus: the canvas draws its focus ring there ("" = none). Answers whether the
// canvas drew that control in the last frame: where it did not (a twin with no control of its own on the canvas),
// the page shows the focus itself (attnplay-a11y.js).
ATTNPLAY_EXPORT const char* attnplay_a11y_focus(const char* id) {
  if (!g_app) return out("false");
  g_app->dom_focus = id ? attn::canonical_control_id(id) : std::string();
  return out(!g_app->dom_focus.empty() && g_app->item_rects.count(g_app->dom_focus) ? "true" : "false");
}

// An action from a DOM twin (a11y.h): a lesson step, the lesson picker, a worksheet cell.
ATTNPLAY_EXPORT const char* attnplay_a11y_act(const char* json) {
  if (!g_app) return out(R"({"ok":false,"error":"not ready"})");
  const nlohmann::json action = nlohmann::json::parse(json ? json : "", nullptr, false);
  const std::string err = attn::a11y_act(*g_app, action);
  if (!err.empty()) return out(nlohmann::json{{"ok", false}, {"error", err}}.dump());
  return out(R"({"ok":true})");
}

}  // extern "C"

EM_JS(void, web_changed, (), {
  if (Module.attnplayChanged) Module.attnplayChanged();
});

// Module.attnplayTrain (attnplay-api.js) owns the Worker. open(): "" when one was created, else why not.
EM_JS(char*, web_train_open, (), {
  const s = String(Module.attnplayTrain ? Module.attnplayTrain.open() : "the page has no training worker support");
  const n = lengthBytesUTF8(s) + 1;
  const p = _malloc(n);
  stringToUTF8(s, p, n);
  return p;
});
EM_JS(void, web_train_start, (const char* data, int size, double generation),
      { Module.attnplayTrain.start(HEAPU8.slice(data, data + size), generation); });
EM_JS(void, web_train_allow, (double generation, double steps), { Module.attnplayTrain.allow(generation, steps); });
EM_JS(void, web_train_stop, (), { Module.attnplayTrain.stop(); });
// Hands every snapshot that came since the last frame to the app, oldest first (each continues the one before).
EM_JS(void, web_train_poll, (), {
  if (!Module.attnplayTrain) return;
  for (const s of Module.attnplayTrain.take()) {
    const bytes = new Uint8Array(s.state), views = new Uint8Array(s.probes || new ArrayBuffer(0));
    const p = _malloc(bytes.length), q = _malloc(views.length + 1);
    if (!p || !q) return;
    HEAPU8.set(bytes, p);
    HEAPU8.set(views, q);
    _attnplay_learn_adopt(p, bytes.length, s.gen, q, views.length);
    _free(q);
    _free(p);
  }
});

namespace attn {
void bind_web_train(App* app) {
  char* reason = web_train_open();
  const std::string why = reason ? reason : "";
  std::free(reason);
  if (!why.empty()) {
    learn_worker_failed(*app, why);
    return;
  }
  app->learn.worker.start = [](const std::string& state, uint64_t generation) {
    web_train_start(state.data(), static_cast<int>(state.size()), static_cast<double>(generation));
  };
  app->learn.worker.allow = [](uint64_t generation, long steps) {
    web_train_allow(static_cast<double>(generation), static_cast<double>(steps));
  };
  app->learn.worker.stop = [] { web_train_stop(); };
}

void poll_web_train() { web_train_poll(); }

void push_web_changes() {
  static double pushed = -1;
  const double stamp = attnplay_change_stamp();
  if (stamp == pushed) return;
  pushed = stamp;
  web_changed();
}
}  // namespace attn
