// exercise_grade.cpp — reading a typed cell, grading every cell of a worksheet, and diagnosing the mistakes.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <set>

#include "core/exercise/exercise.h"
#include "core/exercise/exercise_detail.h"

namespace attn::exercise {

using detail::MatD;

// ---- one cell -----------------------------------------------------------------------------------------------

namespace {

// "−" (U+2212) and the no-break space arrive when a learner copies numbers from the notes.
std::string normalise_typed(const std::string& raw) {
  std::string t;
  for (size_t i = 0; i < raw.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(raw[i]);
    if (c == 0xE2 && i + 2 < raw.size() && static_cast<unsigned char>(raw[i + 1]) == 0x88 &&
        static_cast<unsigned char>(raw[i + 2]) == 0x92) {
      t += '-';
      i += 2;
    } else if (c == 0xC2 && i + 1 < raw.size() && static_cast<unsigned char>(raw[i + 1]) == 0xA0) {
      t += ' ';
      ++i;
    } else {
      t += raw[i];
    }
  }
  const size_t b = t.find_first_not_of(" \t\r\n"), e = t.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : t.substr(b, e - b + 1);
}

size_t skip_digits(const std::string& t, size_t i) {
  while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
  return i;
}

// sign? digits? ('.' digits?)? (e sign? digits)? with at least one mantissa digit; `sep` is the decimal mark.
bool is_decimal(const std::string& t, char sep, bool allow_exponent, int& decimals, bool& negative_exponent) {
  size_t i = 0;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
  const size_t int_end = skip_digits(t, i);
  size_t digits = int_end - i;
  i = int_end;
  decimals = 0;
  if (i < t.size() && t[i] == sep) {
    const size_t frac_end = skip_digits(t, i + 1);
    decimals = static_cast<int>(frac_end - i - 1);
    digits += frac_end - i - 1;
    i = frac_end;
  }
  if (digits == 0) return false;
  negative_exponent = false;
  if (allow_exponent && i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) negative_exponent = t[i++] == '-';
    const size_t exp_end = skip_digits(t, i);
    if (exp_end == i) return false;
    i = exp_end;
  }
  return i == t.size();
}

}  // namespace

ParsedCell parse_cell(const std::string& raw) {
  ParsedCell p;
  const std::string t = normalise_typed(raw);
  if (t.empty()) return p;
  p.empty = false;
  if (raw.size() > kMaxCellChars) {
    p.issue = InputIssue::TooLong;
    return p;
  }
  std::string lower;
  for (char c : t) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string unsigned_lower = lower[0] == '+' || lower[0] == '-' ? lower.substr(1) : lower;
  if (unsigned_lower == "nan" || unsigned_lower == "inf" || unsigned_lower == "infinity") {
    p.issue = InputIssue::NotFinite;
    return p;
  }
  int decimals = 0;
  bool negative_exponent = false;
  if (!is_decimal(t, '.', true, decimals, negative_exponent)) {
    p.issue = is_decimal(t, ',', false, decimals, negative_exponent) && t.find(',') != std::string::npos
                  ? InputIssue::DecimalComma
                  : InputIssue::NotANumber;
    return p;
  }
  // strtod reads '.': no program of this project changes the C locale (and the page's module carries no
  // iostreams). ERANGE is what a stream's failbit said: out of the double range.
  errno = 0;
  double v = std::strtod(t.c_str(), nullptr);
  if (errno == ERANGE) {
    // The syntax is valid, so the number is out of the double range: tiny ones are 0, huge ones refused.
    if (!negative_exponent) {
      p.issue = InputIssue::OutOfRange;
      return p;
    }
    v = 0;
  }
  if (!std::isfinite(v) || std::fabs(v) > kMaxCellMagnitude) {
    p.issue = InputIssue::OutOfRange;
    return p;
  }
  p.value = v == 0 ? 0.0 : v;  // "-0" is 0
  p.decimals_typed = decimals;
  return p;
}

// ---- effective values -----------------------------------------------------------------------------------------

