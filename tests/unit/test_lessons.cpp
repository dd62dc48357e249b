// test_lessons.cpp — every lesson file is valid (its state keys, panels, controls and strings exist), and
// following one behaves as a learner expects: predictions reveal only when right, goals are checked,
// events reach the host, progress is kept; every lesson can be followed to its end in both languages,
// and the numbers each lesson's text relies on hold.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <vector>

#include "app/app.h"
#include "app/base/strings.h"
#include "app/exchange/query_state.h"
#include "app/lesson/lesson_run.h"
#include "app/lesson/lesson_text.h"
#include "app/lesson/lesson_verify.h"
#include "app/state/cross.h"
#include "app/state/registry.h"
#include "app/state/state_json.h"
#include "core/attention/attention.h"

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

// The lists (picker, menu, parallel DOM, schema, kept progress) read each file's head only: they must name the same
// lessons, in the same order, with the same titles, summaries and step counts as the parsed lessons.
TEST_CASE("the lesson lists read from the files' heads agree with the parsed lessons", "[lessons]") {
  const std::vector<LessonEntry>& entries = builtin_lesson_entries();
  REQUIRE(entries.size() == lessons().size());
  for (size_t i = 0; i < entries.size(); ++i) {
    const Lesson& l = lessons()[i];
    INFO(l.id);
    CHECK(entries[i].id == l.id);
    CHECK(entries[i].title == l.title);
    CHECK(entries[i].summary == l.summary);
    CHECK(entries[i].steps == static_cast<int>(l.steps.size()));
    CHECK(lesson_listed(l.id));
  }
  CHECK_FALSE(lesson_listed("no-such-lesson"));
  CHECK(lesson_entries().size() == entries.size() + added_lessons_list().size());
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
      R"("task": {"kind": "predict", "id": "q", "question": "no.such.key", "asks": [], "choices": ["lesson.choice.up"], "answer": 0})",
      "missing in the en catalog");
  check(
      R"("task": {"kind": "predict", "id": "q", "question": "lesson.choice.up", "asks": [], "choices": ["lesson.choice.up"], "answer": 3})",
      "task.answer 3 is out of range");
  check(R"("task": {"kind": "predict", "id": "q", "question": "lesson.choice.up", "number": 3})", "\"asks\"");
  check(
      R"("task": {"kind": "predict", "id": "q", "question": "lesson.choice.up", "asks": [], "choices": ["lesson.choice.up", "lesson.choice.down"], "answer": 0})",
      "feedback needs one entry per choice");
  check(
      R"("task": {"kind": "predict", "id": "q", "question": "lesson.choice.up", "asks": [], "choices": ["lesson.choice.up", "lesson.choice.down"], "answer": 0, "feedback": ["", ""]})",
      "feedback[1] is missing");
  check(
      R"("panels": ["controls", "variance"], "task": {"kind": "predict", "id": "q", "question": "lesson.choice.up", "asks": ["variance"], "number": 64, "tolerance": 0.5})",
      "the variance panel shows variance before the answer");
  check(
      R"("task": {"kind": "predict", "id": "q", "question": "lesson.choice.up", "asks": ["vibes"], "number": 64, "tolerance": 0.5})",
      "which no panel shows");
  check(
      R"("task": {"kind": "predict", "id": "q", "question": "lesson.choice.up", "asks": [], "number": 64, "tolerance": 0.5, "slips": [{"number": 64.2, "feedback": "lesson.choice.up"}]})",
      "overlaps the right answer");
  check(R"("panels": ["controls"], "highlight": "variance")", "not open in this step");
  check(
      R"("task": {"kind": "do", "id": "q", "question": "lesson.choice.up", "goal": {"value": "nonesuch", "op": ">", "than": 1}})",
      "not a live value");
  Lesson l;
  CHECK_THAT(parse_lesson("{\"id\": 3}", l), Catch::Contains("id must be a string"));
  CHECK_THAT(parse_lesson("[1,2", l), Catch::Contains("JSON syntax error at line 1"));
  CHECK_THAT(parse_lesson("[1,2]", l), Catch::Contains("JSON object"));
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
  CHECK_FALSE(answer_choice(app, 1));  // "down": wrong (the choices are "stays", "down", "up")
  CHECK(app.state.d_k == 4);           // no reveal yet
  CHECK(answer_choice(app, 2));        // "up": right, and the reveal applies d_k = 400
  CHECK(app.state.d_k == 400);
  CHECK(live_values(app).at("max_weight") > before);  // what the answer claims is what the learner sees
  REQUIRE(count_events(app, "answer") == 2);
  CHECK(app.events[app.events.size() - 2]["correct"] == false);
  CHECK(app.events.back()["correct"] == true);
  CHECK(app.events.back()["question"] == "unscaled-max-weight-400");
  // What an LMS records of it: a choice question, the learner's choice and the right one.
  CHECK(app.events.back()["kind"] == "choice");
  CHECK(app.events.back()["given"] == 2);
  CHECK(app.events.back()["correct_response"] == 2);
  REQUIRE(next_step(app));

  CHECK_FALSE(answer_number(app, 8));  // √64, a common slip: not the variance
  CHECK(app.events.back()["kind"] == "numeric");
  CHECK(app.events.back()["correct_response"]["number"] == 64.0);
  CHECK(answer_number(app, 64));
  REQUIRE(next_step(app));

  CHECK(app.state.lesson.step == 4);
  app.tick();
  CHECK_FALSE(step_complete(app));  // d_k = 4 unscaled is not saturated
  app.state.d_k = 1024;             // what dragging the slider does
  app.tick();
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

