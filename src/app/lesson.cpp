// lesson.cpp — lesson files parsed and validated; the live values lessons quote and check.
#include "app/lesson.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <vector>

#include "app/data.h"
#include "app/lesson_verify.h"
#include "app/numerics.h"
#include "app/playground.h"
#include "app/presets.h"
#include "app/registry.h"
#include "app/state_json.h"
#include "app/strings.h"
#include "app/summary.h"
#include "core/attention/attention.h"

namespace attn {

using nlohmann::json;

namespace {
constexpr size_t kMaxTextBytes = 2000;  // one inline text (the longest catalog text is ~530)
constexpr size_t kMaxChoices = 8;
constexpr size_t kMaxIdBytes = 64;

// Where inline texts of the lesson being parsed go, and the key prefix of the part being read
// ("step3.": the generated keys name the field, so a message or a key says where a text came from).
struct TextSink {
  Lesson& lesson;
  std::string part;
};

std::string inline_key(const TextSink& sink, const std::string& field) {
  return "inline:" + sink.lesson.id + ":" + sink.part + field;
}

// A text: a catalog key, or {"en": "…", "hi-Latn": "…"} kept under a generated key (one language may be
// missing: the other is shown, with a warning).
std::string read_text(const json& v, const std::string& field, std::string& out, TextSink& sink) {
  if (v.is_string()) {
    out = v.get<std::string>();
    return out.size() > 200 ? field + " is too long for a catalog key (write the text as {\"en\": …})" : "";
  }
  if (!v.is_object()) return field + " must be a catalog key or a text {\"en\": \"…\", \"hi-Latn\": \"…\"}";
  ExtraText text;
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (it.key() != "en" && it.key() != "hi-Latn")
      return field + ": unknown language \"" + printable(it.key(), 16) + "\" (use \"en\" and \"hi-Latn\")";
    if (!it.value().is_string()) return field + "." + it.key() + " must be a string";
    const std::string s = it.value().get<std::string>();
    if (s.size() > kMaxTextBytes)
      return field + "." + it.key() + " is " + std::to_string(s.size()) + " bytes long; a text has at most " +
             std::to_string(kMaxTextBytes);
    (it.key() == "en" ? text.en : text.hi_latn) = s;
  }
  if (text.en.empty() && text.hi_latn.empty()) return field + " has no text in \"en\" or \"hi-Latn\"";
  if (text.en.empty() || text.hi_latn.empty())
    sink.lesson.warnings.push_back(sink.part + field + ": no " + (text.en.empty() ? "\"en\"" : "\"hi-Latn\"") +
                                   " text; the other language is shown");
  out = inline_key(sink, field);
  sink.lesson.texts[out] = std::move(text);
  return "";
}

std::string get_text(const json& j, const char* key, std::string& out, bool required, TextSink& sink,
                     const std::string& prefix = "") {
  if (!j.contains(key)) return required ? prefix + key + " is missing" : "";
  return read_text(j[key], prefix + key, out, sink);
}

std::string get_texts(const json& j, const char* key, std::vector<std::string>& out, TextSink& sink,
                      const std::string& prefix = "") {
  if (!j.contains(key)) return "";
  const std::string field = prefix + key;
  if (!j[key].is_array()) return field + " must be a list of texts";
  for (size_t i = 0; i < j[key].size(); ++i) {
    out.emplace_back();
    const json& v = j[key][i];
    if (v.is_string() && v.get<std::string>().empty()) continue;  // "" = no text (the right answer's feedback)
    const std::string err = read_text(v, field + "[" + std::to_string(i) + "]", out.back(), sink);
    if (!err.empty()) return err;
  }
  return "";
}

std::string get_string(const json& j, const char* key, std::string& out, bool required) {
  if (!j.contains(key)) return required ? std::string(key) + " is missing" : "";
  if (!j[key].is_string()) return std::string(key) + " must be a string";
  out = j[key].get<std::string>();
  if (out.size() > 200) return std::string(key) + " is longer than 200 bytes";
  return "";
}

std::string get_strings(const json& j, const char* key, std::vector<std::string>& out) {
  if (!j.contains(key)) return "";
  if (!j[key].is_array()) return std::string(key) + " must be an array of strings";
  for (const json& v : j[key]) {
    if (!v.is_string()) return std::string(key) + " must be an array of strings";
    out.push_back(v.get<std::string>());
  }
  return "";
}

std::string parse_condition(const json& j, Condition& c, const std::string& field) {
  if (!j.is_object()) return field + " must be an object {value, op, than}";
  std::string err = get_string(j, "value", c.value, true);
  if (err.empty()) err = get_string(j, "op", c.op, true);
  if (!err.empty()) return field + "." + err;
  if (c.op != "<" && c.op != "<=" && c.op != ">" && c.op != ">=" && c.op != "==")
    return field + ".op must be <, <=, >, >= or ==";
  if (j.contains("than") && j["than"].is_string())
    c.than_value = j["than"].get<std::string>();
  else if (!j.contains("than") || !j["than"].is_number())
    return field + ".than must be a number or a live value's name";
  else
    c.than = j["than"].get<double>();
  if (j.contains("tolerance")) {
    if (!j["tolerance"].is_number() || !(j["tolerance"].get<double>() >= 0))
      return field + ".tolerance must be a number ≥ 0";
    c.tolerance = j["tolerance"].get<double>();
  }
  if (j.contains("state")) {
    if (!j["state"].is_object()) return field + ".state must be an object";
    c.state = j["state"];
  }
  return "";
}

// A number task's named slips: [{"number": 8, "tolerance": 0.05, "feedback": "lesson.….slip"}, …].
std::string parse_slips(const json& j, std::vector<Task::Slip>& out, TextSink& sink) {
  if (!j.is_array()) return "task.slips must be an array of {number, tolerance, feedback}";
  for (size_t i = 0; i < j.size(); ++i) {
    const json& e = j[i];
    const std::string where = "task.slips[" + std::to_string(i) + "]";
    if (!e.is_object() || !e.value("number", json()).is_number() || !e.contains("feedback"))
      return where + " needs a number and a feedback text";
    Task::Slip slip{e["number"].get<double>(), 0, ""};
    const std::string err = read_text(e["feedback"], where + ".feedback", slip.feedback, sink);
    if (!err.empty()) return err;
    if (e.contains("tolerance")) {
      if (!e["tolerance"].is_number() || e["tolerance"].get<double>() < 0)
        return where + ".tolerance must be a number ≥ 0";
      slip.tolerance = e["tolerance"].get<double>();
    }
    out.push_back(std::move(slip));
  }
  return "";
}

// A prediction: choices with the index of the right one, or a number with how far off an answer may be.
std::string parse_answer(const json& j, Task& t) {
  if (!t.choices.empty() && j.contains("number")) return "task has both choices and a number: give one of them";
  if (t.choices.empty() && !j.contains("number"))
    return "task.answer is missing: a prediction has \"choices\" with an \"answer\" index, or a \"number\"";
  if (!t.choices.empty()) {
    if (t.choices.size() > kMaxChoices) return "task.choices: at most " + std::to_string(kMaxChoices) + " choices";
    if (!j.contains("answer")) return "task.answer is missing (the index of the right choice, counted from 0)";
    if (!j["answer"].is_number_integer()) return "task.answer must be the index of the right choice";
    const auto answer = j["answer"].get<long long>();
    if (answer < 0 || answer >= static_cast<long long>(t.choices.size()))
      return "task.answer " + std::to_string(answer) + " is out of range: choices are counted 0 to " +
             std::to_string(t.choices.size() - 1);
    t.answer = static_cast<int>(answer);
    return "";
  }
  if (!j["number"].is_number()) return "task.number must be a number";
  if (!j.contains("tolerance")) return "task.tolerance is missing: a number answer says how far off it may be";
  if (!j["tolerance"].is_number() || !(j["tolerance"].get<double>() >= 0)) return "task.tolerance must be a number ≥ 0";
  t.number = j["number"].get<double>();
  t.tolerance = j["tolerance"].get<double>();
  if (!std::isfinite(*t.number) || !std::isfinite(t.tolerance)) return "task.number must be finite";
  return "";
}

std::string parse_predict(const json& j, Task& t, TextSink& sink) {
  t.kind = Task::Kind::Predict;
  if (!j.contains("asks"))  // the author says what would give the answer away; [] when nothing on screen does
    return "task.asks is missing: a prediction names the facts it asks about: \"asks\": [\"weights\", …] (or [])";
  std::string err = parse_answer(j, t);
  if (err.empty()) err = get_texts(j, "feedback", t.feedback, sink, "task.");
  if (!err.empty()) return err;
  if (j.contains("slips")) {
    err = parse_slips(j["slips"], t.slips, sink);
    if (!err.empty()) return err;
  }
  if (j.contains("reveal")) {
    if (!j["reveal"].is_object()) return "task.reveal must be a partial state (an object)";
    t.reveal = j["reveal"];
  }
  return "";
}

// What a text asserts of the numbers it quotes, as conditions the lesson verifier checks ("" or the problem).
std::string parse_claims(const json& j, std::vector<Condition>& out, bool& declared, const std::string& field) {
  declared = j.contains("claims");
  if (!declared) return "";
  if (!j["claims"].is_array()) return field + " must be a list of {value, op, than}";
  for (size_t i = 0; i < j["claims"].size(); ++i) {
    out.emplace_back();
    const std::string err = parse_condition(j["claims"][i], out.back(), field + "[" + std::to_string(i) + "]");
    if (!err.empty()) return err;
  }
  return "";
}

std::string parse_task(const json& j, Task& t, TextSink& sink) {
  if (!j.is_object()) return "task must be an object";
  std::string kind, err = get_string(j, "kind", kind, true);
  if (err.empty()) err = get_string(j, "id", t.id, true);
  if (!err.empty()) return "task." + err;
  err = get_text(j, "question", t.question, true, sink, "task.");
  if (err.empty()) err = get_text(j, "explain", t.explain, false, sink, "task.");
  if (err.empty()) err = get_text(j, "hint", t.hint, false, sink, "task.");
  if (err.empty()) err = get_texts(j, "choices", t.choices, sink, "task.");
  if (err.empty()) err = get_strings(j, "asks", t.asks);
  if (!err.empty()) return err.rfind("task.", 0) == 0 ? err : "task." + err;
  err = parse_claims(j, t.claims, t.claims_declared, "task.claims");
  if (!err.empty()) return err;
  if (kind == "predict") return parse_predict(j, t, sink);
  if (kind != "do") return "task.kind must be \"predict\" or \"do\"";
  t.kind = Task::Kind::Do;
  if (!j.contains("goal")) return "task.goal is missing: a do task needs a goal {value, op, than}";
  if (j.contains("solution")) {
    if (!j["solution"].is_object()) return "task.solution must be a partial state (an object)";
    t.solution = j["solution"];
  }
  return parse_condition(j["goal"], t.goal, "task.goal");
}

std::string parse_step(const json& j, LessonStep& s, TextSink& sink) {
  if (!j.is_object()) return "must be an object";
  std::string err = get_string(j, "id", s.id, false);
  if (err.empty()) err = get_text(j, "text", s.text, true, sink);
  if (err.empty()) err = get_string(j, "highlight", s.highlight, false);
  if (err.empty()) err = get_strings(j, "panels", s.panels);
  if (err.empty()) err = get_strings(j, "lock", s.lock);
  if (!err.empty()) return err;
  if (j.contains("state")) {
    if (!j["state"].is_object()) return "state must be a partial state (an object)";
    s.state = j["state"];
  }
  err = parse_claims(j, s.claims, s.claims_declared, "claims");
  if (!err.empty()) return err;
  if (j.contains("task")) return parse_task(j["task"], s.task, sink);
  return "";
}

// "step 3" and the step's id (its own, else its question's) when it has one, as the author wrote it.
std::string step_label(size_t index, const json& j) {
  std::string label = "step " + std::to_string(index + 1);
  std::string id;
  if (j.is_object() && j.contains("id") && j["id"].is_string())
    id = j["id"].get<std::string>();
  else if (j.is_object() && j.contains("task") && j["task"].is_object() && j["task"].contains("id") &&
           j["task"]["id"].is_string())
    id = j["task"]["id"].get<std::string>();
  return id.empty() ? label : label + " (\"" + printable(id, kMaxIdBytes) + "\")";
}

std::string step_label(size_t index, const LessonStep& s) {
  const std::string& id = s.id.empty() ? s.task.id : s.id;
  return "step " + std::to_string(index + 1) + (id.empty() ? "" : " (\"" + printable(id) + "\")");
}

// "line 3, column 14" of a byte offset (columns counted in bytes from 1).
std::string line_column(const std::string& text, size_t byte) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < std::min(byte, text.size()); ++i) {
    if (text[i] == '\n')
      ++line, column = 1;
    else
      ++column;
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// The document, or why it is no JSON: a SAX pass finds where the syntax breaks without exceptions.
struct SyntaxError : nlohmann::json_sax<json> {
  size_t at = 0;
  bool found = false;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) override {
    at = position > 0 ? position - 1 : 0, found = true;  // the byte where the parser stopped
    return false;
  }
};

