// test_cross.cpp — the encoder–decoder example: the note's additive scores and weights at "am",
// ≈ 0.85 on "étudiant" at "student", the three score functions against direct formulas, the heads
// trade-off table, and the cross state through the state JSON.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "app/app.h"
#include "app/app_exchange.h"
#include "app/exchange/share.h"
#include "app/state/presets.h"
#include "app/state/state_json.h"

using Catch::Matchers::Contains;

namespace {
int argmax_row(const attn::Mat& W, int i) {
  Eigen::Index j = 0;
  W.row(i).maxCoeff(&j);
  return static_cast<int>(j);
}
}  // namespace

TEST_CASE("cross example reproduces the note's Bahdanau step", "[cross]") {
  const attn::CrossResult c = attn::compute_cross(attn::CrossState{}, 1);
  for (int k = 0; k < attn::kCrossScorings; ++k) REQUIRE(c.error[static_cast<size_t>(k)].empty());
  const attn::HeadResult& add = c.scored[0].main;
  REQUIRE(add.scores.rows() == 4);
  REQUIRE(add.scores.cols() == 3);
  // Every row's additive scores are the targets (float states: agreement to ~1e-6).
  for (int t = 0; t < 4; ++t)
    for (int j = 0; j < 3; ++j) CHECK(add.scores(t, j) == Approx(attn::kCrossNoteScores[t][j]).margin(1e-5));
  // t = 2 ("am"): exp(0.3) + exp(2.1) + exp(0.5) = 11.165; α = [0.1209, 0.7314, 0.1477].
  const double z = std::exp(0.3) + std::exp(2.1) + std::exp(0.5);
  CHECK(z == Approx(11.165).margin(5e-4));
  CHECK(add.weights(1, 0) == Approx(std::exp(0.3) / z).margin(1e-5));
  CHECK(add.weights(1, 1) == Approx(std::exp(2.1) / z).margin(1e-5));
  CHECK(add.weights(1, 1) == Approx(0.7314).margin(1e-4));
  CHECK(add.weights(1, 2) == Approx(0.1477).margin(1e-4));
  // Context c₂ = Σ α_j h_j, with one-hot h_j: the weights themselves.
  for (int j = 0; j < 3; ++j) CHECK(c.scored[0].output(1, j) == Approx(add.weights(1, j)).margin(1e-6));
  // t = 4 ("student"): the note's α₄₃ ≈ 0.85.
  CHECK(add.weights(3, 2) == Approx(0.85).margin(0.01));
  // On the note's states the three score functions pick the same word at every step.
  for (int t = 0; t < 4; ++t) {
    CHECK(argmax_row(c.scored[1].main.weights, t) == argmax_row(add.weights, t));
    CHECK(argmax_row(c.scored[2].main.weights, t) == argmax_row(add.weights, t));
  }
}

TEST_CASE("cross scorings match their formulas on the same states", "[cross]") {
  for (attn::CrossStates kind : {attn::CrossStates::NoteExample, attn::CrossStates::Seeded}) {
    attn::CrossState cs;
    cs.states = kind;
    const attn::CrossResult c = attn::compute_cross(cs, 7);
    const attn::Mat& S = c.decoder;
    const attn::Mat& H = c.encoder;
    const double d = static_cast<double>(S.cols());
    for (int t = 0; t < S.rows(); ++t)
      for (int j = 0; j < H.rows(); ++j) {
        // scaled dot: s·h / √d (keys of width d)
        const double dot = static_cast<double>(S.row(t).dot(H.row(j)));
        CHECK(c.scored[2].main.logits(t, j) == Approx(dot / std::sqrt(d)).margin(1e-5));
        CHECK(c.scored[2].main.scores(t, j) == Approx(dot).margin(1e-5));
      }
    // Rows are distributions, and the seeded states differ from the note's.
    for (int k = 0; k < attn::kCrossScorings; ++k)
      for (int t = 0; t < S.rows(); ++t)
        CHECK(c.scored[static_cast<size_t>(k)].main.weights.row(t).sum() == Approx(1.0).margin(1e-5));
    if (kind == attn::CrossStates::Seeded) CHECK(S.cols() == 4);
  }
}

