// train_settings.cpp — defaults, validation, labels and the JSON codec of Learn-mode training settings.
#include "core/train/train_settings.h"

#include <cmath>
#include <cstdio>
#include <exception>
#include <functional>
#include <map>

#include "core/json_codec.h"
#include "core/train/train_tasks.h"

namespace attn::train {

using nlohmann::json;

namespace {

constexpr size_t kMaxSettingsBytes = 64u << 10;

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

std::string range_error(const char* name, long long v, long long lo, long long hi) {
  return std::string(name) + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) + " (got " +
         std::to_string(v) + ")";
}

std::string check_int(const char* name, long long v, long long lo, long long hi) {
  return v < lo || v > hi ? range_error(name, v, lo, hi) : "";
}

template <typename E>
struct NameTable {
  E value;
  const char* name;
};

constexpr NameTable<TaskKind> kTasks[] = {{TaskKind::Copy, "copy"},
                                          {TaskKind::Reverse, "reverse"},
                                          {TaskKind::Sort, "sort"},
                                          {TaskKind::Lookup, "lookup"},
                                          {TaskKind::Induction, "induction"}};
constexpr NameTable<InitKind> kInits[] = {{InitKind::Unit, "unit"}, {InitKind::Small, "small"}};
constexpr NameTable<Difference> kDifferences[] = {{Difference::Scale, "scale"},
                                                  {Difference::DK, "d_k"},
                                                  {Difference::Temperature, "temperature"},
                                                  {Difference::Heads, "heads"},
                                                  {Difference::Init, "init"}};
constexpr NameTable<OptimizerKind> kOptimizers[] = {{OptimizerKind::Adam, "adam"}, {OptimizerKind::Sgd, "sgd"}};
constexpr NameTable<PositionalKind> kPositionals[] = {{PositionalKind::Learned, "learned"},
                                                      {PositionalKind::Sinusoidal, "sinusoidal"}};

template <typename E, size_t N>
const char* name_of(const NameTable<E> (&table)[N], E v) {
  for (const auto& row : table)
    if (row.value == v) return row.name;
  return "?";
}

template <typename E, size_t N>
bool value_of(const NameTable<E> (&table)[N], const std::string& name, E& out) {
  for (const auto& row : table)
    if (name == row.name) {
      out = row.value;
      return true;
    }
  return false;
}

template <typename E, size_t N>
std::string names_list(const NameTable<E> (&table)[N]) {
  std::string s;
  for (size_t i = 0; i < N; ++i) s += (i ? ", " : "") + std::string(table[i].name);
  return s;
}

std::string validate_optim(const OptimSettings& o) {
  if (!std::isfinite(o.learning_rate) || o.learning_rate <= 0 || o.learning_rate > kMaxLearningRate)
    return "learning rate must be a number in (0, " + num(kMaxLearningRate) + "] (got " + num(o.learning_rate) + ")";
  if (!std::isfinite(o.clip) || o.clip < 0 || o.clip > kMaxClip)
    return "clip must be 0 (off) or a positive gradient norm up to " + num(kMaxClip) + " (got " + num(o.clip) + ")";
  if (o.kind == OptimizerKind::Adam) {
    if (!std::isfinite(o.beta1) || o.beta1 < 0 || o.beta1 >= 1)
      return "beta1 must be in [0, 1) (got " + num(o.beta1) + ")";
    if (!std::isfinite(o.beta2) || o.beta2 < 0 || o.beta2 >= 1)
      return "beta2 must be in [0, 1) (got " + num(o.beta2) + ")";
    if (!std::isfinite(o.epsilon) || o.epsilon <= 0 || o.epsilon > 1)
      return "epsilon must be in (0, 1] (got " + num(o.epsilon) + ")";
  }
  return "";
}

}  // namespace

const char* task_name(TaskKind t) { return name_of(kTasks, t); }
const char* init_name(InitKind k) { return name_of(kInits, k); }
const char* difference_name(Difference d) { return name_of(kDifferences, d); }
const char* optimizer_name(OptimizerKind k) { return name_of(kOptimizers, k); }
const char* positional_name(PositionalKind k) { return name_of(kPositionals, k); }

