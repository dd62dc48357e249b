// test_exercise_grade.cpp — the checker: tolerance, typed garbage, and each kind of mistake built on purpose.
// Every wrong worksheet is made from the math here (exercise_reference.h), never from the checker's numbers.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/exercise/exercise.h"
#include "exercise_reference.h"
#include "unit_helpers.h"

using unit::generated;
using namespace attn::exercise;
using exref::MatD;

namespace {

Exercise note(const std::string& id) {
  Exercise ex;
  REQUIRE(note_exercise(id, ex).empty());
  return ex;
}

std::vector<const Diagnosis*> mistakes_in(const Grade& g, Stage s) {
  std::vector<const Diagnosis*> out;
  for (const Diagnosis& d : g.diagnoses)
    if (d.stage == s && diagnosis_text(d.kind).is_mistake) out.push_back(&d);
  return out;
}

const Diagnosis* find(const Grade& g, DiagnosisKind kind, Stage s) {
  for (const Diagnosis& d : g.diagnoses)
    if (d.kind == kind && d.stage == s) return &d;
  return nullptr;
}

bool has_cell(const Diagnosis& d, int i, int j) {
  return std::find(d.cells.begin(), d.cells.end(), Cell{i, j}) != d.cells.end();
}

std::string kinds(const Grade& g) {
  std::string out;
  for (const Diagnosis& d : g.diagnoses) out += std::string(diagnosis_id(d.kind)) + "@" + stage_id(d.stage) + " ";
  return out;
}

// `typed` (the mistake, as typed) against `right`: the one mistake diagnosed in the stage is `kind`, it names
// every cell that is clearly off, and cells the mistake does not change are correct.
void check_pattern(const Grade& g, DiagnosisKind kind, Stage s, const MatD& typed, const MatD& right) {
  INFO("diagnoses: " << kinds(g));
  const std::vector<const Diagnosis*> found = mistakes_in(g, s);
  REQUIRE(found.size() == 1);
  const Diagnosis& d = *found[0];
  CHECK(d.kind == kind);
  int clearly_off = 0;
  for (int i = 0; i < typed.rows(); ++i)
    for (int j = 0; j < typed.cols(); ++j) {
      if (!std::isfinite(typed(i, j))) continue;
      const double diff = std::fabs(typed(i, j) - right(i, j));
      INFO("cell (" << i + 1 << ", " << j + 1 << ") typed " << typed(i, j) << ", right " << right(i, j));
      if (diff > 0.03) {
        ++clearly_off;
        CHECK(has_cell(d, i, j));
        CHECK(g.stage(s).at(i, j).status == CellStatus::Wrong);
      }
      if (diff < 0.002) CHECK(g.stage(s).at(i, j).status == CellStatus::Correct);
    }
  CHECK(clearly_off > 0);
  CHECK(g.mistakes == 1);
  CHECK(d.message.find(stage_title(s)) != std::string::npos);
}

MatD with_nan_outside(const MatD& block, Eigen::Index rows, Eigen::Index cols) {
  MatD m = MatD::Constant(rows, cols, std::nan(""));
  m.topLeftCorner(block.rows(), block.cols()) = block;
  return m;
}

void type_finite(Answers& a, Stage s, const MatD& m, int decimals) {
  for (int i = 0; i < m.rows(); ++i)
    for (int j = 0; j < m.cols(); ++j)
      if (std::isfinite(m(i, j))) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.*f", decimals, m(i, j));
        a.set(s, i, j, std::string(buf));
      }
}

}  // namespace

TEST_CASE("a correct worksheet rounded to 2 decimals passes", "[exercise]") {
  std::vector<Exercise> all;
  for (int number = 1; number <= 200; ++number) all.push_back(generated(number));
  for (int number = kFirstThreeWideExercise; number < kFirstThreeWideExercise + 200; ++number)
    all.push_back(generated(number));
  for (const std::string& id : note_exercise_ids()) all.push_back(note(id));
  for (const Exercise& ex : all) {
    INFO(ex.id);
    const exref::Pipeline p = exref::pipeline_of(ex);
    Answers a = blank_answers(ex);
    for (Stage s : kStages)
      if (!ex.is_given(s)) exref::type_stage(a, s, p.at(s), 2);
    const Grade g = grade(ex, a);
    INFO("diagnoses: " << kinds(g));
    CHECK(g.complete);
    CHECK(g.all_correct);
    CHECK(g.mistakes == 0);
    CHECK(g.diagnoses.empty());
    CHECK(g.answered == g.asked);
  }
}

TEST_CASE("a learner who rounds every step to 2 decimals passes", "[exercise]") {
  // Each stage from the learner's own rounded numbers, √2 as 1.41 (or 1/√2 as 0.71), as the notes do.
  std::vector<int> numbers;
  for (int number = 1; number <= 200; ++number) numbers.push_back(number);
  for (int number = kFirstThreeWideExercise; number < kFirstThreeWideExercise + 200; ++number)
    numbers.push_back(number);
  for (int number : numbers) {
    const Exercise ex = generated(number);
    const exref::Pipeline p = exref::pipeline_of(ex);
    for (bool multiply : {false, true}) {
      INFO("exercise " << number << (multiply ? ", ×0.71" : ", ÷1.41"));
      const MatD Q = exref::round_to(p.Q, 2), K = exref::round_to(p.K, 2), V = exref::round_to(p.V, 2);
      const MatD S = exref::round_to(exref::times_transposed(Q, K), 2);
      const MatD L = exref::round_to(multiply ? MatD(S * 0.71) : MatD(S / 1.41), 2);
      const MatD A = exref::round_to(exref::softmax_rows(L), 2);
      const MatD Z = exref::round_to(exref::times(A, V), 2);
      Answers a = blank_answers(ex);
      const std::pair<Stage, const MatD*> typed[] = {{Stage::Q, &Q},      {Stage::K, &K},      {Stage::V, &V},
                                                     {Stage::Scores, &S}, {Stage::Scaled, &L}, {Stage::Weights, &A},
                                                     {Stage::Output, &Z}};
      for (const auto& [s, m] : typed) exref::type_stage(a, s, *m, 2);
      const Grade g = grade(ex, a);
      INFO("diagnoses: " << kinds(g));
      CHECK(g.all_correct);
      CHECK(g.diagnoses.empty());
    }
  }
}

