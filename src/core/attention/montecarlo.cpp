// montecarlo.cpp — the deterministic generator and the q·k variance experiment.
#include "core/attention/montecarlo.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <utility>

#include "core/attention/scenario.h"  // kMaxDim

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

// Compilers fuse a·b + c into one FMA when the target has one (-march=native): it rounds once
// instead of twice and so would break bit-identity with WebAssembly, which has no FMA.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace attn {

namespace {

// Box–Muller in float, from one 64-bit draw per pair of normals: the low 24 bits of the low
// word give u1 in (0, 1] (the radius), the high 24 bits of the high word give u2 in [0, 1) (the
// angle). Only integer operations and correctly rounded float +, −, ×, ÷, √ are used, in a
// fixed order and without library log/sin/cos (glibc and musl differ in the last bit), so
// native and WebAssembly builds draw bit-identical numbers; the SIMD twin below repeats the
// scalar recipe operation for operation. The 24-bit u1 caps |z| at √(−2 ln 2^-24) ≈ 5.77,
// which leaves out a 1e-8 tail: nothing the experiment's statistics can see.
constexpr float kSqrt2f = 1.41421356237309505f;
constexpr float kLn2f = 0.693147180559945309f;
// One step of the 2^22 steps per quarter turn, in radians.
constexpr float kQuarterStep = static_cast<float>(1.57079632679489661923 / 4194304.0);
// ln f = 2s·(1 + s²/3 + s⁴/5 + s⁶/7 + s⁸/9) for |s| ≤ 0.172: truncation below 2e-9 relative.
constexpr float kLog3 = static_cast<float>(1.0 / 3.0);
constexpr float kLog5 = static_cast<float>(1.0 / 5.0);
constexpr float kLog7 = static_cast<float>(1.0 / 7.0);
constexpr float kLog9 = static_cast<float>(1.0 / 9.0);
// Taylor series for |a| ≤ π/4: sin to a⁹, cos to a⁸; truncation below 3e-8 (half a float ulp).
constexpr float kSin3 = static_cast<float>(-1.0 / 6.0);
constexpr float kSin5 = static_cast<float>(1.0 / 120.0);
constexpr float kSin7 = static_cast<float>(-1.0 / 5040.0);
constexpr float kSin9 = static_cast<float>(1.0 / 362880.0);
constexpr float kCos2 = -0.5f;
constexpr float kCos4 = static_cast<float>(1.0 / 24.0);
constexpr float kCos6 = static_cast<float>(-1.0 / 720.0);
constexpr float kCos8 = static_cast<float>(1.0 / 40320.0);

inline uint32_t float_bits(float x) {
  uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

inline float bits_float(uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

void box_muller(uint64_t bits, float& z0, float& z1) {
  const uint32_t lo = static_cast<uint32_t>(bits);
  const uint32_t hi = static_cast<uint32_t>(bits >> 32);
  // Radius √(−2 ln u1): u1 = 2^e·f with f in (√½, √2], ln f = 2·atanh(s), s = (f−1)/(f+1).
  const float u1 = static_cast<float>((lo >> 8) + 1u) * 0x1p-24f;  // exact: ≤ 24 bits
  const uint32_t ib = float_bits(u1);
  int32_t e = static_cast<int32_t>(ib >> 23) - 127;
  float f = bits_float((ib & 0x7fffffu) | 0x3f800000u);  // mantissa as a number in [1, 2)
  if (f > kSqrt2f) {
    f = f * 0.5f;
    e = e + 1;
  }
  const float s = (f - 1.0f) / (f + 1.0f);
  const float s2 = s * s;
  float p = kLog9;
  p = p * s2 + kLog7;
  p = p * s2 + kLog5;
  p = p * s2 + kLog3;
  p = p * s2 + 1.0f;
  const float ln = static_cast<float>(e) * kLn2f + (2.0f * s) * p;
  const float r = std::sqrt(std::max(-2.0f * ln, 0.0f));
  // Angle 2π·u2 with u2 = h/2^24: in integers, q quarter turns plus a remainder of at most an
  // eighth of a turn either way, so the series only ever see |a| ≤ π/4.
  const uint32_t h = hi >> 8;
  const uint32_t q = (h + (1u << 21)) >> 22;  // 0..4
  const int32_t rem = static_cast<int32_t>(h) - static_cast<int32_t>(q << 22);
  const float a = static_cast<float>(rem) * kQuarterStep;
  const float a2 = a * a;
  float sp = kSin9;
  sp = sp * a2 + kSin7;
  sp = sp * a2 + kSin5;
  sp = sp * a2 + kSin3;
  const float sn = (sp * a2) * a + a;
  float cp = kCos8;
  cp = cp * a2 + kCos6;
  cp = cp * a2 + kCos4;
  cp = cp * a2 + kCos2;
  const float cs = cp * a2 + 1.0f;
  float sin_t = (q & 1u) ? cs : sn;
  float cos_t = (q & 1u) ? -sn : cs;
  if (q & 2u) {
    sin_t = -sin_t;
    cos_t = -cos_t;
  }
  z0 = r * cos_t;
  z1 = r * sin_t;
}

#ifdef __wasm_simd128__
// Four pairs at once, the scalar recipe above operation for operation; out gets z0, z1 of pair 0,
// then of pair 1, and so on.
void box_muller_x4(const uint64_t* bits, float* out) {
  const v128_t b0 = wasm_v128_load(bits);
  const v128_t b1 = wasm_v128_load(bits + 2);
  const v128_t lo = wasm_i32x4_shuffle(b0, b1, 0, 2, 4, 6);  // little-endian low words
  const v128_t hi = wasm_i32x4_shuffle(b0, b1, 1, 3, 5, 7);
  const v128_t u1 = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_add(wasm_u32x4_shr(lo, 8), wasm_i32x4_splat(1))),
                                   wasm_f32x4_splat(0x1p-24f));
  v128_t e = wasm_i32x4_sub(wasm_u32x4_shr(u1, 23), wasm_i32x4_splat(127));
  v128_t f = wasm_v128_or(wasm_v128_and(u1, wasm_i32x4_splat(0x7fffff)), wasm_i32x4_splat(0x3f800000));
  const v128_t big = wasm_f32x4_gt(f, wasm_f32x4_splat(kSqrt2f));
  f = wasm_v128_bitselect(wasm_f32x4_mul(f, wasm_f32x4_splat(0.5f)), f, big);
  e = wasm_i32x4_sub(e, big);  // big lanes are −1
  const v128_t one = wasm_f32x4_splat(1.0f);
  const v128_t s = wasm_f32x4_div(wasm_f32x4_sub(f, one), wasm_f32x4_add(f, one));
  const v128_t s2 = wasm_f32x4_mul(s, s);
  v128_t p = wasm_f32x4_splat(kLog9);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, s2), wasm_f32x4_splat(kLog7));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, s2), wasm_f32x4_splat(kLog5));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, s2), wasm_f32x4_splat(kLog3));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, s2), one);
  const v128_t ln = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(e), wasm_f32x4_splat(kLn2f)),
                                   wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_splat(2.0f), s), p));
  // pmax(x, 0) is x < 0 ? 0 : x, the same as std::max(x, 0.0f).
  const v128_t r =
      wasm_f32x4_sqrt(wasm_f32x4_pmax(wasm_f32x4_mul(wasm_f32x4_splat(-2.0f), ln), wasm_f32x4_splat(0.0f)));

  const v128_t h = wasm_u32x4_shr(hi, 8);
  const v128_t q = wasm_u32x4_shr(wasm_i32x4_add(h, wasm_i32x4_splat(1 << 21)), 22);
  const v128_t rem = wasm_i32x4_sub(h, wasm_i32x4_shl(q, 22));
  const v128_t a = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(rem), wasm_f32x4_splat(kQuarterStep));
  const v128_t a2 = wasm_f32x4_mul(a, a);
  v128_t sp = wasm_f32x4_splat(kSin9);
  sp = wasm_f32x4_add(wasm_f32x4_mul(sp, a2), wasm_f32x4_splat(kSin7));
  sp = wasm_f32x4_add(wasm_f32x4_mul(sp, a2), wasm_f32x4_splat(kSin5));
  sp = wasm_f32x4_add(wasm_f32x4_mul(sp, a2), wasm_f32x4_splat(kSin3));
  const v128_t sn = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_mul(sp, a2), a), a);
  v128_t cp = wasm_f32x4_splat(kCos8);
  cp = wasm_f32x4_add(wasm_f32x4_mul(cp, a2), wasm_f32x4_splat(kCos6));
  cp = wasm_f32x4_add(wasm_f32x4_mul(cp, a2), wasm_f32x4_splat(kCos4));
  cp = wasm_f32x4_add(wasm_f32x4_mul(cp, a2), wasm_f32x4_splat(kCos2));
  const v128_t cs = wasm_f32x4_add(wasm_f32x4_mul(cp, a2), one);
  const v128_t odd = wasm_i32x4_ne(wasm_v128_and(q, wasm_i32x4_splat(1)), wasm_i32x4_splat(0));
  // Bit 1 of q moved to the sign bit: negation as the scalar code's unary minus does it.
  const v128_t flip = wasm_v128_and(wasm_i32x4_shl(q, 30), wasm_i32x4_splat(INT32_MIN));
  const v128_t sin_t = wasm_v128_xor(wasm_v128_bitselect(cs, sn, odd), flip);
  const v128_t cos_t = wasm_v128_xor(wasm_v128_bitselect(wasm_f32x4_neg(sn), cs, odd), flip);
  const v128_t z0 = wasm_f32x4_mul(r, cos_t);
  const v128_t z1 = wasm_f32x4_mul(r, sin_t);
  wasm_v128_store(out, wasm_i32x4_shuffle(z0, z1, 0, 4, 1, 5));
  wasm_v128_store(out + 4, wasm_i32x4_shuffle(z0, z1, 2, 6, 3, 7));
}
#endif