namespace detail {

namespace {
bool shape_matches(const Answers& a, const Exercise& ex, Stage s) {
  const size_t k = static_cast<size_t>(stage_index(s));
  return a.rows[k] == ex.rows(s) && a.cols[k] == ex.cols(s) &&
         a.text[k].size() == static_cast<size_t>(a.rows[k] * a.cols[k]);
}
}  // namespace

Effective effective_values(const Exercise& ex, const Answers& a) {
  Effective e;
  for (Stage s : kStages) {
    const size_t k = static_cast<size_t>(stage_index(s));
    e.value[k] = ex.ref(s).cast<double>();
    e.typed[k].setConstant(ex.rows(s), ex.cols(s), false);
    if (ex.is_given(s) || !shape_matches(a, ex, s)) continue;
    for (int i = 0; i < ex.rows(s); ++i)
      for (int j = 0; j < ex.cols(s); ++j) {
        const ParsedCell p = parse_cell(a.text[k][static_cast<size_t>(i * ex.cols(s) + j)]);
        if (p.empty || p.issue != InputIssue::None) continue;
        e.value[k](i, j) = p.value;
        e.typed[k](i, j) = true;
      }
  }
  return e;
}

MatD softmax_rows(const MatD& L) {
  MatD A(L.rows(), L.cols());
  for (Eigen::Index i = 0; i < L.rows(); ++i) {
    const double mx = L.row(i).maxCoeff();
    double sum = 0;
    for (Eigen::Index j = 0; j < L.cols(); ++j) sum += (A(i, j) = std::exp(L(i, j) - mx));
    A.row(i) /= sum;
  }
  return A;
}

std::array<std::vector<MatD>, kStageCount> own_candidates(const Exercise& ex, const Effective& eff) {
  std::array<std::vector<MatD>, kStageCount> c;
  auto at = [&](Stage s) -> std::vector<MatD>& { return c[static_cast<size_t>(stage_index(s))]; };
  for (Stage s : {Stage::Q, Stage::K, Stage::V}) at(s).push_back(ex.ref(s).cast<double>());
  const double root = std::sqrt(ex.d_k);
  const MatD& V = eff[Stage::V];
  // Started from the weights, the scaled scores, the scores, then Q and K: nearest first.
  at(Stage::Output).push_back(eff[Stage::Weights] * V);
  MatD A = softmax_rows(eff[Stage::Scaled]);
  at(Stage::Weights).push_back(A);
  at(Stage::Output).push_back(A * V);
  MatD L = eff[Stage::Scores] / root;
  at(Stage::Scaled).push_back(L);
  A = softmax_rows(L);
  at(Stage::Weights).push_back(A);
  at(Stage::Output).push_back(A * V);
  const MatD S = eff[Stage::Q] * eff[Stage::K].transpose();
  at(Stage::Scores).push_back(S);
  L = S / root;
  at(Stage::Scaled).push_back(L);
  A = softmax_rows(L);
  at(Stage::Weights).push_back(A);
  at(Stage::Output).push_back(A * V);
  return c;
}

}  // namespace detail

// ---- tolerance ----------------------------------------------------------------------------------------------

