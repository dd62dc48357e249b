// test_lesson_builder.cpp — the lesson builder's draft: views recorded as steps, reordered and deleted, saved as a
// lesson file the validator accepts (or refused with the validator's message), read back, and carried in a link.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "app/lesson.h"
#include "app/lesson_builder.h"
#include "app/share.h"
#include "app/state_json.h"

using namespace attn;
using nlohmann::json;

namespace {
DraftText en(const std::string& s) { return DraftText{s, ""}; }

// Three views: the default, d_k 16 unscaled with the heatmap, and temperature 0.5 with a prediction.
LessonDraft three_steps() {
  LessonDraft d;
  d.id = "built-test";
  d.title = en("Built in the app");
  State s = default_state();
  d.steps.push_back(capture_step(s, {}));
  d.steps.back().text = en("First look.");
  REQUIRE(apply_state_json(s, json{{"d_k", 16}, {"scale", false}, {"panels", {{"heatmap", true}}}}).empty());
  d.steps.push_back(capture_step(s, {"scale"}));
  d.steps.back().text = en("Unscaled at d_k 16.");
  REQUIRE(apply_state_json(s, json{{"temperature", 0.5}}).empty());
  DraftStep q = capture_step(s, {});
  q.text = en("Cooler.");
  q.ask = DraftStep::Ask::Choice;
  q.question = en("Peakier or flatter?");
  q.choices = {{en("Peakier"), {}}, {en("Flatter"), en("Dividing by less than 1 sharpens.")}};
  q.answer = 0;
  q.hint = en("Temperature divides the scores.");
  q.explain = en("Peakier: max {max_weight}.");
  d.steps.push_back(q);
  return d;
}

Lesson checked(const LessonDraft& d) {
  Lesson l;
  const std::string err = check_lesson_text(draft_lesson_text(d), l);
  INFO(err);
  REQUIRE(err.empty());
  return l;
}
}  // namespace

TEST_CASE("a recorded view keeps what differs from its preset, the open panels and the locks") {
  State s = default_state();
  REQUIRE(apply_state_json(s, json{{"d_k", 16}, {"panels", {{"heatmap", true}, {"share", true}}}}).empty());
  const DraftStep step = capture_step(s, {"d_k"});
  CHECK(step.state.value("d_k", 0) == 16);
  CHECK(!step.state.contains("panels"));
  CHECK(!step.state.contains("lang"));
  CHECK(std::find(step.panels.begin(), step.panels.end(), "heatmap") != step.panels.end());
  CHECK(std::find(step.panels.begin(), step.panels.end(), "share") == step.panels.end());
  CHECK(step.lock == std::vector<std::string>{"d_k"});
  // Applying the step's state to a fresh state gives the same view.
  State again = default_state();
  REQUIRE(apply_state_json(again, json{{"temperature", 3}}).empty());
  REQUIRE(apply_state_json(again, step.state).empty());
  CHECK(state_to_json(again)["d_k"] == 16);
  CHECK(state_to_json(again)["temperature"] == state_to_json(s)["temperature"]);
}

TEST_CASE("a built lesson passes the validator and plays the recorded states") {
  const LessonDraft d = three_steps();
  const Lesson l = checked(d);
  REQUIRE(l.steps.size() == 3);
  CHECK(l.steps[1].lock == std::vector<std::string>{"scale"});
  CHECK(l.steps[1].state.value("d_k", 0) == 16);
  CHECK(l.steps[2].task.kind == Task::Kind::Predict);
  CHECK(l.steps[2].task.answer == 0);
  CHECK(l.steps[2].task.feedback.size() == 2);
  CHECK(l.texts.at(l.steps[0].text).en == "First look.");
}