TrainSettings default_settings(TaskKind task) {
  TrainSettings s;
  s.task = task;
  ModelSettings& m = s.model;
  m.vocab = 16;
  m.seq_len = 16;
  m.d_model = 64;
  m.heads = 2;
  m.d_k = 32;
  m.d_v = 32;
  m.d_mlp = 4 * m.d_model;
  // Induction and lookup need a head that reads what an earlier head wrote: two layers.
  m.layers = (task == TaskKind::Induction || task == TaskKind::Lookup) ? 2 : 1;
  m.causal = task_info(task).needs_causal;
  s.b_scale = !m.scale;
  s.b_d_k = m.d_k;
  s.b_temperature = m.temperature;
  s.b_heads = m.heads;
  s.b_init = m.init == InitKind::Unit ? InitKind::Small : InitKind::Unit;
  return s;
}

ModelSettings model_a(const TrainSettings& s) { return s.model; }

ModelSettings model_b(const TrainSettings& s) {
  ModelSettings m = s.model;
  switch (s.vary) {
    case Difference::Scale:
      m.scale = s.b_scale;
      break;
    case Difference::DK:
      m.d_k = s.b_d_k;
      break;
    case Difference::Temperature:
      m.temperature = s.b_temperature;
      break;
    case Difference::Heads:
      m.heads = s.b_heads;
      break;
    case Difference::Init:
      m.init = s.b_init;
      break;
  }
  return m;
}

namespace {
// Multiply-adds of one model's forward pass over a batch (the products; softmax, norms and activations are not
// counted: they are linear in the sizes and small beside them).
double forward_multiply_adds(const ModelSettings& m, int batch) {
  const double rows = static_cast<double>(batch) * m.seq_len, d = m.d_model, h = m.heads;
  const double attention = rows * d * h * (2.0 * m.d_k + m.d_v)                                        // W_q, W_k, W_v
                           + static_cast<double>(batch) * h * m.seq_len * m.seq_len * (m.d_k + m.d_v)  // q·k, weights·v
                           + rows * h * m.d_v * d;                                                     // W_o
  const double mlp = m.mlp ? 2.0 * rows * d * m.d_mlp : 0.0;
  return m.layers * (attention + mlp) + rows * d * m.vocab;  // the read-out
}
}  // namespace

double step_flops(const TrainSettings& s) {
  return 2.0 * 3.0 * (forward_multiply_adds(model_a(s), s.batch) + forward_multiply_adds(model_b(s), s.batch));
}

std::string model_label(const TrainSettings& s, int which) {
  const ModelSettings m = which == 0 ? model_a(s) : model_b(s);
  switch (s.vary) {
    case Difference::Scale:
      return m.scale ? "\xc3\xb7\xe2\x88\x9a"
                       "d_k"
                     : "no scaling";  // "÷√d_k"
    case Difference::DK:
      return "d_k = " + std::to_string(m.d_k);
    case Difference::Temperature:
      return "T = " + num(m.temperature);
    case Difference::Heads:
      return std::to_string(m.heads) + (m.heads == 1 ? " head" : " heads");
    case Difference::Init:
      return std::string(init_name(m.init)) + " init";
  }
  return "";
}

