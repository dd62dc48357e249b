// test_lesson_answers.cpp — an answered step stays answered: after a reload (the kept progress), Back, and a relaunch
// from an LMS (its kept answers), the step opens with its verdict, reveal and explanation, takes no second first try,
// and sends no new "answer" event; starting the lesson over opens it unanswered.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "app/a11y.h"
#include "app/app.h"
#include "app/lesson/lesson_run.h"
#include "app/lesson/lesson_text.h"
#include "app/state/state_json.h"

using namespace attn;
using nlohmann::json;

namespace {
int count_events(const App& app, const char* type) {
  int k = 0;
  for (const auto& e : app.events) k += e["type"] == type ? 1 : 0;
  return k;
}

// A page that opens with what the last one kept: the progress first (as web.cpp and desktop.cpp do), then the step.
void reopen(App& app, const std::string& kept, const char* lesson, int step) {
  REQUIRE(load_progress(app, kept) == "");
  REQUIRE(start_lesson(app, lesson, step) == "");
  app.tick();
}
}  // namespace

TEST_CASE("a reload opens an answered prediction answered: verdict, reveal, explanation, Next, no second try",
          "[lessons][answers]") {
  std::string saved;
  {
    App first;
    first.host.save_progress = [&](const std::string& j) { saved = j; };
    REQUIRE(start_lesson(first, "why-sqrt-dk", 2) == "");
    CHECK_FALSE(answer_choice(first, 1));  // "down": wrong
    CHECK(answer_choice(first, 2));        // "up": right, the reveal sets d_k = 400
    REQUIRE(first.state.d_k == 400);
  }
  App again;
  reopen(again, saved, "why-sqrt-dk", 2);
  CHECK(step_complete(again));    // Next is allowed
  CHECK(again.state.d_k == 400);  // the reveal is applied again
  const StepTexts t = render_step(again);
  CHECK(t.answered);
  CHECK(t.correct);
  CHECK_FALSE(t.verdict.empty());
  CHECK_FALSE(t.explain.empty());
  // The parallel DOM says the same (every surface draws render_step).
  const json dom = a11y_description(again)["lesson"];
  CHECK(dom.dump().find(t.verdict) != std::string::npos);
  // No new answer: the question is closed and nothing is sent to a course as a new answer.
  const int answers = count_events(again, "answer");
  CHECK_FALSE(answer_choice(again, 0));
  CHECK(count_events(again, "answer") == answers);
  CHECK(answers == 0);
}

TEST_CASE("one miss kept: the relaunched step has one try left, and its first miss's feedback", "[lessons][answers]") {
  std::string saved;
  {
    App first;
    first.host.save_progress = [&](const std::string& j) { saved = j; };
    REQUIRE(start_lesson(first, "why-sqrt-dk", 2) == "");
    CHECK_FALSE(answer_choice(first, 1));
  }
  App again;
  reopen(again, saved, "why-sqrt-dk", 2);
  CHECK_FALSE(step_complete(again));
  const StepTexts t = render_step(again);
  CHECK_FALSE(t.answered);
  CHECK_FALSE(t.feedback.empty());  // the slip "down" names
  CHECK_FALSE(t.one_more.empty());
  CHECK_FALSE(answer_choice(again, 0));  // the second miss ends the question: the answer is shown
  CHECK(render_step(again).answered);
  CHECK_FALSE(render_step(again).missed.empty());
  REQUIRE(count_events(again, "answer") == 1);
  CHECK(again.events.back()["attempt"] == 2);
}

TEST_CASE("Back to an answered step shows it answered; a do goal met keeps the values it was met at",
          "[lessons][answers]") {
  App app;
  REQUIRE(start_lesson(app, "why-sqrt-dk", 3) == "");
  REQUIRE(answer_number(app, 64));
  REQUIRE(next_step(app));  // step 4: drag d_k until the row saturates
  REQUIRE(apply_state_json(app.state, {{"d_k", 1024}}) == "");
  app.tick();
  REQUIRE(step_complete(app));
  const std::string explain = render_step(app).explain;
  REQUIRE(go_to_step(app, 3) == "");
  CHECK(step_complete(app));
  CHECK(render_step(app).answered);
  REQUIRE(go_to_step(app, 4) == "");  // the step's state applies again (d_k back to its start)
  CHECK(app.state.d_k != 1024);
  CHECK(step_complete(app));
  const StepTexts t = render_step(app);
  CHECK(t.verdict.find("Done") != std::string::npos);
  CHECK(t.explain == explain);           // quoting the moment the goal was met, d_k = 1024
  CHECK_FALSE(t.explain_since.empty());  // and saying that the numbers on screen are not those
}