TEST_CASE("steps reorder and delete") {
  LessonDraft d = three_steps();
  CHECK_FALSE(move_step(d, 0, -1));
  CHECK_FALSE(move_step(d, 2, +1));
  REQUIRE(move_step(d, 2, -1));
  CHECK(d.steps[1].text.en == "Cooler.");
  CHECK(d.steps[2].text.en == "Unscaled at d_k 16.");
  const Lesson moved = checked(d);
  CHECK(moved.steps[1].task.kind == Task::Kind::Predict);
  REQUIRE(delete_step(d, 0));
  CHECK_FALSE(delete_step(d, 5));
  CHECK(d.steps.size() == 2);
  CHECK(d.steps[0].text.en == "Cooler.");
  checked(d);
}

TEST_CASE("an invalid draft gets the validator's message") {
  LessonDraft d = three_steps();
  CHECK(check_draft(LessonDraft{}) == "the lesson has no steps yet");
  d.steps[1].text = DraftText{};
  Lesson l;
  const std::string expected = check_lesson_text(draft_lesson_text(d), l);
  CHECK(!expected.empty());
  CHECK(check_draft(d) == expected);
  CHECK(expected.find("step 2") != std::string::npos);
  d = three_steps();
  d.steps[2].ask = DraftStep::Ask::Number;
  d.steps[2].tolerance = -1;
  CHECK(check_draft(d).find("tolerance") != std::string::npos);
  d = three_steps();
  d.id = "Not An Id";
  CHECK(check_draft(d).find("id") != std::string::npos);
}

TEST_CASE("a text typed in one language is kept for both") {
  LessonDraft d = three_steps();
  d.steps[0].text = DraftText{"", "Pehli nazar."};
  const Lesson l = checked(d);
  CHECK(l.texts.at(l.steps[0].text).hi_latn == "Pehli nazar.");
  CHECK(!l.warnings.empty());
}

TEST_CASE("a draft survives its own file: save, read back, save again") {
  const LessonDraft d = three_steps();
  LessonDraft back;
  REQUIRE(draft_from_json(draft_to_lesson_json(d), back).empty());
  CHECK(draft_lesson_text(back) == draft_lesson_text(d));
  // An unfinished draft (no texts yet) is kept as it is.
  LessonDraft rough = d;
  rough.steps[0].text = DraftText{};
  REQUIRE(draft_from_json(draft_to_lesson_json(rough), back).empty());
  CHECK(back.steps.size() == 3);
  CHECK(back.steps[0].text.empty());
  CHECK(draft_from_json(json{{"id", "x"}}, back) != "");
}

TEST_CASE("a lesson link carries the lesson, and says when it would be too long") {
  const LessonDraft d = three_steps();
  std::string link;
  REQUIRE(lesson_link("https://example.org/play/", d, link).empty());
  CHECK(link.rfind("https://example.org/play/#lesson=1.", 0) == 0);
  CHECK(link.size() <= kMaxLessonLinkChars);
  REQUIRE(is_lesson_link(link));
  CHECK_FALSE(is_lesson_link("#s=1.abc"));
  std::string text;
  REQUIRE(decode_lesson_link(link, text).empty());
  CHECK(json::parse(text) == draft_to_lesson_json(d));
  LessonDraft big = d;
  uint64_t x = 17;  // letters that do not compress away: a teacher's long texts
  for (int i = 0; i < 8; ++i) {
    std::string noise;
    for (int k = 0; k < 1900; ++k) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      noise += static_cast<char>('a' + (x >> 33) % 26);
    }
    big.steps.push_back(d.steps[0]);
    big.steps.back().text = en(noise);
  }
  const std::string err = lesson_link("https://example.org/", big, link);
  CHECK(err.find("characters") != std::string::npos);
  CHECK(link.empty());
}

TEST_CASE("a step's LMS record grows with the view it shows") {
  LessonDraft d = three_steps();
  CHECK(scorm_record_chars(d, 0) < kScorm12SuspendChars);
  CHECK(scorm_record_chars(d, 2) > scorm_record_chars(d, 0));
}
