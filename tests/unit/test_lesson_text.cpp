// test_lesson_text.cpp — every lesson text the same on every surface, true of the numbers it quotes, in every state a
// learner reaches: the renderer (app/lesson/lesson_text.h) and the lesson verifier (app/lesson/lesson_verify.h).
#include <catch2/catch.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "app/a11y.h"
#include "app/app.h"
#include "app/base/strings.h"
#include "app/describe/summary.h"
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_builder.h"
#include "app/lesson/lesson_run.h"
#include "app/lesson/lesson_text.h"
#include "app/lesson/lesson_verify.h"
#include "app/state/state.h"
#include "app/state/state_json.h"

using namespace attn;
using nlohmann::json;

namespace {
void set(App& app, const json& partial) {
  REQUIRE(apply_state_json(app.state, partial) == "");
  app.tick();
}

// The number printed right after `label` in `text` ("largest weight 0.985" → 0.985).
double number_after(const std::string& text, const std::string& label) {
  const size_t at = text.find(label);
  REQUIRE(at != std::string::npos);
  return std::stod(text.substr(at + label.size()));
}

std::string dom_text(const App& app, const char* field) {
  const json l = a11y_description(app)["lesson"];
  return l.is_object() && l.contains(field) ? l[field].get<std::string>() : std::string();
}
}  // namespace

TEST_CASE("the verifier passes every compiled-in lesson in both languages, and says how much it walked",
          "[lessons][verify]") {
  int states = 0, texts = 0, claims = 0;
  for (Lang lang : languages())
    for (const Lesson& l : lessons()) {
      const LessonVerifyReport r = verify_lesson(l, lang);
      for (const std::string& f : r.failures) FAIL_CHECK(f);
      CHECK(r.states > 2 * static_cast<int>(l.steps.size()));  // every step's entry, answer and moves at least
      states += r.states, texts += r.texts, claims += r.claims;
    }
  std::cout << "lesson verifier: " << lessons().size() << " lessons × " << languages().size() << " languages, "
            << states << " states visited, " << texts << " texts checked, " << claims << " claims checked\n";
  CHECK(claims > 0);
}

TEST_CASE("a done goal's explanation quotes the moment it was met; dragging back is said, never shown as now",
          "[lessons][verify]") {
  App app;
  REQUIRE(start_lesson(app, "why-sqrt-dk", 4) == "");
  app.tick();
  set(app, {{"d_k", 1024}});
  REQUIRE(app.step_progress.goal_met);
  const StepTexts met = render_step(app);
  const double at_goal = number_after(met.explain, "largest weight ");
  CHECK(at_goal > 0.95);
  CHECK(met.explain_since.empty());
  // The learner drags on, back to a small d_k: the row is no longer saturated.
  set(app, {{"d_k", 3}});
  REQUIRE(live_values(app).at("max_weight") < 0.95);
  const StepTexts after = render_step(app);
  CHECK(after.verdict == tr(Lang::En, "lesson.ui.done"));
  CHECK(number_after(after.explain, "largest weight ") == Approx(at_goal));  // the quoted numbers are the goal's
  CHECK_THAT(after.explain_since, Catch::Contains("d_k 1024 → 3"));
  CHECK(after.hint.empty());  // the live coaching line is for before the goal
  // The parallel DOM and the live region say exactly what the canvas draws.
  CHECK(dom_text(app, "explain") == after.explain);
  CHECK(dom_text(app, "explain_since") == after.explain_since);
  CHECK(dom_text(app, "verdict") == after.verdict);
}

TEST_CASE("a step's text keeps the values it was written for after the reveal changes the state", "[lessons][verify]") {
  App app;
  REQUIRE(start_lesson(app, "entropy", 2) == "");
  app.tick();
  const std::string before = render_step(app).text;
  CHECK_THAT(before, Catch::StartsWith("Temperature 1000:"));
  const Task& t = open_step(app)->task;
  REQUIRE(answer_choice(app, t.answer));  // the reveal sets temperature 0.05: the row is one-hot
  app.tick();
  REQUIRE(app.state.temperature == Approx(0.05));
  const StepTexts after = render_step(app);
  CHECK(after.text == before);  // "as flat as it gets" with the flat row's entropy, not the one-hot row's
  CHECK(number_after(after.text, "H = ") > 1.7);
  CHECK_THAT(after.text_since, Catch::Contains("temperature 1000 → 0.05"));
  // The explanation is the after-reveal one, quoting the one-hot row.
  CHECK_THAT(after.explain, Catch::Contains("H = 0") || Catch::Contains("≈ 0"));
  CHECK(dom_text(app, "text") == after.text);
}

