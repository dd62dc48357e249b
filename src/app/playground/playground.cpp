// playground.cpp — derived results with change detection: an embedding edit recomputes the attention,
// not the variance lab; moving d_k recomputes the attention and the histogram, not the sweep.
#include "app/playground/playground.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <tuple>

#include "app/playground/saturation.h"
#include "app/state/state_json.h"
#include "core/attention/attention.h"
#include "core/attention/kernels.h"
#include "core/hash.h"

namespace attn {

using Hasher = ValueHasher;  // state.h

std::vector<int> sweep_dks() {
  std::vector<int> out;
  for (double e = 0; e <= 10.0 + 1e-9; e += 0.5) out.push_back(static_cast<int>(std::lround(std::pow(2.0, e))));
  return out;
}

namespace {
constexpr int kSweepDraws = 16;

// variance_experiment is a pure function of its arguments and draws tens of millions of normals (the d_k curve
// alone: 4000 pairs at 21 widths up to 1024); every App opened on the same seed would draw them again, so
// the last few results are kept.
using VarianceKey = std::tuple<std::vector<int>, int, uint64_t, int>;
std::map<VarianceKey, std::vector<VarianceRow>>& kept_variances() {
  thread_local std::map<VarianceKey, std::vector<VarianceRow>> kept;
  return kept;
}

// Starts a measurement, or finds it kept from before (then it is ready at once).
void start_variance(VarianceJob& job, std::vector<int> d_ks, int samples, uint64_t seed, int bins) {
  job.key = VarianceKey{d_ks, samples, seed, bins};
  job.run.reset();
  job.ready.reset();
  const auto& kept = kept_variances();
  if (const auto it = kept.find(job.key); it != kept.end())
    job.ready = it->second;
  else
    job.run.emplace(std::move(d_ks), samples, seed, bins);
}

// Steps a measurement in flight for up to `budget_ms` (0: to the end); its rows once finished, taken once.
std::optional<std::vector<VarianceRow>> step_variance(VarianceJob& job, double budget_ms) {
  if (job.run && job.run->step(budget_ms)) {
    auto& kept = kept_variances();
    // A few hundred bytes each (two 41-bin histograms a width): enough for every width a lesson walk visits.
    constexpr size_t kKept = 64;
    if (kept.size() >= kKept) kept.clear();
    kept[job.key] = job.run->rows();
    job.ready = job.run->rows();
    job.run.reset();
  }
  std::optional<std::vector<VarianceRow>> out;
  out.swap(job.ready);
  return out;
}

// One draw of W_Q and W_K: the row's entropy, max weight and Jacobian norm at each per-head width d,
// unscaled and scaled, appended to out[metric][scaled]. q·k_j = x_j·(W_k q) with u = W_k[:, :d] q[:d]
// grown one column at a time, so the whole sweep costs one pass over the widest W_k.
void sweep_draw(const Mat& x_row, const Eigen::MatrixXd& Xd, const Mat& W_q, const Mat& W_k,
                const std::vector<int>& dks, const MaskMat& blocked, float temperature, std::vector<float>* out[3]) {
  const Mat q = x_row * W_q;  // the query row at the widest width, as compute() makes it
  const Eigen::MatrixXd Wk = W_k.cast<double>();
  HeadResult hr;
  hr.V = Mat(Xd.rows(), 0);  // the output is not needed, only the weights' statistics
  Eigen::VectorXd u = Eigen::VectorXd::Zero(Wk.rows());
  int c = 0;
  for (int d : dks) {
    for (; c < d; ++c) u += Wk.col(c) * static_cast<double>(q(0, c));
    hr.scores = (Xd * u).transpose().cast<float>();
    for (int scaled = 0; scaled < 2; ++scaled) {
      Scenario softmax_rules;
      softmax_rules.scale = scaled == 1;
      softmax_rules.temperature = temperature;
      softmax_head(softmax_rules, blocked, d, hr);
      out[0][scaled].push_back(hr.entropy(0));
      out[1][scaled].push_back(hr.max_weight(0));
      out[2][scaled].push_back(hr.jacobian_norm(0));
    }
  }
}

// The band's other W_Q and W_K draws depend only on the seed and the shape; drawing them is most of a
// sweep's cost (2 × 16 × d_model × 1024 normals), and a lesson or a drag recomputes with the same ones, so
// the last set is kept (at most 8 MB at d_model = 64). With a budget (ms > 0) it draws at least one more and
// stops once the budget is spent: an interactive page spreads them over frames (≈ 0.5 s at once on a phone).
// Returns the full set, or null while some are still to draw.
const std::vector<std::pair<Mat, Mat>>* band_projections(uint64_t state_seed, int d_model, int width, double ms) {
  struct Kept {
    uint64_t seed = 0;
    int d_model = 0, width = 0;
    std::vector<std::pair<Mat, Mat>> draws;
  };
  thread_local Kept kept;
  if (kept.seed != state_seed || kept.d_model != d_model || kept.width != width)
    kept = Kept{state_seed, d_model, width, {}};
  const auto start = std::chrono::steady_clock::now();
  const auto spent_ms = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };
  while (static_cast<int>(kept.draws.size()) < kSweepDraws && (ms <= 0 || kept.draws.empty() || spent_ms() < ms)) {
    const auto k = static_cast<uint64_t>(kept.draws.size());
    const uint64_t seed = (state_seed + 0x632BE59BD9B4E019ull * (k + 1)) ^ 0xD1B54A32D192ED03ull;
    kept.draws.emplace_back(random_projection(seed, 'q', d_model, width), random_projection(seed, 'k', d_model, width));
  }
  return static_cast<int>(kept.draws.size()) == kSweepDraws ? &kept.draws : nullptr;
}

// The same row over kSweepDraws other seeded projections: per d, the mean and the 10 %–90 % band.
void sweep_bands(const State& s, const std::vector<std::pair<Mat, Mat>>& projections, const Mat& x_row,
                 const Eigen::MatrixXd& Xd, const MaskMat& blocked, DkSweep& sw) {
  std::vector<std::vector<float>> runs[3][2];  // [metric][scaled][draw][d]
  for (const auto& [W_q, W_k] : projections) {
    std::vector<float> one[3][2];
    std::vector<float>* out[3] = {one[0], one[1], one[2]};
    sweep_draw(x_row, Xd, W_q, W_k, sw.d_k, blocked, s.temperature, out);
    for (int m = 0; m < 3; ++m)
      for (int scaled = 0; scaled < 2; ++scaled) runs[m][scaled].push_back(std::move(one[m][scaled]));
  }
  for (int m = 0; m < 3; ++m)
    for (int scaled = 0; scaled < 2; ++scaled) {
      DkSweep::Band& b = sw.band[m][scaled];
      for (size_t i = 0; i < sw.d_k.size(); ++i) {
        std::vector<float> at;
        for (const auto& run : runs[m][scaled]) at.push_back(run[i]);
        std::sort(at.begin(), at.end());
        double sum = 0;
        for (float v : at) sum += v;
        b.mean.push_back(static_cast<float>(sum / static_cast<double>(at.size())));
        b.lo.push_back(at[at.size() / 10]);
        b.hi.push_back(at[at.size() - 1 - at.size() / 10]);
      }
    }
  sw.draws = kSweepDraws;
}
}  // namespace

