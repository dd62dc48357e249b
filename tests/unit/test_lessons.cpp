// test_lessons.cpp — every lesson file is valid (its state keys, panels, controls and strings exist), and
// following one behaves as a learner expects: predictions reveal only when right, goals are checked,
// events reach the host, progress is kept.
#include <catch2/catch.hpp>

#include "app/app.h"
#include "app/lesson_run.h"
#include "app/query_state.h"
#include "app/state_json.h"

using namespace attn;

TEST_CASE("every compiled-in lesson parses and validates", "[lessons]") {
  for (const std::string& e : lesson_load_errors()) FAIL_CHECK(e);
  REQUIRE(!lessons().empty());
  for (const Lesson& l : lessons()) {
    INFO(l.id);
    CHECK(validate_lesson(l) == "");
    CHECK(find_lesson(l.id) == &l);
  }
}

TEST_CASE("a lesson with a wrong reference is refused with the step named", "[lessons]") {
  const char* base =
      R"({"id": "t", "title": "lesson.why-sqrt-dk.title", "steps": [{"text": "lesson.why-sqrt-dk.1", %s}]})";
  auto check = [&](const char* step_extra, const char* expected) {
    char buf[1024];
    std::snprintf(buf, sizeof buf, base, step_extra);
    Lesson l;
    std::string err = parse_lesson(buf, l);
    if (err.empty()) err = validate_lesson(l);
    INFO(step_extra);
    CHECK_THAT(err, Catch::Contains(expected));
  };
  check(R"("state": {"d_kk": 3})", "unknown state key");
  check(R"("panels": ["heatmapp"])", "unknown panel");
  check(R"("lock": ["dk"])", "unknown control");
  check(R"("highlight": "nope")", "unknown highlight");
  check(
      R"("task": {"kind": "predict", "id": "q", "question": "no.such.key", "choices": ["lesson.choice.up"], "answer": 0})",
      "missing in the en catalog");
  check(
      R"("task": {"kind": "predict", "id": "q", "question": "lesson.choice.up", "choices": ["lesson.choice.up"], "answer": 3})",
      "answer is not one of the choices");
  check(
      R"("task": {"kind": "do", "id": "q", "question": "lesson.choice.up", "goal": {"value": "nonesuch", "op": ">", "than": 1}})",
      "not a live value");
  Lesson l;
  CHECK_THAT(parse_lesson("{\"id\": 3}", l), Catch::Contains("id must be a string"));
  CHECK_THAT(parse_lesson("[1,2", l), Catch::Contains("JSON object"));
}

namespace {
int count_events(const App& app, const char* type) {
  int k = 0;
  for (const auto& e : app.events) k += e["type"] == type ? 1 : 0;
  return k;
}
}  // namespace

