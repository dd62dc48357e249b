// bench_attention.cpp — the attention forward pass Z = softmax(Q Kᵀ / √d_k) · V, timed single-threaded.
//
// One source, four binaries (see CMakeLists.txt):
//   attn_bench (native)      attnplay-native (the SIMD twins, Eigen natively), eigen-native, compute-native
//   attn_bench (WebAssembly) attnplay-wasm (hand-written SIMD128 kernels), eigen-wasm (the same computation
//                            as plain Eigen expressions: Eigen has no wasm packet math, so it is scalar
//                            code autovectorised by clang), compute-wasm
//   attn_bench_march         eigen-native-march only (ATTNPLAY_BENCH_EIGEN_ONLY, built with -march=native)
//   attn_bench_lib (wasm)    the WebAssembly implementations behind a C API (ATTNPLAY_BENCH_LIB), driven
//                            by tfjs_peer.mjs --with-wasm in one process with TensorFlow.js
// compute-* is the app's whole attn::compute() (validation, logits, entropies, ...), reported with the
// same nominal flop count.
//
// Every configuration draws Q, K, V (n×d_k each) from a fixed generator that tests/bench/tfjs_peer.mjs
// reproduces bit for bit (mulberry32, uniform on [−√3, √3)), so all programs — in any process — see the
// same inputs; the FNV-1a hash of their bits is reported to prove it. Before timing, every
// implementation's output is compared with a double-precision reference on sampled rows:
// |Z − Z_ref| ≤ kTolerance, else the program fails.
//
// GFLOP/s counts 4·n²·d_k flops (the two matrix products); the softmax is not counted.
#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif
#ifdef ATTNPLAY_BENCH_LIB
#include <wasm_simd128.h>
#endif

#ifndef ATTNPLAY_BENCH_EIGEN_ONLY
#include "core/attention/attention.h"
#include "core/attention/kernels.h"
#include "core/attention/montecarlo.h"
#endif

#ifdef __EMSCRIPTEN__
// CPU time of the node process (user + system, µs): unaffected by other processes on a loaded machine.
EM_JS(double, attnplay_bench_cpu_us, (), {
  const u = process.cpuUsage();
  return u.user + u.system;
});
#endif

namespace {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

#ifdef __EMSCRIPTEN__
const char* const kSuffix = "-wasm";
#elif defined(ATTNPLAY_BENCH_EIGEN_ONLY)
const char* const kSuffix = "-native-march";
#else
const char* const kSuffix = "-native";
#endif

// ---- inputs -----------------------------------------------------------------------------------------
// mulberry32: 32-bit integer arithmetic only, so JavaScript (Math.imul) draws the same numbers.
class Mulberry32 {
 public:
  explicit Mulberry32(uint32_t seed) : a_(seed) {}
  double next() {  // [0, 1)
    a_ += 0x6D2B79F5u;
    uint32_t t = a_;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return static_cast<double>(t ^ (t >> 14)) / 4294967296.0;
  }