// The selected row of head 1 at each per-head width d in the sweep, i.e. the state with d_k = d × heads
// (the seeded projections' first columns do not depend on the width, so head 1 always uses the first
// d: the curve is nested, as dragging the slider is); the mask and everything after the scores are the
// core's (attention_mask_rows, softmax_head).
DkSweep compute_sweep(const State& s, int row, double band_budget_ms) {
  DkSweep sw;
  if (s.mode != InputMode::Random || s.embeddings.rows() == 0 || s.heads < 1) return sw;
  for (int d : sweep_dks())
    if (static_cast<long long>(d) * s.heads <= kMaxDk && (sw.d_k.empty() || sw.d_k.back() != d)) sw.d_k.push_back(d);
  if (sw.d_k.empty()) return sw;
  State widest = s;
  widest.d_k = sw.d_k.back() * s.heads;
  const Scenario sc = build_scenario(widest);
  // e.g. heads not dividing d_v: the state itself cannot be computed; or identity projections (a preset
  // whose plane is the whole space), whose width is fixed: no sweep over d_k.
  if (!validate(sc).empty() || !sc.W_q || !sc.W_k || !sc.X) {
    sw.d_k.clear();
    return sw;
  }
  const int n = static_cast<int>(sc.X->rows());
  sw.available = true;
  sw.heads = s.heads;
  sw.row = std::clamp(row, 0, n - 1);
  Scenario inputs = sc;  // X after positional encoding, as the core makes it; Q and K follow below
  inputs.W_q.reset();
  inputs.W_k.reset();
  Mat X_eff, X_q, X_k, V;
  project(inputs, X_eff, X_q, X_k, V);
  const Eigen::MatrixXd Xd = X_eff.cast<double>();
  const MaskMat blocked = attention_mask_rows(sc, sw.row, 1, n);
  std::vector<float>* own[3] = {sw.entropy, sw.max_weight, sw.jacobian};
  sweep_draw(X_eff.row(sw.row), Xd, *sc.W_q, *sc.W_k, sw.d_k, blocked, s.temperature, own);
  // head 1 reads the first d columns
  if (const auto* projections = band_projections(s.seed, s.d_model, sw.d_k.back(), band_budget_ms))
    sweep_bands(s, *projections, X_eff.row(sw.row), Xd, blocked, sw);
  else
    sw.band_pending = true;
  return sw;
}

