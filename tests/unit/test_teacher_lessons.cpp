// test_teacher_lessons.cpp — a teacher's own lesson file: texts written inline in both languages (or one,
// shown in its place), one clear message naming the step and the field for each kind of mistake, nothing
// applied when a file is refused, and a loaded lesson followed exactly as a built-in one.
#include <algorithm>
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "app/app.h"
#include "app/base/strings.h"
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_run.h"
#include "app/lesson/lesson_text.h"

using namespace attn;
using nlohmann::json;

namespace {
// Three steps, one prediction, every text inline: what the example in docs/lessons.md looks like.
json teacher_lesson() {
  return json::parse(R"({
    "id": "teacher-test",
    "title": {"en": "Peaky weights", "hi-Latn": "Peaky weights wala lesson"},
    "steps": [
      {"id": "look", "text": {"en": "Max weight {max_weight}.", "hi-Latn": "Sabse bada weight {max_weight}."},
       "state": {"preset": "default", "d_k": 4, "scale": false, "temperature": 1, "selected_row": 1},
       "panels": ["controls", "heatmap"], "lock": ["scale"]},
      {"id": "predict", "text": {"en": "Predict.", "hi-Latn": "Prediction karo."},
       "state": {"preset": "default", "d_k": 4, "scale": false, "temperature": 1, "selected_row": 1},
       "panels": ["controls", "heatmap"], "lock": ["scale", "d_k"],
       "task": {"kind": "predict", "id": "max-weight-at-400",
                "question": {"en": "Up or down?", "hi-Latn": "Upar ya neeche?"}, "asks": ["dk_sweep"],
                "choices": [{"en": "Up", "hi-Latn": "Upar"}, {"en": "Down", "hi-Latn": "Neeche"}], "answer": 0,
                "feedback": ["", {"en": "A sum is not a mean.", "hi-Latn": "Sum mean nahi hota."}],
                "reveal": {"d_k": 400},
                "explain": {"en": "Up: {max_weight}.", "hi-Latn": "Upar: {max_weight}."}}},
      {"text": {"en": "Done.", "hi-Latn": "Ho gaya."}}
    ]})");
}

std::string check(const json& j) {
  Lesson l;
  return check_lesson_text(j.dump(), l);
}
}  // namespace

TEST_CASE("a teacher's lesson with inline texts passes and counts its parts", "[lessons][teacher]") {
  Lesson l;
  REQUIRE(check_lesson_text(teacher_lesson().dump(), l) == "");
  CHECK(l.steps.size() == 3);
  CHECK(l.steps[1].task.kind == Task::Kind::Predict);
  CHECK(l.steps[1].task.choices.size() == 2);
  CHECK(l.warnings.empty());
  CHECK(l.texts.count(l.steps[1].task.question) == 1);
  CHECK(l.texts.at(l.steps[1].task.feedback[1]).in(Lang::HiLatn) == "Sum mean nahi hota.");
}

TEST_CASE("each kind of mistake gets one message naming the step and the field", "[lessons][teacher]") {
  const auto broken = [](auto&& change) {
    json j = teacher_lesson();
    change(j, j["steps"]);
    return check(j);
  };
  CHECK(broken([](json&, json& s) { s[0]["state"]["d_kk"] = 3; }) ==
        "step 1 (\"look\"): state: unknown state key \"d_kk\"");
  CHECK(broken([](json&, json& s) { s[0]["panels"] = {"heatmapp"}; }) ==
        "step 1 (\"look\"): panels: unknown panel id \"heatmapp\"");
  CHECK(broken([](json&, json& s) { s[0]["lock"] = {"dk"}; }) == "step 1 (\"look\"): lock: unknown control id \"dk\"");
  CHECK_THAT(broken([](json&, json& s) { s[1]["task"].erase("answer"); }),
             Catch::StartsWith("step 2 (\"predict\"): task.answer is missing"));
  CHECK_THAT(broken([](json&, json& s) { s[1]["task"]["answer"] = 2; }),
             Catch::StartsWith("step 2 (\"predict\"): task.answer 2 is out of range"));
  CHECK_THAT(broken([](json&, json& s) {
               json& t = s[1]["task"];
               t.erase("choices"), t.erase("answer"), t.erase("feedback"), t["number"] = 0.5;
             }),
             Catch::StartsWith("step 2 (\"predict\"): task.tolerance is missing"));
  CHECK_THAT(broken([](json&, json& s) { s[2]["text"]["en"] = std::string(2001, 'x'); }),
             Catch::StartsWith("step 3: text.en is 2001 bytes long"));
  CHECK_THAT(broken([](json& j, json& s) {
               for (int i = 0; i < 62; ++i) j["steps"].push_back(s[2]);
             }),
             Catch::StartsWith("steps: 65 steps; a lesson has at most 64"));
  CHECK_THAT(broken([](json&, json& s) { s[2]["text"] = 3; }),
             Catch::StartsWith("step 3: text must be a catalog key or a text"));
  CHECK_THAT(broken([](json&, json& s) {
               s[1]["task"]["choices"][1] = {{"de", "Runter"}};
             }),
             Catch::StartsWith("step 2 (\"predict\"): task.choices[1]: unknown language \"de\""));
  CHECK(broken([](json&, json& s) { s[1]["task"]["explain"]["en"] = "Up: {max_wieght}."; }) ==
        "step 2 (\"predict\"): task.explain quotes an unknown live value {max_wieght}");
  Lesson l;
  CHECK(check_lesson_text("{\n  \"id\": \"x\",\n  \"steps\": [}\n", l) == "JSON syntax error at line 3, column 13");
}

