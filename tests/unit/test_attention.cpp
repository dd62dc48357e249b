// test_attention.cpp — compute() properties on seeded random cases, masks, heads and validation.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "core/attention/attention.h"
#include "core/attention/montecarlo.h"
#include "unit_helpers.h"

using attn::Mat;
using attn::Scenario;
using unit::random_mat;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

int rand_int(attn::Rng& rng, int lo, int hi) {  // inclusive
  return lo + static_cast<int>(rng.uniform() * (hi - lo + 1));
}

attn::Result run(const Scenario& s) {
  attn::Result r;
  const std::string err = attn::compute(s, r);
  INFO("compute error: " << err);
  REQUIRE(err.empty());
  return r;
}

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

// Largest |a − b| over |b| + 1, for comparisons of results computed along two paths whose
// float roundings differ (summation order, blocking).
double max_rel_diff(const Mat& a, const Mat& b) {
  REQUIRE(a.rows() == b.rows());
  REQUIRE(a.cols() == b.cols());
  double worst = 0;
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j)
      worst = std::max(worst, std::abs(static_cast<double>(a(i, j)) - b(i, j)) / (std::abs(b(i, j)) + 1.0));
  return worst;
}

// A random self- or cross-attention scenario with projections, random score kind, masks,
// heads and temperature.
Scenario random_scenario(attn::Rng& rng) {
  Scenario s;
  const int heads = rand_int(rng, 1, 3);
  const int n = rand_int(rng, 1, 9);
  const int d_model = rand_int(rng, 1, 6);
  const int dh = rand_int(rng, 1, 4), dvh = rand_int(rng, 1, 3);
  s.heads = heads;
  s.X = random_mat(rng, n, d_model);
  int m = n;
  if (rng.uniform() < 0.3) {
    m = rand_int(rng, 1, 9);
    s.memory = random_mat(rng, m, d_model);
  }
  s.W_q = random_mat(rng, d_model, dh * heads);
  s.W_k = random_mat(rng, d_model, dh * heads);
  s.W_v = random_mat(rng, d_model, dvh * heads);
  if (rng.uniform() < 0.5) s.W_o = random_mat(rng, dvh * heads, rand_int(rng, 1, 5));
  const double kind = rng.uniform();
  if (kind < 0.2) {
    s.score = attn::ScoreKind::General;
    s.W_a = random_mat(rng, dh, dh);
  } else if (kind < 0.4) {
    s.score = attn::ScoreKind::Additive;
    const int da = rand_int(rng, 1, 4);
    s.W_a = random_mat(rng, dh, da);
    s.U_a = random_mat(rng, dh, da);
    s.v_a = random_mat(rng, da, 1).col(0);
  }
  s.scale = rng.uniform() < 0.7;
  const double t = rng.uniform();
  s.temperature = t < 0.1 ? 0.0 : t < 0.2 ? 1e-3 : 0.2 + 3 * rng.uniform();
  if (rng.uniform() < 0.3) s.mask = attn::MaskKind::Causal;
  if (rng.uniform() < 0.3) {
    s.key_padding.resize(static_cast<size_t>(m));
    for (int j = 0; j < m; ++j) s.key_padding[static_cast<size_t>(j)] = rng.uniform() < 0.3;
  }
  if (rng.uniform() < 0.2) {
    s.mask_cells = attn::MaskMat(n, m);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j) (*s.mask_cells)(i, j) = rng.uniform() < 0.25 ? 1 : 0;
  }
  if (rng.uniform() < 0.3) s.positional_encoding = attn::PositionalEncoding::Sinusoidal;
  return s;
}

}  // namespace