TEST_CASE("correct rounding passes, a wrong last digit does not", "[exercise]") {
  const Exercise ex = note("note-cat-sat-mat");
  // Weight of cat→cat: e^(1/√2) / (2e^(1/√2) + 1) = 0.40111…
  const double c = std::exp(1 / std::sqrt(2.0)), w = c / (2 * c + 1);
  REQUIRE(w == Approx(0.40111).margin(1e-5));
  // Accepted: |x − w| ≤ 0.005 (rounding to 2 decimals) + 2·0.005·w(1 − w) = 0.0074 (exps to 3 figures).
  for (const auto& [typed, ok] : std::vector<std::pair<std::string, bool>>{{"0.40", true},
                                                                           {"0.4", true},
                                                                           {"0.401", true},
                                                                           {"0.4011", true},
                                                                           {".40", true},
                                                                           {"0.41", false},
                                                                           {"0.39", false},
                                                                           {"0.5", false},
                                                                           {"0.392", false},
                                                                           {"0.395", true}}) {
    Answers a = blank_answers(ex);
    a.set(Stage::Weights, 0, 0, typed);
    const Grade g = grade(ex, a);
    INFO("typed " << typed);
    CHECK((g.stage(Stage::Weights).at(0, 0).status == CellStatus::Correct) == ok);
  }
  // Scaled scores at d_k = 2: 2/√2 = 1.4142; a learner's 2 × 0.71 = 1.42 and 2 ÷ 1.41 = 1.418 are right,
  // 1.43 is not.
  for (const auto& [typed, ok] : std::vector<std::pair<std::string, bool>>{
           {"1.41", true}, {"1.42", true}, {"1.418", true}, {"1.414", true}, {"1.43", false}, {"1.40", false}}) {
    Answers a = blank_answers(ex);
    a.set(Stage::Scaled, 2, 2, typed);  // mat·mat = 2
    INFO("typed " << typed);
    CHECK((grade(ex, a).stage(Stage::Scaled).at(2, 2).status == CellStatus::Correct) == ok);
  }
  // Exact stages: Q of "mat" is [1, 1]; 1.04 rounds to 1.0, 1.1 does not.
  for (const auto& [typed, ok] :
       std::vector<std::pair<std::string, bool>>{{"1", true}, {"1.0", true}, {"1.04", true}, {"1.1", false}}) {
    Answers a = blank_answers(ex);
    a.set(Stage::Q, 2, 0, typed);
    INFO("typed " << typed);
    CHECK((grade(ex, a).stage(Stage::Q).at(2, 0).status == CellStatus::Correct) == ok);
  }
}

TEST_CASE("green is the rule at the top of exercise.h, and a value outside it is not green", "[exercise]") {
  // The rule written out again from its comment: |x − r| ≤ 0.5·10^−d + 1e-6·max(1, |r|) + slack, the slack for
  // √d_k or 1/√d_k rounded to 2 decimals (scaled scores), each exp kept to 3 significant figures (weights) and the
  // untyped weights rounded to 2 decimals (output). The worksheet's intro says exactly this.
  std::vector<Exercise> all = {generated(17), generated(42)};
  for (const std::string& id : note_exercise_ids()) all.push_back(note(id));
  for (const Exercise& ex : all) {
    const exref::Pipeline p = exref::pipeline_of(ex);
    const double root = std::sqrt(p.d_k);
    const double rho = std::max(std::fabs(root / (std::round(root * 100) / 100) - 1),
                                std::fabs(std::round(100 / root) / 100 * root - 1));
    for (Stage s : kStages) {
      if (ex.is_given(s)) continue;
      for (int i = 0; i < ex.rows(s); ++i)
        for (int j = 0; j < ex.cols(s); ++j) {
          const double r = p.at(s)(i, j);
          double allowed = 0.5 * std::pow(10.0, -ex.decimals_of(s)) + 1e-6 * std::max(1.0, std::fabs(r));
          if (s == Stage::Scaled) allowed += std::fabs(r) * rho;
          if (s == Stage::Weights) allowed += 2 * 0.005 * r * (1 - r);
          if (s == Stage::Output)
            for (int k = 0; k < p.V.rows(); ++k) allowed += 0.005 * std::fabs(p.V(k, j));
          for (double sign : {-1.0, 1.0})
            for (const auto& [factor, green] : std::vector<std::pair<double, bool>>{{0.999, true}, {1.001, false}}) {
              Answers a = blank_answers(ex);
              a.set(s, i, j, r + sign * factor * allowed);
              const CellStatus status = grade(ex, a).stage(s).at(i, j).status;
              INFO(ex.id << " " << stage_id(s) << " (" << i + 1 << ", " << j + 1 << "): right " << r << ", allowed "
                         << allowed << ", typed " << r + sign * factor * allowed);
              CHECK((status == CellStatus::Correct) == green);
            }
        }
    }
  }
  // A typed weight counts as typed: the output is then held to the weights as typed, with no slack for them.
  const Exercise ex = generated(17);
  const exref::Pipeline p = exref::pipeline_of(ex);
  Answers a = blank_answers(ex);
  MatD first = MatD::Constant(p.A.rows(), p.A.cols(), std::nan(""));
  first.row(0) = exref::round_to(p.A.row(0), 2);
  type_finite(a, Stage::Weights, first, 2);
  for (int j = 0; j < p.V.cols(); ++j) {
    const double own = exref::times(first.topRows(1), p.V)(0, j);
    const double away = own >= p.Z(0, j) ? 1 : -1;  // further from the right value than from the learner's own
    for (const auto& [off, green] : std::vector<std::pair<double, bool>>{{0.0049, true}, {0.0052, false}}) {
      a.set(Stage::Output, 0, j, own + away * off);
      INFO("output (1, " << j + 1 << "): from the typed weights " << own << ", typed " << own + away * off);
      CHECK((grade(ex, a).stage(Stage::Output).at(0, j).status == CellStatus::Correct) == green);
    }
  }
}