namespace {

constexpr double kRefEpsilon = 1e-6;    // float rounding of the reference, relative to max(1, |r|)
constexpr double kExpRelError = 0.005;  // an exp kept to 3 significant figures

double round_to(double v, int decimals) {
  const double p = std::pow(10.0, decimals);
  return std::round(v * p) / p;
}

// Relative error of dividing by √d_k rounded to 2 decimals, or of multiplying by 1/√d_k rounded to 2 decimals.
double scale_rounding(double d_k) {
  const double root = std::sqrt(d_k);
  double rho = 0;
  const double root2 = round_to(root, 2), inverse2 = round_to(1 / root, 2);
  if (root2 > 0) rho = std::max(rho, std::fabs(root / root2 - 1));
  if (inverse2 > 0) rho = std::max(rho, std::fabs(inverse2 * root - 1));
  return rho;
}

double rounding_tolerance(int decimals, double r) {
  return 0.5 * std::pow(10.0, -decimals) + kRefEpsilon * std::max(1.0, std::fabs(r));
}

// The rule at the top of exercise.h for a cell whose reference is r.
double cell_tolerance(const Exercise& ex, const detail::Effective& eff, Stage s, int i, int j, double r) {
  double tol = rounding_tolerance(ex.decimals_of(s), r);
  if (s == Stage::Scaled) tol += std::fabs(r) * scale_rounding(ex.d_k);
  if (s == Stage::Weights) {
    const double w = std::clamp(r, 0.0, 1.0);
    tol += 2 * kExpRelError * w * (1 - w);
  }
  if (s == Stage::Output) {
    const double half_unit = 0.5 * std::pow(10.0, -ex.decimals_of(Stage::Weights));
    for (int k = 0; k < ex.cols(Stage::Weights); ++k)
      if (!eff.is_typed(Stage::Weights, i, k)) tol += half_unit * std::fabs(eff[Stage::V](k, j));
  }
  return tol;
}

using StageCell = std::pair<Stage, Cell>;

// The cells of earlier stages one cell is computed from.
std::vector<StageCell> dependencies(const Exercise& ex, Stage s, int i, int j) {
  std::vector<StageCell> deps;
  auto row_of = [&](Stage from, int row) {
    for (int c = 0; c < ex.cols(from); ++c) deps.push_back({from, {row, c}});
  };
  switch (s) {
    case Stage::Scores:
      row_of(Stage::Q, i);
      row_of(Stage::K, j);
      break;
    case Stage::Scaled:
      deps.push_back({Stage::Scores, {i, j}});
      break;
    case Stage::Weights:
      row_of(Stage::Scaled, i);
      break;
    case Stage::Output:
      row_of(Stage::Weights, i);
      for (int r = 0; r < ex.rows(Stage::V); ++r) deps.push_back({Stage::V, {r, j}});
      break;
    default:
      break;
  }
  return deps;
}

// A systematic mistake: what the whole stage would hold if the learner made it.
struct Hypothesis {
  DiagnosisKind kind;
  MatD values;  // NaN where the mistake says nothing about a cell
  std::map<std::string, std::string> params;
};

MatD nan_mat(Eigen::Index rows, Eigen::Index cols) {
  return MatD::Constant(rows, cols, std::numeric_limits<double>::quiet_NaN());
}

std::vector<Hypothesis> projection_hypotheses(const Exercise& ex, Stage s) {
  std::vector<Hypothesis> out;
  if (ex.X.size() == 0) return out;
  const std::pair<Stage, const Mat*> ws[] = {{Stage::Q, &ex.W_q}, {Stage::K, &ex.W_k}, {Stage::V, &ex.W_v}};
  const char* names[] = {"W_Q", "W_K", "W_V"};
  const Mat* own = ws[stage_index(s)].second;
  if (own->size() == 0) return out;
  for (int k = 0; k < 3; ++k) {
    const Mat& w = *ws[k].second;
    if (ws[k].first == s || w.size() == 0 || w.cols() != own->cols()) continue;
    out.push_back({DiagnosisKind::WrongProjection,
                   ex.X.cast<double>() * w.cast<double>(),
                   {{"used", names[k]}, {"wanted", names[stage_index(s)]}}});
  }
  return out;
}

std::vector<Hypothesis> score_hypotheses(const detail::Effective& eff) {
  std::vector<Hypothesis> out;
  const MatD& Q = eff[Stage::Q];
  const MatD& K = eff[Stage::K];
  const Eigen::Index n = Q.rows(), m = K.rows(), d = Q.cols();
  if (n == m) {
    out.push_back({DiagnosisKind::ScoresTransposed, K * Q.transpose(), {}});
    // Qᵀ·K is d×d; a learner types it into the top-left corner of the n×m grid.
    MatD corner = nan_mat(n, m);
    const MatD qtk = Q.transpose() * K;
    for (Eigen::Index i = 0; i < std::min(n, d); ++i)
      for (Eigen::Index j = 0; j < std::min(m, d); ++j) corner(i, j) = qtk(i, j);
    out.push_back({DiagnosisKind::UsedQtK, corner, {}});
  }
  if (d == m) out.push_back({DiagnosisKind::UsedKNotKt, Q * K, {}});
  return out;
}

// A note prints X column by column (one token per column); read row by row, d_model numbers per token, the
// same digits give another X. Generated exercises show X one token per row, so only notes are asked.
std::vector<Hypothesis> x_reading_hypotheses(const Exercise& ex, Stage s) {
  const Mat* w = s == Stage::Q ? &ex.W_q : s == Stage::K ? &ex.W_k : &ex.W_v;
  if (ex.origin != Origin::Note || ex.X.size() == 0 || w->size() == 0) return {};
  const MatD printed = ex.X.cast<double>().transpose();  // the grid the note shows
  MatD read(ex.X.rows(), ex.X.cols());
  for (Eigen::Index k = 0; k < read.size(); ++k)
    read(k / read.cols(), k % read.cols()) = printed(k / printed.cols(), k % printed.cols());
  return {
      {DiagnosisKind::XReadAsRows, read * w->cast<double>(), {{"x_row", detail::format_row(ex.X.cast<double>(), 0)}}}};
}

// The scaled scores under a wrong scale: ×√d_k, and ÷√d_model where that differs from ÷d_k (in a 4-wide
// embedding with d_k = 2 the two are the same number, and ÷d_k is the diagnosis).
std::vector<Hypothesis> scale_hypotheses(const Exercise& ex, const MatD& S) {
  const double root = std::sqrt(ex.d_k);
  std::vector<Hypothesis> out = {{DiagnosisKind::ForgotScale, S, {}},
                                 {DiagnosisKind::DividedByDk, S / ex.d_k, {}},
                                 {DiagnosisKind::MultipliedByRoot, S * root, {}}};
  const double d_model = static_cast<double>(ex.X.cols());
  if (ex.X.size() && d_model != ex.d_k && std::fabs(std::sqrt(d_model) - ex.d_k) > 1e-9)
    out.push_back({DiagnosisKind::RootOfDModel,
                   S / std::sqrt(d_model),
                   {{"d_model", detail::format_number(d_model, 0)},
                    {"sqrt_d_model", detail::format_number(std::sqrt(d_model), 4)}}});
  return out;
}

// Each row of E divided by its sum; NaN where the sum is 0 or a row has no cell `keep` marks.
MatD normalise_rows(MatD E, const std::function<bool(Eigen::Index, Eigen::Index)>& keep = nullptr) {
  for (Eigen::Index i = 0; i < E.rows(); ++i) {
    bool kept = !keep;
    for (Eigen::Index j = 0; j < E.cols() && !kept; ++j) kept = keep(i, j);
    const double sum = E.row(i).sum();
    if (!kept || std::fabs(sum) < 1e-9)
      E.row(i).setConstant(std::numeric_limits<double>::quiet_NaN());
    else
      E.row(i) /= sum;
  }
  return E;
}

std::vector<Hypothesis> weight_hypotheses(const Exercise& ex, const detail::Effective& eff) {
  const MatD& L = eff[Stage::Scaled];
  std::vector<Hypothesis> out;
  for (Hypothesis& h : scale_hypotheses(ex, eff[Stage::Scores]))
    out.push_back({h.kind, detail::softmax_rows(h.values), std::move(h.params)});
  out.push_back({DiagnosisKind::SoftmaxOverColumns, detail::softmax_rows(L.transpose()).transpose(), {}});
  out.push_back({DiagnosisKind::ForgotExp, normalise_rows(L), {}});
  const MatD E = (L.array() - L.maxCoeff()).exp().matrix();
  out.push_back({DiagnosisKind::SoftmaxOverMatrix, E / E.sum(), {}});
  out.push_back({DiagnosisKind::PowerOfTen, detail::softmax_rows(L * std::log(10.0)), {}});
  auto is_zero = [&](Eigen::Index i, Eigen::Index j) { return std::fabs(L(i, j)) < 1e-9; };
  const MatD zero_as_zero = L.unaryExpr([](double l) { return std::fabs(l) < 1e-9 ? 0.0 : std::exp(l); });
  out.push_back({DiagnosisKind::ExpZeroAsZero, normalise_rows(zero_as_zero, is_zero), {}});
  return out;
}

// The output from the learner's own earlier stages, with one of the common slips.
std::vector<Hypothesis> output_hypotheses(const detail::Effective& eff) {
  const MatD& A = eff[Stage::Weights];
  const MatD& V = eff[Stage::V];
  std::vector<Hypothesis> out = {{DiagnosisKind::SkippedSoftmax, eff[Stage::Scaled] * V, {{"used", "QKᵀ/√d_k"}}},
                                 {DiagnosisKind::SkippedSoftmax, eff[Stage::Scores] * V, {{"used", "QKᵀ"}}}};
  if (A.rows() == A.cols()) out.push_back({DiagnosisKind::WeightsTransposed, A.transpose() * V, {}});
  const MatD& K = eff[Stage::K];
  if (K.rows() == V.rows() && K.cols() == V.cols()) out.push_back({DiagnosisKind::KeysAsValues, A * K, {}});
  return out;
}

std::vector<Hypothesis> hypotheses(const Exercise& ex, const detail::Effective& eff, Stage s) {
  switch (s) {
    case Stage::Q:
    case Stage::K:
    case Stage::V: {
      std::vector<Hypothesis> out = projection_hypotheses(ex, s);
      for (Hypothesis& h : x_reading_hypotheses(ex, s)) out.push_back(std::move(h));
      return out;
    }
    case Stage::Scores:
      return score_hypotheses(eff);
    case Stage::Scaled:
      return scale_hypotheses(ex, eff[Stage::Scores]);
    case Stage::Weights:
      return weight_hypotheses(ex, eff);
    case Stage::Output:
      return output_hypotheses(eff);
    default:
      return {};
  }
}

class Grader {
 public:
  Grader(const Exercise& ex, const Answers& a)
      : ex_(ex), answers_(a), eff_(detail::effective_values(ex, a)), own_(detail::own_candidates(ex, eff_)) {
    note_paths();
  }