std::string parse_document(const std::string& text, json& out) {
  if (text.size() > kMaxLessonBytes)
    return "the file is " + std::to_string(text.size()) + " bytes; a lesson file has at most " +
           std::to_string(kMaxLessonBytes);
  out = json::parse(text, nullptr, false);
  if (!out.is_discarded())
    return out.is_object() ? "" : "a lesson file must be a JSON object {\"id\", \"title\", \"steps\"}";
  SyntaxError sax;
  json::sax_parse(text, &sax);
  size_t at = sax.found ? std::min(sax.at, text.size()) : text.size();
  // A string read to its end before it was found out of place ("title": "t" "steps"): point at its opening quote.
  if (at < text.size() && text[at] == '"' && at > 0)
    for (size_t i = at; i-- > 0;)
      if (text[i] == '"' && (i == 0 || text[i - 1] != '\\')) {
        at = i;
        break;
      }
  return "JSON syntax error at " + line_column(text, at);
}

// A lesson id goes into links and keys: lower-case letters, digits and "-".
std::string check_id(const std::string& id) {
  if (id.empty() || id.size() > kMaxIdBytes) return "id must be 1 to 64 characters";
  for (char c : id)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
      return "id \"" + printable(id, kMaxIdBytes) + "\" may hold only a-z, 0-9 and \"-\"";
  return "";
}

