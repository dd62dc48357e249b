// test_lesson_results.cpp — after a lesson's last step the learner sees how it went: the score an LMS records
// (predictions right at the first try), each prediction with the answer given and the right one where it was not
// found, and ways on (review a step as it was left, start again, the next lesson, all lessons). The canvas and the
// parallel DOM say the same words (render_results), in both languages, filled in for every built-in lesson.
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "app/a11y.h"
#include "app/app.h"
#include "app/base/strings.h"
#include "app/lesson/lesson_run.h"
#include "app/lesson/lesson_text.h"
#include "app/state/state_json.h"

using namespace attn;
using nlohmann::json;

namespace {
// Walks a lesson to its end: each prediction answered wrong first where `wrong_first` holds for its step (then right),
// each do task met by its solution.
void finish(App& app, const std::string& id, bool (*wrong_first)(int step)) {
  REQUIRE(start_lesson(app, id, 1) == "");
  const Lesson* l = open_lesson(app);
  for (int k = 1; k <= static_cast<int>(l->steps.size()); ++k) {
    INFO(id << " step " << k);
    app.tick();
    const Task& t = open_step(app)->task;
    if (t.kind == Task::Kind::Predict) {
      if (wrong_first(k)) {
        if (t.choices.empty())
          answer_number(app, *t.number + 1000 * (t.tolerance + 1));
        else
          answer_choice(app, t.answer == 0 ? 1 : 0);
      }
      if (t.choices.empty())
        answer_number(app, *t.number);
      else
        answer_choice(app, t.answer);
    } else if (t.kind == Task::Kind::Do) {
      REQUIRE(apply_state_json(app.state, t.solution) == "");
      app.update();
      app.tick();
    }
    REQUIRE(next_step(app));
  }
}

bool never(int) { return false; }
bool step_two(int k) { return k == 2; }

const json* event_of(const App& app, const char* type) {
  for (auto it = app.events.rbegin(); it != app.events.rend(); ++it)
    if ((*it)["type"] == type) return &*it;
  return nullptr;
}
}  // namespace

TEST_CASE("a finished lesson shows its score and each answer; the complete event carries the same score",
          "[lessons][results]") {
  App app;
  finish(app, "why-sqrt-dk", step_two);  // step 2's prediction wrong at first, the others right
  REQUIRE_FALSE(open_lesson(app));
  const LessonResults r = render_results(app);
  REQUIRE(r.lesson == "why-sqrt-dk");
  const LessonScore& c = r.counts;
  REQUIRE(c.questions >= 2);
  CHECK(c.right_first == c.questions - 1);
  CHECK(c.right_later == 1);
  CHECK(c.missed + c.unanswered == 0);
  CHECK(r.rows.size() == static_cast<size_t>(c.questions));
  // Step 2's row: right at the second try, no "the answer" line; the others right at the first.
  for (const ResultRow& row : r.rows) {
    INFO("step " << row.step);
    CHECK(row.right);
    CHECK(row.answer.empty());
    CHECK(row.verdict == tr(Lang::En, row.step == 2 ? "lesson.results.right_later" : "lesson.results.right_first"));
    CHECK_FALSE(row.given.empty());
  }
  CHECK_THAT(r.score, Catch::Contains(std::to_string(c.right_first) + " of " + std::to_string(c.questions)));
  // The LMS hears the same numbers.
  const json* done = event_of(app, "lesson-complete");
  REQUIRE(done);
  CHECK((*done)["questions"] == c.questions);
  CHECK((*done)["right_first"] == c.right_first);
  // The parallel DOM says the same words; the lesson list gives way to the results, as on the canvas.
  const json d = a11y_description(app);
  CHECK(d["lessons"].is_null());
  REQUIRE(d["results"].is_object());
  CHECK(d["results"]["score"] == r.score);
  CHECK(d["results"]["rows"].size() == r.rows.size());
  CHECK(d["results"]["rows"][0]["verdict"] == r.rows[0].verdict);
}