  Grade run() {
    for (Stage s : kStages) classify(s);
    for (Stage s : kStages)
      if (!ex_.is_given(s)) diagnose(s);
    for (const Diagnosis& d : g_.diagnoses)
      if (diagnosis_text(d.kind).is_mistake) ++g_.mistakes;
    g_.complete = g_.answered == g_.asked;
    g_.all_correct = g_.complete;
    for (const StageGrade& st : g_.stages)
      if (!st.given && st.correct != st.rows * st.cols) g_.all_correct = false;
    return std::move(g_);
  }

 private:
  const Exercise& ex_;
  const Answers& answers_;
  detail::Effective eff_;
  std::array<std::vector<MatD>, kStageCount> own_;
  // Where a note printed wrong numbers: every later stage as those numbers give it (the printed ones in place of
  // the learner's or the correct ones, carried on as own_ is), one path per remark that prints numbers.
  struct NotePath {
    int remark;
    std::array<std::vector<MatD>, kStageCount> values;
  };
  std::vector<NotePath> note_paths_;
  Grade g_;

  void note_paths() {
    for (size_t r = 0; r < ex_.remarks.size(); ++r) {
      const Remark& rm = ex_.remarks[r];
      const Stage s = rm.stage;
      if (ex_.is_given(s) || rm.printed.rows() != ex_.rows(s) || rm.printed.cols() != ex_.cols(s)) continue;
      detail::Effective printed = eff_;
      MatD& m = printed.value[static_cast<size_t>(stage_index(s))];
      bool any = false;
      for (int i = 0; i < ex_.rows(s); ++i)
        for (int j = 0; j < ex_.cols(s); ++j)
          if (std::isfinite(rm.printed(i, j))) m(i, j) = rm.printed(i, j), any = true;
      if (any) note_paths_.push_back({static_cast<int>(r), detail::own_candidates(ex_, printed)});
    }
  }

