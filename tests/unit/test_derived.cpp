// test_derived.cpp — App's derived results follow the state they come from, for every value of it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>

#include "app/app.h"
#include "core/attention/montecarlo.h"

TEST_CASE("the measured spread curve follows the seed, 2^64 - 1 included", "[app][derived]") {
  attn::App app;
  const uint64_t top = std::numeric_limits<uint64_t>::max();
  for (uint64_t seed : {top, uint64_t{0}, top, uint64_t{5}, top}) {
    INFO("seed " << seed);
    app.state.seed = seed;
    app.update();
    // An independent measurement with the documented recipe: the curve's own seed is the state's + 7.
    const auto expected = attn::variance_experiment(attn::sweep_dks(), 4000, seed + 7, 21);
    REQUIRE(app.result.std_curve.size() == expected.size());
    for (size_t k = 0; k < expected.size(); ++k) {
      CHECK(app.result.std_curve[k].var_unscaled == expected[k].var_unscaled);
      CHECK(app.result.std_curve[k].var_scaled == expected[k].var_scaled);
    }
  }
}

TEST_CASE("within a frame's budget the variance Monte Carlo is spread over frames and ends with the same numbers",
          "[app][derived]") {
  attn::App app;
  app.state.seed = 987654321;  // a seed no other test measures: nothing is kept from before
  app.recompute_within(0.01);
  // One short frame cannot have drawn the whole curve (about 35 million normals).
  CHECK(app.result.variance_pending);
  CHECK(app.result.std_curve.size() < attn::sweep_dks().size());
  int frames = 1;
  size_t seen = app.result.std_curve.size();
  while (app.result.variance_pending && frames < 100000) {
    app.recompute_within(0.01);
    CHECK(app.result.std_curve.size() >= seen);  // the curve only grows while it is drawn
    seen = app.result.std_curve.size();
    ++frames;
  }
  REQUIRE_FALSE(app.result.variance_pending);
  CHECK(frames > 10);
  const auto expected = attn::variance_experiment(attn::sweep_dks(), 4000, app.state.seed + 7, 21);
  REQUIRE(app.result.std_curve.size() == expected.size());
  for (size_t k = 0; k < expected.size(); ++k) {
    CHECK(app.result.std_curve[k].var_unscaled == expected[k].var_unscaled);
    CHECK(app.result.std_curve[k].hist_unscaled.counts == expected[k].hist_unscaled.counts);
  }
  const int dk = static_cast<int>(app.result.core.d_k);
  const int samples = std::clamp(8000000 / std::max(dk, 1), 4000, 20000);
  const auto row = attn::variance_experiment({dk}, samples, app.state.seed, 41).front();
  CHECK(app.result.variance.d_k == dk);
  CHECK(app.result.variance.var_unscaled == row.var_unscaled);
}

TEST_CASE("an interactive App starts without drawing the Monte Carlo, and draws it a slice per frame afterwards",
          "[app][derived]") {
  attn::App app(10);
  CHECK(app.result.core.d_k > 0);  // the attention itself is there at once
  CHECK(app.result.variance_pending);
  CHECK(app.result.variance.samples == 0);
  app.update();  // a recomputation asked for at once (a lesson, a link) leaves the Monte Carlo to the frames
  CHECK(app.result.variance_pending);
  for (int frame = 0; frame < 100000 && app.result.variance_pending; ++frame) app.tick();
  CHECK_FALSE(app.result.variance_pending);
  CHECK(app.result.variance.samples > 0);
  CHECK(app.result.std_curve.size() == attn::sweep_dks().size());
  attn::App at_once;  // tests and the CLI: everything at once
  CHECK_FALSE(at_once.result.variance_pending);
  CHECK(at_once.result.variance.samples > 0);
}