std::string validate_model(const ModelSettings& m, TaskKind task, int batch) {
  std::string e;
  if (!(e = check_int("vocab", m.vocab, kMinVocab, kMaxVocab)).empty()) return e;
  if (!(e = check_int("seq_len", m.seq_len, kMinSeqLen, kMaxSeqLen)).empty()) return e;
  if (!(e = check_int("d_model", m.d_model, 2, kMaxDModel)).empty()) return e;
  if (!(e = check_int("layers", m.layers, 1, kMaxLayers)).empty()) return e;
  if (!(e = check_int("heads", m.heads, 1, kMaxHeads)).empty()) return e;
  if (!(e = check_int("d_k", m.d_k, 1, kMaxDHead)).empty()) return e;
  if (!(e = check_int("d_v", m.d_v, 1, kMaxDHead)).empty()) return e;
  if (m.mlp && !(e = check_int("d_mlp", m.d_mlp, 1, kMaxDMlp)).empty()) return e;
  if (m.heads * m.d_k > kMaxHeadsTimesDim)
    return "heads × d_k = " + std::to_string(m.heads * m.d_k) + " is over the limit of " +
           std::to_string(kMaxHeadsTimesDim) + "; use fewer heads or a smaller d_k";
  if (m.heads * m.d_v > kMaxHeadsTimesDim)
    return "heads × d_v = " + std::to_string(m.heads * m.d_v) + " is over the limit of " +
           std::to_string(kMaxHeadsTimesDim) + "; use fewer heads or a smaller d_v";
  if (!std::isfinite(m.temperature) || m.temperature < kMinTemperature || m.temperature > kMaxTemperature)
    return "temperature must be between " + num(kMinTemperature) + " and " + num(kMaxTemperature) + " (got " +
           num(m.temperature) + "); training needs T > 0, hard attention has no gradient";
  if (m.positional == PositionalKind::Sinusoidal && m.d_model % 2 != 0)
    return "sinusoidal positions pair sin and cos columns: d_model must be even (got " + std::to_string(m.d_model) +
           ")";
  if (!(e = check_int("batch", batch, 1, kMaxBatch)).empty()) return e;
  const long long cells = static_cast<long long>(batch) * m.heads * m.layers * m.seq_len * m.seq_len;
  if (cells > kMaxAttentionCells)
    return "batch × heads × layers × seq_len² = " + std::to_string(cells) + " attention weights, over the limit of " +
           std::to_string(kMaxAttentionCells) + "; use a smaller batch, fewer heads or shorter sequences";
  return validate_task(task, m.vocab, m.seq_len, m.causal);
}

std::string validate(const TrainSettings& s) {
  if (s.seed > kMaxSeed) return "seed must be between 0 and 2^53 - 1";
  if (s.steps < 1 || s.steps > kMaxSteps) return range_error("steps", s.steps, 1, kMaxSteps);
  std::string e = validate_model(model_a(s), s.task, s.batch);
  if (!e.empty()) return e;
  if (s.vary != Difference::Scale && s.vary != Difference::Init) {
    e = validate_model(model_b(s), s.task, s.batch);
    if (!e.empty()) return "model B: " + e;
  }
  return validate_optim(s.optim);
}

std::string init_description(const ModelSettings& m) {
  const double d = m.d_model;
  if (m.init == InitKind::Unit) {
    std::string s =
        "unit init: token and position embeddings N(0, 1/2) each, W_q, W_k, W_v ~ N(0, 1/d_model), so every q "
        "and k entry has variance 1 at step 0 and Var(q\xc2\xb7k) = d_k = " +
        std::to_string(m.d_k);
    if (m.norm) return s + " (each layer reads the RMS-normalised residual stream)";
    if (m.layers > 1) return s + " in layer 1 (no normalisation: later layers see a larger residual stream)";
    return s;
  }
  // GPT-2's initialisation: every weight N(0, 0.02²). With unit-RMS inputs a q entry has variance
  // d_model · 0.02², so Var(q·k) = d_k · (d_model · 0.0004)².
  const double var_q = d * 0.0004;
  std::string s = "small init (GPT-2): every weight N(0, 0.02\xc2\xb2)";
  if (m.norm)
    return s + ", so q and k entries have variance " + num(var_q) +
           " and Var(q\xc2\xb7k) = " + num(m.d_k * var_q * var_q) + " at d_k = " + std::to_string(m.d_k);
  return s + "; without normalisation q and k start tiny (Var(q\xc2\xb7k) \xe2\x89\x88 0 at step 0)";
}

// ---- JSON ---------------------------------------------------------------------------------------------

