// embedding_edit.cpp — moving a token's point on the embeddings plane (embedding_edit.h).
#include "app/state/embedding_edit.h"

#include <algorithm>
#include <cmath>

namespace attn {

bool move_embedding_point(State& s, int token, double x, double y) {
  const int n = static_cast<int>(s.embeddings.rows()), d = static_cast<int>(s.embeddings.cols());
  if (token < 0 || token >= n || s.plane_x < 0 || s.plane_x >= d || s.plane_y < 0 || s.plane_y >= d ||
      !std::isfinite(x) || !std::isfinite(y))
    return false;
  const double lim = kEmbeddingEditMax;
  s.embeddings(token, s.plane_x) = static_cast<float>(std::clamp(x, -lim, lim));
  s.embeddings(token, s.plane_y) = static_cast<float>(std::clamp(y, -lim, lim));
  s.selected_row = token;
  return true;
}

}  // namespace attn