// "pass": a share from 0 to 1, or "none" (courses that do not grade the lesson).
std::string parse_pass(const json& j, Lesson& l) {
  if (!j.contains("pass")) return "";
  const json& p = j["pass"];
  if (p == "none") {
    l.ungraded = true;
    return "";
  }
  if (!p.is_number() || !(p.get<double>() >= 0 && p.get<double>() <= 1))
    return "pass must be a share from 0 to 1 (of predictions right at the first try) or \"none\"";
  l.pass = p.get<double>();
  return "";
}

struct Loaded {
  std::vector<Lesson> lessons;
  std::vector<std::string> errors;
};

const Loaded& loaded() {
  static const Loaded all = [] {
    Loaded l;
    for (const DataFile* f : data_files_in("lessons")) {
      Lesson lesson;
      const std::string err = parse_lesson(std::string(f->data, f->size), lesson);
      if (err.empty())
        l.lessons.push_back(std::move(lesson));
      else
        l.errors.push_back(std::string(f->path) + ": " + err);
    }
    return l;
  }();
  return all;
}

// The lesson being validated: its inline texts count as catalog keys before it is loaded (validation
// applies nothing, so a refused lesson leaves the catalogs as they were).
const Lesson* g_validating = nullptr;

std::string text_of(Lang lang, const std::string& key) {
  if (g_validating) {
    const auto it = g_validating->texts.find(key);
    if (it != g_validating->texts.end())
      return lang == Lang::HiLatn && !it->second.hi_latn.empty() ? it->second.hi_latn
             : it->second.en.empty()                             ? it->second.hi_latn
                                                                 : it->second.en;
  }
  return tr(lang, key.c_str());
}

