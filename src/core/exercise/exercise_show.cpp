// exercise_show.cpp — "Show me": the arithmetic of one worksheet cell as data and as English text.
#include <cmath>

#include "core/attention/cell_math.h"
#include "core/exercise/exercise.h"
#include "core/exercise/exercise_detail.h"

namespace attn::exercise {

namespace {

using detail::format_number;
using detail::MatD;

constexpr int kShownDecimals = 4;
constexpr int kTermsPerLine = 4;
// Rows whose largest scaled score is above this are written with exp(ℓ − max) so no exp overflows.
constexpr double kShiftAbove = 30;

const char* matrix_letter(Stage s) {
  static const char* const letters[] = {"Q", "K", "V", "S", "L", "A", "Z"};
  return letters[stage_index(s)];
}

std::string at(const char* name, int i, int j) {
  return std::string(name) + "[" + std::to_string(i + 1) + "," + std::to_string(j + 1) + "]";
}

// A factor of a product: negative numbers in parentheses so "0.5×(-1)" cannot be misread.
std::string factor(double v) {
  const std::string s = format_number(v, kShownDecimals);
  return v < 0 && s != "0" ? "(" + s + ")" : s;
}

std::string sum_of_terms(const CellBreakdown& b) {
  std::string out = "\n  = ";
  for (size_t k = 0; k < b.terms.size(); ++k) {
    if (k) out += k % kTermsPerLine == 0 ? "\n  + " : " + ";
    out += factor(b.terms[k].a) + "×" + factor(b.terms[k].b);
  }
  return out + "\n  = " + format_number(b.value, kShownDecimals);
}

void add_terms(CellBreakdown& b, const MatD& A, int row, const char* a_name, const MatD& B, int col, bool b_rows,
               const char* b_name) {
  const VecD column = b_rows ? VecD(B.row(col).transpose()) : VecD(B.col(col));
  const DotCell d = explain_dot(A.row(row).transpose(), column);
  b.value = d.value;
  for (size_t k = 0; k < d.a.size(); ++k) {
    const int ki = static_cast<int>(k);
    b.terms.push_back(
        Term{d.a[k], d.b[k], d.a[k] * d.b[k], at(a_name, row, ki), b_rows ? at(b_name, col, ki) : at(b_name, ki, col)});
  }
}

const char* weight_name(Stage s) { return s == Stage::Q ? "W_Q" : s == Stage::K ? "W_K" : "W_V"; }

void projection(const Exercise& ex, CellBreakdown& b) {
  const Mat& W = b.stage == Stage::Q ? ex.W_q : b.stage == Stage::K ? ex.W_k : ex.W_v;
  b.kind = BreakdownKind::Projection;
  add_terms(b, ex.X.cast<double>(), b.row, "X", W.cast<double>(), b.col, false, weight_name(b.stage));
}

void dot_product(const detail::Effective& eff, CellBreakdown& b) {
  b.kind = BreakdownKind::DotProduct;
  add_terms(b, eff[Stage::Q], b.row, "Q", eff[Stage::K], b.col, true, "K");
}

void scale(const Exercise& ex, const detail::Effective& eff, CellBreakdown& b) {
  b.kind = BreakdownKind::Scale;
  b.score = eff[Stage::Scores](b.row, b.col);
  b.d_k = ex.d_k;
  b.sqrt_d_k = std::sqrt(ex.d_k);
  b.value = b.score / b.sqrt_d_k;
}

void softmax(const detail::Effective& eff, CellBreakdown& b) {
  b.kind = BreakdownKind::Softmax;
  const SoftmaxCell c = explain_softmax_cell(eff[Stage::Scaled].row(b.row).transpose(), b.col, kShiftAbove);
  b.shift = c.shift;
  b.row_logits = c.logits;
  b.row_exps = c.exps;
  b.exp_sum = c.exp_sum;
  b.value = c.exps[static_cast<size_t>(b.col)] / c.exp_sum;
}

void weighted_sum(const detail::Effective& eff, CellBreakdown& b) {
  b.kind = BreakdownKind::WeightedSum;
  add_terms(b, eff[Stage::Weights], b.row, "A", eff[Stage::V], b.col, false, "V");
}

std::string scale_text(const CellBreakdown& b) {
  return at("L", b.row, b.col) + " = " + at("S", b.row, b.col) + " ÷ √d_k = " + factor(b.score) + " ÷ √" +
         format_number(b.d_k, 0) + " = " + factor(b.score) + " ÷ " + format_number(b.sqrt_d_k, kShownDecimals) + " = " +
         format_number(b.value, kShownDecimals);
}

std::string softmax_text(const CellBreakdown& b, const BreakdownWords& words,
                         const std::map<std::string, std::string>& params) {
  const std::string shift = b.shift != 0 ? " − " + format_number(b.shift, kShownDecimals) : "";
  std::string exps, sum;
  for (size_t j = 0; j < b.row_exps.size(); ++j) {
    exps += (j ? (j % kTermsPerLine == 0 ? ",\n  " : ", ") : "") + std::string("exp(") +
            format_number(b.row_logits[j], kShownDecimals) + shift +
            ") = " + format_number(b.row_exps[j], kShownDecimals);
    sum += (j ? " + " : "") + format_number(b.row_exps[j], kShownDecimals);
  }
  const std::string cell = at("A", b.row, b.col);
  std::string text = fill_template(words.softmax, params) + "\n  " + exps + "\n  " + words.exp_sum + " = " + sum +
                     " = " + format_number(b.exp_sum, kShownDecimals) + "\n  " + cell + " = " +
                     format_number(b.row_exps[static_cast<size_t>(b.col)], kShownDecimals) + " ÷ " +
                     format_number(b.exp_sum, kShownDecimals) + " = " + format_number(b.value, kShownDecimals);
  if (b.shift != 0) text += "\n  " + fill_template(words.shifted, params);
  return text;
}

std::string show(const Exercise& ex, const detail::Effective& eff, Stage s, int row, int col, CellBreakdown& out) {
  if (ex.ref(s).size() == 0) return "the exercise is empty";
  if (row < 0 || col < 0 || row >= ex.rows(s) || col >= ex.cols(s))
    return std::string("cell (") + std::to_string(row + 1) + ", " + std::to_string(col + 1) + ") is outside " +
           stage_title(s) + " (" + std::to_string(ex.rows(s)) + "×" + std::to_string(ex.cols(s)) + ")";
  CellBreakdown b;
  b.stage = s;
  b.row = row;
  b.col = col;
  const bool projected = s == Stage::Q || s == Stage::K || s == Stage::V;
  if (ex.is_given(s)) {
    b.kind = BreakdownKind::Given;
    b.value = ex.ref(s)(row, col);
  } else if (projected) {
    projection(ex, b);
  } else if (s == Stage::Scores) {
    dot_product(eff, b);
  } else if (s == Stage::Scaled) {
    scale(ex, eff, b);
  } else if (s == Stage::Weights) {
    softmax(eff, b);
  } else {
    weighted_sum(eff, b);
  }
  b.text = breakdown_text(ex, b);
  out = std::move(b);
  return "";
}

}  // namespace

std::string breakdown_text(const Exercise& ex, const CellBreakdown& b, const BreakdownWords& words) {
  const size_t row = static_cast<size_t>(b.row), col = static_cast<size_t>(b.col);
  const std::map<std::string, std::string> params = {
      {"cell", at(matrix_letter(b.stage), b.row, b.col)},
      {"row", std::to_string(b.row + 1)},
      {"col", std::to_string(b.col + 1)},
      {"matrix", weight_name(b.stage)},
      {"query", row < ex.query_tokens.size() ? ex.query_tokens[row] : std::to_string(b.row + 1)},
      {"key", col < ex.key_tokens.size() ? ex.key_tokens[col] : std::to_string(b.col + 1)},
      {"logit", at("L", b.row, b.col)},
      {"value", format_number(b.value, kShownDecimals)},
      {"shift", format_number(b.shift, kShownDecimals)}};
  switch (b.kind) {
    case BreakdownKind::Given:
      return fill_template(words.given, params);
    case BreakdownKind::Projection:
      return fill_template(words.projection, params) + sum_of_terms(b);
    case BreakdownKind::DotProduct:
      return fill_template(words.dot_product, params) + sum_of_terms(b);
    case BreakdownKind::Scale:
      return scale_text(b);
    case BreakdownKind::Softmax:
      return softmax_text(b, words, params);
    case BreakdownKind::WeightedSum:
      return fill_template(words.weighted_sum, params) + sum_of_terms(b);
  }
  return "";
}

std::string show_cell(const Exercise& ex, Stage s, int row, int col, CellBreakdown& out) {
  return show(ex, detail::effective_values(ex, blank_answers(ex)), s, row, col, out);
}

std::string show_cell(const Exercise& ex, const Answers& answers, Stage s, int row, int col, CellBreakdown& out) {
  return show(ex, detail::effective_values(ex, answers), s, row, col, out);
}

}  // namespace attn::exercise