TEST_CASE("a wrong answer is told its own slip; a second miss shows the answer and counts as missed", "[lessons]") {
  App app;
  REQUIRE(start_lesson(app, "why-sqrt-dk", 3) == "");
  CHECK_FALSE(app.state.panels.variance);  // the lab measures Var(q·k): hidden until the answer
  CHECK_FALSE(answer_number(app, 8));      // √64: the standard deviation, not the variance
  CHECK(app.step_progress.feedback == "lesson.why-sqrt-dk.3.slip1");
  CHECK_FALSE(app.step_progress.missed);
  CHECK_FALSE(step_complete(app));
  CHECK_FALSE(app.state.panels.variance);
  CHECK_FALSE(answer_number(app, 3));  // no named slip: the hint is shown
  CHECK(app.step_progress.feedback.empty());
  CHECK(app.step_progress.missed);
  CHECK(step_complete(app));            // Next is allowed: the question counts as missed
  CHECK(app.state.panels.variance);     // and the reveal is applied, as after a right answer
  CHECK_FALSE(answer_number(app, 64));  // a missed question takes no more answers
  CHECK(app.step_progress.attempts == 2);
  REQUIRE(count_events(app, "answer") == 2);
  CHECK(app.events.back()["missed"] == true);
  CHECK(app.events.back()["correct"] == false);

  REQUIRE(go_to_step(app, 2) == "");  // choices: each wrong one names its own misconception
  const Task& t = open_step(app)->task;
  REQUIRE(t.choices.size() == 3);
  std::set<std::string> told;
  for (int c = 0; c < 3; ++c) {
    if (c == t.answer) continue;
    forget_answers(app, "why-sqrt-dk");  // each wrong choice from a fresh step (an answered step opens answered)
    REQUIRE(go_to_step(app, 2) == "");
    CHECK_FALSE(answer_choice(app, c));
    told.insert(app.step_progress.feedback);
    CHECK(std::string(tr(Lang::En, app.step_progress.feedback.c_str())) != app.step_progress.feedback);
  }
  CHECK(told.size() == 2);
  CHECK(answer_choice(app, t.answer));
  CHECK(app.step_progress.feedback.empty());
}

