// thumbnail.cpp — block pooling of a matrix for a small picture.
#include "app/playground/thumbnail.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn {

Thumbnail pool_thumbnail(const Mat& M, int side, bool probabilities) {
  Thumbnail t;
  const int n = static_cast<int>(M.rows()), m = static_cast<int>(M.cols());
  if (n == 0 || m == 0 || side < 1) return t;
  t.rows = std::min(n, side);
  t.cols = std::min(m, side);
  const float none = -std::numeric_limits<float>::infinity();  // no value seen in the block yet
  t.cells.assign(static_cast<size_t>(t.rows) * static_cast<size_t>(t.cols), none);
  std::vector<int> bin(static_cast<size_t>(m));
  for (int j = 0; j < m; ++j) bin[static_cast<size_t>(j)] = static_cast<int>(static_cast<long long>(j) * t.cols / m);
  for (int i = 0; i < n; ++i) {
    float* out = &t.cells[static_cast<size_t>(static_cast<long long>(i) * t.rows / n) * static_cast<size_t>(t.cols)];
    const float* row = M.data() + static_cast<size_t>(i) * static_cast<size_t>(m);  // row-major
    for (int j = 0; j < m; ++j) {
      const float v = row[j];
      float& cell = out[bin[static_cast<size_t>(j)]];
      if (!std::isfinite(v)) {
        cell = std::numeric_limits<float>::quiet_NaN();
        continue;
      }
      t.range = std::max(t.range, std::fabs(v));
      if (std::isnan(cell)) continue;  // a block with a value that is not finite shows as such
      if (cell == none || (probabilities ? v > cell : std::fabs(v) > std::fabs(cell))) cell = v;
    }
  }
  return t;
}

}  // namespace attn
