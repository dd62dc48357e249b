// lesson_run.cpp — following a lesson: steps apply partial states, predictions reveal, goals are checked.
#include "app/lesson/lesson_run.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "app/base/page_events.h"
#include "app/base/strings.h"
#include "app/lesson/lesson_text.h"
#include "app/state/registry.h"
#include "app/state/state_json.h"

namespace attn {

using nlohmann::json;

namespace {
void emit(Playground& pg, PageEvent type, json detail) {
  detail["type"] = page_event_name(type);
  pg.emit(std::move(detail));
}

void take_snapshot(LessonParts run, LiveValues& into) {
  into = live_values(run.pg);
  run.step.values_settling = run.step.values_settling || run.pg.result.variance_pending;
}

// The task's kept answer in the progress ({"answers": {"<task id>": …}} under the lesson's id), or null.
const json& kept_answer(const json& progress, const std::string& lesson, const std::string& task) {
  static const json none;
  const auto l = progress.find(lesson);
  if (l == progress.end() || !l->is_object()) return none;
  const auto answers = l->find("answers");
  if (answers == l->end() || !answers->is_object()) return none;
  const auto a = answers->find(task);
  return a == answers->end() ? none : *a;
}

void keep_answer(LessonParts run, const Lesson& l, const std::string& task, json answer) {
  json& p = run.progress[l.id];
  if (!p.is_object()) p = json::object();
  p["answers"][task] = std::move(answer);
  save_progress(run);
}

// A right answer, or the last miss, shows the answer: the task's reveal state is applied (once per visit).
void reveal(LessonParts run, const LessonStep& s) {
  StepProgress& p = run.step;
  if (p.revealed) return;
  State next = run.pg.state;
  if (apply_state_json(next, s.task.reveal).empty()) {
    next.lesson = run.pg.state.lesson;
    run.pg.state = std::move(next);
    run.pg.recompute();
  }
  p.revealed = true;
  take_snapshot(run, p.done_values);  // what the explanation speaks of, whatever the learner does next
}

std::string slip_feedback(const Task& t, double value) {
  for (const Task::Slip& slip : t.slips)
    if (std::fabs(value - slip.number) <= slip.tolerance + 1e-12) return slip.feedback;
  return "";
}

// A given answer's verdict and what a wrong one is told; false when `given` is no answer to this task.
bool judge(const Task& t, const json& given, bool& correct, std::string& feedback) {
  if (!t.choices.empty()) {
    if (!given.is_number_integer()) return false;
    const long long i = given.get<long long>();
    if (i < 0 || i >= static_cast<long long>(t.choices.size())) return false;
    correct = i == t.answer;
    feedback = correct || static_cast<size_t>(i) >= t.feedback.size() ? "" : t.feedback[static_cast<size_t>(i)];
    return true;
  }
  if (!t.number || !given.is_number() || !std::isfinite(given.get<double>())) return false;
  const double v = given.get<double>();
  correct = std::fabs(v - *t.number) <= t.tolerance + 1e-12;
  feedback = correct ? "" : slip_feedback(t, v);
  return true;
}

// The open step as the learner left it (a reload, a relaunch from an LMS, Back to an answered step): its kept answer
// is applied as it was given, verdict and reveal included, without an "answer" event (nothing new was answered).
void restore_step(LessonParts run) {
  const Lesson* l = open_lesson(run.pg);
  const LessonStep* s = open_step(run.pg);
  StepProgress& p = run.step;
  if (!l || !s || s->task.id.empty() || p.attempts > 0 || p.goal_met) return;
  const json& kept = kept_answer(run.progress, l->id, s->task.id);
  if (!kept.is_object()) return;
  if (s->task.kind == Task::Kind::Do) {
    // The explanation quotes the values of the moment the goal was met: kept with it, or the goal is not restored.
    if (kept.value("done", false) && kept.contains("values") && kept["values"].is_object()) {
      for (const std::string& name : live_value_names())
        if (kept["values"].contains(name) && kept["values"][name].is_number())
          p.done_values[name] = kept["values"][name].get<double>();
      p.goal_met = !p.done_values.empty();
    }
    return;
  }
  bool correct = false;
  std::string feedback;
  const json given = kept.value("given", json());
  if (s->task.kind != Task::Kind::Predict || !judge(s->task, given, correct, feedback)) return;
  const json attempts = kept.value("attempts", json(1));
  p.attempts = std::clamp(attempts.is_number_integer() ? attempts.get<int>() : 1, 1, kMaxMisses);
  if (given.is_number_integer() && !s->task.choices.empty()) p.chosen = given.get<int>();
  if (s->task.number) p.typed = given.get<double>();
  p.correct = correct;
  p.feedback = feedback;
  p.missed = !correct && p.attempts >= kMaxMisses;
  p.answer_values = p.entry_values;
  if (p.correct || p.missed) reveal(run, *s);
}

void note_progress(LessonParts run, const Lesson& l, int step, bool completed) {
  json& p = run.progress[l.id];
  if (!p.is_object()) p = json::object();
  p["furthest"] = std::max(p.value("furthest", 0), step);
  p["completed"] = p.value("completed", false) || completed;
  save_progress(run);
}

}  // namespace

const Lesson* open_lesson(const Playground& pg) {
  return pg.state.lesson.id.empty() ? nullptr : find_lesson(pg.state.lesson.id);
}

const LessonStep* open_step(const Playground& pg) {
  const Lesson* l = open_lesson(pg);
  if (!l || pg.state.lesson.step < 1 || pg.state.lesson.step > static_cast<int>(l->steps.size())) return nullptr;
  return &l->steps[static_cast<size_t>(pg.state.lesson.step - 1)];
}

std::string start_lesson(LessonParts run, const std::string& id, int step) {
  const Lesson* l = find_lesson(id);
  if (!l) return "unknown lesson \"" + id + "\"";
  run.pg.state.lesson.id = l->id;
  return go_to_step(run, step);
}

std::string continue_lesson(LessonParts run, const std::string& id) {
  const auto it = run.progress.find(id);
  const json p = it != run.progress.end() && it->is_object() ? *it : json::object();
  const int furthest = p.value("furthest", 0);
  return start_lesson(run, id, furthest > 0 && !p.value("completed", false) ? furthest : 1);
}

std::string go_to_step(LessonParts run, int step) {
  const Lesson* l = open_lesson(run.pg);
  if (!l) return "no lesson is open";
  run.finished.clear();
  step = std::clamp(step, 1, static_cast<int>(l->steps.size()));
  const LessonStep& s = l->steps[static_cast<size_t>(step - 1)];
  State next = run.pg.state;
  const std::string err = apply_state_json(next, s.state);  // validated by the lesson test; checked again
  if (!err.empty()) return "step " + std::to_string(step) + " of " + l->id + " cannot be shown: " + err;
  next.lesson.step = step;
  if (!(next.lesson == run.pg.state.lesson)) set_lesson_draft(run, "");  // reopening the same step keeps it
  show_step_panels(next, s);
  run.pg.state = std::move(next);
  run.entered = run.pg.state.lesson;
  run.locks.clear();
  for (const std::string& id : s.lock) run.locks.push_back(canonical_control_id(id));
  run.step = StepProgress{};
  run.pg.recompute();
  take_snapshot(run, run.step.entry_values);  // what the step's text and question were written for
  restore_step(run);
  emit(run.pg, PageEvent::lesson_step, {{"lesson", l->id}, {"step", step}, {"steps", l->steps.size()}});
  note_progress(run, *l, step, false);
  return "";
}

std::string open_lesson_file(LessonParts run, const std::string& text, const std::string& name) {
  const Lesson* l = nullptr;
  std::string err = add_lesson(text, &l);
  if (err.empty()) err = start_lesson(run, l->id, 1);
  if (!err.empty()) {
    run.pg.status = tr_format(run.pg.state.lang, "status.lesson_failed",
                              {{"name", printable(name)}, {"error", printable(err, 240)}});
    return err;
  }
  run.pg.state.panels.lesson = true;
  run.pg.recompute();
  run.pg.status = tr_format(run.pg.state.lang, "status.lesson_opened",
                            {{"name", printable(name)}, {"title", tr(run.pg.state.lang, l->title.c_str())}});
  return "";
}

bool looks_like_lesson(const std::string& text) {
  const json j = json::parse(text, nullptr, false);
  return j.is_object() && j.contains("steps") && j["steps"].is_array();
}

void leave_lesson(LessonParts run) {
  set_lesson_draft(run, "");
  run.finished.clear();
  run.pg.state.lesson = LessonRef{};
  run.entered = run.pg.state.lesson;
  run.locks.clear();
  run.step = StepProgress{};
}

bool next_step(LessonParts run) {
  const Lesson* l = open_lesson(run.pg);
  if (!l || !step_complete(run)) return false;
  if (run.pg.state.lesson.step < static_cast<int>(l->steps.size()))
    return go_to_step(run, run.pg.state.lesson.step + 1).empty();
  note_progress(run, *l, run.pg.state.lesson.step, true);
  const LessonScore score = lesson_score(*l, run.progress);
  emit(run.pg, PageEvent::lesson_complete,
       {{"lesson", l->id},
        {"steps", l->steps.size()},
        {"questions", score.questions},
        {"right_first", score.right_first}});
  const std::string id = l->id;
  leave_lesson(run);
  run.finished = id;
  return true;
}

void close_results(LessonParts run) { run.finished.clear(); }

std::string review_step(LessonParts run, int step) {
  const Lesson* l = run.finished.empty() ? nullptr : find_lesson(run.finished);
  if (!l) return "no lesson has finished";
  if (step < 1 || step > static_cast<int>(l->steps.size())) return "no such step";
  return start_lesson(run, l->id, step);
}

std::string restart_lesson(LessonParts run, const std::string& id) {
  if (!find_lesson(id)) return "unknown lesson \"" + id + "\"";
  forget_answers(run, id);
  return start_lesson(run, id, 1);
}

namespace {
// `feedback`: what this wrong answer is told (catalog key; "" = the hint). A question already answered
// right or missed takes no more answers.
bool record_answer(LessonParts run, bool correct, json given, const std::string& feedback) {
  const Lesson* l = open_lesson(run.pg);
  const LessonStep* s = open_step(run.pg);
  if (!l || !s || s->task.kind != Task::Kind::Predict) return false;
  StepProgress& p = run.step;
  if (p.correct || p.missed) return false;
  ++p.attempts;
  take_snapshot(run, p.answer_values);  // what this answer's feedback speaks of
  p.correct = correct;
  p.feedback = correct ? "" : feedback;
  p.missed = !correct && p.attempts >= kMaxMisses;
  if (correct || p.missed) reveal(run, *s);
  keep_answer(run, *l, s->task.id, {{"given", given}, {"attempts", p.attempts}});
  // The question and its choices in the words the learner read (an LMS's interaction record and xAPI's activity
  // definition describe the question with them).
  const StepTexts words = render_step(run);
  emit(run.pg, PageEvent::answer,
       {{"lesson", l->id},
        {"step", run.pg.state.lesson.step},
        {"question", s->task.id},
        {"correct", correct},
        {"missed", p.missed},
        {"attempt", p.attempts},
        {"given", std::move(given)},
        {"kind", s->task.choices.empty() ? "numeric" : "choice"},
        {"correct_response", task_correct_response(s->task)},
        {"question_text", words.question},
        {"choice_texts", words.choices},
        {"lang", lang_code(run.pg.state.lang)}});
  return correct;
}

// The variance lab's draws may still be running when a snapshot is taken (they spread over frames): until they end,
// a snapshot taken at the current d_k follows them, so a text never quotes a half-drawn measurement.
void settle_snapshots(LessonParts run) {
  if (!run.step.values_settling || run.pg.result.variance_pending) return;
  run.step.values_settling = false;
  const LiveValues now = live_values(run.pg);
  for (LiveValues* v : {&run.step.entry_values, &run.step.answer_values, &run.step.done_values}) {
    if (v->empty() || v->count("d_k") == 0 || v->at("d_k") != now.at("d_k")) continue;
    for (const char* name : {"var_unscaled", "var_scaled"}) (*v)[name] = now.at(name);
  }
}

}  // namespace

bool answer_choice(LessonParts run, int choice) {
  const LessonStep* s = open_step(run.pg);
  if (!s || s->task.choices.empty() || choice < 0 || choice >= static_cast<int>(s->task.choices.size())) return false;
  if (run.step.correct || run.step.missed) return false;
  run.step.chosen = choice;
  const size_t i = static_cast<size_t>(choice);
  return record_answer(run, choice == s->task.answer, choice, i < s->task.feedback.size() ? s->task.feedback[i] : "");
}

bool answer_number(LessonParts run, double value) {
  const LessonStep* s = open_step(run.pg);
  if (!s || !s->task.number || !std::isfinite(value)) return false;
  if (run.step.correct || run.step.missed) return false;
  run.step.typed = value;
  const bool right = std::fabs(value - *s->task.number) <= s->task.tolerance + 1e-12;
  return record_answer(run, right, value, slip_feedback(s->task, value));
}

void lesson_tick(LessonParts run) {
  const Lesson* l = open_lesson(run.pg);
  const LessonStep* s = open_step(run.pg);
  if (!l || !s) return;
  settle_snapshots(run);
  if (s->task.kind != Task::Kind::Do || run.step.goal_met) return;
  if (!condition_holds(s->task.goal, run.pg)) return;
  run.step.goal_met = true;
  // The explanation quotes the values of the moment the goal was met; dragging on cannot make it false.
  take_snapshot(run, run.step.done_values);
  keep_answer(run, *l, s->task.id, {{"done", true}, {"values", run.step.done_values}});
  emit(run.pg, PageEvent::answer,
       {{"lesson", l->id},
        {"step", run.pg.state.lesson.step},
        {"question", s->task.id},
        {"correct", true},
        {"kind", "do"}});
}

KeptVerdict kept_verdict(const Task& t, const json& progress, const std::string& lesson, json* given) {
  const json& kept = kept_answer(progress, lesson, t.id);
  bool correct = false;
  std::string feedback;
  if (t.kind != Task::Kind::Predict || !kept.is_object() || !kept.contains("given") ||
      !judge(t, kept["given"], correct, feedback))
    return KeptVerdict::None;
  if (given) *given = kept["given"];
  const int attempts = kept.value("attempts", 1);
  if (correct) return attempts <= 1 ? KeptVerdict::RightFirst : KeptVerdict::RightLater;
  return attempts >= kMaxMisses ? KeptVerdict::Missed : KeptVerdict::Open;
}

LessonScore lesson_score(const Lesson& l, const json& progress) {
  LessonScore score;
  for (const LessonStep& s : l.steps) {
    if (s.task.kind == Task::Kind::Do) {
      ++score.tasks;
      const json& kept = kept_answer(progress, l.id, s.task.id);
      score.tasks_done += kept.is_object() && kept.value("done", false) ? 1 : 0;
    }
    if (s.task.kind != Task::Kind::Predict) continue;
    ++score.questions;
    switch (kept_verdict(s.task, progress, l.id)) {
      case KeptVerdict::RightFirst:
        ++score.right_first;
        break;
      case KeptVerdict::RightLater:
        ++score.right_later;
        break;
      case KeptVerdict::Missed:
        ++score.missed;
        break;
      case KeptVerdict::Open:
      case KeptVerdict::None:
        ++score.unanswered;
        break;
    }
  }
  return score;
}

json task_correct_response(const Task& t) {
  if (t.kind != Task::Kind::Predict) return nullptr;
  if (!t.choices.empty()) return t.answer;
  return json{{"number", t.number.value_or(0.0)}, {"tolerance", t.tolerance}};
}

json lesson_questions_json(const Lesson& l) {
  json list = json::array();
  for (size_t i = 0; i < l.steps.size(); ++i) {
    const Task& t = l.steps[i].task;
    if (t.kind != Task::Kind::Predict) continue;
    list.push_back({{"step", i + 1},
                    {"question", t.id},
                    {"kind", t.choices.empty() ? "numeric" : "choice"},
                    {"choices", t.choices.size()},
                    {"correct_response", task_correct_response(t)}});
  }
  return list;
}

bool step_complete(LessonView run) {
  const LessonStep* s = open_step(run.pg);
  if (!s) return true;
  switch (s->task.kind) {
    case Task::Kind::Predict:
      return run.step.correct || run.step.missed;
    case Task::Kind::Do:
      return run.step.goal_met;
    case Task::Kind::None:
      break;
  }
  return true;
}

namespace {
// Which step a kept draft belongs to ("why-sqrt-dk/3").
std::string draft_owner(LessonView run) {
  return run.pg.state.lesson.id + "/" + std::to_string(run.pg.state.lesson.step);
}
constexpr size_t kMaxDraftBytes = 64;
constexpr size_t kMaxBuilderDraftBytes = 256 * 1024;  // as a lesson file
constexpr size_t kMaxKeptAnswers = 64;                // a lesson has at most 64 steps

// Kept answers as restore_step reads them, anything else dropped: {"given": number, "attempts": n} for a prediction,
// {"done": true, "values": {live value: number}} for a do task; at most one per step of the largest lesson.
json clean_answers(const json& answers) {
  json clean = json::object();
  if (!answers.is_object()) return clean;
  for (auto it = answers.begin(); it != answers.end() && clean.size() < kMaxKeptAnswers; ++it) {
    const json& a = it.value();
    if (!a.is_object() || it.key().size() > 64) continue;
    if (a.value("done", json()) == json(true) && a.value("values", json()).is_object()) {
      json values = json::object();
      for (const std::string& name : live_value_names())
        if (a["values"].contains(name) && a["values"][name].is_number()) values[name] = a["values"][name];
      if (!values.empty()) clean[it.key()] = {{"done", true}, {"values", values}};
      continue;
    }
    const json given = a.value("given", json()), attempts = a.value("attempts", json(1));
    if (!given.is_number() || !std::isfinite(given.get<double>()) || !attempts.is_number_integer()) continue;
    clean[it.key()] = {{"given", given}, {"attempts", std::clamp(attempts.get<int>(), 1, kMaxMisses)}};
  }
  return clean;
}
}  // namespace

std::string lesson_draft(LessonView run) {
  const json& d = run.progress.value("draft", json::object());
  if (!d.is_object() || d.value("step", json()) != draft_owner(run) || run.pg.state.lesson.id.empty()) return "";
  const json& text = d.value("text", json());
  return text.is_string() ? text.get<std::string>() : "";
}

void set_lesson_draft(LessonParts run, const std::string& text) {
  if (text == lesson_draft(run)) return;
  if (text.empty())
    run.progress.erase("draft");
  else
    run.progress["draft"] = {{"step", draft_owner(run)}, {"text", text.substr(0, kMaxDraftBytes)}};
  save_progress(run);
}

bool answer_typed(LessonParts run, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  while (end && *end == ' ') ++end;
  if (text.empty() || !end || *end != '\0' || !std::isfinite(v)) {
    run.pg.status = tr(run.pg.state.lang, "lesson.ui.need_number");
    return false;
  }
  return answer_number(run, v);
}

void save_progress(LessonParts run) {
  if (run.host.save_progress) run.host.save_progress(run.progress.dump());
}

json progress_json(LessonView run) { return run.progress; }

namespace {
// Kept progress as the app reads it, anything else dropped; `worksheet` says whether it held the worksheet's cells.
json clean_progress(const json& j, bool& worksheet) {
  json clean = json::object();
  for (auto it = j.begin(); it != j.end(); ++it) {
    const json& v = it.value();
    if (it.key() == "worksheet") {  // the worksheet's typed cells (worksheet.cpp)
      clean["worksheet"] = clean_worksheet_progress(v);
      worksheet = true;
      continue;
    }
    if (it.key() == "view") {  // where panels were scrolled to (kept_view.h)
      if (v.is_object() && v.value("scroll", json()).is_object()) {
        json scroll = json::object();
        for (auto p = v["scroll"].begin(); p != v["scroll"].end(); ++p)
          if (p.value().is_number() && (find_panel(p.key()) || p.key() == "stack")) scroll[p.key()] = p.value();
        clean["view"] = {{"scroll", scroll}};
      }
      continue;
    }
    if (it.key() == "builder") {  // the lesson builder's draft (lesson_builder.h), valid or not yet
      if (v.is_object() && v.dump().size() <= kMaxBuilderDraftBytes) clean["builder"] = v;
      continue;
    }
    if (it.key() == "draft") {  // an answer typed but not checked (lesson_draft)
      if (v.is_object() && v.value("step", json()).is_string() && v.value("text", json()).is_string())
        clean["draft"] = {{"step", v["step"]}, {"text", v["text"].get<std::string>().substr(0, kMaxDraftBytes)}};
      continue;
    }
    if (!lesson_listed(it.key()) || !v.is_object()) continue;  // lessons since removed, or garbage
    const json furthest = v.value("furthest", json(0)), completed = v.value("completed", json(false));
    clean[it.key()] = {{"furthest", furthest.is_number_integer() ? furthest.get<int>() : 0},
                       {"completed", completed.is_boolean() && completed.get<bool>()}};
    const json answers = clean_answers(v.value("answers", json()));
    if (!answers.empty()) clean[it.key()]["answers"] = answers;
  }
  return clean;
}

// `from`'s keys that `into` lacks, one level down (a lesson's answers, the worksheet's exercises): this tab's wins.
void add_missing(json& into, const json& from) {
  for (auto it = from.begin(); it != from.end(); ++it)
    if (!into.contains(it.key())) into[it.key()] = it.value();
}
}  // namespace

std::string load_progress(LessonParts run, const std::string& text) {
  if (text.empty()) return "";
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object()) return "saved lesson progress is not readable and was ignored";
  bool worksheet = false;
  run.progress = clean_progress(j, worksheet);
  if (worksheet) run.worksheet.loaded.clear();  // reopened with its cells at the next frame
  ++run.progress_loads;
  restore_step(run);  // a step already open shows its kept answer
  return "";
}

