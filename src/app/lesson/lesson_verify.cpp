// lesson_verify.cpp — walks every state a learner can reach in a lesson and checks every text shown in each.
#include "app/lesson/lesson_verify.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <regex>
#include <set>
#include <string>

#include "app/base/strings.h"
#include "app/describe/summary.h"
#include "app/lesson/lesson_run.h"
#include "app/lesson/lesson_text.h"
#include "app/state/registry.h"
#include "app/state/state_json.h"
#include "core/hash.h"

namespace attn {
namespace {
using nlohmann::json;

// What following a lesson touches, as App holds it, without a window, Learn mode or a host that keeps anything:
// a copy is a learner's branch (a wrong answer here, the right one there).
struct Walker {
  Playground pg;
  StepProgress step;
  std::vector<std::string> locks;
  LessonRef entered;
  json progress = json::object();
  uint64_t loads = 0;
  WorksheetSession worksheet;
  HostServices host;
  std::string finished;
  operator LessonParts() { return {pg, step, locks, entered, progress, loads, worksheet, host, finished}; }
  operator LessonView() const { return {pg, step, progress, finished}; }
  void tick() {
    pg.recompute();
    lesson_tick(*this);
  }
};

// The controls a learner moves that change what lessons quote, and a random value of each as a learner might set it.
const char* const kMovable[] = {"d_k", "temperature", "scale", "selected_row", "heads", "mask", "numerics_multiplier"};

json random_value(const std::string& key, const Walker& w, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  const auto log_between = [&](double lo, double hi) { return lo * std::pow(hi / lo, u(rng)); };
  // A few widths across the slider's range, from 1 to its end: the variance lab measures each once (its kept
  // measurements, playground.cpp), where every new width would cost it millions of draws.
  if (key == "d_k") {
    static const int widths[] = {1, 3, 8, 64, 208, 1024};
    return widths[static_cast<size_t>(u(rng) * 6) % 6];
  }
  if (key == "temperature") return std::round(log_between(0.05, 20) * 1000) / 1000;
  if (key == "scale") return !w.pg.state.scale;
  if (key == "selected_row")
    return static_cast<int>(std::min<double>(u(rng) * static_cast<double>(w.pg.result.row_labels.size()),
                                             std::max<double>(0, double(w.pg.result.row_labels.size()) - 1)));
  if (key == "heads") return 1 << static_cast<int>(u(rng) * 4);
  if (key == "mask") return u(rng) < 0.5 ? "none" : "causal";
  return std::round(log_between(1, 100));  // numerics_multiplier
}

bool is_locked(const Walker& w, const std::string& key) {
  return std::find(w.locks.begin(), w.locks.end(), canonical_control_id(key)) != w.locks.end();
}

std::string values_text(const LiveValues& v, const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) {
    const auto it = v.find(n);
    if (it == v.end()) continue;
    out += (out.empty() ? "" : ", ") + n + " " + format_live_value(Lang::En, it->second);
  }
  return out;
}

// Live values that echo what the learner set (row 1, d_k = 4) rather than a computed result.
bool is_setting(const std::string& name) {
  for (const char* s : {"row", "d_k", "sqrt_d_k", "d_k_total", "heads", "n_tokens", "temperature", "scale", "cross_t"})
    if (name == s) return true;
  return false;
}

// The ways a text writes a number: to 4 and to 3 significant digits ("0.7311" → "0.731").
std::vector<std::string> answer_spellings(double v) {
  std::vector<std::string> out;
  char buf[32];
  for (const char* f : {"%.4g", "%.3g"}) {
    std::snprintf(buf, sizeof buf, f, v);
    std::string s = buf;
    if (s.find('.') != std::string::npos) s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

// Whether `text` holds `number` as a whole number ("64" in "is 64." but not in "640" or "0.64").
bool contains_number(const std::string& text, const std::string& number) {
  const auto digitish = [](char c) { return (c >= '0' && c <= '9') || c == '.'; };
  for (size_t at = text.find(number); at != std::string::npos; at = text.find(number, at + 1)) {
    const bool before = at > 0 && (digitish(text[at - 1]) || text[at - 1] == '-');
    const size_t end = at + number.size();
    const bool after = end < text.size() &&
                       (digitish(text[end]) && !(text[end] == '.' && (end + 1 >= text.size() || text[end + 1] == ' ')));
    if (!before && !after) return true;
  }
  return false;
}

uint64_t id_hash(const std::string& id) {
  Fnv1a h;
  h.text(id);
  return h.value();
}

class Verifier {
 public:
  Verifier(const Lesson& l, Lang lang, uint64_t seed, int moves, Lang words)
      : lesson_(l), lang_(lang), words_(words), moves_(moves), rng_(seed ^ id_hash(l.id)) {}

  LessonVerifyReport run() {
    Walker w;
    w.pg.state.lang = lang_;
    // The variance lab's Monte Carlo (millions of draws a width) is run only for a lesson that quotes it: asked for
    // spread over frames, a recomputation without a frame budget leaves it unstarted.
    w.pg.spread_monte_carlo = !quotes_variance();
    std::string err = start_lesson(w, lesson_.id, 1);
    if (!err.empty()) fail(1, say("opening"), say("surface_lesson"), "", err);
    for (int k = 1; err.empty() && k <= static_cast<int>(lesson_.steps.size()); ++k) {
      w.tick();
      Walker done = walk_step(w, k);
      if (!step_complete(done)) {
        fail(k, say("after_task"), say("surface_step"), "", say("incomplete"));
        break;
      }
      w = std::move(done);
      if (k < static_cast<int>(lesson_.steps.size()) && !next_step(w))
        fail(k, say("next"), say("surface_step"), "", say("next_refused"));
    }
    return std::move(report_);
  }

 private:
  // Every branch of step k from its entry; returns the branch a learner goes on from (the task done right).
  Walker walk_step(const Walker& entry, int k) {
    const Task& t = lesson_.steps[static_cast<size_t>(k - 1)].task;
    check(entry, k, say("on_entry"));
    wander(entry, k, say("before_answering"));
    if (t.kind == Task::Kind::Predict) wrong_answers(entry, k, t);
    Walker right = entry;
    std::string how = say("after_right");
    if (t.kind == Task::Kind::Predict) {
      if (t.choices.empty())
        answer_number(right, *t.number);
      else
        answer_choice(right, t.answer);
    } else if (t.kind == Task::Kind::Do) {
      how = say("after_goal");
      reach_goal(right, k, t);
    }
    right.tick();
    if (t.kind != Task::Kind::None) {
      check(right, k, how);
      wander(right, k, how);
    }
    return right;
  }

  void wrong_answers(const Walker& entry, int k, const Task& t) {
    std::vector<std::pair<std::string, std::function<void(Walker&)>>> wrong;
    if (!t.choices.empty()) {
      for (int i = 0; i < static_cast<int>(t.choices.size()); ++i)
        if (i != t.answer)
          wrong.push_back(
              {say("after_wrong_choice", {{"n", std::to_string(i + 1)}}), [i](Walker& w) { answer_choice(w, i); }});
    } else {
      for (const Task::Slip& s : t.slips)
        wrong.push_back({say("after_slip", {{"number", format_live_value(Lang::En, s.number)}}),
                         [v = s.number](Walker& w) { answer_number(w, v); }});
      const double off = *t.number + 10 * t.tolerance + 1;
      wrong.push_back({say("after_wrong_number"), [off](Walker& w) { answer_number(w, off); }});
    }
    for (size_t i = 0; i < wrong.size(); ++i) {
      Walker w = entry;
      wrong[i].second(w);
      w.tick();
      check(w, k, wrong[i].first);
      // A second miss ends the question: the answer and the explanation are shown.
      wrong[(i + 1) % wrong.size()].second(w);
      w.tick();
      const std::string how = say("second_miss", {{"how", wrong[i].first}});
      check(w, k, how);
    }
  }

  // The task's own solution, else one move of an unlocked control over its range that meets the goal.
  void reach_goal(Walker& w, int k, const Task& t) {
    if (!t.solution.empty()) {
      State next = w.pg.state;
      const std::string err = apply_state_json(next, t.solution);
      if (!err.empty()) fail(k, say("applying_solution"), say("surface_lesson"), "", err);
      w.pg.state = next;
      w.tick();
      if (!w.step.goal_met) fail(k, say("after_solution"), say("surface_step"), "", say("solution_misses"));
      return;
    }
    for (const char* key : kMovable) {
      if (is_locked(w, key)) continue;
      for (int tries = 0; tries < 24 && !w.step.goal_met; ++tries) {
        Walker probe = w;
        State next = probe.pg.state;
        if (!apply_state_json(next, json{{key, random_value(key, probe, rng_)}}).empty()) continue;
        probe.pg.state = next;
        probe.tick();
        if (probe.step.goal_met) {
          w = std::move(probe);
          return;
        }
      }
    }
    fail(k, say("searching_goal"), say("surface_step"), "", say("no_move"));
  }

  // Seeded random moves of every control the step leaves unlocked, checking after each.
  void wander(const Walker& from, int k, const std::string& how) {
    Walker w = from;
    for (int m = 0; m < moves_; ++m) {
      std::vector<std::string> free;
      for (const char* key : kMovable)
        if (!is_locked(w, key)) free.push_back(key);
      if (free.empty()) return;
      const std::string key = free[static_cast<size_t>(rng_() % free.size())];
      const json value = random_value(key, w, rng_);
      State next = w.pg.state;
      if (!apply_state_json(next, json{{key, value}}).empty()) continue;  // a value the control does not take
      w.pg.state = next;
      w.tick();
      check(w, k, say("then_move", {{"how", how}, {"key", key}, {"value", value.dump()}}));
    }
  }

  void check(const Walker& w, int k, const std::string& how) {
    const StepTexts t = render_step(w);
    // The page has not fetched the catalog texts this lesson names yet: nothing it would show can be checked (a
    // teacher's inline texts are always there).
    if (t.loading) return;
    ++report_.states;
    const LiveValues live = live_values(w.pg);
    for (const std::string& text : all_texts(t)) {
      if (text.empty()) continue;
      ++report_.texts;
      check_text(k, how, say("surface_all"), text);
    }
    const std::vector<std::string> withheld = withheld_facts(w);
    const std::string summary = screen_summary(w.pg, withheld);
    ++report_.texts;
    check_text(k, how, say("surface_summary"), summary);
    check_withheld(w, k, how, summary, withheld);
    check_answer_unquoted(w, k, how, t);
    check_first_miss(w, k, how, t);
    check_texts_quote(w, k, how, t, live);
  }

  void check_text(int k, const std::string& how, const std::string& surface, const std::string& text) {
    const auto left = placeholders(text);
    if (!left.empty()) fail(k, how, surface, text, say("unfilled", {{"placeholder", "{" + left.front() + "}"}}));
    if (text.rfind("lesson.", 0) == 0 || text.rfind("inline:", 0) == 0) fail(k, how, surface, text, say("key_shown"));
  }

  // Before the answer nothing shows what the question asks: no open panel, the live summary nor the weights.
  void check_withheld(const Walker& w, int k, const std::string& how, const std::string& summary,
                      const std::vector<std::string>& withheld) {
    for (const std::string& fact : withheld) {
      for (const PanelInfo& p : panel_table())
        if (w.pg.state.panels[p.id] && panel_shows(p, fact))
          fail(k, how, say("surface_panel", {{"panel", p.key}}), "", say("shows_asked", {{"fact", fact}}));
      if (fact != "weights" && fact != "saturation") continue;
      const HeadResult& h = w.pg.result.core.first_head();
      const int row = w.pg.state.selected_row;
      for (int j = 0; row >= 0 && row < h.weights.rows() && j < h.weights.cols(); ++j) {
        const std::string said = format_fixed(100.0 * h.weights(row, j), 1) + "%";
        if (summary.find(said) != std::string::npos)
          fail(k, how, say("surface_summary"), summary, say("reads_weight", {{"weight", said}}));
      }
    }
  }

  bool quotes_variance() const {
    for (const LessonStep& s : lesson_.steps) {
      std::vector<std::string> keys = {s.text, s.task.question, s.task.explain, s.task.hint};
      keys.insert(keys.end(), s.task.feedback.begin(), s.task.feedback.end());
      keys.insert(keys.end(), s.task.choices.begin(), s.task.choices.end());
      for (const Task::Slip& slip : s.task.slips) keys.push_back(slip.feedback);
      for (const std::string& key : keys)
        for (Lang lang : languages())
          for (const std::string& name : placeholders(tr(lang, key.c_str())))
            if (name.rfind("var_", 0) == 0) return true;
    }
    return false;
  }

  // Before a number question is answered, no text on screen quotes the number it asks for (a live value that is a
  // setting the learner sees on the controls anyway, d_k or the row, is no answer).
  void check_answer_unquoted(const Walker& w, int k, const std::string& how, const StepTexts& t) {
    const LessonStep& s = lesson_.steps[static_cast<size_t>(k - 1)];
    const Task& task = s.task;
    if (task.kind != Task::Kind::Predict || !task.number || t.answered) return;
    const std::string feedback_key = w.step.feedback.empty() ? task.hint : w.step.feedback;
    const std::pair<const std::string*, const LiveValues*> shown[] = {{&s.text, &w.step.entry_values},
                                                                      {&task.question, &w.step.entry_values},
                                                                      {&feedback_key, &w.step.answer_values}};
    for (const auto& [key, values] : shown) {
      if (key->empty() || values->empty() || (key == &feedback_key && t.feedback.empty())) continue;
      for (const std::string& name : placeholders(tr(lang_, key->c_str()))) {
        const auto it = values->find(name);
        if (is_setting(name) || it == values->end()) continue;
        if (std::fabs(it->second - *task.number) <= std::max(task.tolerance, 1e-9))
          fail(k, how, say("surface_step"), fill_live_values(lang_, *key, *values),
               say("quotes_answer",
                   {{"value", format_live_value(Lang::En, it->second)}, {"placeholder", "{" + name + "}"}}));
      }
    }
  }

  // A first miss is told its misconception, not the answer: the number comes with the second miss, so the second
  // try is the learner's own reasoning, not copying.
  void check_first_miss(const Walker& w, int k, const std::string& how, const StepTexts& t) {
    const Task& task = lesson_.steps[static_cast<size_t>(k - 1)].task;
    if (task.kind != Task::Kind::Predict || !task.number || t.answered || t.feedback.empty()) return;
    for (const std::string& said : answer_spellings(*task.number))
      if (said.size() > 1 && contains_number(t.feedback, said))  // "0" and "1" are in every worked sum
        return fail(k, how, say("surface_step"), t.feedback, say("miss_gives_answer", {{"answer", said}}));
    (void)w;
  }

  // Which values a shown text quotes: those it was filled from, the snapshot's or the live ones (nullptr: neither).
  const LiveValues* quoted(const std::string& key, const std::string& shown, const LiveValues& then,
                           const LiveValues& live) const {
    if (!then.empty() && fill_live_values(lang_, key, then) == shown) return &then;
    if (fill_live_values(lang_, key, live) == shown) return &live;
    return nullptr;
  }

  // A text's claims hold of the numbers it quotes; when those are not the numbers on screen, the line after it says
  // so. `then` is the snapshot the text belongs to (the step's opening, or the reveal / goal).
  void check_quotes(const Walker& w, int k, const std::string& how, const std::string& key, const std::string& shown,
                    const std::string& since, const LiveValues& then, const LiveValues& live,
                    const std::vector<const Condition*>& claims) {
    if (key.empty() || shown.empty()) return;
    const LiveValues* v = quoted(key, shown, then, live);
    if (!v) return fail(k, how, say("surface_step"), shown, say("filled_from_neither"));
    const bool current = fill_live_values(lang_, key, *v) == fill_live_values(lang_, key, live);
    if (!current && since.empty()) fail(k, how, say("surface_step"), shown, say("stale_as_current"));
    bool other = false;
    if (current && !since.empty() && changes_since(lang_, then, live, other).empty())
      fail(k, how, say("surface_step"), since, say("since_unchanged"));
    for (const Condition* c : claims) {
      ++report_.claims;
      Condition of_values = *c;
      if (v != &live) of_values.state = json::object();  // a snapshot's values; its state is not kept
      if (!condition_holds(of_values, *v, w.pg.state))
        fail(k, how, say("surface_step"), shown,
             say("claim_false",
                 {{"claim", c->value + " " + c->op + " " +
                                (c->than_value.empty() ? format_live_value(Lang::En, c->than) : c->than_value)},
                  {"values", values_text(*v, {c->value, c->than_value})}}));
    }
  }

  // A text that quotes live numbers in comparing words ("soft", "equal", "add up to 1") declares what it claims of them
  // (its "claims", [] when the words compare nothing the numbers could contradict). Read in English, the lesson's
  // source: both languages say the same, and the claims cover both.
  void check_declared(int k, const std::string& key, bool declared, const std::string& field) {
    if (key.empty() || declared || !undeclared_reported_.insert(std::to_string(k) + key).second) return;
    const std::string source = tr(Lang::En, key.c_str());
    if (placeholders(source).empty()) return;
    static const std::regex comparing(
        R"(\b(saturated|flat|flatter|equal|one-hot|soft|softer|sharp|sharper|larger|smaller|higher|lower|close to|adds? up|grows|drops)\b)",
        std::regex::icase);
    std::smatch m;
    const std::string words = std::regex_replace(source, std::regex(R"(\{[a-z_0-9]+\})"), "#");
    if (std::regex_search(words, m, comparing))
      fail(k, say("in_file"), say("surface_step"), source, say("undeclared", {{"field", field}, {"word", m.str()}}));
  }

  void check_texts_quote(const Walker& w, int k, const std::string& how, const StepTexts& t, const LiveValues& live) {
    const LessonStep& s = lesson_.steps[static_cast<size_t>(k - 1)];
    check_declared(k, s.text, s.claims_declared, say("field_text"));
    check_declared(k, s.task.explain, s.task.claims_declared || s.task.kind == Task::Kind::Do, say("field_explain"));
    std::vector<const Condition*> text_claims;
    for (const Condition& c : s.claims) text_claims.push_back(&c);
    check_quotes(w, k, how, s.text, t.text, t.text_since, w.step.entry_values, live, text_claims);
    if (t.explain.empty()) return;
    std::vector<const Condition*> explain_claims;
    for (const Condition& c : s.task.claims) explain_claims.push_back(&c);
    // "✓ Done" beside an explanation claims the goal of the numbers it quotes.
    if (s.task.kind == Task::Kind::Do) explain_claims.push_back(&s.task.goal);
    check_quotes(w, k, how, s.task.explain, t.explain, t.explain_since, w.step.done_values, live, explain_claims);
  }

  // A part of a failure line in the language the report is read in (lesson.check.verify.<name>); values that are
  // free text go last, so a "{…}" they hold is never taken for a placeholder.
  std::string say(const char* name, StringArgs args = {}) const {
    return tr_format(words_, (std::string("lesson.check.verify.") + name).c_str(), args);
  }

  void fail(int k, const std::string& how, const std::string& surface, const std::string& text,
            const std::string& why) {
    const LessonStep& s = lesson_.steps[static_cast<size_t>(std::max(1, k) - 1)];
    const std::string id = !s.id.empty() ? s.id : s.task.id;
    const std::string where = id.empty()
                                  ? say("where", {{"step", std::to_string(k)}, {"lesson", lesson_.id}})
                                  : say("where_id", {{"step", std::to_string(k)}, {"lesson", lesson_.id}, {"id", id}});
    std::string line =
        say("line", {{"where", where}, {"lang", lang_code(lang_)}, {"how", how}, {"surface", surface}, {"why", why}});
    if (!text.empty()) line = say("quoted", {{"line", line}, {"text", printable(text, 160)}});
    report_.failures.push_back(line);
  }

  const Lesson& lesson_;
  Lang lang_;
  Lang words_;  // the language the failures are worded in (the walk's own is lang_)
  int moves_;
  std::set<std::string> undeclared_reported_;  // once per step and text
  std::mt19937_64 rng_;
  LessonVerifyReport report_;
};
}  // namespace

LessonVerifyReport verify_lesson(const Lesson& lesson, Lang lang, uint64_t seed, int moves, Lang words) {
  const LessonUnderTest scope(lesson);
  return Verifier(lesson, lang, seed, moves, words).run();
}

std::string verify_lesson_message(const Lesson& lesson, Lang words) {
  for (Lang lang : languages()) {
    const LessonVerifyReport r = verify_lesson(lesson, lang, kVerifySeed, kVerifyMoves, words);
    if (!r.ok()) return r.failures.front();
  }
  return "";
}

}  // namespace attn