TEST_CASE("typed garbage gets a clear message per cell", "[exercise]") {
  const Exercise ex = note("note-cat-sat-mat");
  struct Case {
    std::string typed;
    CellStatus status;
    InputIssue issue;
    std::string in_message;
  };
  const Case cases[] = {
      {"abc", CellStatus::Invalid, InputIssue::NotANumber, "“abc” is not a number"},
      {"1,5", CellStatus::Invalid, InputIssue::DecimalComma, "1.5"},
      {"nan", CellStatus::Invalid, InputIssue::NotFinite, "“nan”"},
      {"-inf", CellStatus::Invalid, InputIssue::NotFinite, "“-inf”"},
      {"1e999", CellStatus::Invalid, InputIssue::OutOfRange, "far too large"},
      {"2000000", CellStatus::Invalid, InputIssue::OutOfRange, "far too large"},
      {"1.2.3", CellStatus::Invalid, InputIssue::NotANumber, "not a number"},
      {"1 0", CellStatus::Invalid, InputIssue::NotANumber, "not a number"},
      {"0.5x", CellStatus::Invalid, InputIssue::NotANumber, "not a number"},
      {std::string(60, '1'), CellStatus::Invalid, InputIssue::TooLong, "one number"},
      {"", CellStatus::Empty, InputIssue::None, ""},
      {"   ", CellStatus::Empty, InputIssue::None, ""},
      {" 1 ", CellStatus::Correct, InputIssue::None, ""},
      {"+1.", CellStatus::Correct, InputIssue::None, ""},
      {"1e0", CellStatus::Correct, InputIssue::None, ""},
  };
  for (const Case& c : cases) {
    Answers a = blank_answers(ex);
    a.set(Stage::Q, 0, 0, c.typed);  // Q of "cat" is [1, 0]
    const Grade g = grade(ex, a);
    const CellGrade& cg = g.stage(Stage::Q).at(0, 0);
    INFO("typed \"" << c.typed << "\": " << cg.message);
    CHECK(cg.status == c.status);
    CHECK(cg.issue == c.issue);
    CHECK(cg.message.find(c.in_message) != std::string::npos);
    CHECK((c.status == CellStatus::Invalid) == !cg.message.empty());
  }
  // The minus sign copied from the notes (U+2212) and numbers set directly.
  CHECK(parse_cell("\xE2\x88\x92"
                   "0.5")
            .value == -0.5);
  CHECK(parse_cell("1e-999").value == 0);
  CHECK(parse_cell("0.125").decimals_typed == 3);
  Answers a = blank_answers(ex);
  a.set(Stage::Q, 0, 1, 0.0);
  a.set(Stage::Q, 1, 0, std::nan(""));
  a.set(Stage::Q, 1, 1, INFINITY);
  const Grade g = grade(ex, a);
  CHECK(g.stage(Stage::Q).at(0, 1).status == CellStatus::Correct);
  CHECK(g.stage(Stage::Q).at(1, 0).issue == InputIssue::NotFinite);
  CHECK(g.stage(Stage::Q).at(1, 1).issue == InputIssue::NotFinite);
  CHECK(g.mistakes == 0);  // invalid cells are reported per cell, not as mistakes
}

TEST_CASE("diagnosis: forgot ÷√d_k", "[exercise]") {
  for (int number : {3, 17, 42, 99}) {
    INFO("exercise " << number);
    const Exercise ex = generated(number);
    const exref::Pipeline p = exref::pipeline_of(ex);
    {  // raw scores typed as the scaled scores
      Answers a = blank_answers(ex);
      exref::type_stage(a, Stage::Scores, p.S, 2);
      exref::type_stage(a, Stage::Scaled, p.S, 2);
      check_pattern(grade(ex, a), DiagnosisKind::ForgotScale, Stage::Scaled, p.S, p.L);
    }
    {  // softmax of the raw scores
      Answers a = blank_answers(ex);
      const MatD wrong = exref::softmax_rows(p.S);
      exref::type_stage(a, Stage::Weights, wrong, 2);
      check_pattern(grade(ex, a), DiagnosisKind::ForgotScale, Stage::Weights, wrong, p.A);
    }
  }
}

TEST_CASE("diagnosis: divided by d_k instead of √d_k", "[exercise]") {
  for (int number : {3, 17, 42, 99}) {
    INFO("exercise " << number);
    const Exercise ex = generated(number);
    const exref::Pipeline p = exref::pipeline_of(ex);
    Answers a = blank_answers(ex);
    const MatD wrong = p.S / p.d_k;
    exref::type_stage(a, Stage::Scaled, wrong, 2);
    check_pattern(grade(ex, a), DiagnosisKind::DividedByDk, Stage::Scaled, wrong, p.L);
    Answers b = blank_answers(ex);
    const MatD wrong_weights = exref::softmax_rows(p.S / p.d_k);
    exref::type_stage(b, Stage::Weights, wrong_weights, 2);
    check_pattern(grade(ex, b), DiagnosisKind::DividedByDk, Stage::Weights, wrong_weights, p.A);
  }
}

TEST_CASE("diagnosis: the note that lost its √ says so", "[exercise]") {
  {
    const Exercise ex = note("note-scaled-dot-product");
    Answers a = blank_answers(ex);
    a.set(Stage::Scaled, 0, 0, "0.5");  // [2, 0] ÷ 4 instead of ÷ √4
    a.set(Stage::Scaled, 0, 1, "0");
    const Grade g = grade(ex, a);
    const Diagnosis* d = find(g, DiagnosisKind::DividedByDk, Stage::Scaled);
    REQUIRE(d);
    REQUIRE(d->remark >= 0);
    CHECK(ex.remarks[static_cast<size_t>(d->remark)].id == "note-scaled-dot-product/sqrt-missing");
    CHECK(d->message.find("square-root sign is lost") != std::string::npos);
    CHECK(g.stage(Stage::Scaled).at(0, 1).status == CellStatus::Correct);
  }
}

TEST_CASE("diagnosis: softmax over columns instead of rows", "[exercise]") {
  for (int number : {3, 17, 42, 99}) {
    INFO("exercise " << number);
    const Exercise ex = generated(number);
    const exref::Pipeline p = exref::pipeline_of(ex);
    Answers a = blank_answers(ex);
    const MatD wrong = exref::softmax_columns(p.L);
    exref::type_stage(a, Stage::Weights, wrong, 2);
    const Grade g = grade(ex, a);
    check_pattern(g, DiagnosisKind::SoftmaxOverColumns, Stage::Weights, wrong, p.A);
    CHECK_FALSE(find(g, DiagnosisKind::RowSumNotOne, Stage::Weights));  // said by the diagnosis already
  }
}