// Every catalog key a lesson uses must exist in every language (an inline text is its own).
std::string check_key(const std::string& key, const char* what) {
  if (key.empty() || (g_validating && g_validating->texts.count(key))) return "";
  for (Lang l : languages())
    if (!has_string(l, key))
      return std::string(what) + " \"" + printable(key, 80) + "\" is not a catalog key (missing in the " +
             lang_code(l) + " catalog); write the text inline as {\"en\": \"…\", \"hi-Latn\": \"…\"}";
  return "";
}

// A partial state must apply to the state the learner has at that point: the lesson's earlier steps
// applied in order from the default preset (a reveal and a goal on top of their own step's state).
std::string check_state(State& probe, const json& partial, const char* what) {
  const std::string err = apply_state_json(probe, partial);
  return err.empty() ? "" : std::string(what) + ": " + err;
}

std::string check_state_on_copy(const State& probe, const json& partial, const char* what) {
  State copy = probe;
  return check_state(copy, partial, what);
}

// A text as a message names it: an inline text by its field ("inline:my-lesson:step2.task.hint" → task.hint),
// a catalog text by its key.
std::string describe_text(const std::string& key) {
  if (key.rfind("inline:", 0) != 0) return "text \"" + printable(key) + "\"";
  const size_t colon = key.find(':', 7), dot = key.find('.', colon);
  return dot != std::string::npos && key.compare(colon + 1, 4, "step") == 0 ? key.substr(dot + 1)
                                                                            : key.substr(colon + 1);
}

std::string check_text_values(const std::string& key) {
  for (Lang l : languages())
    for (const std::string& name : placeholders(text_of(l, key))) {
      bool known = false;
      for (const std::string& v : live_value_names()) known = known || v == name;
      if (!known) return describe_text(key) + " quotes an unknown live value {" + name + "}";
    }
  return "";
}

// Each wrong choice names its misconception; the right one has none. A slip is never the right number.
std::string check_feedback(const Task& t) {
  if (t.kind != Task::Kind::Predict) return "";
  if (!t.choices.empty() && t.feedback.size() != t.choices.size())
    return "task.feedback needs one entry per choice (\"\" for the right one)";
  for (size_t i = 0; i < t.feedback.size(); ++i) {
    const bool right = static_cast<int>(i) == t.answer;
    if (right != t.feedback[i].empty())
      return "task.feedback[" + std::to_string(i) + "] " +
             (right ? "belongs to the right answer and must be \"\"" : "is missing (a wrong choice names its slip)");
    std::string err = check_key(t.feedback[i], "feedback");
    if (err.empty() && !t.feedback[i].empty()) err = check_text_values(t.feedback[i]);
    if (!err.empty()) return err;
  }
  for (const Task::Slip& slip : t.slips) {
    if (t.number && std::fabs(slip.number - *t.number) <= slip.tolerance + t.tolerance)
      return "task " + printable(t.id) + ": a slip's number overlaps the right answer";
    std::string err = check_key(slip.feedback, "slip feedback");
    if (err.empty()) err = check_text_values(slip.feedback);
    if (!err.empty()) return err;
  }
  return "";
}

// A goal's or claim's live values exist ("" or which one does not).
std::string check_condition_values(const Condition& c, const char* what) {
  const auto& names = live_value_names();
  const auto unknown = [&](const std::string& name) {
    return std::find(names.begin(), names.end(), name) == names.end();
  };
  const std::string* bad = unknown(c.value)                                 ? &c.value
                           : !c.than_value.empty() && unknown(c.than_value) ? &c.than_value
                                                                            : nullptr;
  return bad ? std::string(what) + " names \"" + printable(*bad) + "\", which is not a live value" : "";
}