TEST_CASE("random scenarios: rows are distributions, masked cells zero, nothing NaN", "[attention][property]") {
  attn::Rng rng(1);
  for (int c = 0; c < 300; ++c) {
    const Scenario s = random_scenario(rng);
    INFO("case " << c);
    const attn::Result r = run(s);
    CHECK(r.output.allFinite());
    const std::vector<attn::HeadResult> heads = s.heads == 1 ? std::vector<attn::HeadResult>{r.main} : r.heads;
    REQUIRE(static_cast<int>(heads.size()) == s.heads);
    for (const attn::HeadResult& h : heads) {
      const auto n = h.weights.rows(), m = h.weights.cols();
      REQUIRE(h.logits.rows() == n);
      CHECK(h.weights.allFinite());
      CHECK(h.output.allFinite());
      for (Eigen::Index i = 0; i < n; ++i) {
        double sum = 0;
        for (Eigen::Index j = 0; j < m; ++j) {
          CHECK(h.weights(i, j) >= 0.0f);
          if (h.logits(i, j) == -kInf) CHECK(h.weights(i, j) == 0.0f);
          sum += h.weights(i, j);
        }
        // Normalisation in float over ≤ 9 entries: off from 1 by a few float ulps at most.
        if (h.row_fully_masked[static_cast<size_t>(i)])
          CHECK(sum == 0.0);
        else
          CHECK(sum == Approx(1.0).margin(1e-6));
        CHECK(std::isfinite(h.entropy(i)));
        CHECK(h.entropy(i) >= 0.0f);
        CHECK(h.entropy(i) <= std::log(static_cast<double>(m)) + 1e-5);  // float rounding
        CHECK(h.jacobian_norm(i) >= 0.0f);
        CHECK(h.max_weight(i) <= 1.0f);
      }
    }
  }
}

TEST_CASE("permuting tokens permutes outputs, unless positions are encoded", "[attention][property]") {
  attn::Rng rng(2);
  for (int c = 0; c < 40; ++c) {
    const int n = rand_int(rng, 2, 12), d = rand_int(rng, 2, 8);
    Scenario s;
    s.X = random_mat(rng, n, d);
    s.W_q = random_mat(rng, d, 4);
    s.W_k = random_mat(rng, d, 4);
    s.W_v = random_mat(rng, d, 4);
    s.heads = (c % 2) ? 2 : 1;
    std::vector<int> perm(static_cast<size_t>(n));
    std::iota(perm.begin(), perm.end(), 0);
    for (int i = n - 1; i > 0; --i)
      std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(rand_int(rng, 0, i))]);
    if (std::is_sorted(perm.begin(), perm.end())) std::swap(perm[0], perm[1]);  // not the identity
    Scenario p = s;
    for (int i = 0; i < n; ++i) p.X->row(i) = s.X->row(perm[static_cast<size_t>(i)]);

    const Mat out = run(s).output;
    const Mat out_p = run(p).output;
    Mat expect(out.rows(), out.cols());
    for (int i = 0; i < n; ++i) expect.row(i) = out.row(perm[static_cast<size_t>(i)]);
    // Same numbers in another order: only the summation order of scores and softmax differs,
    // a few float ulps (the values are O(1)).
    CHECK(max_rel_diff(out_p, expect) < 1e-5);

    s.positional_encoding = p.positional_encoding = attn::PositionalEncoding::Sinusoidal;
    const Mat pe_out = run(s).output;
    const Mat pe_out_p = run(p).output;
    for (int i = 0; i < n; ++i) expect.row(i) = pe_out.row(perm[static_cast<size_t>(i)]);
    // Positions now differ per token: the outputs move by O(1), far above rounding.
    CHECK(max_rel_diff(pe_out_p, expect) > 1e-3);
  }
}

TEST_CASE("fully masked rows: zero weights and output, a warning, no NaN", "[attention][mask]") {
  Scenario s;
  s.Q = (Mat(3, 2) << 1, 0, 0, 1, 1, 1).finished();
  s.K = (Mat(4, 2) << 1, 2, 3, 4, 5, 6, 7, 8).finished();
  s.V = (Mat(4, 2) << 1, 1, 2, 2, 3, 3, 4, 4).finished();
  s.mask_cells = attn::MaskMat::Zero(3, 4);
  s.mask_cells->row(2).setOnes();
  for (double T : {1.0, 0.0, 1e-42}) {
    s.temperature = T;
    const attn::Result r = run(s);
    CHECK(r.main.row_fully_masked == std::vector<bool>{false, false, true});
    CHECK((r.main.weights.row(2).array() == 0.0f).all());
    CHECK((r.output.row(2).array() == 0.0f).all());
    CHECK(r.main.entropy(2) == 0.0f);
    CHECK(r.main.jacobian_norm(2) == 0.0f);
    CHECK(r.output.allFinite());
    CHECK(r.main.weights.allFinite());
    REQUIRE(!r.warnings.empty());
    CHECK(r.warnings[0] == "row 2: every key is masked; its weights and output are zero");
  }
  // Every key padded: every row is fully masked, in every head.
  s.temperature = 1;
  s.mask_cells.reset();
  s.key_padding.assign(4, true);
  s.heads = 2;
  const attn::Result r = run(s);
  CHECK(r.main.row_fully_masked == std::vector<bool>{true, true, true});
  CHECK(r.warnings.size() == 3);
  CHECK((r.output.array() == 0.0f).all());
  for (const auto& h : r.heads) CHECK((h.weights.array() == 0.0f).all());
}

