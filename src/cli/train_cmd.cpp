// train_cmd.cpp — `attnplay train`: trains models A and B headless, progress on stderr, curves to a JSON file.
#include "train_cmd.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/train/train_trainer.h"

namespace attn::cli {

const char kTrainUsage[] =
    "  train [--task induction] [--layers 2] [--heads 2] [--d-k 64] [--scale both] [--steps 3000]\n"
    "        [--seed 1] [--json curves.json] [more options: attnplay train --help]\n"
    "                                      train two attention-only models side by side (A with 1/sqrt(d_k),\n"
    "                                      B without) and report loss and accuracy\n";

namespace {

constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

const char kHelp[] =
    "usage: attnplay train [options]\n"
    "\n"
    "Trains models A and B in lockstep on identical batches; they differ in one setting (default: A divides\n"
    "q.k by sqrt(d_k), B does not). Progress goes to stderr, a summary JSON to stdout.\n"
    "\n"
    "task and data:\n"
    "  --task copy|reverse|sort|lookup|induction   (default induction)\n"
    "  --seq-len N --vocab N --batch N --seed S --steps N\n"
    "model (both A and B):\n"
    "  --layers 1|2 --heads N --d-k N --d-v N --d-model N --temperature T\n"
    "  --init unit|small --positional learned|sinusoidal --mask causal|none --norm rms|none\n"
    "  --mlp [--d-mlp N]\n"
    "what B changes:\n"
    "  --scale both|on|off      both (default): A scaled, B unscaled; on/off: both models alike\n"
    "  --vary scale|d_k|temperature|heads|init --b VALUE   B's value of that one setting\n"
    "optimiser:\n"
    "  --optimizer adam|sgd --lr X --clip X (global gradient norm, 0 = off)\n"
    "output:\n"
    "  --settings FILE          start from a training-settings JSON (the share-link format); flags override\n"
    "  --json FILE              write settings, curves and status (with --weights also every tensor)\n"
    "  --dump-step FILE         write model A's first optimiser step: settings, initial weights, the batch,\n"
    "                           the loss and the weights after the update (an outside check's input)\n"
    "  --stop-at ACC            stop early once both models' accuracy, averaged over the last 20 steps,\n"
    "                           is at least ACC (e.g. 0.9)\n"
    "  --progress N             a stderr line every N steps (default: every tenth of the run)\n"
    "  --quiet                  no progress lines\n";

struct Flag {
  const char* flag;
  const char* key;
  enum Kind { Int, Number, Name, Switch } kind;
};

const Flag kFlags[] = {{"--task", "task", Flag::Name},
                       {"--layers", "layers", Flag::Int},
                       {"--heads", "heads", Flag::Int},
                       {"--d-k", "d_k", Flag::Int},
                       {"--d-v", "d_v", Flag::Int},
                       {"--d-model", "d_model", Flag::Int},
                       {"--seq-len", "seq_len", Flag::Int},
                       {"--vocab", "vocab", Flag::Int},
                       {"--batch", "batch", Flag::Int},
                       {"--temperature", "temperature", Flag::Number},
                       {"--init", "init", Flag::Name},
                       {"--positional", "positional", Flag::Name},
                       {"--mask", "mask", Flag::Name},
                       {"--norm", "norm", Flag::Name},
                       {"--mlp", "mlp", Flag::Switch},
                       {"--d-mlp", "d_mlp", Flag::Int},
                       {"--optimizer", "optimizer", Flag::Name},
                       {"--lr", "lr", Flag::Number},
                       {"--clip", "clip", Flag::Number},
                       {"--steps", "steps", Flag::Int},
                       {"--seed", "seed", Flag::Int},
                       {"--vary", "vary", Flag::Name}};

std::string parse_integer(const std::string& flag, const std::string& text, long long& out) {
  if (text.empty()) return flag + " needs a number";
  size_t i = text[0] == '-' || text[0] == '+' ? 1 : 0;
  if (i == text.size() || text.size() > 19) return flag + " expects an integer, got '" + text.substr(0, 32) + "'";
  for (; i < text.size(); ++i)
    if (text[i] < '0' || text[i] > '9') return flag + " expects an integer, got '" + text.substr(0, 32) + "'";
  out = std::strtoll(text.c_str(), nullptr, 10);
  return "";
}

std::string parse_number(const std::string& flag, const std::string& text, double& out) {
  if (text.empty()) return flag + " needs a number";
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  // strtod also reads "nan", "inf" and hex: only finite decimal numbers are settings.
  const bool decimal = text.find_first_not_of("0123456789+-.eE") == std::string::npos;
  if (end != text.c_str() + text.size() || !decimal || !std::isfinite(v))
    return flag + " expects a finite number, got '" + text.substr(0, 32) + "'";
  out = v;
  return "";
}

struct Options {
  nlohmann::json settings = nlohmann::json::object();
  std::string settings_file, json_file, dump_file, b_value, scale_mode;
  bool has_b = false, with_weights = false, quiet = false, help = false;
  long long progress = 0;
  double stop_at = 0;  // 0 = run every step
};

std::string parse_args(const std::vector<std::string>& args, Options& o) {
  for (size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i], value;
    bool has_value = false;
    const size_t eq = flag.find('=');
    if (flag.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
      has_value = true;
    }
    if (flag == "-h" || flag == "--help") {
      o.help = true;
      return "";
    }
    const auto take = [&](std::string& dst) -> std::string {
      if (!has_value) {
        if (i + 1 >= args.size()) return flag + " needs a value";
        value = args[++i];
      }
      dst = value;
      return "";
    };
    std::string err;
    if (flag == "--weights" || flag == "--quiet" || flag == "--mlp") {
      if (has_value) return flag + " takes no value";
      if (flag == "--weights") o.with_weights = true;
      if (flag == "--quiet") o.quiet = true;
      if (flag == "--mlp") o.settings["mlp"] = true;
      continue;
    }
    std::string text;
    if (flag == "--settings" || flag == "--json" || flag == "--dump-step") {
      if (!(err = take(text)).empty()) return err;
      (flag == "--json" ? o.json_file : flag == "--dump-step" ? o.dump_file : o.settings_file) = text;
    } else if (flag == "--progress") {
      if (!(err = take(text)).empty() || !(err = parse_integer(flag, text, o.progress)).empty()) return err;
      if (o.progress < 1) return "--progress must be at least 1";
    } else if (flag == "--stop-at") {
      if (!(err = take(text)).empty() || !(err = parse_number(flag, text, o.stop_at)).empty()) return err;
      if (o.stop_at <= 0 || o.stop_at > 1) return "--stop-at must be an accuracy in (0, 1]";
    } else if (flag == "--b") {
      if (!(err = take(o.b_value)).empty()) return err;
      o.has_b = true;
    } else if (flag == "--scale") {
      if (!(err = take(text)).empty()) return err;
      if (text != "both" && text != "on" && text != "off")
        return "--scale must be both, on or off (got '" + text.substr(0, 32) + "')";
      o.settings["scale"] = text != "off";
      o.scale_mode = text;
      if (text == "both") {
        o.settings["vary"] = "scale";
        o.settings["b"] = false;
      }
    } else {
      const Flag* f = nullptr;
      for (const Flag& c : kFlags)
        if (flag == c.flag) f = &c;
      if (!f) return "unknown option for train: " + args[i].substr(0, 64);
      if (!(err = take(text)).empty()) return err;
      if (f->kind == Flag::Int) {
        long long v = 0;
        if (!(err = parse_integer(flag, text, v)).empty()) return err;
        o.settings[f->key] = v;
      } else if (f->kind == Flag::Number) {
        double v = 0;
        if (!(err = parse_number(flag, text, v)).empty()) return err;
        o.settings[f->key] = v;
      } else {
        o.settings[f->key] = text;
      }
    }
  }
  return "";
}

// --b's text as the JSON value its --vary expects.
std::string b_to_json(const std::string& vary, const std::string& text, nlohmann::json& out) {
  if (vary == "scale") {
    if (text != "on" && text != "off" && text != "true" && text != "false")
      return "--b for --vary scale must be on or off (got '" + text.substr(0, 32) + "')";
    out = text == "on" || text == "true";
    return "";
  }
  if (vary == "d_k" || vary == "heads") {
    long long v = 0;
    std::string err = parse_integer("--b", text, v);
    out = v;
    return err;
  }
  if (vary == "temperature") {
    double v = 0;
    std::string err = parse_number("--b", text, v);
    out = v;
    return err;
  }
  out = text;
  return "";
}

std::string read_file(const std::string& path, std::string& text) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return "cannot open " + path + ": " + std::strerror(errno);
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) return "cannot read " + path;
  text = ss.str();
  return "";
}

