// app.h — the app context: State in, everything the panels draw out. Recomputes only what changed.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/embed.h"
#include "app/host.h"
#include "app/learn.h"
#include "app/lesson_run.h"
#include "app/state.h"
#include "app/worksheet.h"
#include "core/attention/montecarlo.h"
#include "core/attention/progressive.h"
#include "core/attention/scenario.h"

namespace attn {

// Saturation statistics of the selected query row (of head 1) as d_k sweeps the slider's range, each
// point what compute() gives for the state at that d_k: same mask, heads and temperature.
struct DkSweep {
  std::vector<int> d_k;  // per-head widths (what the scores are divided by the root of); the state's d_k is × heads
  std::vector<float> entropy[2], max_weight[2], jacobian[2];  // [0] unscaled, [1] scaled
  // One draw of W_Q and W_K wanders as d_k grows (a few more columns can swap the row's top two logits), so
  // the same row is also swept over `draws` other seeded draws (same embeddings): their mean and the band
  // from the 10th to the 90th percentile show the trend. [metric: 0 entropy, 1 max weight, 2 Jacobian][scaled]
  struct Band {
    std::vector<float> mean, lo, hi;
  };
  Band band[3][2];
  int draws = 0;
  int heads = 1;
  int row = 0;             // the query row swept
  bool available = false;  // random mode only: explicit matrices have one fixed d_k
};

// Multi-head trade-off: the same state computed at each head count h that divides d_k and d_v.
struct HeadsOption {
  int heads = 1, d_head = 0;
  float mean_entropy = 0, mean_max_weight = 0;       // over every head's rows
  float min_head_entropy = 0, max_head_entropy = 0;  // spread between heads (mean entropy per head)
};

// Permutation equivariance: the same tokens reversed, with and without positional encoding.
struct PositionalCheck {
  bool available = false;                  // X-based scenarios of 2 … kMaxPositionalCheckTokens tokens
  double gap_without = -1, gap_with = -1;  // max |Y(reversed) − reversed Y|
  std::string reversed;                    // the sentence reversed ("man bites dog")
};
constexpr int kMaxPositionalCheckTokens = 256;  // two extra computations per change stay cheap

struct AppResult {
  Result core;          // the state as the learner set it
  Scenario scenario;    // what `core` was computed from (the pipeline shows its X and W)
  Result flipped;       // the same with scaling toggled, for side-by-side views: every row, or
  int flipped_row = 0;  // (long sequences) only the selected row, which is then its row 0
  std::string error;    // non-empty if the state could not be computed
  DkSweep sweep;
  VarianceRow variance;                    // q·k samples at the current d_k
  std::vector<VarianceRow> std_curve;      // measured spread against d_k
  CrossResult cross;                       // the encoder–decoder example, three score functions
  std::vector<HeadsOption> heads_options;  // filled while the Heads panel is open (random mode)
  PositionalCheck positional;              // filled while the Positional panel is open
  std::vector<std::string> row_labels, col_labels;
  uint64_t revision = 0;  // bumps whenever `core` changes (texture uploads key on it)
  float pending = -1;     // 0…1 while a long recomputation runs across frames; −1 when none
};

// Screen rectangles of labelled ImGui items in the last frame (for tests and automation).
struct ItemRect {
  float x, y, w, h;
};

class App {
 public:
  App();
  State state;
  AppResult result;
  std::map<std::string, ItemRect> item_rects;  // filled by the UI each frame
  std::set<std::string> cut_items;             // tracked items drawn past their panel's right edge this frame
  bool touch_screen = false;  // the platform's word, once at start: fingers may point here (menus get taller rows)
  std::string focused_item;   // the tracked item with keyboard focus ("" = none)
  // The page's parallel DOM (a11y.h): which panel drew each tracked control last frame and with which
  // catalog label, and the control whose DOM twin has focus (its ring is drawn on the canvas; "" = none).
  std::map<std::string, std::string> item_panels, item_labels;
  std::string dom_focus;
  std::string status;  // last non-modal message shown to the learner
  // A message shows for this long after it last changed, then clears itself (tick ages it).
  static constexpr double kStatusSeconds = 10.0;
  // Clears `status` once the same text has been showing for kStatusSeconds; `now_seconds` is any
  // steady clock. The time counts from the first call that sees the text.
  void age_status(double now_seconds);
  uint64_t frames = 0;  // frames drawn so far (the page is ready after the first)
  // Of those, the frames whose pixels the target painted: the page skips painting a frame that would
  // look exactly like the last one (the canvas keeps showing it).
  uint64_t frames_painted = 0;
  HostServices host;    // clipboard, downloads, files: set by the platform
  EmbedSettings embed;  // embed mode (web query string); off on desktop
  // Lessons (lesson_run.h): the open step's answers, the controls it locks, progress across lessons,
  // and events for an embedding page (lesson-step, answer, lesson-complete), drained by the bridge.
  StepProgress step_progress;
  std::vector<std::string> lesson_locks;
  nlohmann::json progress = nlohmann::json::object();
  uint64_t progress_loads = 0;  // load_progress calls: a reload's kept views are applied once after each
  std::vector<nlohmann::json> events;
  WorksheetSession worksheet;
  LearnSession learn;  // Learn mode's two models (learn.h)  // the hand-calculation checker (worksheet.h)