TEST_CASE("the right choice is not always the first, nor always the longest", "[lessons]") {
  std::map<int, int> at;
  int tasks = 0, longest = 0;
  for (const Lesson& l : lessons())
    for (const LessonStep& s : l.steps) {
      const Task& t = s.task;
      if (t.choices.empty()) continue;
      ++tasks;
      ++at[t.answer];
      size_t right = std::string(tr(Lang::En, t.choices[static_cast<size_t>(t.answer)].c_str())).size(), other = 0;
      for (size_t c = 0; c < t.choices.size(); ++c)
        if (static_cast<int>(c) != t.answer)
          other = std::max(other, std::string(tr(Lang::En, t.choices[c].c_str())).size());
      longest += right > other ? 1 : 0;
    }
  REQUIRE(tasks >= 10);
  for (const auto& [index, n] : at) {
    INFO("choice " << index << " is right in " << n << " of " << tasks);
    CHECK(2 * n <= tasks);  // clicking the same place every time gets at most half right
  }
  INFO("the longest choice is right in " << longest << " of " << tasks);
  CHECK(3 * longest <= tasks);
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

// [SECTION] every lesson, walked as a learner -------------------------------------------------------
namespace {
// Every text the step shows now, as every surface shows it (render_step): filled in, never a catalog key.
void check_filled(const App& app) {
  for (const std::string& text : all_texts(render_step(app))) {
    INFO(lang_code(app.state.lang) << ": " << text);
    CHECK(placeholders(text).empty());
    CHECK(text.rfind("lesson.", 0) != 0);
  }
}

void walk_step(App& app, const Lesson& l, int k) {
  const LessonStep& s = l.steps[static_cast<size_t>(k - 1)];
  app.tick();
  check_filled(app);
  const Task& t = s.task;
  if (t.kind == Task::Kind::Predict) {
    CHECK_FALSE(step_complete(app));
    if (t.number) {
      CHECK_FALSE(answer_number(app, *t.number + t.tolerance + 0.05));  // a slip in the second decimal is wrong
      // The right answer, rounded to two decimals as a learner writes it.
      const double typed = std::fabs(*t.number) < 100 ? std::round(*t.number * 100) / 100 : *t.number;
      CHECK(answer_number(app, typed));
    } else {
      CHECK(answer_choice(app, t.answer));
    }
  } else if (t.kind == Task::Kind::Do) {
    CHECK_FALSE(step_complete(app));  // the goal is not met by merely opening the step
    INFO("the do task has no \"solution\" (the state change a learner's drag, click or typing makes)");
    REQUIRE_FALSE(t.solution.empty());
    REQUIRE(apply_state_json(app.state, t.solution) == "");
    app.tick();
  }
  REQUIRE(step_complete(app));
  check_filled(app);  // after the reveal or the learner's change too
  // What the explanation claims ("Up", "equal", "saturated") holds in the state now on screen.
  app.tick();
  const auto values = live_values(app);
  for (const Condition& c : t.claims) {
    INFO("claim: " << c.value << " " << c.op << " " << (c.than_value.empty() ? std::to_string(c.than) : c.than_value)
                   << " — " << c.value << " = " << values.at(c.value)
                   << (c.than_value.empty() ? ""
                                            : ", " + c.than_value + " = " + std::to_string(values.at(c.than_value))));
    CHECK(condition_holds(c, app));
  }
}
}  // namespace

TEST_CASE("every lesson has 4–8 steps, a prediction and its own texts in each language", "[lessons]") {
  REQUIRE(lessons().size() >= 10);
  for (const Lesson& l : lessons()) {
    INFO(l.id);
    CHECK(l.steps.size() >= 4);
    CHECK(l.steps.size() <= 8);
    int predictions = 0;
    for (const LessonStep& s : l.steps) {
      predictions += s.task.kind == Task::Kind::Predict ? 1 : 0;
      INFO(s.text);
      CHECK(std::string(tr(Lang::En, s.text.c_str())) != tr(Lang::HiLatn, s.text.c_str()));  // translated, not copied
      if (s.task.kind == Task::Kind::Predict) CHECK_FALSE(s.task.explain.empty());           // the reveal says why
    }
    CHECK(predictions >= 1);
  }
}

TEST_CASE("every lesson can be followed to its end in both languages, with every text filled in", "[lessons]") {
  for (Lang lang : languages()) {
    for (const Lesson& l : lessons()) {
      INFO(l.id << " in " << lang_code(lang));
      App app;
      app.state.lang = lang;
      REQUIRE(start_lesson(app, l.id, 1) == "");
      for (int k = 1; k <= static_cast<int>(l.steps.size()); ++k) {
        INFO("step " << k);
        REQUIRE(app.state.lesson.id == l.id);
        REQUIRE(app.state.lesson.step == k);
        CHECK(app.state.lang == lang);  // a step that picks a preset keeps the learner's language
        walk_step(app, l, k);
        REQUIRE(next_step(app));
      }
      CHECK(app.state.lesson.id.empty());
      CHECK(progress_json(app)[l.id]["completed"] == true);
    }
  }
}

namespace {
// Live values that echo what the learner set (row 1, d_k = 4) rather than a computed result.
bool is_setting(const std::string& name) {
  for (const char* s : {"row", "d_k", "sqrt_d_k", "d_k_total", "heads", "n_tokens", "temperature", "scale", "cross_t"})
    if (name == s) return true;
  return false;
}
}  // namespace

TEST_CASE("no prediction shows its answer before it is answered", "[lessons]") {
  for (const Lesson& l : lessons()) {
    App app;
    REQUIRE(start_lesson(app, l.id, 1) == "");
    for (int k = 1; k <= static_cast<int>(l.steps.size()); ++k) {
      const LessonStep& s = l.steps[static_cast<size_t>(k - 1)];
      const Task& t = s.task;
      INFO(l.id << " step " << k);
      app.tick();
      if (t.kind == Task::Kind::Predict) {
        // The lesson file declares what the question asks about, and no open panel shows it.
        for (const std::string& fact : t.asks)
          for (const PanelInfo& p : panel_table())
            if (app.state.panels[p.id] && panel_shows(p, fact)) FAIL_CHECK("the " << p.key << " panel shows " << fact);
        // No live value quoted before the answer (text, question, hint, feedback) is the number asked for.
        if (t.number) {
          std::vector<std::string> keys = {s.text, t.question, t.hint};
          for (const Task::Slip& slip : t.slips) keys.push_back(slip.feedback);
          const auto values = live_values(app);
          for (Lang lang : languages())
            for (const std::string& key : keys)
              for (const std::string& name : placeholders(tr(lang, key.c_str())))
                if (!is_setting(name) && std::fabs(values.at(name) - *t.number) <= std::max(t.tolerance, 1e-9))
                  FAIL_CHECK(key << " quotes {" << name << "} = " << values.at(name) << ", the answer");
        }
      }
      walk_step(app, l, k);
      REQUIRE(next_step(app));
    }
  }
}

// [SECTION] the numbers each lesson's text relies on -----------------------------------------------
namespace {
std::vector<double> softmax_d(const std::vector<double>& z) {
  double mx = z[0], sum = 0;
  for (double v : z) mx = std::max(mx, v);
  std::vector<double> e;
  for (double v : z) {
    e.push_back(std::exp(v - mx));
    sum += e.back();
  }
  for (double& v : e) v /= sum;
  return e;
}

App app_with(const char* state) {
  App app;
  INFO(state);
  REQUIRE(apply_state_text(app.state, state) == "");
  app.update();
  REQUIRE(app.result.error.empty());
  return app;
}

// How many different keys are some row's largest weight.
int favourite_keys(const Mat& W) {
  std::set<Eigen::Index> keys;
  for (Eigen::Index i = 0; i < W.rows(); ++i) {
    Eigen::Index best = 0;
    W.row(i).maxCoeff(&best);
    keys.insert(best);
  }
  return static_cast<int>(keys.size());
}
}  // namespace

TEST_CASE("lesson qkv: without projections scores are symmetric and each word's highest score is its own",
          "[lessons]") {
  App app = app_with(R"({"preset": "cat-sat-mat"})");
  const Mat& S = app.result.core.main.scores;
  for (Eigen::Index i = 0; i < S.rows(); ++i)
    for (Eigen::Index j = 0; j < S.cols(); ++j) {
      CHECK(S(i, j) == Approx(S(j, i)).margin(1e-7));
      CHECK(S(i, i) >= S(i, j) - 1e-7f);  // equal lengths: a vector matches itself best
    }
  CHECK(live_values(app).at("score_asymmetry") < 1e-6);
  App seeded = app_with(R"({"preset": "default", "d_k": 4})");
  CHECK(live_values(seeded).at("score_asymmetry") > 0.1);  // W_Q ≠ W_K: q_i·k_j ≠ q_j·k_i
  CHECK(seeded.result.core.main.Q.size() == 24);           // the step's answer: 6 tokens × d_k = 4
  App wide = app_with(R"({"preset": "default", "d_k": 16})");
  CHECK(wide.result.core.main.weights.rows() == 6);  // n×n whatever d_k is
  CHECK(wide.result.core.main.weights.cols() == 6);
}

TEST_CASE("lesson dot-product: dragging cat towards dog raises cat's weight on dog, step by step", "[lessons]") {
  App app = app_with(R"({"preset": "dot-product-2d", "selected_row": 0})");
  REQUIRE(app.state.embeddings.rows() == 4);
  REQUIRE(app.state.embeddings.cols() == 2);
  const double r2 = std::sqrt(2.0);
  // cat (2, 0) against cat, dog (0, 2.5), sat (−1.5, −1), mat (1, −1.5): scores 4, 0, −3, 2, ÷√2.
  const double start = softmax_d({4 / r2, 0, -3 / r2, 2 / r2})[1];
  CHECK(app.result.core.main.weights(0, 1) == Approx(start).margin(1e-6));
  CHECK(start == Approx(0.045).margin(5e-4));  // the number the lesson quotes
  // Along the straight line from (2, 0) to (0, 2), as a drag does: the score with dog climbs at every step
  // and the weight stays far above where it started (near dog, cat's growing own score takes a little back).
  double previous_score = 0, w = start;
  for (int k = 1; k <= 10; ++k) {
    const double t = k / 10.0, x = 2 - 2 * t, y = 2 * t;
    app.state.embeddings(0, 0) = static_cast<float>(x);
    app.state.embeddings(0, 1) = static_cast<float>(y);
    app.update();
    w = app.result.core.main.weights(0, 1);
    const double want = softmax_d({(x * x + y * y) / r2, 2.5 * y / r2, (-1.5 * x - y) / r2, (x - 1.5 * y) / r2})[1];
    INFO("cat at (" << x << ", " << y << ")");
    CHECK(w == Approx(want).margin(1e-6));
    CHECK(app.result.core.main.scores(0, 1) > previous_score);
    CHECK(w > 2 * start);
    previous_score = app.result.core.main.scores(0, 1);
  }
  CHECK(w > 0.4);  // the do task's goal is reachable
  // On top of dog, cat's own score and its score with dog are one number: equal weights.
  app.state.embeddings.row(0) = app.state.embeddings.row(1);
  app.update();
  CHECK(app.result.core.main.weights(0, 0) == Approx(app.result.core.main.weights(0, 1)).margin(1e-7));
  // Seeded projections: the same points, other scores.
  REQUIRE(apply_state_text(app.state, R"({"projections": "seeded"})") == "");
  app.update();
  CHECK(live_values(app).at("score_asymmetry") > 0.1);
  CHECK(std::fabs(app.result.core.main.scores(0, 1) - 6.25f) > 0.1f);
}

TEST_CASE("lesson dot-product: in the 8-D default, dragging The onto cat in the plane barely moves The→cat",
          "[lessons]") {
  App app = app_with(R"({"preset": "default", "selected_row": 0})");
  const double before = app.result.core.main.weights(0, 1);
  app.state.embeddings(0, 0) = app.state.embeddings(1, 0);  // the plane's two dimensions only
  app.state.embeddings(0, 1) = app.state.embeddings(1, 1);
  app.update();
  const double after = app.result.core.main.weights(0, 1);
  CHECK(before == Approx(0.045).margin(5e-4));  // the lesson's text quotes these two numbers
  CHECK(after == Approx(0.093).margin(5e-4));
}

TEST_CASE("lesson softmax: a low temperature sharpens the article's nearly uniform weights", "[lessons]") {
  App app = app_with(R"({"preset": "softmax-article"})");
  const auto soft = softmax_d({0.3, 0.2, 0.5});
  CHECK(app.result.core.main.weights(0, 2) == Approx(soft[2]).margin(1e-6));
  CHECK(soft[2] < 0.8);
  REQUIRE(apply_state_text(app.state, R"({"temperature": 0.1})") == "");
  app.update();
  const auto sharp = softmax_d({3, 2, 5});
  CHECK(app.result.core.main.weights(0, 2) == Approx(sharp[2]).margin(1e-6));
  CHECK(sharp[2] > 0.8);
  // The note's example 1 as printed: mat's output with its V = [[2,0],[0,2],[2,1]], which the lesson quotes.
  App note = app_with(R"({"preset": "self-attn-example-1"})");
  const double r2 = std::sqrt(2.0);
  const auto w = softmax_d({1 / r2, 1 / r2, 2 / r2});
  CHECK(note.result.core.output(2, 0) == Approx(2 * w[0] + 2 * w[2]).margin(1e-6));
  CHECK(note.result.core.output(2, 1) == Approx(2 * w[1] + w[2]).margin(1e-6));
  CHECK(2 * w[0] + 2 * w[2] == Approx(1.503).margin(5e-4));
  CHECK(2 * w[1] + w[2] == Approx(1.000).margin(5e-4));
}

TEST_CASE("lesson why-sqrt-dk: the variance lab measures about d_k unscaled and about 1 scaled", "[lessons]") {
  App app = app_with(R"({"preset": "default", "d_k": 64, "scale": false})");
  // Monte Carlo estimates: within 10 % of the theory the lesson states (64 and 1).
  CHECK(app.result.variance.var_unscaled == Approx(64).epsilon(0.1));
  CHECK(app.result.variance.var_scaled == Approx(1).epsilon(0.1));
}

TEST_CASE("lesson saturation: the saturated row passes almost no gradient until it is scaled", "[lessons]") {
  App app = app_with(R"({"preset": "saturation", "selected_row": 1})");
  const HeadResult& h = app.result.core.main;
  CHECK(h.max_weight(1) > 0.95f);
  CHECK(h.jacobian_norm(1) < 0.05f);
  const std::vector<float> uniform(10, 0.1f);  // the text compares with a uniform row of ten: √9 / 10
  CHECK(row_jacobian_norm(uniform.data(), 10) == Approx(0.3).margin(1e-6));
  // The numbers the lesson quotes for this row, from its scores in double precision: softmax of the
  // scores and of the scores ÷ √512, and ‖diag(p) − ppᵀ‖_F of each.
  std::vector<double> z;
  for (int j = 0; j < 10; ++j) z.push_back(h.scores(1, j));
  const auto jacobian = [](const std::vector<double>& p) {
    double f = 0;
    for (size_t i = 0; i < p.size(); ++i)
      for (size_t j = 0; j < p.size(); ++j) f += std::pow((i == j ? p[i] : 0) - p[i] * p[j], 2);
    return std::sqrt(f);
  };
  std::vector<double> zs = z;
  for (double& x : zs) x /= std::sqrt(512.0);
  const auto p = softmax_d(z), ps = softmax_d(zs);
  CHECK(*std::max_element(p.begin(), p.end()) == Approx(1.000).margin(5e-4));
  CHECK(*std::max_element(ps.begin(), ps.end()) == Approx(0.299).margin(5e-4));
  CHECK(jacobian(p) == Approx(0.00001).margin(5e-6));
  CHECK(jacobian(ps) == Approx(0.353).margin(5e-4));
  const Mat unscaled = h.weights;
  REQUIRE(apply_state_text(app.state, R"({"scale": true})") == "");
  app.update();
  CHECK(app.result.core.main.jacobian_norm(1) > 0.2f);  // the do task's goal
  // T = 1/√512 undoes ÷√512: the unscaled row comes back.
  REQUIRE(apply_state_text(app.state, R"({"temperature": 0.0441942})") == "");
  app.update();
  CHECK((app.result.core.main.weights - unscaled).cwiseAbs().maxCoeff() < 1e-4f);
  CHECK(app.result.core.main.max_weight(1) > 0.95f);
}

TEST_CASE("lesson masks: causal and padding masks, one at a time and together", "[lessons]") {
  App open = app_with(R"({"preset": "default"})");
  App causal = app_with(R"({"preset": "default", "mask": "causal"})");
  CHECK(causal.result.core.main.weights(0, 0) == 1.0f);  // the first token sees only itself
  for (int j = 0; j < 6; ++j)                            // the last row sees everything: unchanged
    CHECK(causal.result.core.main.weights(5, j) == Approx(open.result.core.main.weights(5, j)).margin(1e-7));
  App padded = app_with(
      R"({"preset": "default", "sentence": "The cat sat on the mat <pad> <pad>",
          "key_padding": [false, false, false, false, false, false, true, true]})");
  for (int i = 0; i < 8; ++i) {
    CHECK(padded.result.core.main.weights(i, 6) == 0.0f);
    CHECK(padded.result.core.main.weights(i, 7) == 0.0f);
  }
  REQUIRE(apply_state_text(padded.state, R"({"mask": "causal", "selected_row": 2})") == "");
  padded.update();
  CHECK(live_values(padded).at("visible_keys") == 3);
  const HeadResult& h = padded.result.core.main;
  const auto want = softmax_d({h.scores(2, 0) / 8.0, h.scores(2, 1) / 8.0, h.scores(2, 2) / 8.0});  // ÷√64
  for (int j = 0; j < 3; ++j) CHECK(h.weights(2, j) == Approx(want[static_cast<size_t>(j)]).margin(1e-6));
}

