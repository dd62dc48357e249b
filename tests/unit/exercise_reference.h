// exercise_reference.h — an independent double-precision attention pipeline and worksheet helpers for the
// exercise tests: plain loops from the definitions, nothing shared with src/core/exercise*.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "core/exercise/exercise.h"

namespace exref {

using MatD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using attn::exercise::Stage;

inline MatD times(const MatD& a, const MatD& b) {  // a·b
  MatD c = MatD::Zero(a.rows(), b.cols());
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < b.cols(); ++j)
      for (Eigen::Index k = 0; k < a.cols(); ++k) c(i, j) += a(i, k) * b(k, j);
  return c;
}

inline MatD times_transposed(const MatD& a, const MatD& b) {  // a·bᵀ
  MatD c = MatD::Zero(a.rows(), b.rows());
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < b.rows(); ++j)
      for (Eigen::Index k = 0; k < a.cols(); ++k) c(i, j) += a(i, k) * b(j, k);
  return c;
}

// softmax along each row, straight from the definition exp(l_j) / Σ exp(l_k) (the numbers here are small).
inline MatD softmax_rows(const MatD& l) {
  MatD a(l.rows(), l.cols());
  for (Eigen::Index i = 0; i < l.rows(); ++i) {
    double sum = 0;
    for (Eigen::Index j = 0; j < l.cols(); ++j) sum += std::exp(l(i, j));
    for (Eigen::Index j = 0; j < l.cols(); ++j) a(i, j) = std::exp(l(i, j)) / sum;
  }
  return a;
}

inline MatD softmax_columns(const MatD& l) {
  MatD a(l.rows(), l.cols());
  for (Eigen::Index j = 0; j < l.cols(); ++j) {
    double sum = 0;
    for (Eigen::Index i = 0; i < l.rows(); ++i) sum += std::exp(l(i, j));
    for (Eigen::Index i = 0; i < l.rows(); ++i) a(i, j) = std::exp(l(i, j)) / sum;
  }
  return a;
}

inline MatD round_to(const MatD& m, int decimals) {
  const double p = std::pow(10.0, decimals);
  MatD r = m;
  for (Eigen::Index i = 0; i < r.size(); ++i) r.data()[i] = std::round(r.data()[i] * p) / p;
  return r;
}

struct Pipeline {
  MatD Q, K, V, S, L, A, Z;
  double d_k = 0;
  const MatD& at(Stage s) const {
    const MatD* all[] = {&Q, &K, &V, &S, &L, &A, &Z};
    return *all[static_cast<int>(s)];
  }
};

inline Pipeline pipeline(const MatD& Q, const MatD& K, const MatD& V) {
  Pipeline p;
  p.Q = Q;
  p.K = K;
  p.V = V;
  p.d_k = static_cast<double>(Q.cols());
  p.S = times_transposed(Q, K);
  p.L = p.S / std::sqrt(p.d_k);
  p.A = softmax_rows(p.L);
  p.Z = times(p.A, V);
  return p;
}

// From an exercise's inputs only: X·W for asked stages, the given matrices otherwise.
inline Pipeline pipeline_of(const attn::exercise::Exercise& ex) {
  const MatD X = ex.X.cast<double>();
  auto qkv = [&](Stage s, const attn::Mat& w) {
    return ex.is_given(s) ? MatD(ex.ref(s).cast<double>()) : times(X, w.cast<double>());
  };
  return pipeline(qkv(Stage::Q, ex.W_q), qkv(Stage::K, ex.W_k), qkv(Stage::V, ex.W_v));
}

// Types a matrix into a stage the way a learner writes it: rounded to `decimals`.
inline void type_stage(attn::exercise::Answers& a, Stage s, const MatD& m, int decimals) {
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      char buf[48];
      std::snprintf(buf, sizeof buf, "%.*f", decimals, m(i, j));
      a.set(s, static_cast<int>(i), static_cast<int>(j), std::string(buf));
    }
}

// An exercise whose embeddings are 8 wide with d_k = 2, so ÷√d_model (÷√8) differs from ÷√d_k and from ÷d_k.
inline attn::exercise::Exercise wide_embedding_exercise() {
  attn::exercise::ExerciseSpec spec;
  spec.id = "wide-embedding";
  spec.X = (attn::Mat(3, 8) << 1, 0, 1, 2, 0, -1, 1, 0, 0, 1, 1, 0, 2, 1, 0, -1, 2, 1, 0, 1, 0, 1, 1, 0).finished();
  spec.W_q = spec.W_k = spec.W_v = attn::Mat::Zero(8, 2);
  for (int r = 0; r < 8; ++r) {
    spec.W_q(r, r % 2) = 1;
    spec.W_k(r, (r / 2) % 2) = r % 3 == 0 ? -1.f : 1.f;
    spec.W_v(r, (r + 1) % 2) = 1;
  }
  attn::exercise::Exercise ex;
  const std::string err = attn::exercise::make_exercise(spec, ex);
  if (!err.empty()) throw std::runtime_error(err);
  return ex;
}

// The note "cat sat mat" prints X as "101011100010": four rows of three, one token per column. Read as a learner
// who takes four numbers at a time for each token.
inline MatD cat_sat_mat_x_read_by_rows() {
  const std::string printed = "101011100010";
  MatD read(3, 4);
  for (int k = 0; k < 12; ++k) read(k / 4, k % 4) = printed[static_cast<size_t>(k)] - '0';
  return read;
}

}  // namespace exref
