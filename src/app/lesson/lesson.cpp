// lesson.cpp — lessons validated against the app and added; the live values lessons quote and check.
#include "app/lesson/lesson.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "app/base/strings.h"
#include "app/describe/summary.h"
#include "app/lesson/lesson_verify.h"
#include "app/playground/numerics.h"
#include "app/playground/playground.h"
#include "app/state/presets.h"
#include "app/state/registry.h"
#include "app/state/state_json.h"
#include "core/attention/attention.h"

namespace attn {

using nlohmann::json;

namespace {
std::string step_label(size_t index, const LessonStep& s, Lang words) {
  const std::string& id = s.id.empty() ? s.task.id : s.id;
  const std::string step = std::to_string(index + 1);
  return id.empty() ? tr_format(words, "lesson.check.step", {{"step", step}})
                    : tr_format(words, "lesson.check.step_id", {{"step", step}, {"id", printable(id)}});
}

// The lesson being validated: its inline texts count as catalog keys before it is loaded (validation
// applies nothing, so a refused lesson leaves the catalogs as they were).
const Lesson* g_validating = nullptr;

std::string text_of(Lang lang, const std::string& key) {
  if (g_validating) {
    const auto it = g_validating->texts.find(key);
    if (it != g_validating->texts.end()) return it->second.in(lang);
  }
  return tr(lang, key.c_str());
}

// Every catalog key a lesson uses must exist in English and Hinglish, the catalogs kept whole (another catalog
// may lack it: English is shown); an inline text is its own.
std::string check_key(const std::string& key, const char* what, Lang words) {
  if (key.empty() || (g_validating && g_validating->texts.count(key))) return "";
  for (Lang l : {Lang::En, Lang::HiLatn})
    if (!has_string(l, key))
      return tr_format(words, "lesson.check.not_catalog_key",
                       {{"lang", lang_code(l)}, {"what", what}, {"key", printable(key, 80)}});
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

std::string check_text_values(const std::string& key, Lang words) {
  for (Lang l : languages())
    for (const std::string& name : placeholders(text_of(l, key))) {
      bool known = false;
      for (const std::string& v : live_value_names()) known = known || v == name;
      if (!known)
        return tr_format(words, "lesson.check.unknown_value",
                         {{"text", describe_text(key)}, {"placeholder", "{" + name + "}"}});
    }
  return "";
}

// Each wrong choice names its misconception; the right one has none. A slip is never the right number.
std::string check_feedback(const Task& t, Lang words) {
  if (t.kind != Task::Kind::Predict) return "";
  if (!t.choices.empty() && t.feedback.size() != t.choices.size()) return tr(words, "lesson.check.feedback_count");
  for (size_t i = 0; i < t.feedback.size(); ++i) {
    const bool right = static_cast<int>(i) == t.answer;
    if (right != t.feedback[i].empty())
      return tr_format(words, right ? "lesson.check.feedback_on_right" : "lesson.check.feedback_missing",
                       {{"i", std::to_string(i)}});
    std::string err = check_key(t.feedback[i], "feedback", words);
    if (err.empty() && !t.feedback[i].empty()) err = check_text_values(t.feedback[i], words);
    if (!err.empty()) return err;
  }
  for (const Task::Slip& slip : t.slips) {
    if (t.number && std::fabs(slip.number - *t.number) <= slip.tolerance + t.tolerance)
      return tr_format(words, "lesson.check.slip_overlap", {{"task", printable(t.id)}});
    std::string err = check_key(slip.feedback, "slip feedback", words);
    if (err.empty()) err = check_text_values(slip.feedback, words);
    if (!err.empty()) return err;
  }
  return "";
}

// A goal's or claim's live values exist ("" or which one does not).
std::string check_condition_values(const Condition& c, const char* what, Lang words) {
  const auto& names = live_value_names();
  const auto unknown = [&](const std::string& name) {
    return std::find(names.begin(), names.end(), name) == names.end();
  };
  const std::string* bad = unknown(c.value)                                 ? &c.value
                           : !c.than_value.empty() && unknown(c.than_value) ? &c.than_value
                                                                            : nullptr;
  return bad ? tr_format(words, "lesson.check.not_live_value", {{"what", what}, {"name", printable(*bad)}}) : "";
}

// Nothing on screen answers a prediction before it is answered: no open panel shows a fact it asks about.
std::string check_asks(const Task& t, const State& shown, Lang words) {
  for (const std::string& fact : t.asks) {
    const auto& facts = panel_facts();
    if (std::find(facts.begin(), facts.end(), fact) == facts.end())
      return tr_format(words, "lesson.check.asks_unknown", {{"fact", printable(fact)}, {"task", printable(t.id)}});
    for (const PanelInfo& p : panel_table())
      if (shown.panels[p.id] && panel_shows(p, fact))
        return tr_format(words, "lesson.check.asks_shown",
                         {{"panel", p.key}, {"fact", fact}, {"task", printable(t.id)}});
  }
  return "";
}

std::string validate_step(const LessonStep& s, State& probe, Lang words) {
  std::string err = check_key(s.text, "text", words);
  if (err.empty()) err = check_text_values(s.text, words);
  if (err.empty()) err = check_state(probe, s.state, "state");
  if (err.empty()) show_step_panels(probe, s);
  for (const std::string& p : s.panels)
    if (err.empty() && !find_panel(p)) err = tr_format(words, "lesson.check.unknown_panel", {{"id", printable(p)}});
  if (err.empty() && !s.highlight.empty()) {
    const PanelInfo* h = find_panel(s.highlight);
    if (!h)
      err = tr_format(words, "lesson.check.unknown_highlight", {{"id", printable(s.highlight)}});
    else if (!probe.panels[h->id])
      err = tr_format(words, "lesson.check.highlight_closed", {{"panel", printable(s.highlight)}});
  }
  for (const std::string& c : s.lock)
    if (err.empty() && !find_control(c)) err = tr_format(words, "lesson.check.unknown_lock", {{"id", printable(c)}});
  for (const Condition& c : s.claims)
    if (err.empty()) err = check_condition_values(c, "claim", words);
  if (!err.empty() || s.task.kind == Task::Kind::None) return err;
  const Task& t = s.task;
  err = check_key(t.question, "question", words);
  if (err.empty()) err = check_key(t.explain, "explain", words);
  if (err.empty()) err = check_key(t.hint, "hint", words);
  for (const std::string& key : {t.question, t.explain, t.hint})
    if (err.empty() && !key.empty()) err = check_text_values(key, words);
  for (const std::string& c : t.choices)
    if (err.empty()) err = check_key(c, "choice", words);
  if (err.empty() && !t.choices.empty() && (t.answer < 0 || t.answer >= static_cast<int>(t.choices.size())))
    err = tr_format(words, "lesson.check.answer_range", {{"task", printable(t.id)}});
  if (err.empty()) err = check_feedback(t, words);
  if (err.empty()) err = check_asks(t, probe, words);
  // The learner goes on from the revealed state (answered right or missed), as a later step without its own
  // panels or state does.
  if (err.empty()) err = check_state(probe, t.reveal, "task.reveal");
  if (err.empty() && t.kind == Task::Kind::Do) {
    err = check_condition_values(t.goal, "goal", words);
    if (err.empty()) err = check_state_on_copy(probe, t.goal.state, "goal.state");
    if (err.empty()) err = check_state_on_copy(probe, t.solution, "task.solution");
  }
  for (const Condition& c : t.claims)
    if (err.empty()) err = check_condition_values(c, "claim", words);
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

std::string validate_lesson(const Lesson& l, Lang words) {
  struct Checking {  // the lesson's own texts count while it is checked, and only then
    explicit Checking(const Lesson& l) { g_validating = &l; }
    ~Checking() { g_validating = nullptr; }
  } checking(l);
  std::string err = check_key(l.title, "title", words);
  if (err.empty()) err = check_key(l.summary, "summary", words);
  State probe;
  apply_preset(probe, "default");
  for (size_t i = 0; err.empty() && i < l.steps.size(); ++i) {
    err = validate_step(l.steps[i], probe, words);
    if (!err.empty()) err = step_label(i, l.steps[i], words) + ": " + err;
  }
  return err;
}

std::string check_lesson_text(const std::string& text, Lesson& out, Lang words) {
  Lesson l;
  std::string err = parse_lesson(text, l, words);
  if (err.empty()) err = validate_lesson(l, words);
  if (err.empty()) out = std::move(l);
  return err;
}

std::string add_lesson(const std::string& text, const Lesson** added, Lang words) {
  Lesson l;
  std::string err = check_lesson_text(text, l, words);
  if (!err.empty()) return err;
  for (const Lesson& b : lessons())
    if (b.id == l.id) return tr_format(words, "lesson.check.builtin_id", {{"id", l.id}});
  // A lesson is walked through every state a learner can reach before any learner sees it (lesson_verify.h).
  err = verify_lesson_message(l, words);
  if (!err.empty()) return err;
  const Lesson& kept = keep_added_lesson(std::move(l));
  if (added) *added = &kept;
  return "";
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
  v["saturated_rows"] = r.saturated_rows;  // as the heatmap counts them (app/playground/saturation.h)
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