json settings_to_json(const TrainSettings& s) {
  const ModelSettings& m = s.model;
  json j = {{"task", task_name(s.task)},
            {"seq_len", m.seq_len},
            {"vocab", m.vocab},
            {"batch", s.batch},
            {"seed", s.seed},
            {"steps", s.steps},
            {"layers", m.layers},
            {"heads", m.heads},
            {"d_model", m.d_model},
            {"d_k", m.d_k},
            {"d_v", m.d_v},
            {"scale", m.scale},
            {"temperature", m.temperature},
            {"mask", m.causal ? "causal" : "none"},
            {"positional", positional_name(m.positional)},
            {"norm", m.norm ? "rms" : "none"},
            {"mlp", m.mlp},
            {"d_mlp", m.d_mlp},
            {"init", init_name(m.init)},
            {"optimizer", optimizer_name(s.optim.kind)},
            {"lr", s.optim.learning_rate},
            {"beta1", s.optim.beta1},
            {"beta2", s.optim.beta2},
            {"epsilon", s.optim.epsilon},
            {"clip", s.optim.clip},
            {"vary", difference_name(s.vary)}};
  switch (s.vary) {
    case Difference::Scale:
      j["b"] = s.b_scale;
      break;
    case Difference::DK:
      j["b"] = s.b_d_k;
      break;
    case Difference::Temperature:
      j["b"] = s.b_temperature;
      break;
    case Difference::Heads:
      j["b"] = s.b_heads;
      break;
    case Difference::Init:
      j["b"] = init_name(s.b_init);
      break;
  }
  return j;
}

namespace {

std::string read_int(const json& v, const std::string& key, long long lo, long long hi, long long& out) {
  if (!v.is_number()) return key + " must be an integer, got " + v.type_name();
  const double d = v.get<double>();
  if (v.is_number_float() && (!std::isfinite(d) || d != std::floor(d))) return key + " must be an integer";
  long long x = 0;
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(hi))
      return key + " must be between " + std::to_string(lo) + " and " + std::to_string(hi);
    x = static_cast<long long>(u);
  } else if (v.is_number_integer()) {
    x = v.get<long long>();
  } else {
    if (d < static_cast<double>(lo) || d > static_cast<double>(hi))
      return key + " must be between " + std::to_string(lo) + " and " + std::to_string(hi);
    x = static_cast<long long>(d);
  }
  if (x < lo || x > hi) return range_error(key.c_str(), x, lo, hi);
  out = x;
  return "";
}

std::string read_number(const json& v, const std::string& key, double& out) {
  if (!v.is_number()) return key + " must be a number, got " + v.type_name();
  out = v.get<double>();
  return "";
}

std::string read_bool(const json& v, const std::string& key, bool& out) {
  if (!v.is_boolean()) return key + " must be true or false, got " + v.type_name();
  out = v.get<bool>();
  return "";
}

template <typename E, size_t N>
std::string read_name(const json& v, const std::string& key, const NameTable<E> (&table)[N], E& out) {
  if (!v.is_string()) return key + " must be a string, got " + v.type_name();
  if (!value_of(table, v.get<std::string>(), out))
    return key + " must be one of " + names_list(table) + " (got \"" + v.get<std::string>().substr(0, 32) + "\")";
  return "";
}

// Integer field readers bound loosely here (to what an int holds); validate() gives the precise range.
std::string read_field(const std::string& key, const json& v, TrainSettings& s) {
  ModelSettings& m = s.model;
  long long x = 0;
  std::string e;
  const auto int_field = [&](int& dst) {
    e = read_int(v, key, -(1LL << 30), 1LL << 30, x);
    if (e.empty()) dst = static_cast<int>(x);
    return e;
  };
  if (key == "seq_len") return int_field(m.seq_len);
  if (key == "vocab") return int_field(m.vocab);
  if (key == "batch") return int_field(s.batch);
  if (key == "layers") return int_field(m.layers);
  if (key == "heads") return int_field(m.heads);
  if (key == "d_model") return int_field(m.d_model);
  if (key == "d_k") return int_field(m.d_k);
  if (key == "d_v") return int_field(m.d_v);
  if (key == "d_mlp") return int_field(m.d_mlp);
  if (key == "seed") {
    e = read_int(v, key, 0, static_cast<long long>(kMaxSeed), x);
    if (e.empty()) s.seed = static_cast<uint64_t>(x);
    return e;
  }
  if (key == "steps") {
    e = read_int(v, key, 1, kMaxSteps, x);
    if (e.empty()) s.steps = static_cast<long>(x);
    return e;
  }
  if (key == "scale") return read_bool(v, key, m.scale);
  if (key == "mlp") return read_bool(v, key, m.mlp);
  if (key == "temperature") return read_number(v, key, m.temperature);
  if (key == "lr") return read_number(v, key, s.optim.learning_rate);
  if (key == "beta1") return read_number(v, key, s.optim.beta1);
  if (key == "beta2") return read_number(v, key, s.optim.beta2);
  if (key == "epsilon") return read_number(v, key, s.optim.epsilon);
  if (key == "clip") return read_number(v, key, s.optim.clip);
  if (key == "init") return read_name(v, key, kInits, m.init);
  if (key == "positional") return read_name(v, key, kPositionals, m.positional);
  if (key == "optimizer") return read_name(v, key, kOptimizers, s.optim.kind);
  if (key == "mask" || key == "norm") {
    const char* on = key == "mask" ? "causal" : "rms";
    if (!v.is_string() || (v.get<std::string>() != on && v.get<std::string>() != "none"))
      return key + " must be \"" + on + "\" or \"none\"";
    (key == "mask" ? m.causal : m.norm) = v.get<std::string>() == on;
    return "";
  }
  return "unknown key \"" + key.substr(0, 32) + "\" in the training settings";
}

