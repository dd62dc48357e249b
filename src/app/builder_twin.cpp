// builder_twin.cpp — the lesson builder's parallel-DOM description and the actions its twins send (builder_twin.h).
#include "app/builder_twin.h"

#include <algorithm>
#include <cmath>

#include "app/app.h"
#include "app/builder_actions.h"
#include "app/lesson/lesson.h"
#include "app/state/registry.h"

namespace attn {
namespace {
using nlohmann::json;

constexpr size_t kMaxTypedBytes = 20000;  // a typed text longer than any lesson file allows is refused

json act(const char* what, int step = -1) {
  json a = {{"do", "builder"}, {"what", what}};
  if (step >= 0) a["step"] = step;
  return a;
}
json item(const char* kind, const std::string& id, const std::string& label) {
  return {{"kind", kind}, {"id", id}, {"label", label}};
}
json heading(const std::string& text, int level) { return {{"kind", "heading"}, {"text", text}, {"level", level}}; }
json note(const std::string& text, const char* tone = "") { return {{"kind", "note"}, {"text", text}, {"tone", tone}}; }
json button(const std::string& id, const std::string& label, json action, const std::string& why_not = "") {
  json b = item("button", id, label);
  b["act"] = std::move(action);
  if (!why_not.empty()) b["disabled"] = true, b["reason"] = why_not;
  return b;
}
json field(const char* kind, const std::string& id, const std::string& label, json value, json action) {
  json f = item(kind, id, label);
  f["value"] = std::move(value);
  f["act"] = std::move(action);
  return f;
}
json options(const std::vector<std::pair<std::string, std::string>>& values) {
  json o = json::array();
  for (const auto& [value, label] : values) o.push_back({{"value", value}, {"label", label}});
  return o;
}
json group(const std::string& label, json items, const std::string& id = "", bool collapsed = false) {
  json g = {{"kind", "group"}, {"label", label}, {"items", std::move(items)}, {"id", id}};
  if (collapsed) g["collapsed"] = true;
  return g;
}
std::string step_id(size_t i, const std::string& suffix = "") {
  return control_id(ControlFamily::builder_step, std::to_string(i + 1) + suffix);
}

// The description's parts, in the canvas's order.
struct Twin {
  const App& app;
  Lang lang = app.state.lang;
  Lang other = builder_other_lang(lang);
  const BuilderSession& b = app.builder;
  json items = json::array();

  const char* t(const char* key) const { return tr(lang, key); }
  std::string tf(const char* key, StringArgs args) const { return tr_format(lang, key, args); }
  json text(const std::string& id, const char* label, const DraftText& d, json action, bool in_other = false) const {
    action["other"] = in_other;
    json f = field("text", id, t(label), d.in(in_other ? other : lang), std::move(action));
    f["hint"] = d.in(in_other ? lang : other);  // what learners in this language read while it is empty
    f["multiline"] = true;
    return f;
  }