  // Share links and imports (defined in share.cpp).
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

  // Recomputes whatever the current state invalidated, completely. Cheap when nothing changed.
  void update();
  // One frame of the model, before the panels draw it, in this order: enter a lesson the state names,
  // recompute (a recomputation bigger than the frame budget runs a block of rows per frame; the last result
  // stays on screen meanwhile, `result.pending` says how far it got, so dragging a slider at n = 1024 never
  // freezes the page; a budget of 0 computes at once), the lesson's tick, Learn mode's training, the status
  // line's age. platform/frame.cpp calls it between the input and the shell.
  void tick();
  double frame_budget_ms = 0;  // set by interactive platforms
  // Set by interactive platforms each frame while a control is held (a finger or the mouse on a slider): the
  // variance panel's Monte Carlo (millions of draws, a long frame on a phone) waits for the release.
  bool control_held = false;
  // A number that changes whenever the state, the computed result or the status line does (cheap: the
  // scenario fingerprint the update already keeps, plus the small display fields).
  uint64_t change_stamp() const;
  // The part of it that is the state alone (no result, status or lesson attempts).
  uint64_t state_stamp() const;
  // The lesson step now in `state.lesson` has had its state applied (lesson_run.cpp calls this).
  void mark_lesson_entered() { entered_lesson_ = state.lesson; }

 private:
  void update_with_budget(double budget_ms);
  void enter_requested_lesson();
  LessonRef entered_lesson_;  // the lesson step whose state was last applied
  void install_core(Result&& r, const Scenario& sc);
  void flip_selected_row();
  std::string shown_link_;  // current_share_link()'s last link, of change stamp ...
  uint64_t shown_link_stamp_ = 0;
  double shown_link_at_ = 0;           // ... built at this time
  std::string status_seen_;            // the status text age_status() last saw ...
  double status_since_ = 0;            // ... and since when
  Scenario core_scenario_;             // what result.core was computed from
  uint64_t flipped_revision_ = ~0ull;  // result.revision the one-row flip belongs to
  bool flip_one_row_ = false;
  ProgressiveCompute job_;
  bool job_running_ = false;
  uint64_t job_key_ = 0;
  Scenario job_scenario_;  // what the job computes (labels and the scaling flip need it)
  uint64_t positional_revision_ = ~0ull;
  uint64_t core_key_ = 0, sweep_key_ = 0, variance_key_ = 0, cross_key_ = 0, heads_key_ = 0;
  std::optional<uint64_t> curve_seed_;  // the seed std_curve was measured with (none yet: every seed is valid)
};

// Log-spaced d_k values covering the slider's range.
std::vector<int> sweep_dks();
DkSweep compute_sweep(const State& s, int row);
std::vector<HeadsOption> compute_heads_options(const State& s);
PositionalCheck compute_positional_check(const Scenario& sc, const std::vector<std::string>& tokens);
// The same result with scaling toggled, from the existing scores (false: recompute instead).
bool flip_scaling(const Result& r, const Scenario& sc, Result& out);

}  // namespace attn
