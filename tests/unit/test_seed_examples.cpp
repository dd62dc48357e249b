// test_seed_examples.cpp — the seed articles' worked examples, with their misprints corrected.
// Every expected value is derived here in double precision (std::exp, std::tanh) or by hand;
// where a source prints a wrong number, the test holds the correct one and says what was printed.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "app/state/presets.h"
#include "app/state/state.h"
#include "core/attention/attention.h"
#include "core/attention/kernels.h"

using attn::Mat;
using attn::Scenario;

namespace {

attn::Result run(const Scenario& s) {
  attn::Result r;
  const std::string err = attn::compute(s, r);
  INFO("compute error: " << err);
  REQUIRE(err.empty());
  return r;
}

// softmax in double: the reference every weight below is checked against.
std::vector<double> softmax(const std::vector<double>& x) {
  double mx = x[0];
  for (double v : x) mx = std::max(mx, v);
  double sum = 0;
  std::vector<double> e;
  for (double v : x) {
    e.push_back(std::exp(v - mx));
    sum += e.back();
  }
  for (double& v : e) v /= sum;
  return e;
}

}  // namespace

// Float weights and outputs against double references: inputs are small exact values, so the
// only error is float rounding through exp and one normalisation, ≲ 1e-6 relative; 1e-6
// absolute margins on O(1) numbers say exactly that.
constexpr double kFloatTol = 1e-6;

TEST_CASE("seed 1: scaled dot-product example", "[seed]") {
  Scenario s;
  s.Q = (Mat(1, 4) << 1, 0, 1, 0).finished();
  s.K = (Mat(2, 4) << 1, 0, 1, 0, 0, 1, 0, 1).finished();
  s.V = (Mat(2, 3) << 5, 0, 0, 0, 3, 0).finished();
  const attn::Result r = run(s);
  CHECK(r.d_k == 4);
  // Scores [2, 0] and logits [2/√4, 0] = [1, 0]: exact in float.
  CHECK(r.main.scores(0, 0) == 2.0f);
  CHECK(r.main.scores(0, 1) == 0.0f);
  CHECK(r.main.logits(0, 0) == 1.0f);
  CHECK(r.main.logits(0, 1) == 0.0f);
  // Weights [e/(e+1), 1/(e+1)] = [0.7310586, 0.2689414] (printed 0.731, 0.269).
  const double e = std::exp(1.0);
  CHECK(r.main.weights(0, 0) == Approx(e / (e + 1)).margin(kFloatTol));
  CHECK(r.main.weights(0, 1) == Approx(1 / (e + 1)).margin(kFloatTol));
  CHECK(r.main.weights(0, 0) == Approx(0.731).margin(5e-4));  // as printed, to 3 decimals
  // Output 5·w0, 3·w1, 0 = [3.6552929, 0.8068243, 0] (printed 3.655, 0.807, 0).
  CHECK(r.output(0, 0) == Approx(5 * e / (e + 1)).margin(5 * kFloatTol));
  CHECK(r.output(0, 1) == Approx(3 / (e + 1)).margin(3 * kFloatTol));
  CHECK(r.output(0, 2) == 0.0f);
  CHECK(r.output(0, 0) == Approx(3.655).margin(5e-4));
  CHECK(r.output(0, 1) == Approx(0.807).margin(5e-4));
}