TEST_CASE("lesson heads: heads one column wide peak on at most two keys", "[lessons]") {
  App app = app_with(R"({"preset": "default", "d_k": 8, "heads": 8})");
  REQUIRE(app.result.core.heads.size() == 8);
  for (const HeadResult& h : app.result.core.heads) CHECK(favourite_keys(h.weights) <= 2);
  App wide = app_with(R"({"preset": "default", "d_k": 8, "heads": 1})");
  CHECK(favourite_keys(wide.result.core.main.weights) > 2);  // the limit is the width, not the sentence
  App split = app_with(R"({"preset": "default", "d_k": 64, "heads": 4})");
  CHECK(split.result.core.d_k == 16);
  CHECK(live_values(split).at("d_k_total") == 64);
}

TEST_CASE("lesson positions: reversing the sentence only permutes the rows, until positions are encoded", "[lessons]") {
  for (const char* pe : {"none", "sinusoidal"}) {
    INFO(pe);
    const std::string base = std::string(R"({"preset": "dog-bites-man", "panels": {"positional": true},)") +
                             R"( "positional_encoding": ")" + pe + "\"";
    App forward = app_with((base + "}").c_str());
    App reversed = app_with((base + R"(, "sentence": "man bites dog"})").c_str());
    const Mat back = reversed.result.core.output.colwise().reverse();
    const double gap = (back - forward.result.core.output).cwiseAbs().maxCoeff();
    CHECK(live_values(forward).at("order_gap") == Approx(gap).margin(1e-5));
    if (std::string(pe) == "none")
      CHECK(gap < 1e-5);
    else
      CHECK(gap > 0.1);
  }
}