bool flip_scaling(const Result& r, const Scenario& sc, Result& out) {
  // Toggling the scale multiplies every dot/general logit by √d_k or 1/√d_k; masked −∞ stay −∞.
  // Re-running softmax and A·V on the existing scores avoids a second QKᵀ (2 GFLOP at n = d_k = 1024).
  if (sc.score == ScoreKind::Additive || sc.temperature <= 0 || r.d_k <= 0) return false;
  const float factor = static_cast<float>(sc.scale ? std::sqrt(r.d_k) : 1.0 / std::sqrt(r.d_k));
  out = r;
  auto redo = [&](HeadResult& h) {
    if (h.logits.size() == 0) return true;
    for (Eigen::Index k = 0; k < h.logits.size(); ++k) {
      const float v = h.logits.data()[k];
      if (std::isfinite(v) && std::fabs(v) > 1e30f) return false;  // would overflow: take the slow path
    }
    h.logits *= factor;
    h.weights = h.logits;
    softmax_rows_simd(h.weights);
    weighted_sum_simd(h.weights, h.V, h.output);
    const int n = static_cast<int>(h.weights.rows()), m = static_cast<int>(h.weights.cols());
    for (int i = 0; i < n; ++i) {
      const float* p = h.weights.row(i).data();
      h.entropy[i] = static_cast<float>(row_entropy(p, m));
      h.jacobian_norm[i] = static_cast<float>(row_jacobian_norm(p, m));
      h.max_weight[i] = m > 0 ? h.weights.row(i).maxCoeff() : 0.0f;
    }
    return true;
  };
  if (r.heads.empty()) return redo(out.main);
  for (HeadResult& h : out.heads)
    if (!redo(h)) return false;
  // The concatenated/final output of a multi-head flip isn't shown anywhere; keep the per-head views.
  return true;
}

void Playground::age_status(double now_seconds) {
  if (status != status_seen_) {
    status_seen_ = status;
    status_since_ = now_seconds;
  } else if (!status.empty() && now_seconds - status_since_ >= kStatusSeconds) {
    status.clear();
    status_seen_.clear();
  }
}

void Playground::emit(nlohmann::json event) {
  events.push_back(std::move(event));
  if (events.size() > 256) events.erase(events.begin());  // nobody is listening: keep it bounded
}

// The work of one recomputation, in units of about one multiply-add: every score, logit, weight
// and output entry of every head.
static double work_estimate(const Scenario& sc) {
  const double n = sc.Q ? sc.Q->rows() : (sc.X ? sc.X->rows() : 0);
  const double m = sc.K ? sc.K->rows() : (sc.memory ? sc.memory->rows() : n);
  double dk = sc.Q ? sc.Q->cols() : (sc.W_q ? sc.W_q->cols() : (sc.X ? sc.X->cols() : 0));
  double dv = sc.V ? sc.V->cols() : (sc.W_v ? sc.W_v->cols() : (sc.X ? sc.X->cols() : 0));
  if (sc.score == ScoreKind::Additive && sc.v_a) dk += 8.0 * static_cast<double>(sc.v_a->size());  // tanh
  return n * m * (dk + dv + 24.0);  // + softmax, entropy and the Jacobian norm per entry
}