TEST_CASE("diagnosis: the transposed product", "[exercise]") {
  for (int number : {3, 17, 42, 99}) {
    INFO("exercise " << number);
    const Exercise ex = generated(number);
    const exref::Pipeline p = exref::pipeline_of(ex);
    {  // K·Qᵀ: rows are keys
      Answers a = blank_answers(ex);
      const MatD wrong = p.S.transpose();
      exref::type_stage(a, Stage::Scores, wrong, 2);
      check_pattern(grade(ex, a), DiagnosisKind::ScoresTransposed, Stage::Scores, wrong, p.S);
    }
    {  // Qᵀ·K: a d_k×d_k table typed into the corner
      Answers a = blank_answers(ex);
      const MatD qtk = exref::times(p.Q.transpose(), p.K);  // 2×2
      const MatD wrong = with_nan_outside(qtk, 3, 3);
      type_finite(a, Stage::Scores, wrong, 2);
      check_pattern(grade(ex, a), DiagnosisKind::UsedQtK, Stage::Scores, wrong, p.S);
    }
  }
}

TEST_CASE("diagnosis: Q·K when d_k equals the number of keys", "[exercise]") {
  {
    ExerciseSpec spec;
    spec.X = (attn::Mat(2, 3) << 1, 0, 2, 0, 1, 1).finished();
    spec.W_q = (attn::Mat(3, 2) << 1, 0, 0, 1, 1, 1).finished();
    spec.W_k = (attn::Mat(3, 2) << 0, 1, 1, 0, 0, 2).finished();
    spec.W_v = (attn::Mat(3, 2) << 1, 0, 0, 1, 0, 0).finished();
    Exercise ex;
    REQUIRE(make_exercise(spec, ex).empty());
    const exref::Pipeline p = exref::pipeline_of(ex);
    // Q = [[3, 2], [1, 2]], K = [[0, 5], [1, 2]]: QKᵀ = [[10, 7], [10, 5]], Q·K = [[2, 19], [2, 9]].
    REQUIRE(p.S == (MatD(2, 2) << 10, 7, 10, 5).finished());
    const MatD wrong = exref::times(p.Q, p.K);
    REQUIRE(wrong == (MatD(2, 2) << 2, 19, 2, 9).finished());
    Answers a = blank_answers(ex);
    exref::type_stage(a, Stage::Scores, wrong, 0);
    check_pattern(grade(ex, a), DiagnosisKind::UsedKNotKt, Stage::Scores, wrong, p.S);
  }
}

TEST_CASE("diagnosis: forgot to exponentiate", "[exercise]") {
  for (int number : {3, 17, 42, 99}) {
    INFO("exercise " << number);
    const Exercise ex = generated(number);
    const exref::Pipeline p = exref::pipeline_of(ex);
    MatD wrong = p.L;
    for (int i = 0; i < wrong.rows(); ++i) wrong.row(i) /= p.L.row(i).sum();
    Answers a = blank_answers(ex);
    exref::type_stage(a, Stage::Weights, wrong, 2);
    check_pattern(grade(ex, a), DiagnosisKind::ForgotExp, Stage::Weights, wrong, p.A);
  }
}

TEST_CASE("diagnosis: the wrong weight matrix", "[exercise]") {
  for (int number : {3, 17, 42, 99}) {
    INFO("exercise " << number);
    const Exercise ex = generated(number);
    const exref::Pipeline p = exref::pipeline_of(ex);
    const MatD wrong = exref::times(ex.X.cast<double>(), ex.W_k.cast<double>());  // X·W_K typed as Q
    Answers a = blank_answers(ex);
    exref::type_stage(a, Stage::Q, wrong, 1);
    const Grade g = grade(ex, a);
    check_pattern(g, DiagnosisKind::WrongProjection, Stage::Q, wrong, p.Q);
    CHECK(find(g, DiagnosisKind::WrongProjection, Stage::Q)->params.at("used") == "W_K");
  }
}

TEST_CASE("diagnosis: the output from the scores, the transposed weights or the keys", "[exercise]") {
  for (int number : {3, 17, 42, 99}) {
    INFO("exercise " << number);
    const Exercise ex = generated(number);
    const exref::Pipeline p = exref::pipeline_of(ex);
    struct Slip {
      const char* what;
      MatD typed;
      DiagnosisKind kind;
    };
    const Slip slips[] = {
        {"logits·V", exref::times(p.L, p.V), DiagnosisKind::SkippedSoftmax},
        {"scores·V", exref::times(p.S, p.V), DiagnosisKind::SkippedSoftmax},
        {"Aᵀ·V", exref::times(p.A.transpose(), p.V), DiagnosisKind::WeightsTransposed},
        {"A·K", exref::times(p.A, p.K), DiagnosisKind::KeysAsValues},
    };
    for (const Slip& slip : slips) {
      INFO(slip.what);
      Answers a = blank_answers(ex);
      exref::type_stage(a, Stage::Output, slip.typed, 2);
      const Grade g = grade(ex, a);
      check_pattern(g, slip.kind, Stage::Output, slip.typed, p.Z);
    }
    Answers a = blank_answers(ex);  // which scores: the message names them
    exref::type_stage(a, Stage::Output, exref::times(p.S, p.V), 2);
    const Grade g = grade(ex, a);
    const Diagnosis* d = find(g, DiagnosisKind::SkippedSoftmax, Stage::Output);
    REQUIRE(d);
    CHECK(d->message.find("QKᵀ times V") != std::string::npos);
  }
}