TEST_CASE("seed 2: 'The cat sat on the mat', raw scores X Xᵀ", "[seed]") {
  Scenario s;
  s.X = (Mat(6, 4) << 0.1f, 0.2f, 0.3f, 0.4f,  // The
         0.2f, 0.1f, 0.4f, 0.3f,               // cat
         0.4f, 0.3f, 0.2f, 0.1f,               // sat
         0.3f, 0.4f, 0.1f, 0.2f,               // on
         0.1f, 0.2f, 0.3f, 0.4f,               // the
         0.2f, 0.3f, 0.4f, 0.1f)               // mat
            .finished();
  s.tokens = {"The", "cat", "sat", "on", "the", "mat"};
  const attn::Result r = run(s);
  const Mat& S = r.main.scores;
  // Hand-computed dot products of the rows (exact decimals; float rounding of 0.1 etc. stays
  // below 1e-7, so 1e-6 separates correct from misprinted values by far).
  const double want[6][6] = {
      {.30, .28, .20, .22, .30, .24},  // The: printed correctly
      {.28, .30, .22, .20, .28, .26},  // cat
      {.20, .22, .30, .28, .20, .26},  // sat
      {.22, .20, .28, .30, .22, .24},  // on
      {.30, .28, .20, .22, .30, .24},  // the: printed correctly
      {.24, .26, .26, .24, .24, .30},  // mat: printed correctly
  };
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) {
      double dot = 0;
      for (int t = 0; t < 4; ++t) dot += static_cast<double>((*s.X)(i, t)) * (*s.X)(j, t);
      CHECK(dot == Approx(want[i][j]).margin(1e-6));  // the table above is X Xᵀ
      CHECK(S(i, j) == Approx(want[i][j]).margin(1e-6));
    }
  // The article's slips, each held at the correct value:
  CHECK(S(1, 0) == Approx(0.28).margin(1e-6));  // cat·The printed 0.29
  CHECK(S(1, 2) == Approx(0.22).margin(1e-6));  // cat·sat printed 0.23
  CHECK(S(1, 3) == Approx(0.20).margin(1e-6));  // cat·on printed 0.21
  CHECK(S(2, 1) == Approx(0.22).margin(1e-6));  // sat·cat printed 0.23
  CHECK(S(2, 3) == Approx(0.28).margin(1e-6));  // sat·on printed 0.29
  CHECK(S(3, 1) == Approx(0.20).margin(1e-6));  // on·cat printed 0.21
  CHECK(S(3, 2) == Approx(0.28).margin(1e-6));  // on·sat printed 0.29
  // Identity projections: Q = K = V = X, and the scores are symmetric.
  CHECK(r.main.Q == *s.X);
  CHECK(r.main.V == *s.X);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) CHECK(S(i, j) == Approx(S(j, i)).margin(1e-7));
  // The article's later "low score" (The→cat 0.05) and "high score" (The→cat 0.90) passages are
  // hypothetical: with its own embeddings (scaled by 1/√4) the weights of "The" are nearly uniform.
  const double z = std::exp(0.15) * 2 + std::exp(0.14) + std::exp(0.10) + std::exp(0.11) + std::exp(0.12);
  CHECK(r.main.weights(0, 1) == Approx(std::exp(0.14) / z).margin(1e-6));
  CHECK(r.main.weights(0, 1) == Approx(0.1686).margin(1e-4));
  CHECK(r.main.weights(0, 0) == Approx(0.1703).margin(1e-4));
  CHECK(r.main.weights(0, 2) == Approx(0.1620).margin(1e-4));
  CHECK(r.main.weights(0, 5) == Approx(0.1653).margin(1e-4));
}