// Beyond this many score cells the side-by-side views get the flipped scaling of the selected row
// only: copying and re-normalising a million-cell matrix would cost a frame of its own.
constexpr long long kFullFlipCells = 1 << 18;

void Playground::install_core(Result&& r, const Scenario& sc) {
  result.core = std::move(r);
  core_scenario_ = sc;
  result.scenario = sc;
  const long long cells = static_cast<long long>(result.core.main.Q.rows()) * result.core.main.K.rows();
  flip_one_row_ = cells > kFullFlipCells;
  result.flipped_row = 0;
  if (flip_one_row_) {
    flipped_revision_ = ~0ull;  // filled in by flip_selected_row() once the revision is known
  } else if (!flip_scaling(result.core, sc, result.flipped)) {
    Scenario other = sc;
    other.scale = !sc.scale;
    result.flipped = Result{};
    compute(other, result.flipped);
  }
  result.error.clear();
  result.saturated_rows = attn::saturated_rows(result.core.first_head());
  const int n = static_cast<int>(result.core.main.Q.rows());
  const int m = static_cast<int>(result.core.main.K.rows());
  result.row_labels = sc.tokens;
  result.row_labels.resize(static_cast<size_t>(n));
  result.col_labels = sc.memory_tokens.empty() ? sc.tokens : sc.memory_tokens;
  result.col_labels.resize(static_cast<size_t>(m));
  for (int i = 0; i < n; ++i)
    if (result.row_labels[i].empty()) result.row_labels[i] = "q" + std::to_string(i + 1);
  for (int j = 0; j < m; ++j)
    if (result.col_labels[j].empty()) result.col_labels[j] = "k" + std::to_string(j + 1);
}

// The selected query row computed on its own with scaling toggled (same projections, same mask row).
void Playground::flip_selected_row() {
  const Result& c = result.core;
  const int n = static_cast<int>(c.main.Q.rows()), m = static_cast<int>(c.main.K.rows());
  const int row = std::clamp(state.selected_row, 0, std::max(0, n - 1));
  flipped_revision_ = result.revision;
  result.flipped_row = row;
  result.flipped = Result{};
  if (n == 0) return;
  const Scenario& sc = core_scenario_;
  Scenario one = keys_scenario(sc, c.main.K, c.main.V);
  one.Q = Mat(c.main.Q.middleRows(row, 1));
  one.scale = !sc.scale;
  one.mask_cells = MaskMat(attention_mask(sc, n, m).middleRows(row, 1));
  compute(one, result.flipped);
}

namespace {
// What compute_sweep() reads, and no more: the selected row and, in random mode, the keys whose rows in the key
// table say recomputes_sweep() (not d_k: the sweep covers every d_k). A preset's or imported scenario's sweep
// follows its fingerprint `core_key`.
uint64_t sweep_key(const State& state, uint64_t core_key) {
  Hasher sk;
  sk.pod(state.selected_row);
  if (state.mode == InputMode::Random)
    hash_sweep_inputs(state, sk);
  else
    sk.pod(core_key);
  return sk.value();
}

uint64_t variance_key(int dk, uint64_t seed) {
  Hasher vk;
  vk.pod(dk);
  vk.pod(seed);
  return vk.value();
}

// The cross example depends on its kind and (when seeded) the seed, not on the step.
uint64_t cross_key(const State& state) {
  Hasher xk;
  xk.pod(static_cast<int>(state.cross.states));
  xk.pod(state.cross.states == CrossStates::Seeded ? state.seed : 0);
  return xk.value();
}

// The heads options compare head counts, so the state's own head count is not part of their key.
uint64_t heads_key(const State& state) {
  State copy = state;
  copy.heads = 1;
  Hasher hk;
  hk.pod(scenario_fingerprint(build_scenario(copy)));
  return hk.value();
}
}  // namespace

void Playground::finish_sweep() {
  if (result.sweep.band_pending) result.sweep = compute_sweep(state, state.selected_row);
}

