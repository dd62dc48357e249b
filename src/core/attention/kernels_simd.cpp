// kernels_simd.cpp — SIMD twins of the attention kernels: wasm SIMD128 intrinsics in WebAssembly,
// Eigen's vectorised expressions natively. Same contracts as kernels_scalar.cpp.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/attention/kernels.h"
#include "core/attention/matmul_eigen.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace attn {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// A row whose maximum is +inf (an overflowed logit): the +inf entries share the weight evenly,
// the limit of the softmax as those logits grow. Rare, so it stays scalar in both builds.
void hard_max_row(float* a, int m) {
  int ties = 0;
  for (int j = 0; j < m; ++j) ties += (a[j] == kInf);
  const float w = 1.0f / static_cast<float>(ties);
  for (int j = 0; j < m; ++j) a[j] = (a[j] == kInf) ? w : 0.0f;
}

}  // namespace

#ifdef __wasm_simd128__

// Both matrix products are written as register-blocked outer products: a tile of kMR output rows
// × kNR output columns lives in 2·kMR f32x4 accumulators; each step of the reduction loads one
// kNR-wide row of a packed panel (two contiguous f32x4 loads) and broadcasts one value per output
// row (v128.load32_splat), then does 2·kMR multiplies and adds. kMR = 4 keeps the 8 accumulators,
// 2 panel vectors and the broadcasts inside x86-64's 16 vector registers, so V8 never spills.
// No FMA (relaxed SIMD is not in Emscripten 3.1.6): mul + add, the same rounding as the scalar twin.

