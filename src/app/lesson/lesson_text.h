// lesson_text.h — the one renderer of a lesson step's words: the canvas, the parallel DOM, the live region and the
// lesson verifier all show what render_step() returns; none of them fills a lesson's templates itself.
#pragma once

#include <string>
#include <vector>

#include "app/lesson/lesson_run.h"

namespace attn {

// Everything a step says, in the learner's language, each text filled from the values it was written for
// (StepProgress: the step's text and question from the state the step opened in, a wrong answer's feedback from
// the state it was given in, the explanation from the state after the reveal or when the goal was met).
// A `*_since` line follows a text whose values are no longer the ones on screen and says what changed since
// ("d_k 208 → 3"): a text never quotes a state as if it were the current one when it is not.
struct StepTexts {
  bool loading = false;  // the lesson's own texts have not arrived yet (the page fetches them after its first view)
  std::string title, step_of;
  std::string text, text_since;
  enum class Task { None, Predict, Do } task = Task::None;
  std::string task_label;  // "Predict first:" / "Your turn:"
  std::string question;
  std::vector<std::string> choices;
  bool number = false;    // a number is typed (no choices)
  bool answered = false;  // right, missed, or the goal met: nothing more to answer
  bool correct = false;
  std::string verdict;   // "Right!" / "Not quite." / "✓ Done." ("" before any answer)
  std::string feedback;  // what the last wrong answer is told (its slip, or the hint)
  std::string one_more;  // after a first miss
  std::string missed;    // "Not this time. The answer: …"
  std::string explain, explain_since;
  std::string hint;  // a do task's hint while its goal is not met: quotes the values now on screen
  std::string back, next, check, exit;
};

StepTexts render_step(LessonView run);

// A finished lesson's results (shown after its last step until the learner moves on): how it went, and each
// prediction with the answer the learner gave, how it went and the right answer where it was not found.
struct ResultRow {
  int step = 0;
  std::string question, given, verdict, answer;  // `given`/`answer` are "" when there is none to say
  bool right = false;                            // right at the first or a later try
  std::string review;                            // "Review step 3"
};
struct LessonResults {
  std::string lesson;  // its id; "" = no results to show
  std::string heading, score, tasks, answers_heading;
  std::vector<ResultRow> rows;
  LessonScore counts;
  std::string restart, close;
  std::string next_id, next;  // the lesson after it in the list ("" after the last one)
};
LessonResults render_results(LessonView run);
std::vector<std::string> all_texts(const LessonResults& r);

// Every text of `t` in the order a reader meets them (for checks that walk every surface's words).
std::vector<std::string> all_texts(const StepTexts& t);

// What `now` changed from `then` in words ("d_k 208 → 3, temperature 1 → 0.5"), "" when the lesson would print
// the same numbers from both; `other` is set when values changed that the list does not name.
std::string changes_since(Lang lang, const LiveValues& then, const LiveValues& now, bool& other);

// The facts (registry.h's `shows` names: "weights", "scores", …) the open step's question asks and the learner has
// not answered yet: no surface shows them until then — not a panel (validate_lesson), the live summary, nor the
// parallel DOM's weights table.
std::vector<std::string> withheld_facts(LessonView run);
bool withholds(const std::vector<std::string>& withheld, const char* fact);

}  // namespace attn
