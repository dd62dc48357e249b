// test_kept_work.cpp — what a learner leaves unfinished comes back after a reload: the number typed into a
// lesson's answer box (and only on its own step: a new question starts empty) and where each panel was
// scrolled to. Both travel in the saved progress; garbage in it is dropped, never applied.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "app/app.h"
#include "app/base/strings.h"
#include "app/kept_view.h"
#include "app/lesson/lesson_run.h"

using namespace attn;

namespace {
// The progress a page would have saved, loaded into a new app (a reload).
std::string reload_progress(const App& from, App& into) { return load_progress(into, from.progress.dump()); }
}  // namespace

TEST_CASE("a typed but unchecked lesson answer survives a reload, on its own step only", "[kept]") {
  App app;
  REQUIRE(start_lesson(app, "softmax", 2) == "");
  CHECK(lesson_draft(app) == "");
  set_lesson_draft(app, "0.73");
  CHECK(lesson_draft(app) == "0.73");

  App again;
  REQUIRE(start_lesson(again, "softmax", 2) == "");
  REQUIRE(reload_progress(app, again) == "");
  CHECK(lesson_draft(again) == "0.73");  // the same step, reopened after a reload: kept

  REQUIRE(go_to_step(app, 3) == "");
  CHECK(lesson_draft(app) == "");  // the next question starts empty, not with the last answer
  REQUIRE(go_to_step(app, 2) == "");
  CHECK(lesson_draft(app) == "");  // leaving a step drops its draft
  REQUIRE(start_lesson(app, "why-sqrt-dk", 3) == "");
  CHECK(lesson_draft(app) == "");
}

TEST_CASE("a typed answer that is no number is refused with a message and counts as no attempt", "[kept]") {
  App app;
  REQUIRE(start_lesson(app, "softmax", 2) == "");
  for (const char* text : {"", "abc", "0.7x", "1e999", "--1"}) {
    INFO(text);
    app.status.clear();
    CHECK_FALSE(answer_typed(app, text));
    CHECK(app.status == tr(app.state.lang, "lesson.ui.need_number"));
    CHECK(app.step_progress.attempts == 0);
  }
  CHECK(answer_typed(app, " 0.7311"));  // the softmax weight the step asks for
  CHECK(app.step_progress.correct);
}

TEST_CASE("each panel's scroll is kept in the progress, and unreadable entries are dropped", "[kept]") {
  App app;
  CHECK(kept_scroll(app, "explain") == 0.0f);
  keep_scroll(app, "explain", 312.4f);
  keep_scroll(app, "stack", 90.0f);
  CHECK(kept_scroll(app, "explain") == 312.0f);
  keep_scroll(app, "explain", 312.6f);  // under a pixel: not a change
  CHECK(kept_scroll(app, "explain") == 312.0f);

  App again;
  const uint64_t loads = again.progress_loads;
  REQUIRE(reload_progress(app, again) == "");
  CHECK(again.progress_loads == loads + 1);
  CHECK(kept_scroll(again, "explain") == 312.0f);
  CHECK(kept_scroll(again, "stack") == 90.0f);

  App garbled;
  REQUIRE(load_progress(
              garbled, R"({"view": {"scroll": {"explain": "far", "nope": 10, "heatmap": -5, "pipeline": 40}}})") == "");
  CHECK(kept_scroll(garbled, "explain") == 0.0f);
  CHECK(kept_scroll(garbled, "nope") == 0.0f);
  CHECK(kept_scroll(garbled, "heatmap") == 0.0f);
  CHECK(kept_scroll(garbled, "pipeline") == 40.0f);
  REQUIRE(load_progress(garbled, R"({"view": 7, "draft": {"step": 3, "text": []}})") == "");
  CHECK(kept_scroll(garbled, "pipeline") == 0.0f);
  CHECK_FALSE(garbled.progress.contains("draft"));
}
