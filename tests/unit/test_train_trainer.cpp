// test_train_trainer.cpp — lockstep training: determinism, settings validation and JSON, NaN stop, probe, export.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/attention/attention.h"
#include "core/train/train_trainer.h"
#include "unit_helpers.h"

using unit::same_bits;
using namespace attn::train;

namespace {

// Small and quick: every test run stays in milliseconds.
TrainSettings quick(TaskKind task = TaskKind::Copy) {
  TrainSettings s = default_settings(task);
  s.model.seq_len = 8;
  s.model.vocab = 8;
  s.model.d_model = 16;
  s.model.heads = 2;
  s.model.d_k = 8;
  s.model.d_v = 8;
  s.batch = 8;
  s.steps = 200;
  return s;
}

}  // namespace

TEST_CASE("same seed and settings give bit-identical curves, however the steps are sliced", "[train][determinism]") {
  TrainSettings s = quick(TaskKind::Induction);
  s.model.layers = 2;
  Trainer a, b, c;
  REQUIRE(a.reset(s) == "");
  REQUIRE(b.reset(s) == "");
  CHECK(a.step(60) == 60);
  for (int i = 0; i < 20; ++i) CHECK(b.step(3) == 3);
  for (int w = 0; w < 2; ++w) {
    CHECK(same_bits(a.curve(w), b.curve(w)));
    CHECK(a.parameters(w) == b.parameters(w));
  }
  s.seed = 2;
  REQUIRE(c.reset(s) == "");
  c.step(60);
  CHECK_FALSE(same_bits(a.curve(0), c.curve(0)));
  // restart() replays the same run from step 0.
  a.restart();
  a.step(60);
  CHECK(same_bits(a.curve(1), b.curve(1)));
}

TEST_CASE("a trainer builds its models on first use, and that first use is the run an eager start gives",
          "[train][determinism]") {
  // The default trainer's models are built only when something needs them (the page's Learn mode is closed at
  // first): whichever call comes first, the run is the one restart() at step 0 gives.
  Trainer eager;
  eager.restart();
  const std::string at_zero = eager.save_state();
  Trainer by_save, by_model, by_step, by_load;
  CHECK(by_save.steps_done() == 0);
  CHECK(by_save.curve(0).empty());
  CHECK(by_save.save_state() == at_zero);
  CHECK(by_model.model(1).parameters() == eager.model(1).parameters());
  CHECK(by_step.step(3) == 3);
  CHECK(eager.step(3) == 3);
  for (int w = 0; w < 2; ++w) CHECK(same_bits(by_step.curve(w), eager.curve(w)));
  CHECK(by_step.save_state() == eager.save_state());
  REQUIRE(by_load.load_state(eager.save_state()) == "");  // a kept run adopted by a trainer never used
  CHECK(by_load.save_state() == eager.save_state());
}

TEST_CASE("A and B start from the same weights and see the same batches; only the chosen setting differs",
          "[train][pair]") {
  TrainSettings s = quick();
  Trainer t;
  REQUIRE(t.reset(s) == "");
  CHECK(t.parameters(0) == t.parameters(1));
  CHECK(t.model(0).settings().scale);
  CHECK_FALSE(t.model(1).settings().scale);
  CHECK(t.label(0) ==
        "\xc3\xb7\xe2\x88\x9a"
        "d_k");
  CHECK(t.label(1) == "no scaling");
  // With B set to A's own value the two models are the same model: identical curves.
  s.b_scale = true;
  REQUIRE(t.reset(s) == "");
  t.step(30);
  CHECK(same_bits(t.curve(0), t.curve(1)));
  // One difference at a time.
  s.vary = Difference::DK;
  s.b_d_k = 3;
  REQUIRE(t.reset(s) == "");
  CHECK(t.model(1).settings().d_k == 3);
  CHECK(t.model(1).settings().scale == t.model(0).settings().scale);
  CHECK(t.label(1) == "d_k = 3");
  s.vary = Difference::Heads;
  s.b_heads = 1;
  REQUIRE(t.reset(s) == "");
  CHECK(t.model(1).settings().heads == 1);
  s.vary = Difference::Init;
  s.b_init = InitKind::Small;
  REQUIRE(t.reset(s) == "");
  CHECK(t.model(1).settings().init == InitKind::Small);
  CHECK(t.init_text(1).find("small init") != std::string::npos);
}