std::string progress_line(const attn::train::Trainer& t, long total) {
  std::string line = "step " + std::to_string(t.steps_done()) + "/" + std::to_string(total);
  for (int w = 0; w < 2; ++w) {
    const auto& c = t.curve(w);
    if (c.empty()) continue;
    char buf[160];
    std::snprintf(buf, sizeof buf, "  %s %s: loss %.4f acc %.3f", w == 0 ? "A" : "B", t.label(w).c_str(), c.back().loss,
                  c.back().accuracy);
    line += buf;
  }
  return line;
}

nlohmann::json summary(const attn::train::Trainer& t) {
  using attn::train::kAccuracyWindow;
  nlohmann::json models = nlohmann::json::array();
  for (int w = 0; w < 2; ++w) {
    const auto& c = t.curve(w);
    const size_t k = std::min(c.size(), static_cast<size_t>(kAccuracyWindow));
    double loss = 0, acc = 0;
    for (size_t i = c.size() - k; i < c.size(); ++i) {
      loss += c[i].loss;
      acc += c[i].accuracy;
    }
    const long reached = attn::train::steps_to_accuracy(c, 0.9, kAccuracyWindow);
    models.push_back({{"name", w == 0 ? "A" : "B"},
                      {"label", t.label(w)},
                      {"final_loss", k ? loss / static_cast<double>(k) : 0.0},
                      {"final_accuracy", k ? acc / static_cast<double>(k) : 0.0},
                      {"steps_to_90", reached > 0 ? nlohmann::json(reached) : nlohmann::json(nullptr)}});
  }
  return {{"steps", t.steps_done()},
          {"accuracy_window", kAccuracyWindow},
          {"settings", attn::train::settings_to_json(t.settings())},
          {"models", models}};
}

