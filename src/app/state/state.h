// state.h — the one State struct: everything the learner can change, and nothing derived.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/base/strings.h"
#include "app/state/cross.h"
#include "app/state/registry.h"
#include "core/attention/scenario.h"
#include "core/hash.h"
#include "core/train/train_settings.h"

namespace attn {

// How Q, K, V come about. Random: tokens get seeded embeddings and seeded projections sized by
// d_k. Explicit: a preset (or an imported scenario) supplies the matrices verbatim.
enum class InputMode { Random, Explicit };

// Random mode's projections: seeded W_Q, W_K, W_V (d_model×d_k, d_model×d_v), or none at all, so the
// embeddings themselves are Q, K and V (W = I; d_k = d_v = d_model) and the plane shows the whole space.
enum class Projections { Seeded, Identity };

// The open lesson and step (steps counted from 1, as links write them: lesson=why-sqrt-dk&step=3).
struct LessonRef {
  std::string id;  // "" = free play
  int step = 0;
  bool operator==(const LessonRef& o) const { return id == o.id && step == o.step; }
};

struct State {
  // --- what is computed -----------------------------------------------------------------------
  InputMode mode = InputMode::Random;
  std::string sentence = "The cat sat on the mat";
  int d_model = 8;    // embedding width (random mode)
  int d_k = 64;       // query/key width (random mode); slider 1 … 1024
  int d_v = 8;        // value width (random mode)
  uint64_t seed = 1;  // drives embeddings and projections
  Projections projections = Projections::Seeded;
  Mat embeddings;  // n×d_model, editable; regenerated only when tokens change
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
  LessonRef lesson;
  // Learn mode: the whole training setup (a link replays the run) and the play controls.
  train::TrainSettings learn_settings = train::default_settings(train::TaskKind::Induction);
  bool learn_playing = false;
  int learn_speed = 4;                  // optimiser steps per frame at most (each frame also keeps to its time budget)
  std::string exercise = "exercise-1";  // the worksheet's exercise: "exercise-17" or a note's ("note-…")

  // --- how it is shown ------------------------------------------------------------------------
  int selected_row = 0;
  int plane_x = 0, plane_y = 1;  // embedding dimensions shown in the 2-D plane
  bool dark_theme = true;
  Lang lang = kDefaultLang;  // every learner-facing text (app/base/strings.h)
  float text_scale = 1.0f;
  bool heatmap_row_scale = false;  // heatmap colours 0 … each row's largest weight (long, flat rows)
  double numerics_multiplier = 1;  // the Numerics panel's factor on the raw logits (app/playground/numerics.h)
  PanelVisibility panels;
};

// Tokens of the sentence (whitespace-separated), at most kMaxTokens: the random mode's sentence.
// Scenarios given as matrices (CLI, imports, presets) may have up to kMaxDim rows and labels.
constexpr int kMaxTokens = 1024;
static_assert(kMaxTokens <= kMaxDim, "a sentence must fit the core's limits");
constexpr int kMinDk = 1, kMaxDk = 1024;
// Limits of the other learner-editable fields (setState, share links, state files all read these).
constexpr int kMinDModel = 2, kMaxDModel = 64, kMinDv = 1;
constexpr size_t kMaxSentenceBytes = 16384;
constexpr double kMaxTemperature = 1e6;
constexpr double kTemperatureSliderMax = 10.0;  // the slider's end (its DOM twin's too); a lesson or link may set more
constexpr double kMinTextScale = 0.5, kMaxTextScale = 3.0;
constexpr double kMinLogitMultiplier = 1, kMaxLogitMultiplier = 100;  // numerics_multiplier
std::vector<std::string> split_tokens(const std::string& sentence);

// Makes embeddings match the tokens: same word → same seeded vector, existing edits kept for
// tokens whose position and text are unchanged.
void sync_embeddings(State& s, const std::vector<std::string>& previous_tokens);

// The edits a control makes, with the rules that come with them; panels, setState and presets call these.
// A new sentence (false if it has no token or is the same): unchanged tokens keep their edited vectors,
// the key padding is cleared. A new seed (or a re-roll, seed + 1) draws every vector again.
bool set_sentence(State& s, const std::string& sentence);
void set_seed(State& s, uint64_t seed);
void reroll(State& s);
// The Masks panel's Clear buttons: the painted cells, or every key's padding, of the mask the panel edits (the
// state's for random examples, the scenario's otherwise).
void clear_mask_cells(State& s);
void clear_key_padding(State& s);

// The seeded projections (d_model×width). Column j depends only on (seed, which, j), so raising
// d_k adds columns without reshuffling the old ones; entries ~ N(0, 1/d_model) give q and k
// entries of unit variance when embeddings are N(0, 1).
Mat random_projection(uint64_t seed, char which, int d_model, int width);
Vec random_embedding(uint64_t seed, const std::string& token, int index, int d_model);

// The scenario the core computes for this state (random or explicit).
Scenario build_scenario(const State& s);
// The core's FNV-1a plus the app's composite values, for change detection.
struct ValueHasher : Fnv1a {
  void mat(const Mat& m) {
    pod(m.rows());
    pod(m.cols());
    bytes(m.data(), sizeof(float) * static_cast<size_t>(m.size()));
  }
  void mat(const std::optional<Mat>& m) {
    pod(m.has_value());
    if (m) mat(*m);
  }
  void str(const std::string& s) {
    pod(s.size());
    text(s);
  }
};
// A digest of everything in a scenario (matrices, flags, labels): equal digests, equal results.
uint64_t scenario_fingerprint(const Scenario& sc);

// The widths the state computes with, which getState reports: in random mode its own d_model, d_k
// and d_v; in explicit mode the matrices' (d_k and d_v are the full widths, before any split into
// heads; d_model is X's width, and the random mode's when the scenario gives Q, K, V directly).
struct Widths {
  int d_model = 0, d_k = 0, d_v = 0;
};
Widths computed_widths(const State& s);

}  // namespace attn