TEST_CASE("diagnosis: 10^x, one softmax over the whole matrix, e⁰ taken as 0", "[exercise]") {
  for (int number : {3, 17, 42, 99}) {
    INFO("exercise " << number);
    const Exercise ex = generated(number);
    const exref::Pipeline p = exref::pipeline_of(ex);
    const MatD ten = exref::softmax_rows(p.L * std::log(10.0));
    Answers a = blank_answers(ex);
    exref::type_stage(a, Stage::Weights, ten, 2);
    check_pattern(grade(ex, a), DiagnosisKind::PowerOfTen, Stage::Weights, ten, p.A);
    MatD whole(p.L.rows(), p.L.cols());
    double sum = 0;
    for (Eigen::Index k = 0; k < p.L.size(); ++k) sum += std::exp(p.L.data()[k]);
    for (Eigen::Index k = 0; k < p.L.size(); ++k) whole.data()[k] = std::exp(p.L.data()[k]) / sum;
    Answers b = blank_answers(ex);
    exref::type_stage(b, Stage::Weights, whole, 2);
    const Grade g = grade(ex, b);
    check_pattern(g, DiagnosisKind::SoftmaxOverMatrix, Stage::Weights, whole, p.A);
    CHECK_FALSE(find(g, DiagnosisKind::RowSumNotOne, Stage::Weights));  // said by the diagnosis already
  }
  // e⁰ = 0 shows only in a row with a score of exactly 0. (The note's one query [1, 0] would give [1, 0], which
  // is also what forgetting exp gives: one diagnosis names both, see "two mistakes that give the same numbers".)
  auto zero_as_zero = [](const MatD& L) {
    MatD w = L;
    for (Eigen::Index i = 0; i < L.rows(); ++i) {
      double sum = 0;
      for (Eigen::Index j = 0; j < L.cols(); ++j) sum += (w(i, j) = L(i, j) == 0 ? 0.0 : std::exp(L(i, j)));
      w.row(i) /= sum;
    }
    return w;
  };
  std::vector<Exercise> with_zero;
  for (int number = 1; number < 200 && with_zero.size() < 4; ++number) {
    const Exercise ex = generated(number);
    const exref::Pipeline p = exref::pipeline_of(ex);
    bool every_row = true;  // rows without a 0 would be typed right, which proves nothing
    for (Eigen::Index i = 0; i < p.S.rows(); ++i) every_row = every_row && (p.S.row(i).array() == 0).any();
    if (every_row) with_zero.push_back(ex);
  }
  REQUIRE(with_zero.size() >= 3);
  for (const Exercise& ex : with_zero) {
    INFO(ex.id);
    const exref::Pipeline p = exref::pipeline_of(ex);
    const MatD typed = zero_as_zero(p.L);
    Answers a = blank_answers(ex);
    exref::type_stage(a, Stage::Weights, typed, 2);
    check_pattern(grade(ex, a), DiagnosisKind::ExpZeroAsZero, Stage::Weights, typed, p.A);
  }
}

TEST_CASE("diagnosis: ×√d_k instead of ÷√d_k, and √d_model instead of √d_k", "[exercise]") {
  for (int number : {3, 17, 42, 99}) {
    INFO("exercise " << number);
    const Exercise ex = generated(number);
    const exref::Pipeline p = exref::pipeline_of(ex);
    const MatD times_root = p.S * std::sqrt(p.d_k);
    Answers a = blank_answers(ex);
    exref::type_stage(a, Stage::Scaled, times_root, 2);
    check_pattern(grade(ex, a), DiagnosisKind::MultipliedByRoot, Stage::Scaled, times_root, p.L);
    Answers b = blank_answers(ex);
    exref::type_stage(b, Stage::Weights, exref::softmax_rows(times_root), 2);
    check_pattern(grade(ex, b), DiagnosisKind::MultipliedByRoot, Stage::Weights, exref::softmax_rows(times_root), p.A);
  }
  const Exercise ex = exref::wide_embedding_exercise();
  const exref::Pipeline p = exref::pipeline_of(ex);
  const MatD wide = p.S / std::sqrt(8.0);
  Answers a = blank_answers(ex);
  exref::type_stage(a, Stage::Scaled, wide, 2);
  const Grade g = grade(ex, a);
  check_pattern(g, DiagnosisKind::RootOfDModel, Stage::Scaled, wide, p.L);
  const Diagnosis* d = find(g, DiagnosisKind::RootOfDModel, Stage::Scaled);
  REQUIRE(d);
  CHECK(d->message.find("√d_model = √8 ≈ 2.8284") != std::string::npos);
}

TEST_CASE("diagnosis: √d_model on an exercise the worksheet offers, not taken for ÷d_k", "[exercise]") {
  // Exercises 1…999999 are 4 wide with d_k = 2: √d_model = √4 = 2 = d_k, so ÷√d_model is the ÷d_k mistake. The
  // exercises after them are 3 wide: ÷√3 ≈ ÷1.73 is a mistake of its own, between ÷√2 and ÷2.
  for (int number : {1000000, 1000017, 1000042, 1999999}) {
    INFO("exercise " << number);
    const Exercise ex = generated(number);
    REQUIRE(ex.X.cols() == 3);
    const exref::Pipeline p = exref::pipeline_of(ex);
    REQUIRE(p.d_k * p.d_k != 3);
    const MatD wide = p.S / std::sqrt(3.0);
    Answers a = blank_answers(ex);
    exref::type_stage(a, Stage::Scaled, wide, 2);
    const Grade g = grade(ex, a);
    check_pattern(g, DiagnosisKind::RootOfDModel, Stage::Scaled, wide, p.L);
    CHECK_FALSE(find(g, DiagnosisKind::DividedByDk, Stage::Scaled));
    const Diagnosis* d = find(g, DiagnosisKind::RootOfDModel, Stage::Scaled);
    REQUIRE(d);
    CHECK(d->message.find("divided by √d_model = √3 ≈ 1.7321") != std::string::npos);
    // The weights from the same wrong scale: the same diagnosis, one stage on.
    Answers b = blank_answers(ex);
    const MatD wide_weights = exref::softmax_rows(wide);
    exref::type_stage(b, Stage::Weights, wide_weights, 2);
    const Grade gw = grade(ex, b);
    INFO("diagnoses: " << kinds(gw));
    CHECK(find(gw, DiagnosisKind::RootOfDModel, Stage::Weights));
    CHECK_FALSE(find(gw, DiagnosisKind::DividedByDk, Stage::Weights));
    CHECK(gw.mistakes == 1);
  }
}

TEST_CASE("diagnosis: the note's column-by-column X read row by row", "[exercise]") {
  const Exercise ex = note("note-cat-sat-mat");
  const MatD read = exref::cat_sat_mat_x_read_by_rows();
  for (Stage s : {Stage::Q, Stage::K}) {
    INFO(stage_id(s));
    const MatD typed = exref::times(read, (s == Stage::Q ? ex.W_q : ex.W_k).cast<double>());
    Answers a = blank_answers(ex);
    exref::type_stage(a, s, typed, 2);
    const Grade g = grade(ex, a);
    check_pattern(g, DiagnosisKind::XReadAsRows, s, typed, exref::pipeline_of(ex).at(s));
    const Diagnosis* d = find(g, DiagnosisKind::XReadAsRows, s);
    REQUIRE(d);
    CHECK(d->message.find("the first token is [1, 0, 1, 0]") != std::string::npos);
  }
}