// Mean accuracy over the last kAccuracyWindow steps (0 before a full window).
double window_accuracy(const std::vector<attn::train::StepRecord>& c) {
  const size_t w = static_cast<size_t>(attn::train::kAccuracyWindow);
  if (c.size() < w) return 0;
  double sum = 0;
  for (size_t i = c.size() - w; i < c.size(); ++i) sum += c[i].accuracy;
  return sum / static_cast<double>(w);
}

// Every tensor of `model` holding `params` (in its layout): {name: {"shape": [rows, cols], "values": row-major}}.
// Floats go out as the doubles they convert to, which JSON prints exactly.
nlohmann::json tensors_json(const attn::train::Model<float>& model, const std::vector<float>& params) {
  nlohmann::json j = nlohmann::json::object();
  for (const attn::train::TensorInfo& t : model.tensors()) {
    const float* p = params.data() + t.offset;
    j[t.name] = {{"shape", {t.rows, t.cols}}, {"values", std::vector<float>(p, p + t.size())}};
  }
  return j;
}

// --dump-step: model A's first step, after it ran, from the weights it started with.
nlohmann::json step_dump(const attn::train::Trainer& t, const std::vector<float>& initial) {
  const attn::train::Batch& b = t.last_batch();
  nlohmann::json tokens = nlohmann::json::array(), targets = nlohmann::json::array(), scored = nlohmann::json::array();
  for (int i = 0; i < b.batch; ++i) {
    nlohmann::json tk = nlohmann::json::array(), tg = nlohmann::json::array(), sc = nlohmann::json::array();
    for (int p = 0; p < b.seq_len; ++p) {
      tk.push_back(b.token(i, p));
      tg.push_back(b.target(i, p));
      sc.push_back(b.target(i, p) >= 0);
    }
    tokens.push_back(std::move(tk));
    targets.push_back(std::move(tg));
    scored.push_back(std::move(sc));
  }
  const attn::train::StepRecord& r = t.curve(0).front();
  const attn::train::Model<float>& model = t.model(0);
  return {{"format", "attnplay-train-step"},
          {"version", 1},
          {"model", "A"},
          {"label", t.label(0)},
          {"settings", attn::train::settings_to_json(t.settings())},
          {"batch",
           {{"batch", b.batch},
            {"seq_len", b.seq_len},
            {"tokens", tokens},
            {"targets", targets},  // -1: not scored
            {"scored", scored},
            {"scored_count", b.scored}}},
          {"loss", r.loss},
          {"accuracy", r.accuracy},
          {"grad_norm", r.grad_norm},  // before clipping
          {"initial", tensors_json(model, initial)},
          {"updated", tensors_json(model, model.parameters())}};
}

