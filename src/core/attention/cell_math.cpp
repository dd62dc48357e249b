// cell_math.cpp — one cell's arithmetic, in double, in index order (the order a learner adds by hand).
#include "core/attention/cell_math.h"

#include <algorithm>
#include <cmath>

namespace attn {

DotCell explain_dot(const VecD& a, const VecD& b) {
  DotCell d;
  const Eigen::Index n = std::min(a.size(), b.size());
  for (Eigen::Index k = 0; k < n; ++k) {
    d.a.push_back(a(k));
    d.b.push_back(b(k));
    d.value += a(k) * b(k);
  }
  return d;
}

SoftmaxCell explain_softmax_cell(const VecD& logits, int j, double shift_above) {
  const double masked = -std::numeric_limits<double>::infinity();
  SoftmaxCell s;
  s.max = masked;
  for (Eigen::Index k = 0; k < logits.size(); ++k)
    if (logits(k) != masked) s.max = std::max(s.max, logits(k));
  s.shift = s.max > shift_above ? s.max : 0;
  for (Eigen::Index k = 0; k < logits.size(); ++k) {
    s.logits.push_back(logits(k));
    s.exps.push_back(logits(k) == masked ? 0.0 : std::exp(logits(k) - s.shift));
    s.exp_sum += s.exps.back();
  }
  s.ok = std::isfinite(s.max) && s.exp_sum > 0 && std::isfinite(s.exp_sum) && j >= 0 && j < logits.size();
  if (s.ok) s.value = s.exps[static_cast<size_t>(j)] / s.exp_sum;
  return s;
}

}  // namespace attn
