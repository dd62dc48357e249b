// test_exercise_generator.cpp — numbered exercises: reproducible, friendly numbers, answers that match the math.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/exercise/exercise.h"
#include "exercise_reference.h"
#include "unit_helpers.h"

using unit::generated;
using namespace attn::exercise;
using exref::MatD;

namespace {

bool is_multiple_of(double v, double step) { return std::fabs(v / step - std::round(v / step)) < 1e-6; }

bool same_numbers(const Exercise& a, const Exercise& b) {
  return a.X == b.X && a.W_q == b.W_q && a.W_k == b.W_k && a.W_v == b.W_v && a.query_tokens == b.query_tokens;
}

}  // namespace

TEST_CASE("the generator's random numbers are SplitMix64", "[exercise]") {
  // The published reference sequence for seed 1234567 (Rosetta Code, "Pseudo-random numbers/Splitmix64"):
  // if this fails, every numbered exercise a teacher handed out has changed.
  SplitMix64 rng{1234567};
  CHECK(rng.next() == 6457827717110365317ull);
  CHECK(rng.next() == 3203168211198807973ull);
  CHECK(rng.next() == 9817491932198370423ull);
  CHECK(rng.next() == 4593380528125082431ull);
  CHECK(rng.next() == 16408922859458223821ull);
  SplitMix64 r2{42};
  for (int k = 0; k < 1000; ++k) {
    const int v = r2.below(5);
    REQUIRE(v >= 0);
    REQUIRE(v < 5);
  }
}

TEST_CASE("exercise 17 is the same every time; exercise 18 is another", "[exercise]") {
  const Exercise a = generated(17), b = generated(17), c = generated(18);
  CHECK(same_numbers(a, b));
  for (Stage s : kStages) CHECK(a.ref(s) == b.ref(s));
  CHECK(a.id == "exercise-17");
  CHECK(a.number == 17);
  CHECK(a.origin == Origin::Generated);
  CHECK_FALSE(same_numbers(a, c));
  CHECK(c.id == "exercise-18");
}

TEST_CASE("numbers outside the range are refused with a reason", "[exercise]") {
  Exercise ex;
  CHECK(generate_exercise(0, ex).find("outside") != std::string::npos);
  CHECK(generate_exercise(-5, ex).find("outside") != std::string::npos);
  CHECK(generate_exercise(kMaxExerciseNumber + 1, ex).find("outside") != std::string::npos);
  CHECK(generate_exercise(kMaxExerciseNumber, ex).empty());
}

TEST_CASE("generated exercises have friendly numbers and teach well", "[exercise]") {
  int distinct_from_previous = 0;
  Exercise previous;
  for (int number = 1; number <= 3000; ++number) {
    const Exercise ex = generated(number);
    REQUIRE(ex.X.rows() == 3);
    REQUIRE(ex.X.cols() == 4);
    for (const attn::Mat* w : {&ex.W_q, &ex.W_k, &ex.W_v}) {
      REQUIRE(w->rows() == 4);
      REQUIRE(w->cols() == 2);
    }
    for (Eigen::Index k = 0; k < ex.X.size(); ++k) {
      const double x = ex.X.data()[k];
      REQUIRE((is_multiple_of(x, 1) && x >= -1 && x <= 2));
    }
    for (Eigen::Index k = 0; k < 8; ++k) {
      for (const attn::Mat* w : {&ex.W_q, &ex.W_k}) {
        const double v = w->data()[k];
        REQUIRE((is_multiple_of(v, 0.5) && std::fabs(v) <= 1));  // one decimal
      }
      REQUIRE(is_multiple_of(ex.W_v.data()[k], 1));
    }
    for (Stage s : kStages) REQUIRE_FALSE(ex.is_given(s));
    REQUIRE(ex.d_k == 2);
    const exref::Pipeline p = exref::pipeline_of(ex);
    // Scores within ±4; every row has a spread of 1 to 3, so no row is near-uniform or saturated.
    for (int i = 0; i < 3; ++i) {
      const double spread = p.S.row(i).maxCoeff() - p.S.row(i).minCoeff();
      REQUIRE(spread >= 1 - 1e-9);
      REQUIRE(spread <= 3 + 1e-9);
      REQUIRE(p.A.row(i).maxCoeff() < 0.9);
    }
    REQUIRE(p.S.cwiseAbs().maxCoeff() <= 4 + 1e-9);
    REQUIRE((p.S - p.S.transpose()).cwiseAbs().maxCoeff() >= 1 - 1e-9);  // K·Qᵀ is visibly different
    if (number > 1 && !same_numbers(ex, previous)) ++distinct_from_previous;
    previous = ex;
  }
  CHECK(distinct_from_previous == 2999);
}

