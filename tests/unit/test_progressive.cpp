// test_progressive.cpp — computing a scenario in row blocks (across frames) gives compute()'s
// result: the same shapes, masks, warnings, and numbers (to float rounding: a SIMD kernel may sum
// a block's last rows in another order); and the app's use of it — a long recomputation spread over
// frames, and the scaling-flipped view of the selected row only.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "app/app.h"
#include "core/attention/attention.h"
#include "core/attention/montecarlo.h"
#include "core/attention/progressive.h"
#include "unit_helpers.h"

using attn::Mat;
using attn::Scenario;
using unit::random_mat;

namespace {

// Equal where both are finite (to 1e-6 of the matrix's largest magnitude, plus 1e-6); equal
// non-finite values elsewhere.
void check_same(const Mat& a, const Mat& b, const char* what) {
  INFO(what);
  REQUIRE(a.rows() == b.rows());
  REQUIRE(a.cols() == b.cols());
  double worst = 0, scale = 1;
  for (Eigen::Index i = 0; i < b.size(); ++i)
    if (std::isfinite(b.data()[i])) scale = std::max(scale, 1.0 + std::fabs(static_cast<double>(b.data()[i])));
  bool same_nonfinite = true;
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
      const float x = a(i, j), y = b(i, j);
      if (std::isfinite(x) && std::isfinite(y))
        worst = std::max(worst, std::fabs(static_cast<double>(x) - y) / scale);
      else
        same_nonfinite = same_nonfinite && (x == y || (std::isnan(x) && std::isnan(y)));
    }
  CHECK(worst < 1e-6);
  CHECK(same_nonfinite);
}
void check_same(const attn::Vec& a, const attn::Vec& b, const char* what) {
  check_same(Mat(a.transpose()), Mat(b.transpose()), what);
}

void check_head(const attn::HeadResult& a, const attn::HeadResult& b) {
  check_same(a.Q, b.Q, "Q");
  check_same(a.K, b.K, "K");
  check_same(a.V, b.V, "V");
  check_same(a.scores, b.scores, "scores");
  check_same(a.logits, b.logits, "logits");
  check_same(a.weights, b.weights, "weights");
  check_same(a.output, b.output, "output");
  check_same(a.entropy, b.entropy, "entropy");
  check_same(a.max_weight, b.max_weight, "max_weight");
  check_same(a.jacobian_norm, b.jacobian_norm, "jacobian_norm");
  CHECK(a.row_fully_masked == b.row_fully_masked);
}

attn::Result progressive(const Scenario& s, int* steps) {
  attn::ProgressiveCompute job;
  REQUIRE(job.start(s).empty());
  *steps = 0;
  float last = -1;
  while (!job.step(0.0)) {  // a zero budget: one block per step, blocks shrink to single rows
    ++*steps;
    CHECK(job.progress() > last);
    CHECK(job.progress() < 1.0f);
    last = job.progress();
    REQUIRE(*steps < 100000);
  }
  CHECK(job.done());
  return job.take();
}

}  // namespace

TEST_CASE("progressive compute equals compute() on every kind of scenario", "[progressive]") {
  attn::Rng rng(2024);
  const int n = 37, m = 29, d_model = 12;
  Scenario base;
  base.X = random_mat(rng, n, d_model);
  base.W_q = random_mat(rng, d_model, 16, 0.3);
  base.W_k = random_mat(rng, d_model, 16, 0.3);
  base.W_v = random_mat(rng, d_model, 8, 0.3);

  std::vector<std::pair<std::string, Scenario>> cases;
  cases.emplace_back("plain", base);
  {
    Scenario s = base;
    s.mask = attn::MaskKind::Causal;
    s.positional_encoding = attn::PositionalEncoding::Sinusoidal;
    s.key_padding.assign(n, false);
    s.key_padding[3] = s.key_padding[20] = true;
    cases.emplace_back("causal + padding + PE", s);
  }
  {
    Scenario s = base;
    attn::MaskMat cells = attn::MaskMat::Zero(n, n);
    cells.row(5).setOnes();  // a fully masked row: zero weights and a row warning
    cells(7, 2) = 1;
    s.mask_cells = cells;
    cases.emplace_back("painted cells", s);
  }
  {
    Scenario s = base;
    s.heads = 4;
    s.W_o = random_mat(rng, 8, 8, 0.4);
    s.mask = attn::MaskKind::Causal;
    cases.emplace_back("4 heads with W_o", s);
  }
  {
    Scenario s = base;
    s.temperature = 0;  // hard attention
    cases.emplace_back("T = 0", s);
  }
  {
    Scenario s = base;
    s.temperature = 1e-38;  // logits overflow float: the double-precision path and its warning
    cases.emplace_back("tiny T", s);
  }
  {
    Scenario s = base;
    s.memory = random_mat(rng, m, d_model);
    s.score = attn::ScoreKind::Additive;
    s.W_a = random_mat(rng, 16, 6, 0.3);
    s.U_a = random_mat(rng, 16, 6, 0.3);
    s.v_a = attn::Vec::Constant(6, 0.7f);
    cases.emplace_back("cross-attention, additive", s);
  }
  {
    Scenario s;
    s.Q = random_mat(rng, n, 8);
    s.K = random_mat(rng, m, 8);
    s.V = random_mat(rng, m, 5);
    s.K->row(4).setConstant(3e38f);  // its dot products overflow: ±inf and NaN scores
    s.score = attn::ScoreKind::General;
    s.W_a = random_mat(rng, 8, 8, 0.5);
    cases.emplace_back("general, overflowing key", s);
  }
  for (const auto& [name, s] : cases) {
    INFO("scenario: " << name);
    attn::Result full;
    REQUIRE(attn::compute(s, full).empty());
    int steps = 0;
    const attn::Result part = progressive(s, &steps);
    CHECK(steps >= 2);  // it really was split
    if (name == "general, overflowing key") {
      // Which overflowing dot products end as ±inf and which as NaN (inf − inf) depends on the
      // order of the sums, which the matrix product may choose by block size: only the kinds of
      // warning and valid weights are the same.
      auto kinds = [](std::vector<std::string> w) {
        for (std::string& x : w) x = x.substr(x.find(' '));
        return w;
      };
      CHECK(kinds(part.warnings) == kinds(full.warnings));
      CHECK(part.main.weights.allFinite());
      for (Eigen::Index i = 0; i < part.main.weights.rows(); ++i)
        CHECK(part.main.weights.row(i).sum() == Approx(1.0).margin(1e-5));
      continue;
    }
    CHECK(part.warnings == full.warnings);
    CHECK(part.d_k == full.d_k);
    check_same(part.X_effective, full.X_effective, "X_effective");
    check_same(part.output, full.output, "output");
    check_same(part.concat, full.concat, "concat");
    REQUIRE(part.heads.size() == full.heads.size());
    for (size_t k = 0; k < full.heads.size(); ++k) check_head(part.heads[k], full.heads[k]);
    if (full.heads.empty()) {
      check_head(part.main, full.main);
    } else {
      check_same(part.main.Q, full.main.Q, "main Q");
      check_same(part.main.output, full.main.output, "main output");
      CHECK(part.main.row_fully_masked == full.main.row_fully_masked);
    }
  }
}

