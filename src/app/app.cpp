// app.cpp — the composition root: a frame of the model in order, and the change stamp over every part.
#include "app/app.h"

#include <chrono>

#include "app/base/page_events.h"
#include "app/base/strings.h"
#include "app/builder_actions.h"
#include "app/lesson/embed_panels.h"
#include "app/state/presets.h"
#include "app/state/state_json.h"
#include "core/hash.h"

namespace attn {

using Hasher = ValueHasher;  // state.h

App::App(double budget_ms) {
  frame_budget_ms = budget_ms;
  spread_monte_carlo = budget_ms > 0;
  state = default_state();
  update();
}

uint64_t App::change_stamp() const {
  Hasher h;
  h.pod(result.revision);
  // The Variance lab's measurement finishes frames after the change that started it (its revision does not move):
  // the parallel DOM reads its readouts.
  for (double v : {result.variance.mean_unscaled, result.variance.var_unscaled, result.variance.mean_scaled,
                   result.variance.var_scaled})
    h.pod(v);
  h.pod(result.variance.d_k);
  h.pod(state_stamp());
  h.str(status);
  h.pod(step_progress.attempts);
  h.pod(step_progress.goal_met);
  h.pod(catalog_generation());  // a fetched catalog changes every text the page shows
  h.pod(start_view);            // leaving the start view changes no state, but the parallel DOM drops its twin
  // The worksheet's grade (typed cells are not in the state): the parallel DOM shows each cell and its check.
  for (const exercise::StageGrade& g : worksheet.grade.stages)
    for (const exercise::CellGrade& c : g.cells) {
      h.pod(c.status);
      h.pod(c.value);
    }
  // The worksheet's picked cell and the breakdown "Show me" wrote out: the twins offer and show them as the panel does.
  for (int v : {worksheet.picked_stage, worksheet.show_stage, worksheet.show_row, worksheet.show_col}) h.pod(v);
  h.pod(token_shuffle.gap);  // the last shuffle's gap, said by the Positional panel and its twin
  // Learn mode's step count while paused (Step, Reset): while it plays, the end of the run or Pause says it once.
  h.pod(state.learn_playing ? -1L : learn.trainer.steps_done());
  // The course package's choice (not in the state): ticked in the canvas's popup, it shows in the twins.
  for (const std::string& id : package_choice.lessons) h.str(id);
  h.pod(package_choice.kind);
  // The embed code's choice (not in the state either): its canvas checkboxes and fields show in the twins.
  for (const std::vector<std::string>* list : {&embed_choice.panels, &embed_choice.locked, &embed_choice.hidden}) {
    h.pod(list->size());
    for (const std::string& id : *list) h.str(id);
  }
  h.str(embed_choice.origins);
  h.pod(embed_choice.width);
  h.pod(embed_choice.height);
  // The lesson builder's draft (its version moves with every edit) and its choices: the canvas panel and its twin
  // show them both.
  h.pod(builder.edits);
  h.pod(builder.selected);
  h.pod(builder.pending.is_null());
  h.str(builder.previewing);
  h.str(builder.open_text);
  h.pod(builder.builtin);
  h.pod(builder.scorm);
  h.str(builder.new_claim_value);
  h.str(builder.new_claim_op);
  h.pod(builder.new_claim_than);
  h.str(embed_choice.code);
  return h.value();
}

uint64_t App::state_stamp() const { return state_digest(state); }  // every key setState reads (state_json.h)

void App::update() {
  enter_requested_lesson();
  recompute();
}
void App::tick() {
  enter_requested_lesson();
  if (!state.lesson.id.empty()) start_view = false;  // a lesson opened from anywhere (menu, API) is where one starts
  const auto recompute_start = std::chrono::steady_clock::now();
  recompute_within(frame_budget_ms);
  last_recompute_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - recompute_start).count();
  measure_shuffle(token_shuffle, state, result);  // once the shuffled sentence is computed
  // Only with a lesson open: a page without one never runs the lesson's frame code, which stays in the module's
  // second half (docs/performance.md).
  if (!state.lesson.id.empty()) lesson_tick(*this);
  builder_tick(*this);
  tell_embed_panels();
  // With a worker (the page), the frame only hands out steps; without one, training shares the frame.
  learn_tick(*this, frame_budget_ms > 0 ? frame_budget_ms * 0.8 : 0);
  const auto since_start = std::chrono::steady_clock::now().time_since_epoch();
  age_status(std::chrono::duration<double>(since_start).count());
}

// An embedding page asked for some panels; a lesson step showing others (or hiding one until its question is
// answered) is said to it as an "embed-panels" event, once per change.
void App::tell_embed_panels() {
  if (!embed.enabled || embed.panels.empty()) return;
  if (!open_step(*this) && told_embed_panels_.empty()) return;  // no lesson, nothing told: no work every frame
  const EmbedPanels p = embed_panels(embed, *this);
  nlohmann::json body = {{"panels", nlohmann::json::array()}, {"added", p.added}, {"withheld", p.withheld}};
  for (PanelId id : p.shown) body["panels"].push_back(panel_info(id).key);
  const std::string text = p.added.empty() && p.withheld.empty() ? std::string() : body.dump();
  if (text == told_embed_panels_) return;
  told_embed_panels_ = text;
  body["type"] = page_event_name(PageEvent::embed_panels);
  emit(std::move(body));
}

// A lesson named in the state (a link, setState, the lesson list) that is not yet entered: apply its
// step. Leaving the lesson (id "") drops its locks.
void App::enter_requested_lesson() {
  if (state.lesson == entered_lesson_) return;
  entered_lesson_ = state.lesson;
  if (state.lesson.id.empty()) {
    leave_lesson(*this);
    return;
  }
  const std::string err = go_to_step(*this, state.lesson.step);
  if (!err.empty()) status = err;
  entered_lesson_ = state.lesson;
}

}  // namespace attn
