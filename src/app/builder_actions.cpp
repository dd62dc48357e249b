// builder_actions.cpp — the lesson builder's actions for its canvas panel and its parallel-DOM twin
// (builder_actions.h).
#include "app/builder_actions.h"

#include <algorithm>
#include <cmath>

#include "app/app.h"
#include "app/app_exchange.h"
#include "app/lesson/course_package.h"
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_run.h"

namespace attn {
namespace {
using nlohmann::json;

json to_kept(const LessonDraft& d) {
  json j = draft_to_lesson_json(d);
  j["next_question"] = d.next_question;  // a deleted question's id is not given out again
  return j;
}

void adopt(App& app) {
  BuilderSession& b = app.builder;
  LessonDraft d;
  if (draft_from_json(b.pending, d).empty()) {
    b.draft = std::move(d);
    b.selected = -1;
    builder_changed(app);
    const Lang l = app.state.lang;
    const std::string title =
        b.draft.title.in(l).empty() ? b.draft.title.in(builder_other_lang(l)) : b.draft.title.in(l);
    app.status = b.draft.steps.empty()
                     ? tr(l, "builder.started")
                     : tr_format(l, "builder.opened", {{"title", title}, {"n", std::to_string(b.draft.steps.size())}});
  }
  b.pending = json();
}

// The draft a reloaded progress keeps (once per load).
void take_kept(App& app) {
  BuilderSession& b = app.builder;
  if (b.loads == app.progress_loads) return;
  b.loads = app.progress_loads;
  const json& kept = app.progress.value("builder", json());
  LessonDraft d;
  if (kept.is_object() && draft_from_json(kept, d).empty()) b.draft = std::move(d);
  ++b.edits;
  const json& selected = kept.is_object() ? kept.value("selected", json()) : json();
  b.selected = selected.is_number_integer() ? selected.get<int>() : -1;
}

// Why an output cannot be made now: the checker's problem, else "".
std::string refused(App& app) {
  builder_check(app);
  return app.builder.problem;
}
// Adds or takes out `item` of a list kept in order of adding.
bool toggle_in(std::vector<std::string>& list, const std::string& item, bool on) {
  const auto at = std::find(list.begin(), list.end(), item);
  if (on == (at != list.end())) return false;
  if (on)
    list.push_back(item);
  else
    list.erase(at);
  return true;
}
}  // namespace

Lang builder_other_lang(Lang page) { return page == Lang::En ? Lang::HiLatn : Lang::En; }

void builder_tick(App& app) {
  take_kept(app);
  if (!app.builder_opened.is_null()) {  // a lesson opened in the builder (a file picked for it, a typed link)
    builder_request(app, std::move(app.builder_opened));
    app.builder_opened = nullptr;
  }
  BuilderSession& b = app.builder;
  if (!b.previewing.empty() && app.state.lesson.id != b.previewing) builder_stop_preview(app);  // its lesson ended
  if (app.state.panels.builder) builder_check(app);  // once per edit: both surfaces show this verdict
}

namespace {
// The draft and the step picked, kept with the progress (a reload brings both back).
void keep(App& app) {
  const BuilderSession& b = app.builder;
  json j = draft_to_lesson_json(b.draft);
  j["selected"] = b.selected;
  j["next_question"] = b.draft.next_question;
  app.progress["builder"] = std::move(j);
  save_progress(app);
}
}  // namespace

void builder_changed(App& app) {
  ++app.builder.edits;  // a new version of the draft: the checker looks at it again
  keep(app);
}

void builder_check(App& app) {
  BuilderSession& b = app.builder;
  if (b.checked == b.edits && b.checked_lang == app.state.lang) return;
  b.checked = b.edits;
  b.checked_lang = app.state.lang;
  b.problem = check_draft(b.draft, &b.findings, app.state.lang);
  b.warnings = draft_warnings(b.draft);
  b.long_steps.clear();
  for (size_t i = 0; b.problem.empty() && i < b.draft.steps.size(); ++i)
    if (scorm_record_chars(b.draft, i) > kScorm12SuspendChars) b.long_steps.push_back(i + 1);
}

DraftStep* builder_step(App& app, int i) {
  auto& steps = app.builder.draft.steps;
  return i >= 0 && i < static_cast<int>(steps.size()) ? &steps[static_cast<size_t>(i)] : nullptr;
}

void builder_request(App& app, json next) {
  BuilderSession& b = app.builder;
  b.pending = next.is_null() ? json::object({{"steps", json::array()}}) : std::move(next);
  if (b.draft.steps.empty()) adopt(app);
}

void builder_replace(App& app) {
  if (!app.builder.pending.is_null()) adopt(app);
}

void builder_keep(App& app) { app.builder.pending = json(); }

std::string builder_open_builtin(App& app, const std::string& id) {
  LessonDraft d;
  if (std::string err = draft_from_builtin(id, d, app.state.lang); !err.empty()) return err;
  builder_request(app, to_kept(d));
  return "";
}

std::string builder_open_typed(App& app) {
  BuilderSession& b = app.builder;
  const bool path = app.host.read_file && !app.host.pick_file;  // the desktop: a path or a link
  std::string text = b.open_text;
  if (path && !is_lesson_link(text)) {
    if (std::string err = app.host.read_file(b.open_text, text); !err.empty()) {
      app.status = tr_format(app.state.lang, "status.lesson_failed", {{"name", b.open_text}, {"error", err}});
      return err;
    }
  }
  std::string err = open_in_builder(app, text, b.open_text);
  if (err.empty()) b.open_text.clear();
  return err;
}

bool builder_can_pick_file(const App& app) { return static_cast<bool>(app.host.pick_file); }

void builder_pick_file(App& app) {
  if (!app.host.pick_file) return;
  app.builder_import = true;
  app.host.pick_file();
}

void builder_add_step(App& app) {
  BuilderSession& b = app.builder;
  if (b.draft.steps.size() >= kMaxDraftSteps) return;
  b.draft.steps.push_back(capture_step(app.state, app.lesson_locks));
  b.selected = static_cast<int>(b.draft.steps.size()) - 1;
  builder_changed(app);
}

void builder_select(App& app, int i) {
  app.builder.selected = builder_step(app, i) ? i : -1;
  keep(app);  // the draft itself is as it was: nothing to check again
}

bool builder_move(App& app, size_t i, int delta) {
  BuilderSession& b = app.builder;
  if (!move_step(b.draft, i, delta)) return false;
  const int from = static_cast<int>(i), to = from + delta;
  if (b.selected == from)
    b.selected = to;
  else if (b.selected == to)
    b.selected = from;
  builder_changed(app);
  return true;
}

bool builder_delete(App& app, size_t i) {
  BuilderSession& b = app.builder;
  if (!delete_step(b.draft, i)) return false;
  if (b.selected == static_cast<int>(i)) b.selected = -1;
  if (b.selected > static_cast<int>(i)) --b.selected;
  builder_changed(app);
  return true;
}

void builder_record_view(App& app, size_t i) {
  DraftStep* s = builder_step(app, static_cast<int>(i));
  if (!s) return;
  const DraftStep now = capture_step(app.state, s->lock);
  s->state = now.state;
  s->panels = now.panels;
  if (std::find(s->panels.begin(), s->panels.end(), s->highlight) == s->panels.end()) s->highlight.clear();
  builder_changed(app);
}

void builder_set_highlight(App& app, size_t i, const std::string& panel) {
  DraftStep* s = builder_step(app, static_cast<int>(i));
  if (!s || (!panel.empty() && std::find(s->panels.begin(), s->panels.end(), panel) == s->panels.end())) return;
  s->highlight = panel;
  builder_changed(app);
}

void builder_set_lock(App& app, size_t i, const std::string& control, bool on) {
  DraftStep* s = builder_step(app, static_cast<int>(i));
  if (s && toggle_in(s->lock, control, on)) builder_changed(app);
}

void builder_set_ask(App& app, size_t i, DraftStep::Ask ask) {
  DraftStep* s = builder_step(app, static_cast<int>(i));
  if (!s || s->ask == ask) return;
  set_ask(app.builder.draft, i, ask);
  builder_changed(app);
}

bool builder_add_choice(App& app, size_t i) {
  DraftStep* s = builder_step(app, static_cast<int>(i));
  if (!s || s->choices.size() >= kMaxDraftChoices) return false;
  s->choices.emplace_back();
  builder_changed(app);
  return true;
}

bool builder_remove_choice(App& app, size_t i, size_t choice) {
  DraftStep* s = builder_step(app, static_cast<int>(i));
  if (!s || s->choices.size() <= 2 || choice >= s->choices.size()) return false;
  s->choices.erase(s->choices.begin() + static_cast<long>(choice));
  if (s->answer >= static_cast<int>(choice) && s->answer > 0) --s->answer;
  builder_changed(app);
  return true;
}

void builder_set_answer(App& app, size_t i, size_t choice) {
  DraftStep* s = builder_step(app, static_cast<int>(i));
  if (!s || choice >= s->choices.size()) return;
  s->answer = static_cast<int>(choice);
  builder_changed(app);
}

void builder_set_goal(App& app, size_t i, const std::string& part, const json& v) {
  DraftStep* s = builder_step(app, static_cast<int>(i));
  if (!s) return;
  if (part == "than" ? !v.is_number() || !std::isfinite(v.get<double>()) : !v.is_string()) return;
  if (part != "value" && part != "op" && part != "than") return;
  s->goal[part] = v;
  builder_changed(app);
}

void builder_record_goal(App& app, size_t i) {
  DraftStep* s = builder_step(app, static_cast<int>(i));
  if (!s) return;
  record_goal(*s, app.state, live_values(app));
  builder_changed(app);
}

void builder_set_asks(App& app, size_t i, const std::string& fact, bool on) {
  DraftStep* s = builder_step(app, static_cast<int>(i));
  const auto& facts = panel_facts();
  if (s && std::find(facts.begin(), facts.end(), fact) != facts.end() && toggle_in(s->asks, fact, on))
    builder_changed(app);
}

void builder_hide_answers(App& app, size_t i) {
  DraftStep* s = builder_step(app, static_cast<int>(i));
  if (s && hide_answer_panels(*s)) builder_changed(app);
}

void builder_record_reveal(App& app, size_t i) {
  DraftStep* s = builder_step(app, static_cast<int>(i));
  if (!s) return;
  record_reveal(*s, app.state);
  builder_changed(app);
}

void builder_clear_reveal(App& app, size_t i) {
  DraftStep* s = builder_step(app, static_cast<int>(i));
  if (!s || s->reveal.empty()) return;
  s->reveal = json::object();
  builder_changed(app);
}

json& builder_claims_holder(DraftStep& s, bool explain) { return explain ? s.kept_task : s.kept; }

void builder_add_claim(App& app, size_t i, bool explain) {
  DraftStep* s = builder_step(app, static_cast<int>(i));
  if (!s) return;
  const BuilderSession& b = app.builder;
  add_claim(builder_claims_holder(*s, explain), b.new_claim_value, b.new_claim_op, b.new_claim_than);
  builder_changed(app);
}

void builder_remove_claim(App& app, size_t i, bool explain, size_t claim) {
  DraftStep* s = builder_step(app, static_cast<int>(i));
  if (s && remove_claim(builder_claims_holder(*s, explain), claim)) builder_changed(app);
}

void builder_declare_claims(App& app, size_t i, bool explain, bool declared) {
  DraftStep* s = builder_step(app, static_cast<int>(i));
  if (!s) return;
  declare_claims(builder_claims_holder(*s, explain), declared);
  builder_changed(app);
}

void builder_set_pass(App& app, bool graded, int percent) {
  LessonDraft& d = app.builder.draft;
  const double pass = graded ? std::clamp(percent, 0, 100) / 100.0 : kPassNone;
  if (pass == d.pass) return;
  d.pass = pass;
  builder_changed(app);
}

std::string builder_preview(App& app) {
  if (std::string why = refused(app); !why.empty()) return why;
  BuilderSession& b = app.builder;
  State before = app.state;
  forget_answers(app, b.draft.id);  // a preview opens as a learner's first visit (answers are kept per lesson id)
  std::string err = open_lesson_file(app, draft_lesson_text(b.draft), tr(app.state.lang, "builder.preview_name"));
  if (!err.empty()) return err;
  b.before = std::move(before);
  b.previewing = b.draft.id;
  app.state.panels.builder = true;
  return "";
}

// The builder stays open beside the previewed lesson and, once the lesson ends (its last Next, Exit, or Stop),
// puts the view back as it was before the preview.
void builder_stop_preview(App& app) {
  BuilderSession& b = app.builder;
  if (b.previewing.empty()) return;
  if (app.state.lesson.id == b.previewing) leave_lesson(app);
  forget_answers(app, b.previewing);  // the teacher's try is no learner's progress
  const Lang lang = app.state.lang;
  app.state = b.before;
  app.state.lang = lang;
  app.state.panels.builder = true;
  app.update();
  app.status = tr(lang, "builder.back");
  b.previewing.clear();
}

std::string builder_save(App& app) {
  if (std::string why = refused(app); !why.empty()) return why;
  const LessonDraft& d = app.builder.draft;
  app.download((d.id.empty() ? "lesson" : d.id) + ".json", "application/json", draft_lesson_text(d));
  return "";
}

bool builder_can_link(const App& app) {
  return app.host.page_url && app.host.copy_text && !app.host.page_url().empty();  // not on the desktop
}

std::string builder_copy_link(App& app) {
  if (std::string why = refused(app); !why.empty()) return why;
  if (!builder_can_link(app)) return tr(app.state.lang, "builder.no_page_address");
  std::string link;
  if (std::string err = lesson_link(app.host.page_url(), app.builder.draft, link, app.state.lang); !err.empty()) {
    app.status = tr_format(app.state.lang, "builder.link_long", {{"error", err}});
    return err;
  }
  app.host.copy_text(link);
  app.status = tr_format(app.state.lang, "builder.link_copied", {{"n", std::to_string(link.size())}});
  return "";
}

bool builder_can_package(const App& app) {
  return static_cast<bool>(app.host.make_course_package) && app.builder.draft.pass != kPassNone;
}

std::string builder_package(App& app) {
  if (std::string why = refused(app); !why.empty()) return why;
  if (!builder_can_package(app)) return tr(app.state.lang, "builder.no_package");
  const std::string text = draft_lesson_text(app.builder.draft);
  const Lesson* added = nullptr;
  if (std::string err = add_lesson(text, &added, app.state.lang); !err.empty()) {
    app.status = tr_format(app.state.lang, "builder.problem", {{"error", err}});
    return err;
  }
  set_package_lesson_text(added->id, text);
  app.host.make_course_package(added->id, app.builder.scorm == 0 ? "1.2" : "2004");
  return "";
}

const std::array<const char*, 4>& builder_ask_keys() {
  static const std::array<const char*, 4> keys = {"builder.ask_none", "builder.ask_choice", "builder.ask_number",
                                                  "builder.ask_do"};
  return keys;
}

const std::vector<const char*>& builder_goal_ops() {
  static const std::vector<const char*> ops = {">", ">=", "<", "<=", "=="};
  return ops;
}

BuilderGoal builder_goal(const DraftStep& s) {
  const auto text = [&](const char* key, const char* otherwise) {
    const json& v = s.goal.value(key, json());
    return v.is_string() ? v.get<std::string>() : std::string(otherwise);
  };
  // Read without writing: a new goal has no threshold yet.
  const json than = s.goal.value("than", json(0.0));
  return {text("value", ""), text("op", ">"), than.is_number() ? than.get<double>() : 0.0};
}

std::string builder_value_now(const App& app, const std::string& value) {
  const LiveValues values = live_values(app);
  const auto now = values.find(value);
  if (now == values.end()) return "";
  return tr_format(app.state.lang, "builder.goal_now", {{"value", format_live_value(app.state.lang, now->second)}});
}

std::string builder_step_name(const App& app, size_t i) {
  const DraftStep& s = app.builder.draft.steps.at(i);
  const Lang l = app.state.lang;
  std::string shown = s.text.in(l).empty() ? s.text.in(builder_other_lang(l)) : s.text.in(l);
  shown = shown.substr(0, shown.find('\n'));
  if (shown.size() > 40) {  // cut at a character's start, never inside one
    size_t cut = 40;
    while (cut > 0 && (static_cast<unsigned char>(shown[cut]) & 0xC0) == 0x80) --cut;
    shown = shown.substr(0, cut) + "…";
  }
  const std::string name = std::to_string(i + 1) + ". " + (shown.empty() ? tr(l, "builder.untitled") : shown);
  return s.ask != DraftStep::Ask::None ? name + "  [?]" : name;
}

std::string builder_recorded_text(const App& app, size_t i) {
  const DraftStep& s = app.builder.draft.steps.at(i);
  std::string panels, keys;
  for (const std::string& p : s.panels)
    panels += (panels.empty() ? "" : ", ") + std::string(tr(app.state.lang, ("panel." + p).c_str()));
  for (auto it = s.state.begin(); it != s.state.end(); ++it) keys += (keys.empty() ? "" : ", ") + it.key();
  return tr_format(app.state.lang, "builder.recorded", {{"panels", panels}, {"keys", keys}});
}

std::string builder_reveal_text(const App& app, size_t i) {
  const DraftStep& s = app.builder.draft.steps.at(i);
  const Lang l = app.state.lang;
  return tr_format(l, "builder.reveal", {{"state", s.reveal.empty() ? tr(l, "builder.none") : s.reveal.dump()}});
}

std::string builder_solution_text(const App& app, size_t i) {
  const DraftStep& s = app.builder.draft.steps.at(i);
  const Lang l = app.state.lang;
  return tr_format(l, "builder.solution", {{"state", s.solution.empty() ? tr(l, "builder.none") : s.solution.dump()}});
}

BuilderVerdict builder_verdict(const App& app) {
  const BuilderSession& b = app.builder;
  const Lang l = app.state.lang;
  BuilderVerdict v;
  v.ok = b.problem.empty();
  v.head = v.ok ? tr_format(l, "builder.ok", {{"n", std::to_string(b.draft.steps.size())}})
                : tr_format(l, "builder.problem", {{"error", b.problem}});
  for (size_t i = 1; i < b.findings.size() && i < kShownFindings; ++i)  // the first is the head
    v.findings.push_back(tr_format(l, "builder.finding", {{"error", b.findings[i]}}));
  if (b.findings.size() > kShownFindings)
    v.findings.push_back(
        tr_format(l, "builder.more_findings", {{"n", std::to_string(b.findings.size() - kShownFindings)}}));
  for (size_t i = 0; i < b.warnings.size();) {  // one line per step: its unlocked controls together
    std::string controls;
    const size_t step = b.warnings[i].step;
    for (; i < b.warnings.size() && b.warnings[i].step == step; ++i)
      controls += (controls.empty() ? "" : ", ") + b.warnings[i].control;
    v.unlocked.push_back(tr_format(l, "builder.unlocked", {{"step", std::to_string(step)}, {"controls", controls}}));
  }
  for (size_t step : b.long_steps)
    v.long_steps.push_back(tr_format(l, "builder.scorm_long", {{"step", std::to_string(step)}}));
  return v;
}

}  // namespace attn
