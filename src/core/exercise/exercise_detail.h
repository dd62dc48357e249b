// exercise_detail.h — helpers shared by the exercise sources (not part of the public API).
#pragma once

#include <Eigen/Core>
#include <array>
#include <string>
#include <vector>

#include "core/exercise/exercise.h"

namespace attn::exercise::detail {

// Grading arithmetic runs in double: the learner's numbers are decimals, not floats.
using MatD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// A number as a worksheet writes it: at most `max_decimals` decimals, trailing zeros dropped, "−0" as "0".
std::string format_number(double v, int max_decimals = 4);
// A matrix row as "[0.71, 0, 0.71]".
std::string format_row(const MatD& m, int row, int max_decimals = 4);

// Row-wise softmax in double, shifted by the row maximum (any finite row).
MatD softmax_rows(const MatD& L);

// The learner's numbers where typed and valid, the correct ones elsewhere (given stages: the given values).
struct Effective {
  std::array<MatD, kStageCount> value;
  std::array<Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>, kStageCount> typed;
  const MatD& operator[](Stage s) const { return value[static_cast<size_t>(stage_index(s))]; }
  bool is_typed(Stage s, int r, int c) const { return typed[static_cast<size_t>(stage_index(s))](r, c); }
};
Effective effective_values(const Exercise& ex, const Answers& answers);
// Every value a stage can take when computed from the learner's own numbers: started from what they typed at
// one earlier stage and carried on without rounding. Nearest start first, so [0] is the stage computed from the
// one right before it. Q, K and V have one entry: their correct value (they come from the given inputs alone).
std::array<std::vector<MatD>, kStageCount> own_candidates(const Exercise& ex, const Effective& eff);

}  // namespace attn::exercise::detail
