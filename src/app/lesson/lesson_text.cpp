// lesson_text.cpp — a lesson step's words, each filled from the values it was written for.
#include "app/lesson/lesson_text.h"

#include <cmath>
#include <cstdio>

#include "app/base/strings.h"

namespace attn {
using nlohmann::json;

namespace {
// The values a learner sets (or a step or reveal sets) that a "since then" line names; any other change of the
// printed values is "the example has changed".
const char* const kNamedValues[] = {"d_k", "temperature", "scale", "row", "heads", "n_tokens"};

bool printed_differently(Lang lang, const LiveValues& a, const LiveValues& b, const std::string& name) {
  const auto x = a.find(name), y = b.find(name);
  if (x == a.end() || y == b.end()) return x != y;
  return format_live_value(lang, x->second) != format_live_value(lang, y->second);
}

// The live values the texts `keys` quote.
std::vector<std::string> quoted_names(Lang lang, const std::vector<std::string>& keys) {
  std::vector<std::string> names;
  for (const std::string& k : keys)
    if (!k.empty())
      for (const std::string& n : placeholders(tr(lang, k.c_str()))) names.push_back(n);
  return names;
}

// The line that follows texts filled from `then` once the values on screen are others: "" while they are the same.
// `keys` are the texts it follows. A text that quotes no value is true of any state it is shown in. One that does
// gets the line when a number it quotes is no longer the one on screen, or when a setting it was written for
// changed (a step text says "Temperature back to 1"); the line names the settings that changed.
std::string since_line(Lang lang, const char* key, const std::vector<std::string>& keys, const LiveValues& then,
                       const LiveValues& now) {
  const std::vector<std::string> quoted = quoted_names(lang, keys);
  if (then.empty() || quoted.empty()) return "";
  bool other = false;
  const std::string changes = changes_since(lang, then, now, other);
  bool stale = false;
  for (const std::string& name : quoted) stale = stale || printed_differently(lang, then, now, name);
  if (!changes.empty()) return tr_format(lang, key, {{"changes", changes}});
  if (stale) return tr(lang, (std::string(key) + "_other").c_str());
  return "";
}

std::string answer_text(Lang lang, const Task& t) {
  if (!t.choices.empty()) return tr(lang, t.choices[static_cast<size_t>(t.answer)].c_str());
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", t.number.value_or(0.0));
  return buf;
}

// The task's part: question and choices from the step's opening values, verdict, feedback, explanation.
void render_task(LessonView run, const Task& t, const LiveValues& live, const LiveValues& entry, StepTexts& out) {
  const Lang lang = run.pg.state.lang;
  const StepProgress& p = run.step;
  out.task = t.kind == Task::Kind::Predict ? StepTexts::Task::Predict : StepTexts::Task::Do;
  out.task_label = tr(lang, t.kind == Task::Kind::Predict ? "lesson.ui.predict" : "lesson.ui.do");
  out.question = fill_live_values(lang, t.question, entry);
  for (const std::string& c : t.choices) out.choices.push_back(fill_live_values(lang, c, entry));
  out.number = t.kind == Task::Kind::Predict && t.choices.empty();
  const LiveValues& done = p.done_values.empty() ? live : p.done_values;
  if (t.kind == Task::Kind::Do) {
    out.answered = out.correct = p.goal_met;
    if (p.goal_met) out.verdict = tr(lang, "lesson.ui.done");
    if (!p.goal_met && !t.hint.empty()) out.hint = fill_live_values(lang, t.hint, live);
  } else {
    out.answered = p.correct || p.missed;
    out.correct = p.correct;
    if (p.attempts > 0) out.verdict = tr(lang, p.correct ? "lesson.ui.right" : "lesson.ui.try_again");
    if (p.attempts > 0 && !p.correct) {
      const std::string& key = p.feedback.empty() ? t.hint : p.feedback;
      const LiveValues& given = p.answer_values.empty() ? entry : p.answer_values;
      if (!key.empty()) out.feedback = fill_live_values(lang, key, given);
      if (!p.missed) out.one_more = tr(lang, "lesson.ui.one_more");
    }
    if (p.missed) out.missed = tr_format(lang, "lesson.ui.missed", {{"answer", answer_text(lang, t)}});
  }
  if (out.answered && !t.explain.empty()) {
    out.explain = fill_live_values(lang, t.explain, done);
    out.explain_since = since_line(lang, t.kind == Task::Kind::Do ? "lesson.ui.since_goal" : "lesson.ui.since_answer",
                                   {t.explain}, p.done_values, live);
  }
}
}  // namespace

std::string changes_since(Lang lang, const LiveValues& then, const LiveValues& now, bool& other) {
  std::string out;
  for (const char* name : kNamedValues) {
    if (!printed_differently(lang, then, now, name)) continue;
    if (!out.empty()) out += ", ";
    out += tr_format(lang, "lesson.ui.change",
                     {{"name", tr(lang, (std::string("lesson.ui.value.") + name).c_str())},
                      {"then", format_live_value(lang, then.at(name))},
                      {"now", format_live_value(lang, now.at(name))}});
  }
  other = false;
  for (const auto& [name, value] : then) other = other || printed_differently(lang, then, now, name);
  return out;
}

std::vector<std::string> withheld_facts(LessonView run) {
  const LessonStep* s = open_step(run.pg);
  if (!s || s->task.kind != Task::Kind::Predict || run.step.correct || run.step.missed) return {};
  return s->task.asks;
}

bool withholds(const std::vector<std::string>& withheld, const char* fact) {
  for (const std::string& f : withheld)
    if (f == fact) return true;
  return false;
}

StepTexts render_step(LessonView run) {
  StepTexts out;
  const Lesson* l = open_lesson(run.pg);
  const LessonStep* s = open_step(run.pg);
  if (!l || !s) return out;
  const Lang lang = run.pg.state.lang;
  const int n = run.pg.state.lesson.step, steps = static_cast<int>(l->steps.size());
  out.title = tr(lang, l->title.c_str());
  out.step_of = tr_format(lang, "lesson.ui.step_of", {{"step", std::to_string(n)}, {"steps", std::to_string(steps)}});
  out.back = tr(lang, "lesson.ui.back");
  out.next = tr(lang, n < steps ? "lesson.ui.next" : "lesson.ui.finish");
  out.check = tr(lang, "lesson.ui.check");
  out.exit = tr(lang, "lesson.ui.free_play");
  // A page fetches the compiled-in lessons' texts after its first view; a teacher's inline texts are there at once.
  if (!lesson_texts_present() && !has_string(lang, s->text)) {
    out.loading = true;
    out.text = tr(lang, "lesson.ui.loading");
    return out;
  }
  const LiveValues live = live_values(run.pg);
  const LiveValues& entry = run.step.entry_values.empty() ? live : run.step.entry_values;
  out.text = fill_live_values(lang, s->text, entry);
  if (s->task.kind != Task::Kind::None) render_task(run, s->task, live, entry, out);
  std::vector<std::string> opening = {s->text, s->task.question};
  opening.insert(opening.end(), s->task.choices.begin(), s->task.choices.end());
  out.text_since = since_line(lang, "lesson.ui.since_entry", opening, run.step.entry_values, live);
  return out;
}

namespace {
// A text of a finished lesson: it quotes no live values (no step is open to take them from), so any it would
// quote are left to the verifier, which refuses a question or choice that does.
std::string given_text(Lang lang, const Task& t, const json& given) {
  if (given.is_null()) return "";
  if (!t.choices.empty()) return fill_live_values(lang, t.choices[given.get<size_t>()], {});
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", given.get<double>());
  return buf;
}

ResultRow result_row(Lang lang, const Lesson& l, int step, const json& progress) {
  const Task& t = l.steps[static_cast<size_t>(step - 1)].task;
  ResultRow row;
  row.step = step;
  row.question = fill_live_values(lang, t.question, {});
  json given;
  const KeptVerdict v = kept_verdict(t, progress, l.id, &given);
  row.given = given_text(lang, t, given);
  if (!row.given.empty()) row.given = tr_format(lang, "lesson.results.given", {{"given", row.given}});
  row.right = v == KeptVerdict::RightFirst || v == KeptVerdict::RightLater;
  const char* verdict = v == KeptVerdict::RightFirst   ? "lesson.results.right_first"
                        : v == KeptVerdict::RightLater ? "lesson.results.right_later"
                        : v == KeptVerdict::Missed     ? "lesson.results.missed"
                        : v == KeptVerdict::Open       ? "lesson.results.open"
                                                       : "lesson.results.unanswered";
  row.verdict = tr(lang, verdict);
  if (!row.right) row.answer = tr_format(lang, "lesson.results.answer", {{"answer", answer_text(lang, t)}});
  row.review = tr_format(lang, "lesson.results.review", {{"step", std::to_string(step)}});
  return row;
}

std::string score_text(Lang lang, const LessonScore& c) {
  if (c.questions == 0) return tr(lang, "lesson.results.no_questions");
  const int percent = static_cast<int>(std::lround(100.0 * c.right_first / c.questions));
  return tr_format(lang, "lesson.results.score",
                   {{"right", std::to_string(c.right_first)},
                    {"questions", std::to_string(c.questions)},
                    {"percent", std::to_string(percent)}});
}
}  // namespace

LessonResults render_results(LessonView run) {
  LessonResults out;
  const Lesson* l = run.finished.empty() ? nullptr : find_lesson(run.finished);
  if (!l) return out;
  const Lang lang = run.pg.state.lang;
  out.lesson = l->id;
  out.counts = lesson_score(*l, run.progress);
  out.heading = tr_format(lang, "lesson.results.heading", {{"title", tr(lang, l->title.c_str())}});
  out.score = score_text(lang, out.counts);
  if (out.counts.tasks > 0)
    out.tasks =
        tr_format(lang, "lesson.results.tasks",
                  {{"done", std::to_string(out.counts.tasks_done)}, {"tasks", std::to_string(out.counts.tasks)}});
  out.answers_heading = tr(lang, "lesson.results.answers");
  for (size_t i = 0; i < l->steps.size(); ++i)
    if (l->steps[i].task.kind == Task::Kind::Predict)
      out.rows.push_back(result_row(lang, *l, static_cast<int>(i) + 1, run.progress));
  out.restart = tr(lang, "lesson.results.restart");
  out.close = tr(lang, "lesson.results.close");
  const std::vector<LessonEntry>& entries = lesson_entries();
  for (size_t i = 0; i + 1 < entries.size(); ++i)
    if (entries[i].id == l->id) {
      out.next_id = entries[i + 1].id;
      out.next = tr_format(lang, "lesson.results.next", {{"title", tr(lang, entries[i + 1].title.c_str())}});
    }
  return out;
}

std::vector<std::string> all_texts(const LessonResults& r) {
  std::vector<std::string> v = {r.heading, r.score, r.tasks, r.answers_heading, r.restart, r.close, r.next};
  for (const ResultRow& row : r.rows)
    for (const std::string* s : {&row.question, &row.given, &row.verdict, &row.answer, &row.review}) v.push_back(*s);
  return v;
}

std::vector<std::string> all_texts(const StepTexts& t) {
  std::vector<std::string> v = {t.title, t.step_of, t.text, t.text_since, t.task_label, t.question};
  v.insert(v.end(), t.choices.begin(), t.choices.end());
  for (const std::string* s : {&t.verdict, &t.feedback, &t.one_more, &t.missed, &t.explain, &t.explain_since, &t.hint,
                               &t.back, &t.next, &t.check, &t.exit})
    v.push_back(*s);
  return v;
}

}  // namespace attn