TEST_CASE("every step's words reach the parallel DOM filled in and the same as the canvas's, in both languages",
          "[lessons][verify]") {
  int steps = 0;
  for (Lang lang : languages())
    for (const Lesson& l : lessons()) {
      App app;
      app.state.lang = lang;
      REQUIRE(start_lesson(app, l.id, 1) == "");
      for (int k = 1; k <= static_cast<int>(l.steps.size()); ++k, ++steps) {
        INFO(l.id << " step " << k << " " << lang_code(lang));
        app.tick();
        const Task& t = open_step(app)->task;
        if (t.kind == Task::Kind::Predict && !t.choices.empty())
          answer_choice(app, t.answer == 0 ? 1 : 0);  // a wrong answer first: its feedback is said too
        for (int pass = 0; pass < 2; ++pass) {
          const StepTexts r = render_step(app);
          const json d = a11y_description(app)["lesson"];
          for (const char* field : {"text", "question", "feedback", "explain", "hint", "verdict"}) {
            const std::string dom = d.contains(field) ? d[field].get<std::string>() : std::string();
            CHECK(placeholders(dom).empty());
            INFO(field << ": " << dom);
            CHECK(dom.find("lesson.") != 0);
          }
          CHECK(d.value("text", "") == r.text);
          CHECK(d.value("question", "") == r.question);
          CHECK(d.value("explain", "") == r.explain);
          if (t.kind == Task::Kind::Predict) {
            if (t.choices.empty())
              answer_number(app, *t.number);
            else
              answer_choice(app, t.answer);
          } else if (t.kind == Task::Kind::Do) {
            set(app, t.solution);
          }
          app.tick();
        }
        REQUIRE(next_step(app));
      }
    }
  CHECK(steps > 140);
}

TEST_CASE("a done do task's explanation reaches the parallel DOM", "[lessons][verify]") {
  App app;
  REQUIRE(start_lesson(app, "softmax", 5) == "");
  app.tick();
  REQUIRE(open_step(app)->task.kind == Task::Kind::Do);
  set(app, open_step(app)->task.solution);
  REQUIRE(app.step_progress.goal_met);
  CHECK_FALSE(dom_text(app, "explain").empty());
  CHECK(dom_text(app, "verdict") == tr(Lang::En, "lesson.ui.done"));
}

TEST_CASE("the weights a question asks are not read out before it is answered", "[lessons][verify]") {
  App app;
  REQUIRE(start_lesson(app, "softmax", 2) == "");
  app.tick();
  const Task& t = open_step(app)->task;
  REQUIRE(std::find(t.asks.begin(), t.asks.end(), "weights") != t.asks.end());
  const HeadResult& h = app.result.core.first_head();
  const int row = app.state.selected_row;
  const std::string key1 = format_fixed(100.0 * h.weights(row, 0), 1) + "%";
  const std::string before = screen_summary(app, withheld_facts(app));
  CHECK(before.find(key1) == std::string::npos);
  CHECK(a11y_description(app)["weights"].contains("withheld"));
  if (t.choices.empty())
    REQUIRE(answer_number(app, *t.number));
  else
    REQUIRE(answer_choice(app, t.answer));
  app.tick();
  const HeadResult& h2 = app.result.core.first_head();
  const std::string now = format_fixed(100.0 * h2.weights(app.state.selected_row, 0), 1) + "%";
  CHECK(screen_summary(app, withheld_facts(app)).find(now) != std::string::npos);
  CHECK(a11y_description(app)["weights"].contains("weights"));
}

TEST_CASE("the accessible weights follow the app's saturation rule: one visible key is not saturation",
          "[lessons][verify]") {
  App app;
  set(app, {{"preset", "default"}, {"mask", "causal"}, {"selected_row", 0}});
  const json w = a11y_description(app)["weights"];
  CHECK(w["saturated"] == false);
  CHECK(w["saturation"] == tr(Lang::En, "summary.single_key"));
}

TEST_CASE("a float32 remainder is printed as about zero, not as three digits of noise", "[lessons][verify]") {
  CHECK(format_live_value(Lang::En, 3.1e-07) == tr(Lang::En, "lesson.ui.about_zero"));
  CHECK(format_live_value(Lang::En, 0) == "0");
  CHECK(format_live_value(Lang::En, 0.413) == "0.413");
}

namespace {
json claiming_lesson(double than) {
  return json::parse(R"({"id": "claims-test", "title": {"en": "Claims", "hi-Latn": "Claims"},
    "steps": [{"text": {"en": "Unscaled.", "hi-Latn": "Unscaled."},
               "state": {"preset": "default", "d_k": 4, "scale": false, "selected_row": 1},
               "panels": ["controls"], "lock": ["scale", "d_k"],
               "task": {"kind": "predict", "id": "up", "question": {"en": "Up or down?", "hi-Latn": "Upar ya neeche?"},
                        "asks": ["weights"], "answer": 0,
                        "choices": [{"en": "Up", "hi-Latn": "Upar"}, {"en": "Down", "hi-Latn": "Neeche"}],
                        "feedback": ["", {"en": "No.", "hi-Latn": "Nahi."}], "reveal": {"d_k": 400},
                        "claims": [{"value": "max_weight", "op": ">", "than": 0}],
                        "explain": {"en": "Up: {max_weight}.", "hi-Latn": "Upar: {max_weight}."}}}]})")
      .patch(json::array({{{"op", "replace"}, {"path", "/steps/0/task/claims/0/than"}, {"value", than}}}));
}
}  // namespace