TEST_CASE("masked keys' contents never matter", "[attention][mask]") {
  attn::Rng rng(3);
  for (int c = 0; c < 30; ++c) {
    const int n = rand_int(rng, 1, 6), m = rand_int(rng, 2, 7), d = rand_int(rng, 1, 5);
    Scenario s;
    s.Q = random_mat(rng, n, d);
    s.K = random_mat(rng, m, d);
    s.V = random_mat(rng, m, 3);
    s.key_padding.assign(static_cast<size_t>(m), false);
    const int dead = rand_int(rng, 0, m - 1);
    s.key_padding[static_cast<size_t>(dead)] = true;
    const attn::Result base = run(s);
    Scenario t = s;
    t.K->row(dead).setConstant(3e38f);  // would overflow any dot product
    t.V->row(dead).setConstant(-3e38f);
    const attn::Result huge = run(t);
    // Bit-identical: a masked logit is −inf whatever the key, and its weight is exactly 0.
    CHECK(huge.output == base.output);
    CHECK(huge.main.weights == base.main.weights);
    CHECK(huge.warnings.empty());
  }
  // Cross-attention: a masked memory row whose projection overflows to inf in K and V.
  Scenario s;
  s.X = (Mat(2, 2) << 1, 0, 0, 1).finished();
  s.memory = (Mat(3, 2) << 1, 2, 1e30f, -1e30f, 0.5f, 0.25f).finished();
  s.W_k = (Mat(2, 2) << 1e10f, 0, 0, 1e10f).finished();
  s.W_v = s.W_k;
  s.key_padding = {false, true, false};
  const attn::Result r = run(s);
  CHECK(!r.main.V.allFinite());  // the masked value row really is infinite
  CHECK(r.output.allFinite());
  CHECK(r.main.weights(0, 1) == 0.0f);
  CHECK(r.main.weights(1, 1) == 0.0f);
  Scenario ref = s;
  ref.memory->row(1) << 0, 0;
  // The unmasked rows' projections are the same; only the route through the kernels (skip
  // path vs dense product) may round differently, by float ulps of values ~1e10.
  CHECK(max_rel_diff(r.output, run(ref).output) < 1e-6);
}

TEST_CASE("huge logits give finite weights summing to 1", "[attention][extreme]") {
  Scenario s;
  s.Q = (Mat(1, 1) << 1).finished();
  s.K = (Mat(4, 1) << 1e30f, -1e30f, 0, 1e29f).finished();
  s.V = (Mat(4, 2) << 1, 2, 3, 4, 5, 6, 7, 8).finished();
  s.scale = false;
  attn::Result r = run(s);
  CHECK(r.main.weights.allFinite());
  CHECK(r.main.weights(0, 0) == 1.0f);  // e^(1e29 − 1e30) is exactly 0 in float
  CHECK(r.main.weights.sum() == 1.0f);
  CHECK(r.output(0, 0) == 1.0f);

  // Scores that overflow float inside the dot product: 1e20·1e20 + 1e20·1e20 = +inf (a hard
  // maximum); 1e40 − 1e40 = inf − inf is undefined, so that key is ignored, with warnings.
  s.Q = (Mat(1, 2) << 1e20f, 1e20f).finished();
  s.K = (Mat(3, 2) << 1e20f, -1e20f, 1e20f, 1e20f, 1, 1).finished();
  s.V = (Mat(3, 1) << 1, 2, 3).finished();
  r = run(s);
  CHECK(r.main.weights.allFinite());
  CHECK(r.main.weights(0, 0) == 0.0f);
  CHECK(r.main.weights(0, 1) == 1.0f);
  CHECK(r.main.weights(0, 2) == 0.0f);
  CHECK(r.output(0, 0) == 2.0f);
  CHECK(r.warnings.size() == 2);

  // A temperature so small that the logits leave the float range: the limit is the argmax,
  // and ties still share.
  s.Q = (Mat(1, 1) << 1).finished();
  s.K = (Mat(4, 1) << 1, 2, 2, -3).finished();
  s.V = (Mat(4, 1) << 1, 2, 4, 8).finished();
  s.temperature = 1e-40;
  r = run(s);
  CHECK(r.main.weights.allFinite());
  CHECK(r.main.logits.allFinite());  // clamped for display
  CHECK(r.main.weights(0, 1) == 0.5f);
  CHECK(r.main.weights(0, 2) == 0.5f);
  CHECK(r.main.weights(0, 0) == 0.0f);
  CHECK(r.output(0, 0) == 3.0f);
  CHECK(r.warnings.size() == 1);
}

