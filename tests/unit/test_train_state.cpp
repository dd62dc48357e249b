// test_train_state.cpp — a Trainer saved as bytes and loaded elsewhere continues bit for bit; bad bytes are refused.
#include <catch2/catch.hpp>
#include <cstring>
#include <limits>

#include "core/train/train_trainer.h"
#include "unit_helpers.h"

using unit::same_bits;
using namespace attn::train;

namespace {

TrainSettings small_induction() {
  TrainSettings s = default_settings(TaskKind::Induction);
  s.model.seq_len = 8;
  s.model.vocab = 8;
  s.model.d_model = 16;
  s.model.layers = 2;
  s.model.heads = 2;
  s.model.d_k = 8;
  s.model.d_v = 8;
  s.batch = 8;
  s.steps = 500;
  s.seed = 11;
  return s;
}

void check_same_run(Trainer& a, Trainer& b) {
  CHECK(a.steps_done() == b.steps_done());
  for (int w = 0; w < 2; ++w) {
    CHECK(same_bits(a.curve(w), b.curve(w)));
    CHECK(a.parameters(w) == b.parameters(w));
  }
  CHECK(a.save_state() == b.save_state());
}

}  // namespace

TEST_CASE("a run saved after k steps and loaded into a fresh trainer continues bit for bit", "[train][save]") {
  for (OptimizerKind kind : {OptimizerKind::Adam, OptimizerKind::Sgd}) {
    TrainSettings s = small_induction();
    s.optim.kind = kind;
    Trainer straight, first;
    REQUIRE(straight.reset(s) == "");
    REQUIRE(first.reset(s) == "");
    REQUIRE(straight.step(60) == 60);
    REQUIRE(first.step(25) == 25);
    Trainer second;  // default settings: everything must come from the bytes
    REQUIRE(second.load_state(first.save_state()) == "");
    CHECK(second.settings().seed == 11);
    CHECK(second.steps_done() == 25);
    REQUIRE(second.step(35) == 35);
    check_same_run(straight, second);
  }
}

TEST_CASE("a loaded trainer's probe equals the original's", "[train][save]") {
  Trainer a, b;
  REQUIRE(a.reset(small_induction()) == "");
  a.step(30);
  REQUIRE(b.load_state(a.save_state()) == "");
  for (int w = 0; w < 2; ++w) {
    const ProbeView pa = a.probe(w), pb = b.probe(w);
    CHECK(pa.tokens == pb.tokens);
    CHECK(pa.predictions == pb.predictions);
    CHECK(pa.loss == pb.loss);
    REQUIRE(pa.heads.size() == pb.heads.size());
    for (size_t h = 0; h < pa.heads.size(); ++h) {
      CHECK(pa.heads[h].weights == pb.heads[h].weights);
      CHECK(pa.heads[h].induction == pb.heads[h].induction);
    }
  }
}

// The page adopts the worker's snapshots; at the largest settings one probe pass took a third of a second of the
// page's thread after each, so the worker sends the probe views it made with the snapshot.
TEST_CASE("probe views sent with a snapshot are the page's probe, with no pass of its own", "[train][save][probe]") {
  Trainer worker, page;
  REQUIRE(worker.reset(small_induction()) == "");
  worker.step(20);
  REQUIRE(page.load_state(worker.save_state()) == "");
  REQUIRE(page.adopt_probes(worker.save_probes()) == "");
  for (int w = 0; w < 2; ++w) {
    const ProbeView &pw = worker.probe(w), &pp = page.probe(w);
    CHECK(pp.tokens == pw.tokens);
    CHECK(pp.targets == pw.targets);
    CHECK(pp.predictions == pw.predictions);
    CHECK(pp.labels == pw.labels);
    CHECK(pp.loss == pw.loss);
    CHECK(pp.accuracy == pw.accuracy);
    REQUIRE(pp.heads.size() == pw.heads.size());
    for (size_t h = 0; h < pw.heads.size(); ++h) {
      CHECK(pp.heads[h].weights == pw.heads[h].weights);
      CHECK(pp.heads[h].previous_token == pw.heads[h].previous_token);
      CHECK(pp.heads[h].induction == pw.heads[h].induction);
      CHECK(pp.heads[h].self == pw.heads[h].self);
    }
  }
  CHECK(page.probe_passes_run() == 0);

  SECTION("views of another step or another shape are refused, and the page computes its own") {
    const std::string old_views = worker.save_probes();
    worker.step(1);
    REQUIRE(page.load_state(worker.save_state()) == "");
    CHECK(page.adopt_probes(old_views) == "the probe views are of another step");
    CHECK(page.adopt_probes(old_views.substr(0, old_views.size() / 2)) != "");
    CHECK(page.probe(0).loss == worker.probe(0).loss);
    CHECK(page.probe_passes_run() == 1);
    Trainer other;
    TrainSettings wider = small_induction();
    wider.model.heads = 4;
    REQUIRE(other.reset(wider) == "");
    other.step(21);
    CHECK(page.adopt_probes(other.save_probes()) == "the probe views do not fit the models");
  }
}

