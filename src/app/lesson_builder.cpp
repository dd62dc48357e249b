// lesson_builder.cpp — the lesson builder's draft: recording views as steps, the lesson file it makes, its link.
#include "app/lesson_builder.h"

#include <algorithm>
#include <cmath>

#include "app/app.h"
#include "app/lesson.h"
#include "app/lesson_run.h"
#include "app/lesson_verify.h"
#include "app/registry.h"
#include "app/share.h"
#include "app/state_json.h"
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
  if (!t.en.empty()) j["en"] = t.en;
  if (!t.hi_latn.empty()) j["hi-Latn"] = t.hi_latn;
  return j;
}

// An inline text, or "" for none; a catalog key (a built-in lesson opened as a draft) becomes its texts.
DraftText read_text(const json& j) {
  DraftText t;
  if (j.is_object()) {
    if (j.value("en", json()).is_string()) t.en = j["en"].get<std::string>();
    if (j.value("hi-Latn", json()).is_string()) t.hi_latn = j["hi-Latn"].get<std::string>();
  } else if (j.is_string() && !j.get<std::string>().empty()) {
    const std::string key = j.get<std::string>();
    t.en = has_string(Lang::En, key) ? tr(Lang::En, key.c_str()) : key;
    t.hi_latn = has_string(Lang::HiLatn, key) ? tr(Lang::HiLatn, key.c_str()) : "";
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

json task_json(const DraftStep& s, size_t index) {
  json t = {{"kind", "predict"}, {"id", "q" + std::to_string(index + 1)}, {"question", text_json(s.question)}};
  t["asks"] = json::array();
  if (s.ask == DraftStep::Ask::Choice) {
    t["choices"] = json::array();
    t["feedback"] = json::array();
    for (size_t i = 0; i < s.choices.size(); ++i) {
      t["choices"].push_back(text_json(s.choices[i].text));
      const bool right = static_cast<int>(i) == s.answer;
      t["feedback"].push_back(right ? json("") : text_json(s.choices[i].feedback));
    }
    t["answer"] = s.answer;
  } else {
    t["number"] = s.number;
    t["tolerance"] = s.tolerance;
  }
  if (!s.hint.empty()) t["hint"] = text_json(s.hint);
  if (!s.explain.empty()) t["explain"] = text_json(s.explain);
  return t;
}

void read_task(const json& t, DraftStep& s) {
  if (!t.is_object() || t.value("kind", json()) != "predict") return;
  s.question = read_text(t.value("question", json()));
  s.hint = read_text(t.value("hint", json()));
  s.explain = read_text(t.value("explain", json()));
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

json draft_to_lesson_json(const LessonDraft& d) {
  json l = {{"id", d.id}, {"title", text_json(d.title)}, {"steps", json::array()}};
  for (size_t i = 0; i < d.steps.size(); ++i) {
    const DraftStep& s = d.steps[i];
    json j = {{"text", text_json(s.text)}, {"state", s.state}};
    if (!s.panels.empty()) j["panels"] = s.panels;
    if (!s.highlight.empty()) j["highlight"] = s.highlight;
    if (!s.lock.empty()) j["lock"] = s.lock;
    if (s.ask != DraftStep::Ask::None) j["task"] = task_json(s, i);
    l["steps"].push_back(std::move(j));
  }
  return l;
}

std::string draft_lesson_text(const LessonDraft& d) { return draft_to_lesson_json(d).dump(1) + "\n"; }

std::string check_draft(const LessonDraft& d) {
  if (d.steps.empty()) return "the lesson has no steps yet";
  Lesson l;
  const std::string err = check_lesson_text(draft_lesson_text(d), l);
  // Then the states a learner can reach in it: the builder hands out only lessons the verifier passes.
  return err.empty() ? verify_lesson_message(l) : err;
}

std::string draft_from_json(const json& j, LessonDraft& out) {
  if (!j.is_object() || !j.value("steps", json()).is_array()) return "not a lesson: it has no \"steps\"";
  LessonDraft d;
  if (j.value("id", json()).is_string()) d.id = j["id"].get<std::string>().substr(0, 64);
  d.title = read_text(j.value("title", json()));
  for (const json& sj : j["steps"]) {
    if (d.steps.size() >= kMaxDraftSteps) break;
    if (!sj.is_object()) continue;
    DraftStep s;
    s.text = read_text(sj.value("text", json()));
    if (sj.value("state", json()).is_object()) s.state = sj["state"];
    s.panels = read_strings(sj.value("panels", json()));
    s.lock = read_strings(sj.value("lock", json()));
    if (sj.value("highlight", json()).is_string()) s.highlight = sj["highlight"].get<std::string>();
    read_task(sj.value("task", json()), s);
    d.steps.push_back(std::move(s));
  }
  out = std::move(d);
  return "";
}

std::string lesson_link(const std::string& page_url, const LessonDraft& d, std::string& link) {
  link.clear();
  const std::string encoded = share_encode(draft_to_lesson_json(d).dump());  // "s=1.<base64url>"
  const std::string made = page_url + kLessonLinkPrefix + encoded.substr(encoded.find('.') + 1);
  if (made.size() > kMaxLessonLinkChars)
    return "the link would be " + std::to_string(made.size()) + " characters; links up to " +
           std::to_string(kMaxLessonLinkChars) + " travel safely";
  link = made;
  return "";
}

bool is_lesson_link(const std::string& fragment) {
  const std::string f = fragment.substr(fragment.find('#') == std::string::npos ? 0 : fragment.find('#'));
  return f.rfind(kLessonLinkPrefix, 0) == 0 || f.rfind(kLessonLinkPrefix + 1, 0) == 0;
}

std::string decode_lesson_link(const std::string& fragment, std::string& text) {
  const size_t at = fragment.find("lesson=1.");
  if (at == std::string::npos) return "the link carries no lesson";
  return share_decode("s=1." + fragment.substr(at + 9), text);
}

std::string open_lesson_link(App& app, const std::string& fragment) {
  std::string text;
  const std::string err = decode_lesson_link(fragment, text);
  if (!err.empty()) {
    app.status = tr_format(app.state.lang, "status.lesson_failed", {{"name", "link"}, {"error", err}});
    return err;
  }
  return open_lesson_file(app, text, "link");
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