TEST_CASE("lesson scoring: the note's t = 2 and t = 4, and three score functions agreeing on the word", "[lessons]") {
  App app = app_with(R"({"preset": "bahdanau", "cross": {"states": "note", "step": 3}})");
  CHECK(std::exp(0.3) + std::exp(2.1) + std::exp(0.5) == Approx(11.165).margin(5e-4));
  const auto want = softmax_d({kCrossNoteScores[3][0], kCrossNoteScores[3][1], kCrossNoteScores[3][2]});
  CHECK(want[2] == Approx(0.8566).margin(5e-5));
  const auto v = live_values(app);
  CHECK(v.at("cross_t") == 4);
  CHECK(v.at("cross_additive_weight_3") == Approx(want[2]).margin(1e-5));
  for (const Result& r : app.result.cross.scored) {
    Eigen::Index best = 0;
    r.main.weights.row(3).maxCoeff(&best);
    CHECK(best == 2);  // "étudiant" while generating "student"
  }
}

TEST_CASE("lesson by-hand: the note's example 1 computed from its own X and weights", "[lessons]") {
  App app = app_with(R"({"preset": "self-attn-from-x", "selected_row": 2})");
  const HeadResult& h = app.result.core.main;
  const Mat q = (Mat(3, 2) << 1, 0, 0, 1, 1, 1).finished();
  const Mat v = (Mat(3, 2) << 1, 1, 1, 1, 2, 0).finished();  // X·W^V, not the note's [[2,0],[0,2],[2,1]]
  CHECK(h.Q == q);
  CHECK(h.K == q);
  CHECK(h.V == v);
  CHECK(h.scores(2, 2) == 2.0f);
  const double r2 = std::sqrt(2.0);
  const auto w = softmax_d({1 / r2, 1 / r2, 2 / r2});
  for (int j = 0; j < 3; ++j) CHECK(h.weights(2, j) == Approx(w[static_cast<size_t>(j)]).margin(1e-6));
  CHECK(w[2] == Approx(0.5035).margin(5e-5));  // the note prints 0.54
  CHECK(app.result.core.output(2, 0) == Approx(w[0] + w[1] + 2 * w[2]).margin(1e-6));
  CHECK(app.result.core.output(2, 1) == Approx(w[0] + w[1]).margin(1e-6));
}

