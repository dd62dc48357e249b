// cell_math.h — the arithmetic of one cell of softmax(QKᵀ/√d_k)·V on plain matrices: the terms of a dot
// product and a softmax cell's exps and sum. One engine for every place that explains a cell (the worksheet's
// "Show me" and the pipeline panel's hover), so their numbers cannot drift apart.
#pragma once

#include <Eigen/Dense>
#include <limits>
#include <vector>

namespace attn {

using VecD = Eigen::VectorXd;

// Σ_k a_k·b_k with every term kept: value is the sum of a[k]·b[k] in index order.
struct DotCell {
  std::vector<double> a, b;  // the factors, one pair a term
  double value = 0;
};
DotCell explain_dot(const VecD& a, const VecD& b);

// A_j = exp(ℓ_j − shift) / Σ_k exp(ℓ_k − shift) over one row of logits. Masked logits (−∞) count as exp 0.
struct SoftmaxCell {
  std::vector<double> logits, exps;  // the row, and exp(ℓ − shift) for each entry (0 where masked)
  double max = 0;                    // the largest unmasked logit (−∞ when all are masked)
  double shift = 0;                  // subtracted before exp: max when max > shift_above, else 0
  double exp_sum = 0;
  double value = 0;  // exps[j] / exp_sum
  bool ok = false;   // false when the sum is 0 or not finite (a hard row: no exp-ratio to show)
};
// shift_above: the row's max is subtracted only when above it (−∞: always, the numerically safe form).
SoftmaxCell explain_softmax_cell(const VecD& logits, int j,
                                 double shift_above = -std::numeric_limits<double>::infinity());

}  // namespace attn
