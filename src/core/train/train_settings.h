// train_settings.h — everything that defines a Learn-mode training run (task, model, optimiser, A/B difference), its
// limits and its JSON form.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace attn::train {

enum class TaskKind { Copy, Reverse, Sort, Lookup, Induction };
// unit: q and k entries with variance 1 at step 0 (the notes' assumption); small: GPT-2's N(0, 0.02²).
enum class InitKind { Unit, Small };
enum class PositionalKind { Learned, Sinusoidal };
enum class OptimizerKind { Adam, Sgd };
// The one setting in which model B differs from model A.
enum class Difference { Scale, DK, Temperature, Heads, Init };

// Limits: small enough for a browser tab, and every shape stays far from the core's kMaxDim.
constexpr int kMaxVocab = 64;
constexpr int kMinVocab = 3;
constexpr int kMaxSeqLen = 64;
constexpr int kMinSeqLen = 4;
constexpr int kMaxDModel = 256;
constexpr int kMaxLayers = 2;
constexpr int kMaxHeads = 16;
constexpr int kMaxDHead = 256;           // d_k and d_v, per head
constexpr int kMaxHeadsTimesDim = 1024;  // heads × d_k and heads × d_v
constexpr int kMaxDMlp = 1024;
constexpr int kMaxBatch = 256;
// batch × heads × layers × seq_len²: the attention weights one forward pass keeps (16 MB of floats).
constexpr long long kMaxAttentionCells = 1LL << 22;
constexpr double kMinTemperature = 0.01;
constexpr double kMaxTemperature = 100.0;
constexpr double kMaxLearningRate = 10.0;
constexpr double kMaxClip = 1e6;
constexpr long kMaxSteps = 1000000;
// Seeds are integers a JavaScript number holds exactly, so a share link round-trips through JSON.parse.
constexpr uint64_t kMaxSeed = (1ULL << 53) - 1;

struct ModelSettings {
  int vocab = 16;
  int seq_len = 16;
  int d_model = 64;
  int layers = 1;
  int heads = 4;
  int d_k = 16;              // per head: the width of q and k, the d_k of ÷√d_k
  int d_v = 16;              // per head
  bool scale = true;         // divide q·k by √d_k
  double temperature = 1.0;  // logits = q·k · (1/√d_k if scale) / temperature
  bool causal = true;        // position t attends to positions ≤ t only
  PositionalKind positional = PositionalKind::Learned;
  bool norm = true;  // RMS-normalise (no gain) the residual stream before each block and the read-out
  bool mlp = false;  // a GELU MLP block after each attention block
  int d_mlp = 128;
  InitKind init = InitKind::Unit;
};

struct OptimSettings {
  OptimizerKind kind = OptimizerKind::Adam;
  double learning_rate = 1e-3;
  double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;  // Adam only
  double clip = 1.0;                                  // global gradient norm; 0 = no clipping
};

struct TrainSettings {
  TaskKind task = TaskKind::Induction;
  int batch = 32;
  uint64_t seed = 1;
  long steps = 3000;    // the planned length of the run (the CLI's default --steps; a UI may stop earlier)
  ModelSettings model;  // model A; model B is the same except for `vary`
  OptimSettings optim;
  Difference vary = Difference::Scale;
  // Model B's value of the varied setting (only the one named by `vary` is used).
  bool b_scale = false;
  int b_d_k = 16;
  double b_temperature = 1.0;
  int b_heads = 4;
  InitKind b_init = InitKind::Small;
};

// The defaults of a task: sequence length, vocabulary and mask that make it well defined.
TrainSettings default_settings(TaskKind task = TaskKind::Induction);

ModelSettings model_a(const TrainSettings& s);
ModelSettings model_b(const TrainSettings& s);
// "÷√d_k", "no scaling", "d_k = 64", "T = 2", "4 heads", "unit init", …: what sets the model apart.
std::string model_label(const TrainSettings& s, int which);

// The floating-point operations of one training step (both models: a fresh batch's forward and backward pass,
// backward counted as twice the forward): the matrix products of the projections, q·k, the weighted sum, the
// output projection, the MLP and the read-out, 2 per multiply-add. What a setting costs, before it is trained.
double step_flops(const TrainSettings& s);

// "" when the settings can be trained, else one human-readable reason.
std::string validate_model(const ModelSettings& m, TaskKind task, int batch);
std::string validate(const TrainSettings& s);

// One-line description of the initialisation, with its numbers for these settings (for the screen).
std::string init_description(const ModelSettings& m);

const char* task_name(TaskKind t);
const char* init_name(InitKind k);
const char* difference_name(Difference d);
const char* optimizer_name(OptimizerKind k);
const char* positional_name(PositionalKind k);

// The whole setup as JSON (never weights): every field, so a decoder of another version sees it all.
nlohmann::json settings_to_json(const TrainSettings& s);
// Keys absent from j take the defaults of j's task (default_settings); unknown keys, wrong types and
// out-of-range values are errors. Returns "" on success; `out` is untouched on error.
std::string settings_from_json(const nlohmann::json& j, TrainSettings& out);
// The same from text, with the core's size and nesting limits (for share links and files).
std::string parse_settings(const std::string& text, TrainSettings& out);

}  // namespace attn::train