TEST_CASE("exercises after 999999 are 3 wide, so √d_model is not d_k; the numbers before are unchanged", "[exercise]") {
  // Appended after the 4-wide ones: every number handed out before keeps its exercise (the test above checks
  // 1…3000 are 4 wide; the last one still is).
  CHECK(kFirstThreeWideExercise == 1000000);
  CHECK(generated(kFirstThreeWideExercise - 1).X.cols() == 4);
  int distinct_from_previous = 0;
  Exercise previous;
  for (int number = kFirstThreeWideExercise; number < kFirstThreeWideExercise + 3000; ++number) {
    const Exercise ex = generated(number);
    CHECK(ex.id == "exercise-" + std::to_string(number));
    REQUIRE(ex.X.rows() == 3);
    REQUIRE(ex.X.cols() == 3);
    for (const attn::Mat* w : {&ex.W_q, &ex.W_k, &ex.W_v}) {
      REQUIRE(w->rows() == 3);
      REQUIRE(w->cols() == 2);
    }
    for (Eigen::Index k = 0; k < ex.X.size(); ++k) {
      const double x = ex.X.data()[k];
      REQUIRE((is_multiple_of(x, 1) && x >= -1 && x <= 2));
    }
    for (Eigen::Index k = 0; k < 6; ++k) {
      for (const attn::Mat* w : {&ex.W_q, &ex.W_k}) {
        const double v = w->data()[k];
        REQUIRE((is_multiple_of(v, 0.5) && std::fabs(v) <= 1));
      }
      REQUIRE(is_multiple_of(ex.W_v.data()[k], 1));
    }
    REQUIRE(ex.d_k == 2);  // √d_model = √3 ≈ 1.73: neither √d_k ≈ 1.41 nor d_k = 2
    const exref::Pipeline p = exref::pipeline_of(ex);
    for (int i = 0; i < 3; ++i) {
      const double spread = p.S.row(i).maxCoeff() - p.S.row(i).minCoeff();
      REQUIRE(spread >= 1 - 1e-9);
      REQUIRE(spread <= 3 + 1e-9);
      REQUIRE(p.A.row(i).maxCoeff() < 0.9);
    }
    REQUIRE(p.S.cwiseAbs().maxCoeff() <= 4 + 1e-9);
    REQUIRE((p.S - p.S.transpose()).cwiseAbs().maxCoeff() >= 1 - 1e-9);
    for (Stage s : kStages) REQUIRE((ex.ref(s).cast<double>() - p.at(s)).cwiseAbs().maxCoeff() < 1e-5);
    if (number > kFirstThreeWideExercise && !same_numbers(ex, previous)) ++distinct_from_previous;
    previous = ex;
  }
  CHECK(distinct_from_previous == 2999);
  CHECK(same_numbers(generated(1000017), generated(1000017)));
  CHECK(generated(kMaxExerciseNumber).X.cols() == 3);
}

TEST_CASE("generated answers agree with the math, with the decimals they need", "[exercise]") {
  for (int number = 1; number <= 300; ++number) {
    const Exercise ex = generated(number);
    const exref::Pipeline p = exref::pipeline_of(ex);
    for (Stage s : kStages) {
      INFO("exercise " << number << ", stage " << stage_id(s));
      const MatD got = ex.ref(s).cast<double>();
      REQUIRE(got.rows() == p.at(s).rows());
      REQUIRE(got.cols() == p.at(s).cols());
      CHECK((got - p.at(s)).cwiseAbs().maxCoeff() < 1e-5);
    }
    // Q, K: multiples of 0.5 (one decimal); V: integers (shown with one); QKᵀ: quarters need two unless all
    // are multiples of 0.1; the rest are rounded to two.
    CHECK(ex.decimals_of(Stage::Q) == 1);
    CHECK(ex.decimals_of(Stage::K) == 1);
    CHECK(ex.decimals_of(Stage::V) == 1);
    bool tenths = true;
    for (Eigen::Index k = 0; k < p.S.size(); ++k) tenths = tenths && is_multiple_of(p.S.data()[k], 0.1);
    CHECK(ex.decimals_of(Stage::Scores) == (tenths ? 1 : 2));
    CHECK(ex.decimals_of(Stage::Scaled) == 2);
    CHECK(ex.decimals_of(Stage::Weights) == 2);
    CHECK(ex.decimals_of(Stage::Output) == 2);
  }
}

TEST_CASE("worksheet labels follow the tokens", "[exercise]") {
  const Exercise ex = generated(5);
  REQUIRE(ex.query_tokens.size() == 3);
  CHECK(stage_row_labels(ex, Stage::Q) == ex.query_tokens);
  CHECK(stage_col_labels(ex, Stage::Q) == std::vector<std::string>{"1", "2"});
  CHECK(stage_col_labels(ex, Stage::Weights) == ex.key_tokens);
  CHECK(stage_row_labels(ex, Stage::Output) == ex.query_tokens);
  const Answers a = blank_answers(ex);
  CHECK(a.rows[static_cast<size_t>(stage_index(Stage::Scores))] == 3);
  CHECK(a.cols[static_cast<size_t>(stage_index(Stage::Output))] == 2);
  CHECK_THROWS_AS(a.at(Stage::Q, 3, 0), std::out_of_range);
}

TEST_CASE("custom exercises are validated", "[exercise]") {
  ExerciseSpec spec;
  Exercise ex;
  CHECK(make_exercise(spec, ex).find("missing Q") != std::string::npos);
  spec.X = attn::Mat::Ones(3, 4);
  spec.W_q = attn::Mat::Ones(3, 2);  // 3 rows for 4 columns of X
  spec.W_k = spec.W_v = attn::Mat::Ones(4, 2);
  CHECK(make_exercise(spec, ex).find("W_q has 3 rows") != std::string::npos);
  spec.W_q = attn::Mat::Ones(4, 2);
  spec.X(1, 1) = std::nanf("");
  CHECK(make_exercise(spec, ex).find("finite") != std::string::npos);
  spec.X = attn::Mat::Ones(9, 4);
  CHECK(make_exercise(spec, ex).find("at most 8") != std::string::npos);
  spec.X = attn::Mat::Ones(3, 4);
  spec.V = attn::Mat::Ones(3, 2) * 2;  // given and not X·W_V
  CHECK(make_exercise(spec, ex).find("differs from X·W_v") != std::string::npos);
  spec.W_v.resize(0, 0);
  spec.query_tokens = {"a", "b"};
  CHECK(make_exercise(spec, ex).find("2 labels for 3 rows") != std::string::npos);
  spec.query_tokens.clear();
  CHECK(make_exercise(spec, ex).empty());
  CHECK(ex.is_given(Stage::V));
  CHECK_FALSE(ex.is_given(Stage::Q));
}
