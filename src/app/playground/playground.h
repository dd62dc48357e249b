// playground.h — what the learner set and what the core computed from it: the state, every derived result
// (recomputed only where the state changed, a long recomputation spread over frames), the status line and
// the events for an embedding page. The lesson runner, Learn mode and the worksheet each work on it through
// this header alone; app.h composes them.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "app/state/state.h"
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
  int row = 0;                // the query row swept
  bool available = false;     // random mode only: explicit matrices have one fixed d_k
  bool band_pending = false;  // the band's draws are still being made across frames (draws = 0 until then)
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
  // The first head's saturated rows (saturation.h), counted once per result: at n = 1024 the count reads a
  // million cells, which the heatmap's legend did every frame (9 ms of a 13 ms idle frame in the page).
  int saturated_rows = 0;
  uint64_t revision = 0;          // bumps whenever `core` changes (texture uploads key on it)
  float pending = -1;             // 0…1 while a long recomputation runs across frames; −1 when none
  bool variance_pending = false;  // the variance panel's Monte Carlo is still drawing (std_curve may be partial)
};

// One of the variance panel's Monte Carlo measurements, run a slice per frame (core VarianceExperiment).
struct VarianceJob {
  std::tuple<std::vector<int>, int, uint64_t, int> key;  // d_ks, samples, seed, bins
  std::optional<VarianceExperiment> run;                 // in flight
  std::optional<std::vector<VarianceRow>> ready;         // finished (or kept from before), not yet taken
};

class Playground {
 public:
  State state;
  AppResult result;
  std::string status;  // last non-modal message shown to the learner
  // Events for an embedding page (lesson-step, answer, lesson-complete, …), drained by the bridge; bounded.
  std::vector<nlohmann::json> events;
  void emit(nlohmann::json event);

  // A message shows for this long after it last changed, then clears itself (tick ages it).
  static constexpr double kStatusSeconds = 10.0;
  // Clears `status` once the same text has been showing for kStatusSeconds; `now_seconds` is any
  // steady clock. The time counts from the first call that sees the text.
  void age_status(double now_seconds);

  // Set by interactive platforms: the variance Monte Carlo runs only within a frame's budget (recompute_within with
  // a budget), even when a lesson or a link asks for a recomputation at once; its panel shows it growing.
  bool spread_monte_carlo = false;
  // Set by interactive platforms each frame while a control is held (a finger or the mouse on a slider): the
  // variance panel's Monte Carlo (millions of draws, a long frame on a phone) waits for the release.
  bool control_held = false;
  // Set by interactive platforms while the first view is being drawn: the Monte Carlo and the sweep's band (neither is
  // on the first screen of a phone) start once it is on screen rather than lengthening its first frames.
  bool first_view_drawing = false;
  // Recomputes whatever the current state invalidated, completely. Cheap when nothing changed.
  void recompute() { recompute_within(0); }
  // The same within a frame's budget: a recomputation bigger than the budget runs a block of rows per call;
  // the last result stays meanwhile and `result.pending` says how far it got (0 = compute at once).
  void recompute_within(double budget_ms);
  // Draws the rest of the d_k sweep's band now if frames were still drawing it: a script asking for the
  // result (getResult) gets the whole sweep, never a half-drawn one that changes under it.
  void finish_sweep();

 private:
  void install_core(Result&& r, const Scenario& sc);
  void flip_selected_row();
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
  VarianceJob variance_job_, curve_job_;
};

// Log-spaced d_k values covering the slider's range.
std::vector<int> sweep_dks();
// band_budget_ms > 0: draw the band's projections for at most about that long; if some are left, the
// result has no band yet (band_pending) and the next call with the same seed and shape goes on.
DkSweep compute_sweep(const State& s, int row, double band_budget_ms = 0);
std::vector<HeadsOption> compute_heads_options(const State& s);
PositionalCheck compute_positional_check(const Scenario& sc, const std::vector<std::string>& tokens);
// The same result with scaling toggled, from the existing scores (false: recompute instead).
bool flip_scaling(const Result& r, const Scenario& sc, Result& out);

}  // namespace attn