  // Walks back from cell `c` of stage `s` through the cells it is computed from: `at(d)` says whether the walk
  // keeps cell d and ends there, drops it and ends there, or goes on through d's own sources.
  enum class Walk { Keep, Drop, Through };
  template <typename At>
  std::vector<StageCell> walk_sources(Stage s, Cell c, At at) {
    std::vector<StageCell> out, todo = dependencies(ex_, s, c.row, c.col);
    std::set<std::pair<int, Cell>> seen;
    while (!todo.empty()) {
      const StageCell d = todo.back();
      todo.pop_back();
      if (!seen.insert({stage_index(d.first), d.second}).second) continue;
      const Walk w = at(d);
      if (w == Walk::Keep) out.push_back(d);
      if (w != Walk::Through) continue;
      for (const StageCell& e : dependencies(ex_, d.first, d.second.row, d.second.col)) todo.push_back(e);
    }
    return out;
  }

  // The cells a remark printed that cell `c` of stage `s` is computed from, through any stages in between.
  std::vector<StageCell> printed_sources(const Remark& rm, Stage s, Cell c) {
    std::vector<StageCell> out = walk_sources(s, c, [&](const StageCell& d) {
      if (d.first != rm.stage) return Walk::Through;
      return std::isfinite(rm.printed(d.second.row, d.second.col)) ? Walk::Keep : Walk::Drop;
    });
    std::sort(out.begin(), out.end(), [](const StageCell& a, const StageCell& b) {
      return stage_index(a.first) != stage_index(b.first) ? stage_index(a.first) < stage_index(b.first)
                                                          : a.second < b.second;
    });
    return out;
  }

  StageGrade& sg(Stage s) { return g_.stages[static_cast<size_t>(stage_index(s))]; }
  CellGrade& cell(Stage s, Cell c) { return sg(s).cells[static_cast<size_t>(c.row * sg(s).cols + c.col)]; }

  bool not_true(Stage s, Cell c) {
    const CellStatus st = cell(s, c).status;
    return st == CellStatus::Wrong || st == CellStatus::CarriedForward;
  }

  bool follows_from_own(Stage s, int i, int j, double x) const {
    for (const MatD& m : own_[static_cast<size_t>(stage_index(s))])
      if (std::fabs(x - m(i, j)) <= cell_tolerance(ex_, eff_, s, i, j, m(i, j))) return true;
    return false;
  }

  // The learner's wrong cells a cell is computed from: the nearest ones, looking through right or blank cells.
  std::vector<StageCell> wrong_sources(Stage s, Cell c) {
    return walk_sources(s, c,
                        [&](const StageCell& d) { return not_true(d.first, d.second) ? Walk::Keep : Walk::Through; });
  }