// Nothing on screen answers a prediction before it is answered: no open panel shows a fact it asks about.
std::string check_asks(const Task& t, const State& shown) {
  for (const std::string& fact : t.asks) {
    const auto& facts = panel_facts();
    if (std::find(facts.begin(), facts.end(), fact) == facts.end())
      return "task " + printable(t.id) + ": asks about \"" + printable(fact) + "\", which no panel shows";
    for (const PanelInfo& p : panel_table())
      if (shown.panels[p.id] && panel_shows(p, fact))
        return "task " + printable(t.id) + ": the " + p.key + " panel shows " + fact + " before the answer";
  }
  return "";
}

std::string validate_step(const LessonStep& s, State& probe) {
  std::string err = check_key(s.text, "text");
  if (err.empty()) err = check_text_values(s.text);
  if (err.empty()) err = check_state(probe, s.state, "state");
  if (err.empty()) show_step_panels(probe, s);
  for (const std::string& p : s.panels)
    if (err.empty() && !find_panel(p)) err = "panels: unknown panel id \"" + printable(p) + "\"";
  if (err.empty() && !s.highlight.empty()) {
    const PanelInfo* h = find_panel(s.highlight);
    if (!h)
      err = "highlight: unknown highlight panel id \"" + printable(s.highlight) + "\"";
    else if (!probe.panels[h->id])
      err = "the highlighted panel \"" + printable(s.highlight) + "\" is not open in this step";
  }
  for (const std::string& c : s.lock)
    if (err.empty() && !find_control(c)) err = "lock: unknown control id \"" + printable(c) + "\"";
  for (const Condition& c : s.claims)
    if (err.empty()) err = check_condition_values(c, "claim");
  if (!err.empty() || s.task.kind == Task::Kind::None) return err;
  const Task& t = s.task;
  err = check_key(t.question, "question");
  if (err.empty()) err = check_key(t.explain, "explain");
  if (err.empty()) err = check_key(t.hint, "hint");
  for (const std::string& key : {t.question, t.explain, t.hint})
    if (err.empty() && !key.empty()) err = check_text_values(key);
  for (const std::string& c : t.choices)
    if (err.empty()) err = check_key(c, "choice");
  if (err.empty() && !t.choices.empty() && (t.answer < 0 || t.answer >= static_cast<int>(t.choices.size())))
    err = "task " + printable(t.id) + ": answer is not one of the choices";
  if (err.empty()) err = check_feedback(t);
  if (err.empty()) err = check_asks(t, probe);
  // The learner goes on from the revealed state (answered right or missed), as a later step without its own
  // panels or state does.
  if (err.empty()) err = check_state(probe, t.reveal, "task.reveal");
  if (err.empty() && t.kind == Task::Kind::Do) {
    err = check_condition_values(t.goal, "goal");
    if (err.empty()) err = check_state_on_copy(probe, t.goal.state, "goal.state");
    if (err.empty()) err = check_state_on_copy(probe, t.solution, "task.solution");
  }
  for (const Condition& c : t.claims)
    if (err.empty()) err = check_condition_values(c, "claim");
  return err;
}

}  // namespace

void show_step_panels(State& s, const LessonStep& step) {
  if (step.panels.empty()) return;
  for (const PanelInfo& info : panel_table())
    if (info.id != PanelId::share && info.id != PanelId::builder) s.panels[info.id] = false;  // the teacher's tools
  for (const std::string& key : step.panels)
    if (bool* flag = panel_flag(s.panels, key)) *flag = true;
  s.panels.lesson = true;
}

std::string parse_lesson(const std::string& text, Lesson& out) {
  json j;
  std::string err = parse_document(text, j);
  if (!err.empty()) return err;
  Lesson l;
  TextSink sink{l, ""};
  err = get_string(j, "id", l.id, true);
  if (err.empty()) err = check_id(l.id);
  if (err.empty()) err = get_text(j, "title", l.title, true, sink);
  if (err.empty()) err = get_text(j, "summary", l.summary, false, sink);
  if (err.empty()) err = parse_pass(j, l);
  if (!err.empty()) return err;
  if (!j.contains("steps") || !j["steps"].is_array() || j["steps"].empty()) return "steps must be a non-empty array";
  if (j["steps"].size() > kMaxLessonSteps)
    return "steps: " + std::to_string(j["steps"].size()) + " steps; a lesson has at most " +
           std::to_string(kMaxLessonSteps);
  for (size_t i = 0; i < j["steps"].size(); ++i) {
    LessonStep s;
    sink.part = "step" + std::to_string(i + 1) + ".";
    err = parse_step(j["steps"][i], s, sink);
    if (!err.empty()) return step_label(i, j["steps"][i]) + ": " + err;
    l.steps.push_back(std::move(s));
  }
  out = std::move(l);
  return "";
}

