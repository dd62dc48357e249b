// lesson_run.h — a lesson being followed: entering steps, answering predictions, checking "do" goals,
// progress kept by the host, and the events an embedding course page receives.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/base/host.h"
#include "app/lesson/lesson.h"
#include "app/playground/playground.h"
#include "app/worksheet/worksheet.h"

namespace attn {

// What the learner has done in the open step (not shared: a link opens the step fresh).
struct StepProgress {
  int chosen = -1;        // the last choice picked (predict), -1 = none yet
  double typed = 0;       // the last number typed (numeric predict)
  int attempts = 0;       // answers given
  bool correct = false;   // the last answer was right
  bool missed = false;    // kMaxMisses wrong answers: the answer and its explanation are shown instead
  std::string feedback;   // catalog key of what the last wrong answer is told ("" = the step's hint)
  bool revealed = false;  // the reveal state was applied
  bool goal_met = false;  // a do task's goal held
  // The values each text is rendered from (lesson_text.h), so that no text says something of a state it was not
  // written for: the step's text and question quote the state the step opened in; a wrong answer's feedback, the
  // state it was given in; the explanation, the state after the reveal or at the moment the goal was met.
  LiveValues entry_values, answer_values, done_values;
  bool values_settling = false;  // one was taken while the variance lab was still drawing (lesson_tick completes it)
};

// What following a lesson touches, by reference (App makes one per call: `start_lesson(app, …)`): the playground,
// the open step's answers, the controls it locks, which step's state was last applied, the saved progress (lessons,
// the worksheet's cells, an unchecked answer) and the host that keeps it.
struct LessonView {
  const Playground& pg;
  const StepProgress& step;
  const nlohmann::json& progress;
  const std::string& finished;  // the lesson whose results show after its last step ("" = none)
};
struct LessonParts {
  Playground& pg;
  StepProgress& step;
  std::vector<std::string>& locks;
  LessonRef& entered;
  nlohmann::json& progress;
  uint64_t& progress_loads;
  WorksheetSession& worksheet;
  const HostServices& host;
  std::string& finished;
  operator LessonView() const { return {pg, step, progress, finished}; }
};

// The open lesson (State::lesson names it; "" = free play), in steps counted from 1 as the notes count.
const Lesson* open_lesson(const Playground& pg);
const LessonStep* open_step(const Playground& pg);
// Opens a lesson at a step (1-based; clamped), applying the step's state and panels; "" or the reason.
std::string start_lesson(LessonParts run, const std::string& id, int step);
std::string go_to_step(LessonParts run, int step);
// Opens a lesson as the lesson list does: where the learner left off, or at step 1 once it was completed.
std::string continue_lesson(LessonParts run, const std::string& id);
void leave_lesson(LessonParts run);
// A teacher's lesson file (`name` is what the learner is told it came from): checked, added and opened at
// step 1, as a compiled-in one is. A refused file changes nothing but the status line, which says why.
// "" or the reason (English, for the API and the CLI).
std::string open_lesson_file(LessonParts run, const std::string& text, const std::string& name);
// Whether an imported document is a lesson file (an object with "steps") rather than a scenario or state.
bool looks_like_lesson(const std::string& text);
// Next: the following step, or on the last one the lesson is complete ("lesson-complete" event, with the score) and
// its results show (lesson_text.h: render_results) until the learner reviews a step, starts a lesson or closes
// them; the state stays as it is. Does nothing while the step's task is unfinished (returns false).
bool next_step(LessonParts run);
// The results of a finished lesson are put away: the lesson list shows again.
void close_results(LessonParts run);
// The finished lesson opened again from its results at `step`, as it was left (its kept answer shown, no new try).
std::string review_step(LessonParts run, int step);
// A lesson from step 1 with its answers forgotten ("Start again").
std::string restart_lesson(LessonParts run, const std::string& id);
// Answers the open step's prediction: a choice index, or a number. Returns whether it was right; a right
// answer reveals (applies the task's reveal state), and so does the kMaxMisses-th wrong one, which ends the
// question as missed (no more answers; Next is allowed). Emits an "answer" event either way.
constexpr int kMaxMisses = 2;
bool answer_choice(LessonParts run, int choice);
bool answer_number(LessonParts run, double value);
// The open step's answer box: what was typed but not yet checked. It is kept with the progress (a reload
// brings it back) and belongs to its step: any other step, or the same step opened afresh, starts empty.
std::string lesson_draft(LessonView run);
void set_lesson_draft(LessonParts run, const std::string& text);
// Checks the typed text as a number answer: false, with the reason in the status line, when it is no number.
bool answer_typed(LessonParts run, const std::string& text);
// Per frame: a do task whose goal now holds is marked done (once; emits "answer" with correct: true).
void lesson_tick(LessonParts run);
// A prediction's right answer as an LMS records it: the choice's index, or {number, tolerance}; null for no prediction.
nlohmann::json task_correct_response(const Task& t);
// Every prediction of a lesson in step order: {step, question, kind ("choice" | "numeric"), choices, correct_response}.
nlohmann::json lesson_questions_json(const Lesson& l);
// How a lesson went, from its kept answers: the predictions (right at the first try, right later, missed, not
// answered) and the do tasks done. The score an LMS records is right_first / questions.
struct LessonScore {
  int questions = 0, right_first = 0, right_later = 0, missed = 0, unanswered = 0;
  int tasks = 0, tasks_done = 0;
};
LessonScore lesson_score(const Lesson& l, const nlohmann::json& progress);
// A kept answer to one prediction: how it went (None = no answer kept), and what was given (a choice's index or a
// number) in `given`.
enum class KeptVerdict { None, RightFirst, RightLater, Missed, Open };
KeptVerdict kept_verdict(const Task& t, const nlohmann::json& progress, const std::string& lesson,
                         nlohmann::json* given = nullptr);
// Whether Next is allowed: no task, or the task answered right / its goal met.
bool step_complete(LessonView run);

// Progress across lessons: {"<lesson id>": {"furthest": k, "completed": bool, "answers": {…}}}; the host stores it.
// "answers" keeps what each task was answered ({"<task id>": {"given": choice index or number, "attempts": n}}, a do
// task {"done": true, "values": {…}}), so a step opened again (a reload, Back, an LMS relaunch) shows it as the
// learner left it: verdict, reveal and explanation, and no second first try.
nlohmann::json progress_json(LessonView run);
void save_progress(LessonParts run);  // hands the progress to the host (local storage, the config folder)
std::string load_progress(LessonParts run, const std::string& text);  // "" or why it was ignored
void reset_progress(LessonParts run);
// Another tab of the same page saved its progress (`text`): what it kept that this one lacks is added (a lesson's
// furthest step and completion of either, every answer either kept, worksheet exercises this tab has not touched),
// and saved back when this tab had more, so two tabs never erase each other's work. "" or why it was ignored.
std::string merge_progress(LessonParts run, const std::string& text);
// Answers an LMS kept for `lesson` (its record wins over this browser's): merged into the progress, and the open step
// restored if it is one of them. "" or why nothing was kept.
std::string keep_answers(LessonParts run, const std::string& lesson, const nlohmann::json& answers);
// Starting a lesson over: its steps open unanswered again.
void forget_answers(LessonParts run, const std::string& lesson);

}  // namespace attn
