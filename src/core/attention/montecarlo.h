// montecarlo.h — the variance argument, measured: q·k for q, k ~ N(0, I_dk), unscaled and ÷√d_k.
#pragma once

#include <cstdint>
#include <vector>

namespace attn {

struct Histogram {
  double lo = 0, hi = 0;         // range covered by the bins
  std::vector<uint32_t> counts;  // equal-width bins; samples outside are counted in the edge bins
};

struct VarianceRow {
  int d_k = 0;
  int samples = 0;
  double mean_unscaled = 0, var_unscaled = 0;
  double mean_scaled = 0, var_scaled = 0;
  Histogram hist_unscaled;  // range ±4√d_k
  Histogram hist_scaled;    // range ±4
};

// Deterministic for a given seed (own generator, not std::normal_distribution, so native and
// WebAssembly builds draw the same numbers).
std::vector<VarianceRow> variance_experiment(const std::vector<int>& d_ks, int samples, uint64_t seed, int bins = 41);

// Small deterministic generator shared by the core (splitmix64 + Box–Muller).
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next_u64();
  double uniform();  // [0, 1)
  double normal();   // N(0, 1)
  // `count` normals into out: the same sequence as `count` calls of normal() (which returns these
  // float values widened). Vectorised with wasm SIMD128 where available; bit-identical on every
  // build, since only correctly rounded operations and integer arithmetic are used.
  void fill_normal(float* out, int count);

  // The whole generator, so that a saved training run continues with the very draws it would have made.
  struct State {
    uint64_t state = 0;
    bool has_spare = false;
    double spare = 0;
  };
  State save() const { return {state_, has_spare_, spare_}; }
  void restore(const State& s) {
    state_ = s.state;
    has_spare_ = s.has_spare;
    spare_ = s.spare;
  }

 private:
  uint64_t state_;
  bool has_spare_ = false;
  double spare_ = 0;
};

// variance_experiment() a slice at a time, drawing exactly the same numbers: the page measures the d_k curve
// (tens of millions of normals, seconds on a phone) over several frames instead of in one long one.
class VarianceExperiment {
 public:
  VarianceExperiment(std::vector<int> d_ks, int samples, uint64_t seed, int bins = 41);
  // Works until `budget_ms` has passed (at least one chunk of draws; 0: to the end); true once every row is done.
  bool step(double budget_ms);
  bool done() const { return rows_.size() >= d_ks_.size(); }
  const std::vector<VarianceRow>& rows() const { return rows_; }  // the rows finished so far, in order
  float progress() const { return d_ks_.empty() ? 1.0f : static_cast<float>(rows_.size()) / d_ks_.size(); }

 private:
  void begin_row();
  void run_chunk();
  void end_row();

  std::vector<int> d_ks_;
  int samples_, bins_;
  Rng rng_;
  std::vector<float> buf_;
  std::vector<VarianceRow> rows_;
  VarianceRow row_;  // the row being measured
  bool in_row_ = false;
  int done_ = 0;  // its samples so far
  double sum_ = 0, sum_sq_ = 0;
};

}  // namespace attn