namespace {

constexpr int kMR = 4;  // output rows per tile
constexpr int kNR = 8;  // output columns per tile = one packed panel (two f32x4)

// A growing 16-byte-aligned buffer per thread: every attention head and the trainer's
// hundreds of small products per step pack into it, where a fresh allocation each would cost more than
// the packing. Only one kernel call uses it at a time.
float* thread_scratch(long count) {
  thread_local std::vector<float> v;
  if (static_cast<long>(v.size()) < count + 4) v.resize(static_cast<size_t>(count) + 4);
  const auto addr = reinterpret_cast<uintptr_t>(v.data());
  return v.data() + ((16 - addr % 16) % 16) / sizeof(float);
}

// op(B) (k×n) in panels of kNR columns, zeros past n: panel p holds, for t = 0..k−1,
// op(B)[t][p·kNR + c] for c = 0..kNR−1.
void pack_operand_b(MatmulOperand b, int k, int n, float* out) {
  for (int j0 = 0; j0 < n; j0 += kNR) {
    const int cols = std::min(kNR, n - j0);
    float* dst = out + static_cast<long>(j0) * k;
    if (!b.transposed && cols == kNR) {
      for (int t = 0; t < k; ++t) {
        const float* src = b.data + t * b.stride + j0;
        wasm_v128_store(dst + t * kNR, wasm_v128_load(src));
        wasm_v128_store(dst + t * kNR + 4, wasm_v128_load(src + 4));
      }
      continue;
    }
    for (int t = 0; t < k; ++t)
      for (int c = 0; c < kNR; ++c)
        dst[t * kNR + c] = c >= cols      ? 0.0f
                           : b.transposed ? b.data[(j0 + c) * b.stride + t]
                                          : b.data[t * b.stride + j0 + c];
  }
}

// V in panels of kNR value columns: panel p holds, for j = 0..m−1, V[j][p·kNR + c] (zeros past
// d_v). Returns whether every value is finite (then zero weights need no skipping).
bool pack_v(const float* V, int m, int dv, float* out) {
  v128_t bad = wasm_i32x4_splat(0);
  const v128_t exp_mask = wasm_i32x4_splat(0x7f800000);
  for (int c0 = 0; c0 < dv; c0 += kNR) {
    const int cols = std::min(kNR, dv - c0);
    float* dst = out + static_cast<long>(c0) * m;
    for (int j = 0; j < m; ++j) {
      const float* v = V + static_cast<long>(j) * dv + c0;
      if (cols == kNR) {
        const v128_t v0 = wasm_v128_load(v), v1 = wasm_v128_load(v + 4);
        wasm_v128_store(dst + j * kNR, v0);
        wasm_v128_store(dst + j * kNR + 4, v1);
        // A float is non-finite exactly when its exponent bits are all ones.
        bad = wasm_v128_or(bad, wasm_i32x4_eq(wasm_v128_and(v0, exp_mask), exp_mask));
        bad = wasm_v128_or(bad, wasm_i32x4_eq(wasm_v128_and(v1, exp_mask), exp_mask));
      } else {
        for (int c = 0; c < kNR; ++c) {
          const float x = c < cols ? v[c] : 0.0f;
          dst[j * kNR + c] = x;
          if (!std::isfinite(x)) bad = wasm_i32x4_splat(-1);
        }
      }
    }
  }
  return !wasm_v128_any_true(bad);
}

// Stores the rows × cols corner of a tile (c0 = columns 0..3, c1 = columns 4..7 of each row).
template <int R>
inline void store_tile(const v128_t (&c0)[R], const v128_t (&c1)[R], float* out, int ldo, int cols) {
  if (cols == kNR) {
    for (int r = 0; r < R; ++r) {
      wasm_v128_store(out + static_cast<long>(r) * ldo, c0[r]);
      wasm_v128_store(out + static_cast<long>(r) * ldo + 4, c1[r]);
    }
    return;
  }
  alignas(16) float buf[kNR];
  for (int r = 0; r < R; ++r) {
    wasm_v128_store(buf, c0[r]);
    wasm_v128_store(buf + 4, c1[r]);
    for (int c = 0; c < cols; ++c) out[static_cast<long>(r) * ldo + c] = buf[c];
  }
}

// Loads the rows × cols corner of a tile written by store_tile (zeros past cols).
template <int R>
inline void load_tile(v128_t (&c0)[R], v128_t (&c1)[R], const float* out, int ldo, int cols) {
  if (cols == kNR) {
    for (int r = 0; r < R; ++r) {
      c0[r] = wasm_v128_load(out + static_cast<long>(r) * ldo);
      c1[r] = wasm_v128_load(out + static_cast<long>(r) * ldo + 4);
    }
    return;
  }
  alignas(16) float buf[kNR] = {};
  for (int r = 0; r < R; ++r) {
    for (int c = 0; c < cols; ++c) buf[c] = out[static_cast<long>(r) * ldo + c];
    c0[r] = wasm_v128_load(buf);
    c1[r] = wasm_v128_load(buf + 4);
  }
}

// One R × kNR tile of C = alpha · A B over `len` steps of the reduction: A's entry (r, t) is at
// a[r·lda + t·step] (step 1 for a row-major A, lda 1 for a transposed one, which then needs no
// copy), B `len` steps of kNR floats of a packed panel. `first`: start from zero, else add to the
// partial sums already in `out`; alpha scales only the finished sums (the scalar twin's order:
// the whole sum, then one multiplication).
template <int R>
inline void tile_kernel(const float* a, long lda, long step, const float* panel, int len, bool first, float alpha,
                        float* out, int ldo, int cols) {
  v128_t c0[R], c1[R];
  if (first) {
    for (int r = 0; r < R; ++r) c0[r] = c1[r] = wasm_f32x4_splat(0.0f);
  } else {
    load_tile<R>(c0, c1, out, ldo, cols);
  }
  const float* b = panel;
  for (int t = 0; t < len; ++t, b += kNR, a += step) {
    const v128_t b0 = wasm_v128_load(b);
    const v128_t b1 = wasm_v128_load(b + 4);
    for (int r = 0; r < R; ++r) {
      const v128_t x = wasm_v128_load32_splat(a + r * lda);
      c0[r] = wasm_f32x4_add(c0[r], wasm_f32x4_mul(x, b0));
      c1[r] = wasm_f32x4_add(c1[r], wasm_f32x4_mul(x, b1));
    }
  }
  if (alpha != 1.0f) {
    const v128_t va = wasm_f32x4_splat(alpha);
    for (int r = 0; r < R; ++r) {
      c0[r] = wasm_f32x4_mul(c0[r], va);
      c1[r] = wasm_f32x4_mul(c1[r], va);
    }
  }
  store_tile<R>(c0, c1, out, ldo, cols);
}

// Reduction steps per pass: a 4-row slice of A (4 KB) and a panel slice (8 KB) stay in L1 even
// for d_k = 1024 or m = 4096, where whole rows and panels would not.
constexpr int kKC = 256;

template <int R>
void gemm_rows(const float* a, long lda, long step, const float* packed, int len, int t0, int kc, bool first,
               float alpha, int cols_total, float* out, int ldo) {
  for (int j0 = 0; j0 < cols_total; j0 += kNR)
    tile_kernel<R>(a + t0 * step, lda, step, packed + static_cast<long>(j0) * len + static_cast<long>(t0) * kNR, kc,
                   first, alpha, out + j0, ldo, std::min(kNR, cols_total - j0));
}

// C (rows × cols_total, row stride ldo) = alpha · A · B with B packed in kNR-column panels of `len`
// steps each (with `accumulate`, alpha = 1 and the sums start from C). Reduction slices outermost,
// then row blocks, then panels.
void gemm_packed(const float* a, long lda, int rows, const float* packed, int len, int cols_total, float alpha,
                 float* out, int ldo, bool accumulate = false, long step = 1) {
  for (int t0 = 0; t0 == 0 || t0 < len; t0 += kKC) {
    const int kc = std::min(kKC, len - t0);
    const float al = t0 + kc >= len ? alpha : 1.0f;  // scale once, after the last slice
    const bool first = t0 == 0 && !accumulate;
    int i = 0;
    for (; i + kMR <= rows; i += kMR)
      gemm_rows<kMR>(a + i * lda, lda, step, packed, len, t0, kc, first, al, cols_total,
                     out + static_cast<long>(i) * ldo, ldo);
    const float* ai = a + i * lda;
    float* oi = out + static_cast<long>(i) * ldo;
    switch (rows - i) {
      case 3:
        gemm_rows<3>(ai, lda, step, packed, len, t0, kc, first, al, cols_total, oi, ldo);
        break;
      case 2:
        gemm_rows<2>(ai, lda, step, packed, len, t0, kc, first, al, cols_total, oi, ldo);
        break;
      case 1:
        gemm_rows<1>(ai, lda, step, packed, len, t0, kc, first, al, cols_total, oi, ldo);
        break;
      default:
        break;
    }
  }
}

inline float hsum(v128_t v) {
  v128_t s = wasm_f32x4_add(v, wasm_i32x4_shuffle(v, v, 2, 3, 0, 1));
  s = wasm_f32x4_add(s, wasm_i32x4_shuffle(s, s, 1, 0, 3, 2));
  return wasm_f32x4_extract_lane(s, 0);
}

// exp(x) for x ≤ 0 (the softmax only feeds x − max): x = k·ln2 + r with |r| ≤ ln2/2, 2^k built in
// the exponent bits, e^r ≈ 1 + r·p(r) with the degree-4 minimax p of XNNPACK's "rr2_p5" kernels
// (max relative error 1.7e-7 ≈ 1.5 ulp over [−87.3, 0], checked in float arithmetic).
// k comes from the "magic number" rounding: x·log2(e) + (1.5·2^23 + 127) rounds to an integer whose
// low mantissa bits are k + 127, the biased exponent of 2^k, so no float→int conversion is needed
// (i32x4.trunc_sat_f32x4_s is a long sequence on x86). One pmax handles the rest: x is clamped at
// −88 (pmax(−88, x) also sends −inf and NaN there), and every x below −87.68 rounds to k = −127,
// whose exponent field k + 127 = 0 makes 2^k exactly +0. So the weights under e^−87.3 ≈ 2^−126
// (denormal) are exactly 0, masked and NaN entries included, without a compare and a mask.
inline v128_t exp_ps(v128_t x) {
  x = wasm_f32x4_pmax(wasm_f32x4_splat(-88.0f), x);
  const v128_t magic = wasm_f32x4_splat(12583039.0f);  // 1.5·2^23 + 127
  const v128_t kb = wasm_f32x4_add(wasm_f32x4_mul(x, wasm_f32x4_splat(1.44269504088896341f)), magic);
  const v128_t kf = wasm_f32x4_sub(kb, magic);  // k, exactly
  // ln 2 split in two (hi has trailing zero bits, so k·hi is exact) keeps r at full precision.
  v128_t r = wasm_f32x4_add(wasm_f32x4_mul(kf, wasm_f32x4_splat(-0x1.62E400p-1f)), x);
  r = wasm_f32x4_add(wasm_f32x4_mul(kf, wasm_f32x4_splat(-0x1.7F7D1Cp-20f)), r);
  v128_t p = wasm_f32x4_splat(0x1.0F9F9Cp-7f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0x1.573A1Ap-5f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0x1.555A80p-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0x1.FFFDC6p-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0x1.FFFFF6p-1f));
  const v128_t y = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.0f));
  const v128_t pow2 = wasm_i32x4_shl(kb, 23);  // (k + 127) << 23 = 2^k; the magic's high bits shift out
  return wasm_f32x4_mul(y, pow2);
}