 private:
  uint32_t a_;
};

uint32_t config_seed(int n, int d) { return 0x2545F491u ^ static_cast<uint32_t>(n * 7919 + d); }

struct Inputs {
  Mat Q, K, V;
  uint32_t hash = 2166136261u;  // FNV-1a over the float bits of Q, K, V in that order
};

Inputs make_inputs(int n, int d) {
  Inputs in;
  Mulberry32 rng(config_seed(n, d));
  const double half_width = std::sqrt(3.0);  // unit variance
  for (Mat* m : {&in.Q, &in.K, &in.V}) {
    m->resize(n, d);
    for (Eigen::Index i = 0; i < m->size(); ++i) {
      const float x = static_cast<float>((2.0 * rng.next() - 1.0) * half_width);
      m->data()[i] = x;
      uint32_t bits;
      std::memcpy(&bits, &x, sizeof bits);
      for (int b = 0; b < 4; ++b) in.hash = (in.hash ^ ((bits >> (8 * b)) & 0xffu)) * 16777619u;
    }
  }
  return in;
}

// ---- implementations ----------------------------------------------------------------------------------
struct Impl {
  std::string name;
  // Computes Z from the inputs; the closure owns its scratch matrices so repetitions reuse them.
  std::function<void(const Inputs&, Mat& Z)> run;
};

// The same computation as plain Eigen expressions: what the core would be without hand-written kernels.
struct EigenAttention {
  Mat S;
  Eigen::VectorXf rowv;
  void operator()(const Inputs& in, Mat& Z) {
    const float alpha = 1.0f / std::sqrt(static_cast<float>(in.Q.cols()));
    S.noalias() = alpha * (in.Q * in.K.transpose());
    rowv = S.rowwise().maxCoeff();
    S.array().colwise() -= rowv.array();
    S = S.array().exp();
    rowv = S.rowwise().sum();
    S.array().colwise() /= rowv.array();
    Z.noalias() = S * in.V;
  }
};

#ifndef ATTNPLAY_BENCH_EIGEN_ONLY
// The core's forward kernel for one unmasked head: attention_simd, the fused pass (scores, softmax and
// weighted sum per block of query rows; kernels.h).
struct KernelAttention {
  void operator()(const Inputs& in, Mat& Z) {
    const float alpha = 1.0f / std::sqrt(static_cast<float>(in.Q.cols()));
    attn::attention_simd(in.Q, in.K, in.V, alpha, Z);
  }
};

// The whole app pipeline: attn::compute() on {Q, K, V}, scaled, temperature 1, no mask.
struct ComputeAttention {
  attn::Scenario sc;
  attn::Result res;
  uint32_t bound_hash = 0;
  long bound_size = -1;
  void operator()(const Inputs& in, Mat& Z) {
    const long size = static_cast<long>(in.Q.rows()) * 8192 + in.Q.cols();
    if (in.hash != bound_hash || size != bound_size) {  // copying the inputs in is setup, not timed work
      sc = attn::Scenario{};
      sc.Q = in.Q;
      sc.K = in.K;
      sc.V = in.V;
      bound_hash = in.hash;
      bound_size = size;
    }
    const std::string err = attn::compute(sc, res);
    if (!err.empty()) {
      std::fprintf(stderr, "compute() failed: %s\n", err.c_str());
      std::exit(2);
    }
    Z = res.output;
  }
};
#endif

std::vector<Impl> all_impls() {
  std::vector<Impl> v;
  const std::string sfx = kSuffix;
#ifndef ATTNPLAY_BENCH_EIGEN_ONLY
  v.push_back({"attnplay" + sfx, KernelAttention{}});
#endif
  v.push_back({"eigen" + sfx, EigenAttention{}});
#ifndef ATTNPLAY_BENCH_EIGEN_ONLY
  v.push_back({"compute" + sfx, ComputeAttention{}});
#endif
  return v;
}

#ifndef ATTNPLAY_BENCH_LIB
// ---- clocks ---------------------------------------------------------------------------------------
bool g_cpu_clock = false;

double now_seconds() {
  if (g_cpu_clock) {
#ifdef __EMSCRIPTEN__
    return attnplay_bench_cpu_us() * 1e-6;
#else
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
#endif
  }
#ifdef __EMSCRIPTEN__
  return emscripten_get_now() * 1e-3;
#else
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
#endif
}

// ---- double-precision reference on sampled rows -------------------------------------------------------
// Outputs are convex combinations of value rows with entries in [−√3, √3]; float rounding in the
// products and the exponentials moves them by ~1e-6, so 1e-4 absolute leaves room for every peer
// while catching any real difference (a missing scale or a wrong softmax moves them by ≳1e-2).
constexpr double kTolerance = 1e-4;

std::vector<int> sample_rows(int n) {
  std::vector<int> rows;
  const int step = std::max(1, n / 32);
  for (int i = 0; i < n; i += step) rows.push_back(i);
  if (rows.back() != n - 1) rows.push_back(n - 1);
  return rows;
}

std::vector<double> reference_row(const Inputs& in, int i) {
  const int n = static_cast<int>(in.K.rows()), d = static_cast<int>(in.Q.cols());
  const double alpha = 1.0 / std::sqrt(static_cast<double>(d));
  std::vector<double> s(static_cast<size_t>(n));
  double mx = -INFINITY;
  for (int j = 0; j < n; ++j) {
    double acc = 0;
    for (int t = 0; t < d; ++t) acc += static_cast<double>(in.Q(i, t)) * in.K(j, t);
    s[static_cast<size_t>(j)] = acc * alpha;
    mx = std::max(mx, acc * alpha);
  }
  double sum = 0;
  for (double& x : s) sum += (x = std::exp(x - mx));
  std::vector<double> z(static_cast<size_t>(d), 0.0);
  for (int j = 0; j < n; ++j)
    for (int t = 0; t < d; ++t) z[static_cast<size_t>(t)] += s[static_cast<size_t>(j)] / sum * in.V(j, t);
  return z;
}

// ---- options --------------------------------------------------------------------------------------------
struct Options {
  bool quick = false;
  std::string json, checks;
  std::vector<std::string> impl_filter;  // empty = all
  double min_time = 0.5;                 // seconds of timed repetitions per implementation and shape
  int min_reps = 7, max_reps = 1000;
  double warmup = 0.2;       // seconds of untimed runs per implementation and shape
  bool extras = true;        // Monte Carlo rate (not in the quick mode)
  bool extras_only = false;  // only the Monte Carlo rate
  std::vector<std::pair<int, int>> shapes;
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    const size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

void usage() {
  std::printf(
      "usage: attn_bench [--quick] [--json FILE] [--checks FILE] [--impl a,b] [--clock wall|cpu]\n"
      "                  [--min-time SECONDS] [--min-reps N] [--max-reps N] [--shapes n:d,n:d,...]\n"
      "                  [--no-extras | --extras-only]\n"
      "  default shapes: n in {16,64,256,512,1024,2048} at d_k = 64, and d_k in {4,16,64,256,1024} at n = 512\n"
      "  --quick: n in {16,64,256} at d_k = 64 and d_k in {4,16,256} at n = 64, 2 repetitions, no extras\n"
      "  --json: rows {impl, n, d_k, median_ms, gflops}; --checks: rows {impl, n, d_k, input_hash,\n"
      "          max_abs_err, checksum, abs_sum} (for the driver's cross-process agreement check)\n");
}

bool parse(int argc, char** argv, Options& o) {
  bool cpu = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* what) -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", what);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--quick") {
      o.quick = true;
    } else if (a == "--json") {
      o.json = value("--json");
    } else if (a == "--checks") {
      o.checks = value("--checks");
    } else if (a == "--impl") {
      o.impl_filter = split(value("--impl"), ',');
    } else if (a == "--clock") {
      const std::string c = value("--clock");
      if (c != "wall" && c != "cpu") return false;
      cpu = c == "cpu";
    } else if (a == "--min-time") {
      o.min_time = std::atof(value("--min-time").c_str());
    } else if (a == "--min-reps") {
      o.min_reps = std::max(1, std::atoi(value("--min-reps").c_str()));
    } else if (a == "--max-reps") {
      o.max_reps = std::max(1, std::atoi(value("--max-reps").c_str()));
    } else if (a == "--no-extras") {
      o.extras = false;
    } else if (a == "--extras-only") {
      o.extras_only = true;
    } else if (a == "--shapes") {
      for (const std::string& s : split(value("--shapes"), ',')) {
        const auto p = split(s, ':');
        if (p.size() != 2) return false;
        const int n = std::atoi(p[0].c_str()), d = std::atoi(p[1].c_str());
        if (n < 1 || d < 1 || n > 4096 || d > 4096) return false;
        o.shapes.emplace_back(n, d);
      }
    } else if (a == "--help" || a == "-h") {
      usage();
      std::exit(0);
    } else {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      return false;
    }
  }
  g_cpu_clock = cpu;
  if (o.quick) {
    o.min_time = 0;
    o.min_reps = o.max_reps = 2;
    o.warmup = 0;
    o.extras = false;
  }
  if (o.shapes.empty()) {
    if (o.quick) {
      o.shapes = {{16, 64}, {64, 64}, {256, 64}, {64, 4}, {64, 16}, {64, 256}};
    } else {
      for (int n : {16, 64, 256, 512, 1024, 2048}) o.shapes.emplace_back(n, 64);
      for (int d : {4, 16, 256, 1024}) o.shapes.emplace_back(512, d);  // (512, 64) is in the n sweep
    }
  }
  return true;
}

