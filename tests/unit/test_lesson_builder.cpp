// test_lesson_builder.cpp — the lesson builder's draft: views recorded as steps, reordered and deleted, saved as a
// lesson file the validator accepts (or refused with the validator's message), read back, and carried in a link;
// question ids that stay when steps move, every built-in lesson opened and saved back unchanged, do tasks, reveals,
// hidden panels, the verifier's findings (worded in the page's language), the pass mark and the warnings for unlocked
// controls.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "app/app.h"
#include "app/app_exchange.h"
#include "app/base/data.h"
#include "app/builder_actions.h"
#include "app/exchange/share.h"
#include "app/lesson/course_package.h"
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_builder.h"
#include "app/state/state_json.h"

using namespace attn;
using nlohmann::json;

namespace {
DraftText en(const std::string& s) { return DraftText{{{"en", s}}}; }

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
  d.steps.push_back(capture_step(s, {}));
  set_ask(d, 2, DraftStep::Ask::Choice);
  DraftStep& q = d.steps.back();
  q.text = en("Cooler.");
  q.question = en("Peakier or flatter?");
  q.choices = {{en("Peakier"), {}}, {en("Flatter"), en("Dividing by less than 1 sharpens.")}};
  q.answer = 0;
  q.hint = en("Temperature divides the scores.");
  q.explain = en("Peakier: max {max_weight}.");
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

TEST_CASE("a recorded view keeps what differs from its preset, the open panels and the locks", "[builder]") {
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

TEST_CASE("a built lesson passes the validator and plays the recorded states", "[builder]") {
  const LessonDraft d = three_steps();
  const Lesson l = checked(d);
  REQUIRE(l.steps.size() == 3);
  CHECK(l.steps[1].lock == std::vector<std::string>{"scale"});
  CHECK(l.steps[1].state.value("d_k", 0) == 16);
  CHECK(l.steps[2].task.kind == Task::Kind::Predict);
  CHECK(l.steps[2].task.answer == 0);
  CHECK(l.steps[2].task.feedback.size() == 2);
  CHECK(l.texts.at(l.steps[0].text).in(Lang::En) == "First look.");
}

TEST_CASE("steps reorder and delete", "[builder]") {
  LessonDraft d = three_steps();
  CHECK_FALSE(move_step(d, 0, -1));
  CHECK_FALSE(move_step(d, 2, +1));
  REQUIRE(move_step(d, 2, -1));
  CHECK(d.steps[1].text.in(Lang::En) == "Cooler.");
  CHECK(d.steps[2].text.in(Lang::En) == "Unscaled at d_k 16.");
  const Lesson moved = checked(d);
  CHECK(moved.steps[1].task.kind == Task::Kind::Predict);
  REQUIRE(delete_step(d, 0));
  CHECK_FALSE(delete_step(d, 5));
  CHECK(d.steps.size() == 2);
  CHECK(d.steps[0].text.in(Lang::En) == "Cooler.");
  checked(d);
}

TEST_CASE("an invalid draft gets the validator's message", "[builder]") {
  LessonDraft d = three_steps();
  CHECK(check_draft(LessonDraft{}) == "the lesson has no steps yet");
  d.steps[1].text = DraftText{};
  Lesson l;
  const std::string expected = check_lesson_text(draft_lesson_text(d), l);
  CHECK(!expected.empty());
  CHECK(check_draft(d) == expected);
  CHECK(expected.find("step 2") != std::string::npos);
  d = three_steps();
  set_ask(d, 2, DraftStep::Ask::Number);
  d.steps[2].tolerance = -1;
  CHECK(check_draft(d).find("tolerance") != std::string::npos);
  d = three_steps();
  d.id = "Not An Id";
  CHECK(check_draft(d).find("id") != std::string::npos);
}

TEST_CASE("a text typed in one language is kept for both", "[builder]") {
  LessonDraft d = three_steps();
  d.steps[0].text = DraftText{{{"hi-Latn", "Pehli nazar."}}};
  const Lesson l = checked(d);
  CHECK(l.texts.at(l.steps[0].text).in(Lang::HiLatn) == "Pehli nazar.");
  CHECK(!l.warnings.empty());
}

TEST_CASE("a draft survives its own file: save, read back, save again", "[builder]") {
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

TEST_CASE("a lesson link carries the lesson, and says when it would be too long", "[builder]") {
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

TEST_CASE("a step's LMS record grows with the view it shows", "[builder]") {
  LessonDraft d = three_steps();
  CHECK(scorm_record_chars(d, 0) < kScorm12SuspendChars);
  CHECK(scorm_record_chars(d, 2) > scorm_record_chars(d, 0));
}

namespace {
// The task id of the step whose English text is `text` in the saved file.
std::string id_of(const LessonDraft& d, const std::string& text) {
  const json file = draft_to_lesson_json(d);
  for (const json& step : file["steps"])
    if (step["text"].value("en", "") == text && step.contains("task")) return step["task"]["id"].get<std::string>();
  return "";
}

// A catalog key's texts inline, as a lesson opened in the builder carries them.
void inline_key(json& v) {
  if (!v.is_string() || v.get<std::string>().empty()) return;
  const std::string key = v.get<std::string>();
  json t = {{"en", tr(Lang::En, key.c_str())}};
  if (has_string(Lang::HiLatn, key)) t["hi-Latn"] = tr(Lang::HiLatn, key.c_str());
  v = t;
}

// A built-in lesson file with every text inline and nothing else changed.
json inline_texts(json l) {
  inline_key(l["title"]);
  if (l.contains("summary")) inline_key(l["summary"]);
  for (json& step : l["steps"]) {
    inline_key(step["text"]);
    if (!step.contains("task")) continue;
    json& t = step["task"];
    for (const char* k : {"question", "hint", "explain"})
      if (t.contains(k)) inline_key(t[k]);
    for (const char* k : {"choices", "feedback"})
      if (t.contains(k))
        for (json& c : t[k]) inline_key(c);
    if (t.contains("slips"))
      for (json& slip : t["slips"]) inline_key(slip["feedback"]);
  }
  return l;
}

// A lesson with a do task and a prediction whose answer the heatmap would give away.
LessonDraft goal_and_prediction(App& app) {
  LessonDraft d;
  d.id = "goal-test";
  d.title = en("Goals");
  d.steps.push_back(capture_step(app.state, {}));
  d.steps[0].text = en("Lower the temperature until one key takes almost all the weight.");
  set_ask(d, 0, DraftStep::Ask::Do);
  d.steps[0].question = en("Make the largest weight of the row pass 0.95.");
  REQUIRE(apply_state_json(app.state, json{{"temperature", 0.1}}).empty());
  app.update();
  record_goal(d.steps[0], app.state, live_values(app));
  REQUIRE(apply_state_json(app.state, json{{"temperature", 1.0}, {"panels", {{"heatmap", true}}}}).empty());
  app.update();
  d.steps.push_back(capture_step(app.state, {"temperature", "d_k", "scale"}));
  d.steps[1].text = en("Back at temperature 1.");
  set_ask(d, 1, DraftStep::Ask::Choice);
  DraftStep& q = d.steps[1];
  q.question = en("Does the row's favourite key change?");
  q.choices = {{en("No"), {}}, {en("Yes"), en("Temperature divides every score alike: the order stays.")}};
  q.asks = {"weights"};
  return d;
}
}  // namespace

TEST_CASE("question ids stay with their steps when steps move, and a deleted one's id is not given again",
          "[builder]") {
  LessonDraft d = three_steps();
  d.steps.push_back(d.steps[2]);
  d.steps.back().text = en("Hotter.");
  d.steps.back().task_id.clear();
  set_ask(d, 3, DraftStep::Ask::Number);
  d.steps.back().question = en("The largest weight?");
  const std::string cooler = id_of(d, "Cooler."), hotter = id_of(d, "Hotter.");
  REQUIRE(!cooler.empty());
  REQUIRE(!hotter.empty());
  CHECK(cooler != hotter);
  REQUIRE(move_step(d, 3, -1));
  REQUIRE(move_step(d, 2, -1));
  REQUIRE(move_step(d, 1, -1));
  CHECK(d.steps[0].text.in(Lang::En) == "Hotter.");
  CHECK(id_of(d, "Hotter.") == hotter);
  CHECK(id_of(d, "Cooler.") == cooler);
  checked(d);
  REQUIRE(delete_step(d, 0));
  CHECK(id_of(d, "Cooler.") == cooler);
  // A new question, also in a draft kept and read back (the builder keeps its count with the draft).
  json kept = draft_to_lesson_json(d);
  kept["next_question"] = d.next_question;
  LessonDraft back;
  REQUIRE(draft_from_json(kept, back).empty());
  CHECK(id_of(back, "Cooler.") == cooler);
  back.steps.push_back(back.steps[0]);
  back.steps.back().task_id.clear();
  back.steps.back().ask = DraftStep::Ask::None;
  set_ask(back, back.steps.size() - 1, DraftStep::Ask::Choice);
  const std::string fresh = back.steps.back().task_id;
  CHECK(fresh != hotter);
  CHECK(fresh != cooler);
}

TEST_CASE("a lesson file's question ids are kept as they are, and fresh ones count on past them", "[builder]") {
  const LessonDraft d = three_steps();
  json file = draft_to_lesson_json(d);
  file["steps"][2]["task"]["id"] = "peakier-or-flatter";
  file["steps"][0]["task"] = file["steps"][2]["task"];
  file["steps"][0]["task"]["id"] = "q7";
  LessonDraft opened;
  REQUIRE(draft_from_json(file, opened).empty());
  const json saved = draft_to_lesson_json(opened);
  CHECK(saved["steps"][2]["task"]["id"] == "peakier-or-flatter");
  CHECK(saved["steps"][0]["task"]["id"] == "q7");
  set_ask(opened, 1, DraftStep::Ask::Number);
  CHECK(opened.steps[1].task_id == "q8");
}

TEST_CASE("every built-in lesson opened in the builder and saved back is the same lesson, its texts inline",
          "[builder]") {
  const auto files = data_files_in("lessons");
  REQUIRE(files.size() >= 10);
  for (const DataFile* f : files) {
    const json file = json::parse(f->data, f->data + f->size);
    INFO(f->path);
    LessonDraft d;
    REQUIRE(draft_from_json(file, d).empty());
    const json saved = draft_to_lesson_json(d);
    Lesson l;
    CHECK(check_lesson_text(saved.dump(), l) == "");
    // claims, slips, asks, reveal, goal, solution, summary, step ids: all as the file has them.
    CHECK(saved == inline_texts(file));
  }
  LessonDraft copy;
  REQUIRE(draft_from_builtin("why-sqrt-dk", copy).empty());
  CHECK(copy.id == "my-why-sqrt-dk");
  CHECK(copy.steps[0].text.in(Lang::HiLatn) == tr(Lang::HiLatn, "lesson.why-sqrt-dk.1"));
  CHECK(check_draft(copy) == "");
  copy.id = "why-sqrt-dk";
  CHECK(check_draft(copy).find("built-in") != std::string::npos);
}

TEST_CASE("a lesson file picked for the builder opens in it, not as a lesson", "[builder]") {
  App app;
  const std::string text = draft_lesson_text(three_steps());
  app.builder_import = true;
  REQUIRE(app.import_text(text, "built.json").empty());
  CHECK(app.state.lesson.id.empty());
  CHECK(app.state.panels.builder);
  CHECK_FALSE(app.builder_import);
  LessonDraft d;
  REQUIRE(draft_from_json(app.builder_opened, d).empty());
  CHECK(d.steps.size() == 3);
  // A lesson link opens there too; without the builder asking, a file opens as a lesson.
  std::string link;
  REQUIRE(lesson_link("https://example.org/", three_steps(), link).empty());
  app.builder_opened = nullptr;
  CHECK(open_in_builder(app, link, "link").empty());
  CHECK(app.builder_opened.value("id", "") == "built-test");
  CHECK(app.import_text(text, "built.json").empty());
  CHECK(app.state.lesson.id == "built-test");
}

TEST_CASE("a do task's goal and solution are recorded from the view, and a prediction's giveaway panel is hidden",
          "[builder]") {
  App app;
  LessonDraft d = goal_and_prediction(app);
  const json goal = d.steps[0].goal;
  CHECK(goal.value("value", "") == "max_weight");
  CHECK(goal.value("op", "") == ">");
  CHECK(goal.value("than", 0.0) > 0.5);
  CHECK(d.steps[0].solution.value("temperature", 0.0) == Approx(0.1));
  // The heatmap shows the weights the prediction asks about: the validator refuses it, with its message.
  CHECK(check_draft(d).find("panel shows weights before the answer") != std::string::npos);
  REQUIRE(hide_answer_panels(d.steps[1]));
  CHECK(d.steps[1].reveal["panels"].value("heatmap", false));
  std::vector<std::string> findings;
  CHECK(check_draft(d, &findings) == "");
  CHECK(findings.empty());
  const json task = draft_to_lesson_json(d)["steps"][0]["task"];
  CHECK(task["kind"] == "do");
  CHECK(task["solution"] == d.steps[0].solution);
  // A goal the solution does not reach is the verifier's finding, named by step.
  d.steps[0].goal["than"] = 0.9999;
  CHECK(check_draft(d, &findings) != "");
  REQUIRE(!findings.empty());
  CHECK(findings.front().find("step 1") != std::string::npos);
}

TEST_CASE("a lesson's pass mark: kept in the file, checked strictly, taken by its package", "[builder]") {
  LessonDraft d = three_steps();
  d.id = "pass-test";
  d.pass = 0.6;
  Lesson l;
  REQUIRE(check_lesson_text(draft_lesson_text(d), l).empty());
  CHECK(l.pass == 0.6);
  LessonDraft back;
  REQUIRE(draft_from_json(draft_to_lesson_json(d), back).empty());
  CHECK(back.pass == 0.6);
  json bad = draft_to_lesson_json(d);
  for (const json& v : {json(1.5), json(-0.1), json("most"), json(true)}) {
    bad["pass"] = v;
    CHECK(check_lesson_text(bad.dump(), l).find("pass must be") != std::string::npos);
  }
  REQUIRE(add_lesson(draft_lesson_text(d)).empty());
  CoursePackageOptions o;
  o.lessons = {"pass-test"};
  o.scorm = "2004";
  take_lessons_pass_mark(o);
  CHECK(o.pass == 0.6);
  d.pass = kPassNone;
  CHECK(draft_to_lesson_json(d)["pass"] == "none");
  REQUIRE(add_lesson(draft_lesson_text(d)).empty());
  take_lessons_pass_mark(o);
  CHECK_FALSE(o.graded);
  CHECK(check_package_options(o).find("pass mark") != std::string::npos);
}

TEST_CASE("an unlocked control the step sets is a warning on its prediction, not a refusal", "[builder]") {
  LessonDraft d = three_steps();
  set_ask(d, 1, DraftStep::Ask::Number);  // "unscaled at d_k 16": d_k is set and unlocked, scale locked
  d.steps[1].question = en("The largest weight?");
  d.steps[1].number = 0.5, d.steps[1].tolerance = 0.5;
  const auto warnings = draft_warnings(d);
  const auto names = [&](size_t step, const std::string& control) {
    return std::any_of(warnings.begin(), warnings.end(),
                       [&](const DraftWarning& w) { return w.step == step && w.control == control; });
  };
  CHECK(names(2, "d_k"));
  CHECK_FALSE(names(2, "scale"));
  CHECK(names(3, "temperature"));
  d.steps[1].lock.push_back("d_k");
  const auto locked = draft_warnings(d);
  CHECK_FALSE(std::any_of(locked.begin(), locked.end(),
                          [](const DraftWarning& w) { return w.step == 2 && w.control == "d_k"; }));
}

TEST_CASE("a text in comparing words is refused until the builder declares its claims, which the file then carries",
          "[builder][claims]") {
  LessonDraft d = three_steps();
  // The second step shows d_k 16 unscaled; its text now compares the weights it quotes.
  d.steps[1].text = en("Unscaled at d_k 16: the largest weight, {max_weight}, is larger than a tenth.");
  const std::string refused = check_draft(d);
  INFO(refused);
  CHECK(refused.find("comparing words") != std::string::npos);
  CHECK(refused.find("step 2") != std::string::npos);

  // A claim the numbers contradict is refused by the verifier, naming it.
  add_claim(d.steps[1].kept, "max_weight", "<", 0.01);
  CHECK_FALSE(check_draft(d).empty());
  REQUIRE(remove_claim(d.steps[1].kept, 0));
  CHECK_FALSE(remove_claim(d.steps[1].kept, 0));  // nothing left to remove
  // The claim the text makes, checked in every state a learner reaches there (d_k and scale are locked).
  add_claim(d.steps[1].kept, "max_weight", ">", 0.1);
  CHECK(check_draft(d) == "");
  const Lesson l = checked(d);
  REQUIRE(l.steps[1].claims.size() == 1);
  CHECK(l.steps[1].claims[0].value == "max_weight");
  CHECK(l.steps[1].claims[0].op == ">");
  CHECK(l.steps[1].claims[0].than == 0.1);
  CHECK(claim_text(d.steps[1].kept["claims"][0], Lang::En) == "max_weight > 0.1");

  // Read back for editing: the claim is still there, and the explanation's claims are the task's.
  LessonDraft back;
  REQUIRE(draft_from_json(draft_to_lesson_json(d), back).empty());
  CHECK(back.steps[1].kept["claims"] == d.steps[1].kept["claims"]);
  declare_claims(back.steps[2].kept_task, true);  // "Peakier: max {max_weight}." compares nothing
  CHECK(draft_to_lesson_json(back)["steps"][2]["task"]["claims"] == json::array());
  declare_claims(back.steps[1].kept, false);  // the declaration and its claims go: refused again
  CHECK(check_draft(back).find("comparing words") != std::string::npos);
}

TEST_CASE("the builder words the checker's problems in the page's language", "[builder]") {
  App app;
  app.state.panels.builder = true;
  app.builder.draft = three_steps();
  app.builder.draft.steps[2].task_id.clear();
  builder_changed(app);
  app.state.lang = Lang::HiLatn;
  builder_check(app);
  CHECK(builder_verdict(app).head == "Theek karo: step 3: uske question ki koi id nahi hai");
  // The same draft checked again once the page is in English: the CLI's and the API's words.
  app.state.lang = Lang::En;
  builder_check(app);
  CHECK(builder_verdict(app).head == "To fix: step 3: its question has no id");
  // The validator's message, its step named the same way in both.
  app.builder.draft = three_steps();
  app.builder.draft.steps[1].text = DraftText{};
  builder_changed(app);
  app.state.lang = Lang::HiLatn;
  builder_check(app);
  CHECK(app.builder.problem == "step 2: text mein kisi bhi language ka text nahi hai");
  app.state.lang = Lang::En;
  builder_check(app);
  CHECK(app.builder.problem == "step 2: text has no text in any language");
}

TEST_CASE("the checker's own, the validator's and the verifier's messages come from the catalogs", "[builder]") {
  CHECK(check_draft(LessonDraft{}, nullptr, Lang::HiLatn) == "lesson mein abhi koi step nahi hai");
  CHECK(check_draft(LessonDraft{}) == "the lesson has no steps yet");
  LessonDraft d = three_steps();
  d.id = "why-sqrt-dk";
  CHECK(check_draft(d, nullptr, Lang::HiLatn) ==
        "id \"why-sqrt-dk\" ek built-in lesson ki hai; apne lesson ko doosri id do");
  d.id = "Not An Id";
  CHECK(check_draft(d, nullptr, Lang::HiLatn) == "id \"Not An Id\" mein sirf a-z, 0-9 aur \"-\" ho sakte hain");
  d = three_steps();
  d.steps[0].text = en("Pehli nazar: \u0915");
  CHECK(check_draft(d, nullptr, Lang::HiLatn).find("page U+0915 nahi dikha sakta") != std::string::npos);
  App app;
  d = goal_and_prediction(app);
  CHECK(check_draft(d, nullptr, Lang::HiLatn).find("heatmap panel jawab se pehle hi weights dikha deta hai") !=
        std::string::npos);
  REQUIRE(hide_answer_panels(d.steps[1]));
  d.steps[0].goal["than"] = 0.9999;
  std::vector<std::string> findings;
  CHECK(check_draft(d, &findings, Lang::HiLatn).find("task.solution se goal poora nahi hota") != std::string::npos);
  REQUIRE(!findings.empty());
  CHECK(findings.front().rfind("goal-test step 1 (\"q1\") [en], task.solution ke baad, lesson step:", 0) == 0);
  CHECK(check_draft(d, &findings).find("task.solution does not meet the goal") != std::string::npos);
  CHECK(findings.front().rfind("goal-test step 1 (\"q1\") [en], after task.solution, lesson step:", 0) == 0);
}

TEST_CASE("the builder's own refusals and a draft's file problems are in the page's language", "[builder]") {
  LessonDraft back;
  CHECK(draft_from_json(json{{"id", "x"}}, back, Lang::HiLatn) == "yeh lesson nahi hai: ismein \"steps\" nahi hain");
  CHECK(draft_from_json(json{{"id", "x"}}, back) == "not a lesson: it has no \"steps\"");
  CHECK(draft_from_builtin("no-such", back, Lang::HiLatn) == "\"no-such\" naam ka koi built-in lesson nahi hai");
  std::string text;
  CHECK(decode_lesson_link("#lesson=2.abc", text, Lang::HiLatn) == "is link mein koi lesson nahi hai");
  CHECK(decode_lesson_link("#lesson=2.abc", text) == "the link carries no lesson");
  App app;
  app.state.lang = Lang::HiLatn;
  CHECK(open_in_builder(app, "{\"id\": \"x\"}", "x.json") == "yeh lesson nahi hai: ismein \"steps\" nahi hain");
  // A valid draft where this host makes no link and no course package (the test's App has neither).
  app.builder.draft = three_steps();
  builder_changed(app);
  CHECK(builder_copy_link(app) == "yahan koi page address nahi hai");
  CHECK(builder_package(app) == "yahan course package nahi ban sakta");
  app.state.lang = Lang::En;
  CHECK(builder_copy_link(app) == "no page address here");
  // An opened file's panel id and a field of it kept as it was written: the validator's and the parser's words.
  LessonDraft d = three_steps();
  d.steps[0].panels = {"heatmapp"};
  CHECK(check_draft(d, nullptr, Lang::HiLatn) == "step 1: panels: \"heatmapp\" koi panel id nahi hai");
  d = three_steps();
  d.steps[0].kept["claims"] = 3;
  CHECK(check_draft(d, nullptr, Lang::HiLatn) == "step 1: claims {value, op, than} ki list honi chahiye");
  CHECK(check_draft(d) == "step 1: claims must be a list of {value, op, than}");
}