// 2^x for x ≤ 0: the same polynomial as exp_ps in f = x − k (|f| ≤ 1/2, exact) with its coefficients
// multiplied by ln2^i, since 2^f = e^(f·ln2) and f·ln2 spans exp_ps's interval. Three operations fewer
// than exp_ps (no multiplication by log2(e), no two-step reduction): the fused pass folds log2(e) into
// the queries' scaling, so its logits arrive in base 2. Clamping at −127 sends everything below
// −126.5 (and −inf and NaN) to k = −127, whose 2^k is exactly +0.
inline v128_t exp2_ps(v128_t x) {
  x = wasm_f32x4_pmax(wasm_f32x4_splat(-127.0f), x);
  const v128_t magic = wasm_f32x4_splat(12583039.0f);  // 1.5·2^23 + 127
  const v128_t kb = wasm_f32x4_add(x, magic);
  const v128_t f = wasm_f32x4_sub(x, wasm_f32x4_sub(kb, magic));
  v128_t p = wasm_f32x4_splat(0x1.5BAF14p-10f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, f), wasm_f32x4_splat(0x1.3CEA52p-7f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, f), wasm_f32x4_splat(0x1.C6B770p-5f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, f), wasm_f32x4_splat(0x1.EBF9BCp-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, f), wasm_f32x4_splat(0x1.62E42Ap-1f));
  const v128_t y = wasm_f32x4_add(wasm_f32x4_mul(p, f), wasm_f32x4_splat(1.0f));
  return wasm_f32x4_mul(y, wasm_i32x4_shl(kb, 23));
}