TEST_CASE("temperature", "[attention]") {
  Scenario s;
  s.Q = (Mat(2, 2) << 1, 0, 0, 1).finished();
  s.K = (Mat(4, 2) << 1, 0, 1, 0, 0, 1, 1, 0).finished();
  s.V = (Mat(4, 1) << 1, 2, 4, 8).finished();
  s.scale = false;

  SECTION("T = 0 splits evenly between exact ties") {
    s.temperature = 0;
    const attn::Result r = run(s);
    // Row 0 scores [1, 1, 0, 1]: three tied maxima.
    CHECK(r.main.weights(0, 0) == Approx(1.0 / 3).epsilon(1e-7));
    CHECK(r.main.weights(0, 1) == r.main.weights(0, 0));
    CHECK(r.main.weights(0, 3) == r.main.weights(0, 0));
    CHECK(r.main.weights(0, 2) == 0.0f);
    // Row 1 scores [0, 0, 1, 0]: one maximum.
    CHECK(r.main.weights(1, 2) == 1.0f);
    CHECK(r.output(1, 0) == 4.0f);
    CHECK(r.output(0, 0) == Approx(11.0 / 3).epsilon(1e-6));  // float thirds
    // With the maximum masked, the next best takes all.
    s.key_padding = {false, false, true, false};
    const attn::Result m = run(s);
    CHECK(m.main.weights(1, 0) == Approx(1.0 / 3).epsilon(1e-7));
  }
  SECTION("T divides the logits") {
    s.temperature = 2;
    const attn::Result r = run(s);
    CHECK(r.main.logits(0, 0) == 0.5f);
    CHECK(r.main.logits(1, 2) == 0.5f);
    // softmax([.5, .5, 0, .5]) in double.
    const double e = std::exp(0.5);
    CHECK(r.main.weights(0, 2) == Approx(1 / (3 * e + 1)).epsilon(1e-6));
  }
  SECTION("large T flattens") {
    s.temperature = 1e6;
    const attn::Result r = run(s);
    // Logits ~1e-6 apart: weights 1/4 to within 1e-6.
    CHECK(r.main.weights(1, 2) == Approx(0.25).margin(1e-6));
    CHECK(r.main.entropy(0) == Approx(std::log(4.0)).margin(1e-5));
  }
}

TEST_CASE("causal mask: zero above the diagonal", "[attention][mask]") {
  attn::Rng rng(4);
  Scenario s;
  s.X = random_mat(rng, 7, 4);
  s.mask = attn::MaskKind::Causal;
  const attn::Result r = run(s);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 7; ++j)
      if (j > i) {
        CHECK(r.main.weights(i, j) == 0.0f);
        CHECK(r.main.logits(i, j) == -kInf);
      } else {
        CHECK(r.main.weights(i, j) > 0.0f);
      }
  CHECK(r.main.weights(0, 0) == 1.0f);
  CHECK(r.output.row(0) == s.X->row(0));  // the first token sees only itself (identity W_v)

  // n ≠ m (cross-attention): key j > query i is blocked as well.
  s.memory = random_mat(rng, 5, 4);
  s.X = random_mat(rng, 3, 4);
  const attn::Result c = run(s);
  REQUIRE(c.main.weights.cols() == 5);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j)
      if (j > i) CHECK(c.main.weights(i, j) == 0.0f);
}