std::string read_b(const json& v, TrainSettings& s) {
  long long x = 0;
  std::string e;
  switch (s.vary) {
    case Difference::Scale:
      return read_bool(v, "b (model B's scale)", s.b_scale);
    case Difference::DK:
      e = read_int(v, "b (model B's d_k)", 1, kMaxDHead, x);
      if (e.empty()) s.b_d_k = static_cast<int>(x);
      return e;
    case Difference::Temperature:
      return read_number(v, "b (model B's temperature)", s.b_temperature);
    case Difference::Heads:
      e = read_int(v, "b (model B's heads)", 1, kMaxHeads, x);
      if (e.empty()) s.b_heads = static_cast<int>(x);
      return e;
    case Difference::Init:
      return read_name(v, "b (model B's init)", kInits, s.b_init);
  }
  return "";
}

std::string from_json_impl(const json& j, TrainSettings& out) {
  if (!j.is_object()) return std::string("training settings must be a JSON object, got ") + j.type_name();
  TaskKind task = TaskKind::Induction;
  if (j.contains("task")) {
    std::string e = read_name(j["task"], "task", kTasks, task);
    if (!e.empty()) return e;
  }
  TrainSettings s = default_settings(task);
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "task" || it.key() == "vary" || it.key() == "b") continue;
    std::string e = read_field(it.key(), it.value(), s);
    if (!e.empty()) return e;
  }
  // B's value defaults follow A (a "b" absent for scale or init means "the other one").
  s.b_scale = !s.model.scale;
  s.b_init = s.model.init == InitKind::Unit ? InitKind::Small : InitKind::Unit;
  s.b_d_k = s.model.d_k;
  s.b_temperature = s.model.temperature;
  s.b_heads = s.model.heads;
  if (j.contains("vary")) {
    std::string e = read_name(j["vary"], "vary", kDifferences, s.vary);
    if (!e.empty()) return e;
  }
  if (j.contains("b")) {
    std::string e = read_b(j["b"], s);
    if (!e.empty()) return e;
  } else if (s.vary != Difference::Scale && s.vary != Difference::Init) {
    return std::string("vary \"") + difference_name(s.vary) + "\" needs \"b\": model B's " + difference_name(s.vary);
  }
  std::string e = validate(s);
  if (!e.empty()) return e;
  out = s;
  return "";
}

}  // namespace

std::string settings_from_json(const json& j, TrainSettings& out) {
  try {
    return from_json_impl(j, out);
  } catch (const std::exception& e) {
    return std::string("cannot read the training settings: ") + e.what();
  }
}

std::string parse_settings(const std::string& text, TrainSettings& out) {
  json j;
  const std::string err = parse_json_text(text, kMaxSettingsBytes, "the training settings", j);
  if (!err.empty()) return err;
  return settings_from_json(j, out);
}

}  // namespace attn::train