// ---- running --------------------------------------------------------------------------------------------
struct Row {
  std::string impl;
  int n, d;
  double median_ms, gflops;
  int reps;
  uint32_t input_hash;
  double max_abs_err, checksum, abs_sum;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t k = v.size() / 2;
  return v.size() % 2 ? v[k] : 0.5 * (v[k - 1] + v[k]);
}

// Runs one shape: agreement first (each output against the reference on sampled rows), then timing.
// The implementations take turns repetition by repetition, so a change in the machine's load hits
// them alike and the same-run ratios stay fair.
bool run_shape(std::vector<Impl>& impls, int n, int d, const Options& o, std::vector<Row>& rows) {
  const Inputs in = make_inputs(n, d);
  const std::vector<int> sampled = sample_rows(n);
  std::vector<std::vector<double>> ref;
  for (int i : sampled) ref.push_back(reference_row(in, i));

  bool ok = true;
  std::vector<Mat> Z(impls.size());
  std::vector<Row> shape_rows;
  for (size_t k = 0; k < impls.size(); ++k) {
    impls[k].run(in, Z[k]);
    double err = 0, sum = 0, abs_sum = 0;
    if (Z[k].rows() != n || Z[k].cols() != d) {
      err = INFINITY;
    } else {
      for (size_t r = 0; r < sampled.size(); ++r)
        for (int t = 0; t < d; ++t) {
          const double e = std::abs(Z[k](sampled[r], t) - ref[r][static_cast<size_t>(t)]);
          err = std::isnan(e) ? INFINITY : std::max(err, e);
        }
      for (Eigen::Index i = 0; i < Z[k].size(); ++i) {
        sum += Z[k].data()[i];
        abs_sum += std::abs(Z[k].data()[i]);
      }
    }
    if (!(err <= kTolerance)) {
      std::fprintf(stderr, "DISAGREE: %s at n=%d d_k=%d: max |Z - Z_ref| = %g > %g\n", impls[k].name.c_str(), n, d, err,
                   kTolerance);
      ok = false;
    }
    shape_rows.push_back({impls[k].name, n, d, 0, 0, 0, in.hash, err, sum, abs_sum});
  }
  if (!ok) return false;

  std::vector<std::vector<double>> times(impls.size());
  std::vector<double> spent(impls.size(), 0.0);
  // Warm-up: at least o.warmup seconds or two runs each, whichever is longer, so that allocation,
  // caches and V8's tier-up from its baseline compiler (Liftoff) to TurboFan are paid before timing.
  for (size_t k = 0; k < impls.size(); ++k) {
    const double t0 = now_seconds();
    for (int rep = 0; rep < 2 || now_seconds() - t0 < o.warmup; ++rep) impls[k].run(in, Z[k]);
  }
  for (;;) {
    bool more = false;
    for (size_t k = 0; k < impls.size(); ++k) {
      const int reps = static_cast<int>(times[k].size());
      if (reps >= o.max_reps || (reps >= o.min_reps && spent[k] >= o.min_time)) continue;
      more = true;
      const double t0 = now_seconds();
      impls[k].run(in, Z[k]);
      const double dt = now_seconds() - t0;
      times[k].push_back(dt);
      spent[k] += dt;
    }
    if (!more) break;
  }
  const double flops = 4.0 * n * static_cast<double>(n) * d;
  for (size_t k = 0; k < impls.size(); ++k) {
    Row& r = shape_rows[k];
    const double med = median(times[k]);
    r.median_ms = med * 1e3;
    r.gflops = med > 0 ? flops / med * 1e-9 : 0.0;
    r.reps = static_cast<int>(times[k].size());
    rows.push_back(r);
  }
  return true;
}