TEST_CASE("a text in one language is shown in both, with a warning", "[lessons][teacher]") {
  json j = teacher_lesson();
  j["id"] = "teacher-one-language";
  j["steps"][2]["text"] = {{"hi-Latn", "Sirf Hinglish."}};
  App app;
  REQUIRE(open_lesson_file(app, j.dump(), "one.json") == "");
  const Lesson* l = open_lesson(app);
  REQUIRE(l);
  REQUIRE(l->warnings.size() == 1);
  CHECK(l->warnings[0] == "step3.text: no \"en\" text; the \"hi-Latn\" text is shown");
  CHECK(std::string(tr(Lang::En, l->steps[2].text.c_str())) == "Sirf Hinglish.");
  CHECK(std::string(tr(Lang::HiLatn, l->steps[2].text.c_str())) == "Sirf Hinglish.");
}

TEST_CASE("a refused lesson changes nothing; the learner keeps the open lesson", "[lessons][teacher]") {
  App app;
  REQUIRE(start_lesson(app, "why-sqrt-dk", 2) == "");
  const int d_k = app.state.d_k;
  json bad = teacher_lesson();
  bad["id"] = "teacher-refused";
  bad["steps"][1]["task"]["answer"] = 7;
  app.state.lang = Lang::HiLatn;
  const std::string err = open_lesson_file(app, bad.dump(), "bad.json");
  CHECK_THAT(err, Catch::StartsWith("step 2 (\"predict\"): task.answer 7 is out of range"));
  CHECK(app.state.lesson.id == "why-sqrt-dk");
  CHECK(app.state.lesson.step == 2);
  CHECK(app.state.d_k == d_k);
  CHECK(find_lesson("teacher-refused") == nullptr);
  CHECK(std::string(tr(Lang::En, "inline:teacher-refused:title")) == "inline:teacher-refused:title");  // no text added
  CHECK_THAT(app.status, Catch::StartsWith("Lesson bad.json nahi khul saka: step 2"));
  json builtin = teacher_lesson();
  builtin["id"] = "why-sqrt-dk";
  CHECK_THAT(open_lesson_file(app, builtin.dump(), "x.json"), Catch::Contains("is a built-in lesson's"));
  CHECK(app.state.lesson.id == "why-sqrt-dk");
}