TEST_CASE("lesson not-explanation: a small weight on a large value outweighs a large weight; two rows, one output",
          "[lessons]") {
  App app;
  REQUIRE(start_lesson(app, "not-explanation", 1) == "");
  app.update();
  const HeadResult& h = app.result.core.main;
  REQUIRE(h.weights.cols() == 3);
  CHECK(h.weights(0, 0) == Approx(0.8).margin(1e-4));  // "the"
  CHECK(h.weights(0, 1) == Approx(0.1).margin(1e-4));  // "cat"
  // What each key adds to the output is weight × value: cat's share is the largest by far.
  const double the_share = h.weights(0, 0) * h.V.row(0).norm(), cat_share = h.weights(0, 1) * h.V.row(1).norm();
  CHECK(cat_share > 5 * the_share);
  CHECK(h.output(0, 1) == Approx(0.52).margin(1e-3));

  REQUIRE(start_lesson(app, "not-explanation", 2) == "");
  app.update();
  const HeadResult& g = app.result.core.main;
  REQUIRE(g.weights.rows() == 2);
  CHECK(std::fabs(g.weights(0, 0) - g.weights(1, 0)) > 0.3);                                 // very different rows…
  for (int c = 0; c < 2; ++c) CHECK(g.output(0, c) == Approx(g.output(1, c)).margin(1e-3));  // …one output
  CHECK(g.output(1, 1) == Approx(*find_lesson("not-explanation")->steps[1].task.number).margin(1e-3));
}

