// test_learn_app.cpp — Learn mode in the app: play runs steps each frame or hands them to a worker, a new d_k
// restarts both models, a bad setting is refused and the running models go on, the setup round-trips through the state.
#include <catch2/catch.hpp>

#include <limits>

#include "app/app.h"
#include "app/learn/learn_text.h"
#include "app/state/state_json.h"

using namespace attn;

TEST_CASE("Learn mode trains in frame slices and restarts on a new width", "[learn]") {
  App app;
  app.state.panels.learn = true;
  app.state.learn_settings = train::default_settings(train::TaskKind::Copy);
  app.state.learn_settings.model.layers = 1;
  app.state.learn_playing = true;
  app.state.learn_speed = 3;
  app.tick();
  app.tick();
  CHECK(app.learn.trainer.steps_done() == 6);  // speed 3 × 2 frames, no time budget in tests
  const double loss_a = app.learn.trainer.curve(0).back().loss;
  CHECK(std::isfinite(loss_a));

  // The same setup from scratch gives the same curve, bit for bit.
  App again;
  again.state.panels.learn = true;
  again.state.learn_settings = app.state.learn_settings;
  again.state.learn_playing = true;
  again.state.learn_speed = 6;
  again.tick();
  REQUIRE(again.learn.trainer.steps_done() == 6);
  CHECK(again.learn.trainer.curve(0).back().loss == loss_a);

  app.state.learn_settings.model.d_k = 8;  // the d_k slider: both restart at the new width
  app.state.learn_playing = false;
  app.tick();
  CHECK(app.learn.trainer.steps_done() == 0);
  CHECK(app.learn.trainer.settings().model.d_k == 8);

  app.state.learn_playing = true;
  app.tick();
  const long steps = app.learn.trainer.steps_done();
  app.state.learn_settings.batch = 0;  // bad: refused, the running models go on untouched
  app.tick();
  CHECK_FALSE(app.learn.message.empty());
  CHECK(app.state.learn_settings.batch == app.learn.trainer.settings().batch);
  CHECK(app.learn.trainer.steps_done() >= steps);
}

TEST_CASE("the training setup is a state key that links carry", "[learn]") {
  State s;
  s.learn_settings.seed = 7;
  s.learn_settings.model.d_k = 32;
  const auto j = state_to_json(s);
  REQUIRE(j.contains("learn"));
  State back = App().state;  // a state that computes (the app's first)
  REQUIRE(apply_state_json(back, {{"learn", j["learn"]}}) == "");
  CHECK(back.learn_settings.seed == 7);
  CHECK(back.learn_settings.model.d_k == 32);
  CHECK_THAT(apply_state_text(back, R"({"learn": {"settings": {"batch": 0}}})"), Catch::Contains("learn.settings"));
  CHECK_THAT(apply_state_text(back, R"({"learn": {"speed": 1000}})"), Catch::Contains("learn.speed"));
  CHECK(back.learn_settings.model.d_k == 32);  // refused: unchanged
}

TEST_CASE("a learned head opens in the playground as an explicit scenario", "[learn]") {
  App app;
  app.state.panels.learn = true;
  app.state.learn_settings = train::default_settings(train::TaskKind::Copy);
  app.state.learn_playing = true;
  app.tick();
  REQUIRE(open_head_in_playground(app, 0, 0, 1) == "");
  CHECK(app.state.mode == InputMode::Explicit);
  CHECK(app.result.error.empty());
  const auto& w = app.result.core.main.weights;
  REQUIRE(w.rows() == app.state.learn_settings.model.seq_len);
  CHECK(w.row(0).sum() == Approx(1.0f).margin(1e-4));
  CHECK_FALSE(open_head_in_playground(app, 0, 5, 0).empty());  // no such layer
}

namespace {
// A worker as the page has one, run by hand: it keeps the states it was handed and trains them on request.
struct FakeWorker {
  std::vector<std::pair<uint64_t, std::string>> starts;
  long allowed = 0;
  int stops = 0;
  train::Trainer trainer;
  long sent = 0;
  void attach(App& app) {
    app.learn.worker.start = [this](const std::string& state, uint64_t gen) {
      starts.emplace_back(gen, state);
      REQUIRE(trainer.load_state(state) == "");
      sent = trainer.steps_done();
    };
    app.learn.worker.allow = [this](uint64_t, long steps) { allowed = steps; };
    app.learn.worker.stop = [this] { ++stops; };
  }
  // Trains what the allowance permits and returns the snapshot of what was added.
  std::string train(long steps) {
    trainer.step(static_cast<int>(steps));
    std::string snapshot = trainer.save_state(sent);
    sent = trainer.steps_done();
    return snapshot;
  }
};
}  // namespace