  void classify(Stage s) {
    const size_t k = static_cast<size_t>(stage_index(s));
    StageGrade& st = sg(s);
    st.stage = s;
    st.given = ex_.is_given(s);
    st.rows = ex_.rows(s);
    st.cols = ex_.cols(s);
    st.cells.assign(static_cast<size_t>(st.rows * st.cols), CellGrade());
    const bool shape_ok = answers_.rows[k] == st.rows && answers_.cols[k] == st.cols &&
                          answers_.text[k].size() == static_cast<size_t>(st.rows * st.cols);
    for (int i = 0; i < st.rows; ++i)
      for (int j = 0; j < st.cols; ++j) {
        CellGrade& c = cell(s, {i, j});
        c.expected = ex_.ref(s)(i, j);
        c.expected_own = own_[k].front()(i, j);
        c.tolerance = cell_tolerance(ex_, eff_, s, i, j, c.expected);
        if (st.given) {
          c.status = CellStatus::Given;
          c.value = c.expected;
          continue;
        }
        ++g_.asked;
        const std::string& typed = shape_ok ? answers_.text[k][static_cast<size_t>(i * st.cols + j)] : std::string();
        const ParsedCell p = parse_cell(typed);
        if (p.empty) continue;
        if (p.issue != InputIssue::None) {
          c.status = CellStatus::Invalid;
          c.issue = p.issue;
          c.message = input_issue_message(p.issue, typed);
          ++st.invalid;
          continue;
        }
        c.value = p.value;
        ++st.answered;
        ++g_.answered;
        if (std::fabs(c.value - c.expected) <= c.tolerance) {
          c.status = CellStatus::Correct;
        } else if (follows_from_own(s, i, j, c.value)) {
          // Right from the learner's own numbers: a new mistake only if those numbers were right.
          c.status = wrong_sources(s, {i, j}).empty() ? CellStatus::Correct : CellStatus::CarriedForward;
        } else {
          c.status = CellStatus::Wrong;
        }
        ++(c.status == CellStatus::Correct ? st.correct : c.status == CellStatus::Wrong ? st.wrong : st.carried);
      }
  }

  bool explains(Stage s, Cell c, double h) const {
    if (!std::isfinite(h)) return false;
    const CellGrade& cg =
        g_.stages[static_cast<size_t>(stage_index(s))].cells[static_cast<size_t>(c.row * ex_.cols(s) + c.col)];
    return std::fabs(cg.value - h) <= cell_tolerance(ex_, eff_, s, c.row, c.col, h);
  }

  void diagnose(Stage s) {
    std::vector<Cell> wrong;
    for (int i = 0; i < sg(s).rows; ++i)
      for (int j = 0; j < sg(s).cols; ++j)
        if (cell(s, {i, j}).status == CellStatus::Wrong) wrong.push_back({i, j});
    note_slips(s, wrong);
    from_note_slips(s, wrong);
    systematic(s, wrong);
    leftovers(s, wrong);
    carried(s);
    if (s == Stage::Weights) row_sums();
  }

  // Takes out of `wrong` the cells for which pred holds.
  static std::vector<Cell> take(std::vector<Cell>& wrong, const std::function<bool(Cell)>& pred) {
    std::vector<Cell> taken, kept;
    for (Cell c : wrong) (pred(c) ? taken : kept).push_back(c);
    wrong = kept;
    return taken;
  }

  void note_slips(Stage s, std::vector<Cell>& wrong) {
    for (size_t r = 0; r < ex_.remarks.size(); ++r) {
      const Remark& rm = ex_.remarks[r];
      if (rm.stage != s || rm.printed.rows() != ex_.rows(s) || rm.printed.cols() != ex_.cols(s)) continue;
      std::vector<Cell> cells = take(wrong, [&](Cell c) {
        const double printed = rm.printed(c.row, c.col);
        return std::isfinite(printed) &&
               std::fabs(cell(s, c).value - printed) <= rounding_tolerance(ex_.decimals_of(s), printed);
      });
      if (!cells.empty()) add(DiagnosisKind::NoteSlip, s, cells, {}, static_cast<int>(r));
    }
  }

  // Wrong cells that are what a note's printed slip gives at this later stage: the note's numbers carried on.
  // The note never prints these, so they are not its slip (NoteSlip) but follow from one; the remark about this
  // stage that relates to them, if any, says what the note's numbers give here.
  void from_note_slips(Stage s, std::vector<Cell>& wrong) {
    for (const NotePath& path : note_paths_) {
      const Remark& rm = ex_.remarks[static_cast<size_t>(path.remark)];
      if (stage_index(rm.stage) >= stage_index(s)) continue;
      std::set<std::pair<int, Cell>> sources;
      std::vector<Cell> cells = take(wrong, [&](Cell c) {
        const std::vector<StageCell> from = printed_sources(rm, s, c);
        if (from.empty()) return false;
        for (const MatD& m : path.values[static_cast<size_t>(stage_index(s))])
          if (std::fabs(cell(s, c).value - m(c.row, c.col)) <=
              cell_tolerance(ex_, eff_, s, c.row, c.col, m(c.row, c.col))) {
            for (const StageCell& f : from) sources.insert({stage_index(f.first), f.second});
            return true;
          }
        return false;
      });
      if (cells.empty()) continue;
      std::vector<StageCell> src;
      for (const auto& [k, c] : sources) src.push_back({kStages[static_cast<size_t>(k)], c});
      const int related = related_remark(DiagnosisKind::FromNoteSlip, s);
      const bool here = related >= 0 && ex_.remarks[static_cast<size_t>(related)].stage == s;
      add(DiagnosisKind::FromNoteSlip, s, cells, src, here ? related : path.remark);
    }
  }

