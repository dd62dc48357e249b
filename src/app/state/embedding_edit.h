// embedding_edit.h — moving a token's point on the embeddings plane: the one edit the plane's drag and the page's
// twins of the points both make.
#pragma once

#include "app/state/state.h"

namespace attn {

// The most tokens whose points the Embeddings plane names and tracks one by one, and that get parallel-DOM twins:
// beyond this the points are a cloud (at 1024 tokens, tracking each cost about 2 ms a frame).
constexpr int kPointTwinsMax = 64;

// The largest coordinate an embedding entry may be given by hand (the embeddings panel's cell table allows the same).
constexpr float kEmbeddingEditMax = 100.0f;

// Puts token `token`'s point at (x, y) on the plane's axes (plane_x, plane_y), each clamped to ±kEmbeddingEditMax,
// and selects its row, as grabbing it does. False, changing nothing, for a token or axis out of range or a
// coordinate that is not a number.
bool move_embedding_point(State& s, int token, double x, double y);

}  // namespace attn
