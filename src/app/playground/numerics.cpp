// numerics.cpp — see numerics.h.
#include "app/playground/numerics.h"

#include <algorithm>
#include <cmath>

namespace attn {

RowSoftmax row_softmax(const HeadResult& h, int row, float multiplier) {
  RowSoftmax sm;
  if (row < 0 || row >= h.scores.rows()) return sm;
  const size_t len = static_cast<size_t>(h.scores.cols());
  sm.x.resize(len);
  sm.naive.resize(len);
  sm.stable.resize(len);
  for (size_t j = 0; j < len; ++j) {
    const bool blocked = is_masked_logit(h.logits(row, static_cast<int>(j)));
    sm.x[j] = blocked ? -INFINITY : h.scores(row, static_cast<int>(j)) * multiplier;
    sm.mx = std::max(sm.mx, sm.x[j]);
  }
  for (size_t j = 0; j < len; ++j) {
    sm.naive[j] = std::exp(sm.x[j]);  // float exp: may be inf
    sm.naive_sum += sm.naive[j];
    sm.overflowed += std::isinf(sm.naive[j]);
  }
  double stable_sum = 0;
  for (size_t j = 0; j < len; ++j)
    stable_sum += std::isfinite(sm.mx) ? std::exp(static_cast<double>(sm.x[j] - sm.mx)) : 0.0;
  for (size_t j = 0; j < len; ++j) {
    sm.stable[j] =
        stable_sum > 0 ? static_cast<float>(std::exp(static_cast<double>(sm.x[j] - sm.mx)) / stable_sum) : 0.0f;
    sm.nans += std::isnan(sm.naive_weight(j));  // 0/0 and inf/inf are NaN, as in float code
  }
  return sm;
}

}  // namespace attn