TEST_CASE("seed 3: Bahdanau softmax of [0.3, 2.1, 0.5]", "[seed]") {
  const std::vector<double> logits = {0.3, 2.1, 0.5};
  const std::vector<double> want = softmax(logits);  // [0.1209, 0.7314, 0.1477]
  // The note prints 0.12, 0.73, 0.15 and the denominator e^.3 + e^2.1 + e^.5 = 11.165: correct.
  CHECK(std::exp(0.3) + std::exp(2.1) + std::exp(0.5) == Approx(11.165).margin(5e-4));
  CHECK(want[0] == Approx(0.12).margin(5e-3));
  CHECK(want[1] == Approx(0.73).margin(5e-3));
  CHECK(want[2] == Approx(0.15).margin(5e-3));

  SECTION("as dot scores, unscaled") {
    Scenario s;
    s.Q = (Mat(1, 1) << 1).finished();
    s.K = (Mat(3, 1) << 0.3f, 2.1f, 0.5f).finished();
    s.V = Mat::Identity(3, 3);
    s.scale = false;
    const attn::Result r = run(s);
    for (int j = 0; j < 3; ++j) {
      CHECK(r.main.weights(0, j) == Approx(want[static_cast<size_t>(j)]).margin(kFloatTol));
      CHECK(r.output(0, j) == r.main.weights(0, j));  // V = I reads the weights out
    }
  }
  SECTION("as additive scores: 3·tanh(atanh(x)) with q = 0") {
    // d_a = 1, v_a = [3], W_a = U_a = [1], q = 0, k_j = atanh(score_j / 3): the additive
    // score v_a·tanh(q W_a + k U_a) is then exactly the wanted logit (up to float rounding of k).
    Scenario s;
    s.Q = (Mat(1, 1) << 0).finished();
    s.K = (Mat(3, 1) << static_cast<float>(std::atanh(0.1)), static_cast<float>(std::atanh(0.7)),
           static_cast<float>(std::atanh(0.5 / 3)))
              .finished();
    s.V = Mat::Identity(3, 3);
    s.score = attn::ScoreKind::Additive;
    s.W_a = (Mat(1, 1) << 1).finished();
    s.U_a = (Mat(1, 1) << 1).finished();
    s.v_a = attn::Vec::Constant(1, 3.0f);
    const attn::Result r = run(s);
    for (int j = 0; j < 3; ++j) {
      // atanh values rounded to float move the scores by ≲ 3e-7.
      CHECK(r.main.scores(0, j) == Approx(logits[static_cast<size_t>(j)]).margin(1e-6));
      CHECK(r.main.weights(0, j) == Approx(want[static_cast<size_t>(j)]).margin(kFloatTol));
    }
  }
  SECTION("additive path against a hand computation of v_aᵀ tanh(q W_a + k U_a)") {
    Scenario s;
    s.Q = (Mat(1, 2) << 0.5f, -1.0f).finished();
    s.K = (Mat(2, 2) << 1.0f, 0.0f, -0.5f, 2.0f).finished();
    s.V = (Mat(2, 1) << 10.0f, 20.0f).finished();
    s.score = attn::ScoreKind::Additive;
    s.W_a = (Mat(2, 3) << 0.1f, 0.2f, 0.3f, -0.4f, 0.5f, 0.0f).finished();
    s.U_a = (Mat(2, 3) << 0.7f, -0.1f, 0.2f, 0.3f, 0.0f, -0.6f).finished();
    s.v_a = (attn::Vec(3) << 1.0f, -2.0f, 0.5f).finished();
    // q W_a = [0.05 + 0.4, 0.1 − 0.5, 0.15] = [0.45, −0.4, 0.15]
    // k0 U_a = [0.7, −0.1, 0.2]; k1 U_a = [−0.35 + 0.6, 0.05, −0.1 − 1.2] = [0.25, 0.05, −1.3]
    const double s0 = std::tanh(0.45 + 0.7) - 2 * std::tanh(-0.4 - 0.1) + 0.5 * std::tanh(0.15 + 0.2);
    const double s1 = std::tanh(0.45 + 0.25) - 2 * std::tanh(-0.4 + 0.05) + 0.5 * std::tanh(0.15 - 1.3);
    const attn::Result r = run(s);
    // Float inputs like 0.1f differ from the decimals by ~1e-8; tanh' ≤ 1.
    CHECK(r.main.scores(0, 0) == Approx(s0).margin(1e-6));
    CHECK(r.main.scores(0, 1) == Approx(s1).margin(1e-6));
    CHECK(r.main.logits(0, 0) == r.main.scores(0, 0));  // additive scores are never scaled
    const std::vector<double> w = softmax({s0, s1});
    CHECK(r.output(0, 0) == Approx(10 * w[0] + 20 * w[1]).margin(20 * kFloatTol));
  }
}

TEST_CASE("seed 4: Hinglish self-attention example 1", "[seed]") {
  Scenario s;
  s.Q = (Mat(3, 2) << 1, 0, 0, 1, 1, 1).finished();
  s.K = *s.Q;
  s.V = (Mat(3, 2) << 2, 0, 0, 2, 2, 1).finished();
  const attn::Result r = run(s);
  // Q Kᵀ = [[1,0,1],[0,1,1],[1,1,2]]: exact small integers.
  const Mat qkt = (Mat(3, 3) << 1, 0, 1, 0, 1, 1, 1, 1, 2).finished();
  CHECK(r.main.scores == qkt);
  const double c = 1 / std::sqrt(2.0);
  const std::vector<double> row0 = softmax({c, 0, c});
  const std::vector<double> row2 = softmax({c, c, 2 * c});
  // Row 0: the note prints [0.5, 0.18, 0.5], which sums to 1.18; correct [0.4011, 0.1978, 0.4011].
  CHECK(row0[0] == Approx(0.4011).margin(5e-5));
  CHECK(row0[1] == Approx(0.1978).margin(5e-5));
  for (int j = 0; j < 3; ++j) CHECK(r.main.weights(0, j) == Approx(row0[static_cast<size_t>(j)]).margin(kFloatTol));
  // Row 2: the note prints [0.23, 0.23, 0.54]; correct [0.2483, 0.2483, 0.5035].
  CHECK(row2[0] == Approx(0.2483).margin(5e-5));
  CHECK(row2[2] == Approx(0.5035).margin(5e-5));
  for (int j = 0; j < 3; ++j) CHECK(r.main.weights(2, j) == Approx(row2[static_cast<size_t>(j)]).margin(kFloatTol));
  // Row 0 output = w0·[2,0] + w1·[0,2] + w2·[2,1] = [4·w0, 2·w1 + w0] = [1.6044, 0.7967].
  // The note prints [1.6, 0.8]: right to one decimal; the second entry is 0.7967, not 0.8000.
  const double out0 = 4 * row0[0], out1 = 2 * row0[1] + row0[0];
  CHECK(out0 == Approx(1.6044).margin(5e-5));
  CHECK(out1 == Approx(0.7967).margin(5e-5));
  CHECK(r.output(0, 0) == Approx(out0).margin(4 * kFloatTol));
  CHECK(r.output(0, 1) == Approx(out1).margin(4 * kFloatTol));

  SECTION("from X with projections") {
    Scenario p;
    p.X = (Mat(3, 4) << 1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0, 0).finished();
    p.W_q = (Mat(4, 2) << 1, 0, 0, 1, 0, 0, 0, 0).finished();
    p.W_k = *p.W_q;
    p.W_v = (Mat(4, 2) << 1, 0, 1, 0, 0, 1, 0, 1).finished();
    const attn::Result q = run(p);
    CHECK(q.main.Q == *s.Q);  // the projections reproduce the example's Q and K ...
    CHECK(q.main.K == *s.K);
    // ... but W_v gives V = [[1,1],[1,1],[2,0]], not the printed [[2,0],[0,2],[2,1]] (another
    // slip in the note).
    const Mat v_true = (Mat(3, 2) << 1, 1, 1, 1, 2, 0).finished();
    CHECK(q.main.V == v_true);
    CHECK(q.main.V != *s.V);
    CHECK(q.main.weights == r.main.weights);  // same Q, K: same weights
  }
}