TEST_CASE("progressive compute: bad scenarios are refused at start, budgets are honoured", "[progressive]") {
  attn::ProgressiveCompute job;
  Scenario bad;
  bad.Q = Mat::Ones(3, 2);
  bad.K = Mat::Ones(3, 3);
  bad.V = Mat::Ones(3, 1);
  CHECK(job.start(bad).find("columns") != std::string::npos);
  attn::Rng rng(5);
  Scenario s;
  s.Q = random_mat(rng, 300, 32);
  s.K = random_mat(rng, 300, 32);
  s.V = random_mat(rng, 300, 16);
  REQUIRE(job.start(s).empty());
  CHECK(job.progress() == 0.0f);
  CHECK_FALSE(job.step(0.0));  // one block only
  CHECK(job.step(1e9));        // a large budget finishes it
  CHECK(job.progress() == 1.0f);
  const attn::Result r = job.take();
  CHECK(r.main.weights.rows() == 300);
}

TEST_CASE("app: a long recomputation spreads over frames; the flipped view follows the selected row",
          "[progressive][app]") {
  attn::App app;
  std::string sentence;
  for (int i = 0; i < 600; ++i) sentence += "w" + std::to_string(i % 97) + "_" + std::to_string(i) + " ";
  app.state.d_k = 32;
  REQUIRE(attn::set_sentence(app.state, sentence));
  app.update();  // complete at once (what the JS API and tests call)
  REQUIRE(app.result.core.main.weights.rows() == 600);
  CHECK(app.result.pending < 0);

  // 600 × 600 cells: the scaling-flipped view holds the selected row only, recomputed when it moves.
  app.state.selected_row = 17;
  app.update();
  REQUIRE(app.result.flipped.main.weights.rows() == 1);
  CHECK(app.result.flipped_row == 17);
  attn::Scenario other = attn::build_scenario(app.state);
  other.scale = !other.scale;
  attn::Result full;
  REQUIRE(attn::compute(other, full).empty());
  for (int j = 0; j < 600; ++j)
    CHECK(app.result.flipped.main.weights(0, j) == Approx(full.main.weights(17, j)).margin(1e-6));
  CHECK(app.result.flipped.main.jacobian_norm(0) == Approx(full.main.jacobian_norm(17)).margin(1e-6));
  app.state.selected_row = 400;
  app.update();
  CHECK(app.result.flipped_row == 400);
  CHECK(app.result.flipped.main.max_weight(0) == Approx(full.main.max_weight(400)).margin(1e-6));

  // A frame budget: the new d_k shows up after a few frames; meanwhile the old result stays.
  app.frame_budget_ms = 0.001;
  const uint64_t rev = app.result.revision;
  app.state.d_k = 256;
  app.tick();
  CHECK(app.result.pending >= 0.0f);
  CHECK(app.result.pending < 1.0f);
  CHECK(app.result.revision == rev);
  CHECK(app.result.core.main.Q.cols() == 32);  // still the old result
  int frames = 1;
  while (app.result.pending >= 0 && frames < 10000) {
    app.tick();
    ++frames;
  }
  CHECK(frames > 2);
  CHECK(app.result.revision == rev + 1);
  REQUIRE(app.result.core.main.Q.cols() == 256);
  attn::Result direct;
  REQUIRE(attn::compute(attn::build_scenario(app.state), direct).empty());
  double worst = 0;
  for (Eigen::Index k = 0; k < direct.main.weights.size(); ++k)
    worst = std::max(
        worst, static_cast<double>(std::fabs(direct.main.weights.data()[k] - app.result.core.main.weights.data()[k])));
  CHECK(worst < 1e-6);
  // A state change during a job: the job finishes first, then the newest state is computed.
  app.state.d_k = 64;
  app.tick();
  app.state.d_k = 128;
  while (app.result.pending >= 0 || app.result.core.main.Q.cols() != 128) {
    app.tick();
    REQUIRE(++frames < 20000);
  }
  CHECK(app.result.core.main.Q.cols() == 128);
}
