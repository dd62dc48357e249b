// bench_train.cpp — Learn mode's training speed: optimiser steps per second of models A and B together.
//
// The reference configuration is L = 1, h = 4, d_model = 64, d_k = d_v = 16, n = 16, batch 32,
// vocabulary 16 (induction task, Adam): one "step" is a fresh batch, forward and backward of both
// models and one update of each — what Trainer::step(1) does in the page and in `attnplay train`.
// Prints wall-clock and CPU-time rates (the CPU rate is the one to trust on a shared machine).
//   attn_bench_train [--steps N] [--config reference|all] [--json FILE] [--curves FILE]
// --curves writes the reference run's export (settings and curves of A and B) so that a native and a
// WebAssembly run of the same seed can be compared number for number.
// Built natively and for WebAssembly (run under node); not a CTest: it only prints figures.
// The WebAssembly build is also a module (createAttnBenchTrain): train_bench.mjs loads it next to
// TensorFlow.js in one node process and drives the trainer through the bench_train_* functions below,
// so that both are timed by the same clock in the same conditions.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/train/train_trainer.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
// CPU time of the node process (user + system, µs): std::clock() is wall time under Emscripten.
EM_JS(double, bench_train_cpu_us, (), {
  const u = process.cpuUsage();
  return u.user + u.system;
});
#endif

namespace {

double cpu_seconds() {
#ifdef __EMSCRIPTEN__
  return bench_train_cpu_us() * 1e-6;
#else
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
#endif
}

struct Config {
  const char* name;
  int layers, heads, d_k, d_v;
};

const Config kConfigs[] = {
    {"reference", 1, 4, 16, 16},    {"L2 h2 d_k 4", 2, 2, 4, 32},     {"L2 h2 d_k 16", 2, 2, 16, 32},
    {"L2 h2 d_k 64", 2, 2, 64, 32}, {"L2 h2 d_k 256", 2, 2, 256, 32},
};

struct Figures {
  std::string name;
  int steps = 0;
  double wall_s = 0, cpu_s = 0;
};

attn::train::TrainSettings settings_of(const Config& c, int steps) {
  attn::train::TrainSettings s = attn::train::default_settings(attn::train::TaskKind::Induction);
  s.model.vocab = 16;
  s.model.seq_len = 16;
  s.model.d_model = 64;
  s.model.layers = c.layers;
  s.model.heads = c.heads;
  s.model.d_k = c.d_k;
  s.model.d_v = c.d_v;
  s.batch = 32;
  s.steps = steps;
  return s;
}

Figures run(const Config& c, int steps, const std::string& curves_path) {
  attn::train::Trainer t;
  const std::string err = t.reset(settings_of(c, steps + 3));
  if (!err.empty()) {
    std::fprintf(stderr, "error: %s\n", err.c_str());
    std::exit(1);
  }
  t.step(3);  // warm-up: first-touch of every buffer
  Figures f;
  f.name = c.name;
  f.steps = steps;
  const double c0 = cpu_seconds();
  const auto w0 = std::chrono::steady_clock::now();
  t.step(steps);
  f.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  f.cpu_s = cpu_seconds() - c0;
  if (t.stopped()) {
    std::fprintf(stderr, "error: %s\n", t.message().c_str());
    std::exit(1);
  }
  if (!curves_path.empty()) std::ofstream(curves_path) << t.to_json(false).dump() << "\n";
  return f;
}

attn::train::Trainer& module_trainer() {
  static attn::train::Trainer t;
  return t;
}

}  // namespace

