// test_exercise_show.cpp — "Show me": the arithmetic of one cell, against the definitions.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/exercise/exercise.h"
#include "exercise_reference.h"

using namespace attn::exercise;
using exref::MatD;

namespace {

Exercise cat_sat_mat() {
  Exercise ex;
  REQUIRE(note_exercise("note-cat-sat-mat", ex).empty());
  return ex;
}

CellBreakdown shown(const Exercise& ex, Stage s, int i, int j) {
  CellBreakdown b;
  const std::string err = show_cell(ex, s, i, j, b);
  INFO(err);
  REQUIRE(err.empty());
  return b;
}

}  // namespace

TEST_CASE("show me: a softmax cell gives the row's exps and their sum", "[exercise]") {
  const Exercise ex = cat_sat_mat();
  const CellBreakdown b = shown(ex, Stage::Weights, 0, 0);
  // Row "cat" of L is [1/√2, 0, 1/√2]: exps [e^0.7071, 1, e^0.7071] = [2.0281, 1, 2.0281], sum 5.0562.
  const double c = std::exp(1 / std::sqrt(2.0));
  CHECK(b.kind == BreakdownKind::Softmax);
  REQUIRE(b.row_exps.size() == 3);
  CHECK(b.row_logits[0] == Approx(1 / std::sqrt(2.0)).margin(1e-6));
  CHECK(b.row_exps[0] == Approx(c).margin(1e-5));
  CHECK(b.row_exps[1] == Approx(1).margin(1e-6));
  CHECK(b.exp_sum == Approx(2 * c + 1).margin(1e-5));
  CHECK(b.value == Approx(c / (2 * c + 1)).margin(1e-6));
  CHECK(b.shift == 0);
  CHECK(b.text.find("2.0281") != std::string::npos);
  CHECK(b.text.find("5.0562") != std::string::npos);
  CHECK(b.text.find("0.4011") != std::string::npos);
}

TEST_CASE("show me: dot products, scaling and the weighted sum", "[exercise]") {
  const Exercise ex = cat_sat_mat();
  // Q = K = [[1, 0], [0, 1], [1, 1]] (X·W_Q of the note).
  const CellBreakdown s = shown(ex, Stage::Scores, 2, 2);
  CHECK(s.kind == BreakdownKind::DotProduct);
  REQUIRE(s.terms.size() == 2);
  CHECK(s.terms[0].a == 1);
  CHECK(s.terms[0].b == 1);
  CHECK(s.terms[0].a_label == "Q[3,1]");
  CHECK(s.terms[0].b_label == "K[3,1]");
  CHECK(s.value == 2);
  CHECK(s.text.find("query “mat”, key “mat”") != std::string::npos);

  const CellBreakdown l = shown(ex, Stage::Scaled, 2, 2);
  CHECK(l.kind == BreakdownKind::Scale);
  CHECK(l.score == 2);
  CHECK(l.d_k == 2);
  CHECK(l.value == Approx(std::sqrt(2.0)).margin(1e-6));
  CHECK(l.text.find("2 ÷ √2") != std::string::npos);

  // Output "cat", column 1: A_cat·[2, 0, 2] = 4·0.40114 = 1.6046.
  const double c = std::exp(1 / std::sqrt(2.0)), w0 = c / (2 * c + 1);
  const CellBreakdown z = shown(ex, Stage::Output, 0, 0);
  CHECK(z.kind == BreakdownKind::WeightedSum);
  REQUIRE(z.terms.size() == 3);
  CHECK(z.terms[0].b == 2);
  CHECK(z.terms[1].b == 0);
  CHECK(z.terms[2].b == 2);
  CHECK(z.terms[0].a_label == "A[1,1]");
  CHECK(z.terms[2].b_label == "V[3,1]");
  CHECK(z.value == Approx(4 * w0).margin(1e-5));

  const CellBreakdown v = shown(ex, Stage::V, 0, 0);
  CHECK(v.kind == BreakdownKind::Given);
  CHECK(v.value == 2);

  const CellBreakdown q = shown(ex, Stage::Q, 1, 1);  // row "sat" of X = [0, 1, 0, 1], column 2 of W_Q = [0, 1, 0, 0]
  CHECK(q.kind == BreakdownKind::Projection);
  REQUIRE(q.terms.size() == 4);
  CHECK(q.terms[1].a_label == "X[2,2]");
  CHECK(q.terms[1].b_label == "W_Q[2,2]");
  CHECK(q.terms[1].product == 1);
  CHECK(q.value == 1);
}

TEST_CASE("show me with the learner's own earlier numbers", "[exercise]") {
  Exercise ex;
  REQUIRE(generate_exercise(17, ex).empty());
  const exref::Pipeline p = exref::pipeline_of(ex);
  Answers a = blank_answers(ex);
  MatD Q = p.Q;
  Q(0, 1) += 1;
  exref::type_stage(a, Stage::Q, Q, 2);
  CellBreakdown b;
  REQUIRE(show_cell(ex, a, Stage::Scores, 0, 1, b).empty());
  CHECK(b.value == Approx(Q(0, 0) * p.K(1, 0) + Q(0, 1) * p.K(1, 1)).margin(1e-9));
  REQUIRE(show_cell(ex, Stage::Scores, 0, 1, b).empty());
  CHECK(b.value == Approx(p.S(0, 1)).margin(1e-6));
}

TEST_CASE("show me outside the stage is an error", "[exercise]") {
  const Exercise ex = cat_sat_mat();
  CellBreakdown b;
  CHECK(show_cell(ex, Stage::Scores, 3, 0, b).find("outside") != std::string::npos);
  CHECK(show_cell(ex, Stage::Output, 0, -1, b).find("outside") != std::string::npos);
}

TEST_CASE("show me writes negative factors in parentheses", "[exercise]") {
  ExerciseSpec spec;
  spec.Q = (attn::Mat(1, 2) << -1, 2).finished();
  spec.K = (attn::Mat(2, 2) << 0.5f, -0.5f, 1, 1).finished();
  spec.V = (attn::Mat(2, 1) << 1, 2).finished();
  Exercise ex;
  REQUIRE(make_exercise(spec, ex).empty());
  CellBreakdown b;
  REQUIRE(show_cell(ex, Stage::Scores, 0, 0, b).empty());
  CHECK(b.value == Approx(-1.5));  // −1·0.5 + 2·(−0.5)
  CHECK(b.text.find("(-1)×0.5 + 2×(-0.5)") != std::string::npos);
}
