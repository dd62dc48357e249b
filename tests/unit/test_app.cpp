// test_app.cpp — the app layer: presets reproduce the notes' numbers, state JSON is strict, and the
// cheap "scaling toggled" result equals a full recompute.
#include <catch2/catch.hpp>
#include <cmath>

#include "app/app.h"
#include "app/state/presets.h"
#include "app/state/state_json.h"
#include "core/attention/attention.h"

using namespace attn;

TEST_CASE("every preset computes without error or NaN", "[app]") {
  for (const Preset& p : presets()) {
    State s;
    REQUIRE(apply_preset(s, p.id));
    Result r;
    INFO(p.id);
    REQUIRE(compute(build_scenario(s), r).empty());
    REQUIRE(r.output.allFinite());
    for (int i = 0; i < r.main.weights.rows(); ++i) REQUIRE(r.main.weights.row(i).sum() == Approx(1.0f).margin(1e-5));
  }
}

TEST_CASE("presets hold the corrected numbers of the notes", "[app]") {
  auto run = [](const char* id) {
    State s;
    apply_preset(s, id);
    Result r;
    REQUIRE(compute(build_scenario(s), r).empty());
    return r;
  };
  // Independent expectations from exp(); tolerance 1e-5 covers float32 rounding of 3-digit inputs.
  const double e = std::exp(1.0);
  Result a = run("sdpa-example-1");
  CHECK(a.output(0, 0) == Approx(5 * e / (e + 1)).margin(1e-5));
  CHECK(a.output(0, 1) == Approx(3 / (e + 1)).margin(1e-5));
  Result b = run("bahdanau");  // additive scores built to equal the note's 0.3, 2.1, 0.5
  const double z = std::exp(0.3) + std::exp(2.1) + std::exp(0.5);
  CHECK(b.main.weights(0, 1) == Approx(std::exp(2.1) / z).margin(1e-5));
  CHECK(b.main.scores(0, 1) == Approx(2.1).margin(1e-5));
  Result c = run("cat-sat-mat");
  CHECK(c.main.scores(1, 0) == Approx(0.28).margin(1e-6));  // the article printed 0.29
  CHECK(c.main.scores(2, 3) == Approx(0.28).margin(1e-6));  // the article printed 0.29
  Result d = run("softmax-article");
  const double zz = std::exp(0.3) + std::exp(0.2) + std::exp(0.5);
  CHECK(d.main.weights(0, 0) == Approx(std::exp(0.3) / zz).margin(1e-5));  // not 0.3 as the article says
  Result sat = run("saturation");
  CHECK(sat.main.max_weight.maxCoeff() > 0.95f);
}

TEST_CASE("flip_scaling equals recomputing with the scale toggled", "[app]") {
  for (const char* id : {"default", "self-attn-example-1", "saturation"}) {
    for (bool scale : {true, false}) {
      State s;
      apply_preset(s, id);
      s.scale = scale;
      const Scenario sc = build_scenario(s);
      Result r, fast, slow;
      REQUIRE(compute(sc, r).empty());
      REQUIRE(flip_scaling(r, sc, fast));
      Scenario other = sc;
      other.scale = !scale;
      REQUIRE(compute(other, slow).empty());
      INFO(id << " scale " << scale);
      // Relative 1e-4: the fast path multiplies rounded logits by √d_k instead of rescaling exact scores.
      REQUIRE(fast.main.weights.isApprox(slow.main.weights, 1e-4f));
      REQUIRE(fast.main.entropy.isApprox(slow.main.entropy, 1e-3f));
    }
  }
}

TEST_CASE("setState is all-or-nothing and names the problem", "[app]") {
  State s;
  apply_preset(s, "default");
  const nlohmann::json before = state_to_json(s);
  for (const char* bad : {R"({"d_k": 0})", R"({"d_k": 5000})", R"({"temperature": -1})", R"({"scale": "yes"})",
                          R"({"selected_row": 6})", R"({"nope": 1})", R"({"d_k": 8, "mask": "sideways"})", R"([1,2])",
                          R"({"sentence": ""})", "{", R"({"preset": "missing"})"}) {
    INFO(bad);
    const std::string err = apply_state_text(s, bad);
    CHECK_FALSE(err.empty());
    CHECK(state_to_json(s) == before);
  }
  CHECK(apply_state_text(s, R"({"temperature": -1})").find("between 0 and 1e+06") != std::string::npos);
  REQUIRE(apply_state_text(s, R"({"d_k": 256, "scale": false, "selected_row": 5})").empty());
  CHECK(s.d_k == 256);
  CHECK_FALSE(s.scale);
  CHECK(s.selected_row == 5);
}