// Equal-width bins over [lo, hi]; samples outside land in the edge bins (the header's contract),
// so the counts always add up to the number of samples.
inline void add_to_histogram(Histogram& h, double scale, double x) {
  const int bins = static_cast<int>(h.counts.size());
  const double pos = (x - h.lo) * scale;
  int b = pos < 0.0 ? 0 : (pos >= bins ? bins - 1 : static_cast<int>(pos));
  ++h.counts[b];
}

// Normals drawn per refill of the experiment's buffer: large enough to amortise the call, small
// enough (32 KiB) to stay in L1 cache.
constexpr int kChunkFloats = 8192;

Histogram make_histogram(double half_width, int bins) {
  Histogram h;
  h.lo = -half_width;
  h.hi = half_width;
  h.counts.assign(static_cast<size_t>(bins), 0u);
  return h;
}

}  // namespace

uint64_t Rng::next_u64() {
  // splitmix64 (Steele, Lea, Flood 2014): a Weyl sequence through a 64-bit finaliser.
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double Rng::uniform() {
  // The top 53 bits: every double in [0, 1) on the 2^-53 grid, equally likely.
  return static_cast<double>(next_u64() >> 11) * 0x1.0p-53;
}

double Rng::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  float z0 = 0, z1 = 0;
  box_muller(next_u64(), z0, z1);
  spare_ = z1;
  has_spare_ = true;
  return z0;
}

