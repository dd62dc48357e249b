// train_worker.cpp — the module of the page's training Web Worker (web/site/attnplay-train-worker.js): one
// Trainer behind a small C API, so Learn mode trains on another thread while the page's own thread draws.
//
// The worker script loads a state the page saved (Trainer::save_state), runs steps in slices of a few
// milliseconds between which it reads its messages, and saves snapshots for the page to adopt.
#include <emscripten.h>

#include <chrono>
#include <string>

#include "core/train/train_trainer.h"

namespace {
attn::train::Trainer g_trainer;  // one worker, one run
std::string g_bytes;             // the last saved state, valid until the next save
std::string g_error;             // why the last load was refused

bool run_finished() { return g_trainer.stopped() || g_trainer.steps_done() >= g_trainer.settings().steps; }
}  // namespace

extern "C" {

// Takes `size` bytes of a saved state: 1, or 0 with the reason in attnplay_train_error() (the run as it was).
EMSCRIPTEN_KEEPALIVE int attnplay_train_load(const char* data, int size) {
  g_error = size >= 0 && data ? g_trainer.load_state(std::string(data, static_cast<size_t>(size))) : "no state given";
  return g_error.empty() ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE const char* attnplay_train_error() { return g_error.c_str(); }

// Runs steps until `max_steps` have run, `max_ms` have passed (checked after each step), the planned run
// is complete or a step stops being finite. Returns how many ran.
EMSCRIPTEN_KEEPALIVE int attnplay_train_run(int max_steps, double max_ms) {
  const auto start = std::chrono::steady_clock::now();
  int ran = 0;
  while (ran < max_steps && !run_finished()) {
    if (g_trainer.step(1) == 0) break;
    ++ran;
    if (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() >= max_ms) break;
  }
  return ran;
}

// Saves the state with the curve records from `curve_from` on; the bytes are at attnplay_train_bytes().
EMSCRIPTEN_KEEPALIVE int attnplay_train_save(double curve_from) {
  g_bytes = g_trainer.save_state(static_cast<long>(curve_from));
  return static_cast<int>(g_bytes.size());
}

EMSCRIPTEN_KEEPALIVE const char* attnplay_train_bytes() { return g_bytes.data(); }

// The probe views of the state just saved (Trainer::save_probes), at attnplay_train_bytes(): the page adopts them
// with the snapshot instead of running the probe pass on its own thread.
EMSCRIPTEN_KEEPALIVE int attnplay_train_save_probes() {
  g_bytes = g_trainer.save_probes();
  return static_cast<int>(g_bytes.size());
}

EMSCRIPTEN_KEEPALIVE double attnplay_train_steps() { return static_cast<double>(g_trainer.steps_done()); }

// 1 once no step can run: stopped (not finite) or the planned number of steps reached.
EMSCRIPTEN_KEEPALIVE int attnplay_train_finished() { return run_finished() ? 1 : 0; }

}  // extern "C"