// The module's interface (exported by the WebAssembly build; plain functions natively).
extern "C" {
int bench_train_config_count() { return static_cast<int>(sizeof kConfigs / sizeof kConfigs[0]); }
const char* bench_train_config_name(int k) { return k >= 0 && k < bench_train_config_count() ? kConfigs[k].name : ""; }
// Starts configuration k from step 0 (seed 1); 0 on success.
int bench_train_reset(int k) {
  if (k < 0 || k >= bench_train_config_count()) return 1;
  return module_trainer().reset(settings_of(kConfigs[k], attn::train::kMaxSteps)).empty() ? 0 : 1;
}
// Runs `count` optimiser steps of both models; returns how many ran (fewer only when training stopped).
int bench_train_steps(int count) { return module_trainer().step(count); }
long bench_train_steps_done() { return module_trainer().steps_done(); }
// The last step's loss of model which (0 = A, 1 = B).
double bench_train_loss(int which) {
  const auto& c = module_trainer().curve(which);
  return c.empty() ? 0.0 : c.back().loss;
}
// Model which's parameters (float32, the layout of bench_train_probe_json), for a peer to load.
const float* bench_train_parameters(int which) { return module_trainer().parameters(which).data(); }
// The probe batch, both models' loss on it with the current weights, and the parameter layout:
// {"batch", "seq_len", "tokens", "targets", "loss": [A, B], "alpha": [A, B], "tensors": [{name, rows, cols, offset}]}.
const char* bench_train_probe_json() {
  static std::string text;
  const attn::train::Trainer& t = module_trainer();
  const attn::train::Batch& b = t.probe_batch();
  nlohmann::json j = {{"batch", b.batch}, {"seq_len", b.seq_len}, {"tokens", b.tokens}, {"targets", b.targets}};
  for (int w = 0; w < 2; ++w) {
    j["loss"].push_back(t.probe(w).loss);
    j["alpha"].push_back(t.model(w).logit_factor());
  }
  for (const attn::train::TensorInfo& ti : t.model(0).tensors())
    j["tensors"].push_back({{"name", ti.name}, {"rows", ti.rows}, {"cols", ti.cols}, {"offset", ti.offset}});
  text = j.dump();
  return text.c_str();
}
}

int main(int argc, char** argv) {
  int steps = 300;
  bool all = false;
  std::string json_path, curves_path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--steps" && i + 1 < argc) {
      steps = std::atoi(argv[++i]);
    } else if (a == "--config" && i + 1 < argc) {
      all = std::string(argv[++i]) == "all";
    } else if (a == "--json" && i + 1 < argc) {
      json_path = argv[++i];
    } else if (a == "--curves" && i + 1 < argc) {
      curves_path = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: attn_bench_train [--steps N] [--config reference|all] [--json FILE] [--curves FILE]\n");
      return 2;
    }
  }
  if (steps < 1) steps = 1;
#ifdef __EMSCRIPTEN__
  const char* build = "wasm";
#else
  const char* build = "native";
#endif
  std::vector<Figures> out;
  std::printf("%-16s %7s %12s %12s %10s\n", "config", "steps", "steps/s cpu", "steps/s wall", "ms/step");
  for (const Config& c : kConfigs) {
    if (!all && std::string(c.name) != "reference") continue;
    const int n = std::string(c.name) == "L2 h2 d_k 256" ? std::max(1, steps / 8) : steps;
    const bool reference = std::string(c.name) == "reference";
    const Figures f = run(c, n, reference ? curves_path : std::string());
    std::printf("%-16s %7d %12.1f %12.1f %10.2f\n", f.name.c_str(), f.steps, f.steps / f.cpu_s, f.steps / f.wall_s,
                1e3 * f.cpu_s / f.steps);
    std::fflush(stdout);
    out.push_back(f);
  }
  if (!json_path.empty()) {
    std::ofstream j(json_path);
    j << "[";
    for (size_t i = 0; i < out.size(); ++i)
      j << (i ? "," : "") << "{\"build\":\"" << build << "\",\"config\":\"" << out[i].name
        << "\",\"steps\":" << out[i].steps << ",\"cpu_s\":" << out[i].cpu_s << ",\"wall_s\":" << out[i].wall_s << "}";
    j << "]\n";
  }
  return 0;
}
