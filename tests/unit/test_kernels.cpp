// test_kernels.cpp — the SIMD kernels against their scalar references, and the kernels' contracts.
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/attention/kernels.h"
#include "core/attention/montecarlo.h"
#include "unit_helpers.h"

using attn::Mat;
using unit::random_mat;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
const int kSizes[] = {1, 3, 5, 17, 63, 130};

}  // namespace

TEST_CASE("simd_is_wasm128 reports the build", "[kernels]") {
#ifdef __wasm_simd128__
  CHECK(attn::simd_is_wasm128());
#else
  CHECK_FALSE(attn::simd_is_wasm128());
#endif
}

TEST_CASE("scores: SIMD matches scalar on odd shapes", "[kernels]") {
  attn::Rng rng(101);
  int idx = 0;
  for (int n : kSizes)
    for (int m : kSizes) {
      const int d = kSizes[(idx++) % 6];
      const Mat Q = random_mat(rng, n, d);
      const Mat K = random_mat(rng, m, d);
      const float alpha = 0.37f;
      Mat S1, S2;
      attn::scores_scalar(Q, K, alpha, S1);
      attn::scores_simd(Q, K, alpha, S2);
      REQUIRE(S1.rows() == n);
      REQUIRE(S1.cols() == m);
      REQUIRE(S2.rows() == n);
      REQUIRE(S2.cols() == m);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j) {
          // Two float summation orders differ by at most ≈ d·2^-24·Σ|q_t k_t| (7.7e-6 of that
          // sum at d = 130), so 1e-5 relative to Σ|q_t k_t| is the spec's tolerance made safe
          // for sums that cancel to near zero.
          const double mag = alpha * (Q.row(i).cwiseAbs().dot(K.row(j).cwiseAbs())) + 1e-30;
          INFO("n=" << n << " m=" << m << " d=" << d << " i=" << i << " j=" << j);
          CHECK(std::abs(S1(i, j) - S2(i, j)) <= 1e-5 * mag);
        }
    }
}

TEST_CASE("scores: scalar kernel is the plain definition", "[kernels]") {
  const Mat Q = (Mat(2, 3) << 1, 2, 3, -1, 0, 2).finished();
  const Mat K = (Mat(2, 3) << 0, 1, 0, 4, 5, 6).finished();
  Mat S;
  attn::scores_scalar(Q, K, 2.0f, S);
  // Small integers: every product and sum is exact in float.
  CHECK(S(0, 0) == 4.0f);
  CHECK(S(0, 1) == 2.0f * (4 + 10 + 18));
  CHECK(S(1, 0) == 0.0f);
  CHECK(S(1, 1) == 2.0f * (-4 + 0 + 12));
}

TEST_CASE("softmax: SIMD matches scalar, with masked cells and fully masked rows", "[kernels]") {
  attn::Rng rng(202);
  for (int n : kSizes)
    for (int m : kSizes) {
      Mat A = random_mat(rng, n, m, 4.0);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j)
          if (rng.uniform() < 0.2) A(i, j) = -kInf;
      if (n > 2) A.row(1).setConstant(-kInf);  // one fully masked row
      Mat B = A, C = A;
      attn::softmax_rows_scalar(B);
      attn::softmax_rows_simd(C);
      for (int i = 0; i < n; ++i) {
        double sum_b = 0, sum_c = 0;
        bool any_active = false;
        for (int j = 0; j < m; ++j) {
          // 1e-5 relative is the spec's agreement; the 1e-30 floor covers weights below
          // e^-87 ≈ 1.6e-38, which the vectorised exps flush to 0 and std::exp keeps.
          CHECK(std::abs(B(i, j) - C(i, j)) <= 1e-5 * std::max(B(i, j), C(i, j)) + 1e-30);
          if (A(i, j) == -kInf) {
            CHECK(B(i, j) == 0.0f);  // masked weights are exactly zero, not merely small
            CHECK(C(i, j) == 0.0f);
          } else {
            any_active = true;
          }
          sum_b += B(i, j);
          sum_c += C(i, j);
        }
        // Float normalisation of ≤ 130 terms: the sum is 1 within a few float ulps each.
        CHECK(sum_b == Approx(any_active ? 1.0 : 0.0).margin(1e-5));
        CHECK(sum_c == Approx(any_active ? 1.0 : 0.0).margin(1e-5));
      }
    }
}