void Rng::fill_normal(float* out, int count) {
  int i = 0;
  if (count > 0 && has_spare_) {
    out[i++] = static_cast<float>(spare_);  // exact: the spare came from a float
    has_spare_ = false;
  }
#ifdef __wasm_simd128__
  uint64_t bits[4];
  for (; i + 8 <= count; i += 8) {
    for (uint64_t& b : bits) b = next_u64();
    box_muller_x4(bits, out + i);
  }
#endif
  for (; i + 2 <= count; i += 2) box_muller(next_u64(), out[i], out[i + 1]);
  if (i < count) {
    float z1 = 0;
    box_muller(next_u64(), out[i], z1);
    spare_ = z1;
    has_spare_ = true;
  }
}

VarianceExperiment::VarianceExperiment(std::vector<int> d_ks, int samples, uint64_t seed, int bins)
    : d_ks_(std::move(d_ks)), samples_(std::max(samples, 0)), bins_(std::max(bins, 1)), rng_(seed) {
  // Nonsensical arguments are clamped rather than rejected: the callers (CLI, UI) validate and
  // this keeps the experiment total.
  rows_.reserve(d_ks_.size());
}

void VarianceExperiment::begin_row() {
  const int d_k = std::clamp(d_ks_[rows_.size()], 1, kMaxDim);
  const double sqrt_dk = std::sqrt(static_cast<double>(d_k));
  row_ = VarianceRow{};
  row_.d_k = d_k;
  row_.samples = samples_;
  row_.hist_unscaled = make_histogram(4.0 * sqrt_dk, bins_);
  row_.hist_scaled = make_histogram(4.0, bins_);
  sum_ = sum_sq_ = 0;
  done_ = 0;
  in_row_ = true;
  // Normals are drawn a chunk of samples at a time into one buffer, allocated once per d_k:
  // sample s uses q = buf[2·d_k·s ..], k = the next d_k numbers.
  buf_.resize(static_cast<size_t>(std::max(1, kChunkFloats / (2 * d_k))) * 2 * d_k);
}

