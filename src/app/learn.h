// learn.h — Learn mode in the app: two models training in lockstep, a slice of steps per frame, the
// training setup as part of the state (share links replay the run), and what the Learn panel reads.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/train_trainer.h"

namespace attn {

class App;
struct State;

// The running pair. Settings that differ from the trainer's restart it at step 0 (a bad setting is
// refused with a message and the running models go on untouched).
struct LearnSession {
  train::Trainer trainer;
  std::string message;  // why a setting was refused, or why training stopped
  bool started = false;
};

// Per frame: applies changed settings, then runs up to steps_per_frame steps within budget_ms
// (0 = no time limit). Returns the number of steps run.
int learn_tick(App& app, double budget_ms);
// One step now (the Step button), whether playing or not.
int learn_step(App& app);
void learn_reset(App& app);  // the same settings from step 0
// Loads head `head` of `layer` of model `which` on the probe example into the playground as an
// explicit scenario (every panel then explains a learned head). "" or why not.
std::string open_head_in_playground(App& app, int which, int layer, int head);

// getResult().learn: settings, steps, per-model curves (loss, accuracy, jacobian_norm, logit_grad_norm,
// entropy), the probe's heads, init descriptions, message.
nlohmann::json learn_result_json(const App& app, bool with_curves = true);
// The state key "learn": {"settings": <training settings>, "playing", "speed"}.
nlohmann::json learn_state_json(const State& s);
std::string learn_state_from_json(const nlohmann::json& j, State& out);

}  // namespace attn