  // Answered cells where a mistake would show: its value is clearly not the correct one.
  size_t telling_cells(Stage s, const MatD& h) {
    size_t n = 0;
    for (int i = 0; i < sg(s).rows; ++i)
      for (int j = 0; j < sg(s).cols; ++j) {
        const CellGrade& c = cell(s, {i, j});
        const bool answered = c.status != CellStatus::Empty && c.status != CellStatus::Invalid;
        n += answered && std::isfinite(h(i, j)) && std::fabs(h(i, j) - c.expected) > c.tolerance;
      }
    return n;
  }

  // The systematic mistake explaining the most wrong cells first, until none explains any. One matching cell
  // is a coincidence unless it is the only cell where the mistake would show. Mistakes of other kinds that
  // explain exactly the same cells give the same numbers there: nothing tells them apart, so they are one
  // diagnosis naming each (SameNumbers), counted once, never one of them picked by the order they are tried in.
  void systematic(Stage s, std::vector<Cell>& wrong) {
    std::vector<Hypothesis> hs = hypotheses(ex_, eff_, s);
    while (!wrong.empty() && !hs.empty()) {
      std::vector<std::vector<Cell>> explained(hs.size());
      size_t best = 0, best_count = 0;
      for (size_t h = 0; h < hs.size(); ++h) {
        for (Cell c : wrong)
          if (explains(s, c, hs[h].values(c.row, c.col))) explained[h].push_back(c);
        if (explained[h].size() == 1 && telling_cells(s, hs[h].values) > 1) explained[h].clear();
        if (explained[h].size() > best_count) best = h, best_count = explained[h].size();
      }
      if (best_count == 0) return;
      std::vector<size_t> same = {best};
      for (size_t h = best + 1; h < hs.size(); ++h) {
        const bool new_kind =
            std::none_of(same.begin(), same.end(), [&](size_t k) { return hs[k].kind == hs[h].kind; });
        if (new_kind && explained[h] == explained[best]) same.push_back(h);
      }
      const std::vector<Cell> cells = explained[best];
      take(wrong, [&](Cell c) { return std::find(cells.begin(), cells.end(), c) != cells.end(); });
      if (same.size() == 1) {
        add(hs[best].kind, s, cells, {}, -1, hs[best].params);
      } else {
        std::vector<Alternative> alternatives;
        for (size_t k : same) alternatives.push_back({hs[k].kind, hs[k].params});
        add(DiagnosisKind::SameNumbers, s, cells, {}, -1, {}, std::move(alternatives));
      }
      for (auto k = same.rbegin(); k != same.rend(); ++k) hs.erase(hs.begin() + static_cast<std::ptrdiff_t>(*k));
    }
  }

  // What no pattern explains: a row with one wrong cell is a slip there; rows with more are unexplained.
  void leftovers(Stage s, std::vector<Cell>& wrong) {
    std::vector<Cell> unexplained;
    for (int i = 0; i < sg(s).rows; ++i) {
      std::vector<Cell> in_row = take(wrong, [&](Cell c) { return c.row == i; });
      if (in_row.size() == 1) {
        const CellGrade& c = cell(s, in_row[0]);
        const int d = ex_.decimals_of(s);
        add(DiagnosisKind::ArithmeticSlip, s, in_row, {}, -1,
            {{"value", detail::format_number(c.value, d + 2)}, {"expected", detail::format_number(c.expected_own, d)}});
      } else {
        unexplained.insert(unexplained.end(), in_row.begin(), in_row.end());
      }
    }
    if (!unexplained.empty()) add(DiagnosisKind::Unexplained, s, unexplained);
  }

  void carried(Stage s) {
    std::vector<Cell> cells;
    std::set<std::pair<int, Cell>> sources;
    for (int i = 0; i < sg(s).rows; ++i)
      for (int j = 0; j < sg(s).cols; ++j) {
        if (cell(s, {i, j}).status != CellStatus::CarriedForward) continue;
        cells.push_back({i, j});
        for (const StageCell& d : wrong_sources(s, {i, j})) sources.insert({stage_index(d.first), d.second});
      }
    if (cells.empty()) return;
    std::vector<StageCell> src;
    for (const auto& [k, c] : sources) src.push_back({kStages[static_cast<size_t>(k)], c});
    add(DiagnosisKind::CarriedForward, s, cells, src);
  }