std::string validate_lesson(const Lesson& l) {
  struct Checking {  // the lesson's own texts count while it is checked, and only then
    explicit Checking(const Lesson& l) { g_validating = &l; }
    ~Checking() { g_validating = nullptr; }
  } checking(l);
  std::string err = check_key(l.title, "title");
  if (err.empty()) err = check_key(l.summary, "summary");
  State probe;
  apply_preset(probe, "default");
  for (size_t i = 0; err.empty() && i < l.steps.size(); ++i) {
    err = validate_step(l.steps[i], probe);
    if (!err.empty()) err = step_label(i, l.steps[i]) + ": " + err;
  }
  return err;
}

std::string check_lesson_text(const std::string& text, Lesson& out) {
  Lesson l;
  std::string err = parse_lesson(text, l);
  if (err.empty()) err = validate_lesson(l);
  if (err.empty()) out = std::move(l);
  return err;
}

namespace {
// Lessons loaded while the app runs (a teacher's files), after the compiled-in ones. A deque: a loaded
// lesson stays where it is while others are added, and one loaded again under its id is replaced in place.
std::deque<Lesson>& added_lessons() {
  static std::deque<Lesson> added;
  return added;
}
// The compiled-in entries, then the added lessons'; remade only when a lesson is added (lists are drawn every frame).
std::vector<LessonEntry>& listed_entries() {
  static std::vector<LessonEntry> all = builtin_lesson_entries();
  return all;
}
void relist_added_lessons() {
  std::vector<LessonEntry>& all = listed_entries();
  all.resize(builtin_lesson_entries().size());
  for (const Lesson& l : added_lessons()) all.push_back({l.id, l.title, l.summary, static_cast<int>(l.steps.size())});
}
}  // namespace

std::string add_lesson(const std::string& text, const Lesson** added) {
  Lesson l;
  std::string err = check_lesson_text(text, l);
  if (!err.empty()) return err;
  for (const Lesson& b : lessons())
    if (b.id == l.id) return "id \"" + l.id + "\" is a built-in lesson's; give your lesson another id";
  // A lesson is walked through every state a learner can reach before any learner sees it (lesson_verify.h).
  err = verify_lesson_message(l);
  if (!err.empty()) return err;
  auto& all = added_lessons();
  auto it = std::find_if(all.begin(), all.end(), [&](const Lesson& a) { return a.id == l.id; });
  if (it == all.end()) it = all.insert(all.end(), Lesson{});
  set_extra_texts("inline:" + l.id + ":", l.texts);
  *it = std::move(l);
  if (added) *added = &*it;
  relist_added_lessons();
  return "";
}

const std::deque<Lesson>& added_lessons_list() { return added_lessons(); }

const std::vector<Lesson>& lessons() { return loaded().lessons; }
const std::vector<std::string>& lesson_load_errors() { return loaded().errors; }

const std::vector<LessonEntry>& builtin_lesson_entries() {
  static const std::vector<LessonEntry> entries = [] {
    std::vector<LessonEntry> out;
    for (const DataFile* f : data_files_in("lessons")) {
      const json j = json::parse(f->data, f->data + f->size, nullptr, false);
      if (!j.is_object()) continue;
      const json id = j.value("id", json()), title = j.value("title", json()), summary = j.value("summary", json());
      const json steps = j.value("steps", json());
      if (!id.is_string() || !title.is_string() || !(summary.is_null() || summary.is_string()) || !steps.is_array())
        continue;
      out.push_back({id.get<std::string>(), title.get<std::string>(),
                     summary.is_string() ? summary.get<std::string>() : std::string(), static_cast<int>(steps.size())});
    }
    return out;
  }();
  return entries;
}

const std::vector<LessonEntry>& lesson_entries() { return listed_entries(); }

bool lesson_listed(const std::string& id) {
  const std::vector<LessonEntry>& all = lesson_entries();
  return std::any_of(all.begin(), all.end(), [&](const LessonEntry& e) { return e.id == id; });
}

namespace {
const Lesson*& lesson_under_test() {
  static const Lesson* current = nullptr;
  return current;
}
}  // namespace

LessonUnderTest::LessonUnderTest(const Lesson& lesson) : previous_(lesson_under_test()) {
  lesson_under_test() = &lesson;
  if (!lesson.texts.empty()) set_extra_texts("inline:" + lesson.id + ":", lesson.texts);
}

LessonUnderTest::~LessonUnderTest() {
  const Lesson* walked = lesson_under_test();
  lesson_under_test() = previous_;
  if (walked->texts.empty()) return;
  // The inline texts go back to those of the lesson added under that id, if any.
  const Lesson* kept = find_lesson(walked->id);
  set_extra_texts("inline:" + walked->id + ":", kept ? kept->texts : std::map<std::string, ExtraText>{});
}

const Lesson* find_lesson(const std::string& id) {
  if (lesson_under_test() && lesson_under_test()->id == id) return lesson_under_test();
  for (const Lesson& l : lessons())
    if (l.id == id) return &l;
  for (const Lesson& l : added_lessons())
    if (l.id == id) return &l;
  return nullptr;
}