void softmax_row_wasm(float* a, int m) {
  // Pass 1: the row maximum, four independent chains. pmax(acc, v) keeps acc when v is NaN, so
  // NaN never wins.
  const v128_t ninf = wasm_f32x4_splat(-kInf);
  v128_t m0 = ninf, m1 = ninf, m2 = ninf, m3 = ninf;
  int j = 0;
  for (; j + 16 <= m; j += 16) {
    m0 = wasm_f32x4_pmax(m0, wasm_v128_load(a + j));
    m1 = wasm_f32x4_pmax(m1, wasm_v128_load(a + j + 4));
    m2 = wasm_f32x4_pmax(m2, wasm_v128_load(a + j + 8));
    m3 = wasm_f32x4_pmax(m3, wasm_v128_load(a + j + 12));
  }
  for (; j + 4 <= m; j += 4) m0 = wasm_f32x4_pmax(m0, wasm_v128_load(a + j));
  v128_t vmax = wasm_f32x4_pmax(wasm_f32x4_pmax(m0, m1), wasm_f32x4_pmax(m2, m3));
  vmax = wasm_f32x4_pmax(vmax, wasm_i32x4_shuffle(vmax, vmax, 2, 3, 0, 1));
  vmax = wasm_f32x4_pmax(vmax, wasm_i32x4_shuffle(vmax, vmax, 1, 0, 3, 2));
  float mx = wasm_f32x4_extract_lane(vmax, 0);
  for (; j < m; ++j)
    if (a[j] > mx) mx = a[j];
  if (mx == -kInf) {  // no active key: the fully masked row
    for (j = 0; j < m; ++j) a[j] = 0.0f;
    return;
  }
  if (mx == kInf) {
    hard_max_row(a, m);
    return;
  }
  // Pass 2: exponentials of x − max (all ≤ 0) and their sum, two independent chains.
  const v128_t vmx = wasm_f32x4_splat(mx);
  v128_t s0 = wasm_f32x4_splat(0.0f), s1 = s0;
  for (j = 0; j + 8 <= m; j += 8) {
    const v128_t e0 = exp_ps(wasm_f32x4_sub(wasm_v128_load(a + j), vmx));
    const v128_t e1 = exp_ps(wasm_f32x4_sub(wasm_v128_load(a + j + 4), vmx));
    wasm_v128_store(a + j, e0);
    wasm_v128_store(a + j + 4, e1);
    s0 = wasm_f32x4_add(s0, e0);
    s1 = wasm_f32x4_add(s1, e1);
  }
  for (; j + 4 <= m; j += 4) {
    const v128_t e = exp_ps(wasm_f32x4_sub(wasm_v128_load(a + j), vmx));
    wasm_v128_store(a + j, e);
    s0 = wasm_f32x4_add(s0, e);
  }
  float sum = hsum(wasm_f32x4_add(s0, s1));
  if (j < m) {
    // The leftover entries go through the same exp via a −inf-padded vector, so every weight
    // of the row comes from one formula.
    alignas(16) float buf[4] = {-kInf, -kInf, -kInf, -kInf};
    for (int l = 0; j + l < m; ++l) buf[l] = a[j + l];
    wasm_v128_store(buf, exp_ps(wasm_f32x4_sub(wasm_v128_load(buf), vmx)));
    for (int l = 0; j + l < m; ++l) {
      a[j + l] = buf[l];
      sum += buf[l];
    }
  }
  // Pass 3: normalise. The maximum contributed exactly 1, so sum ≥ 1.
  const float inv = 1.0f / sum;
  const v128_t vinv = wasm_f32x4_splat(inv);
  for (j = 0; j + 4 <= m; j += 4) wasm_v128_store(a + j, wasm_f32x4_mul(wasm_v128_load(a + j), vinv));
  for (; j < m; ++j) a[j] *= inv;
}