std::string fmt(const char* f, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, x);
  return buf;
}

bool write_json(const std::string& path, const std::vector<Row>& rows, bool checks) {
  std::ofstream os(path);
  if (!os) return false;
  os << "[\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    os << "  {\"impl\": \"" << r.impl << "\", \"n\": " << r.n << ", \"d_k\": " << r.d;
    if (checks)
      os << ", \"input_hash\": " << r.input_hash << ", \"max_abs_err\": " << fmt("%.6g", r.max_abs_err)
         << ", \"checksum\": " << fmt("%.10g", r.checksum) << ", \"abs_sum\": " << fmt("%.10g", r.abs_sum);
    else
      os << ", \"median_ms\": " << fmt("%.6g", r.median_ms) << ", \"gflops\": " << fmt("%.6g", r.gflops);
    os << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
  }
  os << "]\n";
  return static_cast<bool>(os);
}

#ifndef ATTNPLAY_BENCH_EIGEN_ONLY
// The variance lab's Monte Carlo: dot products q·k per second at d_k = 64.
void monte_carlo_rate() {
  const int samples = 200000;
  std::vector<double> rates;
  attn::variance_experiment({64}, 1000, 1, 41);  // warm-up
  for (int rep = 0; rep < 5; ++rep) {
    const double t0 = now_seconds();
    const auto rows = attn::variance_experiment({64}, samples, 41 + static_cast<uint64_t>(rep), 41);
    const double dt = now_seconds() - t0;
    if (rows.size() != 1) std::exit(2);
    rates.push_back(samples / dt);
  }
  std::printf("variance_experiment at d_k = 64: %.2f million dot products/s (median of 5 runs of %d samples)\n",
              median(rates) * 1e-6, samples);
}
#endif