TEST_CASE("with a worker, the frame hands out steps and adopts snapshots; pause and step end the generation",
          "[learn][worker]") {
  App app;
  FakeWorker worker;
  worker.attach(app);
  app.state.panels.learn = true;
  app.state.learn_settings = train::default_settings(train::TaskKind::Copy);
  app.state.learn_settings.model.layers = 1;
  app.state.learn_playing = true;
  app.state.learn_speed = 5;
  CHECK(learn_tick(app, 0) == 0);  // the frame itself trains nothing
  REQUIRE(worker.starts.size() == 1);
  CHECK(app.learn.worker_running);
  CHECK(worker.allowed == 5);
  learn_tick(app, 0);
  CHECK(worker.allowed == 10);  // at most learn.speed steps per drawn frame
  const uint64_t gen = worker.starts[0].first;
  REQUIRE(learn_adopt(app, worker.train(4), gen) == "");
  const uint64_t passes = app.learn.trainer.probe_passes_run();
  const std::string snapshot = worker.train(6), views = worker.trainer.save_probes();  // in this order
  REQUIRE(learn_adopt(app, snapshot, gen, views) == "");
  CHECK(app.learn.trainer.steps_done() == 10);
  CHECK(learn_result_json(app)["worker"] == true);
  // The worker's probe views came with the snapshot: the Learn panel's pictures cost the page no probe pass.
  CHECK(app.learn.trainer.probe(0).loss == worker.trainer.probe(0).loss);
  CHECK(app.learn.trainer.probe_passes_run() == passes);

  // The same run trained in the frame gives the same curves, bit for bit.
  App local;
  local.state = app.state;
  local.state.learn_speed = 10;
  local.tick();
  REQUIRE(local.learn.trainer.steps_done() == 10);
  CHECK(local.learn.trainer.save_state() == app.learn.trainer.save_state());

  // Pause: the generation ends, a late snapshot of it is ignored.
  app.state.learn_playing = false;
  learn_tick(app, 0);
  CHECK(worker.stops == 1);
  CHECK_FALSE(app.learn.worker_running);
  CHECK(learn_adopt(app, worker.train(3), gen) == "stale");
  CHECK(app.learn.trainer.steps_done() == 10);
  // Step works here; Play again hands the worker the state as it is now, under a new generation.
  CHECK(learn_step(app) == 1);
  app.state.learn_playing = true;
  learn_tick(app, 0);
  REQUIRE(worker.starts.size() == 2);
  CHECK(worker.starts[1].first != gen);
  CHECK(worker.trainer.steps_done() == 11);
  CHECK(worker.allowed == 5);
  // A new setting restarts here and ends the generation too.
  app.state.learn_settings.model.d_k = 8;
  learn_tick(app, 0);
  CHECK(worker.stops == 2);
  CHECK(app.learn.trainer.steps_done() == 0);
}

TEST_CASE("a worker that fails hands training back to the frame, which says why", "[learn][worker]") {
  App app;
  FakeWorker worker;
  worker.attach(app);
  app.state.panels.learn = true;
  app.state.learn_settings = train::default_settings(train::TaskKind::Copy);
  app.state.learn_settings.model.layers = 1;
  app.state.learn_playing = true;
  app.state.learn_speed = 2;
  learn_tick(app, 0);
  const uint64_t gen = worker.starts.at(0).first;
  REQUIRE(learn_adopt(app, worker.train(2), gen) == "");
  // A snapshot that does not fit is refused, and the worker is given up.
  CHECK_FALSE(learn_adopt(app, "garbage", gen).empty());
  CHECK_FALSE(app.learn.worker.available());
  CHECK_FALSE(app.learn.in_page_reason.empty());
  CHECK(worker.stops == 1);
  CHECK(app.learn.trainer.steps_done() == 2);  // the last adopted state stays
  CHECK(learn_tick(app, 0) == 2);              // and trains in the frame from there
  CHECK(app.learn.trainer.steps_done() == 4);
  learn_worker_failed(app, "the script did not load");
  CHECK(learn_result_json(app)["in_page_reason"] == "the script did not load");
  CHECK(learn_result_json(app)["worker"] == false);
}