  // A fully typed weights row far from summing to 1 (unless a diagnosis of a softmax over the columns or the
  // whole matrix says so already).
  void row_sums() {
    const Stage s = Stage::Weights;
    for (int i = 0; i < sg(s).rows; ++i) {
      double sum = 0, allowed = 0;
      bool typed = true, said_already = false;
      std::vector<Cell> cells;
      for (int j = 0; j < sg(s).cols; ++j) {
        const CellGrade& c = cell(s, {i, j});
        typed = typed && eff_.is_typed(s, i, j);
        if (c.diagnosis >= 0)
          for (DiagnosisKind said : kinds_of(g_.diagnoses[static_cast<size_t>(c.diagnosis)]))
            said_already =
                said_already || said == DiagnosisKind::SoftmaxOverColumns || said == DiagnosisKind::SoftmaxOverMatrix;
        sum += c.value;
        allowed += c.tolerance;
        cells.push_back({i, j});
      }
      if (!typed || said_already || std::fabs(sum - 1) <= allowed) continue;
      add(DiagnosisKind::RowSumNotOne, s, cells, {}, -1,
          {{"rows", std::to_string(i + 1)}, {"sums", detail::format_number(sum, ex_.decimals_of(s) + 1)}});
    }
  }

  // The mistakes a diagnosis names: its kind, or each of a SameNumbers diagnosis's alternatives.
  static std::vector<DiagnosisKind> kinds_of(const Diagnosis& d) {
    if (d.kind != DiagnosisKind::SameNumbers) return {d.kind};
    std::vector<DiagnosisKind> out;
    for (const Alternative& a : d.alternatives) out.push_back(a.kind);
    return out;
  }

  void add(DiagnosisKind kind, Stage s, std::vector<Cell> cells, std::vector<StageCell> sources = {}, int remark = -1,
           std::map<std::string, std::string> params = {}, std::vector<Alternative> alternatives = {}) {
    Diagnosis d;
    d.kind = kind;
    d.stage = s;
    d.cells = std::move(cells);
    d.sources = std::move(sources);
    d.alternatives = std::move(alternatives);
    for (DiagnosisKind k : kinds_of(d))
      if (remark < 0) remark = related_remark(k, s);
    d.remark = remark;
    d.params = std::move(params);
    d.params["stage"] = stage_title(s);
    d.params["cells"] = describe_cells(ex_, s, d.cells);
    d.params["count"] = std::to_string(d.cells.size());
    d.params["d_k"] = detail::format_number(ex_.d_k, 0);
    d.params["sqrt_d_k"] = detail::format_number(std::sqrt(ex_.d_k), 4);
    if (!d.sources.empty()) d.params["sources"] = describe_sources(d.sources);
    if (d.remark >= 0) d.params["remark"] = ex_.remarks[static_cast<size_t>(d.remark)].text;
    if (!d.alternatives.empty()) d.params["mistakes"] = same_numbers_list(d, d.params);
    d.message = fill_template(diagnosis_text(kind).tmpl, d.params);
    if (d.remark >= 0 && kind != DiagnosisKind::NoteSlip) d.message += " " + d.params["remark"];
    if (!d.message.empty() && d.message[0] >= 'a' && d.message[0] <= 'z')
      d.message[0] = static_cast<char>(d.message[0] - 'a' + 'A');
    const int index = static_cast<int>(g_.diagnoses.size());
    for (Cell c : d.cells)
      if (cell(s, c).diagnosis < 0) cell(s, c).diagnosis = index;
    g_.diagnoses.push_back(std::move(d));
  }

  // A remark of the exercise about this kind of mistake: on the same stage if there is one, else anywhere.
  int related_remark(DiagnosisKind kind, Stage s) const {
    int any = -1;
    for (size_t r = 0; r < ex_.remarks.size(); ++r) {
      const Remark& rm = ex_.remarks[r];
      if (std::find(rm.related.begin(), rm.related.end(), kind) == rm.related.end()) continue;
      if (rm.stage == s) return static_cast<int>(r);
      if (any < 0) any = static_cast<int>(r);
    }
    return any;
  }

  std::string describe_sources(const std::vector<StageCell>& sources) const {
    return exercise::describe_sources(ex_, sources);
  }
};

}  // namespace

Grade grade(const Exercise& ex, const Answers& answers) { return Grader(ex, answers).run(); }

}  // namespace attn::exercise