// Opens `path` (if one was given) before training, so a bad path fails early.
std::string open_output(const std::string& path, std::ofstream& out) {
  if (path.empty()) return "";
  out.open(path, std::ios::binary | std::ios::trunc);
  return out ? "" : "cannot write " + path + ": " + std::strerror(errno);
}

// Writes `j` as one line and closes `out`.
std::string write_json(std::ofstream& out, const std::string& path, const nlohmann::json& j) {
  out << j.dump() << "\n";
  out.close();
  return out ? "" : "cannot write " + path;
}

// Reads --settings (errors there are bad input, exit 1), then lays the flags over it (exit 2).
int build_settings(Options& o, attn::train::TrainSettings& s, std::string& error) {
  nlohmann::json merged = nlohmann::json::object();
  if (!o.settings_file.empty()) {
    std::string text;
    error = read_file(o.settings_file, text);
    if (error.empty()) error = attn::train::parse_settings(text, s);
    if (!error.empty()) {
      error = o.settings_file + ": " + error;
      return kExitError;
    }
    merged = attn::train::settings_to_json(s);
  }
  // B's value belongs to the varied setting: a new --vary drops the file's.
  if (o.settings.contains("vary")) merged.erase("b");
  for (auto it = o.settings.begin(); it != o.settings.end(); ++it) merged[it.key()] = it.value();
  // --scale on|off: both models alike unless B varies something else.
  if (!o.scale_mode.empty() && o.scale_mode != "both" && merged.value("vary", std::string("scale")) == "scale")
    merged["b"] = o.scale_mode == "on";
  if (o.has_b) {
    const std::string vary = merged.value("vary", std::string("scale"));
    nlohmann::json b;
    error = b_to_json(vary, o.b_value, b);
    if (!error.empty()) return kExitUsage;
    merged["b"] = b;
  }
  error = attn::train::settings_from_json(merged, s);
  return error.empty() ? 0 : kExitUsage;
}

}  // namespace

int run_train(const std::vector<std::string>& args, std::string& error) {
  Options o;
  error = parse_args(args, o);
  if (!error.empty()) return kExitUsage;
  if (o.help) {
    std::cout << kHelp;
    return 0;
  }
  attn::train::TrainSettings s;
  const int rc = build_settings(o, s, error);
  if (rc != 0) return rc;
  std::ofstream json_out, dump_out;
  if (!(error = open_output(o.json_file, json_out)).empty() || !(error = open_output(o.dump_file, dump_out)).empty())
    return kExitError;
  attn::train::Trainer trainer;
  error = trainer.reset(s);
  if (!error.empty()) return kExitUsage;
  const std::vector<float> initial = dump_out.is_open() ? trainer.parameters(0) : std::vector<float>();
  const long every = o.progress > 0 ? static_cast<long>(o.progress) : std::max(1L, s.steps / 10);
  const auto t0 = std::chrono::steady_clock::now();
  while (trainer.steps_done() < s.steps && !trainer.stopped()) {
    trainer.step(1);
    if (dump_out.is_open() && trainer.steps_done() == 1 &&
        !(error = write_json(dump_out, o.dump_file, step_dump(trainer, initial))).empty())
      return kExitError;
    const bool reached = o.stop_at > 0 && window_accuracy(trainer.curve(0)) >= o.stop_at &&
                         window_accuracy(trainer.curve(1)) >= o.stop_at;
    const bool last = reached || trainer.steps_done() == s.steps;
    if (!o.quiet && !trainer.stopped() && (trainer.steps_done() % every == 0 || last))
      std::cerr << progress_line(trainer, s.steps) << "\n";
    if (reached) break;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (json_out.is_open() && !(error = write_json(json_out, o.json_file, trainer.to_json(o.with_weights))).empty())
    return kExitError;
  if (trainer.stopped()) {
    error = trainer.message();
    return kExitError;
  }
  if (!o.quiet) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "done: %ld steps in %.2f s (%.1f steps/s)", trainer.steps_done(), seconds,
                  static_cast<double>(trainer.steps_done()) / std::max(seconds, 1e-9));
    std::cerr << buf << "\n";
  }
  std::cout << summary(trainer).dump(2) << "\n";
  std::cout.flush();
  if (!std::cout) {
    error = "cannot write to standard output";
    return kExitError;
  }
  return 0;
}

}  // namespace attn::cli
