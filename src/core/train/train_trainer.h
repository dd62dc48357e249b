// train_trainer.h — Learn mode's engine: two models A and B trained in lockstep on identical batches, step by step.
//
// Typical use by a panel: `Trainer t; t.reset(settings)` (an error string leaves everything as it
// was), then every frame `t.step(k)` with k chosen to fit the frame, then draw `t.curve(0|1)` and
// `t.probe(0|1)`. The same seed and settings give the same curves bit for bit on the same build,
// however the steps are sliced into frames.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/attention/montecarlo.h"
#include "core/attention/scenario.h"
#include "core/train/train_model.h"
#include "core/train/train_optim.h"
#include "core/train/train_settings.h"
#include "core/train/train_tasks.h"

namespace attn::train {

// What one optimiser step measured on its batch, before the update.
struct StepRecord {
  double loss = 0;               // mean cross-entropy over the scored positions
  double accuracy = 0;           // correct scored positions / scored positions
  double sequence_accuracy = 0;  // sequences with every scored position correct / sequences
  double jacobian_norm = 0;      // mean softmax-Jacobian norm ‖diag(p) − ppᵀ‖_F over attention rows
  double logit_grad_norm = 0;    // ‖∂loss/∂(attention logits)‖_F: the gradient that reaches q·k
  double entropy = 0;            // mean attention entropy over attention rows, nats
  double grad_norm = 0;          // global norm of the parameter gradient, before clipping
};

// One head's attention on the probe example, and how much of it follows two known patterns
// (averaged over the probe batch, the probe example being its first sequence).
struct HeadView {
  int layer = 0, head = 0;
  Mat weights;                // seq_len × seq_len, rows = query positions
  double previous_token = 0;  // mean weight on position t − 1 (t ≥ 1)
  double induction = 0;       // mean weight on the position after the current token's previous occurrence
  double self = 0;            // mean weight on position t itself
};

struct ProbeView {
  std::vector<int> tokens, targets, predictions;  // the probe example (targets −1 = not scored)
  std::vector<std::string> labels;                // token labels for the axes
  std::vector<HeadView> heads;                    // every head of every layer, layer-major
  double loss = 0, accuracy = 0;                  // over the probe batch
  uint64_t pass = 0;  // which pass through the weights made it: a new pass, a new number (pictures keep by it)
};

// The two-head circuit of an induction model (Olsson et al. 2022): a head in layer 1 that attends to
// the previous token, and a head in layer 2 that attends to the token after the current token's
// earlier occurrence (it finds "where did my token appear before?" through the first head's output,
// then copies what came next). Found when the best head of each kind puts at least `threshold` of
// its weight on its pattern, on average over the probe batch. The default is below one half because
// a trained previous-token head often also keeps weight on the token itself.
struct InductionCircuit {
  bool found = false;
  int previous_token_head = -1, induction_head = -1;  // heads of layer 0 and layer 1 (−1 without 2 layers)
  double previous_token_score = 0, induction_score = 0;
};
InductionCircuit find_induction_circuit(const ProbeView& view, double threshold = 0.4);

class Trainer {
 public:
  // default_settings() at step 0. The two models are built when first needed (a step, a look at a model, a save):
  // a page whose learner never opens Learn mode neither builds them nor downloads that code first.
  Trainer();

  // Validates, then starts both models afresh at step 0. On error returns the reason and changes
  // nothing: a run in progress goes on as it was.
  std::string reset(const TrainSettings& settings);
  // The same settings from step 0 again.
  void restart();

  // Runs up to `count` optimiser steps (each: one fresh batch, forward and backward of A and B,
  // one update each). Returns how many ran: fewer when a loss or gradient stops being finite, in
  // which case stopped() is true, message() says why, and the weights are those before that step.
  int step(int count);

  long steps_done() const { return steps_done_; }
  bool stopped() const { return stopped_; }
  const std::string& message() const { return message_; }
  // Why a run stopped, as parts a screen can word in its own language (model -1: it did not stop).
  struct StopCause {
    int model = -1;         // 0 = A, 1 = B
    bool gradient = false;  // else the loss
    bool nan = false;       // else infinite
  };
  const StopCause& stop_cause() const { return stop_cause_; }
  const TrainSettings& settings() const { return settings_; }
  const std::vector<StepRecord>& curve(int which) const { return curves_[index(which)]; }
  const Model<float>& model(int which) const { return *started().models_[index(which)]; }
  // The parameters themselves, for importing weights (and for tests); the next step uses them.
  std::vector<float>& parameters(int which) {
    forget_probes();
    return started().models_[index(which)]->parameters();
  }
  std::string label(int which) const { return model_label(settings_, which); }
  std::string init_text(int which) const;