#endif  // !ATTNPLAY_BENCH_LIB

}  // namespace

#ifndef ATTNPLAY_BENCH_LIB
int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, o)) {
    usage();
    return 2;
  }
#ifndef ATTNPLAY_BENCH_EIGEN_ONLY
  if (o.extras_only) {
    monte_carlo_rate();
    return 0;
  }
#endif
  std::vector<Impl> impls;
  for (Impl& im : all_impls()) {
    const bool wanted =
        o.impl_filter.empty() || std::find(o.impl_filter.begin(), o.impl_filter.end(), im.name) != o.impl_filter.end();
    if (wanted) impls.push_back(std::move(im));
  }
  if (impls.empty()) {
    std::fprintf(stderr, "no implementation selected\n");
    return 2;
  }

  std::printf("attention forward pass softmax(QK^T/sqrt(d_k))V, single thread, %s clock, median of >= %d reps%s\n",
              g_cpu_clock ? "CPU" : "wall", o.min_reps, o.quick ? " (quick mode: timings are not meaningful)" : "");
#ifndef ATTNPLAY_BENCH_EIGEN_ONLY
  std::printf("kernels: %s\n", attn::simd_is_wasm128() ? "hand-written wasm SIMD128" : "Eigen (native)");
#endif
  std::printf("%-20s %5s %5s %11s %9s %5s %10s\n", "impl", "n", "d_k", "median ms", "GFLOP/s", "reps", "max|err|");
  std::vector<Row> rows;
  bool ok = true;
  for (const auto& [n, d] : o.shapes) {
    const size_t first = rows.size();
    if (!run_shape(impls, n, d, o, rows)) {
      ok = false;
      continue;
    }
    for (size_t i = first; i < rows.size(); ++i) {
      const Row& r = rows[i];
      std::printf("%-20s %5d %5d %11.4f %9.2f %5d %10.2e\n", r.impl.c_str(), r.n, r.d, r.median_ms, r.gflops, r.reps,
                  r.max_abs_err);
    }
    std::fflush(stdout);
  }