TEST_CASE("the unit init gives q and k unit-variance entries, so unscaled logits have variance d_k", "[train][init]") {
  TrainSettings s = default_settings(TaskKind::Induction);
  s.model.d_k = 64;
  s.model.layers = 2;
  Trainer t;
  REQUIRE(t.reset(s) == "");
  CHECK(t.init_text(0).find("variance 1") != std::string::npos);
  Model<float> m(t.model(1).settings());
  m.parameters() = t.parameters(1);
  Batch batch;
  attn::Rng rng(3);
  generate_batch(s.task, s.model.vocab, s.model.seq_len, 32, rng, batch);
  Workspace<float> ws;
  m.forward(batch, ws, false);
  for (int l = 0; l < 2; ++l) {
    const auto& L = ws.layers[static_cast<size_t>(l)];
    const double var_q = L.Q.squaredNorm() / static_cast<double>(L.Q.size());
    const double var_k = L.K.squaredNorm() / static_cast<double>(L.K.size());
    INFO("layer " << l);
    CHECK(var_q == Approx(1.0).epsilon(0.1));
    CHECK(var_k == Approx(1.0).epsilon(0.1));
    // q·k of the same head for different positions: variance ≈ d_k.
    double sum2 = 0;
    long count = 0;
    for (int r = 0; r + 1 < L.Q.rows(); r += 2)
      for (int h = 0; h < s.model.heads; ++h) {
        const double qk = L.Q.row(r).segment(h * 64, 64).dot(L.K.row(r + 1).segment(h * 64, 64));
        sum2 += qk * qk;
        ++count;
      }
    CHECK(sum2 / static_cast<double>(count) == Approx(64.0).epsilon(0.2));
  }
  // The unscaled copy starts saturated: lower attention entropy, smaller softmax Jacobian.
  t.step(1);
  CHECK(t.curve(1)[0].entropy < 0.5 * t.curve(0)[0].entropy);
  CHECK(t.curve(1)[0].jacobian_norm < t.curve(0)[0].jacobian_norm);
}

TEST_CASE("a small copy model learns its task", "[train][learning]") {
  TrainSettings s = quick(TaskKind::Copy);
  s.optim.learning_rate = 0.01;
  Trainer t;
  REQUIRE(t.reset(s) == "");
  t.step(150);
  const long reached = steps_to_accuracy(t.curve(0), 0.9, 10);
  INFO("final accuracy " << t.curve(0).back().accuracy << ", loss " << t.curve(0).back().loss);
  CHECK(reached > 0);
  CHECK(t.curve(0).back().loss < 0.5 * t.curve(0).front().loss);
  CHECK(t.probe(0).accuracy > 0.8);
}

TEST_CASE("an induction model grows a previous-token head and an induction head", "[train][learning]") {
  TrainSettings s = default_settings(TaskKind::Induction);
  s.model.seq_len = 12;
  s.model.vocab = 12;
  s.model.d_model = 16;
  s.model.d_k = 8;
  s.model.d_v = 8;
  s.batch = 16;
  s.optim.learning_rate = 0.01;
  Trainer t;
  REQUIRE(t.reset(s) == "");
  CHECK_FALSE(find_induction_circuit(t.probe(0)).found);
  t.step(300);
  const ProbeView v = t.probe(0);
  const InductionCircuit c = find_induction_circuit(v);
  std::string heads;
  for (const HeadView& h : v.heads)
    heads += "layer " + std::to_string(h.layer) + " head " + std::to_string(h.head) + ": previous " +
             std::to_string(h.previous_token) + ", induction " + std::to_string(h.induction) + "; ";
  INFO(heads);
  CHECK(v.accuracy > 0.9);
  CHECK(c.found);
  CHECK(c.induction_score > 0.5);
  // The previous-token pattern lives in the first layer, not the second.
  for (const HeadView& h : v.heads)
    if (h.layer == 1) CHECK(h.previous_token < c.previous_token_score);
}

