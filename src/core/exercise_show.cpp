// exercise_show.cpp — "Show me": the arithmetic of one worksheet cell as data and as English text.
#include <cmath>

#include "exercise.h"
#include "exercise_detail.h"

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
  b.value = 0;
  for (Eigen::Index k = 0; k < A.cols(); ++k) {
    Term t;
    t.a = A(row, k);
    t.b = b_rows ? B(col, k) : B(k, col);
    t.product = t.a * t.b;
    t.a_label = at(a_name, row, static_cast<int>(k));
    t.b_label = b_rows ? at(b_name, col, static_cast<int>(k)) : at(b_name, static_cast<int>(k), col);
    b.value += t.product;
    b.terms.push_back(std::move(t));
  }
}

void projection(const Exercise& ex, CellBreakdown& b) {
  const Mat& W = b.stage == Stage::Q ? ex.W_q : b.stage == Stage::K ? ex.W_k : ex.W_v;
  const char* w_name = b.stage == Stage::Q ? "W_Q" : b.stage == Stage::K ? "W_K" : "W_V";
  b.kind = BreakdownKind::Projection;
  add_terms(b, ex.X.cast<double>(), b.row, "X", W.cast<double>(), b.col, false, w_name);
  b.text = at(matrix_letter(b.stage), b.row, b.col) + " = row " + std::to_string(b.row + 1) + " of X · column " +
           std::to_string(b.col + 1) + " of " + w_name + sum_of_terms(b);
}

void dot_product(const Exercise& ex, const detail::Effective& eff, CellBreakdown& b) {
  b.kind = BreakdownKind::DotProduct;
  add_terms(b, eff[Stage::Q], b.row, "Q", eff[Stage::K], b.col, true, "K");
  b.text = at("S", b.row, b.col) + " = q_" + std::to_string(b.row + 1) + "·k_" + std::to_string(b.col + 1) +
           " (query “" + ex.query_tokens[static_cast<size_t>(b.row)] + "”, key “" +
           ex.key_tokens[static_cast<size_t>(b.col)] + "”)" + sum_of_terms(b);
}

void scale(const Exercise& ex, const detail::Effective& eff, CellBreakdown& b) {
  b.kind = BreakdownKind::Scale;
  b.score = eff[Stage::Scores](b.row, b.col);
  b.d_k = ex.d_k;
  b.sqrt_d_k = std::sqrt(ex.d_k);
  b.value = b.score / b.sqrt_d_k;
  b.text = at("L", b.row, b.col) + " = " + at("S", b.row, b.col) + " ÷ √d_k = " + factor(b.score) + " ÷ √" +
           format_number(b.d_k, 0) + " = " + factor(b.score) + " ÷ " + format_number(b.sqrt_d_k, kShownDecimals) +
           " = " + format_number(b.value, kShownDecimals);
}

void softmax(const detail::Effective& eff, CellBreakdown& b) {
  b.kind = BreakdownKind::Softmax;
  const MatD& L = eff[Stage::Scaled];
  const double mx = L.row(b.row).maxCoeff();
  b.shift = mx > kShiftAbove ? mx : 0;
  b.exp_sum = 0;
  for (Eigen::Index j = 0; j < L.cols(); ++j) {
    b.row_logits.push_back(L(b.row, j));
    b.row_exps.push_back(std::exp(L(b.row, j) - b.shift));
    b.exp_sum += b.row_exps.back();
  }
  b.value = b.row_exps[static_cast<size_t>(b.col)] / b.exp_sum;
  const std::string shift = b.shift != 0 ? " − " + format_number(b.shift, kShownDecimals) : "";
  std::string exps, sum;
  for (size_t j = 0; j < b.row_exps.size(); ++j) {
    exps += (j ? (j % kTermsPerLine == 0 ? ",\n  " : ", ") : "") + std::string("exp(") +
            format_number(b.row_logits[j], kShownDecimals) + shift +
            ") = " + format_number(b.row_exps[j], kShownDecimals);
    sum += (j ? " + " : "") + format_number(b.row_exps[j], kShownDecimals);
  }
  b.text = at("A", b.row, b.col) + " = exp(" + at("L", b.row, b.col) + ") ÷ the sum of exp over row " +
           std::to_string(b.row + 1) + " of L\n  " + exps + "\n  sum = " + sum + " = " +
           format_number(b.exp_sum, kShownDecimals) + "\n  " + at("A", b.row, b.col) + " = " +
           format_number(b.row_exps[static_cast<size_t>(b.col)], kShownDecimals) + " ÷ " +
           format_number(b.exp_sum, kShownDecimals) + " = " + format_number(b.value, kShownDecimals);
  if (b.shift != 0)
    b.text += "\n  (every score minus the row's largest, " + format_number(b.shift, kShownDecimals) +
              ": the weights are the same and no exp overflows)";
}

void weighted_sum(const detail::Effective& eff, CellBreakdown& b) {
  b.kind = BreakdownKind::WeightedSum;
  add_terms(b, eff[Stage::Weights], b.row, "A", eff[Stage::V], b.col, false, "V");
  b.text = at("Z", b.row, b.col) + " = row " + std::to_string(b.row + 1) + " of A · column " +
           std::to_string(b.col + 1) + " of V (the weights times the values)" + sum_of_terms(b);
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
    b.text = at(matrix_letter(s), row, col) + " is given in this exercise: " + format_number(b.value, kShownDecimals);
  } else if (projected) {
    projection(ex, b);
  } else if (s == Stage::Scores) {
    dot_product(ex, eff, b);
  } else if (s == Stage::Scaled) {
    scale(ex, eff, b);
  } else if (s == Stage::Weights) {
    softmax(eff, b);
  } else {
    weighted_sum(eff, b);
  }
  out = std::move(b);
  return "";
}

}  // namespace

std::string show_cell(const Exercise& ex, Stage s, int row, int col, CellBreakdown& out) {
  return show(ex, detail::effective_values(ex, blank_answers(ex)), s, row, col, out);
}

std::string show_cell(const Exercise& ex, const Answers& answers, Stage s, int row, int col, CellBreakdown& out) {
  return show(ex, detail::effective_values(ex, answers), s, row, col, out);
}

}  // namespace attn::exercise