TEST_CASE("a Learn run is kept as bytes, resumed at its step, and forgotten after a reset", "[learn]") {
  App app;
  app.state.panels.learn = true;
  app.state.learn_settings = train::default_settings(train::TaskKind::Copy);
  app.state.learn_settings.model.layers = 1;
  std::string bytes;
  CHECK(learn_snapshot(app, bytes) == KeptRun::Unchanged);  // nothing trained yet: nothing to keep
  for (int i = 0; i < 5; ++i) learn_step(app);
  REQUIRE(learn_snapshot(app, bytes) == KeptRun::Save);
  CHECK_FALSE(bytes.empty());
  std::string again_bytes;
  CHECK(learn_snapshot(app, again_bytes) == KeptRun::Unchanged);  // no step since: no new write

  App reloaded;  // the page after a reload: the same settings from its state, the kept bytes from storage
  reloaded.state.panels.learn = true;
  reloaded.state.learn_settings = app.state.learn_settings;
  REQUIRE(learn_resume(reloaded, bytes) == "");
  CHECK(reloaded.learn.trainer.steps_done() == 5);
  CHECK(reloaded.learn.trainer.curve(0).back().loss == app.learn.trainer.curve(0).back().loss);
  CHECK_THAT(reloaded.status, Catch::Contains("5"));
  reloaded.tick();  // the next frame keeps the resumed run (same settings: no restart)
  CHECK(reloaded.learn.trainer.steps_done() == 5);
  learn_step(reloaded);
  learn_step(app);
  CHECK(reloaded.learn.trainer.curve(0).back().loss == app.learn.trainer.curve(0).back().loss);  // goes on the same

  App other;  // a page whose state names other settings refuses the kept run and keeps its own
  other.state.learn_settings = app.state.learn_settings;
  other.state.learn_settings.model.d_k = 8;
  CHECK_THAT(learn_resume(other, bytes), Catch::Contains("other settings"));
  CHECK(other.learn.trainer.steps_done() == 0);
  CHECK_FALSE(learn_resume(other, "not a trainer").empty());
  CHECK_FALSE(learn_resume(other, bytes.substr(0, bytes.size() / 2)).empty());

  learn_reset(app);
  CHECK(learn_snapshot(app, bytes) == KeptRun::Forget);  // a reload after Reset must not bring the old run back
  CHECK(learn_snapshot(app, bytes) == KeptRun::Unchanged);
}

TEST_CASE("Learn mode says in words when each model reached 90 %, and why a run stopped, in each language", "[learn]") {
  train::TrainSettings s = train::default_settings(train::TaskKind::Copy);
  s.model.seq_len = 8;
  s.model.vocab = 8;
  s.model.d_model = 16;
  s.model.d_k = 8;
  s.model.d_v = 8;
  s.batch = 8;
  s.steps = 150;
  s.optim.learning_rate = 0.01;
  train::Trainer t;
  REQUIRE(t.reset(s) == "");
  CHECK(learn_outcome(Lang::En, t).empty());  // nothing to say before the first step
  t.step(40);
  CHECK_THAT(learn_outcome(Lang::En, t), Catch::StartsWith("So far, at step 40: "));
  t.step(110);
  const long a = train::steps_to_accuracy(t.curve(0), 0.9, train::kAccuracyWindow);
  const long b = train::steps_to_accuracy(t.curve(1), 0.9, train::kAccuracyWindow);
  REQUIRE(a > 0);  // the scaled copy model learns this task within 150 steps
  const std::string en = learn_outcome(Lang::En, t), hi = learn_outcome(Lang::HiLatn, t);
  INFO(en << "\n" << hi);
  CHECK_THAT(en, Catch::StartsWith("After 150 steps: "));
  CHECK_THAT(en, Catch::Contains("(÷√d_k) reached 90 % accuracy at step " + std::to_string(a)));
  if (b > 0)
    CHECK_THAT(en, Catch::Contains("B (no scaling) at step " + std::to_string(b)));
  else
    CHECK_THAT(en, Catch::Contains("B (no scaling) has not"));
  CHECK_THAT(hi, Catch::StartsWith("150 steps ke baad: "));
  CHECK_THAT(hi, Catch::Contains("step " + std::to_string(a) + " pe 90 % accuracy tak pahuncha"));

  // A weight made infinite stops the run; the reason is worded from the catalog in each language.
  t.restart();
  t.step(2);
  t.parameters(1)[t.model(1).tensor("unembed")->offset] = std::numeric_limits<float>::infinity();
  t.step(1);
  REQUIRE(t.stopped());
  CHECK_THAT(learn_stop_text(Lang::En, t), Catch::StartsWith("Training stopped at step 3: model B (no scaling)"));
  CHECK_THAT(learn_stop_text(Lang::HiLatn, t),
             Catch::StartsWith("Training step 3 pe ruk gayi: model B (scaling nahi)"));
}
