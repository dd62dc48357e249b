// lesson.cpp — lesson files parsed and validated; the live values lessons quote and check.
#include "app/lesson.h"

#include <cmath>
#include <cstdio>

#include "app/app.h"
#include "app/data.h"
#include "app/registry.h"
#include "app/state_json.h"
#include "app/strings.h"
#include "app/summary.h"

namespace attn {

using nlohmann::json;

namespace {
constexpr size_t kMaxLessonSteps = 64;

std::string get_string(const json& j, const char* key, std::string& out, bool required) {
  if (!j.contains(key)) return required ? std::string(key) + " is missing" : "";
  if (!j[key].is_string()) return std::string(key) + " must be a string";
  out = j[key].get<std::string>();
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

std::string parse_condition(const json& j, Condition& c) {
  if (!j.is_object()) return "goal must be an object {value, op, than}";
  std::string err = get_string(j, "value", c.value, true);
  if (err.empty()) err = get_string(j, "op", c.op, true);
  if (!err.empty()) return "goal: " + err;
  if (c.op != "<" && c.op != "<=" && c.op != ">" && c.op != ">=" && c.op != "==")
    return "goal.op must be <, <=, >, >= or ==";
  if (!j.contains("than") || !j["than"].is_number()) return "goal.than must be a number";
  c.than = j["than"].get<double>();
  if (j.contains("state")) {
    if (!j["state"].is_object()) return "goal.state must be an object";
    c.state = j["state"];
  }
  return "";
}

std::string parse_task(const json& j, Task& t) {
  if (!j.is_object()) return "task must be an object";
  std::string kind, err = get_string(j, "kind", kind, true);
  if (!err.empty()) return "task." + err;
  err = get_string(j, "id", t.id, true);
  if (err.empty()) err = get_string(j, "question", t.question, true);
  if (err.empty()) err = get_string(j, "explain", t.explain, false);
  if (err.empty()) err = get_string(j, "hint", t.hint, false);
  if (err.empty()) err = get_strings(j, "choices", t.choices);
  if (!err.empty()) return "task." + err;
  if (kind == "predict") {
    t.kind = Task::Kind::Predict;
    if (j.contains("answer")) {
      if (!j["answer"].is_number_integer()) return "task.answer must be the index of the right choice";
      t.answer = j["answer"].get<int>();
    }
    if (j.contains("number")) {
      if (!j["number"].is_number()) return "task.number must be a number";
      t.number = j["number"].get<double>();
      t.tolerance = j.value("tolerance", 0.0);
    }
    if (t.choices.empty() == !t.number) return "a predict task has either choices with an answer or a number";
    if (j.contains("reveal")) {
      if (!j["reveal"].is_object()) return "task.reveal must be a partial state (an object)";
      t.reveal = j["reveal"];
    }
  } else if (kind == "do") {
    t.kind = Task::Kind::Do;
    if (!j.contains("goal")) return "a do task needs a goal";
    err = parse_condition(j["goal"], t.goal);
    if (!err.empty()) return err;
  } else {
    return "task.kind must be \"predict\" or \"do\"";
  }
  return "";
}

std::string parse_step(const json& j, LessonStep& s) {
  if (!j.is_object()) return "must be an object";
  std::string err = get_string(j, "text", s.text, true);
  if (err.empty()) err = get_string(j, "highlight", s.highlight, false);
  if (err.empty()) err = get_strings(j, "panels", s.panels);
  if (err.empty()) err = get_strings(j, "lock", s.lock);
  if (!err.empty()) return err;
  if (j.contains("state")) {
    if (!j["state"].is_object()) return "state must be a partial state (an object)";
    s.state = j["state"];
  }
  if (j.contains("task")) return parse_task(j["task"], s.task);
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

// Every catalog key a lesson uses must exist in every language.
std::string check_key(const std::string& key, const char* what) {
  if (key.empty()) return "";
  for (Lang l : languages())
    if (!has_string(l, key))
      return std::string(what) + " \"" + key + "\" is missing in the " + lang_code(l) + " catalog";
  return "";
}

std::string check_state(const json& partial, const char* what) {
  State probe;
  const std::string err = apply_state_json(probe, partial);
  return err.empty() ? "" : std::string(what) + ": " + err;
}

std::string check_text_values(const std::string& key) {
  for (Lang l : languages())
    for (const std::string& name : placeholders(tr(l, key.c_str()))) {
      bool known = false;
      for (const std::string& v : live_value_names()) known = known || v == name;
      if (!known) return "text \"" + key + "\" quotes an unknown live value {" + name + "}";
    }
  return "";
}

std::string validate_step(const LessonStep& s) {
  std::string err = check_key(s.text, "text");
  if (err.empty()) err = check_text_values(s.text);
  if (err.empty()) err = check_state(s.state, "state");
  for (const std::string& p : s.panels)
    if (err.empty() && !find_panel(p)) err = "unknown panel \"" + p + "\"";
  if (err.empty() && !s.highlight.empty() && !find_panel(s.highlight))
    err = "unknown highlight panel \"" + s.highlight + "\"";
  for (const std::string& c : s.lock)
    if (err.empty() && !find_control(c)) err = "unknown control \"" + c + "\"";
  if (!err.empty() || s.task.kind == Task::Kind::None) return err;
  const Task& t = s.task;
  err = check_key(t.question, "question");
  if (err.empty()) err = check_key(t.explain, "explain");
  if (err.empty()) err = check_key(t.hint, "hint");
  for (const std::string& c : t.choices)
    if (err.empty()) err = check_key(c, "choice");
  if (err.empty() && !t.choices.empty() && (t.answer < 0 || t.answer >= static_cast<int>(t.choices.size())))
    err = "task " + t.id + ": answer is not one of the choices";
  if (err.empty()) err = check_state(t.reveal, "task.reveal");
  if (err.empty() && t.kind == Task::Kind::Do) {
    bool known = false;
    for (const std::string& v : live_value_names()) known = known || v == t.goal.value;
    if (!known) err = "goal.value \"" + t.goal.value + "\" is not a live value";
    if (err.empty()) err = check_state(t.goal.state, "goal.state");
  }
  return err;
}

std::string fmt3(double v) {
  char buf[32];
  if (std::fabs(v) >= 100 || v == std::floor(v))
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}
}  // namespace

std::string parse_lesson(const std::string& text, Lesson& out) {
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object()) return "a lesson file must be a JSON object";
  Lesson l;
  std::string err = get_string(j, "id", l.id, true);
  if (err.empty()) err = get_string(j, "title", l.title, true);
  if (err.empty()) err = get_string(j, "summary", l.summary, false);
  if (!err.empty()) return err;
  if (!j.contains("steps") || !j["steps"].is_array() || j["steps"].empty()) return "steps must be a non-empty array";
  if (j["steps"].size() > kMaxLessonSteps) return "a lesson has at most " + std::to_string(kMaxLessonSteps) + " steps";
  for (size_t i = 0; i < j["steps"].size(); ++i) {
    LessonStep s;
    err = parse_step(j["steps"][i], s);
    if (!err.empty()) return "step " + std::to_string(i + 1) + ": " + err;
    l.steps.push_back(std::move(s));
  }
  out = std::move(l);
  return "";
}

std::string validate_lesson(const Lesson& l) {
  std::string err = check_key(l.title, "title");
  if (err.empty()) err = check_key(l.summary, "summary");
  for (size_t i = 0; err.empty() && i < l.steps.size(); ++i) {
    err = validate_step(l.steps[i]);
    if (!err.empty()) err = "step " + std::to_string(i + 1) + ": " + err;
  }
  return err.empty() ? "" : l.id + ": " + err;
}

const std::vector<Lesson>& lessons() { return loaded().lessons; }
const std::vector<std::string>& lesson_load_errors() { return loaded().errors; }

const Lesson* find_lesson(const std::string& id) {
  for (const Lesson& l : lessons())
    if (l.id == id) return &l;
  return nullptr;
}

const std::vector<std::string>& live_value_names() {
  static const std::vector<std::string> names = {"d_k",
                                                 "sqrt_d_k",
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
                                                 "var_scaled"};
  return names;
}

std::map<std::string, double> live_values(const App& app) {
  std::map<std::string, double> v;
  for (const std::string& n : live_value_names()) v[n] = 0;
  const AppResult& r = app.result;
  const HeadResult& h = r.core.heads.empty() ? r.core.main : r.core.heads.front();
  const int row = app.state.selected_row, n = static_cast<int>(h.weights.rows());
  v["d_k"] = r.core.d_k;
  v["sqrt_d_k"] = std::sqrt(r.core.d_k);
  v["scale"] = app.state.scale ? 1 : 0;
  v["temperature"] = app.state.temperature;
  v["heads"] = app.state.heads;
  v["n_tokens"] = n;
  v["row"] = row + 1;  // counted from 1, as the notes do
  if (row >= 0 && row < n) {
    v["max_weight"] = h.max_weight(row);
    v["entropy"] = h.entropy(row);
    v["jacobian_norm"] = h.jacobian_norm(row);
    const auto stdev = [](const auto& x) {
      double mean = 0, sq = 0;
      int k = 0;
      for (Eigen::Index c = 0; c < x.size(); ++c)
        if (std::isfinite(x(c))) mean += x(c), sq += double(x(c)) * x(c), ++k;
      if (k == 0) return 0.0;
      mean /= k;
      return std::sqrt(std::max(0.0, sq / k - mean * mean));
    };
    v["score_std"] = stdev(h.scores.row(row));
    v["logit_std"] = stdev(h.logits.row(row));
  }
  const HeadResult& f = r.flipped.heads.empty() ? r.flipped.main : r.flipped.heads.front();
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
    if (!std::isfinite(value)) value = 0;  // never NaN on screen or in a check
  return v;
}

bool condition_holds(const Condition& c, const App& app) {
  const auto values = live_values(app);
  const auto it = values.find(c.value);
  if (it == values.end()) return false;
  const double x = it->second;
  const bool ok = c.op == "<"    ? x < c.than
                  : c.op == "<=" ? x <= c.than
                  : c.op == ">"  ? x > c.than
                  : c.op == ">=" ? x >= c.than
                                 : std::fabs(x - c.than) < 1e-9;
  if (!ok) return false;
  const json now = state_to_json(app.state);
  for (auto it2 = c.state.begin(); it2 != c.state.end(); ++it2)
    if (!now.contains(it2.key()) || now[it2.key()] != it2.value()) return false;
  return true;
}

std::string step_text(const App& app, const std::string& key) {
  std::string s = tr(app.state.lang, key.c_str());
  const auto values = live_values(app);
  for (const std::string& name : placeholders(s)) {
    const auto it = values.find(name);
    if (it == values.end()) continue;
    const std::string token = "{" + name + "}", value = fmt3(it->second);
    for (size_t at = s.find(token); at != std::string::npos; at = s.find(token, at + value.size()))
      s.replace(at, token.size(), value);
  }
  return s;
}

}  // namespace attn