TEST_CASE("a missed prediction's row says the answer; review opens the step as it was left", "[lessons][results]") {
  App app;
  REQUIRE(start_lesson(app, "why-sqrt-dk", 2) == "");
  app.tick();
  const Task& t = open_step(app)->task;
  REQUIRE(t.kind == Task::Kind::Predict);
  const int wrong = t.answer == 0 ? 1 : 0;
  answer_choice(app, wrong);
  answer_choice(app, wrong);  // the second miss ends the question
  REQUIRE(render_step(app).answered);
  // The learner goes on to the end without answering anything else (the steps after are skipped by opening the last).
  const int steps = static_cast<int>(open_lesson(app)->steps.size());
  REQUIRE(start_lesson(app, "why-sqrt-dk", steps) == "");
  app.tick();
  const Task& last = open_step(app)->task;
  if (last.kind == Task::Kind::Predict && !last.choices.empty()) answer_choice(app, last.answer);
  if (last.kind == Task::Kind::Predict && last.choices.empty()) answer_number(app, *last.number);
  if (last.kind == Task::Kind::Do) {
    REQUIRE(apply_state_json(app.state, last.solution) == "");
    app.update();
    app.tick();
  }
  REQUIRE(next_step(app));
  const LessonResults r = render_results(app);
  const ResultRow* row2 = nullptr;
  for (const ResultRow& row : r.rows)
    if (row.step == 2) row2 = &row;
  REQUIRE(row2);
  CHECK_FALSE(row2->right);
  CHECK(row2->verdict == tr(Lang::En, "lesson.results.missed"));
  CHECK_THAT(row2->answer, Catch::Contains(tr(Lang::En, t.choices[static_cast<size_t>(t.answer)].c_str())));
  CHECK_THAT(row2->given, Catch::Contains(tr(Lang::En, t.choices[static_cast<size_t>(wrong)].c_str())));
  CHECK(r.counts.missed == 1);
  // The steps between were never answered (the last one was, if it asks a prediction).
  CHECK(r.counts.unanswered == r.counts.questions - 1 - (last.kind == Task::Kind::Predict ? 1 : 0));
  // Review: the step opens with its verdict and no new try; the results are put away meanwhile.
  const size_t events = app.events.size();
  REQUIRE(a11y_act(app, {{"do", "review"}, {"value", 2}}) == "");
  REQUIRE(open_lesson(app));
  CHECK(app.state.lesson.step == 2);
  CHECK(render_step(app).answered);
  CHECK_FALSE(answer_choice(app, t.answer));
  for (size_t i = events; i < app.events.size(); ++i) CHECK(app.events[i]["type"] != "answer");
  CHECK(render_results(app).lesson.empty());
}

TEST_CASE("start again forgets the answers; all lessons brings the list back; next opens the next lesson",
          "[lessons][results]") {
  App app;
  finish(app, "softmax", never);
  REQUIRE(render_results(app).lesson == "softmax");
  const std::string next = render_results(app).next_id;
  CHECK_FALSE(next.empty());
  CHECK(next != "softmax");
  // A step outside the lesson is refused and the results stay.
  CHECK(a11y_act(app, {{"do", "review"}, {"value", 99}}) == "no such step");
  CHECK(render_results(app).lesson == "softmax");
  REQUIRE(a11y_act(app, {{"do", "results_close"}}) == "");
  CHECK(render_results(app).lesson.empty());
  CHECK(a11y_description(app)["lessons"].is_object());
  CHECK(a11y_act(app, {{"do", "results_close"}}) == "no lesson has finished");

  finish(app, "softmax", never);
  REQUIRE(a11y_act(app, {{"do", "results_restart"}}) == "");
  CHECK(app.state.lesson.id == "softmax");
  CHECK(app.state.lesson.step == 1);
  CHECK(lesson_score(*find_lesson("softmax"), app.progress).right_first == 0);  // answers forgotten

  finish(app, "softmax", never);
  REQUIRE(a11y_act(app, {{"do", "start"}, {"value", next}}) == "");
  CHECK(app.state.lesson.id == next);
}

TEST_CASE("every lesson's results are filled in, in both languages, with a row per prediction", "[lessons][results]") {
  for (Lang lang : languages())
    for (const Lesson& l : lessons()) {
      INFO(l.id << " " << lang_code(lang));
      App app;
      app.state.lang = lang;
      finish(app, l.id, step_two);
      const LessonResults r = render_results(app);
      REQUIRE(r.lesson == l.id);
      int predictions = 0;
      for (const LessonStep& s : l.steps) predictions += s.task.kind == Task::Kind::Predict ? 1 : 0;
      CHECK(r.rows.size() == static_cast<size_t>(predictions));
      CHECK(r.counts.right_first + r.counts.right_later == predictions);
      for (const std::string& text : all_texts(r)) {
        INFO(text);
        CHECK(text.find("lesson.") != 0);  // no catalog key shown for want of a text
        for (const std::string& name : placeholders(text)) {
          // s_{t−1} is notation, not a value; a live value's name would be a template left unfilled.
          const std::vector<std::string> live = live_value_names();
          CHECK(std::find(live.begin(), live.end(), name) == live.end());
        }
      }
    }
}
