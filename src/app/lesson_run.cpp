// lesson_run.cpp — following a lesson: steps apply partial states, predictions reveal, goals are checked.
#include "app/lesson_run.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "app/app.h"
#include "app/registry.h"
#include "app/state_json.h"
#include "app/strings.h"

namespace attn {

using nlohmann::json;

namespace {
void emit(App& app, const char* type, json detail) {
  detail["type"] = type;
  app.events.push_back(std::move(detail));
  if (app.events.size() > 256) app.events.erase(app.events.begin());  // nobody is listening: keep it bounded
}

void note_progress(App& app, const Lesson& l, int step, bool completed) {
  json& p = app.progress[l.id];
  if (!p.is_object()) p = json::object();
  p["furthest"] = std::max(p.value("furthest", 0), step);
  p["completed"] = p.value("completed", false) || completed;
  save_progress(app);
}

}  // namespace

const Lesson* open_lesson(const App& app) {
  return app.state.lesson.id.empty() ? nullptr : find_lesson(app.state.lesson.id);
}

const LessonStep* open_step(const App& app) {
  const Lesson* l = open_lesson(app);
  if (!l || app.state.lesson.step < 1 || app.state.lesson.step > static_cast<int>(l->steps.size())) return nullptr;
  return &l->steps[static_cast<size_t>(app.state.lesson.step - 1)];
}

std::string start_lesson(App& app, const std::string& id, int step) {
  const Lesson* l = find_lesson(id);
  if (!l) return "unknown lesson \"" + id + "\"";
  app.state.lesson.id = l->id;
  return go_to_step(app, step);
}

std::string go_to_step(App& app, int step) {
  const Lesson* l = open_lesson(app);
  if (!l) return "no lesson is open";
  step = std::clamp(step, 1, static_cast<int>(l->steps.size()));
  const LessonStep& s = l->steps[static_cast<size_t>(step - 1)];
  State next = app.state;
  const std::string err = apply_state_json(next, s.state);  // validated by the lesson test; checked again
  if (!err.empty()) return "step " + std::to_string(step) + " of " + l->id + " cannot be shown: " + err;
  next.lesson.step = step;
  if (!(next.lesson == app.state.lesson)) set_lesson_draft(app, "");  // reopening the same step keeps it
  show_step_panels(next, s);
  app.state = std::move(next);
  app.mark_lesson_entered();
  app.lesson_locks.clear();
  for (const std::string& id : s.lock) app.lesson_locks.push_back(canonical_control_id(id));
  app.step_progress = StepProgress{};
  app.update();
  emit(app, "lesson-step", {{"lesson", l->id}, {"step", step}, {"steps", l->steps.size()}});
  note_progress(app, *l, step, false);
  return "";
}

std::string open_lesson_file(App& app, const std::string& text, const std::string& name) {
  const Lesson* l = nullptr;
  std::string err = add_lesson(text, &l);
  if (err.empty()) err = start_lesson(app, l->id, 1);
  if (!err.empty()) {
    app.status =
        tr_format(app.state.lang, "status.lesson_failed", {{"name", printable(name)}, {"error", printable(err, 240)}});
    return err;
  }
  app.state.panels.lesson = true;
  app.update();
  app.status = tr_format(app.state.lang, "status.lesson_opened",
                         {{"name", printable(name)}, {"title", tr(app.state.lang, l->title.c_str())}});
  return "";
}

bool looks_like_lesson(const std::string& text) {
  const json j = json::parse(text, nullptr, false);
  return j.is_object() && j.contains("steps") && j["steps"].is_array();
}

void leave_lesson(App& app) {
  set_lesson_draft(app, "");
  app.state.lesson = LessonRef{};
  app.mark_lesson_entered();
  app.lesson_locks.clear();
  app.step_progress = StepProgress{};
}

bool next_step(App& app) {
  const Lesson* l = open_lesson(app);
  if (!l || !step_complete(app)) return false;
  if (app.state.lesson.step < static_cast<int>(l->steps.size()))
    return go_to_step(app, app.state.lesson.step + 1).empty();
  note_progress(app, *l, app.state.lesson.step, true);
  emit(app, "lesson-complete", {{"lesson", l->id}, {"steps", l->steps.size()}});
  leave_lesson(app);
  return true;
}

namespace {
// `feedback`: what this wrong answer is told (catalog key; "" = the hint). A question already answered
// right or missed takes no more answers.
bool record_answer(App& app, bool correct, json given, const std::string& feedback) {
  const Lesson* l = open_lesson(app);
  const LessonStep* s = open_step(app);
  if (!l || !s || s->task.kind != Task::Kind::Predict) return false;
  StepProgress& p = app.step_progress;
  if (p.correct || p.missed) return false;
  ++p.attempts;
  p.correct = correct;
  p.feedback = correct ? "" : feedback;
  p.missed = !correct && p.attempts >= kMaxMisses;
  if ((correct || p.missed) && !p.revealed) {
    State next = app.state;
    if (apply_state_json(next, s->task.reveal).empty()) {
      next.lesson = app.state.lesson;
      app.state = std::move(next);
      app.update();
    }
    p.revealed = true;
  }
  emit(app, "answer",
       {{"lesson", l->id},
        {"step", app.state.lesson.step},
        {"question", s->task.id},
        {"correct", correct},
        {"missed", p.missed},
        {"attempt", p.attempts},
        {"given", std::move(given)},
        {"kind", s->task.choices.empty() ? "numeric" : "choice"},
        {"correct_response", task_correct_response(s->task)}});
  return correct;
}

std::string slip_feedback(const Task& t, double value) {
  for (const Task::Slip& slip : t.slips)
    if (std::fabs(value - slip.number) <= slip.tolerance + 1e-12) return slip.feedback;
  return "";
}
}  // namespace

bool answer_choice(App& app, int choice) {
  const LessonStep* s = open_step(app);
  if (!s || s->task.choices.empty() || choice < 0 || choice >= static_cast<int>(s->task.choices.size())) return false;
  if (app.step_progress.correct || app.step_progress.missed) return false;
  app.step_progress.chosen = choice;
  const size_t i = static_cast<size_t>(choice);
  return record_answer(app, choice == s->task.answer, choice, i < s->task.feedback.size() ? s->task.feedback[i] : "");
}

bool answer_number(App& app, double value) {
  const LessonStep* s = open_step(app);
  if (!s || !s->task.number || !std::isfinite(value)) return false;
  if (app.step_progress.correct || app.step_progress.missed) return false;
  app.step_progress.typed = value;
  const bool right = std::fabs(value - *s->task.number) <= s->task.tolerance + 1e-12;
  return record_answer(app, right, value, slip_feedback(s->task, value));
}

void lesson_tick(App& app) {
  const Lesson* l = open_lesson(app);
  const LessonStep* s = open_step(app);
  if (!l || !s || s->task.kind != Task::Kind::Do || app.step_progress.goal_met) return;
  if (!condition_holds(s->task.goal, app)) return;
  app.step_progress.goal_met = true;
  emit(app, "answer",
       {{"lesson", l->id},
        {"step", app.state.lesson.step},
        {"question", s->task.id},
        {"correct", true},
        {"kind", "do"}});
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

bool step_complete(const App& app) {
  const LessonStep* s = open_step(app);
  if (!s) return true;
  switch (s->task.kind) {
    case Task::Kind::Predict:
      return app.step_progress.correct || app.step_progress.missed;
    case Task::Kind::Do:
      return app.step_progress.goal_met;
    case Task::Kind::None:
      break;
  }
  return true;
}

namespace {
// Which step a kept draft belongs to ("why-sqrt-dk/3").
std::string draft_owner(const App& app) { return app.state.lesson.id + "/" + std::to_string(app.state.lesson.step); }
constexpr size_t kMaxDraftBytes = 64;
constexpr size_t kMaxBuilderDraftBytes = 256 * 1024;  // as a lesson file
}  // namespace

std::string lesson_draft(const App& app) {
  const json& d = app.progress.value("draft", json::object());
  if (!d.is_object() || d.value("step", json()) != draft_owner(app) || app.state.lesson.id.empty()) return "";
  const json& text = d.value("text", json());
  return text.is_string() ? text.get<std::string>() : "";
}

void set_lesson_draft(App& app, const std::string& text) {
  if (text == lesson_draft(app)) return;
  if (text.empty())
    app.progress.erase("draft");
  else
    app.progress["draft"] = {{"step", draft_owner(app)}, {"text", text.substr(0, kMaxDraftBytes)}};
  save_progress(app);
}

bool answer_typed(App& app, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  while (end && *end == ' ') ++end;
  if (text.empty() || !end || *end != '\0' || !std::isfinite(v)) {
    app.status = tr(app.state.lang, "lesson.ui.need_number");
    return false;
  }
  return answer_number(app, v);
}

void save_progress(App& app) {
  if (app.host.save_progress) app.host.save_progress(app.progress.dump());
}

json progress_json(const App& app) { return app.progress; }

std::string load_progress(App& app, const std::string& text) {
  if (text.empty()) return "";
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object()) return "saved lesson progress is not readable and was ignored";
  json clean = json::object();
  for (auto it = j.begin(); it != j.end(); ++it) {
    const json& v = it.value();
    if (it.key() == "worksheet") {  // the worksheet's typed cells (worksheet.cpp)
      clean["worksheet"] = clean_worksheet_progress(v);
      app.worksheet.loaded.clear();  // reopened with them at the next frame
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
    if (!find_lesson(it.key()) || !v.is_object()) continue;  // lessons since removed, or garbage
    const json furthest = v.value("furthest", json(0)), completed = v.value("completed", json(false));
    clean[it.key()] = {{"furthest", furthest.is_number_integer() ? furthest.get<int>() : 0},
                       {"completed", completed.is_boolean() && completed.get<bool>()}};
  }
  app.progress = clean;
  ++app.progress_loads;
  return "";
}

void reset_progress(App& app) {
  app.progress = json::object();
  app.worksheet.loaded.clear();  // its cells go with the rest
  save_progress(app);
}

}  // namespace attn
