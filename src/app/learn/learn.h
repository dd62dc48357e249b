// learn.h — Learn mode in the app: two models training in lockstep, in another thread (the page's Web Worker)
// or in a slice of steps per frame, the training setup as part of the state (share links replay the run), and
// what the Learn panel reads.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "app/playground/playground.h"
#include "core/train/train_trainer.h"

namespace attn {

// Training in another thread, set up by the platform (web_api.cpp). While the learner plays, the frame does
// not train: the app hands the thread the whole trainer state under a new generation number, raises the
// generation's step allowance by learn.speed each frame, and adopts the snapshots the thread sends back
// (learn_adopt). Whatever happens on this side (Pause, Step, Reset, new settings, the end of the run) ends
// the generation, so its late snapshots are ignored: the last adopted state is the truth.
struct LearnWorker {
  std::function<void(const std::string& state, uint64_t generation)> start;
  std::function<void(uint64_t generation, long steps)> allow;  // steps the generation may run in all
  std::function<void()> stop;
  bool available() const { return start && allow && stop; }
};

// The running pair. Settings that differ from the trainer's restart it at step 0 (a bad setting is
// refused with a message and the running models go on untouched).
struct LearnSession {
  train::Trainer trainer;
  std::string message;  // why a setting was refused, or why training stopped
  bool started = false;
  LearnWorker worker;
  uint64_t generation = 0;      // of the last state handed to the worker
  bool worker_running = false;  // that generation is training there now
  long allowance = 0;           // learn.speed × frames since the generation started
  std::string in_page_reason;   // why training runs in the frame although a worker was tried ("" = it was not)
  long kept_steps = 0;          // steps_done() when learn_snapshot last handed the run out
};

// What Learn mode touches, by reference (App makes one per call: `learn_tick(app, …)`): the playground, whose state
// holds the settings and which "open in playground" fills, and the running pair.
struct LearnParts {
  Playground& pg;
  LearnSession& learn;
};
struct LearnView {
  const Playground& pg;
  const LearnSession& learn;
};

// Per frame: applies changed settings, then either drives the worker (allowing learn.speed more steps) or,
// without one, runs up to learn.speed steps within budget_ms (0 = no time limit). Either way at most
// learn.speed steps per drawn frame. Returns the number of steps run in this frame.
int learn_tick(LearnParts p, double budget_ms);
// A snapshot from the worker: adopted when it belongs to the running generation ("" then, or "stale" when
// it does not); a refused snapshot ends the worker (learn_worker_failed) and says why.
// `probes` (may be empty) are the worker's probe views of the same weights: kept, the page runs no probe pass.
std::string learn_adopt(LearnParts p, const std::string& state, uint64_t generation, const std::string& probes = "");
// The worker could not start or stopped working: training goes on in the frame from the last adopted state.
void learn_worker_failed(LearnParts p, const std::string& reason);
// The tasks and the differences between A and B in the order the Learn panel (and the parallel DOM) offers them.
inline constexpr train::TaskKind kLearnTasks[] = {train::TaskKind::Induction, train::TaskKind::Copy,
                                                  train::TaskKind::Reverse, train::TaskKind::Sort,
                                                  train::TaskKind::Lookup};
inline constexpr train::Difference kLearnDifferences[] = {train::Difference::Scale, train::Difference::DK,
                                                          train::Difference::Temperature, train::Difference::Heads,
                                                          train::Difference::Init};
// The ranges of the Learn panel's sliders (the parallel DOM offers the same).
inline constexpr int kLearnDkMax = 256, kLearnLayersMax = 2, kLearnHeadsMax = 8, kLearnSpeedMax = 50;
inline constexpr double kLearnLrMin = 1e-4, kLearnLrMax = 1e-1;
// The Learn panel's setting edits, shared with the page's parallel DOM: a new task brings its own sequence
// length, vocabulary and causality; a new d_k is B's too unless B is the one that differs in d_k.
void set_learn_task(train::TrainSettings& st, train::TaskKind task);
void set_learn_d_k(train::TrainSettings& st, int d_k);
// One step now (the Step button), whether playing or not.
int learn_step(LearnParts p);
void learn_reset(LearnParts p);  // the same settings from step 0
// The scaling study's reversal (study.h) as the running pair, from step 0, playing. "" or why not.
std::string learn_open_reversal(LearnParts p);
// The run as bytes the page keeps across reloads (Trainer::save_state): Save (into `bytes`) when it moved since
// the last call, Forget when it went back to step 0 (reset, other settings), Unchanged otherwise. And a kept run
// read back, adopted only when it is of the settings the state names ("" or why not; the status line then says
// at which step it resumed).
enum class KeptRun { Unchanged, Save, Forget };
KeptRun learn_snapshot(LearnParts p, std::string& bytes);
std::string learn_resume(LearnParts p, const std::string& bytes);
// Loads head `head` of `layer` of model `which` on the probe example into the playground as an
// explicit scenario (every panel then explains a learned head). "" or why not.
std::string open_head_in_playground(LearnParts p, int which, int layer, int head);

// getResult().learn: settings, steps, per-model curves (loss, accuracy, jacobian_norm, logit_grad_norm,
// entropy), the probe's heads, init descriptions, message.
nlohmann::json learn_result_json(LearnView p, bool with_curves = true);

}  // namespace attn
