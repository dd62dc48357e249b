// thumbnail.h — a matrix pooled to a few cells per side for a small picture (the Heads panel's tiles, Learn mode's
// probe heads). Each cell stands for its whole block: weights keep the block's largest weight and other matrices its
// value of largest magnitude, so a pattern one token wide — attention to the previous token — still shows. Sampling
// every other row and column, as these pictures once did, lost exactly that pattern at 64 tokens.
#pragma once

#include <vector>

#include "core/attention/scenario.h"

namespace attn {

struct Thumbnail {
  int rows = 0, cols = 0;
  std::vector<float> cells;  // rows × cols, row-major; NaN where the block holds a value that is not finite
  float range = 0;           // the largest finite |value| of the matrix (a diverging scale's end)
};

// At most `side` cells per side (a matrix smaller than that keeps its own cells).
Thumbnail pool_thumbnail(const Mat& M, int side, bool probabilities);

}  // namespace attn