TEST_CASE("seed 5: softmax of [0.3, 0.2, 0.5] is not the identity", "[seed]") {
  const std::vector<double> want = softmax({0.3, 0.2, 0.5});
  // The article claims softmax leaves [0.3, 0.2, 0.5] unchanged; it is [0.3199, 0.2894, 0.3907].
  CHECK(want[0] == Approx(0.3199).margin(5e-5));
  CHECK(want[1] == Approx(0.2894).margin(5e-5));
  CHECK(want[2] == Approx(0.3907).margin(5e-5));
  Mat a = (Mat(1, 3) << 0.3f, 0.2f, 0.5f).finished();
  Mat b = a;
  attn::softmax_rows_scalar(a);
  attn::softmax_rows_simd(b);
  Scenario s;
  s.Q = (Mat(1, 1) << 1).finished();
  s.K = (Mat(3, 1) << 0.3f, 0.2f, 0.5f).finished();
  s.V = Mat::Identity(3, 3);
  s.scale = false;
  const attn::Result r = run(s);
  for (int j = 0; j < 3; ++j) {
    const double w = want[static_cast<size_t>(j)];
    CHECK(a(0, j) == Approx(w).margin(kFloatTol));
    CHECK(b(0, j) == Approx(w).margin(kFloatTol));
    CHECK(r.main.weights(0, j) == Approx(w).margin(kFloatTol));
  }
  CHECK(r.main.weights(0, 0) != Approx(0.3).margin(0.01));  // what the article claimed
}

TEST_CASE("seed 6: distant dependency, 'sat' finds its subject five words back", "[seed]") {
  attn::State st;
  REQUIRE(attn::apply_preset(st, "distant-dependency"));
  CHECK(st.selected_row == 6);
  attn::Result r;
  REQUIRE(attn::compute(attn::build_scenario(st), r).empty());
  const attn::Mat& W = r.main.weights;
  REQUIRE(W.cols() == 10);
  // Scores of "sat": q = 3·[1, 1], k_cat = [1, 1], k_mat = [1, 0], k_which = [0, 0.3]; ÷ √2.
  const double e_cat = std::exp(6 / std::sqrt(2.0)), e_mat = std::exp(3 / std::sqrt(2.0)),
               e_which = std::exp(0.9 / std::sqrt(2.0));
  const double z = e_cat + e_mat + e_which + 7;  // seven keys score 0
  CHECK(W(6, 1) == Approx(e_cat / z).margin(1e-6));
  CHECK(W(6, 1) == Approx(0.8015).margin(1e-4));
  CHECK(W(6, 9) == Approx(0.0961).margin(1e-4));
  CHECK(W(6, 5) == Approx(1 / z).margin(1e-6));  // "fluffy", right next to "sat": the baseline
  Eigen::Index best = 0;
  W.row(6).maxCoeff(&best);
  CHECK(best == 1);
}