void VarianceExperiment::run_chunk() {
  const int d_k = row_.d_k, per_sample = 2 * d_k;
  const int count = std::min(std::max(1, kChunkFloats / per_sample), samples_ - done_);
  const double scale_u = bins_ / (row_.hist_unscaled.hi - row_.hist_unscaled.lo);
  const double scale_s = bins_ / (row_.hist_scaled.hi - row_.hist_scaled.lo);
  const double inv_sqrt_dk = 1.0 / std::sqrt(static_cast<double>(d_k));
  rng_.fill_normal(buf_.data(), count * per_sample);
  for (int c = 0; c < count; ++c) {
    const float* q = buf_.data() + static_cast<size_t>(c) * per_sample;
    const float* k = q + d_k;
    // A float×float product is exact in double; four partial sums in a fixed order keep
    // the result identical on every build while not waiting on one long chain of adds.
    double acc[4] = {0, 0, 0, 0};
    int i = 0;
    for (; i + 4 <= d_k; i += 4)
      for (int l = 0; l < 4; ++l) acc[l] += static_cast<double>(q[i + l]) * static_cast<double>(k[i + l]);
    for (; i < d_k; ++i) acc[0] += static_cast<double>(q[i]) * static_cast<double>(k[i]);
    const double dot = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    // Sums in double; the mean is ~0, so Σx² − N·mean² loses nothing to cancellation.
    sum_ += dot;
    sum_sq_ += dot * dot;
    add_to_histogram(row_.hist_unscaled, scale_u, dot);
    add_to_histogram(row_.hist_scaled, scale_s, dot * inv_sqrt_dk);
  }
  done_ += count;
}

void VarianceExperiment::end_row() {
  if (samples_ > 0) {
    const double n = samples_;
    const double mean = sum_ / n;
    const double var = samples_ > 1 ? std::max(0.0, (sum_sq_ - n * mean * mean) / (n - 1)) : 0.0;
    const double inv_sqrt_dk = 1.0 / std::sqrt(static_cast<double>(row_.d_k));
    row_.mean_unscaled = mean;
    row_.var_unscaled = var;
    row_.mean_scaled = mean * inv_sqrt_dk;
    row_.var_scaled = var / row_.d_k;
  }
  rows_.push_back(std::move(row_));
  in_row_ = false;
}

bool VarianceExperiment::step(double budget_ms) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration<double, std::milli>(budget_ms);
  while (!done()) {
    if (!in_row_) begin_row();
    if (done_ < samples_) run_chunk();
    if (done_ >= samples_) end_row();
    if (budget_ms > 0 && Clock::now() >= deadline) break;
  }
  return done();
}

std::vector<VarianceRow> variance_experiment(const std::vector<int>& d_ks, int samples, uint64_t seed, int bins) {
  VarianceExperiment e(d_ks, samples, seed, bins);
  e.step(0);
  return e.rows();
}

}  // namespace attn
