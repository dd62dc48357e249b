// learn_text.cpp — Learn mode's words from the catalogs (see learn_text.h).
#include "app/learn/learn_text.h"

#include <cmath>
#include <cstdio>

#include "core/train/train_settings.h"

namespace attn {

namespace {
std::string key(const char* prefix, const char* id, const char* suffix = "") {
  return std::string(prefix) + id + suffix;
}

std::string short_number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

std::string percent(double fraction) { return format_fixed(100 * fraction, 0); }

const char* model_letter(int which) { return which == 0 ? "A" : "B"; }
}  // namespace

std::string learn_task_name(Lang lang, train::TaskKind task) {
  return tr(lang, key("learn.task.", train::task_name(task), ".name").c_str());
}

std::string learn_task_about(Lang lang, train::TaskKind task) {
  return tr(lang, key("learn.task.", train::task_name(task), ".about").c_str());
}

std::string learn_task_tip(Lang lang, train::TaskKind task) {
  const char* id = train::task_name(task);
  return std::string(tr(lang, key("learn.task.", id, ".format").c_str())) + "\n" +
         tr(lang, key("learn.task.", id, ".correct").c_str()) + "\n" +
         tr(lang, key("learn.task.", id, ".scored").c_str());
}

std::string learn_difference_name(Lang lang, train::Difference d) {
  return tr(lang, key("learn.vary.", train::difference_name(d)).c_str());
}

std::string learn_model_label(Lang lang, const train::TrainSettings& s, int which) {
  const train::ModelSettings m = which == 0 ? train::model_a(s) : train::model_b(s);
  switch (s.vary) {
    case train::Difference::Scale:
      return tr(lang, m.scale ? "learn.model.scaled" : "learn.model.unscaled");
    case train::Difference::DK:
      return tr_format(lang, "learn.model.d_k", {{"d_k", std::to_string(m.d_k)}});
    case train::Difference::Temperature:
      return tr_format(lang, "learn.model.temperature", {{"t", short_number(m.temperature)}});
    case train::Difference::Heads:
      return m.heads == 1 ? tr(lang, "learn.model.one_head")
                          : tr_format(lang, "learn.model.heads", {{"h", std::to_string(m.heads)}});
    case train::Difference::Init:
      return tr(lang, key("learn.model.init.", train::init_name(m.init)).c_str());
  }
  return "";
}

std::string learn_init_text(Lang lang, const train::TrainSettings& s, int which) {
  const train::ModelSettings m = which == 0 ? train::model_a(s) : train::model_b(s);
  if (m.init == train::InitKind::Unit) {
    const std::string text = tr_format(lang, "learn.init.unit", {{"d_k", std::to_string(m.d_k)}});
    if (m.norm) return text + " " + tr(lang, "learn.init.unit_norm");
    if (m.layers > 1) return text + " " + tr(lang, "learn.init.unit_layers");
    return text;
  }
  // GPT-2's initialisation: every weight N(0, 0.02²). With unit-RMS inputs a q entry has variance
  // d_model · 0.02², so Var(q·k) = d_k · (d_model · 0.0004)².
  const double var_q = m.d_model * 0.0004;
  if (!m.norm) return tr(lang, "learn.init.small");
  return tr_format(lang, "learn.init.small_norm",
                   {{"var_q", short_number(var_q)},
                    {"var_qk", short_number(m.d_k * var_q * var_q)},
                    {"d_k", std::to_string(m.d_k)}});
}

std::string learn_stop_text(Lang lang, const train::Trainer& t) {
  if (!t.stopped()) return "";
  const train::Trainer::StopCause& c = t.stop_cause();
  if (c.model < 0) return t.message();  // a run kept by an older build: only its English message is known
  return tr_format(lang, "learn.stopped",
                   {{"step", std::to_string(t.steps_done() + 1)},
                    {"model", model_letter(c.model)},
                    {"label", learn_model_label(lang, t.settings(), c.model)},
                    {"what", tr(lang, c.gradient ? "learn.stopped.gradient" : "learn.stopped.loss")},
                    {"bad", tr(lang, c.nan ? "learn.stopped.nan" : "learn.stopped.infinite")}});
}

std::string learn_outcome(Lang lang, const train::Trainer& t) {
  const long steps = t.steps_done();
  if (steps <= 0) return "";
  const bool over = t.stopped() || steps >= t.settings().steps;
  const std::string when =
      tr_format(lang, over ? "learn.outcome.after" : "learn.outcome.so_far", {{"steps", std::to_string(steps)}});
  long reached[2];
  for (int w = 0; w < 2; ++w) reached[w] = train::steps_to_accuracy(t.curve(w), 0.9, train::kAccuracyWindow);
  const auto label = [&](int w) { return learn_model_label(lang, t.settings(), w); };
  const std::string window = std::to_string(train::kAccuracyWindow);  // "reached" is of the mean over this many steps
  const auto last_accuracy = [&](int w) {
    return t.curve(w).empty() ? std::string("0") : percent(t.curve(w).back().accuracy);
  };
  if (reached[0] >= 0 && reached[1] >= 0)
    return tr_format(lang, "learn.outcome.both",
                     {{"when", when},
                      {"a", label(0)},
                      {"b", label(1)},
                      {"a_step", std::to_string(reached[0])},
                      {"b_step", std::to_string(reached[1])}});
  if (reached[0] < 0 && reached[1] < 0)
    return tr_format(lang, "learn.outcome.none",
                     {{"when", when}, {"window", window}, {"a_acc", last_accuracy(0)}, {"b_acc", last_accuracy(1)}});
  const int first = reached[0] >= 0 ? 0 : 1, other = 1 - first;
  return tr_format(lang, "learn.outcome.one",
                   {{"when", when},
                    {"first", model_letter(first)},
                    {"first_label", label(first)},
                    {"step", std::to_string(reached[first])},
                    {"window", window},
                    {"other", model_letter(other)},
                    {"other_label", label(other)},
                    {"acc", last_accuracy(other)}});
}

std::string learn_cost_text(Lang lang, const train::TrainSettings& s, bool* slow) {
  // Beside the task's default settings, which a run starts with: the cost a learner's own changes added.
  const double ratio = train::step_flops(s) / train::step_flops(train::default_settings(s.task));
  if (slow) *slow = ratio >= 4.0;
  if (ratio < 2.0) return "";
  return tr_format(
      lang, ratio >= 4.0 ? "learn.cost.slow" : "learn.cost",
      {{"mflop", format_fixed(train::step_flops(s) * 1e-6, 0)}, {"ratio", format_fixed(ratio, ratio < 10 ? 1 : 0)}});
}

}  // namespace attn