// ---- the fused forward pass ------------------------------------------------------------------------
// Per block of R query rows: their scores against every key (register tiles, scaled, each row's
// maximum taken from the tiles' registers), e^(s − max) and its sum in one pass, then the product
// with V, the output rows divided by their sums. The block's scores (R·m floats, 32 KB at m = 2048)
// stay in L1 between the three steps, where the chained kernels write an n×m matrix to memory and
// read it three more times; the separate maximum and normalising passes are gone.

inline float hmax(v128_t v) {
  v = wasm_f32x4_pmax(v, wasm_i32x4_shuffle(v, v, 2, 3, 0, 1));
  v = wasm_f32x4_pmax(v, wasm_i32x4_shuffle(v, v, 1, 0, 3, 2));
  return wasm_f32x4_extract_lane(v, 0);
}

// One R × kNR tile of scores: qp holds the block's R query rows, already multiplied by alpha, interleaved
// (qp[t·R + r] = alpha·Q[r][t]), so each step's R broadcasts come from one pointer at constant offsets
// (separate row pointers cost V8 an integer add each per step, on the ports the float ops need); panel
// holds d steps of kNR packed keys. Keys past `cols` (the last panel's padding) become −inf, so they
// neither win the maximum nor get weight; vmax[r] takes each row's lanes' running maximum (pmax keeps
// the accumulator when the score is NaN).
template <int R>
inline void score_tile(const float* qp, int d, const float* panel, float* s, int ls, int cols, v128_t (&vmax)[R]) {
  v128_t c0[R], c1[R];
  for (int r = 0; r < R; ++r) c0[r] = c1[r] = wasm_f32x4_splat(0.0f);
  const float* b = panel;
  const float* a = qp;
  for (int t = 0; t < d; ++t, b += kNR, a += R) {
    const v128_t b0 = wasm_v128_load(b), b1 = wasm_v128_load(b + 4);
    for (int r = 0; r < R; ++r) {
      const v128_t x = wasm_v128_load32_splat(a + r);
      c0[r] = wasm_f32x4_add(c0[r], wasm_f32x4_mul(x, b0));
      c1[r] = wasm_f32x4_add(c1[r], wasm_f32x4_mul(x, b1));
    }
  }
  if (cols < kNR) {
    const v128_t lane = wasm_i32x4_make(0, 1, 2, 3), ninf = wasm_f32x4_splat(-kInf);
    const v128_t pad0 = wasm_i32x4_ge(lane, wasm_i32x4_splat(cols));
    const v128_t pad1 = wasm_i32x4_ge(lane, wasm_i32x4_splat(cols - 4));
    for (int r = 0; r < R; ++r) {
      c0[r] = wasm_v128_bitselect(ninf, c0[r], pad0);
      c1[r] = wasm_v128_bitselect(ninf, c1[r], pad1);
    }
  }
  for (int r = 0; r < R; ++r) {
    vmax[r] = wasm_f32x4_pmax(vmax[r], wasm_f32x4_pmax(c0[r], c1[r]));
    wasm_v128_store(s + r * ls, c0[r]);
    wasm_v128_store(s + r * ls + 4, c1[r]);
  }
}

// 2^(s − mx) in place over ls base-2 logits (a multiple of 8; padding is −inf and gives 0); returns the sum.
inline float exp_row(float* s, int ls, float mx) {
  const v128_t vmx = wasm_f32x4_splat(mx);
  v128_t s0 = wasm_f32x4_splat(0.0f), s1 = s0;
  for (int j = 0; j < ls; j += 8) {
    const v128_t e0 = exp2_ps(wasm_f32x4_sub(wasm_v128_load(s + j), vmx));
    const v128_t e1 = exp2_ps(wasm_f32x4_sub(wasm_v128_load(s + j + 4), vmx));
    wasm_v128_store(s + j, e0);
    wasm_v128_store(s + j + 4, e1);
    s0 = wasm_f32x4_add(s0, e0);
    s1 = wasm_f32x4_add(s1, e1);
  }
  return hsum(wasm_f32x4_add(s0, s1));
}

