// test_train_cost.cpp — what a Learn setting costs is known before it is trained: step_flops counts the training
// step's products as the benchmarks do, and the Learn panel (and its DOM twin) says when a setting is slow.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "app/a11y.h"
#include "app/app.h"
#include "app/base/strings.h"
#include "app/learn/learn_text.h"
#include "app/state/state_json.h"
#include "core/train/train_settings.h"

using namespace attn;

// The training benchmarks' reference (docs/performance.md, "Training speed"): L = 1, h = 4, d_model = 64,
// d_k = d_v = 16, n = 16, batch 32, vocabulary 16, two models of the same size.
static train::TrainSettings benchmark_reference() {
  train::TrainSettings s = train::default_settings(train::TaskKind::Induction);
  s.batch = 32;
  s.model.layers = 1;
  s.model.heads = s.b_heads = 4;
  s.model.d_model = 64;
  s.model.d_k = s.model.d_v = s.b_d_k = 16;
  s.model.seq_len = 16;
  s.model.vocab = 16;
  s.model.mlp = false;
  s.vary = train::Difference::Scale;
  return s;
}

TEST_CASE("a training step's flops are counted as the benchmarks count them", "[train][cost]") {
  const train::TrainSettings s = benchmark_reference();
  // 12 × (512·64·4·48 + 32·4·16²·32 + 512·4·16·64 + 512·64·16) = 119,537,664: the "119.5 MFLOP" the docs quote.
  CHECK(train::step_flops(s) == Approx(119537664.0));
  train::TrainSettings twice = s;
  twice.batch *= 2;
  CHECK(train::step_flops(twice) == Approx(2 * train::step_flops(s)));
  train::TrainSettings deeper = s;
  deeper.model.layers = 2;
  CHECK(train::step_flops(deeper) > 1.8 * train::step_flops(s));
  train::TrainSettings with_mlp = s;
  with_mlp.model.mlp = true;
  with_mlp.model.d_mlp = 1024;
  CHECK(train::step_flops(with_mlp) > train::step_flops(s));
}

TEST_CASE("the Learn panel says a setting is slow before it is trained, on the canvas and in its DOM twin",
          "[train][cost]") {
  for (Lang lang : languages()) {
    INFO(lang_code(lang));
    train::TrainSettings s = train::default_settings(train::TaskKind::Induction);
    bool slow = true;
    CHECK(learn_cost_text(lang, s, &slow).empty());  // the defaults cost nothing extra
    CHECK_FALSE(slow);
    // The heaviest settings the page accepts (a share link can carry them).
    s.model.layers = 2;
    s.model.heads = s.b_heads = 16;
    s.model.d_model = 256;
    s.model.d_k = s.model.d_v = s.b_d_k = 64;
    s.model.mlp = true;
    s.model.d_mlp = 1024;
    s.model.seq_len = 64;
    s.model.vocab = 64;
    REQUIRE(train::validate(s).empty());
    // docs/learn-mode.md quotes these two figures.
    CHECK(train::step_flops(s) * 1e-6 == Approx(84154.5).epsilon(1e-5));
    CHECK(train::step_flops(s) / train::step_flops(train::default_settings(train::TaskKind::Induction)) ==
          Approx(361.5).epsilon(1e-3));
    const std::string text = learn_cost_text(lang, s, &slow);
    CHECK(slow);
    CHECK(text.find("MFLOP") != std::string::npos);
    CHECK(text.find('{') == std::string::npos);
    // The parallel DOM's Learn status (said in the live region when it changes) carries the same words.
    App app;
    app.state.lang = lang;
    REQUIRE(apply_state_json(app.state, {{"panels", {{"learn", true}}}}) == "");
    app.tick();
    app.state.learn_settings = s;
    std::string status;
    const nlohmann::json d = a11y_description(app);  // kept: a loop over a temporary's member would dangle
    for (const nlohmann::json& panel : d["panels"])
      if (panel.value("key", "") == "learn") status = panel.value("status", "");
    INFO(status);
    CHECK(status.find(text) != std::string::npos);
  }
}