void Playground::recompute_within(double budget_ms) {
  const auto start = std::chrono::steady_clock::now();
  const Scenario sc = build_scenario(state);
  const uint64_t ck = scenario_fingerprint(sc);
  const int n_rows = sc.Q ? static_cast<int>(sc.Q->rows()) : (sc.X ? static_cast<int>(sc.X->rows()) : 0);
  if (n_rows > 0) state.selected_row = std::min(std::max(state.selected_row, 0), n_rows - 1);
  // About 3 units per microsecond in WebAssembly: beyond a quarter of the budget, spread the work.
  const bool spread = budget_ms > 0 && work_estimate(sc) > budget_ms * 750.0;
  if (ck != core_key_ && !spread) {
    job_running_ = false;  // a finished state supersedes any job in flight
    Result r;
    const std::string err = compute(sc, r);
    if (err.empty())
      install_core(std::move(r), sc);
    else
      result.error = err;  // keep showing the last good result
    core_key_ = ck;
    ++result.revision;
  } else if (ck != core_key_ || job_running_) {
    // A job in flight finishes before the next starts, so a long drag still shows new results
    // every few frames instead of restarting forever.
    if (!job_running_) {
      const std::string err = job_.start(sc);
      if (!err.empty()) {
        result.error = err;
        core_key_ = ck;
        ++result.revision;
      } else {
        job_running_ = true;
        job_key_ = ck;
        job_scenario_ = sc;
      }
    }
    // The job gets what is left of the budget after building the scenario and starting the job (projecting every
    // token: ~4 ms at n = 1024), so the frame keeps to its budget: at least one block of rows still runs.
    const double spent = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (job_running_ && job_.step(std::max(0.0, budget_ms - spent))) {
      install_core(job_.take(), job_scenario_);
      job_running_ = false;
      core_key_ = job_key_;
      ++result.revision;
    }
  }
  result.pending = job_running_ ? job_.progress() : -1.0f;
  if (flip_one_row_ && (flipped_revision_ != result.revision || result.flipped_row != state.selected_row))
    flip_selected_row();
  // The Monte Carlo and the sweep's band share the frame with everything else: a slice per frame each.
  const double slice = budget_ms > 0 ? budget_ms * 0.5 : 0;
  // While a finger or the mouse holds a control the frames belong to the drag: the Monte Carlo resumes on release.
  const bool step = spread_monte_carlo ? budget_ms > 0 && !control_held && !first_view_drawing : true;
  if (const uint64_t sk = sweep_key(state, ck); sk != sweep_key_ || (result.sweep.band_pending && step)) {
    result.sweep = compute_sweep(state, state.selected_row, spread_monte_carlo ? std::max(slice, 1.0) : 0);
    sweep_key_ = sk;
  }
  const int dk = static_cast<int>(result.core.d_k > 0 ? result.core.d_k : state.d_k);
  if (const uint64_t vk = variance_key(dk, state.seed); vk != variance_key_ && !(control_held && variance_key_)) {
    const int samples = std::clamp(8000000 / std::max(dk, 1), 4000, 20000);  // ~constant cost per d_k
    start_variance(variance_job_, {dk}, samples, state.seed, 41);
    variance_key_ = vk;
  }
  if (curve_seed_ != state.seed) {
    start_variance(curve_job_, sweep_dks(), 4000, state.seed + 7, 21);
    result.std_curve.clear();
    curve_seed_ = state.seed;
  }
  if (auto rows = step ? step_variance(variance_job_, slice) : std::nullopt) result.variance = rows->front();
  if (auto rows = step ? step_variance(curve_job_, slice) : std::nullopt)
    result.std_curve = std::move(*rows);
  else if (curve_job_.run && curve_job_.run->rows().size() != result.std_curve.size())
    result.std_curve = curve_job_.run->rows();
  result.variance_pending = variance_job_.run.has_value() || variance_job_.ready.has_value() ||
                            curve_job_.run.has_value() || curve_job_.ready.has_value();
  if (const uint64_t xk = cross_key(state); xk != cross_key_ || result.cross.target.empty()) {
    result.cross = compute_cross(state.cross, state.seed);
    cross_key_ = xk;
  }
  state.cross.step = std::clamp(state.cross.step, 0, static_cast<int>(result.cross.target.size()) - 1);
  // The heads trade-off costs one computation per option: only while its panel is open.
  if (state.panels.heads && state.mode == InputMode::Random) {
    if (const uint64_t hk = heads_key(state); hk != heads_key_) {
      result.heads_options = compute_heads_options(state);
      heads_key_ = hk;
    }
  } else {
    result.heads_options.clear();
    heads_key_ = 0;
  }
  // "Dog bites man" reversed, with and without positional encoding: only while its panel is open.
  if (state.panels.positional && positional_revision_ != result.revision) {
    result.positional = compute_positional_check(core_scenario_, split_tokens(state.sentence));
    positional_revision_ = result.revision;
  }
}

