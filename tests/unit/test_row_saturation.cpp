// test_row_saturation.cpp — one definition of a saturated row: at least two keys compete and the
// largest weight exceeds 0.95. A causal row with a single key is one-hot by construction, not saturated.
#include <catch2/catch.hpp>
#include <string>

#include "app/app.h"
#include "app/describe/summary.h"
#include "app/lesson/lesson.h"
#include "app/playground/saturation.h"
#include "app/state/presets.h"
#include "core/attention/attention.h"

using Catch::Matchers::Contains;

TEST_CASE("a causal row with one key is single_key, not saturated", "[saturation]") {
  attn::App app;
  app.state.mask = attn::MaskKind::Causal;
  app.state.selected_row = 0;
  app.update();
  const attn::HeadResult& h = app.result.core.main;
  REQUIRE(h.max_weight(0) == 1.0f);
  const attn::RowSaturation first = attn::row_saturation(h, 0);
  CHECK(first.live_keys == 1);
  CHECK(first.single_key);
  CHECK_FALSE(first.saturated);
  CHECK(attn::row_saturation(h, 3).live_keys == 4);
  // What the spoken summary says about the row agrees with the panels.
  const std::string text = attn::screen_summary(app);
  CHECK_THAT(text, !Contains("Saturated"));
  CHECK_THAT(text, Contains("One key left"));
}

TEST_CASE("saturated_rows counts rows with two or more live keys above 0.95, from the mask", "[saturation]") {
  attn::State s;
  REQUIRE(attn::apply_preset(s, "saturation"));  // unscaled d_k = 512: most rows nearly one-hot
  s.mask = attn::MaskKind::Causal;
  const attn::Scenario sc = attn::build_scenario(s);
  attn::Result r;
  REQUIRE(attn::compute(sc, r).empty());
  const attn::HeadResult& h = r.main;
  const int n = static_cast<int>(h.weights.rows());
  const attn::MaskMat blocked = attn::attention_mask(sc, n, n);
  int expected = 0, one_hot = 0;
  for (int i = 0; i < n; ++i) {
    const int keys = n - static_cast<int>(blocked.row(i).cast<int>().sum());
    one_hot += h.max_weight(i) > 0.95f;
    expected += keys >= 2 && h.max_weight(i) > 0.95f;
    CHECK(attn::row_saturation(h, i).live_keys == keys);
  }
  REQUIRE(expected > 0);
  CHECK(one_hot == expected + 1);  // row 0, whose only key is itself
  CHECK(attn::saturated_rows(h) == expected);
}

TEST_CASE("a row with every key masked has no keys and is not saturated", "[saturation]") {
  attn::State s;
  REQUIRE(attn::apply_preset(s, "default"));
  const int n = static_cast<int>(s.embeddings.rows());
  s.mask_cells = attn::MaskMat::Zero(n, n);
  s.mask_cells->row(2).setOnes();
  attn::Result r;
  REQUIRE(attn::compute(attn::build_scenario(s), r).empty());
  const attn::RowSaturation row = attn::row_saturation(r.main, 2);
  CHECK(row.no_keys);
  CHECK(row.live_keys == 0);
  CHECK_FALSE(row.single_key);
  CHECK_FALSE(row.saturated);
  CHECK(attn::row_saturation(r.main, n).live_keys == 0);  // outside the result: nothing
}

TEST_CASE("the heatmap's and the lessons' saturated-row count follows every recomputation, whole or spread",
          "[saturation][progressive]") {
  attn::App app;
  REQUIRE(attn::apply_preset(app.state, "saturation"));  // unscaled d_k = 512: most rows nearly one-hot
  app.update();
  const int unscaled = app.result.saturated_rows;
  REQUIRE(unscaled > 0);
  CHECK(unscaled == attn::saturated_rows(app.result.core.first_head()));
  CHECK(attn::live_values(app).at("saturated_rows") == unscaled);

  // The same at a length whose recomputation a frame's budget spreads over several frames.
  std::string sentence;
  for (int i = 0; i < 400; ++i) sentence += "w" + std::to_string(i) + " ";
  REQUIRE(attn::set_sentence(app.state, sentence));
  app.frame_budget_ms = 0.001;
  int frames = 0;
  do app.tick();
  while (app.result.pending >= 0 && ++frames < 100000);
  REQUIRE(app.result.core.first_head().weights.rows() == 400);
  const int long_unscaled = app.result.saturated_rows;
  CHECK(long_unscaled == attn::saturated_rows(app.result.core.first_head()));
  app.state.scale = true;  // scaled: the rows spread out again
  frames = 0;
  do app.tick();
  while ((app.result.pending >= 0 || app.result.core.first_head().weights.rows() != 400) && ++frames < 100000);
  CHECK(app.result.saturated_rows == attn::saturated_rows(app.result.core.first_head()));
  CHECK(app.result.saturated_rows < long_unscaled);
  CHECK(attn::live_values(app).at("saturated_rows") == app.result.saturated_rows);
}
