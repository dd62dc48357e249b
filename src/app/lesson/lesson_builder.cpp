// lesson_builder.cpp — the lesson builder's draft: recording views as steps, the lesson file it makes, its link.
#include "app/lesson/lesson_builder.h"

#include <algorithm>
#include <cmath>

#include "app/base/data.h"
#include "app/exchange/share.h"
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_run.h"
#include "app/lesson/lesson_verify.h"
#include "app/state/registry.h"
#include "app/state/state_json.h"
#include "core/share_codec.h"

namespace attn {

using nlohmann::json;

namespace {

// Keys of a shared state that are the learner's, not the view a step shows.
bool step_may_set(const std::string& key) {
  static const char* const kNot[] = {"panels", "lesson",   "lang",    "theme", "text_scale",
                                     "learn",  "exercise", "version", "tokens"};
  return std::none_of(std::begin(kNot), std::end(kNot), [&](const char* k) { return key == k; });
}

// Panels the builder leaves out of a step: the lesson panel is always shown, Share and the builder are the
// teacher's tools.
bool step_shows_panel(const std::string& key) { return key != "lesson" && key != "share" && key != "builder"; }

json text_json(const DraftText& t) {
  json j = json::object();
  for (const auto& [tag, text] : t.by_tag)
    if (!text.empty()) j[tag] = text;
  return j;
}

// An inline text, or "" for none; a catalog key (a built-in lesson opened as a draft) becomes its texts.
DraftText read_text(const json& j) {
  DraftText t;
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      if (it.value().is_string()) t.by_tag[it.key()] = it.value().get<std::string>();
  } else if (j.is_string() && !j.get<std::string>().empty()) {
    const std::string key = j.get<std::string>();
    t.in(Lang::En) = has_string(Lang::En, key) ? tr(Lang::En, key.c_str()) : key;
    for (const Lang l : languages())  // every catalog's own text (English stands in for a missing one)
      if (l != Lang::En && has_string(l, key)) t.in(l) = tr(l, key.c_str());
  }
  return t;
}

std::vector<std::string> read_strings(const json& j) {
  std::vector<std::string> out;
  if (j.is_array())
    for (const json& v : j)
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

// A kept text field as the file will have it: a catalog key becomes its texts inline (the key is another lesson's).
void inline_field(json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_string() || j[key].get<std::string>().empty()) return;
  const json t = text_json(read_text(j[key]));
  if (!t.empty()) j[key] = t;
}

// An edited field back into the file: set, or gone when empty (unless the file wrote it empty just so).
template <typename T>
void put(json& j, const char* key, const T& value, bool empty) {
  const json v = value;
  if (!empty)
    j[key] = v;
  else if (j.contains(key) && j[key] != v)
    j.erase(key);
}

// Fields of a kind of task that another kind does not have (a task switched from choices to a number drops them).
void drop_other_kinds(json& t, DraftStep::Ask ask) {
  const bool choice = ask == DraftStep::Ask::Choice, number = ask == DraftStep::Ask::Number;
  const bool predict = choice || number;
  for (const char* k : {"choices", "answer", "feedback"})
    if (!choice) t.erase(k);
  for (const char* k : {"number", "tolerance", "slips"})
    if (!number) t.erase(k);
  for (const char* k : {"asks", "reveal"})
    if (!predict) t.erase(k);
  for (const char* k : {"goal", "solution"})
    if (predict) t.erase(k);
}

json task_json(const DraftStep& s) {
  json t = s.kept_task;
  drop_other_kinds(t, s.ask);
  t["kind"] = s.ask == DraftStep::Ask::Do ? "do" : "predict";
  t["id"] = s.task_id;
  t["question"] = text_json(s.question);
  if (s.ask == DraftStep::Ask::Choice) {
    t["choices"] = json::array();
    t["feedback"] = json::array();
    for (size_t i = 0; i < s.choices.size(); ++i) {
      t["choices"].push_back(text_json(s.choices[i].text));
      const bool right = static_cast<int>(i) == s.answer;
      t["feedback"].push_back(right ? json("") : text_json(s.choices[i].feedback));
    }
    t["answer"] = s.answer;
  } else if (s.ask == DraftStep::Ask::Number) {
    t["number"] = s.number;
    t["tolerance"] = s.tolerance;
  }
  if (s.ask == DraftStep::Ask::Do) {
    t["goal"] = s.goal;
    put(t, "solution", s.solution, s.solution.empty());
  } else {
    t["asks"] = s.asks;
    put(t, "reveal", s.reveal, s.reveal.empty());
  }
  put(t, "hint", text_json(s.hint), s.hint.empty());
  put(t, "explain", text_json(s.explain), s.explain.empty());
  return t;
}

void read_prediction(const json& t, DraftStep& s) {
  s.asks = read_strings(t.value("asks", json()));
  if (t.value("reveal", json()).is_object()) s.reveal = t["reveal"];
  if (t.value("choices", json()).is_array()) {
    s.ask = DraftStep::Ask::Choice;
    const json& feedback = t.value("feedback", json::array());
    for (size_t i = 0; i < t["choices"].size() && i < 8; ++i)
      s.choices.push_back({read_text(t["choices"][i]), read_text(i < feedback.size() ? feedback[i] : json())});
    const json& a = t.value("answer", json(0));
    s.answer = a.is_number_integer() ? a.get<int>() : 0;
  } else {
    s.ask = DraftStep::Ask::Number;
    const json &n = t.value("number", json(0.0)), &tol = t.value("tolerance", json(0.0));
    s.number = n.is_number() ? n.get<double>() : 0;
    s.tolerance = tol.is_number() ? tol.get<double>() : 0;
  }
}

void read_task(const json& t, DraftStep& s) {
  if (!t.is_object()) return;
  const json kind = t.value("kind", json());
  if (kind != "predict" && kind != "do") return;
  s.kept_task = t;
  if (s.kept_task.value("slips", json()).is_array())
    for (json& slip : s.kept_task["slips"]) inline_field(slip, "feedback");
  if (t.value("id", json()).is_string()) s.task_id = t["id"].get<std::string>();
  s.question = read_text(t.value("question", json()));
  s.hint = read_text(t.value("hint", json()));
  s.explain = read_text(t.value("explain", json()));
  if (kind == "predict") return read_prediction(t, s);
  s.ask = DraftStep::Ask::Do;
  if (t.value("goal", json()).is_object()) s.goal = t["goal"];
  if (t.value("solution", json()).is_object()) s.solution = t["solution"];
}

// The number in a task id "q<n>", or 0: fresh ids count on from the highest a file has.
int question_number(const std::string& id) {
  if (id.size() < 2 || id[0] != 'q' || id.size() > 9) return 0;
  int n = 0;
  for (size_t i = 1; i < id.size(); ++i) {
    if (id[i] < '0' || id[i] > '9') return 0;
    n = n * 10 + (id[i] - '0');
  }
  return n;
}

// Builder's bookkeeping kept beside the draft with the progress, never a lesson's field.
bool builder_only_key(const std::string& key) { return key == "selected" || key == "next_question"; }

// The view now against the step's own state: every key the learner would have to change to get there.
json state_change(const DraftStep& s, const State& now) {
  const json captured = capture_step(now, {}).state, full = state_to_json(now);
  json change = json::object();
  for (auto it = captured.begin(); it != captured.end(); ++it)
    if (!s.state.contains(it.key()) || s.state[it.key()] != it.value()) change[it.key()] = it.value();
  for (auto it = s.state.begin(); it != s.state.end(); ++it)
    if (!captured.contains(it.key()) && full.contains(it.key()) && full[it.key()] != it.value())
      change[it.key()] = full[it.key()];
  return change;
}

}  // namespace

