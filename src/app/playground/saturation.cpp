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

int saturated_rows(const HeadResult& h) {
  int count = 0;
  for (Eigen::Index i = 0; i < h.weights.rows(); ++i) count += row_saturation(h, static_cast<int>(i)).saturated;
  return count;
}

}  // namespace attn