TEST_CASE("softmax: extreme logits stay finite", "[kernels]") {
  for (int variant = 0; variant < 2; ++variant) {
    auto run = [&](Mat& A) {
      if (variant == 0)
        attn::softmax_rows_scalar(A);
      else
        attn::softmax_rows_simd(A);
    };
    {
      INFO((variant == 0 ? "scalar" : "simd"));
      // ±1e30: the maximum subtraction leaves 0 and −2e30, whose exp is exactly 0.
      Mat A = (Mat(1, 5) << 1e30f, -1e30f, 0.0f, 1e30f, -kInf).finished();
      run(A);
      CHECK(A.allFinite());
      CHECK(A(0, 0) == 0.5f);
      CHECK(A(0, 3) == 0.5f);
      CHECK(A(0, 1) == 0.0f);
      CHECK(A(0, 2) == 0.0f);
      CHECK(A(0, 4) == 0.0f);

      // +inf (an overflowed logit) is a hard maximum shared between the tied entries.
      Mat B = (Mat(1, 6) << 3.0f, kInf, -kInf, kInf, kInf, 1e30f).finished();
      run(B);
      CHECK(B.allFinite());
      CHECK(B(0, 1) == Approx(1.0 / 3));
      CHECK(B(0, 3) == B(0, 1));
      CHECK(B(0, 4) == B(0, 1));
      CHECK(B(0, 0) == 0.0f);
      CHECK(B(0, 5) == 0.0f);

      // NaN is never a maximum and gets weight 0.
      Mat C = (Mat(1, 5) << std::nanf(""), 0.0f, 0.0f, std::nanf(""), 0.0f).finished();
      run(C);
      CHECK(C.allFinite());
      CHECK(C(0, 0) == 0.0f);
      CHECK(C(0, 3) == 0.0f);
      // Three equal logits: float exp(0)=1 each, 1/3 per entry to within an ulp.
      CHECK(C(0, 1) == Approx(1.0 / 3).epsilon(1e-6));

      // All −inf: the fully masked row is zero.
      Mat D = Mat::Constant(2, 7, -kInf);
      run(D);
      CHECK((D.array() == 0.0f).all());
    }
  }
}

TEST_CASE("softmax: SIMD exp is accurate across the range", "[kernels]") {
  // Two entries [0, x]: weight of the second is e^x / (1 + e^x); check the vectorised exp over
  // x in [−87, 0] against double precision.
  for (int variant = 0; variant < 2; ++variant)
    for (double x = -87.0; x <= 0.0; x += 0.173) {
      Mat A(1, 2);
      A << 0.0f, static_cast<float>(x);
      if (variant == 0)
        attn::softmax_rows_scalar(A);
      else
        attn::softmax_rows_simd(A);
      const double xf = static_cast<float>(x);
      const double want = std::exp(xf) / (1.0 + std::exp(xf));
      INFO("x=" << x << " variant=" << variant);
      // ~1e-6 relative is what the range-reduced polynomial promises (a few float ulps after
      // the normalising division).
      CHECK(std::abs(A(0, 1) - want) <= 1e-6 * want);
    }
}

TEST_CASE("softmax: logits far below the maximum get weight exactly 0", "[kernels]") {
  // The SIMD exp flushes e^x under ≈ 2^-126 to exactly 0 (it clamps its input and lets the exponent
  // field reach 0), so the maximum keeps exactly all the weight: no garbage from x ≪ −87. std::exp keeps
  // the denormals.
  for (int variant = 0; variant < 2; ++variant)
    for (const float x : {-88.0f, -90.0f, -103.9f, -1e4f, -3e38f}) {
      Mat A(1, 2);
      A << 0.0f, x;
      (variant == 0 ? attn::softmax_rows_scalar : attn::softmax_rows_simd)(A);
      INFO("x=" << x << " variant=" << variant);
      CHECK(A(0, 0) == 1.0f);
      if (variant == 0)
        CHECK(A(0, 1) < 1e-37f);
      else
        CHECK(A(0, 1) == 0.0f);
    }
}