  // The fixed probe example (drawn once from the seed) through the current weights. Kept until the weights change
  // (a step, a reset, a load, the parameters taken for writing): the Learn panel draws it every frame, and at the
  // largest settings one probe pass took most of a 200 ms frame.
  const ProbeView& probe(int which) const;
  const Batch& probe_batch() const { return started().probe_batch_; }
  // The batch the latest step() trained on (empty before any; kept across reset): to check a step from outside.
  const Batch& last_batch() const { return batch_; }

  // Head `head` of `layer` of model `which` on the probe example as a playground scenario: X = the
  // normalised residual stream that layer reads, W_q / W_k / W_v = that head's columns, with the
  // model's scaling, temperature and mask, tokens labelled. compute() of it gives the head's
  // weights. "" on success; on bad indices a reason, `out` untouched.
  std::string head_scenario(int which, int layer, int head, Scenario& out) const;

  // Settings, status, init descriptions, curves and (with weights) every parameter tensor of both
  // models: {"format": "attnplay-train", "version": 1, …}.
  nlohmann::json to_json(bool with_weights) const;

  // The whole run as compact bytes (train_state.cpp): settings, both models' parameters, the optimiser
  // moments and step counts, the batch generator, the curves from record `curve_from` on, steps, stop
  // flag, message and cause. A trainer that loads them continues exactly as this one would, bit for bit.
  // The probe batch and the workspaces are not stored: the seed gives the one, every step refills the other.
  std::string save_state(long curve_from = 0) const;
  // Adopts bytes from save_state. Bytes whose curves start at record k > 0 (a snapshot carrying only
  // the records it added) continue this trainer's first k records, and must be of the same settings.
  // "" on success; for truncated, damaged or other-version bytes the reason, and nothing changes. The numbers
  // themselves are taken as saved (a stopped run may hold an infinite weight, as it did before saving).
  std::string load_state(const std::string& bytes);
  // Both models' probe views (computed now if not kept), for a thread that adopts this trainer's state without
  // the cost of the probe pass; adopt_probes takes them back as if probe() had computed them. Valid for the
  // weights they were made from: adopt them right after the load_state of the same moment's save_state.
  std::string save_probes() const;
  std::string adopt_probes(const std::string& bytes) const;
  // How many probe passes this trainer ran itself (adopted views are none).
  uint64_t probe_passes_run() const { return probe_passes_run_; }
  static constexpr uint32_t kStateVersion = 2;  // 2 added the stop cause; version 1 still loads

 private:
  static size_t index(int which) { return which == 0 ? 0 : 1; }
  void start();
  // This trainer with its models built (start() at the current settings, once): what a started trainer at step 0
  // would be, so building late changes no result. Const observers call it too, hence the const_cast.
  Trainer& started() const;
  void draw_probe_batch();  // the fixed probe example, from the seed
  void forget_probes() const {
    probe_views_[0].reset();
    probe_views_[1].reset();
  }
  bool check_finite(int which, const PassStats& st, double grad_norm);

  TrainSettings settings_;
  bool started_ = false;
  std::unique_ptr<Model<float>> models_[2];
  Workspace<float> work_[2];
  mutable Workspace<float> probe_work_[2];
  mutable std::optional<ProbeView> probe_views_[2];  // probe(which) since the weights last changed
  mutable uint64_t probe_passes_ = 0, probe_passes_run_ = 0;
  Optimizer<float> optim_[2];
  std::vector<StepRecord> curves_[2];
  Rng data_rng_{0};
  Batch batch_, probe_batch_;
  long steps_done_ = 0;
  bool stopped_ = false;
  std::string message_;
  StopCause stop_cause_;
};

// The first step at which the accuracy averaged over the last `window` steps reaches `threshold`
// (that step's number, counting from 1), or −1 if it never does.
long steps_to_accuracy(const std::vector<StepRecord>& curve, double threshold, int window);
// The window the exports and the CLI use for "steps to 90 %".
constexpr int kAccuracyWindow = 20;

// The curve as columns: {"loss": [...], "accuracy": [...], …}.
nlohmann::json curve_to_json(const std::vector<StepRecord>& curve);

}  // namespace attn::train