TEST_CASE("multi-head equals separate heads concatenated, then W_o", "[attention][heads]") {
  attn::Rng rng(5);
  for (attn::ScoreKind kind : {attn::ScoreKind::Dot, attn::ScoreKind::General, attn::ScoreKind::Additive})
    for (int h : {2, 3, 4}) {
      const int n = 5, m = 6, dh = 3, dvh = 2, d_model = 7;
      Scenario s;
      s.X = random_mat(rng, n, d_model);
      s.memory = random_mat(rng, m, d_model);
      s.W_q = random_mat(rng, d_model, h * dh, 0.5);
      s.W_k = random_mat(rng, d_model, h * dh, 0.5);
      s.W_v = random_mat(rng, d_model, h * dvh);
      s.W_o = random_mat(rng, h * dvh, 4);
      s.heads = h;
      s.score = kind;
      if (kind == attn::ScoreKind::General) s.W_a = random_mat(rng, dh, dh);
      if (kind == attn::ScoreKind::Additive) {
        s.W_a = random_mat(rng, dh, 2);
        s.U_a = random_mat(rng, dh, 2);
        s.v_a = random_mat(rng, 2, 1).col(0);
      }
      s.mask = attn::MaskKind::Causal;
      const attn::Result r = run(s);
      REQUIRE(r.heads.size() == static_cast<size_t>(h));
      CHECK(r.d_k == dh);
      CHECK(r.main.Q.cols() == h * dh);
      CHECK(r.main.V.cols() == h * dvh);
      CHECK(r.concat.cols() == h * dvh);
      CHECK(r.main.output == r.output);
      const Mat Q = *s.X * *s.W_q, K = *s.memory * *s.W_k, V = *s.memory * *s.W_v;
      Mat concat(n, h * dvh);
      for (int k = 0; k < h; ++k) {
        Scenario one = s;
        one.X.reset();
        one.memory.reset();
        one.W_q.reset();
        one.W_k.reset();
        one.W_v.reset();
        one.W_o.reset();
        one.heads = 1;
        one.Q = Q.middleCols(k * dh, dh);
        one.K = K.middleCols(k * dh, dh);
        one.V = V.middleCols(k * dvh, dvh);
        const attn::Result single = run(one);
        CHECK(single.d_k == dh);
        // The same projections computed by another product (full width vs per head slice):
        // float rounding of O(1) values only.
        CHECK(max_rel_diff(r.heads[static_cast<size_t>(k)].weights, single.main.weights) < 1e-5);
        CHECK(max_rel_diff(r.heads[static_cast<size_t>(k)].output, single.output) < 1e-5);
        concat.middleCols(k * dvh, dvh) = single.output;
      }
      CHECK(max_rel_diff(r.concat, concat) < 1e-5);
      const Mat want = concat * *s.W_o;
      CHECK(max_rel_diff(r.output, want) < 1e-5);
    }
}

TEST_CASE("single head: main is the head, W_o applied to its output", "[attention][heads]") {
  attn::Rng rng(6);
  Scenario s;
  s.X = random_mat(rng, 4, 3);
  s.W_o = random_mat(rng, 3, 2);
  const attn::Result r = run(s);
  CHECK(r.heads.empty());
  CHECK(r.concat.size() == 0);
  CHECK(r.main.output.cols() == 3);
  CHECK(max_rel_diff(r.output, r.main.output * *s.W_o) < 1e-6);  // the same product, re-done
  CHECK(r.X_effective == *s.X);
  CHECK(r.main.Q == *s.X);  // absent projections are the identity
  CHECK(r.d_k == 3);
}

TEST_CASE("cross-attention: keys and values come from memory", "[attention]") {
  attn::Rng rng(7);
  for (bool pe : {false, true}) {
    Scenario s;
    s.X = random_mat(rng, 3, 4);
    s.memory = random_mat(rng, 6, 4);
    s.W_q = random_mat(rng, 4, 2);
    s.W_k = random_mat(rng, 4, 2);
    s.W_v = random_mat(rng, 4, 5);
    if (pe) s.positional_encoding = attn::PositionalEncoding::Sinusoidal;
    const attn::Result r = run(s);
    REQUIRE(r.main.weights.rows() == 3);
    REQUIRE(r.main.weights.cols() == 6);
    REQUIRE(r.output.cols() == 5);
    Mat X = *s.X, M = *s.memory;
    if (pe) {
      X += attn::sinusoidal_encoding(3, 4);
      M += attn::sinusoidal_encoding(6, 4);  // memory positions 0..m−1
    }
    Scenario direct;
    direct.Q = X * *s.W_q;
    direct.K = M * *s.W_k;
    direct.V = M * *s.W_v;
    // Same arithmetic along the direct route: float rounding differences only.
    CHECK(max_rel_diff(r.output, run(direct).output) < 1e-5);
    CHECK(max_rel_diff(r.X_effective, X) < 1e-7);
  }
}