namespace {

// The fused pass and the chained scalar kernels on one problem: weights within 1e-4 relative (the fused
// exponentials work on base-2 logits, whose float rounding moves e^x by ≈ |x|·1e-7 relative), outputs
// within 2e-5 of Σ|a v| (summation order and those weights).
void check_attention(const Mat& Q, const Mat& K, const Mat& V, float alpha) {
  Mat Z1, Z2, W1, W2, Z3;
  attn::attention_scalar(Q, K, V, alpha, Z1, &W1);
  attn::attention_simd(Q, K, V, alpha, Z2, &W2);
  attn::attention_simd(Q, K, V, alpha, Z3);  // without the weights: the same outputs
  REQUIRE(Z2.rows() == Q.rows());
  REQUIRE(Z2.cols() == V.cols());
  REQUIRE(W2.rows() == Q.rows());
  REQUIRE(W2.cols() == K.rows());
  CHECK(Z2 == Z3);
  for (int i = 0; i < Q.rows(); ++i) {
    for (int j = 0; j < K.rows(); ++j) CHECK(std::abs(W1(i, j) - W2(i, j)) <= 1e-4 * W1(i, j) + 1e-30);
    for (int t = 0; t < V.cols(); ++t) {
      double mag = 1e-30;
      for (int j = 0; j < K.rows(); ++j) mag += std::abs(W1(i, j) * V(j, t));
      CHECK(std::abs(Z1(i, t) - Z2(i, t)) <= 2e-5 * mag);
    }
  }
}

}  // namespace

TEST_CASE("attention: the fused SIMD pass matches the chained scalar kernels", "[kernels]") {
  // Ragged edges everywhere: query blocks of 4 with 1–3 left, key panels of 8, value widths ≤ 4 (the
  // narrow product) and above, d_k from 1 to 257, rows of one key and of 2053.
  attn::Rng rng(909);
  const std::array<int, 4> shapes[] = {{1, 1, 1, 1},    {5, 3, 3, 3},     {6, 17, 4, 2},
                                       {13, 41, 5, 19}, {64, 64, 16, 16}, {37, 300, 64, 64},
                                       {5, 2053, 3, 4}, {130, 9, 257, 8}, {7, 515, 16, 4}};
  for (const auto& [n, m, d, dv] : shapes) {
    INFO("n=" << n << " m=" << m << " d=" << d << " dv=" << dv);
    check_attention(random_mat(rng, n, d), random_mat(rng, m, d), random_mat(rng, m, dv),
                    1.0f / std::sqrt(static_cast<float>(d)));
  }
  // Sharp rows: scores spread over ±80, so weights span the exponentials' whole range.
  check_attention(random_mat(rng, 9, 8, 6.0), random_mat(rng, 70, 8, 6.0), random_mat(rng, 70, 5), 1.0f);
}