TEST_CASE("answers an LMS kept open the step answered; bad ones are refused with a reason", "[lessons][answers]") {
  App app;
  REQUIRE(start_lesson(app, "why-attention", 1) == "");
  CHECK_FALSE(step_complete(app));
  REQUIRE(keep_answers(app, "why-attention",
                       {{"context-for-am", {{"given", 1}, {"attempts", 1}}},
                        {"pairs-double-length", {{"given", 400}, {"attempts", 2}}}}) == "");
  CHECK(step_complete(app));  // the open step, restored at once
  CHECK(render_step(app).correct);
  REQUIRE(go_to_step(app, 3) == "");
  CHECK(step_complete(app));
  CHECK(render_step(app).correct);
  CHECK(count_events(app, "answer") == 0);
  CHECK_THAT(keep_answers(app, "no-such-lesson", json::object()), Catch::Contains("unknown lesson"));
  CHECK_THAT(keep_answers(app, "why-attention", {{"q", {{"given", "b"}}}}), Catch::Contains("given"));
  CHECK_THAT(keep_answers(app, "why-attention", json::array()), Catch::Contains("object"));
}

TEST_CASE("a kept answer that is no answer to the step is ignored; starting over forgets the lesson's answers",
          "[lessons][answers]") {
  App app;
  // An index past the choices (a lesson changed since), garbage attempts: the step opens unanswered, nothing throws.
  REQUIRE(load_progress(app, R"({"why-attention": {"furthest": 1, "completed": false,
      "answers": {"context-for-am": {"given": 9, "attempts": 1}, "distant-subject": "x",
                  "pairs-double-length": {"given": 1e308, "attempts": "two"}}}})") == "");
  REQUIRE(start_lesson(app, "why-attention", 1) == "");
  CHECK_FALSE(step_complete(app));
  CHECK(answer_choice(app, 1));
  REQUIRE(a11y_act(app, {{"do", "restart"}}) == "");
  CHECK(app.state.lesson.step == 1);
  CHECK_FALSE(step_complete(app));
  CHECK_FALSE(progress_json(app)["why-attention"].contains("answers"));
}

TEST_CASE("an answer event describes the question in the words the learner read", "[lessons][answers]") {
  App app;
  app.state.lang = Lang::HiLatn;
  REQUIRE(start_lesson(app, "why-attention", 1) == "");
  answer_choice(app, 0);
  REQUIRE(count_events(app, "answer") == 1);
  const json& e = app.events.back();
  const StepTexts t = render_step(app);
  CHECK(e["question_text"] == t.question);
  CHECK(e["choice_texts"] == json(t.choices));
  CHECK(e["choice_texts"].size() == 4);
  CHECK(e["lang"] == "hi-Latn");
  CHECK(e["question_text"].get<std::string>().find('{') == std::string::npos);
}

TEST_CASE("two tabs: each merges what the other saved, neither erases the other's work, and the echo stops",
          "[lessons][answers]") {
  std::string store;  // the page's one progress entry both tabs write (local storage)
  int saves_a = 0, saves_b = 0;
  App a, b;
  a.host.save_progress = [&](const std::string& j) { store = j, ++saves_a; };
  b.host.save_progress = [&](const std::string& j) { store = j, ++saves_b; };
  REQUIRE(start_lesson(a, "softmax", 2) == "");
  REQUIRE(start_lesson(b, "why-attention", 1) == "");
  answer_choice(b, 1);
  REQUIRE(answer_number(a, 0.7311));  // a writes last: the store holds only a's lesson answer
  REQUIRE_FALSE(json::parse(store).contains("why-attention"));
  const int b_before = saves_b;
  REQUIRE(merge_progress(b, store) == "");  // b hears a's save (the "storage" event) ...
  CHECK(saves_b == b_before + 1);           // ... and writes back what only it had
  const json both = json::parse(store);
  CHECK(both["softmax"]["answers"].contains("sdpa-weight-1"));
  CHECK(both["why-attention"]["answers"].contains("context-for-am"));
  const int a_before = saves_a;
  REQUIRE(merge_progress(a, store) == "");  // a hears b's: nothing new on its side, so no write: the echo ends
  CHECK(saves_a == a_before);
  CHECK(progress_json(a)["why-attention"]["answers"].contains("context-for-am"));
  // A third tab opens with both.
  App c;
  REQUIRE(load_progress(c, store) == "");
  REQUIRE(start_lesson(c, "why-attention", 1) == "");
  CHECK(step_complete(c));
  CHECK_THAT(merge_progress(c, "not json"), Catch::Contains("not readable"));
}