TEST_CASE("two mistakes that give the same numbers are one diagnosis naming both, one mistake", "[exercise]") {
  // The note's one query has the scaled scores [1, 0]. Normalising them without exp gives [1/1, 0/1] = [1, 0];
  // taking e⁰ as 0 gives [e/e, 0/e] = [1, 0] as well. Neither is more likely than the other.
  const Exercise ex = note("note-scaled-dot-product");
  REQUIRE(ex.ref(Stage::Scaled) == (attn::Mat(1, 2) << 1, 0).finished());
  Answers a = blank_answers(ex);
  a.set(Stage::Weights, 0, 0, "1");
  a.set(Stage::Weights, 0, 1, "0");
  const Grade g = grade(ex, a);
  INFO("diagnoses: " << kinds(g));
  const std::vector<const Diagnosis*> found = mistakes_in(g, Stage::Weights);
  REQUIRE(found.size() == 1);
  const Diagnosis& d = *found[0];
  CHECK(std::string(diagnosis_id(d.kind)) == "same_numbers");
  CHECK(d.cells == std::vector<Cell>{{0, 0}, {0, 1}});
  CHECK(g.mistakes == 1);
  // The one diagnosis explains both mistakes, in the grader's order, with each one's own text.
  INFO(d.message);
  CHECK(d.message.find("Softmax rows (weights A), row 1: ") == 0);
  const size_t no_exp = d.message.find("the scores divided by their row sum");
  const size_t zero = d.message.find("e⁰ taken as 0 where a scaled score is 0");
  CHECK(no_exp != std::string::npos);
  CHECK(zero != std::string::npos);
  CHECK(no_exp < zero);
  CHECK(d.message.find("{") == std::string::npos);
  const auto j = grade_to_json(ex, g);
  const auto& alternatives = j.at("diagnoses").at(0).at("alternatives");
  REQUIRE(alternatives.size() == 2);
  CHECK(alternatives[0].at("kind") == "forgot_exp");
  CHECK(alternatives[1].at("kind") == "exp_zero_as_zero");
  for (int col = 0; col < 2; ++col) CHECK(g.stage(Stage::Weights).at(0, col).diagnosis == 0);
}

TEST_CASE("a slip carried forward is counted once", "[exercise]") {
  for (int number : {3, 17, 42, 99}) {
    INFO("exercise " << number);
    const Exercise ex = generated(number);
    const exref::Pipeline p = exref::pipeline_of(ex);
    // One slip in Q (cell (2, 1) one too high), then every later step done right from the learner's numbers.
    MatD Q = p.Q;
    Q(1, 0) += 1;
    const exref::Pipeline own = exref::pipeline(Q, p.K, p.V);
    Answers a = blank_answers(ex);
    exref::type_stage(a, Stage::Q, Q, 2);
    exref::type_stage(a, Stage::K, p.K, 2);
    exref::type_stage(a, Stage::V, p.V, 2);
    for (Stage s : {Stage::Scores, Stage::Scaled, Stage::Weights, Stage::Output}) exref::type_stage(a, s, own.at(s), 2);
    const Grade g = grade(ex, a);
    INFO("diagnoses: " << kinds(g));
    CHECK(g.mistakes == 1);
    const Diagnosis* slip = find(g, DiagnosisKind::ArithmeticSlip, Stage::Q);
    REQUIRE(slip);
    CHECK(slip->cells == std::vector<Cell>{{1, 0}});
    for (Stage s : {Stage::Scores, Stage::Scaled, Stage::Weights, Stage::Output}) {
      INFO("stage " << stage_id(s));
      CHECK(mistakes_in(g, s).empty());
      int carried = 0;
      for (int i = 0; i < own.at(s).rows(); ++i)
        for (int j = 0; j < own.at(s).cols(); ++j) {
          const double diff = std::fabs(own.at(s)(i, j) - p.at(s)(i, j));
          const CellStatus st = g.stage(s).at(i, j).status;
          if (diff > 0.03) {
            CHECK(i == 1);  // only row 2 of the later steps depends on q_2
            CHECK(st == CellStatus::CarriedForward);
            ++carried;
          }
          if (diff < 0.002) CHECK(st == CellStatus::Correct);
        }
      if (carried > 0) {
        const Diagnosis* d = find(g, DiagnosisKind::CarriedForward, s);
        REQUIRE(d);
        CHECK(static_cast<int>(d->cells.size()) >= carried);
        CHECK_FALSE(d->sources.empty());
        CHECK(d->message.find("Not counted as a new mistake") != std::string::npos);
      }
    }
    CHECK(find(g, DiagnosisKind::CarriedForward, Stage::Output));  // the slip reaches the output
  }
}

TEST_CASE("a single arithmetic slip is diagnosed as such", "[exercise]") {
  for (int number : {3, 17, 42, 99}) {
    INFO("exercise " << number);
    const Exercise ex = generated(number);
    const exref::Pipeline p = exref::pipeline_of(ex);
    Answers a = blank_answers(ex);
    for (Stage s : kStages) exref::type_stage(a, s, p.at(s), 2);
    MatD S = p.S;
    S(1, 2) += 0.5;  // one product sum off; the later steps were done with the right number
    exref::type_stage(a, Stage::Scores, S, 2);
    const Grade g = grade(ex, a);
    INFO("diagnoses: " << kinds(g));
    REQUIRE(g.diagnoses.size() == 1);
    CHECK(g.diagnoses[0].kind == DiagnosisKind::ArithmeticSlip);
    CHECK(g.diagnoses[0].stage == Stage::Scores);
    CHECK(g.diagnoses[0].cells == std::vector<Cell>{{1, 2}});
    CHECK(g.diagnoses[0].params.at("cells") == "cell (2, 3)");
    CHECK(g.diagnoses[0].message.find("QKᵀ, cell (2, 3): ") == 0);
    CHECK(g.mistakes == 1);
    CHECK(g.stage(Stage::Scores).wrong == 1);
    CHECK(g.stage(Stage::Scores).correct == 8);
  }
}

TEST_CASE("several unrelated wrong cells in a row are reported together", "[exercise]") {
  const Exercise ex = generated(17);
  const exref::Pipeline p = exref::pipeline_of(ex);
  Answers a = blank_answers(ex);
  MatD S = p.S;
  S(0, 0) += 0.5;
  S(0, 1) -= 1.5;
  S(0, 2) += 3;
  exref::type_stage(a, Stage::Scores, S, 2);
  const Grade g = grade(ex, a);
  INFO("diagnoses: " << kinds(g));
  const Diagnosis* d = find(g, DiagnosisKind::Unexplained, Stage::Scores);
  REQUIRE(d);
  CHECK(d->cells.size() == 3);
  CHECK(d->params.at("cells") == "row 1");
  CHECK(d->message.find("QKᵀ, row 1: ") == 0);
}