TEST_CASE("attention: the fused pass keeps the softmax's rules for non-finite scores and values", "[kernels]") {
  // An overflowed score (+inf: a hard maximum), −inf and NaN scores (weight 0) and a non-finite value row
  // under a zero weight: the fused pass hands these rows to the chained kernels' rules.
  const Mat Q = (Mat(3, 2) << 1e30f, 0.0f, -1e30f, 0.0f, 1e30f, 1e30f).finished();
  const Mat K = (Mat(4, 2) << 1e30f, 0.0f, 1.0f, 0.0f, 1e30f, -1e30f, 0.0f, 0.0f).finished();
  const Mat V = (Mat(4, 3) << 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, 0, 1).finished();
  Mat Z1, Z2, W1, W2;
  attn::attention_scalar(Q, K, V, 1.0f, Z1, &W1);
  attn::attention_simd(Q, K, V, 1.0f, Z2, &W2);
  CHECK(Z2.allFinite());
  CHECK(W2.allFinite());
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) CHECK(W2(i, j) == Approx(W1(i, j)).margin(1e-7));
  CHECK(W2(0, 0) == 0.5f);  // two +inf scores: the weight shared between them
  CHECK(W2(0, 2) == 0.5f);
  CHECK(W2(1, 0) == 0.0f);  // −inf score: none
  CHECK(W2(2, 0) == 1.0f);  // +inf beside an inf − inf = NaN score, which gets none
  CHECK(W2(2, 2) == 0.0f);
  for (int i = 0; i < 3; ++i)
    for (int t = 0; t < 3; ++t) CHECK(Z2(i, t) == Approx(Z1(i, t)).margin(1e-6));

  const Mat Qf = (Mat(1, 1) << 1.0f).finished(), Kf = (Mat(2, 1) << 0.0f, -1e30f).finished();
  const Mat Vf = (Mat(2, 2) << 1.0f, 2.0f, std::numeric_limits<float>::infinity(), 0.0f).finished();
  attn::attention_simd(Qf, Kf, Vf, 1.0f, Z2);  // the second key's weight is 0: its inf must not leak
  CHECK(Z2(0, 0) == 1.0f);
  CHECK(Z2(0, 1) == 2.0f);
}

TEST_CASE("attention: the fused pass's exponential has a bounded relative error over the softmax's range",
          "[kernels]") {
  // Two keys with scores 0 and x (d = 1, alpha = 1): the weights are 1/(1 + e^x) and e^x/(1 + e^x). The
  // fused pass computes 2^(x·log2 e) with x·log2 e rounded to float: relative error ≤ 2·10⁻⁷ + |x|·10⁻⁷
  // (1.6·10⁻⁵ at x = −87; the chained softmax is within 10⁻⁶ there). Below x ≈ −87.7 the weight is
  // exactly 0 and the maximum's exactly 1; at x = 0 both are exactly 1/2.
  const Mat Q = (Mat(1, 1) << 1.0f).finished(), V = (Mat(2, 1) << 0.0f, 1.0f).finished();
  Mat Z, W;
  for (double x = -87.0; x <= 0.0; x += 0.0173) {
    const float xf = static_cast<float>(x);
    attn::attention_simd(Q, (Mat(2, 1) << 0.0f, xf).finished(), V, 1.0f, Z, &W);
    const double e = std::exp(static_cast<double>(xf));
    INFO("x=" << xf);
    CHECK(std::abs(W(0, 1) - e / (1 + e)) <= (2e-7 + std::abs(xf) * 1e-7) * (e / (1 + e)));
    CHECK(std::abs(W(0, 0) - 1 / (1 + e)) <= 2e-7 / (1 + e));
    CHECK(std::abs(Z(0, 0) - e / (1 + e)) <= (2e-7 + std::abs(xf) * 1e-7) * (e / (1 + e)));
  }
  for (const float x : {-88.0f, -90.0f, -1e4f, -3e38f}) {
    attn::attention_simd(Q, (Mat(2, 1) << 0.0f, x).finished(), V, 1.0f, Z, &W);
    INFO("x=" << x);
    CHECK(W(0, 1) == 0.0f);
    CHECK(W(0, 0) == 1.0f);
    CHECK(Z(0, 0) == 0.0f);
  }
  attn::attention_simd(Q, (Mat(2, 1) << 0.0f, 0.0f).finished(), V, 1.0f, Z, &W);
  CHECK(W(0, 0) == 0.5f);
  CHECK(W(0, 1) == 0.5f);
}