DraftStep capture_step(const State& s, const std::vector<std::string>& locks) {
  DraftStep step;
  const json shared = share_state_json(s);  // only what differs from the state's own preset
  for (auto it = shared.begin(); it != shared.end(); ++it)
    if (step_may_set(it.key())) step.state[it.key()] = it.value();
  if (!s.preset.empty()) step.state["preset"] = s.preset;  // the preset first, then what was changed on top
  for (const PanelInfo& p : panel_table())
    if (s.panels[p.id] && step_shows_panel(p.key)) step.panels.push_back(p.key);
  step.lock = locks;
  return step;
}

std::string fresh_task_id(LessonDraft& d) {
  for (;;) {
    const std::string id = "q" + std::to_string(d.next_question++);
    if (std::none_of(d.steps.begin(), d.steps.end(), [&](const DraftStep& s) { return s.task_id == id; })) return id;
  }
}

void set_ask(LessonDraft& d, size_t i, DraftStep::Ask ask) {
  if (i >= d.steps.size()) return;
  DraftStep& s = d.steps[i];
  s.ask = ask;
  if (ask != DraftStep::Ask::None && s.task_id.empty()) s.task_id = fresh_task_id(d);
  if (ask == DraftStep::Ask::Choice && s.choices.size() < 2) s.choices.resize(2);
  if (ask == DraftStep::Ask::Do && !s.goal.is_object()) s.goal = json::object();
}

