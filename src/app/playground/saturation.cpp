// saturation.cpp — classifying a softmax row: no keys, a single key, saturated or not.
#include "app/playground/saturation.h"

namespace attn {

RowSaturation row_saturation(const HeadResult& h, int row) {
  RowSaturation out;
  if (row < 0 || row >= h.weights.rows() || h.logits.rows() != h.weights.rows()) return out;
  const Eigen::Index m = h.weights.cols();
  for (Eigen::Index j = 0; j < m; ++j) out.live_keys += is_masked_logit(h.logits(row, j)) ? 0 : 1;
  out.max_weight = m > 0 ? h.weights.row(row).maxCoeff() : 0.0f;
  out.no_keys = out.live_keys == 0;
  out.single_key = out.live_keys == 1;
  out.saturated = out.live_keys >= 2 && out.max_weight > kSaturatedMaxWeight;
  return out;
}

// Once per recomputation over the whole map: the core's per-row largest weight picks the candidate rows, and a
// candidate's cells are read only until two live keys are found. Reading every cell (a million at n = 1024) cost
// 6–9 ms in the page's size-optimised build.
int saturated_rows(const HeadResult& h) {
  const Eigen::Index n = h.weights.rows(), m = h.weights.cols();
  if (h.logits.rows() != n || h.logits.cols() != m) return 0;
  const bool have_max = h.max_weight.size() == n;
  int count = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const float top = have_max ? h.max_weight(i) : (m > 0 ? h.weights.row(i).maxCoeff() : 0.0f);
    if (!(top > kSaturatedMaxWeight)) continue;
    const float* logit = &h.logits.coeffRef(i, 0);
    int live = 0;
    for (Eigen::Index j = 0; j < m && live < 2; ++j) live += is_masked_logit(logit[j]) ? 0 : 1;
    count += live >= 2;
  }
  return count;
}

}  // namespace attn