TEST_CASE("weighted sum: SIMD matches scalar and skips zero weights", "[kernels]") {
  attn::Rng rng(303);
  int idx = 0;
  for (int n : kSizes)
    for (int m : kSizes) {
      const int dv = kSizes[(idx++ + 2) % 6];
      Mat A = random_mat(rng, n, m).cwiseAbs();
      Mat V = random_mat(rng, m, dv);
      // Zero some weights and put non-finite values in exactly those keys' value rows for the
      // rows that don't use them: every row zeroes the same column, so the key is unused.
      const int dead = m / 2;
      A.col(dead).setZero();
      V.row(dead).setConstant(kInf);
      V(dead, 0) = -kInf;
      Mat Z1, Z2;
      attn::weighted_sum_scalar(A, V, Z1);
      attn::weighted_sum_simd(A, V, Z2);
      REQUIRE(Z1.rows() == n);
      REQUIRE(Z1.cols() == dv);
      REQUIRE(Z2.rows() == n);
      REQUIRE(Z2.cols() == dv);
      CHECK(Z1.allFinite());
      CHECK(Z2.allFinite());
      for (int i = 0; i < n; ++i)
        for (int t = 0; t < dv; ++t) {
          double mag = 1e-30;
          for (int j = 0; j < m; ++j)
            if (j != dead) mag += std::abs(A(i, j) * V(j, t));
          // Same bound as for the scores: summation order only, ≤ m·2^-24 relative to Σ|a v|.
          CHECK(std::abs(Z1(i, t) - Z2(i, t)) <= 1e-5 * mag);
        }
    }
}

TEST_CASE("weighted sum: finite path equals the skipping path exactly for zero weights", "[kernels]") {
  // A masked key with a huge but finite value row must not change any bit of the output.
  Mat A = (Mat(2, 3) << 0.25f, 0.0f, 0.75f, 0.5f, 0.0f, 0.5f).finished();
  Mat V1 = (Mat(3, 2) << 1, 2, 3, 4, 5, 6).finished();
  Mat V2 = V1;
  V2.row(1) << 3e38f, -3e38f;
  Mat Z1, Z2, Z3, Z4;
  attn::weighted_sum_simd(A, V1, Z1);
  attn::weighted_sum_simd(A, V2, Z2);
  attn::weighted_sum_scalar(A, V1, Z3);
  attn::weighted_sum_scalar(A, V2, Z4);
  CHECK(Z1 == Z2);
  CHECK(Z3 == Z4);
  // Exact binary fractions: 0.25·1 + 0.75·5 = 4, 0.25·2 + 0.75·6 = 5, (1+5)/2 = 3, (2+6)/2 = 4.
  CHECK(Z1(0, 0) == 4.0f);
  CHECK(Z1(0, 1) == 5.0f);
  CHECK(Z1(1, 0) == 3.0f);
  CHECK(Z1(1, 1) == 4.0f);
}

TEST_CASE("kernels: empty dimensions give empty or zero results", "[kernels]") {
  attn::Rng rng(404);
  const Mat Q = random_mat(rng, 5, 0), K = random_mat(rng, 9, 0);
  Mat S1, S2;
  attn::scores_scalar(Q, K, 1.0f, S1);
  attn::scores_simd(Q, K, 1.0f, S2);
  REQUIRE(S2.rows() == 5);
  REQUIRE(S2.cols() == 9);
  CHECK(S1 == S2);
  CHECK((S2.array() == 0.0f).all());  // an empty dot product is 0

  Mat S3;
  attn::scores_simd(random_mat(rng, 0, 4), random_mat(rng, 3, 4), 1.0f, S3);
  CHECK(S3.rows() == 0);
  CHECK(S3.cols() == 3);

  const Mat A(6, 0), V(0, 7);
  Mat Z1, Z2;
  attn::weighted_sum_scalar(A, V, Z1);
  attn::weighted_sum_simd(A, V, Z2);
  REQUIRE(Z2.rows() == 6);
  REQUIRE(Z2.cols() == 7);
  CHECK((Z2.array() == 0.0f).all());  // no keys: nothing to add
  CHECK(Z1 == Z2);
}