bool move_step(LessonDraft& d, size_t i, int delta) {
  const long to = static_cast<long>(i) + delta;
  if (i >= d.steps.size() || to < 0 || to >= static_cast<long>(d.steps.size())) return false;
  std::swap(d.steps[i], d.steps[static_cast<size_t>(to)]);
  return true;
}

bool delete_step(LessonDraft& d, size_t i) {
  if (i >= d.steps.size()) return false;
  d.steps.erase(d.steps.begin() + static_cast<long>(i));
  return true;
}

json pass_json(double pass) {
  if (pass == kPassNone) return "none";
  return pass >= 0 ? json(pass) : json();
}

json draft_to_lesson_json(const LessonDraft& d) {
  json l = d.kept;
  l["id"] = d.id;
  l["title"] = text_json(d.title);
  l["steps"] = json::array();
  put(l, "pass", pass_json(d.pass), d.pass == kPassUnset);
  for (const DraftStep& s : d.steps) {
    json j = s.kept;
    j["text"] = text_json(s.text);
    put(j, "state", s.state, s.state.empty());
    put(j, "panels", s.panels, s.panels.empty());
    put(j, "highlight", s.highlight, s.highlight.empty());
    put(j, "lock", s.lock, s.lock.empty());
    if (s.ask != DraftStep::Ask::None)
      j["task"] = task_json(s);
    else
      j.erase("task");
    l["steps"].push_back(std::move(j));
  }
  return l;
}

std::string draft_lesson_text(const LessonDraft& d) { return draft_to_lesson_json(d).dump(1) + "\n"; }

std::string check_draft(const LessonDraft& d, std::vector<std::string>* findings, Lang words) {
  if (findings) findings->clear();
  if (d.steps.empty()) return tr(words, "lesson.check.no_steps");
  for (size_t i = 0; i < d.steps.size(); ++i)
    if (d.steps[i].ask != DraftStep::Ask::None && d.steps[i].task_id.empty())
      return tr_format(words, "lesson.check.no_task_id", {{"step", std::to_string(i + 1)}});
  for (const Lesson& b : lessons())
    if (b.id == d.id) return tr_format(words, "lesson.check.builtin_id", {{"id", d.id}});
  Lesson l;
  const std::string err = check_lesson_text(draft_lesson_text(d), l, words);
  if (!err.empty()) return err;
  // Then the states a learner can reach in it: the builder hands out only lessons the verifier passes.
  if (!findings) return verify_lesson_message(l, words);
  for (Lang lang : languages()) {
    const std::string tag = std::string("[") + lang_code(lang) + "]",
                      first = std::string("[") + lang_code(Lang::En) + "]";
    for (const std::string& f : verify_lesson(l, lang, kVerifySeed, kVerifyMoves, words).failures) {
      // A text written in one language only fails alike in the other, which shows it: say it once.
      std::string as_first = f;
      if (const size_t at = as_first.find(tag); at != std::string::npos) as_first.replace(at, tag.size(), first);
      if (lang == Lang::En || std::find(findings->begin(), findings->end(), as_first) == findings->end())
        findings->push_back(f);
    }
  }
  return findings->empty() ? "" : findings->front();
}