TEST_CASE("a snapshot carrying only its new curve records continues the run it came from", "[train][save]") {
  Trainer page, worker, straight;
  REQUIRE(page.reset(small_induction()) == "");
  REQUIRE(straight.reset(small_induction()) == "");
  page.step(10);
  straight.step(40);
  REQUIRE(worker.load_state(page.save_state()) == "");
  long sent = worker.steps_done();
  for (int round = 0; round < 3; ++round) {
    worker.step(10);
    const std::string snapshot = worker.save_state(sent);
    CHECK(snapshot.size() < worker.save_state().size());
    REQUIRE(page.load_state(snapshot) == "");
    sent = worker.steps_done();
  }
  check_same_run(page, straight);

  // A snapshot that starts beyond what this trainer has (one was missed) is refused.
  worker.step(5);
  const std::string skipped = worker.save_state(worker.steps_done() - 2);
  const std::string before = page.save_state();
  CHECK_THAT(page.load_state(skipped), Catch::Contains("do not continue"));
  CHECK(page.save_state() == before);
  // So is one of another run.
  Trainer other;
  TrainSettings s = small_induction();
  s.seed = 12;
  REQUIRE(other.reset(s) == "");
  other.step(45);
  CHECK_THAT(page.load_state(other.save_state(40)), Catch::Contains("other settings"));
  CHECK(page.save_state() == before);
}

TEST_CASE("a stopped run keeps its stop and message through save and load", "[train][save]") {
  Trainer t, back;
  REQUIRE(t.reset(small_induction()) == "");
  t.step(3);
  const TensorInfo* w = t.model(1).tensor("unembed");
  REQUIRE(w != nullptr);
  t.parameters(1)[w->offset] = std::numeric_limits<float>::infinity();
  CHECK(t.step(1) == 0);
  REQUIRE(t.stopped());
  REQUIRE(back.load_state(t.save_state()) == "");
  CHECK(back.stopped());
  CHECK(back.message() == t.message());
  CHECK(back.stop_cause().model == 1);  // B, worded again in the learner's language after a reload
  CHECK(back.stop_cause().nan == t.stop_cause().nan);
  CHECK(back.stop_cause().gradient == t.stop_cause().gradient);
  CHECK(back.step(5) == 0);
}

TEST_CASE("truncated, damaged and other-version bytes are refused and the trainer stays as it was", "[train][save]") {
  Trainer source, target;
  REQUIRE(source.reset(small_induction()) == "");
  source.step(7);
  const std::string good = source.save_state();
  TrainSettings other = small_induction();
  other.model.d_model = 32;
  REQUIRE(target.reset(other) == "");
  target.step(4);
  const std::string before = target.save_state();
  const auto refused = [&](const std::string& bytes) {
    const std::string err = target.load_state(bytes);
    const bool ok = !err.empty() && target.save_state() == before;
    if (!ok) INFO("load_state gave \"" << err << "\" for " << bytes.size() << " bytes");
    return ok;
  };
  // Every cut, at a stride that still visits each field.
  bool all_cuts = true;
  for (size_t n = 0; n < good.size(); n += (n < 400 ? 1 : 97)) all_cuts = all_cuts && refused(good.substr(0, n));
  CHECK(all_cuts);
  CHECK(refused(good + '\0'));
  CHECK(refused(""));
  CHECK(refused("not a state at all"));
  std::string garbage(good.size(), '\0');
  attn::Rng rng(5);
  for (char& c : garbage) c = static_cast<char>(rng.next_u64());
  CHECK(refused(garbage));
  std::string version = good;
  version[8] = 3;
  CHECK_THAT(target.load_state(version), Catch::Contains("version 3"));
  // The settings follow the version (a u32 length, then the task as one byte and the batch as an i64).
  std::string task = good;
  task[16] = 9;
  CHECK_THAT(target.load_state(task), Catch::Contains("settings are damaged"));
  std::string batch = good;
  std::memset(&batch[17], 0, 8);
  CHECK_THAT(target.load_state(batch), Catch::Contains("batch"));
  CHECK(target.save_state() == before);
  // A huge count where model A's parameter vector begins must not allocate that much.
  std::string count = good;
  const size_t settings_bytes = static_cast<unsigned char>(good[12]) | static_cast<unsigned char>(good[13]) << 8;
  const size_t params_at = 8 + 4 + 4 + settings_bytes + 8 + 1 + 4 + source.message().size() + 3 + 8 + 1 + 8;
  REQUIRE(params_at + 8 < count.size());
  for (size_t i = 0; i < 8; ++i) count[params_at + i] = static_cast<char>(i < 7 ? 0xff : 0x0f);
  CHECK(refused(count));
  std::memset(&count[params_at], 0, 8);  // and a count that leaves the rest misread
  CHECK(refused(count));
  CHECK(target.save_state() == before);
  REQUIRE(target.load_state(good) == "");  // the good bytes still load
  CHECK(target.steps_done() == 7);
  // A run kept by a build that wrote version 1 (no stop cause after the message) still loads.
  const size_t cause_at = 8 + 4 + 4 + settings_bytes + 8 + 1 + 4 + source.message().size();
  std::string v1 = good.substr(0, cause_at) + good.substr(cause_at + 3);
  v1[8] = 1;
  REQUIRE(target.load_state(v1) == "");
  CHECK(target.steps_done() == 7);
  CHECK(target.stop_cause().model == -1);
}