TEST_CASE("a loaded lesson runs as a built-in one: steps, prediction, reveal, progress", "[lessons][teacher]") {
  App app;
  REQUIRE(open_lesson_file(app, teacher_lesson().dump(), "my-lesson.json") == "");
  CHECK(app.state.lesson.id == "teacher-test");
  CHECK(app.state.lesson.step == 1);
  CHECK(app.state.panels.lesson);
  CHECK(app.lesson_locks == std::vector<std::string>{"scale"});
  CHECK_THAT(app.status, Catch::Contains("Peaky weights"));
  CHECK_THAT(render_step(app).text, Catch::Matches("Max weight 0\\.[0-9]+\\."));
  REQUIRE(next_step(app));
  CHECK_FALSE(next_step(app));         // waits for the answer
  CHECK_FALSE(answer_choice(app, 1));  // "Down": told why, in the learner's language
  app.state.lang = Lang::HiLatn;
  CHECK(render_step(app).feedback == "Sum mean nahi hota.");
  CHECK(app.state.d_k == 4);
  CHECK(answer_choice(app, 0));
  CHECK(app.state.d_k == 400);  // the reveal
  REQUIRE(next_step(app));
  REQUIRE(next_step(app));  // the last step: complete
  CHECK(app.state.lesson.id.empty());
  CHECK(progress_json(app)["teacher-test"]["completed"] == true);
  // Loaded again (a corrected file): replaced under its id, its new texts shown.
  json fixed = teacher_lesson();
  fixed["title"] = {{"en", "Peaky weights, corrected"}, {"hi-Latn", "Sahi kiya hua"}};
  REQUIRE(open_lesson_file(app, fixed.dump(), "my-lesson.json") == "");
  CHECK(std::string(tr(Lang::En, find_lesson("teacher-test")->title.c_str())) == "Peaky weights, corrected");
  // Listed once, after the compiled-in lessons, under its own title and step count (the picker, the parallel DOM).
  const std::vector<LessonEntry> listed = lesson_entries();
  REQUIRE(listed.size() > builtin_lesson_entries().size());
  CHECK(std::count_if(listed.begin(), listed.end(), [](const LessonEntry& e) { return e.id == "teacher-test"; }) == 1);
  const auto mine = std::find_if(listed.begin() + static_cast<long>(builtin_lesson_entries().size()), listed.end(),
                                 [](const LessonEntry& e) { return e.id == "teacher-test"; });
  REQUIRE(mine != listed.end());
  CHECK(std::string(tr(Lang::En, mine->title.c_str())) == "Peaky weights, corrected");
  CHECK(mine->steps == static_cast<int>(find_lesson("teacher-test")->steps.size()));
  CHECK(lesson_listed("teacher-test"));
}

TEST_CASE("a teacher's file is refused in the language asked for: its shape, its ids and its feedback",
          "[lessons][teacher]") {
  const auto broken = [](Lang words, auto&& change) {
    json j = teacher_lesson();
    change(j["steps"]);
    Lesson l;
    return check_lesson_text(j.dump(), l, words);
  };
  // The parser: the JSON shape of each field, named with the part it is in.
  const auto panels_text = [](json& s) { s[0]["panels"] = "heatmap"; };
  CHECK(broken(Lang::HiLatn, panels_text) == "step 1 (\"look\"): panels strings ka array hona chahiye");
  CHECK(broken(Lang::En, panels_text) == "step 1 (\"look\"): panels must be an array of strings");
  const auto no_kind = [](json& s) { s[1]["task"].erase("kind"); };
  CHECK(broken(Lang::HiLatn, no_kind) == "step 2 (\"predict\"): task.kind nahi diya hai");
  CHECK(broken(Lang::En, no_kind) == "step 2 (\"predict\"): task.kind is missing");
  const auto odd_kind = [](json& s) { s[1]["task"]["kind"] = "guess"; };
  CHECK(broken(Lang::HiLatn, odd_kind) == "step 2 (\"predict\"): task.kind \"predict\" ya \"do\" hona chahiye");
  CHECK(broken(Lang::En, odd_kind) == "step 2 (\"predict\"): task.kind must be \"predict\" or \"do\"");
  Lesson l;
  CHECK(check_lesson_text("{\n  \"id\": \"x\",\n  \"steps\": [}\n", l, Lang::HiLatn) ==
        "line 3, column 13 pe JSON syntax error hai");
  // The validator: panel, highlight and lock ids, and a wrong choice's feedback.
  const auto panel_id = [](json& s) { s[0]["panels"] = {"heatmapp"}; };
  CHECK(broken(Lang::HiLatn, panel_id) == "step 1 (\"look\"): panels: \"heatmapp\" koi panel id nahi hai");
  CHECK(broken(Lang::En, panel_id) == "step 1 (\"look\"): panels: unknown panel id \"heatmapp\"");
  CHECK(broken(Lang::HiLatn, [](json& s) { s[0]["highlight"] = "heatmapp"; }) ==
        "step 1 (\"look\"): highlight: \"heatmapp\" koi highlight panel id nahi hai");
  CHECK(broken(Lang::HiLatn, [](json& s) { s[0]["lock"] = {"dk"}; }) ==
        "step 1 (\"look\"): lock: \"dk\" koi control id nahi hai");
  const auto no_feedback = [](json& s) { s[1]["task"]["feedback"][1] = ""; };
  CHECK(broken(Lang::HiLatn, no_feedback) ==
        "step 2 (\"predict\"): task.feedback[1] nahi diya hai (galat choice batati hai ki kaunsi galti hui)");
  CHECK(broken(Lang::En, no_feedback) ==
        "step 2 (\"predict\"): task.feedback[1] is missing (a wrong choice names its slip)");
}