TEST_CASE("kernels: SIMD matches scalar at attention sizes", "[kernels]") {
  // Larger than the odd-shape sweep: many full register tiles plus ragged edges in every
  // dimension (rows mod 4, keys and values mod 8), both product kernels and the softmax chained.
  attn::Rng rng(505);
  for (const auto& [n, m, d] : {std::array<int, 3>{37, 300, 64}, {64, 64, 64}, {5, 2053, 3}, {130, 9, 257}}) {
    const Mat Q = random_mat(rng, n, d), K = random_mat(rng, m, d), V = random_mat(rng, m, d);
    const float alpha = 1.0f / std::sqrt(static_cast<float>(d));
    Mat S1, S2;
    attn::scores_scalar(Q, K, alpha, S1);
    attn::scores_simd(Q, K, alpha, S2);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j) {
        const double mag = alpha * Q.row(i).cwiseAbs().dot(K.row(j).cwiseAbs()) + 1e-30;
        INFO("n=" << n << " m=" << m << " d=" << d << " i=" << i << " j=" << j);
        REQUIRE(std::abs(S1(i, j) - S2(i, j)) <= 1e-5 * mag);
      }
    attn::softmax_rows_scalar(S1);
    attn::softmax_rows_simd(S2);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j) REQUIRE(std::abs(S1(i, j) - S2(i, j)) <= 1e-4 * S1(i, j) + 1e-30);
    Mat Z1, Z2;
    attn::weighted_sum_scalar(S1, V, Z1);
    attn::weighted_sum_simd(S1, V, Z2);
    for (int i = 0; i < n; ++i)
      for (int t = 0; t < d; ++t) {
        double mag = 1e-30;
        for (int j = 0; j < m; ++j) mag += std::abs(S1(i, j) * V(j, t));
        REQUIRE(std::abs(Z1(i, t) - Z2(i, t)) <= 1e-5 * mag);
      }
  }
}

TEST_CASE("weighted sum: large masked value rows cannot reach the output", "[kernels]") {
  // Every other key is masked (weight 0); their value rows hold ±3e38 (finite: the tiled path)
  // or ±inf (non-finite: the skipping path). Both must give the scalar result, without NaN.
  attn::Rng rng(606);
  for (const float big : {3e38f, kInf}) {
    const int n = 13, m = 41, dv = 19;
    Mat A = random_mat(rng, n, m).cwiseAbs();
    Mat V = random_mat(rng, m, dv);
    for (int j = 1; j < m; j += 2) {
      A.col(j).setZero();
      V.row(j).setConstant(j % 4 == 1 ? big : -big);
    }
    Mat Z1, Z2;
    attn::weighted_sum_scalar(A, V, Z1);
    attn::weighted_sum_simd(A, V, Z2);
    INFO("big=" << big);
    CHECK(Z2.allFinite());
    for (int i = 0; i < n; ++i)
      for (int t = 0; t < dv; ++t) {
        double mag = 1e-30;
        for (int j = 0; j < m; j += 2) mag += std::abs(A(i, j) * V(j, t));
        CHECK(std::abs(Z1(i, t) - Z2(i, t)) <= 1e-5 * mag);
      }
  }
}

#ifdef __wasm_simd128__
TEST_CASE("wasm kernels sum in the scalar twins' order", "[kernels]") {
  // The register tiles accumulate each output over t (scores) or j (weighted sum) in order, with
  // mul + add (no FMA in wasm SIMD128), so they reproduce the scalar twins bit for bit.
  // Reductions of 70 and 45 steps fit one pass; 600 and 700 take several (partial sums are stored
  // and reloaded between passes, which must not change the order either).
  attn::Rng rng(707);
  for (const auto& [n, m, d] : {std::array<int, 3>{23, 45, 70}, {9, 700, 600}}) {
    const Mat Q = random_mat(rng, n, d), K = random_mat(rng, m, d);
    Mat S1, S2;
    attn::scores_scalar(Q, K, 0.3f, S1);
    attn::scores_simd(Q, K, 0.3f, S2);
    CHECK(S1 == S2);
    const Mat A = random_mat(rng, n, m).cwiseAbs(), V = random_mat(rng, m, 29);
    Mat Z1, Z2;
    attn::weighted_sum_scalar(A, V, Z1);
    attn::weighted_sum_simd(A, V, Z2);
    CHECK(Z1 == Z2);
  }
}
#endif

namespace {

// op(X) of a stored matrix, as a plain matrix: the definition the matmul kernels are held against.
Mat op_of(const Mat& x, bool transposed) { return transposed ? Mat(x.transpose()) : x; }

}  // namespace