TEST_CASE("score kinds", "[attention]") {
  attn::Rng rng(8);
  Scenario s;
  s.Q = random_mat(rng, 3, 4);
  s.K = random_mat(rng, 5, 4);
  s.V = random_mat(rng, 5, 2);
  const attn::Result dot = run(s);
  // Dot scores ÷ √d_k = ÷2 (exact).
  CHECK(dot.main.logits(1, 2) == dot.main.scores(1, 2) / 2);

  SECTION("general with W_a = I is dot") {
    s.score = attn::ScoreKind::General;
    s.W_a = Mat::Identity(4, 4);
    const attn::Result g = run(s);
    CHECK(max_rel_diff(g.main.scores, dot.main.scores) < 1e-6);
    CHECK(max_rel_diff(g.output, dot.output) < 1e-6);
  }
  SECTION("general is qᵀ W_a k, scaled") {
    s.score = attn::ScoreKind::General;
    s.W_a = random_mat(rng, 4, 4);
    const attn::Result g = run(s);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 5; ++j) {
        double want = 0;
        for (int a = 0; a < 4; ++a)
          for (int b = 0; b < 4; ++b) want += static_cast<double>((*s.Q)(i, a)) * (*s.W_a)(a, b) * (*s.K)(j, b);
        // Float products of O(1) values, 16 terms.
        CHECK(g.main.scores(i, j) == Approx(want).margin(1e-5));
        CHECK(g.main.logits(i, j) == Approx(want / 2).margin(1e-5));
      }
  }
  SECTION("additive is v_aᵀ tanh(q W_a + k U_a), never scaled") {
    s.score = attn::ScoreKind::Additive;
    s.W_a = random_mat(rng, 4, 3);
    s.U_a = random_mat(rng, 4, 3);
    s.v_a = random_mat(rng, 3, 1).col(0);
    const attn::Result a = run(s);
    s.scale = false;
    const attn::Result b = run(s);
    CHECK(a.main.logits == b.main.logits);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 5; ++j) {
        double want = 0;
        for (int t = 0; t < 3; ++t) {
          double x = 0;
          for (int c = 0; c < 4; ++c)
            x +=
                static_cast<double>((*s.Q)(i, c)) * (*s.W_a)(c, t) + static_cast<double>((*s.K)(j, c)) * (*s.U_a)(c, t);
          want += (*s.v_a)(t)*std::tanh(x);
        }
        // Projections in float before tanh: ~1e-6 of O(1) terms.
        CHECK(a.main.scores(i, j) == Approx(want).margin(1e-5));
        CHECK(a.main.logits(i, j) == a.main.scores(i, j));
      }
  }
}

TEST_CASE("row statistics", "[attention]") {
  const float uniform[4] = {0.25f, 0.25f, 0.25f, 0.25f};
  // Uniform over m: entropy ln m; Jacobian norm √(1/m − 1/m²) (Σp² = 1/m, Σp³ = 1/m²).
  CHECK(attn::row_entropy(uniform, 4) == Approx(std::log(4.0)));
  CHECK(attn::row_jacobian_norm(uniform, 4) == Approx(std::sqrt(0.25 - 0.0625)));
  const float onehot[3] = {0.0f, 1.0f, 0.0f};
  CHECK(attn::row_entropy(onehot, 3) == 0.0);  // 0·log 0 = 0
  CHECK(attn::row_jacobian_norm(onehot, 3) == 0.0);
  const float zero[2] = {0.0f, 0.0f};
  CHECK(attn::row_entropy(zero, 2) == 0.0);
  CHECK(attn::row_jacobian_norm(zero, 2) == 0.0);
  // p = (0.2, 0.8): the Jacobian [[.16, −.16], [−.16, .16]] has Frobenius norm √(4·.0256) = .32.
  const float two[2] = {0.2f, 0.8f};
  CHECK(attn::row_jacobian_norm(two, 2) == Approx(0.32).epsilon(1e-6));  // float inputs
  CHECK(attn::row_entropy(two, 2) == Approx(-(0.2 * std::log(0.2) + 0.8 * std::log(0.8))).epsilon(1e-6));
}