TEST_CASE("the notes' slips, copied, produce their remark", "[exercise]") {
  SECTION("cat sat mat: the softmax row that sums to 1.18") {
    const Exercise ex = note("note-cat-sat-mat");
    Answers a = blank_answers(ex);
    a.set(Stage::Weights, 0, 0, "0.5");
    a.set(Stage::Weights, 0, 1, "0.18");
    a.set(Stage::Weights, 0, 2, "0.5");
    a.set(Stage::Weights, 2, 0, "0.23");
    a.set(Stage::Weights, 2, 1, "0.23");
    a.set(Stage::Weights, 2, 2, "0.54");
    const Grade g = grade(ex, a);
    INFO("diagnoses: " << kinds(g));
    std::vector<std::string> remark_ids;
    for (const Diagnosis& d : g.diagnoses)
      if (d.kind == DiagnosisKind::NoteSlip) remark_ids.push_back(ex.remarks[static_cast<size_t>(d.remark)].id);
    CHECK(remark_ids == std::vector<std::string>{"note-cat-sat-mat/weights-cat", "note-cat-sat-mat/weights-mat"});
    const Diagnosis* sum = find(g, DiagnosisKind::RowSumNotOne, Stage::Weights);
    REQUIRE(sum);
    CHECK(sum->params.at("sums") == "1.18");
    CHECK(sum->params.at("rows") == "1");
    CHECK(g.mistakes == 2);
    for (int j = 0; j < 3; ++j) CHECK(g.stage(Stage::Weights).at(0, j).status == CellStatus::Wrong);
  }
  SECTION("cat sat mat: the output from the note's weights") {
    // The note prints no output for "mat": 1.54 is what its wrong "mat" weights [0.23, 0.23, 0.54] give
    // (0.23·2 + 0.54·2), not a number it printed.
    const Exercise ex = note("note-cat-sat-mat");
    for (const Remark& r : ex.remarks)
      if (r.stage == Stage::Output && r.printed.size()) CHECK(r.printed.array().isNaN().all());
    Answers a = blank_answers(ex);
    a.set(Stage::Output, 2, 0, "1.54");
    a.set(Stage::Output, 2, 1, "1.00");
    Grade g = grade(ex, a);
    INFO("diagnoses: " << kinds(g));
    CHECK_FALSE(find(g, DiagnosisKind::NoteSlip, Stage::Output));
    for (const Diagnosis& d : g.diagnoses) CHECK(d.message.find("the note printed") == std::string::npos);
    const std::vector<const Diagnosis*> found = mistakes_in(g, Stage::Output);
    REQUIRE(found.size() == 1);
    const Diagnosis* d = found[0];
    CHECK(std::string(diagnosis_id(d->kind)) == "from_note_slip");
    CHECK(d->cells == std::vector<Cell>{{2, 0}});
    const std::vector<std::pair<Stage, Cell>> mat_weights = {
        {Stage::Weights, {2, 0}}, {Stage::Weights, {2, 1}}, {Stage::Weights, {2, 2}}};
    CHECK(d->sources == mat_weights);
    CHECK(d->message.find("Output Z = A·V, cell (3, 1): what the note's wrong numbers in Softmax rows (weights A) "
                          "row 3 give") == 0);
    CHECK(d->message.find("does not print") != std::string::npos);
    REQUIRE(d->remark >= 0);
    CHECK(ex.remarks[static_cast<size_t>(d->remark)].id == "note-cat-sat-mat/output-mat");
    CHECK(g.mistakes == 1);
    CHECK(g.stage(Stage::Output).at(2, 1).status == CellStatus::Correct);
    // With the correct "mat" weights typed, 1.54 still comes from the note's weights, not from the learner's.
    MatD mat_row = MatD::Constant(3, 3, std::nan(""));
    mat_row.row(2) = exref::pipeline_of(ex).A.row(2);
    type_finite(a, Stage::Weights, mat_row, 2);
    g = grade(ex, a);
    INFO("diagnoses: " << kinds(g));
    REQUIRE(mistakes_in(g, Stage::Output).size() == 1);
    CHECK(std::string(diagnosis_id(mistakes_in(g, Stage::Output)[0]->kind)) == "from_note_slip");
    a.clear(Stage::Weights);
    // A number that follows from neither the note's weights nor the learner's is a slip of its own.
    a.set(Stage::Output, 2, 0, "1.58");
    g = grade(ex, a);
    INFO("diagnoses: " << kinds(g));
    CHECK(find(g, DiagnosisKind::ArithmeticSlip, Stage::Output));
    a.set(Stage::Output, 2, 0, "1.54");
    // With the note's weights typed in too, the output follows from them: the one slip is in the weights.
    a.set(Stage::Weights, 2, 0, "0.23");
    a.set(Stage::Weights, 2, 1, "0.23");
    a.set(Stage::Weights, 2, 2, "0.54");
    g = grade(ex, a);
    INFO("diagnoses: " << kinds(g));
    CHECK(g.stage(Stage::Output).at(2, 0).status == CellStatus::CarriedForward);
    CHECK(g.mistakes == 1);
  }
  SECTION("the article's raw scores, each 0.01 too high") {
    const Exercise ex = note("note-the-cat-sat-on-the-mat");
    const exref::Pipeline p = exref::pipeline_of(ex);
    MatD S = p.S;
    // What the article prints for cat, sat and on (its own products give 0.28, 0.22, …).
    S(1, 0) = 0.29, S(1, 2) = 0.23, S(1, 3) = 0.21, S(2, 1) = 0.23, S(2, 3) = 0.29, S(3, 1) = 0.21, S(3, 2) = 0.29;
    Answers a = blank_answers(ex);
    exref::type_stage(a, Stage::Scores, S, 2);
    const Grade g = grade(ex, a);
    INFO("diagnoses: " << kinds(g));
    REQUIRE(g.diagnoses.size() == 1);
    const Diagnosis& d = g.diagnoses[0];
    CHECK(d.kind == DiagnosisKind::NoteSlip);
    CHECK(d.cells.size() == 7);
    CHECK(ex.remarks[static_cast<size_t>(d.remark)].id == "note-the-cat-sat-on-the-mat/raw-scores");
    CHECK(d.message.find("each 0.01 too high") != std::string::npos);
  }
  SECTION("the article's made-up low score") {
    const Exercise ex = note("note-the-cat-sat-on-the-mat");
    Answers a = blank_answers(ex);
    a.set(Stage::Weights, 0, 1, "0.05");
    const Grade g = grade(ex, a);
    const Diagnosis* d = find(g, DiagnosisKind::NoteSlip, Stage::Weights);
    REQUIRE(d);
    CHECK(ex.remarks[static_cast<size_t>(d->remark)].id == "note-the-cat-sat-on-the-mat/low-score");
  }
  SECTION("softmax that leaves the scores unchanged is the forgot-exp mistake") {
    const Exercise ex = note("note-the-cat-sat-on-the-mat");
    const exref::Pipeline p = exref::pipeline_of(ex);
    MatD wrong = p.L;
    for (int i = 0; i < wrong.rows(); ++i) wrong.row(i) /= p.L.row(i).sum();
    Answers a = blank_answers(ex);
    exref::type_stage(a, Stage::Weights, wrong, 3);
    const Grade g = grade(ex, a);
    INFO("diagnoses: " << kinds(g));
    const Diagnosis* d = find(g, DiagnosisKind::ForgotExp, Stage::Weights);
    REQUIRE(d);
    REQUIRE(d->remark >= 0);
    CHECK(ex.remarks[static_cast<size_t>(d->remark)].id == "note-the-cat-sat-on-the-mat/softmax-identity");
  }
}