std::string draft_from_json(const json& j, LessonDraft& out, Lang words) {
  if (!j.is_object() || !j.value("steps", json()).is_array()) return tr(words, "lesson.check.not_a_lesson");
  LessonDraft d;
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!builder_only_key(it.key())) d.kept[it.key()] = it.value();
  inline_field(d.kept, "summary");
  if (j.value("id", json()).is_string()) d.id = j["id"].get<std::string>().substr(0, 64);
  d.title = read_text(j.value("title", json()));
  const json pass = j.value("pass", json());
  d.pass = pass == "none" ? kPassNone : pass.is_number() ? std::clamp(pass.get<double>(), 0.0, 1.0) : kPassUnset;
  for (const json& sj : j["steps"]) {
    if (d.steps.size() >= kMaxDraftSteps) break;
    if (!sj.is_object()) continue;
    DraftStep s;
    s.kept = sj;
    s.text = read_text(sj.value("text", json()));
    if (sj.value("state", json()).is_object()) s.state = sj["state"];
    s.panels = read_strings(sj.value("panels", json()));
    s.lock = read_strings(sj.value("lock", json()));
    if (sj.value("highlight", json()).is_string()) s.highlight = sj["highlight"].get<std::string>();
    read_task(sj.value("task", json()), s);
    d.next_question = std::max(d.next_question, question_number(s.task_id) + 1);
    d.steps.push_back(std::move(s));
  }
  const json next = j.value("next_question", json());  // a kept draft's count: ids of deleted questions stay used
  if (next.is_number_integer()) d.next_question = std::max(d.next_question, next.get<int>());
  for (size_t i = 0; i < d.steps.size(); ++i)
    if (d.steps[i].ask != DraftStep::Ask::None && d.steps[i].task_id.empty()) set_ask(d, i, d.steps[i].ask);
  out = std::move(d);
  return "";
}

std::string draft_from_builtin(const std::string& id, LessonDraft& out, Lang words) {
  for (const DataFile* f : data_files_in("lessons")) {
    const json j = json::parse(f->data, f->data + f->size, nullptr, false);
    if (!j.is_object() || j.value("id", json()) != id) continue;
    const std::string err = draft_from_json(j, out, words);
    if (err.empty()) out.id = ("my-" + id).substr(0, 64);
    return err;
  }
  // The id is quoted by the code: a catalog text naming a lesson in quotes names it by its title (test_lessons).
  return tr_format(words, "lesson.check.no_builtin", {{"quoted_id", "\"" + printable(id) + "\""}});
}

void record_goal(DraftStep& s, const State& now, const std::map<std::string, double>& values) {
  s.solution = state_change(s, now);
  if (!s.goal.is_object()) s.goal = json::object();
  const json name = s.goal.value("value", json());
  if (!name.is_string() || !values.count(name.get<std::string>())) s.goal["value"] = "max_weight";
  if (!values.count(s.goal["value"].get<std::string>())) return;
  const json op = s.goal.value("op", json());
  if (!op.is_string() || (op != "<" && op != "<=" && op != ">" && op != ">=" && op != "==")) s.goal["op"] = ">";
  const double v = values.at(s.goal["value"].get<std::string>());
  const std::string o = s.goal["op"].get<std::string>();
  // A round threshold just short of the value now, so the recorded view meets the goal with room to spare.
  if (o == ">" || o == ">=")
    s.goal["than"] = std::floor(v * 100 - 1e-9) / 100;
  else if (o == "<" || o == "<=")
    s.goal["than"] = std::ceil(v * 100 + 1e-9) / 100;
  else
    s.goal["than"] = std::round(v * 1000) / 1000, s.goal["tolerance"] = 0.005;
}

void record_reveal(DraftStep& s, const State& now) {
  json reveal = state_change(s, now);
  json panels = json::object();
  for (const PanelInfo& p : panel_table()) {
    if (!step_shows_panel(p.key)) continue;
    const bool in_step = std::find(s.panels.begin(), s.panels.end(), p.key) != s.panels.end();
    if (now.panels[p.id] != in_step) panels[p.key] = now.panels[p.id];
  }
  if (!panels.empty()) reveal["panels"] = panels;
  s.reveal = reveal;
}

bool hide_answer_panels(DraftStep& s) {
  bool hid = false;
  for (const PanelInfo& p : panel_table()) {
    const auto at = std::find(s.panels.begin(), s.panels.end(), p.key);
    if (at == s.panels.end()) continue;
    if (std::none_of(s.asks.begin(), s.asks.end(), [&](const std::string& f) { return panel_shows(p, f); })) continue;
    s.panels.erase(at);
    if (!s.reveal.is_object()) s.reveal = json::object();
    s.reveal["panels"][p.key] = true;
    if (s.highlight == p.key) s.highlight.clear();
    hid = true;
  }
  return hid;
}

