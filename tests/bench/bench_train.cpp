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
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "core/train_trainer.h"

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

Figures run(const Config& c, int steps, const std::string& curves_path) {
  attn::train::TrainSettings s = attn::train::default_settings(attn::train::TaskKind::Induction);
  s.model.vocab = 16;
  s.model.seq_len = 16;
  s.model.d_model = 64;
  s.model.layers = c.layers;
  s.model.heads = c.heads;
  s.model.d_k = c.d_k;
  s.model.d_v = c.d_v;
  s.batch = 32;
  s.steps = steps + 3;
  attn::train::Trainer t;
  const std::string err = t.reset(s);
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

}  // namespace

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