TEST_CASE("the notes' exercises ask only what the note computes", "[exercise]") {
  const Exercise one = note("note-scaled-dot-product");
  for (Stage s : {Stage::Q, Stage::K, Stage::V}) CHECK(one.is_given(s));
  const Grade g1 = grade(one, blank_answers(one));
  CHECK(g1.asked == 2 + 2 + 2 + 3);
  CHECK(g1.stage(Stage::V).at(1, 1).status == CellStatus::Given);
  CHECK(one.d_k == 4);

  const Exercise two = note("note-cat-sat-mat");
  CHECK_FALSE(two.is_given(Stage::Q));
  CHECK_FALSE(two.is_given(Stage::K));
  CHECK(two.is_given(Stage::V));  // the note's V is not its X·W^V
  CHECK(two.ref(Stage::V) == (attn::Mat(3, 2) << 2, 0, 0, 2, 2, 1).finished());
  CHECK(two.W_v.size() == 0);

  const Exercise three = note("note-the-cat-sat-on-the-mat");
  for (Stage s : {Stage::Q, Stage::K, Stage::V}) CHECK(three.is_given(s));
  CHECK(three.rows(Stage::Scores) == 6);
  CHECK(three.decimals_of(Stage::Scores) == 2);
  Exercise none;
  CHECK(note_exercise("no-such-note", none).find("unknown note exercise") != std::string::npos);
}

TEST_CASE("answers of another shape are read as blank", "[exercise]") {
  const Exercise ex = generated(17);
  const Exercise other = note("note-the-cat-sat-on-the-mat");
  Answers a = blank_answers(other);
  a.set(Stage::Scores, 0, 0, "1");
  const Grade g = grade(ex, a);
  CHECK(g.answered == 0);
  CHECK(g.diagnoses.empty());
}

TEST_CASE("diagnosis ids and texts are one consistent table", "[exercise]") {
  const auto& texts = diagnosis_texts();
  std::vector<std::string> ids;
  for (size_t k = 0; k < texts.size(); ++k) {
    CHECK(static_cast<size_t>(texts[k].kind) == k);
    CHECK(diagnosis_from_id(texts[k].id) == texts[k].kind);
    CHECK(std::string(texts[k].tmpl).find("{stage}") != std::string::npos);
    ids.push_back(texts[k].id);
  }
  std::sort(ids.begin(), ids.end());
  CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
  CHECK(std::string(diagnosis_id(DiagnosisKind::ForgotScale)) == "forgot_scale");
  CHECK_FALSE(diagnosis_from_id("no_such_kind"));
  CHECK(fill_template("a {x} b {y}", {{"x", "1"}}) == "a 1 b {y}");
}

TEST_CASE("the notes' exercises hold the correct numbers, not the printed ones", "[exercise]") {
  const double c = std::exp(1 / std::sqrt(2.0));
  const Exercise one = note("note-scaled-dot-product");
  // [2, 0] ÷ √4 = [1, 0]; weights [e, 1] / (e + 1); output [5·w1, 3·w2, 0].
  const double e = std::exp(1.0);
  CHECK(one.ref(Stage::Scaled)(0, 0) == 1);
  CHECK(one.ref(Stage::Weights)(0, 0) == Approx(e / (e + 1)).margin(1e-6));
  CHECK(one.ref(Stage::Output)(0, 0) == Approx(5 * e / (e + 1)).margin(1e-5));
  CHECK(one.ref(Stage::Output)(0, 1) == Approx(3 / (e + 1)).margin(1e-5));

  const Exercise two = note("note-cat-sat-mat");
  CHECK(two.ref(Stage::Scores) == (attn::Mat(3, 3) << 1, 0, 1, 0, 1, 1, 1, 1, 2).finished());
  CHECK(two.ref(Stage::Weights)(0, 0) == Approx(c / (2 * c + 1)).margin(1e-6));             // 0.4011, printed 0.5
  CHECK(two.ref(Stage::Weights)(0, 1) == Approx(1 / (2 * c + 1)).margin(1e-6));             // 0.1978, printed 0.18
  const double z2 = 2 * c + c * c;                                                          // row "mat": [c, c, c²]
  CHECK(two.ref(Stage::Weights)(2, 2) == Approx(c * c / z2).margin(1e-6));                  // 0.5035, printed 0.54
  CHECK(two.ref(Stage::Output)(2, 0) == Approx(2 * c / z2 + 2 * c * c / z2).margin(1e-5));  // 1.50, not 1.54

  const Exercise three = note("note-the-cat-sat-on-the-mat");
  CHECK(three.ref(Stage::Scores)(1, 0) == Approx(0.28).margin(1e-6));  // printed 0.29
  CHECK(three.ref(Stage::Scores)(3, 2) == Approx(0.28).margin(1e-6));  // printed 0.29
  CHECK(three.ref(Stage::Weights)(0, 1) == Approx(0.1686).margin(1e-4));
  CHECK(three.d_k == 4);
}