TEST_CASE("walking why-sqrt-dk: predict wrong then right, a do goal, completion", "[lessons]") {
  App app;
  std::string saved;
  app.host.save_progress = [&](const std::string& j) { saved = j; };
  REQUIRE(start_lesson(app, "why-sqrt-dk", 1) == "");
  CHECK(app.state.d_k == 4);
  CHECK_FALSE(app.state.scale);
  CHECK(app.state.panels.lesson);
  CHECK_FALSE(app.state.panels.pipeline);  // only the step's panels
  CHECK(app.lesson_locks == std::vector<std::string>{"scale"});
  CHECK(count_events(app, "lesson-step") == 1);
  REQUIRE(step_complete(app));  // step 1 has no task
  REQUIRE(next_step(app));
  CHECK(app.state.lesson.step == 2);

  const double before = live_values(app).at("max_weight");
  CHECK_FALSE(step_complete(app));
  CHECK_FALSE(next_step(app));         // Next waits for the answer
  CHECK_FALSE(answer_choice(app, 1));  // "down": wrong
  CHECK(app.state.d_k == 4);           // no reveal yet
  CHECK(answer_choice(app, 0));        // "up": right, and the reveal applies d_k = 400
  CHECK(app.state.d_k == 400);
  CHECK(live_values(app).at("max_weight") > before);  // what the answer claims is what the learner sees
  REQUIRE(count_events(app, "answer") == 2);
  CHECK(app.events[app.events.size() - 2]["correct"] == false);
  CHECK(app.events.back()["correct"] == true);
  CHECK(app.events.back()["question"] == "unscaled-max-weight-400");
  REQUIRE(next_step(app));

  CHECK_FALSE(answer_number(app, 8));  // √64, a common slip: not the variance
  CHECK(answer_number(app, 64));
  REQUIRE(next_step(app));

  CHECK(app.state.lesson.step == 4);
  app.update_frame();
  CHECK_FALSE(step_complete(app));  // d_k = 4 unscaled is not saturated
  app.state.d_k = 1024;             // what dragging the slider does
  app.update_frame();
  CHECK(step_complete(app));
  REQUIRE(next_step(app));
  REQUIRE(next_step(app));  // the last step: complete
  CHECK(app.state.lesson.id.empty());
  CHECK(count_events(app, "lesson-complete") == 1);
  CHECK(progress_json(app)["why-sqrt-dk"]["completed"] == true);
  CHECK(saved.find("\"completed\":true") != std::string::npos);

  App other;
  CHECK(load_progress(other, saved) == "");
  CHECK(progress_json(other)["why-sqrt-dk"]["furthest"] == 5);
  CHECK(load_progress(other, "{\"why-sqrt-dk\": {\"furthest\": \"x\"}, \"gone\": 1}") == "");  // garbage ignored
  CHECK(progress_json(other)["why-sqrt-dk"]["furthest"] == 0);
  CHECK_FALSE(load_progress(other, "[[[").empty());
  reset_progress(other);
  CHECK(progress_json(other).empty());
}

TEST_CASE("the open lesson and step are part of the state", "[lessons]") {
  App app;
  REQUIRE(apply_state_text(app.state, R"({"lesson": {"id": "why-sqrt-dk", "step": 3}})") == "");
  app.update();  // a link or setState names the step; the app enters it
  CHECK(app.state.lesson.step == 3);
  CHECK(app.state.d_k == 64);
  const auto j = state_to_json(app.state);
  CHECK(j["lesson"]["id"] == "why-sqrt-dk");
  CHECK(j["lesson"]["step"] == 3);
  State back;
  REQUIRE(apply_state_json(back, j) == "");
  CHECK(back.lesson == app.state.lesson);
  CHECK_THAT(apply_state_text(app.state, R"({"lesson": {"id": "nonesuch"}})"), Catch::Contains("unknown lesson"));
  CHECK_THAT(apply_state_text(app.state, R"({"lesson": {"id": "why-sqrt-dk", "step": 99}})"),
             Catch::Contains("lesson.step"));
  CHECK_THAT(apply_state_text(app.state, R"({"lesson": 7})"), Catch::Contains("lesson must be"));
  REQUIRE(apply_state_text(app.state, R"({"lesson": null})") == "");
  app.update();
  CHECK(app.lesson_locks.empty());
}

TEST_CASE("a teacher's link names a lesson step or a workspace", "[lessons]") {
  App app;
  CHECK(apply_query_state(app.state, "?embed=1&lesson=why-sqrt-dk&step=3&utm_source=x") == "");
  app.update();
  CHECK(app.state.lesson.step == 3);
  CHECK(app.state.d_k == 64);
  State s;
  CHECK(apply_query_state(s, "lesson=why-sqrt-dk&step=42") != "");
  CHECK(s.lesson.step == 1);  // out of range: the lesson opens at its start
  CHECK(apply_query_state(s, "lesson=<script>") != "");
  CHECK(apply_query_state(s, "workspace=masks-heads") == "");
  CHECK(s.panels.masks);
  CHECK_FALSE(s.panels.variance);
  CHECK(apply_query_state(s, "workspace=nope") != "");
}