TEST_CASE("a step opened on its own (a link, the lesson list) shows the same example as when reached in order",
          "[lessons]") {
  // A step that sets a width must also name its example: after another lesson's preset with fixed
  // matrices, {"d_k": 4} alone is refused and the step would show that lesson's numbers instead.
  for (const Lesson& l : lessons())
    for (size_t i = 0; i < l.steps.size(); ++i) {
      const nlohmann::json& st = l.steps[i].state;
      const bool sets_width = st.contains("d_k") || st.contains("d_model") || st.contains("d_v");
      INFO(l.id << " step " << i + 1);
      if (sets_width) CHECK((st.contains("preset") || st.contains("mode")));
      // Entered straight from an explicit example, each step applies and its reveal too.
      App app;
      REQUIRE(apply_state_text(app.state, R"({"preset": "saturation"})") == "");
      REQUIRE(apply_state_text(app.state, R"({"preset": "sdpa-example-1"})") == "");
      REQUIRE(start_lesson(app, l.id, static_cast<int>(i) + 1) == "");
      if (l.steps[i].task.reveal.is_object() && !l.steps[i].task.reveal.empty()) {
        State revealed = app.state;
        CHECK(apply_state_json(revealed, l.steps[i].task.reveal) == "");
      }
    }
}

TEST_CASE("a text refers to another lesson by its title, never by a number that changes when lessons are added",
          "[lessons]") {
  const std::regex by_number(R"(\blesson \d)", std::regex::icase);
  const std::regex by_title("lesson \"([^\"]+)\"");
  for (Lang lang : languages()) {
    std::vector<std::string> titles;
    for (const Lesson& l : lessons()) titles.push_back(tr(lang, l.title.c_str()));
    for (const std::string& key : catalog_keys(lang)) {
      const std::string text = tr(lang, key.c_str());
      INFO(lang_code(lang) << " " << key << ": " << text);
      CHECK_FALSE(std::regex_search(text, by_number));
      for (std::sregex_iterator m(text.begin(), text.end(), by_title), end; m != end; ++m)
        CHECK(std::find(titles.begin(), titles.end(), (*m)[1].str()) != titles.end());
    }
  }
}
