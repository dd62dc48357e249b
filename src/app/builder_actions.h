// builder_actions.h — what the lesson builder does, declared once for its canvas panel and its parallel-DOM twin:
// open or start a draft, add, pick, move and delete steps, record a step's view, goal and reveal, set its question,
// check the draft, preview it, save it as a file, a link or an LMS package. The draft is app.builder
// (lesson/builder_session.h); every edit keeps it with the learner's progress, and outcomes show in the status line.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/lesson/builder_session.h"

namespace attn {

class App;

// The builder edits texts in the page's language and one other: this one.
Lang builder_other_lang(Lang page);

// Once a frame: a reloaded progress's draft, a lesson opened into the builder, a preview whose lesson has ended.
void builder_tick(App& app);
// After an edit made in place (a typed text, a number): keeps the draft; the next check sees it.
void builder_changed(App& app);
// The checker's verdict on the draft as it is now, in app.builder (problem, findings, warnings, long steps).
void builder_check(App& app);
// Step i of the draft, or nullptr.
DraftStep* builder_step(App& app, int i);

// [open a lesson to edit, or start anew] A draft with steps is replaced only once the teacher confirms.
void builder_request(App& app, nlohmann::json next);  // null: a new, empty draft
void builder_replace(App& app);                       // confirms the pending replacement
void builder_keep(App& app);                          // declines it
std::string builder_open_builtin(App& app, const std::string& id);
std::string builder_open_typed(App& app);  // app.builder.open_text: a lesson link, or a file's path on the desktop
bool builder_can_pick_file(const App& app);
void builder_pick_file(App& app);  // the picked file comes back through App::import_text

// [steps]
void builder_add_step(App& app);       // the view now as a new step, which is then picked
void builder_select(App& app, int i);  // -1: none
bool builder_move(App& app, size_t i, int delta);
bool builder_delete(App& app, size_t i);
void builder_record_view(App& app, size_t i);                              // the view now as step i's state and panels
void builder_set_highlight(App& app, size_t i, const std::string& panel);  // "" = none
void builder_set_lock(App& app, size_t i, const std::string& control, bool on);

// [a step's question]
void builder_set_ask(App& app, size_t i, DraftStep::Ask ask);
bool builder_add_choice(App& app, size_t i);
bool builder_remove_choice(App& app, size_t i, size_t choice);  // at least two stay
void builder_set_answer(App& app, size_t i, size_t choice);
// One part of a do task's goal: "value" (a live value's name), "op" or "than" (a number).
void builder_set_goal(App& app, size_t i, const std::string& part, const nlohmann::json& v);
void builder_record_goal(App& app, size_t i);
void builder_set_asks(App& app, size_t i, const std::string& fact, bool on);
void builder_hide_answers(App& app, size_t i);
void builder_record_reveal(App& app, size_t i);
void builder_clear_reveal(App& app, size_t i);
// The claims of step i's text (`explain` false) or of its explanation (true).
nlohmann::json& builder_claims_holder(DraftStep& s, bool explain);
void builder_add_claim(App& app, size_t i, bool explain);  // the claim app.builder.new_claim_… describes
void builder_remove_claim(App& app, size_t i, bool explain, size_t claim);
void builder_declare_claims(App& app, size_t i, bool explain, bool declared);

// [the lesson's outputs] Each refuses (with why) while the checker finds a problem.
void builder_set_pass(App& app, bool graded, int percent);
std::string builder_preview(App& app);
void builder_stop_preview(App& app);
std::string builder_save(App& app);
bool builder_can_link(const App& app);
std::string builder_copy_link(App& app);
bool builder_can_package(const App& app);
std::string builder_package(App& app);

// [what both surfaces show] Texts in the page's language.
constexpr size_t kMaxDraftChoices = 8;
constexpr size_t kShownFindings = 6;  // more would push the buttons out of a short panel
// The catalog keys of the four kinds of step, in DraftStep::Ask's order.
const std::array<const char*, 4>& builder_ask_keys();
const std::vector<const char*>& builder_goal_ops();  // ">", ">=", …
struct BuilderGoal {
  std::string value, op;
  double than = 0;
};
BuilderGoal builder_goal(const DraftStep& s);  // a do task's goal as its fields show it (unset: "", ">", 0)
std::string builder_value_now(const App& app, const std::string& value);  // "now 0.957"; "" for no such value
std::string builder_step_name(const App& app, size_t i);      // "2. Drag d_k to 256…  [?]": its number, text's start
std::string builder_recorded_text(const App& app, size_t i);  // step i's panels and state keys
std::string builder_reveal_text(const App& app, size_t i);
std::string builder_solution_text(const App& app, size_t i);
// The checker's verdict as lines: the head (ok, or the first problem), the other findings (at most
// kShownFindings in all, then how many more), the controls left unlocked per step, the steps too long for SCORM 1.2.
struct BuilderVerdict {
  bool ok = false;
  std::string head;
  std::vector<std::string> findings, unlocked, long_steps;
};
BuilderVerdict builder_verdict(const App& app);  // of the last builder_check

}  // namespace attn