TEST_CASE("the same word gets the same embedding; edits survive unrelated sentence changes", "[app]") {
  State s;
  apply_preset(s, "default");  // "The cat sat on the mat"
  s.embeddings(1, 0) = 42.0f;  // edit "cat"
  REQUIRE(apply_state_text(s, R"({"sentence": "The cat sat on the rug"})").empty());
  CHECK(s.embeddings(1, 0) == 42.0f);  // position and word unchanged: edit kept
  CHECK(s.embeddings.row(0).isApprox(random_embedding(s.seed, "The", 0, s.d_model).transpose()));
}

TEST_CASE("an edit of any state key moves the change stamp, even one no computation reads", "[app]") {
  // What a host page's change event and the address bar follow: each of these edits alone must register.
  const char* edits[] = {
      R"({"exercise": "exercise-17"})",
      R"({"learn": {"settings": {"seed": 9}}})",
      R"({"learn": {"speed": 7}})",
      R"({"learn": {"playing": true}})",
      R"({"projections": "identity"})",
      R"({"cross": {"step": 2}})",
      R"({"key_padding": [false, true, false, false, false, false]})",
      R"({"plane_x": 2})",
      R"({"heatmap_scale": "row"})",
      R"({"numerics_multiplier": 40})",
      R"({"panels": {"learn": true}})",
      R"({"lang": "hi-Latn"})",
      R"({"mask_cells": [[0,1,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0]]})",
  };
  for (const char* edit : edits) {
    INFO(edit);
    App app;
    const uint64_t before = app.state_stamp();
    REQUIRE(apply_state_text(app.state, edit) == "");
    CHECK(app.state_stamp() != before);
  }
  App app;
  const uint64_t same = app.state_stamp();
  REQUIRE(apply_state_json(app.state, state_to_json(app.state)) == "");  // setState(getState()) changes nothing
  CHECK(app.state_stamp() == same);
}

TEST_CASE("the change stamp moves whenever getState's scenario changes, random or explicit", "[app]") {
  // Edits one after another; after each, a scenario that reads differently must give a different stamp.
  App app;
  nlohmann::json scenario = state_to_json(app.state)["scenario"];
  uint64_t stamp = app.state_stamp();
  const auto edit = [&](const std::string& text) {
    INFO(text);
    REQUIRE(apply_state_text(app.state, text) == "");
    const nlohmann::json now = state_to_json(app.state)["scenario"];
    if (now != scenario) CHECK(app.state_stamp() != stamp);
    scenario = now;
    stamp = app.state_stamp();
  };
  for (const char* text : {R"({"d_k": 12})", R"({"seed": 77})", R"({"heads": 2})", R"({"d_v": 6})",
                           R"({"positional_encoding": "sinusoidal"})", R"({"sentence": "a b c"})",
                           R"({"projections": "identity"})", R"({"mask": "causal"})", R"({"preset": "cat-sat-mat"})"})
    edit(text);
  REQUIRE(app.state.mode == InputMode::Explicit);
  // One number of the explicit example, then back: the only key that holds it is the scenario itself.
  nlohmann::json changed = scenario;
  REQUIRE(changed.contains("X"));
  changed["X"][0][0] = changed["X"][0][0].get<double>() + 0.5;
  const nlohmann::json original = scenario;
  edit(nlohmann::json{{"scenario", changed}}.dump());
  CHECK(scenario != original);
  edit(nlohmann::json{{"scenario", original}}.dump());
  CHECK(scenario == original);
}

TEST_CASE("a preset replaces the example and keeps the learner's language, panels, lesson, worksheet and run",
          "[app]") {
  App app;
  REQUIRE(apply_state_text(app.state, R"({"lang": "hi-Latn", "theme": "light", "panels": {"worksheet": true},
    "exercise": "exercise-17", "learn": {"settings": {"seed": 9}, "speed": 7}, "lesson": {"id": "softmax", "step": 2},
    "d_k": 300, "temperature": 2})") == "");
  const State before = app.state;
  REQUIRE(apply_state_text(app.state, R"({"preset": "saturation"})") == "");
  const State& s = app.state;
  CHECK(s.lang == before.lang);
  CHECK_FALSE(s.dark_theme);
  CHECK(s.panels == before.panels);
  CHECK(s.exercise == "exercise-17");
  CHECK(s.learn_settings.seed == 9);
  CHECK(s.learn_speed == 7);
  CHECK(s.lesson == before.lesson);
  CHECK(s.preset == "saturation");
  CHECK(s.temperature != 2);                 // the example's own settings replace the old ones
  CHECK(state_keys_without_copy().empty());  // every kept kind says how it is kept
}

TEST_CASE("the state schema lists every key getState writes, with its kind", "[app]") {
  const auto schema = state_schema();
  const auto state = state_to_json(App().state);
  for (auto it = state.begin(); it != state.end(); ++it) {
    INFO(it.key());
    REQUIRE(schema.contains(it.key()));
    CHECK(schema[it.key()].contains("kind"));
  }
  CHECK(schema.size() == state.size());
  CHECK(schema["d_k"]["maximum"] == kMaxDk);
  CHECK(schema["mask"]["enum"] == nlohmann::json::array({"none", "causal"}));
}
