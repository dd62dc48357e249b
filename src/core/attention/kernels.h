// kernels.h — the hot loops of attention, each as a scalar reference and a SIMD twin.
// The SIMD twin uses wasm_simd128.h intrinsics in WebAssembly and Eigen's vectorised
// expressions natively; tests hold both against the scalar reference.
#pragma once

#include "core/attention/scenario.h"

namespace attn {

// S = Q Kᵀ · alpha   (Q n×d, K m×d, S n×m; S is resized)
void scores_scalar(const Mat& Q, const Mat& K, float alpha, Mat& S);
void scores_simd(const Mat& Q, const Mat& K, float alpha, Mat& S);

// Row-wise stable softmax in place. -infinity entries get weight 0; a row with no finite
// entry becomes all zero. Subtracting the row maximum keeps logits up to ±1e30 finite.
void softmax_rows_scalar(Mat& A);
void softmax_rows_simd(Mat& A);

// Z = A V   (A n×m, V m×d_v)
void weighted_sum_scalar(const Mat& A, const Mat& V, Mat& Z);
void weighted_sum_simd(const Mat& A, const Mat& V, Mat& Z);

// Z = softmax_rows(Q Kᵀ · alpha) · V in one pass over blocks of query rows (no mask): the chain
// scores → softmax_rows → weighted_sum with the same contracts (NaN and −inf scores get weight 0, +inf ones
// share it), equal within float rounding. The SIMD twin keeps a block's scores in cache, takes each row's
// maximum while it computes them, scales the queries rather than the scores, works in base 2 (e^x as
// 2^(x·log2 e), relative error ≤ 2·10⁻⁷ + |x|·10⁻⁷) and divides each output row by its sum of
// exponentials instead of every weight. `weights`, when given, receives the softmax (n×m).
void attention_scalar(const Mat& Q, const Mat& K, const Mat& V, float alpha, Mat& Z, Mat* weights = nullptr);
void attention_simd(const Mat& Q, const Mat& K, const Mat& V, float alpha, Mat& Z, Mat* weights = nullptr);

// One operand of a general matrix product: a row-major float matrix at `data` with row stride
// `stride`, used as it is or transposed.
struct MatmulOperand {
  const float* data;
  long stride;
  bool transposed;
};

// C = op(A) · op(B), op(A) m×k and op(B) k×n, C m×n row-major with row stride ldc. With
// `accumulate` the sum starts from C's value (C += op(A)·op(B)), else from zero. Both twins add the
// k products of each entry in order t = 0…k−1 (the trainer's products: projections and gradients).
void matmul_scalar(int m, int n, int k, MatmulOperand a, MatmulOperand b, float* c, long ldc, bool accumulate);
void matmul_simd(int m, int n, int k, MatmulOperand a, MatmulOperand b, float* c, long ldc, bool accumulate);

// Whether the SIMD twins run hand-written wasm SIMD128 code in this build.
bool simd_is_wasm128();

}  // namespace attn