void add_claim(json& holder, const std::string& value, const std::string& op, double than) {
  if (!holder.is_object()) holder = json::object();
  if (!holder.value("claims", json()).is_array()) holder["claims"] = json::array();
  holder["claims"].push_back({{"value", value}, {"op", op}, {"than", than}});
}

bool remove_claim(json& holder, size_t i) {
  if (!holder.is_object() || !holder.value("claims", json()).is_array() || i >= holder["claims"].size()) return false;
  holder["claims"].erase(i);
  return true;
}

std::string claim_text(const json& claim, Lang lang) {
  if (!claim.is_object()) return "?";
  const json& than_value = claim.value("than_value", json());
  const json& than = claim.value("than", json());
  return claim.value("value", std::string("?")) + " " + claim.value("op", std::string("?")) + " " +
         (than_value.is_string() ? than_value.get<std::string>()
          : than.is_number()     ? format_live_value(lang, than.get<double>())
                                 : std::string("?"));
}

void declare_claims(json& holder, bool declared) {
  if (!holder.is_object()) holder = json::object();
  if (!declared)
    holder.erase("claims");
  else if (!holder.value("claims", json()).is_array())
    holder["claims"] = json::array();
}

std::vector<DraftWarning> draft_warnings(const LessonDraft& d) {
  std::vector<DraftWarning> out;
  for (size_t i = 0; i < d.steps.size(); ++i) {
    const DraftStep& s = d.steps[i];
    if (s.ask != DraftStep::Ask::Choice && s.ask != DraftStep::Ask::Number) continue;
    // The step sets the view the question is about; a key it sets that the learner may move changes the answer.
    for (auto it = s.state.begin(); it != s.state.end(); ++it) {
      const ControlInfo* c = find_control(it.key());
      if (!c || std::find(s.lock.begin(), s.lock.end(), std::string(c->id)) != s.lock.end()) continue;
      out.push_back({i + 1, c->id});
    }
  }
  return out;
}

std::string lesson_link(const std::string& page_url, const LessonDraft& d, std::string& link, Lang words) {
  link.clear();
  const std::string encoded = share_encode(draft_to_lesson_json(d).dump());  // "s=1.<base64url>"
  const std::string made = page_url + kLessonLinkPrefix + encoded.substr(encoded.find('.') + 1);
  if (made.size() > kMaxLessonLinkChars)
    return tr_format(words, "lesson.check.link_long",
                     {{"n", std::to_string(made.size())}, {"max", std::to_string(kMaxLessonLinkChars)}});
  link = made;
  return "";
}

bool is_lesson_link(const std::string& fragment) {
  const std::string f = fragment.substr(fragment.find('#') == std::string::npos ? 0 : fragment.find('#'));
  return f.rfind(kLessonLinkPrefix, 0) == 0 || f.rfind(kLessonLinkPrefix + 1, 0) == 0;
}

std::string decode_lesson_link(const std::string& fragment, std::string& text, Lang words) {
  const size_t at = fragment.find("lesson=1.");
  if (at == std::string::npos) return tr(words, "lesson.check.link_no_lesson");
  return share_decode("s=1." + fragment.substr(at + 9), text);
}

std::string open_lesson_link(LessonParts run, const std::string& fragment) {
  std::string text;
  const std::string err = decode_lesson_link(fragment, text, run.pg.state.lang);
  if (!err.empty()) {
    run.pg.status = tr_format(run.pg.state.lang, "status.lesson_failed", {{"name", "link"}, {"error", err}});
    return err;
  }
  return open_lesson_file(run, text, "link");
}

size_t scorm_record_chars(const LessonDraft& d, size_t i) {
  if (i >= d.steps.size()) return 0;
  State s = default_state();
  for (size_t k = 0; k <= i; ++k) apply_state_json(s, d.steps[k].state);  // as the learner arrives at step i
  size_t answers = 0;  // attnplay-lms.js keeps ~90 characters per answered question
  for (size_t k = 0; k <= i; ++k) answers += d.steps[k].ask == DraftStep::Ask::None ? 0 : 90;
  return 40 + d.id.size() + answers + share_fragment(s).size() + 1;
}

}  // namespace attn