// Z (R × dv, dv ≤ 4) = S · V when a value row fits one vector: the first half of each packed kNR-wide
// step, one vector per key, where the 8-wide tiles would multiply zeros half the time. Two accumulators
// per row (even and odd keys) keep 2·R add chains in flight, as the 8-wide tiles do.
template <int R>
inline void pv_narrow(const float* s, int ls, const float* vp, int m, float* z, int dv) {
  v128_t c0[R], c1[R];
  for (int r = 0; r < R; ++r) c0[r] = c1[r] = wasm_f32x4_splat(0.0f);
  int j = 0;
  for (; j + 2 <= m; j += 2) {
    const v128_t v0 = wasm_v128_load(vp + j * kNR), v1 = wasm_v128_load(vp + (j + 1) * kNR);
    for (int r = 0; r < R; ++r) {
      c0[r] = wasm_f32x4_add(c0[r], wasm_f32x4_mul(wasm_v128_load32_splat(s + r * ls + j), v0));
      c1[r] = wasm_f32x4_add(c1[r], wasm_f32x4_mul(wasm_v128_load32_splat(s + r * ls + j + 1), v1));
    }
  }
  if (j < m) {
    const v128_t v0 = wasm_v128_load(vp + j * kNR);
    for (int r = 0; r < R; ++r)
      c0[r] = wasm_f32x4_add(c0[r], wasm_f32x4_mul(wasm_v128_load32_splat(s + r * ls + j), v0));
  }
  alignas(16) float buf[4];
  for (int r = 0; r < R; ++r) {
    wasm_v128_store(buf, wasm_f32x4_add(c0[r], c1[r]));
    for (int c = 0; c < dv; ++c) z[r * dv + c] = buf[c];
  }
}

constexpr int kFusedMaxDim = 256;  // larger d_k or d_v: the chained kernels (see attention_simd)

// The packed operands and the block's score rows of one fused call.
struct FusedOperands {
  const float* kt;  // Kᵀ in panels of kNR keys (d steps each)
  const float* vp;  // V in panels of kNR value columns (m steps each)
  float* s;         // kMR rows of ls scores
  float* qp;        // the block's query rows, interleaved (kMR·d)
  int d, m, dv, ls;
  float alpha;  // 1/√d_k·log2(e): the scores come out as base-2 logits
};

// Rows [i, i + R) of the fused pass. Returns false (having written nothing final) when a row's
// maximum is not finite: an overflowed score or a row of NaN, which the chained kernels' rules handle.
template <int R>
bool fused_block(const FusedOperands& f, const float* q, float* z, float* w) {
  v128_t vmax[R];
  for (int r = 0; r < R; ++r) vmax[r] = wasm_f32x4_splat(-kInf);
  // The scaling goes into the block's queries: R·d multiplications instead of one per score.
  for (int t = 0; t < f.d; ++t)
    for (int r = 0; r < R; ++r) f.qp[t * R + r] = f.alpha * q[r * f.d + t];
  for (int j0 = 0; j0 < f.m; j0 += kNR)
    score_tile<R>(f.qp, f.d, f.kt + static_cast<long>(j0) * f.d, f.s + j0, f.ls, f.m - j0, vmax);
  float inv[R];
  for (int r = 0; r < R; ++r) {
    const float mx = hmax(vmax[r]);
    if (!(std::abs(mx) < kInf)) return false;
    inv[r] = 1.0f / exp_row(f.s + r * f.ls, f.ls, mx);  // the maximum contributed 1, so the sum is ≥ 1
  }
  if (f.dv <= 4) {
    pv_narrow<R>(f.s, f.ls, f.vp, f.m, z, f.dv);
  } else {
    // In slices of kKC keys, so that the weights' slice and a value panel's (8 KB) stay in L1 together.
    gemm_packed(f.s, f.ls, R, f.vp, f.m, f.dv, 1.0f, z, f.dv);
  }
  for (int r = 0; r < R; ++r) {
    const v128_t vi = wasm_f32x4_splat(inv[r]);
    float* zr = z + static_cast<long>(r) * f.dv;
    int t = 0;
    for (; t + 4 <= f.dv; t += 4) wasm_v128_store(zr + t, wasm_f32x4_mul(wasm_v128_load(zr + t), vi));
    for (; t < f.dv; ++t) zr[t] *= inv[r];
    if (!w) continue;
    float* wr = w + static_cast<long>(r) * f.m;
    const float* sr = f.s + r * f.ls;
    for (int j = 0; j < f.m; ++j) wr[j] = sr[j] * inv[r];
  }
  return true;
}

