// progressive.h — computes a long scenario a block of query rows at a time, so a frame that must
// stay short can do part of the work and the next frames the rest. The assembled Result is the
// one compute() gives (every row of attention depends only on its own query and all keys).
#pragma once

#include <string>
#include <vector>

#include "core/attention/scenario.h"

namespace attn {

class ProgressiveCompute {
 public:
  // Validates and prepares (positional encoding, projections, mask). "" or the reason it can't.
  std::string start(const Scenario& s);
  // Computes row blocks until `budget_ms` have passed (at least one block). True when complete.
  bool step(double budget_ms);
  // Rows computed so far ÷ rows in total (0 … 1).
  float progress() const { return n_ > 0 ? static_cast<float>(next_row_) / static_cast<float>(n_) : 1.0f; }
  bool done() const { return started_ && next_row_ >= n_; }
  // The complete result (call once done()).
  Result take();

 private:
  void compute_rows(int begin, int end);

  Scenario chunk_;   // Q, K, V given directly; the mask as painted cells (rows filled per block)
  MaskMat blocked_;  // n×m
  Mat Q_, X_effective_;
  Result acc_;
  int n_ = 0, next_row_ = 0, block_rows_ = 8;
  bool started_ = false;
};

}  // namespace attn
