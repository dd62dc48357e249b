// matmul_eigen.h — C = op(A)·op(B), or C += op(A)·op(B), on row-major buffers through Eigen: the native
// build's matmul_simd and the trainer's double-precision path (the gradient checks) share it.
#pragma once

#include <Eigen/Core>

namespace attn {

// op(A) m×k from `a` (row stride sa; stored k×m when ta), op(B) k×n from `b` (row stride sb; stored n×k
// when tb), C m×n at `c` with row stride ldc; the contract of matmul_scalar in kernels.h.
template <typename T>
void matmul_eigen(int m, int n, int k, const T* a, long sa, bool ta, const T* b, long sb, bool tb, T* c, long ldc,
                  bool accumulate) {
  using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Stride = Eigen::OuterStride<>;
  using In = Eigen::Map<const RowMajor, 0, Stride>;
  Eigen::Map<RowMajor, 0, Stride> out(c, m, n, Stride(ldc));
  const In A(a, ta ? k : m, ta ? m : k, Stride(sa));
  const In B(b, tb ? n : k, tb ? k : n, Stride(sb));
  if (!accumulate) out.setZero();
  if (ta && tb)
    out.noalias() += A.transpose() * B.transpose();
  else if (ta)
    out.noalias() += A.transpose() * B;
  else if (tb)
    out.noalias() += A * B.transpose();
  else
    out.noalias() += A * B;
}

}  // namespace attn