std::string merge_progress(LessonParts run, const std::string& text) {
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object()) return "the other tab's progress is not readable";
  bool worksheet = false;
  const json theirs = clean_progress(j, worksheet);
  json merged = run.progress;
  for (auto it = theirs.begin(); it != theirs.end(); ++it) {
    const std::string& key = it.key();
    if (!merged.contains(key) || !merged[key].is_object()) {
      if (key != "draft" && key != "view" && key != "builder") merged[key] = it.value();  // this tab's own only
      continue;
    }
    if (key == "worksheet") {
      add_missing(merged[key], it.value());
    } else if (it->contains("furthest")) {  // a lesson
      json& mine = merged[key];
      mine["furthest"] = std::max(mine.value("furthest", 0), it->value("furthest", 0));
      mine["completed"] = mine.value("completed", false) || it->value("completed", false);
      if (it->contains("answers")) add_missing(mine["answers"], (*it)["answers"]);
    }
  }
  run.progress = std::move(merged);
  restore_step(run);                               // the other tab answered the step open here
  if (run.progress != theirs) save_progress(run);  // what only this tab had goes back into the shared store
  return "";
}

std::string keep_answers(LessonParts run, const std::string& lesson, const json& answers) {
  const Lesson* l = find_lesson(lesson);
  if (!l) return "unknown lesson \"" + printable(lesson) + "\"";
  if (!answers.is_object()) return "answers must be an object {\"<question id>\": {\"given\": …, \"attempts\": n}}";
  const json clean = clean_answers(answers);
  if (clean.size() != answers.size())
    return "an answer is not {\"given\": a choice index or a number, \"attempts\": n}";
  json& p = run.progress[l->id];
  if (!p.is_object()) p = {{"furthest", 0}, {"completed", false}};
  for (auto it = clean.begin(); it != clean.end(); ++it) p["answers"][it.key()] = it.value();
  save_progress(run);
  restore_step(run);
  return "";
}

void forget_answers(LessonParts run, const std::string& lesson) {
  const auto it = run.progress.find(lesson);
  if (it == run.progress.end() || !it->is_object() || !it->contains("answers")) return;
  it->erase("answers");
  save_progress(run);
}

void reset_progress(LessonParts run) {
  run.progress = json::object();
  run.worksheet.loaded.clear();  // its cells go with the rest
  save_progress(run);
}

}  // namespace attn
