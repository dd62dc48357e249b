// test_learn_app.cpp — Learn mode in the app: play runs steps each frame, a new d_k restarts both models,
// a bad setting is refused and the running models go on, the setup round-trips through the state.
#include <catch2/catch.hpp>

#include "app/app.h"
#include "app/state_json.h"

using namespace attn;

TEST_CASE("Learn mode trains in frame slices and restarts on a new width", "[learn]") {
  App app;
  app.state.panels.learn = true;
  app.state.learn_settings = train::default_settings(train::TaskKind::Copy);
  app.state.learn_settings.model.layers = 1;
  app.state.learn_playing = true;
  app.state.learn_speed = 3;
  app.update_frame();
  app.update_frame();
  CHECK(app.learn.trainer.steps_done() == 6);  // speed 3 × 2 frames, no time budget in tests
  const double loss_a = app.learn.trainer.curve(0).back().loss;
  CHECK(std::isfinite(loss_a));

  // The same setup from scratch gives the same curve, bit for bit.
  App again;
  again.state.panels.learn = true;
  again.state.learn_settings = app.state.learn_settings;
  again.state.learn_playing = true;
  again.state.learn_speed = 6;
  again.update_frame();
  REQUIRE(again.learn.trainer.steps_done() == 6);
  CHECK(again.learn.trainer.curve(0).back().loss == loss_a);

  app.state.learn_settings.model.d_k = 8;  // the d_k slider: both restart at the new width
  app.state.learn_playing = false;
  app.update_frame();
  CHECK(app.learn.trainer.steps_done() == 0);
  CHECK(app.learn.trainer.settings().model.d_k == 8);

  app.state.learn_playing = true;
  app.update_frame();
  const long steps = app.learn.trainer.steps_done();
  app.state.learn_settings.batch = 0;  // bad: refused, the running models go on untouched
  app.update_frame();
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
  app.update_frame();
  REQUIRE(open_head_in_playground(app, 0, 0, 1) == "");
  CHECK(app.state.mode == InputMode::Explicit);
  CHECK(app.result.error.empty());
  const auto& w = app.result.core.main.weights;
  REQUIRE(w.rows() == app.state.learn_settings.model.seq_len);
  CHECK(w.row(0).sum() == Approx(1.0f).margin(1e-4));
  CHECK_FALSE(open_head_in_playground(app, 0, 5, 0).empty());  // no such layer
}
