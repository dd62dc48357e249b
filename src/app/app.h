// app.h — the composition root: the playground (state, results, status, events) and the parts that work on it:
// the lesson runner, Learn mode, the worksheet, the saved progress and the host's services. Each part's functions
// take only the references they need (LessonParts, LearnParts, WorksheetParts, made here); their headers never
// include this one.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/base/host.h"
#include "app/exchange/embed.h"
#include "app/exchange/embed_choice.h"
#include "app/exchange/package_choice.h"
#include "app/learn/learn.h"
#include "app/lesson/builder_session.h"
#include "app/lesson/lesson_run.h"
#include "app/playground/playground.h"
#include "app/playground/token_shuffle.h"
#include "app/worksheet/worksheet.h"

namespace attn {

// Screen rectangles of labelled ImGui items in the last frame (for tests and automation).
struct ItemRect {
  float x, y, w, h;
};

class App : public Playground {
 public:
  // `frame_budget_ms` > 0 (an interactive platform): from the start, long work — the variance panel's Monte Carlo
  // — runs a slice per frame, so the first frame does not wait for it; 0 (tests, the CLI): everything at once.
  explicit App(double frame_budget_ms = 0);
  std::map<std::string, ItemRect> item_rects;  // filled by the UI each frame
  std::set<std::string> cut_items;             // tracked items drawn past their panel's right edge this frame
  // A first visit opens with the start view (start_view.h): set by the platform at start, cleared by the learner's
  // choice or by a lesson opening.
  bool start_view = false;
  bool touch_screen = false;  // the platform's word, once at start: fingers may point here (menus get taller rows)
  std::string focused_item;   // the tracked item with keyboard focus ("" = none)
  std::string tooltip;        // the tooltip the last frame showed ("" = none)
  // The page's parallel DOM (a11y.h): which panel drew each tracked control last frame and with which
  // catalog label, and the control whose DOM twin has focus (its ring is drawn on the canvas; "" = none).
  std::map<std::string, std::string> item_panels, item_labels;
  std::string dom_focus;
  uint64_t frames = 0;  // frames drawn so far
  // The page is ready once this many are drawn (the layout settles on the second); until then the frames
  // draw the first view and nothing else (first_view_drawing).
  static constexpr uint64_t kFirstViewFrames = 2;
  // Of those, the frames whose pixels the target painted: the page skips painting a frame that would
  // look exactly like the last one (the canvas keeps showing it).
  uint64_t frames_painted = 0;
  double last_recompute_ms = 0;  // the last tick's recomputation (the core and the derived results), for benchmarks
  HostServices host;             // clipboard, downloads, files: set by the platform
  EmbedSettings embed;           // embed mode (web query string); off on desktop
  // Lessons (lesson_run.h): the open step's answers and the controls it locks.
  StepProgress step_progress;
  std::vector<std::string> lesson_locks;
  std::string finished_lesson;  // whose results show after its last step (lesson_run.h)
  // The learner's saved work, one document the host keeps: lessons' progress, the worksheet's typed cells, an
  // answer typed but not checked, where panels were scrolled to.
  nlohmann::json progress = nlohmann::json::object();
  uint64_t progress_loads = 0;  // load_progress calls: a reload's kept views are applied once after each
  WorksheetSession worksheet;   // the hand-calculation checker (worksheet.h)
  TokenShuffle token_shuffle;   // the Positional panel's last "Shuffle tokens" and its gap (token_shuffle.h)
  LearnSession learn;           // Learn mode's two models (learn.h)
  // The lesson builder (lesson_builder.h): while set, a lesson file picked opens in it rather than as a lesson; a
  // lesson opened in it waits here until the builder panel takes it (once the teacher confirms replacing steps).
  bool builder_import = false;
  nlohmann::json builder_opened;
  BuilderSession builder;        // the draft its canvas panel and parallel-DOM twin edit (builder_actions.h)
  PackageChoice package_choice;  // the lesson and standard the next course package takes (share_actions.h)
  EmbedChoice embed_choice;  // the embed code the Share panel builds: panels, locks, origins, size (share_actions.h)

  // What each part may touch, by reference, for one call (the functions of lesson_run.h, learn.h and
  // worksheet.h take these, so `start_lesson(app, …)` hands the lesson runner its parts and nothing else).
  operator LessonParts() {
    return {*this,          step_progress, lesson_locks, entered_lesson_, progress,
            progress_loads, worksheet,     host,         finished_lesson};
  }
  operator LessonView() const { return {*this, step_progress, progress, finished_lesson}; }
  operator LearnParts() { return {*this, learn}; }
  operator LearnView() const { return {*this, learn}; }
  operator WorksheetParts() { return {state, worksheet, progress, host}; }

  // Share links and imports (defined in app_exchange.cpp).
  std::string share_link() const;  // page address + "#s=1.…"; the same text window.attnplay.shareURL() returns
  // The link the Share panel's box shows: always the current state's. Building one costs milliseconds
  // at n = 1024, so it is rebuilt when change_stamp() moves, and at least every kLinkRefreshSeconds of
  // `now_seconds` (any steady clock) for anything the stamp leaves out.
  const std::string& current_share_link(double now_seconds);
  static constexpr double kLinkRefreshSeconds = 0.25;
  // Opens a share fragment; on any problem shows the defaults and says why in `status` (returns false).
  bool open_fragment(const std::string& fragment);
  // A dropped or picked JSON file: a CLI scenario or a full state. "" on success (status says so too).
  std::string import_text(const std::string& text, const std::string& name);
  // Exports through the host's download / save_png and shows the host's outcome (where the file went,
  // or why it could not be written) in `status`.
  void download(const std::string& name, const std::string& mime, const std::string& bytes);
  void save_png(const std::string& name, int w, int h, const std::vector<uint8_t>& rgba);

  // Enters a lesson the state names, then recomputes whatever the state invalidated, completely.
  void update();
  // One frame of the model, before the panels draw it, in this order: enter a lesson the state names,
  // recompute within the frame budget (the last result stays on screen meanwhile, so dragging a slider at
  // n = 1024 never freezes the page; a budget of 0 computes at once), the lesson's tick, Learn mode's
  // training, the status line's age. platform/frame.cpp calls it between the input and the shell.
  void tick();
  double frame_budget_ms = 0;  // set by interactive platforms
  // A number that changes whenever the state, the computed result or the status line does (cheap: the
  // scenario fingerprint the update already keeps, plus the small display fields).
  uint64_t change_stamp() const;
  // The part of it that is the state alone (no result, status or lesson attempts).
  uint64_t state_stamp() const;

 private:
  void enter_requested_lesson();
  void tell_embed_panels();
  LessonRef entered_lesson_;       // the lesson step whose state was last applied
  std::string told_embed_panels_;  // the last "embed-panels" event's body: a host hears each change once
  std::string shown_link_;         // current_share_link()'s last link, of change stamp ...
  uint64_t shown_link_stamp_ = 0;
  double shown_link_at_ = 0;  // ... built at this time
};

}  // namespace attn
