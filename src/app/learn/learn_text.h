// learn_text.h — Learn mode's words in the learner's language: task names and what each task asks, the two
// models' labels and initialisations, why a run stopped, and what happened by the end of a run. The core keeps
// its English names for the command line and the JSON files.
#pragma once

#include <string>

#include "app/base/strings.h"
#include "core/train/train_trainer.h"

namespace attn {

std::string learn_task_name(Lang lang, train::TaskKind task);
// One sentence for a beginner, shown where the task is chosen.
std::string learn_task_about(Lang lang, train::TaskKind task);
// What a sequence looks like, what a right answer is and which positions are scored (the task's tooltip).
std::string learn_task_tip(Lang lang, train::TaskKind task);
std::string learn_difference_name(Lang lang, train::Difference d);
// "÷√d_k", "no scaling", "d_k = 16", "T = 0.5", "2 heads", "small init".
std::string learn_model_label(Lang lang, const train::TrainSettings& s, int which);
// What one training step costs beside the task's default settings (train::step_flops), said when it is at least
// twice as much: "" below that. `slow` is set when it is 4× or more (the panel draws it as a warning).
std::string learn_cost_text(Lang lang, const train::TrainSettings& s, bool* slow = nullptr);
// The initialisation of model `which`, with its numbers for these settings.
std::string learn_init_text(Lang lang, const train::TrainSettings& s, int which);
// Why training stopped ("" when it did not).
std::string learn_stop_text(Lang lang, const train::Trainer& t);
// In words, when each model reached 90 % accuracy (averaged over kAccuracyWindow steps): "After 3000 steps:
// A (÷√d_k) reached 90 % accuracy at step 190, B (no scaling) at step 1300." While the run goes on it says
// "So far"; "" before the first step.
std::string learn_outcome(Lang lang, const train::Trainer& t);

}  // namespace attn