// All rows, kMR at a time, then the 1–3 left. False when a block declined (see fused_block).
bool fused_rows(const FusedOperands& f, const float* Q, int n, float* Z, float* W) {
  auto at = [&](int i) { return W ? W + static_cast<long>(i) * f.m : nullptr; };
  int i = 0;
  for (; i + kMR <= n; i += kMR)
    if (!fused_block<kMR>(f, Q + static_cast<long>(i) * f.d, Z + static_cast<long>(i) * f.dv, at(i))) return false;
  const float* q = Q + static_cast<long>(i) * f.d;
  float* z = Z + static_cast<long>(i) * f.dv;
  switch (n - i) {
    case 3:
      return fused_block<3>(f, q, z, at(i));
    case 2:
      return fused_block<2>(f, q, z, at(i));
    case 1:
      return fused_block<1>(f, q, z, at(i));
    default:
      return true;
  }
}

}  // namespace

void scores_simd(const Mat& Q, const Mat& K, float alpha, Mat& S) {
  const int n = static_cast<int>(Q.rows());
  const int d = static_cast<int>(Q.cols());
  const int m = static_cast<int>(K.rows());
  S.resize(n, m);
  if (n == 0 || m == 0) return;
  const int panels = (m + kNR - 1) / kNR;
  // Kᵀ (d×m) in panels of kNR keys, read from K in place.
  float* kt = thread_scratch(static_cast<long>(panels) * kNR * d);
  pack_operand_b({K.data(), d, true}, d, m, kt);
  gemm_packed(Q.data(), d, n, kt, d, m, alpha, S.data(), m);
}

void softmax_rows_simd(Mat& A) {
  const int m = static_cast<int>(A.cols());
  for (int i = 0; i < A.rows(); ++i) softmax_row_wasm(A.data() + static_cast<long>(i) * m, m);
}

void weighted_sum_simd(const Mat& A, const Mat& V, Mat& Z) {
  const int n = static_cast<int>(A.rows());
  const int m = static_cast<int>(A.cols());
  const int dv = static_cast<int>(V.cols());
  Z.resize(n, dv);
  if (n == 0 || dv == 0) return;
  const int panels = (dv + kNR - 1) / kNR;
  float* vp = thread_scratch(static_cast<long>(panels) * kNR * m);
  if (pack_v(V.data(), m, dv, vp)) {
    // Finite values: a zero weight contributes exactly ±0, so the tiles need not skip it.
    gemm_packed(A.data(), m, n, vp, m, dv, 1.0f, Z.data(), dv);
    return;
  }
  // A non-finite value row: zero weights must be skipped so that 0 · inf can't be NaN (masked keys).
  Z.setZero();
  for (int i = 0; i < n; ++i) {
    float* z = Z.data() + static_cast<long>(i) * dv;
    for (int j = 0; j < m; ++j) {
      const float a = A(i, j);
      if (a == 0.0f) continue;
      const float* v = V.data() + static_cast<long>(j) * dv;
      const v128_t av = wasm_f32x4_splat(a);
      int t = 0;
      for (; t + 4 <= dv; t += 4)
        wasm_v128_store(z + t, wasm_f32x4_add(wasm_v128_load(z + t), wasm_f32x4_mul(av, wasm_v128_load(v + t))));
      for (; t < dv; ++t) z[t] += a * v[t];
    }
  }
}

void matmul_simd(int m, int n, int k, MatmulOperand a, MatmulOperand b, float* c, long ldc, bool accumulate) {
  if (m <= 0 || n <= 0) return;
  const int panels = (n + kNR - 1) / kNR;
  float* packed = thread_scratch(static_cast<long>(panels) * kNR * k);
  pack_operand_b(b, k, n, packed);
  // op(A)'s entry (i, t): A[i][t], or A[t][i] when transposed (read in place, no copy).
  const long lda = a.transposed ? 1 : a.stride, step = a.transposed ? a.stride : 1;
  gemm_packed(a.data, lda, m, packed, k, n, 1.0f, c, static_cast<int>(ldc), accumulate, step);
}

