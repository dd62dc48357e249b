// kernels_scalar.cpp — plain-loop reference kernels: the oracle the SIMD twins are tested against.
#include <cmath>
#include <limits>

#include "core/attention/kernels.h"

namespace attn {

void scores_scalar(const Mat& Q, const Mat& K, float alpha, Mat& S) {
  const int n = static_cast<int>(Q.rows());
  const int m = static_cast<int>(K.rows());
  const int d = static_cast<int>(Q.cols());
  S.resize(n, m);
  for (int i = 0; i < n; ++i) {
    const float* q = Q.data() + static_cast<long>(i) * d;
    for (int j = 0; j < m; ++j) {
      const float* k = K.data() + static_cast<long>(j) * d;
      float acc = 0.0f;
      for (int t = 0; t < d; ++t) acc += q[t] * k[t];
      S(i, j) = alpha * acc;
    }
  }
}

// One row of the softmax. Shared semantics with the SIMD twin:
//  - NaN and -inf entries are inactive (weight 0), so no NaN can leak into the weights;
//  - +inf entries (an overflowed logit) are a hard maximum: they share the weight evenly;
//  - a row with no active entry becomes all zero (the fully masked row).
namespace {
void softmax_row(float* a, int m) {
  const float inf = std::numeric_limits<float>::infinity();
  float mx = -inf;
  for (int j = 0; j < m; ++j)
    if (a[j] > mx) mx = a[j];  // NaN compares false, so it never becomes the maximum
  if (mx == -inf) {
    for (int j = 0; j < m; ++j) a[j] = 0.0f;
    return;
  }
  if (mx == inf) {
    int ties = 0;
    for (int j = 0; j < m; ++j) ties += (a[j] == inf);
    const float w = 1.0f / static_cast<float>(ties);
    for (int j = 0; j < m; ++j) a[j] = (a[j] == inf) ? w : 0.0f;
    return;
  }
  float sum = 0.0f;
  for (int j = 0; j < m; ++j) {
    // Subtracting the maximum keeps every exponent ≤ 0: no overflow even for ±1e30 logits,
    // and the maximum itself contributes exactly 1, so the sum is never zero.
    const float e = (a[j] > -inf) ? std::exp(a[j] - mx) : 0.0f;
    a[j] = e;
    sum += e;
  }
  const float inv = 1.0f / sum;
  for (int j = 0; j < m; ++j) a[j] *= inv;
}
}  // namespace

void softmax_rows_scalar(Mat& A) {
  const int m = static_cast<int>(A.cols());
  for (int i = 0; i < A.rows(); ++i) softmax_row(A.data() + static_cast<long>(i) * m, m);
}

void weighted_sum_scalar(const Mat& A, const Mat& V, Mat& Z) {
  const int n = static_cast<int>(A.rows());
  const int m = static_cast<int>(A.cols());
  const int dv = static_cast<int>(V.cols());
  Z.setZero(n, dv);
  for (int i = 0; i < n; ++i) {
    float* z = Z.data() + static_cast<long>(i) * dv;
    for (int j = 0; j < m; ++j) {
      const float a = A(i, j);
      // Skipping zero weights is a contract, not an optimisation: 0 · inf would be NaN, and a
      // masked key's value row must not be able to touch the output.
      if (a == 0.0f) continue;
      const float* v = V.data() + static_cast<long>(j) * dv;
      for (int t = 0; t < dv; ++t) z[t] += a * v[t];
    }
  }
}

void attention_scalar(const Mat& Q, const Mat& K, const Mat& V, float alpha, Mat& Z, Mat* weights) {
  Mat local;
  Mat& A = weights ? *weights : local;
  scores_scalar(Q, K, alpha, A);
  softmax_rows_scalar(A);
  weighted_sum_scalar(A, V, Z);
}

void matmul_scalar(int m, int n, int k, MatmulOperand a, MatmulOperand b, float* c, long ldc, bool accumulate) {
  const auto at = [&](int i, int t) { return a.transposed ? a.data[t * a.stride + i] : a.data[i * a.stride + t]; };
  const auto bt = [&](int t, int j) { return b.transposed ? b.data[j * b.stride + t] : b.data[t * b.stride + j]; };
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float acc = accumulate ? c[i * ldc + j] : 0.0f;
      for (int t = 0; t < k; ++t) acc += at(i, t) * bt(t, j);
      c[i * ldc + j] = acc;
    }
}

}  // namespace attn