TEST_CASE("a teacher's lesson whose explanation claims what its numbers do not show is refused, naming where",
          "[lessons][verify]") {
  Lesson ok, bad;
  REQUIRE(check_lesson_text(claiming_lesson(0.5).dump(), ok) == "");
  REQUIRE(check_lesson_text(claiming_lesson(0.999).dump(), bad) == "");  // valid as a file…
  CHECK(verify_lesson(ok, Lang::En).ok());
  const LessonVerifyReport r = verify_lesson(bad, Lang::En);  // … false in the states a learner reaches
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.failures.front(), Catch::StartsWith("claims-test step 1 (\"up\") [en], after ") &&
                                     Catch::Contains("claims max_weight > 0.999") && Catch::Contains("Up: 0."));
  // Loading it in the app is refused with the same message, and nothing is added.
  App app;
  CHECK(open_lesson_file(app, claiming_lesson(0.999).dump(), "claims.json") == r.failures.front());
  CHECK(find_lesson("claims-test") == nullptr);
  CHECK(open_lesson_file(app, claiming_lesson(0.5).dump(), "claims.json") == "");
}

TEST_CASE("a text that compares the numbers it quotes without declaring claims is refused; [] declares none",
          "[lessons][verify]") {
  json lesson = json::parse(R"({"id": "declare-test", "title": {"en": "D", "hi-Latn": "D"},
    "steps": [{"text": {"en": "The two weights {row_weight_1} and {row_weight_2} are equal.",
                        "hi-Latn": "Do weights {row_weight_1} aur {row_weight_2} barabar hain."},
               "state": {"preset": "default", "selected_row": 0}, "panels": ["controls"]}]})");
  Lesson l;
  REQUIRE(check_lesson_text(lesson.dump(), l) == "");
  const LessonVerifyReport r = verify_lesson(l, Lang::En);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.failures.front(), Catch::Contains("comparing words (\"equal\") and declares no claims"));
  App app;
  CHECK_THAT(open_lesson_file(app, lesson.dump(), "declare.json"), Catch::Contains("declares no claims"));
  // Declared: a claim the numbers must show (here false: refused for that), or [] (the author says none).
  lesson["steps"][0]["claims"] = json::array({{{"value", "row_weight_1"}, {"op", "=="}, {"than", "row_weight_2"}}});
  REQUIRE(check_lesson_text(lesson.dump(), l) == "");
  CHECK_THAT(verify_lesson(l, Lang::En).failures.front(), Catch::Contains("claims row_weight_1 == row_weight_2"));
  lesson["steps"][0]["claims"] = json::array();
  REQUIRE(check_lesson_text(lesson.dump(), l) == "");
  CHECK(verify_lesson(l, Lang::En).ok());
}

TEST_CASE("the builder refuses a draft that quotes the answer before the question is answered", "[lessons][verify]") {
  App app;
  set(app, {{"preset", "default"}, {"d_k", 4}, {"scale", false}, {"selected_row", 1}});
  LessonDraft d;
  d.id = "quotes-answer";
  d.title.in(Lang::En) = "Quotes", d.title.in(Lang::HiLatn) = "Quotes";
  DraftStep s = capture_step(app.state, {});
  s.text.in(Lang::En) = "The largest weight is {max_weight}.";
  s.text.in(Lang::HiLatn) = "Sabse bada weight {max_weight} hai.";
  s.ask = DraftStep::Ask::Number;
  s.question.in(Lang::En) = "What is the largest weight?", s.question.in(Lang::HiLatn) = "Sabse bada weight kya hai?";
  s.number = live_values(app).at("max_weight");
  s.tolerance = 0.01;
  s.explain.in(Lang::En) = "It is {max_weight}.", s.explain.in(Lang::HiLatn) = "Ye {max_weight} hai.";
  d.steps.push_back(s);
  set_ask(d, 0, DraftStep::Ask::Number);  // as the builder's question kinds do: the question gets its id
  const std::string problem = check_draft(d);
  CHECK_THAT(problem, Catch::Contains("quotes {max_weight}") && Catch::Contains("before it is answered"));
  d.steps[0].text.in(Lang::En) = "Look at row 2.", d.steps[0].text.in(Lang::HiLatn) = "Row 2 dekho.";
  CHECK(check_draft(d) == "");
}

TEST_CASE("the temperature's DOM twin spans the slider's range, so one arrow press is a small step",
          "[lessons][verify]") {
  App app;
  app.item_panels["temperature"] = "controls";  // as the controls panel records it when it draws the slider
  app.item_labels["temperature"] = "controls.temperature";
  set(app, {{"temperature", 1.0}});
  const auto temperature_twin = [&]() {
    const json d = a11y_description(app);
    for (const json& p : d["panels"])
      for (const json& c : p["controls"])
        if (c.value("id", "") == "temperature") return c;
    return json();
  };
  const json t = temperature_twin();
  REQUIRE(t.is_object());
  CHECK(t["max"] == kTemperatureSliderMax);
  CHECK(t["step"] == 0.05);
  CHECK(t["value"] == 1.0);
  set(app, {{"temperature", 1000.0}});  // a lesson's flat row: the range reaches it
  CHECK(temperature_twin()["max"] == 1000.0);
}