namespace {
// max_i |Y(PX)_i − Y(X)_π(i)| where row i of PX is row π(i) of X; -1 if either side fails to compute.
double equivariance_gap(Scenario sc, const std::vector<int>& perm, PositionalEncoding pe) {
  sc.positional_encoding = pe;
  sc.mask = MaskKind::None;  // a causal or painted mask ties weights to positions on purpose
  sc.key_padding.clear();
  sc.mask_cells.reset();
  Scenario shuffled = sc;
  Mat X = *sc.X;
  for (size_t i = 0; i < perm.size(); ++i) X.row(static_cast<Eigen::Index>(i)) = sc.X->row(perm[i]);
  shuffled.X = X;
  Result a, b;
  if (!compute(sc, a).empty() || !compute(shuffled, b).empty()) return -1;
  double gap = 0;
  for (size_t i = 0; i < perm.size(); ++i)
    for (Eigen::Index c = 0; c < a.output.cols(); ++c)
      gap = std::max(gap,
                     static_cast<double>(std::fabs(b.output(static_cast<Eigen::Index>(i), c) - a.output(perm[i], c))));
  return gap;
}
}  // namespace

PositionalCheck compute_positional_check(const Scenario& sc, const std::vector<std::string>& tokens) {
  PositionalCheck c;
  const int n = sc.X ? static_cast<int>(sc.X->rows()) : 0;
  if (n < 2 || n > kMaxPositionalCheckTokens || sc.memory) return c;
  std::vector<int> perm(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) perm[static_cast<size_t>(i)] = n - 1 - i;  // "dog bites man" → "man bites dog"
  c.gap_without = equivariance_gap(sc, perm, PositionalEncoding::None);
  c.gap_with = equivariance_gap(sc, perm, PositionalEncoding::Sinusoidal);
  for (int i = std::min(n, static_cast<int>(tokens.size())) - 1; i >= 0; --i)
    c.reversed += (c.reversed.empty() ? "" : " ") + tokens[static_cast<size_t>(i)];
  c.available = true;
  return c;
}

std::vector<HeadsOption> compute_heads_options(const State& s) {
  std::vector<HeadsOption> out;
  const long long n = static_cast<long long>(s.embeddings.rows());
  for (int h = 1; h <= kMaxHeads; h *= 2) {
    if (s.d_k % h != 0 || s.d_v % h != 0) continue;
    if (n * n * h > (1LL << 22)) break;  // keep the table cheap at long sentences
    State copy = s;
    copy.heads = h;
    Result r;
    if (!compute(build_scenario(copy), r).empty()) continue;
    HeadsOption o;
    o.heads = h;
    o.d_head = s.d_k / h;
    std::vector<const HeadResult*> hs;
    if (r.heads.empty())
      hs.push_back(&r.main);
    else
      for (const HeadResult& x : r.heads) hs.push_back(&x);
    double ent = 0, mw = 0;
    long long rows = 0;
    o.min_head_entropy = 1e30f;
    for (const HeadResult* x : hs) {
      ent += x->entropy.sum();
      mw += x->max_weight.sum();
      rows += x->entropy.size();
      const float e = x->entropy.size() ? x->entropy.mean() : 0.0f;
      o.min_head_entropy = std::min(o.min_head_entropy, e);
      o.max_head_entropy = std::max(o.max_head_entropy, e);
    }
    if (rows == 0) continue;
    o.mean_entropy = static_cast<float>(ent / static_cast<double>(rows));
    o.mean_max_weight = static_cast<float>(mw / static_cast<double>(rows));
    out.push_back(o);
  }
  return out;
}

}  // namespace attn
