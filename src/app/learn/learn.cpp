// learn.cpp — training in the worker or in slices per frame, settings changes, export and "open in playground".
#include "app/learn/learn.h"

#include <chrono>

#include "app/learn/learn_text.h"
#include "app/learn/study.h"
#include "app/state/state.h"
#include "core/train/train_settings.h"

namespace attn {

using nlohmann::json;

namespace {
// Ends the worker's generation: this side's trainer, as last adopted, is the truth again.
void halt_worker(LearnSession& L) {
  if (!L.worker_running) return;
  L.worker_running = false;
  ++L.generation;
  if (L.worker.stop) L.worker.stop();
}

// The learner's settings become the trainer's (restart) only when they differ and are valid.
void sync_settings(LearnParts p) {
  LearnSession& L = p.learn;
  const json want = train::settings_to_json(p.pg.state.learn_settings);
  if (L.started && want == train::settings_to_json(L.trainer.settings())) return;
  if (train::validate(p.pg.state.learn_settings).empty()) halt_worker(L);
  const std::string err = L.trainer.reset(p.pg.state.learn_settings);
  L.started = true;
  if (err.empty()) {
    L.message.clear();
    return;
  }
  L.message = tr_format(p.pg.state.lang, "learn.not_applied", {{"error", err}});
  p.pg.state.learn_settings = L.trainer.settings();  // the running models go on untouched
  p.pg.state.learn_playing = false;
}

// Hands the trainer to the worker when a generation starts, then allows learn.speed more steps per frame.
void drive_worker(LearnParts p) {
  LearnSession& L = p.learn;
  if (!L.worker_running) {
    ++L.generation;
    L.worker_running = true;
    L.allowance = 0;
    L.worker.start(L.trainer.save_state(), L.generation);
  }
  L.allowance += p.pg.state.learn_speed;
  L.worker.allow(L.generation, L.allowance);
}
}  // namespace

int learn_tick(LearnParts p, double budget_ms) {
  LearnSession& L = p.learn;
  if (!p.pg.state.panels.learn && !p.pg.state.learn_playing) {
    halt_worker(L);
    return 0;
  }
  sync_settings(p);
  // Paused, stopped (not finite) or the planned run done: nothing trains, and no worker either.
  if (!p.pg.state.learn_playing || L.trainer.stopped() || L.trainer.steps_done() >= L.trainer.settings().steps) {
    halt_worker(L);
    if (L.trainer.stopped()) L.message = learn_stop_text(p.pg.state.lang, L.trainer);
    p.pg.state.learn_playing = false;
    return 0;
  }
  if (L.worker.available()) {
    drive_worker(p);
    return 0;
  }
  const auto start = std::chrono::steady_clock::now();
  int ran = 0;
  for (int i = 0; i < p.pg.state.learn_speed; ++i) {
    if (L.trainer.steps_done() >= p.pg.state.learn_settings.steps) {
      p.pg.state.learn_playing = false;  // the planned run is done
      break;
    }
    ran += L.trainer.step(1);
    if (L.trainer.stopped()) {
      p.pg.state.learn_playing = false;
      L.message = learn_stop_text(p.pg.state.lang, L.trainer);
      break;
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (budget_ms > 0 && ms > budget_ms) break;  // keep the page drawing: the rest next frame
  }
  return ran;
}

std::string learn_adopt(LearnParts p, const std::string& state, uint64_t generation, const std::string& probes) {
  LearnSession& L = p.learn;
  if (!L.worker_running || generation != L.generation) return "stale";
  const std::string err = L.trainer.load_state(state);
  if (!err.empty()) {
    learn_worker_failed(p, err);
    return err;
  }
  if (!probes.empty()) L.trainer.adopt_probes(probes);  // refused: probe() makes its own when a panel asks
  if (L.trainer.stopped()) {
    L.message = learn_stop_text(p.pg.state.lang, L.trainer);
    p.pg.state.learn_playing = false;
    halt_worker(L);
  } else if (L.trainer.steps_done() >= L.trainer.settings().steps) {
    p.pg.state.learn_playing = false;  // the planned run is done
    halt_worker(L);
  }
  return "";
}

KeptRun learn_snapshot(LearnParts p, std::string& bytes) {
  LearnSession& L = p.learn;
  const long steps = L.started ? L.trainer.steps_done() : 0;
  if (steps == L.kept_steps) return KeptRun::Unchanged;
  L.kept_steps = steps;
  if (steps == 0) return KeptRun::Forget;  // reset, or other settings: a reload must not bring the old run back
  bytes = L.trainer.save_state();
  return KeptRun::Save;
}

std::string learn_resume(LearnParts p, const std::string& bytes) {
  train::Trainer probe;
  if (std::string err = probe.load_state(bytes); !err.empty()) return "the kept run is not readable: " + err;
  if (train::settings_to_json(probe.settings()) != train::settings_to_json(p.pg.state.learn_settings))
    return "the kept run has other settings than this page";
  LearnSession& L = p.learn;
  halt_worker(L);
  if (std::string err = L.trainer.load_state(bytes); !err.empty()) return err;
  L.started = true;
  L.kept_steps = L.trainer.steps_done();
  p.pg.status = tr_format(p.pg.state.lang, "learn.resumed", {{"steps", std::to_string(L.trainer.steps_done())}});
  return "";
}

void learn_worker_failed(LearnParts p, const std::string& reason) {
  LearnSession& L = p.learn;
  if (L.worker_running && L.worker.stop) L.worker.stop();  // a worker still alive trains nothing more
  L.worker_running = false;
  ++L.generation;
  L.worker = LearnWorker();
  L.in_page_reason = reason.empty() ? "no worker" : reason.substr(0, 300);
}

int learn_step(LearnParts p) {
  halt_worker(p.learn);
  sync_settings(p);
  if (p.learn.trainer.stopped()) return 0;
  const int ran = p.learn.trainer.step(1);
  if (p.learn.trainer.stopped()) p.learn.message = learn_stop_text(p.pg.state.lang, p.learn.trainer);
  return ran;
}

std::string learn_open_reversal(LearnParts p) {
  train::TrainSettings st;
  const std::string err = reversal_settings(st, kReversalSeed);
  if (!err.empty()) return err;
  p.pg.state.learn_settings = st;
  p.pg.state.learn_playing = true;
  return "";
}

void learn_reset(LearnParts p) {
  halt_worker(p.learn);
  sync_settings(p);
  p.learn.trainer.restart();
  p.learn.message.clear();
}

std::string open_head_in_playground(LearnParts p, int which, int layer, int head) {
  Scenario sc;
  const std::string err = p.learn.trainer.head_scenario(which, layer, head, sc);
  if (!err.empty()) return err;
  p.pg.state.explicit_scenario = sc;
  p.pg.state.mode = InputMode::Explicit;
  p.pg.state.scale = sc.scale;
  p.pg.state.temperature = sc.temperature;
  p.pg.state.preset.clear();
  p.pg.state.selected_row = 0;
  p.pg.state.panels.pipeline = p.pg.state.panels.heatmap = p.pg.state.panels.saturation = true;
  p.pg.recompute();
  return p.pg.result.error;
}

json learn_result_json(LearnView p, bool with_curves) {
  const train::Trainer& t = p.learn.trainer;
  json j = {{"settings", train::settings_to_json(t.settings())},
            {"steps", t.steps_done()},
            {"playing", p.pg.state.learn_playing},
            {"stopped", t.stopped()},
            {"message", p.learn.message},
            {"worker", p.learn.worker.available()},
            {"worker_running", p.learn.worker_running},
            {"in_page_reason", p.learn.in_page_reason}};
  for (int which = 0; which < 2; ++which) {
    const auto& c = t.curve(which);
    json m = {{"label", t.label(which)},
              {"init", t.init_text(which)},
              {"steps_to_90", train::steps_to_accuracy(c, 0.9, train::kAccuracyWindow)}};
    if (!c.empty()) {
      m["loss"] = c.back().loss;
      m["accuracy"] = c.back().accuracy;
      m["jacobian_norm"] = c.back().jacobian_norm;
      m["logit_grad_norm"] = c.back().logit_grad_norm;
      m["entropy"] = c.back().entropy;
    }
    if (with_curves) m["curve"] = train::curve_to_json(c);
    j[which == 0 ? "a" : "b"] = m;
  }
  return j;
}

void set_learn_task(train::TrainSettings& st, train::TaskKind task) {
  const train::TrainSettings fresh = train::default_settings(task);
  st.task = task;
  st.model.seq_len = fresh.model.seq_len;
  st.model.vocab = fresh.model.vocab;
  st.model.causal = fresh.model.causal;
}

void set_learn_d_k(train::TrainSettings& st, int d_k) {
  st.model.d_k = d_k;  // both models restart at the new width
  if (st.vary != train::Difference::DK) st.b_d_k = d_k;
}

}  // namespace attn