void attention_simd(const Mat& Q, const Mat& K, const Mat& V, float alpha, Mat& Z, Mat* weights) {
  const int n = static_cast<int>(Q.rows()), d = static_cast<int>(Q.cols());
  const int m = static_cast<int>(K.rows()), dv = static_cast<int>(V.cols());
  if (weights) weights->resize(n, m);
  Z.resize(n, dv);
  // Up to d_k = 256 the fused pass is faster (by 2–35 % at 512 × 4…256 and 2048 × 64); at 512 × 1024 it was 7 %
  // slower: every block then streams 4 MB of packed K and V, more than L2 holds, where the chained
  // products slice the reduction so their operands stay in cache.
  if (n > 0 && m > 0 && dv > 0 && d <= kFusedMaxDim && dv <= kFusedMaxDim) {
    const int ls = (m + kNR - 1) / kNR * kNR, dvp = (dv + kNR - 1) / kNR * kNR;
    // One scratch buffer: packed Kᵀ, packed V, kMR score rows, kMR query rows (each part but the last a
    // multiple of 4 floats, so all stay aligned).
    const long kt_size = static_cast<long>(ls) * d, vp_size = static_cast<long>(dvp) * m;
    float* kt = thread_scratch(kt_size + vp_size + static_cast<long>(kMR) * (ls + d));
    pack_operand_b({K.data(), d, true}, d, m, kt);
    float* s = kt + kt_size + vp_size;
    const FusedOperands f{kt, kt + kt_size, s, s + static_cast<long>(kMR) * ls, d, m, dv, ls, alpha * 1.44269504f};
    // Non-finite values, or a row the fused rules decline: the chained kernels decide, as they always have.
    if (pack_v(V.data(), m, dv, kt + kt_size) &&
        fused_rows(f, Q.data(), n, Z.data(), weights ? weights->data() : nullptr))
      return;
  }
  Mat local;
  Mat& A = weights ? *weights : local;
  scores_simd(Q, K, alpha, A);
  softmax_rows_simd(A);
  weighted_sum_simd(A, V, Z);
}

bool simd_is_wasm128() { return true; }

#else  // native: Eigen picks SSE/AVX/NEON for these expressions

void scores_simd(const Mat& Q, const Mat& K, float alpha, Mat& S) {
  S.resize(Q.rows(), K.rows());
  S.noalias() = alpha * Q * K.transpose();
}

void softmax_rows_simd(Mat& A) {
  // Below this, e^x is under 6e-39 (denormal): it is taken as 0, which also catches −inf
  // (masked) and NaN, since the comparison is false for both. Eigen's exp alone would return
  // a tiny denormal for −inf, and masked weights must be exactly zero.
  constexpr float kMinExponent = -87.0f;
  for (Eigen::Index i = 0; i < A.rows(); ++i) {
    auto row = A.row(i).array();
    const float mx = A.row(i).maxCoeff<Eigen::PropagateNumbers>();  // NaN never wins
    if (!(mx > -kInf)) {  // no active key (all −inf or NaN): the fully masked row
      row.setZero();
      continue;
    }
    if (mx == kInf) {
      hard_max_row(A.data() + i * A.cols(), static_cast<int>(A.cols()));
      continue;
    }
    row = ((row - mx) >= kMinExponent).select((row - mx).exp(), 0.0f);
    row *= 1.0f / row.sum();  // the maximum contributed exactly 1, so the sum is ≥ 1
  }
}

void weighted_sum_simd(const Mat& A, const Mat& V, Mat& Z) {
  // With finite values a zero weight contributes exactly ±0, so the fast product is safe;
  // otherwise (an overflowed value row) zero weights must be skipped so 0 · inf can't be NaN.
  if (V.allFinite()) {
    Z.resize(A.rows(), V.cols());
    Z.noalias() = A * V;
    return;
  }
  Z.setZero(A.rows(), V.cols());
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (Eigen::Index j = 0; j < A.cols(); ++j)
      if (A(i, j) != 0.0f) Z.row(i).noalias() += A(i, j) * V.row(j);
}

void matmul_simd(int m, int n, int k, MatmulOperand a, MatmulOperand b, float* c, long ldc, bool accumulate) {
  matmul_eigen(m, n, k, a.data, a.stride, a.transposed, b.data, b.stride, b.transposed, c, ldc, accumulate);
}

void attention_simd(const Mat& Q, const Mat& K, const Mat& V, float alpha, Mat& Z, Mat* weights) {
  Mat local;
  Mat& A = weights ? *weights : local;
  scores_simd(Q, K, alpha, A);
  softmax_rows_simd(A);
  weighted_sum_simd(A, V, Z);
}

bool simd_is_wasm128() { return false; }

#endif

}  // namespace attn