#ifndef ATTNPLAY_BENCH_EIGEN_ONLY
  if (o.extras && ok) monte_carlo_rate();
#endif
  if (!o.json.empty() && !write_json(o.json, rows, false)) {
    std::fprintf(stderr, "cannot write %s\n", o.json.c_str());
    return 1;
  }
  if (!o.checks.empty() && !write_json(o.checks, rows, true)) {
    std::fprintf(stderr, "cannot write %s\n", o.checks.c_str());
    return 1;
  }
  if (!ok) {
    std::fprintf(stderr, "outputs disagree (tolerance %g): no timings for those shapes\n", kTolerance);
    return 1;
  }
  return 0;
}
#endif  // !ATTNPLAY_BENCH_LIB

#ifdef ATTNPLAY_BENCH_LIB
// attn_bench_lib.js: the same WebAssembly implementations behind a C API, so that
// tests/bench/tfjs_peer.mjs --with-wasm can run them in one process with TensorFlow.js and interleave
// the repetitions (same-run ratios that a busy machine cannot skew). Timing happens in JavaScript.
namespace {
struct Lib {
  std::vector<Impl> impls = all_impls();
  Inputs in;
  std::vector<Mat> Z;
};
Lib& lib() {
  static Lib l;
  return l;
}
}  // namespace

extern "C" {
EMSCRIPTEN_KEEPALIVE int bench_impl_count() { return static_cast<int>(lib().impls.size()); }
EMSCRIPTEN_KEEPALIVE const char* bench_impl_name(int k) { return lib().impls[static_cast<size_t>(k)].name.c_str(); }
// Draws the inputs of shape (n, d) — the generator shared with tfjs_peer.mjs — and returns their hash.
EMSCRIPTEN_KEEPALIVE uint32_t bench_setup(int n, int d) {
  lib().in = make_inputs(n, d);
  lib().Z.assign(lib().impls.size(), Mat());
  return lib().in.hash;
}
EMSCRIPTEN_KEEPALIVE void bench_run(int k) {
  lib().impls[static_cast<size_t>(k)].run(lib().in, lib().Z[static_cast<size_t>(k)]);
}
// The last output of implementation k (n×d row-major floats), valid until the next bench_run(k).
EMSCRIPTEN_KEEPALIVE const float* bench_output(int k) { return lib().Z[static_cast<size_t>(k)].data(); }

// The measured SIMD128 peak: kPeakChains independent chains acc = acc·m + c of f32x4 (a multiply and an
// add each, dependent, so nothing can be hoisted or merged). Enough chains to cover the latency of
// mul + add on every port that executes them, few enough (with m and c) for x86-64's 16 vector
// registers, so V8 keeps them all in registers. Returns a lane so the work is not dead.
constexpr int kPeakChains = 12;
EMSCRIPTEN_KEEPALIVE int bench_simd_peak_flops() { return kPeakChains * 4 * 2; }  // per iteration
EMSCRIPTEN_KEEPALIVE float bench_simd_peak(int iterations) {
  v128_t acc[kPeakChains];
  for (int k = 0; k < kPeakChains; ++k) acc[k] = wasm_f32x4_splat(static_cast<float>(k));
  const v128_t m = wasm_f32x4_splat(0.999f), c = wasm_f32x4_splat(1e-3f);
  for (int i = 0; i < iterations; ++i)
    for (int k = 0; k < kPeakChains; ++k) acc[k] = wasm_f32x4_add(wasm_f32x4_mul(acc[k], m), c);
  v128_t sum = acc[0];
  for (int k = 1; k < kPeakChains; ++k) sum = wasm_f32x4_add(sum, acc[k]);
  return wasm_f32x4_extract_lane(sum, 0);
}
}
#endif