TEST_CASE("sinusoidal encoding", "[attention]") {
  const Mat pe = attn::sinusoidal_encoding(5, 6);
  REQUIRE(pe.rows() == 5);
  REQUIRE(pe.cols() == 6);
  for (int p = 0; p < 5; ++p)
    for (int i = 0; i < 3; ++i) {
      const double w = p / std::pow(10000.0, 2.0 * i / 6);
      // Float storage of sin/cos values in [−1, 1].
      CHECK(pe(p, 2 * i) == Approx(std::sin(w)).margin(1e-7));
      CHECK(pe(p, 2 * i + 1) == Approx(std::cos(w)).margin(1e-7));
    }
  CHECK(pe(0, 0) == 0.0f);
  CHECK(pe(0, 1) == 1.0f);
  const Mat odd = attn::sinusoidal_encoding(2, 3);  // odd d: the last column is a sine
  CHECK(odd(1, 2) == Approx(std::sin(1 / std::pow(10000.0, 2.0 / 3))).margin(1e-7));
}

TEST_CASE("validate: one clear reason per bad input", "[attention][validate]") {
  attn::Rng rng(9);
  Scenario good;
  good.X = random_mat(rng, 4, 3);
  good.W_q = random_mat(rng, 3, 4);
  good.W_k = random_mat(rng, 3, 4);
  good.W_v = random_mat(rng, 3, 2);
  REQUIRE(attn::validate(good).empty());

  struct Case {
    const char* what;
    std::function<void(Scenario&)> mutate;
    const char* expect;
  };
  const std::vector<Case> cases = {
      {"no inputs", [](Scenario& s) { s.X.reset(); }, "missing inputs"},
      {"X and Q", [](Scenario& s) { s.Q = Mat::Ones(4, 4); }, "not both"},
      {"Q without K",
       [](Scenario& s) {
         s = Scenario();
         s.Q = Mat::Ones(2, 2);
         s.V = Mat::Ones(2, 2);
       },
       "K is required"},
      {"W_q rows", [](Scenario& s) { s.W_q = Mat::Ones(2, 4); }, "W_q has 2 rows but X has 3 columns"},
      {"W_v rows", [](Scenario& s) { s.W_v = Mat::Ones(5, 2); }, "W_v has 5 rows but X has 3 columns"},
      {"d_k mismatch", [](Scenario& s) { s.W_k = Mat::Ones(3, 5); }, "same width d_k"},
      {"memory width", [](Scenario& s) { s.memory = Mat::Ones(2, 5); }, "memory has 5 columns"},
      {"W_o rows", [](Scenario& s) { s.W_o = Mat::Ones(3, 3); }, "W_o has 3 rows"},
      {"empty", [](Scenario& s) { s.W_v = Mat(3, 0); }, "W_v is empty (3×0)"},
      {"too big", [](Scenario& s) { s.X = Mat::Zero(5000, 3); }, "n = 5000 (rows of X) exceeds the limit of 4096"},
      {"heads 0", [](Scenario& s) { s.heads = 0; }, "heads = 0 must be at least 1"},
      {"heads big", [](Scenario& s) { s.heads = 300; }, "exceeds the limit of 256"},
      {"heads divide", [](Scenario& s) { s.heads = 3; }, "heads = 3 does not divide d_k = 4"},
      {"heads divide d_v",
       [](Scenario& s) {
         s.heads = 4;
         s.W_v = Mat::Ones(3, 6);
       },
       "heads = 4 does not divide d_v = 6"},
      {"negative T", [](Scenario& s) { s.temperature = -1; }, "temperature must be >= 0"},
      {"NaN T", [](Scenario& s) { s.temperature = std::nan(""); }, "temperature must be a finite"},
      {"inf T", [](Scenario& s) { s.temperature = HUGE_VAL; }, "temperature must be a finite"},
      {"key_padding",
       [](Scenario& s) {
         s.key_padding = {true, false};
       },
       "key_padding has 2 entries but there are 4 keys"},
      {"mask_cells", [](Scenario& s) { s.mask_cells = attn::MaskMat::Zero(4, 3); },
       "mask_cells is 4×3 but the scores are 4×4"},
      {"general W_a missing", [](Scenario& s) { s.score = attn::ScoreKind::General; }, "score 'general' needs W_a"},
      {"general W_a per head",
       [](Scenario& s) {
         s.score = attn::ScoreKind::General;
         s.heads = 2;
         s.W_a = Mat::Identity(4, 4);
       },
       "W_a is 4×4 but score 'general' needs 2×2"},
      {"additive U_a missing",
       [](Scenario& s) {
         s.score = attn::ScoreKind::Additive;
         s.W_a = Mat::Ones(4, 2);
         s.v_a = attn::Vec::Ones(2);
       },
       "U_a is missing"},
      {"additive v_a length",
       [](Scenario& s) {
         s.score = attn::ScoreKind::Additive;
         s.W_a = Mat::Ones(4, 2);
         s.U_a = Mat::Ones(4, 2);
         s.v_a = attn::Vec::Ones(3);
       },
       "v_a has 3 entries but W_a has 2 columns"},
      {"additive per head",
       [](Scenario& s) {
         s.score = attn::ScoreKind::Additive;
         s.heads = 2;
         s.W_a = Mat::Ones(4, 2);
         s.U_a = Mat::Ones(4, 2);
         s.v_a = attn::Vec::Ones(2);
       },
       "W_a has 4 rows but score 'additive' needs 2"},
      {"NaN in X", [](Scenario& s) { (*s.X)(1, 2) = std::nanf(""); },
       "X has a non-finite value (nan) at row 1, column 2"},
      {"inf in W_k", [](Scenario& s) { (*s.W_k)(0, 0) = kInf; }, "W_k has a non-finite value"},
      {"inf in v_a",
       [](Scenario& s) {
         s.score = attn::ScoreKind::Additive;
         s.W_a = Mat::Ones(4, 2);
         s.U_a = Mat::Ones(4, 2);
         s.v_a = attn::Vec::Ones(2);
         (*s.v_a)(1) = kInf;
       },
       "v_a has a non-finite value"},
      {"PE without X",
       [](Scenario& s) {
         s = Scenario();
         s.Q = s.K = s.V = Mat::Ones(2, 2);
         s.positional_encoding = attn::PositionalEncoding::Sinusoidal;
       },
       "positional_encoding needs X"},
      {"direct shapes",
       [](Scenario& s) {
         s = Scenario();
         s.Q = Mat::Ones(2, 3);
         s.K = Mat::Ones(4, 2);
         s.V = Mat::Ones(4, 2);
       },
       "Q has 3 columns but K has 2 columns"},
      {"direct K V rows",
       [](Scenario& s) {
         s = Scenario();
         s.Q = Mat::Ones(2, 2);
         s.K = Mat::Ones(4, 2);
         s.V = Mat::Ones(3, 2);
       },
       "K has 4 rows but V has 3 rows"},
      {"too much work",
       [](Scenario& s) {
         s = Scenario();
         s.Q = s.K = Mat::Zero(4096, 8);
         s.V = Mat::Zero(4096, 2);
         s.heads = 2;
       },
       "exceeds the limit of 16777216"},
  };
  for (const Case& c : cases) {
    Scenario s = good;
    c.mutate(s);
    const std::string err = attn::validate(s);
    INFO(c.what << ": got \"" << err << "\"");
    CHECK(contains(err, c.expect));
    // compute() refuses with the same reason and leaves the result untouched.
    attn::Result r;
    r.warnings = {"sentinel"};
    CHECK(attn::compute(s, r) == err);
    CHECK(r.warnings == std::vector<std::string>{"sentinel"});
    CHECK(r.output.size() == 0);
  }
}

TEST_CASE("entropy per row equals −Σ p log p of the weights, on every kind of row", "[attention]") {
  // compute() takes a shortcut for softmax rows (one log per row); hold it against the definition.
  attn::Rng rng(77);
  for (double spread : {0.01, 1.0, 30.0, 3000.0}) {
    for (double T : {1.0, 0.3, 0.0}) {
      Scenario s;
      s.Q = random_mat(rng, 19, 8, spread);
      s.K = random_mat(rng, 23, 8, spread);
      s.V = random_mat(rng, 23, 3);
      s.temperature = T;
      s.key_padding.assign(23, false);
      s.key_padding[4] = true;
      const attn::Result r = run(s);
      for (int i = 0; i < 19; ++i) {
        INFO("spread " << spread << " T " << T << " row " << i);
        const double want = attn::row_entropy(r.main.weights.row(i).data(), 23);
        CHECK(r.main.entropy(i) == Approx(want).margin(2e-6).epsilon(1e-5));
      }
    }
  }
}