TEST_CASE("while a control is held the Monte Carlo waits, and goes on when it is released", "[app][derived]") {
  attn::App app(10);
  app.state.seed = 24681357;  // measured by no other test
  app.control_held = true;
  for (int frame = 0; frame < 50; ++frame) app.recompute_within(10);
  CHECK(app.result.variance_pending);
  CHECK(app.result.std_curve.empty());
  app.control_held = false;
  for (int frame = 0; frame < 100000 && app.result.variance_pending; ++frame) app.recompute_within(10);
  CHECK_FALSE(app.result.variance_pending);
  CHECK(app.result.std_curve.size() == attn::sweep_dks().size());
}

TEST_CASE("an interactive App draws the d_k sweep's band over frames and ends with the band drawn at once",
          "[app][derived]") {
  attn::App app(10);
  app.state.seed = 1357913;  // measured by no other test: no projections kept from before
  app.update();
  REQUIRE(app.result.sweep.available);
  CHECK(app.result.sweep.band_pending);  // one frame draws a slice of the 16 projections, not all
  CHECK(app.result.sweep.draws == 0);
  CHECK_FALSE(app.result.sweep.entropy[1].empty());  // the state's own curve is there at once
  app.control_held = true;                           // a held control keeps its frames
  for (int frame = 0; frame < 20; ++frame) app.recompute_within(0.01);
  CHECK(app.result.sweep.band_pending);
  app.control_held = false;
  int frames = 0;
  while (app.result.sweep.band_pending && frames < 1000) {
    app.recompute_within(0.01);
    ++frames;
  }
  REQUIRE_FALSE(app.result.sweep.band_pending);
  CHECK(frames > 1);
  const attn::DkSweep got = app.result.sweep;
  attn::State other = app.state;
  other.seed = 2468;
  (void)attn::compute_sweep(other, 0);  // another seed's projections replace the kept ones
  const attn::DkSweep expected = attn::compute_sweep(app.state, app.state.selected_row);
  REQUIRE(expected.draws == got.draws);
  for (int m = 0; m < 3; ++m)
    for (int k = 0; k < 2; ++k) {
      CHECK(got.band[m][k].mean == expected.band[m][k].mean);
      CHECK(got.band[m][k].hi == expected.band[m][k].hi);
    }
}

TEST_CASE("asking for the result finishes a band still being drawn: a script never reads half a sweep",
          "[app][derived]") {
  attn::App app(10);
  app.state.seed = 97531;  // measured by no other test
  app.update();
  REQUIRE(app.result.sweep.band_pending);
  app.finish_sweep();
  REQUIRE_FALSE(app.result.sweep.band_pending);
  const attn::DkSweep expected = attn::compute_sweep(app.state, app.state.selected_row);
  REQUIRE(expected.draws > 0);
  CHECK(app.result.sweep.draws == expected.draws);
  for (int m = 0; m < 3; ++m)
    for (int k = 0; k < 2; ++k) CHECK(app.result.sweep.band[m][k].lo == expected.band[m][k].lo);
  app.recompute_within(10);  // the frames that follow leave the finished band as it is
  CHECK_FALSE(app.result.sweep.band_pending);
  CHECK(app.result.sweep.draws == expected.draws);
}

TEST_CASE("while the first view is drawn the Monte Carlo and the band wait, then go on", "[app][derived]") {
  attn::App app(10);
  app.state.seed = 86420;  // measured by no other test
  app.update();
  app.first_view_drawing = true;
  for (int frame = 0; frame < 50; ++frame) app.recompute_within(10);
  CHECK(app.result.core.d_k > 0);  // the attention itself is on the first view
  CHECK(app.result.variance_pending);
  CHECK(app.result.variance.samples == 0);
  CHECK(app.result.std_curve.empty());
  CHECK(app.result.sweep.band_pending);
  app.first_view_drawing = false;
  for (int frame = 0; frame < 100000 && (app.result.variance_pending || app.result.sweep.band_pending); ++frame)
    app.recompute_within(10);
  CHECK_FALSE(app.result.variance_pending);
  CHECK(app.result.variance.samples > 0);
  CHECK_FALSE(app.result.sweep.band_pending);
}