TEST_CASE("cross state: JSON round trip, strict values, in getResult", "[cross]") {
  attn::App app;
  REQUIRE(attn::apply_preset(app.state, "bahdanau"));
  CHECK(app.state.panels.cross);
  REQUIRE(attn::apply_state_text(app.state, R"({"cross": {"states": "seeded", "step": 3}})").empty());
  CHECK(app.state.cross.states == attn::CrossStates::Seeded);
  CHECK(app.state.cross.step == 3);
  const nlohmann::json j = attn::state_to_json(app.state);
  CHECK(j["cross"]["states"] == "seeded");
  CHECK(j["cross"]["step"] == 3);
  attn::State back;
  CHECK(attn::apply_state_text(back, j.dump()) == "");
  CHECK(back.cross.step == 3);
  CHECK(back.cross.states == attn::CrossStates::Seeded);
  // Out of range, wrong type, unknown keys: errors, nothing applied.
  CHECK_THAT(attn::apply_state_text(app.state, R"({"cross": {"step": 4}})"), Contains("cross.step"));
  CHECK_THAT(attn::apply_state_text(app.state, R"({"cross": {"states": "<img src=x>"}})"), Contains("cross.states"));
  CHECK_THAT(attn::apply_state_text(app.state, R"({"cross": {"sstep": 1}})"), Contains("unknown cross key"));
  CHECK_THAT(attn::apply_state_text(app.state, R"({"cross": [1]})"), Contains("cross must be an object"));
  CHECK(app.state.cross.step == 3);
  REQUIRE(attn::apply_state_text(app.state, R"({"cross": {"states": "note", "step": 1}})").empty());
  app.update();
  const nlohmann::json r = attn::app_result_json(app);
  CHECK(r["cross"]["step"] == 1);
  CHECK(r["cross"]["target"][1] == "am");
  CHECK(r["cross"]["additive"]["weights"][1][1].get<double>() == Approx(0.7314).margin(1e-4));
}

TEST_CASE("heads trade-off: every h dividing d_k and d_v, per-head width d_k / h", "[cross][heads]") {
  attn::App app;
  REQUIRE(attn::apply_state_text(app.state, R"({"preset": "default", "panels": {"heads": true}})").empty());
  app.update();
  const auto& opts = app.result.heads_options;
  REQUIRE(opts.size() == 4);  // d_k = 64, d_v = 8: h = 1, 2, 4, 8
  for (const attn::HeadsOption& o : opts) {
    CHECK(o.d_head * o.heads == app.state.d_k);
    CHECK(o.min_head_entropy <= o.mean_entropy + 1e-5f);
    CHECK(o.mean_entropy <= o.max_head_entropy + 1e-5f);
    CHECK(o.mean_entropy >= 0);
    CHECK(o.mean_entropy <= std::log(6.0f) + 1e-5f);  // 6 keys
  }
  // One head: its entropy is the main result's.
  CHECK(opts[0].mean_entropy == Approx(app.result.core.main.entropy.mean()).margin(1e-5));
  // Closing the panel drops the table (it costs one computation per option).
  app.state.panels.heads = false;
  app.update();
  CHECK(app.result.heads_options.empty());
}

TEST_CASE("getState of every preset is accepted by setState and reproduces it", "[cross][state]") {
  for (const attn::Preset& p : attn::presets()) {
    INFO("preset " << p.id);
    attn::State s;
    REQUIRE(attn::apply_preset(s, p.id));
    const nlohmann::json j = attn::state_to_json(s);
    attn::State back;
    CHECK(attn::apply_state_text(back, j.dump()) == "");
    const nlohmann::json got = attn::state_to_json(back);
    for (auto it = j.begin(); it != j.end(); ++it) {
      INFO("key " << it.key());
      CHECK(got[it.key()] == it.value());
    }
  }
}

TEST_CASE("a scenario of one's own clears the preset (the explanation follows it)", "[state]") {
  attn::State s;
  REQUIRE(attn::apply_preset(s, "default"));
  REQUIRE(attn::apply_state_text(s, R"({"scenario": {"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]]}})") == "");
  CHECK(s.preset.empty());
  CHECK(s.mode == attn::InputMode::Explicit);
  // With a preset named in the same object, the preset stays (getState() output reads back as it was).
  REQUIRE(attn::apply_state_text(s, R"({"preset": "bahdanau", "scenario": {"Q": [[1]], "K": [[1]], "V": [[1]]}})") ==
          "");
  CHECK(s.preset == "bahdanau");
}

TEST_CASE("heatmap_scale: absolute or row, kept by presets, strict", "[state]") {
  attn::State s;
  REQUIRE(attn::apply_preset(s, "default"));
  CHECK(attn::state_to_json(s)["heatmap_scale"] == "absolute");
  REQUIRE(attn::apply_state_text(s, R"({"heatmap_scale": "row"})") == "");
  CHECK(s.heatmap_row_scale);
  REQUIRE(attn::apply_state_text(s, R"({"preset": "saturation"})") == "");
  CHECK(s.heatmap_row_scale);  // a display setting, like the theme
  CHECK(attn::apply_state_text(s, R"({"heatmap_scale": "log"})").find("heatmap_scale") != std::string::npos);
  CHECK(s.heatmap_row_scale);
}
