// saturation.h — when a softmax row counts as saturated: the one definition the heatmap legend, the
// Saturation panel and the spoken summary share.
#pragma once

#include "core/attention/scenario.h"

namespace attn {

// A row counts as saturated when its largest weight exceeds this (nearly one-hot).
constexpr float kSaturatedMaxWeight = 0.95f;

struct RowSaturation {
  int live_keys = 0;        // keys the row may attend to (not masked)
  float max_weight = 0;     // its largest weight
  bool no_keys = false;     // every key masked: the weights are all 0
  bool single_key = false;  // one key left: weight 1 by construction, whatever the scores' scale
  // At least two keys compete and the largest weight exceeds kSaturatedMaxWeight: softmax is nearly
  // one-hot because of the scores, which is what scaling by 1/√d_k is about.
  bool saturated = false;
};

// Row `row` of one head's result (rows outside it give a default RowSaturation).
RowSaturation row_saturation(const HeadResult& h, int row);
// How many of the head's rows are saturated in that sense.
int saturated_rows(const HeadResult& h);

}  // namespace attn
