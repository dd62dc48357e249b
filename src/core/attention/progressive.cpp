// progressive.cpp — row-block computation: each block is an ordinary compute() of the block's
// queries against every key, with the full mask's rows as painted cells, appended to the result.
#include "core/attention/progressive.h"

#include <algorithm>
#include <chrono>

#include "core/attention/attention.h"

namespace attn {

namespace {

// Appends rows [dst_row, dst_row + src.rows()) of a matrix allocated at full height on first use.
void put_rows(Mat& dst, Eigen::Index total_rows, Eigen::Index dst_row, const Mat& src) {
  if (dst.rows() != total_rows || dst.cols() != src.cols()) dst.resize(total_rows, src.cols());
  dst.middleRows(dst_row, src.rows()) = src;
}
void put_rows(Vec& dst, Eigen::Index total_rows, Eigen::Index dst_row, const Vec& src) {
  if (dst.size() != total_rows) dst.resize(total_rows);
  dst.segment(dst_row, src.size()) = src;
}

void put_head(HeadResult& dst, const HeadResult& src, int n, int row) {
  put_rows(dst.scores, n, row, src.scores);
  put_rows(dst.logits, n, row, src.logits);
  put_rows(dst.weights, n, row, src.weights);
  put_rows(dst.output, n, row, src.output);
  put_rows(dst.entropy, n, row, src.entropy);
  put_rows(dst.max_weight, n, row, src.max_weight);
  put_rows(dst.jacobian_norm, n, row, src.jacobian_norm);
  dst.undefined_scores += src.undefined_scores;
  dst.infinite_scores += src.infinite_scores;
  dst.logits_overflowed = dst.logits_overflowed || src.logits_overflowed;
  dst.row_fully_masked.resize(static_cast<size_t>(n));
  std::copy(src.row_fully_masked.begin(), src.row_fully_masked.end(), dst.row_fully_masked.begin() + row);
}

}  // namespace

std::string ProgressiveCompute::start(const Scenario& s) {
  *this = ProgressiveCompute{};
  const std::string err = validate(s);
  if (!err.empty()) return err;
  Mat K, V;
  project(s, X_effective_, Q_, K, V);
  n_ = static_cast<int>(Q_.rows());
  const int m = static_cast<int>(K.rows());
  blocked_ = attention_mask(s, n_, m);
  chunk_ = keys_scenario(s, std::move(K), std::move(V));
  const int h = s.heads;
  acc_ = Result{};
  if (h > 1) acc_.heads.resize(static_cast<size_t>(h));
  started_ = true;
  return "";
}

void ProgressiveCompute::compute_rows(int begin, int end) {
  Scenario& c = chunk_;
  c.Q = Q_.middleRows(begin, end - begin);
  c.mask_cells = blocked_.middleRows(begin, end - begin);
  Result r;
  compute(c, r);     // validated as a whole in start(); a block of it is valid too
  acc_.d_k = r.d_k;  // the block's warnings are rebuilt for the whole in take()
  if (r.heads.empty()) {
    put_head(acc_.main, r.main, n_, begin);
  } else {
    for (size_t k = 0; k < r.heads.size(); ++k) put_head(acc_.heads[k], r.heads[k], n_, begin);
    put_rows(acc_.concat, n_, begin, r.concat);
  }
  put_rows(acc_.output, n_, begin, r.output);
}

bool ProgressiveCompute::step(double budget_ms) {
  if (!started_) return true;
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  while (next_row_ < n_) {
    const int begin = next_row_, end = std::min(n_, next_row_ + block_rows_);
    const auto b0 = clock::now();
    compute_rows(begin, end);
    const double block_ms = std::chrono::duration<double, std::milli>(clock::now() - b0).count();
    next_row_ = end;
    // Aim for blocks of about a quarter of the budget, so the last one rarely overshoots it.
    const double per_row = block_ms / (end - begin);
    // Clamped as a double: a fast block under a long budget asks for billions of rows, past int.
    if (per_row > 0) block_rows_ = static_cast<int>(std::clamp(budget_ms / 4 / per_row, 1.0, 4096.0));
    if (std::chrono::duration<double, std::milli>(clock::now() - t0).count() >= budget_ms) break;
  }
  return next_row_ >= n_;
}

Result ProgressiveCompute::take() {
  Result r = std::move(acc_);
  const int m = static_cast<int>(chunk_.K ? chunk_.K->rows() : 0);
  r.X_effective = std::move(X_effective_);
  const int h = chunk_.heads;
  if (h == 1) {
    r.main.Q = Q_;
    r.main.K = *chunk_.K;
    r.main.V = *chunk_.V;
  } else {
    const int dh = static_cast<int>(Q_.cols()) / h, dvh = static_cast<int>(chunk_.V->cols()) / h;
    for (int k = 0; k < h; ++k) {
      HeadResult& hr = r.heads[static_cast<size_t>(k)];
      hr.Q = Q_.middleCols(static_cast<Eigen::Index>(k) * dh, dh);
      hr.K = chunk_.K->middleCols(static_cast<Eigen::Index>(k) * dh, dh);
      hr.V = chunk_.V->middleCols(static_cast<Eigen::Index>(k) * dvh, dvh);
    }
    r.main.Q = Q_;
    r.main.K = *chunk_.K;
    r.main.V = *chunk_.V;
    r.main.output = r.output;
  }
  // The same warnings, in the same order, as one compute() of the whole scenario.
  std::vector<bool> fully(static_cast<size_t>(n_), false);
  for (int i = 0; i < n_; ++i) {
    fully[static_cast<size_t>(i)] = m > 0 && (blocked_.row(i).array() != 0).all();
    if (fully[static_cast<size_t>(i)])
      r.warnings.push_back("row " + std::to_string(i) + ": every key is masked; its weights and output are zero");
  }
  if (h > 1) r.main.row_fully_masked = fully;
  if (h == 1)
    append_head_warnings(r.main, 0, 1, chunk_.temperature, r.warnings);
  else
    for (int k = 0; k < h; ++k)
      append_head_warnings(r.heads[static_cast<size_t>(k)], k, h, chunk_.temperature, r.warnings);
  append_output_warning(r);
  return r;
}

}  // namespace attn
