// numerics.h — one row's softmax in float32 as written (exp, then divide by the sum) against the stable form
// (subtract the row's maximum first), for the Numerics panel and the lessons' live values.
#pragma once

#include <vector>

#include "core/attention/attention.h"

namespace attn {

struct RowSoftmax {
  std::vector<float> x, naive, stable;  // logits (masked = −inf), float exp(x), the stable softmax
  float naive_sum = 0;
  float mx = -INFINITY;
  int overflowed = 0;  // exps that are inf
  int nans = 0;        // naive weights that are NaN (inf/inf, 0/0)
  float naive_weight(size_t j) const { return naive_sum == 0 ? NAN : naive[j] / naive_sum; }
};

// Row `row` of head h's raw (unscaled) scores times `multiplier`, through both forms.
RowSoftmax row_softmax(const HeadResult& h, int row, float multiplier);

}  // namespace attn