  void open_part();
  void head_part();
  void steps_part();
  void step_part(size_t i);
  json view_items(size_t i) const;
  json question_items(size_t i) const;
  json choice_items(size_t i) const;
  json goal_items(size_t i) const;
  json prediction_items(size_t i) const;
  json claims_group(size_t i, bool explain) const;
  json other_group(size_t i) const;
  void verdict_part();
  void outputs_part();
};

// Open a built-in lesson, a file or a link to edit, or start anew; or, while one waits, confirm replacing the draft.
void Twin::open_part() {
  if (!b.pending.is_null()) {
    items.push_back(note(tf("builder.replace_confirm", {{"n", std::to_string(b.draft.steps.size())}}), "bad"));
    items.push_back(button(control_id(ControlId::builder_replace), t("builder.replace"), act("replace")));
    items.push_back(button(control_id(ControlId::builder_keep), t("builder.keep"), act("keep")));
    return;
  }
  json open = json::array();
  open.push_back(button(control_id(ControlId::builder_new), t("builder.new"), act("new")));
  std::vector<std::pair<std::string, std::string>> builtins;
  for (const Lesson& l : lessons()) builtins.emplace_back(l.id, tr(lang, l.title.c_str()));
  if (!builtins.empty()) {
    const std::string picked = builtins[std::min(b.builtin, builtins.size() - 1)].first;
    json choose =
        field("select", control_id(ControlId::builder_builtin), t("a11y.builder_builtin"), picked, act("builtin"));
    choose["options"] = options(builtins);
    open.push_back(std::move(choose));
    open.push_back(button(control_id(ControlId::builder_open_builtin), t("builder.open_builtin"), act("open_builtin")));
  }
  if (builder_can_pick_file(app))
    open.push_back(button(control_id(ControlId::builder_open_file), t("builder.open_file"), act("open_file")));
  const bool path = app.host.read_file && !app.host.pick_file;
  open.push_back(field("text", control_id(ControlId::builder_open_text),
                       t(path ? "builder.open_path" : "builder.open_link"), b.open_text, act("open_text")));
  open.push_back(button(control_id(ControlId::builder_open), t("builder.open"), act("open"),
                        b.open_text.empty() ? t("a11y.builder_open_empty") : ""));
  items.push_back(group(t("builder.open_section"), std::move(open), control_id(ControlId::builder_open_section)));
}

void Twin::head_part() {
  items.push_back(field("text", control_id(ControlId::builder_id), t("builder.id"), b.draft.id, act("id")));
  json title = text(control_id(ControlId::builder_title), "builder.title", b.draft.title, act("title"));
  title["multiline"] = false;
  items.push_back(std::move(title));
  json add = button(control_id(ControlId::builder_add), t("builder.add"), act("add"),
                    b.draft.steps.size() >= kMaxDraftSteps ? t("a11y.builder_full") : "");
  add["then"] = step_id(b.draft.steps.size(), ":text");  // the new step is picked: its text comes next
  items.push_back(std::move(add));
}

// Each step a group: its name (pressed while it is the step being edited), Up, Down, Delete.
void Twin::steps_part() {
  items.push_back(heading(tf("builder.steps", {{"n", std::to_string(b.draft.steps.size())}}), 3));
  if (b.draft.steps.empty()) items.push_back(note(t("builder.no_steps")));
  const size_t n = b.draft.steps.size();
  for (size_t i = 0; i < n; ++i) {
    json row = json::array();
    json pick = button(step_id(i), builder_step_name(app, i), act("select", static_cast<int>(i)));
    pick["pressed"] = b.selected == static_cast<int>(i);
    row.push_back(std::move(pick));
    row.push_back(button(step_id(i, ":up"), t("builder.up"), act("up", static_cast<int>(i)),
                         i == 0 ? t("a11y.builder_first") : ""));
    row.push_back(button(step_id(i, ":down"), t("builder.down"), act("down", static_cast<int>(i)),
                         i + 1 == n ? t("a11y.builder_last") : ""));
    row.push_back(button(step_id(i, ":delete"), t("builder.delete"), act("delete", static_cast<int>(i))));
    items.push_back(group(tf("builder.step", {{"n", std::to_string(i + 1)}}), std::move(row)));
  }
}

// The step being edited: its text and claims, its view, its question, its texts in the other language.
void Twin::step_part(size_t i) {
  const DraftStep& s = b.draft.steps[i];
  const int at = static_cast<int>(i);
  items.push_back(heading(tf("builder.step", {{"n", std::to_string(i + 1)}}), 3));
  json t_act = act("text", at);
  t_act["field"] = "text";
  items.push_back(text(step_id(i, ":text"), "builder.text", s.text, t_act));
  items.push_back(claims_group(i, false));
  for (json& v : view_items(i)) items.push_back(std::move(v));
  for (json& q : question_items(i)) items.push_back(std::move(q));
  items.push_back(other_group(i));
}

json Twin::view_items(size_t i) const {
  const DraftStep& s = b.draft.steps[i];
  const int at = static_cast<int>(i);
  json out = json::array(
      {note(builder_recorded_text(app, i)), button(step_id(i, ":record"), t("builder.record"), act("record", at))});
  std::vector<std::pair<std::string, std::string>> panels = {{"", t("builder.none")}};
  for (const std::string& p : s.panels) panels.emplace_back(p, tr(lang, ("panel." + p).c_str()));
  json highlight = field("select", step_id(i, ":highlight"), t("builder.highlight"), s.highlight, act("highlight", at));
  highlight["options"] = options(panels);
  out.push_back(std::move(highlight));
  json locks = json::array();
  for (const ControlInfo& c : control_table()) {
    json a = act("lock", at);
    a["control"] = c.id;
    const bool on = std::find(s.lock.begin(), s.lock.end(), c.id) != s.lock.end();
    locks.push_back(field("checkbox", step_id(i, std::string(":lock:") + c.id), c.id, on, std::move(a)));
  }
  out.push_back(
      group(tf("builder.locks", {{"n", std::to_string(s.lock.size())}}), std::move(locks), step_id(i, ":locks"), true));
  return out;
}

json Twin::question_items(size_t i) const {
  const DraftStep& s = b.draft.steps[i];
  const int at = static_cast<int>(i);
  std::vector<std::pair<std::string, std::string>> kinds;
  for (size_t k = 0; k < builder_ask_keys().size(); ++k)
    kinds.emplace_back(std::to_string(k), t(builder_ask_keys()[k]));
  json ask =
      field("radio", step_id(i, ":ask"), t("builder.ask"), std::to_string(static_cast<int>(s.ask)), act("ask", at));
  ask["options"] = options(kinds);
  for (size_t k = 0; k < kinds.size(); ++k) ask["options"][k]["id"] = step_id(i, ":ask:" + std::to_string(k));
  json out = json::array({std::move(ask)});
  if (s.ask == DraftStep::Ask::None) return out;
  const auto text_of = [&](const char* f, const char* label, const DraftText& d) {
    json a = act("text", at);
    a["field"] = f;
    return text(step_id(i, std::string(":") + f), label, d, a);
  };
  out.push_back(note(tf("builder.task_id", {{"id", s.task_id}})));
  out.push_back(text_of("question", "builder.question", s.question));
  if (s.ask == DraftStep::Ask::Choice)
    for (json& c : choice_items(i)) out.push_back(std::move(c));
  if (s.ask == DraftStep::Ask::Number) {
    out.push_back(field("number", step_id(i, ":number"), t("builder.number"), s.number, act("number", at)));
    out.push_back(field("number", step_id(i, ":tolerance"), t("builder.tolerance"), s.tolerance, act("tolerance", at)));
  }
  if (s.ask == DraftStep::Ask::Do)
    for (json& g : goal_items(i)) out.push_back(std::move(g));
  else
    for (json& p : prediction_items(i)) out.push_back(std::move(p));
  out.push_back(text_of("hint", "builder.hint", s.hint));
  out.push_back(text_of("explain", "builder.explain", s.explain));
  out.push_back(claims_group(i, true));
  return out;
}

// Each choice: its text, whether it is the right one, Remove (two stay), why it is wrong; then Add a choice.
json Twin::choice_items(size_t i) const {
  const DraftStep& s = b.draft.steps[i];
  const int at = static_cast<int>(i);
  json out = json::array();
  for (size_t j = 0; j < s.choices.size(); ++j) {
    const std::string c = std::to_string(j + 1), cid = ":choice:" + c;
    json a = act("text", at);
    a["field"] = "choice", a["choice"] = j;
    json one = json::array({text(step_id(i, cid), "builder.text", s.choices[j].text, a)});
    json remove = act("remove_choice", at);
    remove["choice"] = j;
    one.push_back(button(step_id(i, cid + ":remove"), t("builder.remove"), std::move(remove),
                         s.choices.size() <= 2 ? t("a11y.builder_two_choices") : ""));
    if (static_cast<int>(j) != s.answer) {
      a["field"] = "feedback";
      one.push_back(text(step_id(i, cid + ":feedback"), "builder.feedback", s.choices[j].feedback, a));
    }
    out.push_back(group(tf("builder.choice", {{"n", c}}), std::move(one)));
  }
  // Which choice is right: one radio group (the canvas has a radio under each choice, tracked by that choice).
  json right = field("radio", step_id(i, ":right"), t("builder.right"), std::to_string(s.answer), act("right", at));
  right["options"] = json::array();
  for (size_t j = 0; j < s.choices.size(); ++j)
    right["options"].push_back({{"value", std::to_string(j)},
                                {"label", tf("builder.choice", {{"n", std::to_string(j + 1)}})},
                                {"id", step_id(i, ":choice:" + std::to_string(j + 1) + ":right")}});
  out.push_back(std::move(right));
  out.push_back(button(step_id(i, ":add_choice"), t("builder.add_choice"), act("add_choice", at),
                       s.choices.size() >= kMaxDraftChoices ? t("a11y.builder_many_choices") : ""));
  return out;
}

// A condition's three fields (a do task's goal, a new claim), then the value now.
json condition_items(const Twin& tw, const std::string& id, const char* value_label, const BuilderGoal& g,
                     const json& action) {
  std::vector<std::pair<std::string, std::string>> values, ops;
  for (const std::string& name : live_value_names()) values.emplace_back(name, name);
  for (const char* o : builder_goal_ops()) ops.emplace_back(o, o);
  json a = action;
  a["part"] = "value";
  json value = field("select", id + "value", tw.t(value_label), g.value, a);
  value["options"] = options(values);
  a["part"] = "op";
  json op = field("select", id + "op", tw.t("builder.goal_op"), g.op, a);
  op["options"] = options(ops);
  a["part"] = "than";
  json out = json::array(
      {std::move(value), std::move(op), field("number", id + "than", tw.t("builder.goal_than"), g.than, a)});
  if (const std::string now = builder_value_now(tw.app, g.value); !now.empty()) out.push_back(note(now));
  return out;
}

json Twin::goal_items(size_t i) const {
  const int at = static_cast<int>(i);
  json out = condition_items(*this, step_id(i, ":goal_"), "builder.goal_value", builder_goal(b.draft.steps[i]),
                             act("goal", at));
  out.push_back(note(builder_solution_text(app, i)));
  out.push_back(button(step_id(i, ":goal_record"), t("builder.record_goal"), act("record_goal", at)));
  return out;
}

// What a prediction asks about (no open panel may show it before the answer) and what the answer reveals.
json Twin::prediction_items(size_t i) const {
  const DraftStep& s = b.draft.steps[i];
  const int at = static_cast<int>(i);
  json facts = json::array();
  for (const std::string& fact : panel_facts()) {
    json a = act("asks", at);
    a["fact"] = fact;
    const bool on = std::find(s.asks.begin(), s.asks.end(), fact) != s.asks.end();
    facts.push_back(field("checkbox", step_id(i, ":asks:" + fact), fact, on, std::move(a)));
  }
  json out = json::array(
      {group(tf("builder.asks", {{"n", std::to_string(s.asks.size())}}), std::move(facts), step_id(i, ":asks"), true),
       button(step_id(i, ":hide"), t("builder.hide"), act("hide", at)), note(builder_reveal_text(app, i)),
       button(step_id(i, ":reveal"), t("builder.record_reveal"), act("record_reveal", at))});
  if (!s.reveal.empty())
    out.push_back(button(step_id(i, ":reveal_clear"), t("builder.clear"), act("clear_reveal", at)));
  return out;
}

json Twin::claims_group(size_t i, bool explain) const {
  const DraftStep& s = b.draft.steps[i];
  const json& holder = explain ? s.kept_task : s.kept;
  const json list = holder.value("claims", json());
  const size_t count = list.is_array() ? list.size() : 0;
  const std::string id = step_id(i, explain ? ":explain_claims" : ":claims");
  json a = act("claim", static_cast<int>(i));
  a["explain"] = explain;
  json list_items = json::array({note(t("builder.claims_help"))});
  for (size_t k = 0; k < count; ++k) {
    list_items.push_back(note(claim_text(list[k], lang)));
    json remove = a;
    remove["part"] = "remove", remove["claim"] = k;
    list_items.push_back(button(id + ":remove:" + std::to_string(k + 1), t("builder.remove"), std::move(remove)));
  }
  json make = act("new_claim");
  for (json& c : condition_items(*this, id + ":", "builder.claim_value",
                                 {b.new_claim_value, b.new_claim_op, b.new_claim_than}, make))
    list_items.push_back(std::move(c));
  json add = a;
  add["part"] = "add";
  list_items.push_back(button(id + ":add", t("builder.claim_add"), std::move(add)));
  json declare = a;
  declare["part"] = "declared";
  list_items.push_back(
      field("checkbox", id + ":declared", t("builder.claims_declared"), holder.contains("claims"), declare));
  const char* title = explain ? "builder.explain_claims" : "builder.claims";
  return group(tf(title, {{"n", std::to_string(count)}}), std::move(list_items), id, true);
}

// The same texts in the other language, optional: without them learners in that language read these.
json Twin::other_group(size_t i) const {
  const DraftStep& s = b.draft.steps[i];
  const int at = static_cast<int>(i);
  const auto text_of = [&](const char* f, const char* label, const DraftText& d, int choice, const std::string& id) {
    json a = act("text", at);
    a["field"] = f;
    if (choice >= 0) a["choice"] = choice;
    return text(step_id(i, ":other:" + id), label, d, a, true);
  };
  json list_items = json::array({text_of("text", "builder.text", s.text, -1, "text")});
  if (s.ask != DraftStep::Ask::None) {
    list_items.push_back(text_of("question", "builder.question", s.question, -1, "question"));
    for (size_t j = 0; s.ask == DraftStep::Ask::Choice && j < s.choices.size(); ++j) {
      const std::string c = std::to_string(j + 1);
      json one =
          json::array({text_of("choice", "builder.text", s.choices[j].text, static_cast<int>(j), "choice:" + c)});
      if (static_cast<int>(j) != s.answer)
        one.push_back(
            text_of("feedback", "builder.feedback", s.choices[j].feedback, static_cast<int>(j), "feedback:" + c));
      list_items.push_back(group(tf("builder.choice", {{"n", c}}), std::move(one)));
    }
    list_items.push_back(text_of("hint", "builder.hint", s.hint, -1, "hint"));
    list_items.push_back(text_of("explain", "builder.explain", s.explain, -1, "explain"));
  }
  const char* name = other == Lang::En ? "builder.lang_en" : "builder.lang_hi";
  return group(tf("builder.other_lang", {{"lang", t(name)}}), std::move(list_items), step_id(i, ":other"), true);
}

void Twin::verdict_part() {
  const BuilderVerdict v = builder_verdict(app);
  json head = note(v.head, v.ok ? "good" : "bad");
  head["id"] = control_id(ControlId::builder_check);
  items.push_back(std::move(head));
  for (const std::string& line : v.findings) items.push_back(note(line, "bad"));
  for (const std::string& line : v.unlocked) items.push_back(note(line));
  for (const std::string& line : v.long_steps) items.push_back(note(line, "bad"));
}

// The pass mark, then what the draft becomes: each refused, with the checker's problem as why, while it has one.
void Twin::outputs_part() {
  const bool graded = b.draft.pass != kPassNone;
  items.push_back(field("checkbox", control_id(ControlId::builder_pass), t("builder.pass"), graded, act("pass")));
  if (graded) {
    json mark = field("number", control_id(ControlId::builder_pass_mark), t("builder.pass_mark"),
                      std::lround((b.draft.pass >= 0 ? b.draft.pass : 0.8) * 100), act("pass_mark"));
    mark["min"] = 0, mark["max"] = 100, mark["step"] = 1;
    items.push_back(std::move(mark));
  }
  const std::string why = b.problem.empty() ? "" : tf("builder.problem", {{"error", b.problem}});
  json preview = button(control_id(ControlId::builder_preview), t("builder.preview"), act("preview"), why);
  preview["then"] = "lesson-text";  // the lesson step's text: the reader goes on as a learner would
  items.push_back(std::move(preview));
  items.push_back(button(control_id(ControlId::builder_save), t("builder.save"), act("save"), why));
  if (builder_can_link(app))
    items.push_back(button(control_id(ControlId::builder_link), t("builder.link"), act("link"), why));
  if (!app.host.make_course_package) return;
  if (!builder_can_package(app)) {
    items.push_back(note(t("builder.pass_none_scorm")));
    return;
  }
  json scorm = field("radio", "builder:scorm", t("a11y.builder_scorm"), std::to_string(b.scorm), act("scorm"));
  scorm["options"] = json::array(
      {{{"value", "0"}, {"label", t("share.lms_scorm12")}, {"id", control_id(ControlId::builder_scorm12)}},
       {{"value", "1"}, {"label", t("share.lms_scorm2004")}, {"id", control_id(ControlId::builder_scorm2004)}}});
  items.push_back(std::move(scorm));
  items.push_back(button(control_id(ControlId::builder_lms), t("builder.lms"), act("package"), why));
}
}  // namespace

json builder_twin_json(const App& app) {
  if (!app.state.panels.builder) return nullptr;
  Twin tw{app};
  tw.items.push_back(heading(tr(tw.lang, "panel.builder"), 2));
  if (!app.builder.previewing.empty()) {
    tw.items.push_back(note(tw.t("builder.previewing")));
    for (const std::string& line : builder_verdict(app).long_steps) tw.items.push_back(note(line, "bad"));
    json stop = button(control_id(ControlId::builder_stop), tw.t("builder.stop"), act("stop"));
    stop["then"] = control_id(ControlId::builder_preview);
    tw.items.push_back(std::move(stop));
    return {{"items", tw.items}, {"verdict", ""}};
  }
  tw.items.push_back(note(tw.t("builder.intro")));
  tw.open_part();
  tw.head_part();
  tw.steps_part();
  if (app.builder.selected >= 0 && app.builder.selected < static_cast<int>(app.builder.draft.steps.size()))
    tw.step_part(static_cast<size_t>(app.builder.selected));
  tw.verdict_part();
  tw.outputs_part();
  return {{"items", tw.items}, {"verdict", builder_verdict(app).head}};
}

namespace {
struct Args {
  int step = -1, choice = -1;
  json value;
  std::string part, field, control, fact;
  bool other = false, explain = false;
  int claim = -1;
};

Args read_args(const json& a) {
  Args r;
  const auto integer = [&](const char* k) { return a.contains(k) && a[k].is_number_integer() ? a[k].get<int>() : -1; };
  const auto text = [&](const char* k) {
    return a.contains(k) && a[k].is_string() ? a[k].get<std::string>() : std::string();
  };
  r.step = integer("step");
  r.choice = integer("choice");
  r.value = a.contains("value") ? a["value"] : json();
  r.part = text("part");
  r.field = text("field");
  r.control = text("control");
  r.fact = text("fact");
  r.claim = integer("claim");
  const auto flag = [&](const char* k) { return a.contains(k) && a[k].is_boolean() && a[k].get<bool>(); };
  r.other = flag("other");
  r.explain = flag("explain");
  return r;
}

// A typed text as the canvas's fields keep it: one paragraph (line breaks become spaces).
bool typed(const json& v, std::string& out) {
  if (!v.is_string() || v.get<std::string>().size() > kMaxTypedBytes) return false;
  out = v.get<std::string>();
  std::replace(out.begin(), out.end(), '\n', ' ');
  return true;
}

// A text of step `r.step` (its text, question, hint, explanation, a choice or its feedback) in the page's language or
// the other one.
std::string set_step_text(App& app, const Args& r) {
  DraftStep* s = builder_step(app, r.step);
  std::string v;
  if (!s) return tr(app.state.lang, "builder.act.no_step");
  if (!typed(r.value, v)) return tr(app.state.lang, "builder.act.no_text");
  const Lang lang = r.other ? builder_other_lang(app.state.lang) : app.state.lang;
  const bool in_choice = r.field == "choice" || r.field == "feedback";
  if (in_choice && (r.choice < 0 || r.choice >= static_cast<int>(s->choices.size())))
    return tr(app.state.lang, "builder.act.no_choice");
  DraftText* t = r.field == "text"       ? &s->text
                 : r.field == "question" ? &s->question
                 : r.field == "hint"     ? &s->hint
                 : r.field == "explain"  ? &s->explain
                 : r.field == "choice"   ? &s->choices[static_cast<size_t>(r.choice)].text
                 : r.field == "feedback" ? &s->choices[static_cast<size_t>(r.choice)].feedback
                                         : nullptr;
  if (!t) return tr(app.state.lang, "builder.act.no_field");
  t->in(lang) = v;
  builder_changed(app);
  return "";
}

// Open, start anew, confirm; the lesson's id, title and pass mark.
bool draft_act(App& app, const std::string& what, const Args& r, std::string& err) {
  BuilderSession& b = app.builder;
  std::string v;
  if (what == "new") {
    builder_request(app, json());
  } else if (what == "add") {  // the view now as a new step: it needs no step named
    builder_add_step(app);
  } else if (what == "builtin") {
    const auto& all = lessons();
    for (size_t i = 0; i < all.size(); ++i)
      if (r.value.is_string() && all[i].id == r.value.get<std::string>()) b.builtin = i;
  } else if (what == "open_builtin") {
    err = lessons().empty() ? tr(app.state.lang, "builder.act.no_builtin")
                            : builder_open_builtin(app, lessons()[std::min(b.builtin, lessons().size() - 1)].id);
  } else if (what == "open_file") {
    builder_pick_file(app);
  } else if (what == "open_text") {
    if (typed(r.value, v)) b.open_text = v;
  } else if (what == "open") {
    err = b.open_text.empty() ? tr(app.state.lang, "builder.act.no_link") : builder_open_typed(app);
  } else if (what == "replace") {
    builder_replace(app);
  } else if (what == "keep") {
    builder_keep(app);
  } else if (what == "id" || what == "title") {
    if (!typed(r.value, v)) return err = tr(app.state.lang, "builder.act.no_text"), true;
    if (what == "id")
      b.draft.id = v;
    else
      b.draft.title.in(r.other ? builder_other_lang(app.state.lang) : app.state.lang) = v;
    builder_changed(app);
  } else if (what == "pass") {
    if (r.value.is_boolean()) builder_set_pass(app, r.value.get<bool>(), 80);
  } else if (what == "pass_mark") {
    if (r.value.is_number() && std::isfinite(r.value.get<double>()))
      builder_set_pass(app, true, static_cast<int>(std::lround(std::clamp(r.value.get<double>(), 0.0, 100.0))));
  } else {
    return false;
  }
  return true;
}

// A number typed into a field: finite, else refused.
bool number(const json& v, double& out) {
  if (!v.is_number() || !std::isfinite(v.get<double>())) return false;
  out = v.get<double>();
  return true;
}

// Steps: add, pick, move, delete, record the view; what one highlights and locks.
bool step_act(App& app, const std::string& what, const Args& r, std::string& err) {
  const size_t i = static_cast<size_t>(r.step);
  if (what == "select") {
    builder_select(app, app.builder.selected == r.step ? -1 : r.step);
  } else if (what == "up" || what == "down") {
    err = builder_move(app, i, what == "up" ? -1 : 1) ? "" : tr(app.state.lang, "builder.act.cannot_move");
  } else if (what == "delete") {
    builder_delete(app, i);
  } else if (what == "record") {
    builder_record_view(app, i);
  } else if (what == "highlight") {
    if (r.value.is_string()) builder_set_highlight(app, i, r.value.get<std::string>());
  } else if (what == "lock") {
    if (!find_control(r.control)) return err = tr(app.state.lang, "builder.act.no_control"), true;
    if (r.value.is_boolean()) builder_set_lock(app, i, r.control, r.value.get<bool>());
  } else if (what == "text") {
    err = set_step_text(app, r);
  } else {
    return false;
  }
  return true;
}

// A step's question: its kind, choices, the right one, a number's answer.
bool question_act(App& app, const std::string& what, const Args& r, std::string& err) {
  const size_t i = static_cast<size_t>(r.step);
  const int k = r.value.is_string() ? std::atoi(r.value.get<std::string>().c_str()) : -1;
  double x = 0;
  if (what == "ask") {
    if (k < 0 || k >= static_cast<int>(builder_ask_keys().size()))
      return err = tr(app.state.lang, "builder.act.no_kind"), true;
    builder_set_ask(app, i, static_cast<DraftStep::Ask>(k));
  } else if (what == "right") {
    if (k < 0) return err = tr(app.state.lang, "builder.act.no_choice"), true;
    builder_set_answer(app, i, static_cast<size_t>(k));
  } else if (what == "add_choice") {
    err = builder_add_choice(app, i) ? "" : tr(app.state.lang, "builder.act.no_more_choices");
  } else if (what == "remove_choice") {
    const DraftStep* s = builder_step(app, r.step);
    if (r.choice < 0 || !s || static_cast<size_t>(r.choice) >= s->choices.size())
      return err = tr(app.state.lang, "builder.act.no_choice"), true;
    err = builder_remove_choice(app, i, static_cast<size_t>(r.choice))
              ? ""
              : tr(app.state.lang, "builder.act.two_choices_stay");
  } else if (what == "number" || what == "tolerance") {
    if (!number(r.value, x)) return err = tr(app.state.lang, "builder.act.not_number"), true;
    DraftStep& s = *builder_step(app, r.step);
    (what == "number" ? s.number : s.tolerance) = x;
    builder_changed(app);
  } else {
    return false;
  }
  return true;
}

// A do task's goal, a prediction's facts and reveal, a text's claims.
bool prediction_act(App& app, const std::string& what, const Args& r, std::string& err) {
  const size_t i = static_cast<size_t>(r.step);
  if (what == "goal") {
    builder_set_goal(app, i, r.part, r.value);
  } else if (what == "record_goal") {
    builder_record_goal(app, i);
  } else if (what == "asks") {
    if (r.value.is_boolean()) builder_set_asks(app, i, r.fact, r.value.get<bool>());
  } else if (what == "hide") {
    builder_hide_answers(app, i);
  } else if (what == "record_reveal") {
    builder_record_reveal(app, i);
  } else if (what == "clear_reveal") {
    builder_clear_reveal(app, i);
  } else if (what == "claim") {
    if (r.part == "add") builder_add_claim(app, i, r.explain);
    if (r.part == "remove" && r.claim >= 0) builder_remove_claim(app, i, r.explain, static_cast<size_t>(r.claim));
    if (r.part == "declared" && r.value.is_boolean()) builder_declare_claims(app, i, r.explain, r.value.get<bool>());
  } else {
    return false;
  }
  (void)err;
  return true;
}

// What the draft becomes, and the claim the next Add makes (kept by the builder, not by a step).
bool output_act(App& app, const std::string& what, const Args& r, std::string& err) {
  BuilderSession& b = app.builder;
  double x = 0;
  if (what == "preview") {
    err = builder_preview(app);
  } else if (what == "stop") {
    builder_stop_preview(app);
  } else if (what == "save") {
    err = builder_save(app);
  } else if (what == "link") {
    err = builder_copy_link(app);
  } else if (what == "scorm") {
    if (r.value == "0" || r.value == "1") b.scorm = r.value == "1" ? 1 : 0;
  } else if (what == "package") {
    err = builder_package(app);
  } else if (what == "new_claim") {
    if (r.part == "value" && r.value.is_string()) b.new_claim_value = r.value.get<std::string>();
    if (r.part == "op" && r.value.is_string()) b.new_claim_op = r.value.get<std::string>();
    if (r.part == "than" && number(r.value, x)) b.new_claim_than = x;
  } else {
    return false;
  }
  return true;
}
}  // namespace

std::string builder_act(App& app, const json& action) {
  if (!app.state.panels.builder) return tr(app.state.lang, "builder.act.not_open");
  const std::string what =
      action.contains("what") && action["what"].is_string() ? action["what"].get<std::string>() : "";
  const Args r = read_args(action);
  std::string err;
  bool known = draft_act(app, what, r, err) || output_act(app, what, r, err);
  if (!known) {
    if (!builder_step(app, r.step)) return tr(app.state.lang, "builder.act.no_step");
    known = step_act(app, what, r, err) || question_act(app, what, r, err) || prediction_act(app, what, r, err);
  }
  if (!known) return tr(app.state.lang, "builder.act.unknown");
  builder_check(app);  // the twin's next description shows the verdict on this edit
  return err;
}

}  // namespace attn