TEST_CASE("matmul: both twins compute op(A)·op(B), with strides, transposes and accumulation", "[kernels]") {
  // Shapes around the tile sizes (4 rows × 8 columns) and the reduction slice (256), in all four
  // transpose combinations; every operand and C are views into wider matrices (row stride > width),
  // and the columns past the view must come out untouched.
  attn::Rng rng(811);
  const std::array<int, 3> shapes[] = {{1, 1, 1},    {3, 7, 5}, {4, 8, 16}, {17, 9, 63}, {64, 16, 512},
                                       {5, 30, 300}, {0, 4, 3}, {4, 0, 3},  {6, 5, 0}};
  for (const auto& [m, n, k] : shapes)
    for (int combo = 0; combo < 8; ++combo) {
      const bool ta = combo & 1, tb = combo & 2, accumulate = combo & 4;
      const int pad = 3;  // extra columns beside each view
      const Mat A = random_mat(rng, ta ? k : m, (ta ? m : k) + pad);
      const Mat B = random_mat(rng, tb ? n : k, (tb ? k : n) + pad);
      const Mat C0 = random_mat(rng, m, n + pad);
      const Mat a = A.leftCols(ta ? m : k), b = B.leftCols(tb ? k : n);
      const Mat want = (accumulate ? Mat(C0.leftCols(n)) : Mat::Zero(m, n)) + op_of(a, ta) * op_of(b, tb);
      Mat mag = (accumulate ? Mat(C0.leftCols(n).cwiseAbs()) : Mat::Zero(m, n)) +
                op_of(a, ta).cwiseAbs() * op_of(b, tb).cwiseAbs();
      for (int twin = 0; twin < 2; ++twin) {
        Mat C = C0;
        const attn::MatmulOperand oa{A.data(), static_cast<long>(A.cols()), ta};
        const attn::MatmulOperand ob{B.data(), static_cast<long>(B.cols()), tb};
        (twin ? attn::matmul_simd : attn::matmul_scalar)(m, n, k, oa, ob, C.data(), static_cast<long>(C.cols()),
                                                         accumulate);
        INFO("m=" << m << " n=" << n << " k=" << k << " ta=" << ta << " tb=" << tb << " acc=" << accumulate
                  << (twin ? " simd" : " scalar"));
        for (int i = 0; i < m; ++i) {
          // Float sums in two orders differ by at most ≈ k·2^-24 of Σ|terms| (3e-5 at k = 512).
          for (int j = 0; j < n; ++j) CHECK(std::abs(C(i, j) - want(i, j)) <= 4e-5 * (mag(i, j) + 1e-30));
          for (int j = n; j < n + pad; ++j) CHECK(C(i, j) == C0(i, j));
        }
      }
    }
}

#ifdef __wasm_simd128__
TEST_CASE("wasm matmul sums in the scalar twin's order", "[kernels]") {
  // Same order, mul + add, no FMA: the tiles reproduce the scalar twin bit for bit, also across the
  // 256-step reduction slices and when the sum starts from C.
  attn::Rng rng(812);
  for (const auto& [m, n, k] : {std::array<int, 3>{13, 21, 70}, {64, 64, 512}, {7, 3, 600}})
    for (int combo = 0; combo < 8; ++combo) {
      const bool ta = combo & 1, tb = combo & 2, accumulate = combo & 4;
      const Mat A = random_mat(rng, ta ? k : m, ta ? m : k), B = random_mat(rng, tb ? n : k, tb ? k : n);
      const Mat C0 = random_mat(rng, m, n);
      Mat C1 = C0, C2 = C0;
      attn::matmul_scalar(m, n, k, {A.data(), static_cast<long>(A.cols()), ta},
                          {B.data(), static_cast<long>(B.cols()), tb}, C1.data(), n, accumulate);
      attn::matmul_simd(m, n, k, {A.data(), static_cast<long>(A.cols()), ta},
                        {B.data(), static_cast<long>(B.cols()), tb}, C2.data(), n, accumulate);
      INFO("m=" << m << " n=" << n << " k=" << k << " combo=" << combo);
      CHECK(C1 == C2);
    }
}
#endif
