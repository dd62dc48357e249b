// state.h — the one State struct: everything the learner can change, and nothing derived.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/cross.h"
#include "core/scenario.h"

namespace attn {

// How Q, K, V come about. Random: tokens get seeded embeddings and seeded projections sized by
// d_k. Explicit: a preset (or an imported scenario) supplies the matrices verbatim.
enum class InputMode { Random, Explicit };

struct PanelVisibility {
  bool controls = true, embeddings = true, pipeline = true, heatmap = true;
  bool saturation = true, variance = true, explain = true;
  bool share = false;  // the Share panel (links, embed code, export, import)
  // "Beyond one head" panels: closed by default (View menu), so the default layout stays uncrowded.
  bool masks = false, heads = false, positional = false, numerics = false, cross = false;
};

struct State {
  // --- what is computed -----------------------------------------------------------------------
  InputMode mode = InputMode::Random;
  std::string sentence = "The cat sat on the mat";
  int d_model = 8;    // embedding width (random mode)
  int d_k = 64;       // query/key width (random mode); slider 1 … 1024
  int d_v = 8;        // value width (random mode)
  uint64_t seed = 1;  // drives embeddings and projections
  Mat embeddings;     // n×d_model, editable; regenerated only when tokens change
  bool scale = true;
  double temperature = 1.0;
  MaskKind mask = MaskKind::None;
  std::vector<bool> key_padding;      // empty = none
  std::optional<MaskMat> mask_cells;  // n×n painted mask (1 = blocked), random mode; absent = none
  int heads = 1;
  PositionalEncoding positional_encoding = PositionalEncoding::None;
  Scenario explicit_scenario;  // used when mode == Explicit
  CrossState cross;            // the encoder–decoder example (its own states, not the sentence's)
  std::string preset;          // id of the preset last applied ("" = none)

  // --- how it is shown ------------------------------------------------------------------------
  int selected_row = 0;
  int plane_x = 0, plane_y = 1;  // embedding dimensions shown in the 2-D plane
  bool dark_theme = true;
  float text_scale = 1.0f;
  bool heatmap_row_scale = false;  // heatmap colours 0 … each row's largest weight (long, flat rows)
  PanelVisibility panels;
};

// Tokens of the sentence (whitespace-separated), at most kMaxTokens.
constexpr int kMaxTokens = 1024;
constexpr int kMinDk = 1, kMaxDk = 1024;
std::vector<std::string> split_tokens(const std::string& sentence);

// Makes embeddings match the tokens: same word → same seeded vector, existing edits kept for
// tokens whose position and text are unchanged.
void sync_embeddings(State& s, const std::vector<std::string>& previous_tokens);

// The seeded projections (d_model×width). Column j depends only on (seed, which, j), so raising
// d_k adds columns without reshuffling the old ones; entries ~ N(0, 1/d_model) give q and k
// entries of unit variance when embeddings are N(0, 1).
Mat random_projection(uint64_t seed, char which, int d_model, int width);
Vec random_embedding(uint64_t seed, const std::string& token, int index, int d_model);

// The scenario the core computes for this state (random or explicit).
Scenario build_scenario(const State& s);

}  // namespace attn
