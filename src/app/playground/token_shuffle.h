// token_shuffle.h — the Positional panel's "Shuffle tokens": the sentence's tokens, with their vectors, put in a
// random order; once the shuffled sentence is computed, how far its output rows are from the old rows, permuted
// (0 up to rounding without positional encoding: attention is permutation-equivariant).
#pragma once

#include <cstdint>
#include <vector>

#include "app/playground/playground.h"

namespace attn {

struct TokenShuffle {
  Mat before;                    // the output before the last shuffle
  std::vector<int> perm;         // row i of the shuffled sentence was row perm[i] (empty once measured)
  uint64_t before_revision = 0;  // the result `before` was read from
  double gap = -1;               // max |Y(shuffled)ᵢ − Y(before)_π(i)| of the last shuffle; < 0: none measured yet
  bool with_pe = false;          // whether positional encoding was on for it
  uint64_t count = 0;            // shuffles so far (each draws another order)
};

// Shuffles the tokens of a random-embedding state (false, and nothing changes, for fewer than two tokens or a
// result in error): painted mask cells and padding belonged to the old positions and are cleared, as is the preset.
bool shuffle_tokens(State& s, const AppResult& r, TokenShuffle& t);
// Once a result newer than the one shuffled from is there: the gap of the last shuffle.
void measure_shuffle(TokenShuffle& t, const State& s, const AppResult& r);

}  // namespace attn