TEST_CASE("bad settings are refused with a reason and the running models stay untouched", "[train][validation]") {
  Trainer t;
  const TrainSettings good = quick();
  REQUIRE(t.reset(good) == "");
  t.step(5);
  const std::vector<float> params = t.parameters(0);
  const std::vector<StepRecord> curve = t.curve(0);

  struct Case {
    const char* phrase;
    void (*edit)(TrainSettings&);
  };
  const Case cases[] = {
      {"heads × d_k",
       [](TrainSettings& s) {
         s.model.heads = 16;
         s.model.d_k = 256;
       }},
      {"batch must be between 1", [](TrainSettings& s) { s.batch = 0; }},
      {"learning rate", [](TrainSettings& s) { s.optim.learning_rate = std::numeric_limits<double>::quiet_NaN(); }},
      {"learning rate", [](TrainSettings& s) { s.optim.learning_rate = -0.1; }},
      {"d_k must be between 1 and 256", [](TrainSettings& s) { s.model.d_k = 0; }},
      {"vocab must be between", [](TrainSettings& s) { s.model.vocab = 65; }},
      {"layers must be between 1 and 2", [](TrainSettings& s) { s.model.layers = 3; }},
      {"temperature", [](TrainSettings& s) { s.model.temperature = 0; }},
      {"clip", [](TrainSettings& s) { s.optim.clip = -1; }},
      {"causal mask", [](TrainSettings& s) { s.model.causal = false; }},
      {"model B: heads × d_k",
       [](TrainSettings& s) {
         s.vary = Difference::DK;
         s.model.heads = 8;
         s.b_d_k = 256;
       }},
      {"attention weights",
       [](TrainSettings& s) {
         s.batch = 256;
         s.model.seq_len = 64;
         s.model.vocab = 64;
         s.model.heads = 8;
       }},
  };
  for (const Case& c : cases) {
    TrainSettings bad = good;
    c.edit(bad);
    const std::string err = t.reset(bad);
    INFO(c.phrase << " -> " << err);
    CHECK(err.find(c.phrase) != std::string::npos);
  }
  CHECK(t.steps_done() == 5);
  CHECK(t.parameters(0) == params);
  CHECK(same_bits(t.curve(0), curve));
  // And it goes on exactly as an undisturbed run does.
  Trainer u;
  REQUIRE(u.reset(good) == "");
  u.step(5);
  t.step(10);
  u.step(10);
  CHECK(same_bits(t.curve(0), u.curve(0)));
}

TEST_CASE("a loss that stops being finite stops training with a message, not NaN curves", "[train][nan]") {
  Trainer t;
  REQUIRE(t.reset(quick()) == "");
  CHECK(t.step(3) == 3);
  const TensorInfo* w = t.model(1).tensor("unembed");
  REQUIRE(w != nullptr);
  t.parameters(1)[w->offset] = std::numeric_limits<float>::infinity();
  const std::vector<float> before = t.parameters(0);
  CHECK(t.step(10) == 0);
  CHECK(t.stopped());
  INFO(t.message());
  CHECK(t.message().find("step 4") != std::string::npos);
  CHECK(t.message().find("model B") != std::string::npos);
  CHECK((t.message().find("NaN") != std::string::npos || t.message().find("infinite") != std::string::npos));
  CHECK(t.curve(0).size() == 3);
  CHECK(t.curve(1).size() == 3);
  CHECK(t.parameters(0) == before);  // no half step for A either
  for (const StepRecord& r : t.curve(1)) CHECK(std::isfinite(r.loss));
  CHECK(t.step(5) == 0);
  t.restart();
  CHECK_FALSE(t.stopped());
  CHECK(t.step(2) == 2);
}

TEST_CASE("settings JSON round-trips and refuses what a link must not carry", "[train][json]") {
  TrainSettings s = quick(TaskKind::Lookup);
  s.seed = 123456789;
  s.vary = Difference::Temperature;
  s.b_temperature = 2.5;
  s.optim.kind = OptimizerKind::Sgd;
  s.model.mlp = true;
  s.model.positional = PositionalKind::Sinusoidal;
  const nlohmann::json j = settings_to_json(s);
  TrainSettings back;
  REQUIRE(settings_from_json(j, back) == "");
  CHECK(settings_to_json(back) == j);
  CHECK(parse_settings(j.dump(), back) == "");
  CHECK(settings_to_json(back) == j);
  // Absent keys: the task's defaults.
  REQUIRE(parse_settings(R"({"task": "copy", "d_k": 64})", back) == "");
  CHECK(back.model.d_k == 64);
  CHECK(back.model.layers == 1);
  CHECK(back.model.causal);

  const TrainSettings untouched = back;
  const char* bad[][2] = {
      {R"({"d_k": 300})", "d_k must be between 1 and 256"},
      {R"({"batch": 0})", "batch must be between 1"},
      {R"({"lr": -1})", "learning rate"},
      {R"({"lr": "fast"})", "lr must be a number"},
      {R"({"heads": 2.5})", "heads must be an integer"},
      {R"({"task": "translate"})", "task must be one of"},
      {R"({"temprature": 2})", "unknown key"},
      {R"({"vary": "d_k"})", "needs \"b\""},
      {R"({"vary": "d_k", "b": 0})", "b (model B's d_k)"},
      {R"({"seed": 9007199254740992})", "seed must be between"},
      {R"({"mask": "none"})", "causal mask"},
      {R"([1, 2])", "must be a JSON object"},
      {R"({"d_k": )", "malformed JSON"},
      {"[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]", "nesting"},
  };
  for (const auto& c : bad) {
    const std::string err = parse_settings(c[0], back);
    INFO(c[0] << " -> " << err);
    CHECK(err.find(c[1]) != std::string::npos);
    CHECK(settings_to_json(back) == settings_to_json(untouched));
  }
}