namespace {
// Per-key live values cover the first keys of the selected row (and the first output columns):
// lessons use small examples, and a fixed list keeps every name checkable by the lesson test.
constexpr int kLiveColumns = 12;
constexpr int kCrossKeys = 3;  // "Je suis étudiant"

const char* const kRowSeries[] = {"row_score_", "row_logit_", "row_weight_", "row_output_"};

std::vector<std::string> make_live_value_names() {
  std::vector<std::string> names = {"d_k",
                                    "sqrt_d_k",
                                    "d_k_total",
                                    "scale",
                                    "temperature",
                                    "heads",
                                    "n_tokens",
                                    "row",
                                    "max_weight",
                                    "entropy",
                                    "jacobian_norm",
                                    "max_weight_flipped",
                                    "entropy_flipped",
                                    "jacobian_norm_flipped",
                                    "score_std",
                                    "logit_std",
                                    "saturated_rows",
                                    "var_unscaled",
                                    "var_scaled",
                                    "visible_keys",
                                    "score_asymmetry",
                                    "peak_keys",
                                    "head_entropy_min",
                                    "head_entropy_max",
                                    "order_gap",
                                    "cross_t",
                                    "numerics_max_logit",
                                    "numerics_overflows"};
  for (const char* series : kRowSeries)
    for (int j = 1; j <= kLiveColumns; ++j) names.push_back(series + std::to_string(j));
  for (int k = 0; k < kCrossScorings; ++k)
    for (const char* what : {"_score_", "_weight_"})
      for (int j = 1; j <= kCrossKeys; ++j)
        names.push_back(std::string("cross_") + cross_scoring_id(k) + what + std::to_string(j));
  return names;
}

// The selected query row, key by key (counted from 1): raw score, logit, weight; and its output.
void row_values(const HeadResult& h, const Mat& output, int row, std::map<std::string, double>& v) {
  int visible = 0;
  for (Eigen::Index j = 0; j < h.logits.cols(); ++j) visible += std::isfinite(h.logits(row, j)) ? 1 : 0;
  v["visible_keys"] = visible;
  for (int j = 0; j < kLiveColumns; ++j) {
    const std::string k = std::to_string(j + 1);
    if (j < h.scores.cols()) {
      v["row_score_" + k] = h.scores(row, j);
      v["row_logit_" + k] = h.logits(row, j);  // masked: −∞, shown as 0 (see below)
      v["row_weight_" + k] = h.weights(row, j);
    }
    if (row < output.rows() && j < output.cols()) v["row_output_" + k] = output(row, j);
  }
}

// Whole-matrix facts: how far scores are from symmetric (q_i·k_j against q_j·k_i, self-attention
// only) and how many different keys are some row's favourite.
void matrix_values(const HeadResult& h, std::map<std::string, double>& v) {
  double asym = 0;
  if (h.scores.rows() == h.scores.cols())
    for (Eigen::Index i = 0; i < h.scores.rows(); ++i)
      for (Eigen::Index j = i + 1; j < h.scores.cols(); ++j)
        if (std::isfinite(h.scores(i, j)) && std::isfinite(h.scores(j, i)))
          asym = std::max(asym, std::fabs(double(h.scores(i, j)) - h.scores(j, i)));
  v["score_asymmetry"] = asym;
  std::vector<bool> peak(static_cast<size_t>(h.weights.cols()), false);
  for (Eigen::Index i = 0; i < h.weights.rows(); ++i) {
    if (h.weights.cols() == 0 || h.weights.row(i).sum() <= 0) continue;  // a fully masked row has no favourite
    Eigen::Index best = 0;
    h.weights.row(i).maxCoeff(&best);
    peak[static_cast<size_t>(best)] = true;
  }
  int peaks = 0;
  for (bool p : peak) peaks += p ? 1 : 0;
  v["peak_keys"] = peaks;
}

// Mean row entropy of each head; the least and the most focused head.
void head_values(const Result& r, std::map<std::string, double>& v) {
  double lo = 0, hi = 0;
  bool first = true;
  const auto visit = [&](const HeadResult& h) {
    if (h.entropy.size() == 0) return;
    const double m = h.entropy.mean();
    lo = first ? m : std::min(lo, m);
    hi = first ? m : std::max(hi, m);
    first = false;
  };
  if (r.heads.empty())
    visit(r.main);
  else
    for (const HeadResult& h : r.heads) visit(h);
  v["head_entropy_min"] = lo;
  v["head_entropy_max"] = hi;
}

void cross_values(const Playground& pg, std::map<std::string, double>& v) {
  const CrossResult& c = pg.result.cross;
  const int t = pg.state.cross.step;
  v["cross_t"] = t + 1;  // the note's t: step 1 (0-based) generates "am", t = 2
  for (int k = 0; k < kCrossScorings; ++k) {
    const HeadResult& h = c.scored[static_cast<size_t>(k)].main;
    if (t < 0 || t >= h.weights.rows()) continue;
    for (int j = 0; j < kCrossKeys && j < h.weights.cols(); ++j) {
      const std::string base = std::string("cross_") + cross_scoring_id(k), n = std::to_string(j + 1);
      v[base + "_score_" + n] = h.scores(t, j);
      v[base + "_weight_" + n] = h.weights(t, j);
    }
  }
}
}  // namespace

