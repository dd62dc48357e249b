// cross.h — encoder–decoder (cross) attention: one set of encoder and decoder states scored three
// ways (additive, general, scaled dot), as in the note's "Je suis étudiant" → "I am a student".
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/attention/scenario.h"

namespace attn {

enum class CrossStates { NoteExample, Seeded };

// What the learner sets in the Cross-attention panel (part of State, so links and the API carry it).
struct CrossState {
  CrossStates states = CrossStates::NoteExample;
  int step = 1;  // decoder step shown, 0-based: step 1 generates "am" (the note's t = 2)
};

constexpr int kCrossScorings = 3;
const char* cross_scoring_id(int k);  // "additive", "general", "dot"

struct CrossResult {
  std::vector<std::string> source;  // encoder tokens: keys and values
  std::vector<std::string> target;  // the words the decoder generates, one query per step
  Mat encoder, decoder;             // m×w encoder states h_j; n×w decoder states s_{t−1} (the queries)
  std::array<Result, kCrossScorings> scored;
  std::array<std::string, kCrossScorings> error;  // "" when that scoring computed
  // The scores that enter softmax for scoring k (the dot product's after ÷√d; the additive and
  // general scores are used as they are): softmax of a row gives exactly that row's weights.
  const Mat& softmax_scores(int k) const { return scored[static_cast<size_t>(k)].main.logits; }
};

// The note's example: one-hot encoder states, additive parameters W_a = −I, U_a = 3·I, v_a = 4·1,
// and decoder states solved (Newton) so the additive scores are the note's [0.3, 2.1, 0.5] at
// "am" and put ≈ 0.85 on "étudiant" at "student". Seeded: random states of width 4.
CrossResult compute_cross(const CrossState& c, uint64_t seed);

// The additive score rows the note's example is built to reproduce (rows: I, am, a, student).
extern const float kCrossNoteScores[4][3];

}  // namespace attn