TEST_CASE("a head of a trained model opens as a playground scenario with the same weights", "[train][scenario]") {
  TrainSettings s = quick(TaskKind::Induction);
  s.model.layers = 2;
  Trainer t;
  REQUIRE(t.reset(s) == "");
  t.step(20);
  for (int w = 0; w < 2; ++w)
    for (int l = 0; l < 2; ++l)
      for (int h = 0; h < 2; ++h) {
        attn::Scenario sc;
        REQUIRE(t.head_scenario(w, l, h, sc) == "");
        attn::Result r;
        REQUIRE(attn::compute(sc, r) == "");
        const ProbeView p = t.probe(w);
        const HeadView& hv = p.heads[static_cast<size_t>(l * 2 + h)];
        REQUIRE(r.main.weights.rows() == hv.weights.rows());
        CHECK((r.main.weights - hv.weights).cwiseAbs().maxCoeff() < 1e-5f);
        CHECK(sc.tokens == p.labels);
      }
  attn::Scenario sc;
  CHECK(t.head_scenario(0, 2, 0, sc).find("layer must be") != std::string::npos);
  CHECK(t.head_scenario(0, 0, 5, sc).find("head must be") != std::string::npos);
}

TEST_CASE("export holds settings, curves of both models and, on request, every weight", "[train][json]") {
  Trainer t;
  REQUIRE(t.reset(quick()) == "");
  t.step(7);
  const nlohmann::json j = t.to_json(true);
  CHECK(j["format"] == "attnplay-train");
  CHECK(j["steps"] == 7);
  TrainSettings back;
  CHECK(settings_from_json(j["settings"], back) == "");
  REQUIRE(j["models"].size() == 2);
  for (int w = 0; w < 2; ++w) {
    const nlohmann::json& m = j["models"][static_cast<size_t>(w)];
    CHECK(m["curves"]["loss"].size() == 7);
    CHECK(m["curves"]["loss"][6].get<double>() == t.curve(w)[6].loss);
    CHECK(m["curves"]["logit_grad_norm"].size() == 7);
    const TensorInfo* wq = t.model(w).tensor("L0.W_q");
    REQUIRE(wq != nullptr);
    CHECK(m["weights"]["L0.W_q"].size() == static_cast<size_t>(wq->rows));
    CHECK(m["weights"]["L0.W_q"][0].size() == static_cast<size_t>(wq->cols));
    CHECK(m["weights"]["L0.W_q"][0][1].get<float>() == t.parameters(w)[wq->offset + 1]);
  }
  CHECK_FALSE(t.to_json(false)["models"][0].contains("weights"));
}

TEST_CASE("steps_to_accuracy: first full window whose mean reaches the threshold", "[train]") {
  std::vector<StepRecord> c(10);
  for (size_t i = 0; i < c.size(); ++i) c[i].accuracy = i < 5 ? 0.5 : 1.0;
  CHECK(steps_to_accuracy(c, 0.9, 1) == 6);
  CHECK(steps_to_accuracy(c, 0.9, 4) == 9);  // steps 6–9 all at 1.0
  CHECK(steps_to_accuracy(c, 0.9, 20) == -1);
  CHECK(steps_to_accuracy(c, 0.8, 5) == 8);  // steps 4–8: (2 · 0.5 + 3) / 5 = 0.8
}

TEST_CASE("the probe view is kept while the weights stay, and follows every change of them", "[train][probe]") {
  const TrainSettings s = quick(TaskKind::Copy);
  Trainer t, fresh;
  REQUIRE(t.reset(s) == "");
  REQUIRE(fresh.reset(s) == "");
  const ProbeView at_start = t.probe(0);
  CHECK(&t.probe(0) == &t.probe(0));  // kept: drawn every frame without a pass
  t.step(3);                          // a step changes the weights
  fresh.step(3);
  const double stepped = t.probe(0).loss;
  CHECK(stepped == fresh.probe(0).loss);
  CHECK(stepped != at_start.loss);
  for (float& p : t.parameters(0)) p *= 0.5f;  // weights written from outside (an import)
  const double halved = t.probe(0).loss;
  CHECK(halved != stepped);
  REQUIRE(t.load_state(fresh.save_state()) == "");  // a snapshot adopted
  CHECK(t.probe(0).loss == stepped);
  t.restart();  // step 0 again
  CHECK(t.probe(0).loss == at_start.loss);
  CHECK(t.probe(1).heads.size() == at_start.heads.size());
}