const std::vector<std::string>& live_value_names() {
  static const std::vector<std::string> names = make_live_value_names();
  return names;
}

LiveValues live_values(const Playground& pg) {
  LiveValues v;
  for (const std::string& n : live_value_names()) v[n] = 0;
  const AppResult& r = pg.result;
  const HeadResult& h = r.core.first_head();
  const int row = pg.state.selected_row, n = static_cast<int>(h.weights.rows());
  v["d_k"] = r.core.d_k;
  v["sqrt_d_k"] = std::sqrt(r.core.d_k);
  v["d_k_total"] = r.core.d_k * std::max<size_t>(1, r.core.heads.size());
  v["scale"] = pg.state.scale ? 1 : 0;
  v["temperature"] = pg.state.temperature;
  v["heads"] = pg.state.heads;
  v["n_tokens"] = n;
  v["row"] = row + 1;  // counted from 1, as the notes do
  if (row >= 0 && row < n) {
    v["max_weight"] = h.max_weight(row);
    v["entropy"] = h.entropy(row);
    v["jacobian_norm"] = h.jacobian_norm(row);
    v["score_std"] = row_spread(h.scores, h, row);
    v["logit_std"] = row_spread(h.logits, h, row);
    row_values(h, r.core.output, row, v);
    const RowSoftmax sm = row_softmax(h, row, static_cast<float>(pg.state.numerics_multiplier));
    v["numerics_max_logit"] = std::isfinite(sm.mx) ? sm.mx : 0;
    v["numerics_overflows"] = sm.overflowed;
  }
  matrix_values(h, v);
  head_values(r.core, v);
  // Permutation equivariance as the Positional panel measures it (while it is open), for the current
  // positional encoding: max |Y(reversed sentence) − reversed Y|.
  const PositionalCheck& pc = r.positional;
  const double gap = pg.state.positional_encoding == PositionalEncoding::None ? pc.gap_without : pc.gap_with;
  v["order_gap"] = pc.available && gap >= 0 ? gap : 0;
  cross_values(pg, v);
  const HeadResult& f = r.flipped.first_head();
  const int frow = r.flipped_row >= 0 && f.max_weight.size() == 1 ? 0 : row;
  if (frow >= 0 && frow < f.max_weight.size()) {
    v["max_weight_flipped"] = f.max_weight(frow);
    v["entropy_flipped"] = f.entropy(frow);
    v["jacobian_norm_flipped"] = f.jacobian_norm(frow);
  }
  v["saturated_rows"] = saturated_rows(h);  // as the heatmap counts them (app/saturation.h)
  v["var_unscaled"] = r.variance.var_unscaled;
  v["var_scaled"] = r.variance.var_scaled;
  for (auto& [name, value] : v)
    if (!std::isfinite(value)) value = 0;  // never NaN or ∞ on screen or in a check (masked logits: 0)
  return v;
}

bool condition_holds(const Condition& c, const LiveValues& values, const State& state) {
  const auto it = values.find(c.value);
  if (it == values.end()) return false;
  const double x = it->second;
  double than = c.than;
  if (!c.than_value.empty()) {
    const auto other = values.find(c.than_value);
    if (other == values.end()) return false;
    than = other->second;
  }
  const bool ok = c.op == "<"    ? x < than
                  : c.op == "<=" ? x <= than
                  : c.op == ">"  ? x > than
                  : c.op == ">=" ? x >= than
                                 : std::fabs(x - than) <= c.tolerance;
  if (!ok) return false;
  if (c.state.empty()) return true;
  const json now = state_to_json(state);
  for (auto it2 = c.state.begin(); it2 != c.state.end(); ++it2)
    if (!now.contains(it2.key()) || now[it2.key()] != it2.value()) return false;
  return true;
}

bool condition_holds(const Condition& c, const Playground& pg) { return condition_holds(c, live_values(pg), pg.state); }

std::string format_live_value(Lang lang, double v) {
  // float32 arithmetic leaves remainders near 10⁻⁷ where the exact value is 0: three digits of them are noise.
  if (v != 0 && std::fabs(v) < 1e-6) return tr(lang, "lesson.ui.about_zero");
  char buf[32];
  if (std::fabs(v) >= 100 || v == std::floor(v))
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string fill_live_values(Lang lang, const std::string& key, const LiveValues& values) {
  std::string s = tr(lang, key.c_str());
  for (const std::string& name : placeholders(s)) {
    const auto it = values.find(name);
    if (it == values.end()) continue;
    const std::string token = "{" + name + "}", value = format_live_value(lang, it->second);
    for (size_t at = s.find(token); at != std::string::npos; at = s.find(token, at + value.size()))
      s.replace(at, token.size(), value);
  }
  return s;
}

}  // namespace attn
