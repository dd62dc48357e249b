// test_cell_math.cpp — the one per-cell arithmetic (terms of a dot product, a softmax cell) against its
// definition and against compute()'s own scores, weights and outputs.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/attention/attention.h"
#include "core/attention/cell_math.h"
#include "core/attention/montecarlo.h"
#include "unit_helpers.h"

using attn::Mat;
using attn::VecD;
using unit::random_mat;

namespace {

VecD vec(std::initializer_list<double> v) {
  VecD out(static_cast<Eigen::Index>(v.size()));
  Eigen::Index k = 0;
  for (double x : v) out(k++) = x;
  return out;
}

VecD row_of(const Mat& m, int i) { return m.row(i).transpose().cast<double>(); }
VecD col_of(const Mat& m, int c) { return m.col(c).cast<double>(); }

bool close(double a, double b) { return std::fabs(a - b) <= 1e-4 * (1 + std::fabs(b)); }

}  // namespace

TEST_CASE("cell math: a dot product keeps each factor pair and its terms add up to the value", "[cell_math]") {
  const attn::DotCell d = attn::explain_dot(vec({0.5, -2, 3}), vec({4, 0.25, -1}));
  REQUIRE(d.a.size() == 3);
  REQUIRE(d.b.size() == 3);
  CHECK(d.a[1] == -2);
  CHECK(d.b[2] == -1);
  double sum = 0;
  for (size_t k = 0; k < d.a.size(); ++k) sum += d.a[k] * d.b[k];
  CHECK(d.value == sum);
  CHECK(d.value == Approx(2 - 0.5 - 3));
}

TEST_CASE("cell math: a softmax cell's sum is the sum of its exps, and the row's weights sum to 1", "[cell_math]") {
  const double inf = std::numeric_limits<double>::infinity();
  const VecD row = vec({1.5, -inf, 0.25, 2});
  double total = 0;
  for (int j = 0; j < 4; ++j) {
    const attn::SoftmaxCell c = attn::explain_softmax_cell(row, j);
    REQUIRE(c.ok);
    CHECK(c.max == 2);
    CHECK(c.shift == 2);
    CHECK(c.exps[1] == 0);  // the masked key takes no share
    CHECK(c.exp_sum == Approx(std::accumulate(c.exps.begin(), c.exps.end(), 0.0)));
    CHECK(c.exps[0] == Approx(std::exp(1.5 - 2)));
    CHECK(c.value == Approx(c.exps[static_cast<size_t>(j)] / c.exp_sum));
    total += c.value;
  }
  CHECK(total == Approx(1));
  // Small rows are written without the shift; the weight is the same.
  const attn::SoftmaxCell unshifted = attn::explain_softmax_cell(row, 0, 30);
  CHECK(unshifted.shift == 0);
  CHECK(unshifted.exps[0] == Approx(std::exp(1.5)));
  CHECK(unshifted.value == Approx(attn::explain_softmax_cell(row, 0).value));
  // A fully masked row has no exp-ratio to show.
  CHECK_FALSE(attn::explain_softmax_cell(vec({-inf, -inf}), 0).ok);
}

TEST_CASE("cell math: every cell agrees with compute() on seeded scenarios", "[cell_math]") {
  attn::Rng rng(20260423);
  for (int trial = 0; trial < 20; ++trial) {
    attn::Scenario s;
    const int n = 2 + trial % 4, d = 1 + trial % 5, dv = 1 + trial % 3;
    s.X = random_mat(rng, n, d);
    s.W_q = random_mat(rng, d, d);
    s.W_k = random_mat(rng, d, d);
    s.W_v = random_mat(rng, d, dv);
    if (trial % 3 == 0) s.mask = attn::MaskKind::Causal;
    attn::Result r;
    REQUIRE(attn::compute(s, r).empty());
    const attn::HeadResult& h = r.main;
    for (int i = 0; i < n; ++i) {
      for (int c = 0; c < d; ++c) CHECK(close(attn::explain_dot(row_of(*s.X, i), col_of(*s.W_q, c)).value, h.Q(i, c)));
      for (int j = 0; j < n; ++j) {
        CHECK(close(attn::explain_dot(row_of(h.Q, i), row_of(h.K, j)).value, h.scores(i, j)));
        const attn::SoftmaxCell cell = attn::explain_softmax_cell(row_of(h.logits, i), j);
        REQUIRE(cell.ok);
        CHECK(close(cell.value, h.weights(i, j)));
      }
      for (int c = 0; c < dv; ++c)
        CHECK(close(attn::explain_dot(row_of(h.weights, i), col_of(h.V, c)).value, h.output(i, c)));
    }
  }
}
