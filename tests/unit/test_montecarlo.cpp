// test_montecarlo.cpp — the generator (reference values, determinism) and the variance experiment.
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/attention/montecarlo.h"

TEST_CASE("Rng: splitmix64 reference sequence", "[montecarlo]") {
  // The published splitmix64 outputs for seed 1234567 (reproduced with an independent Python
  // implementation of Steele–Lea–Flood's finaliser).
  attn::Rng rng(1234567);
  CHECK(rng.next_u64() == 6457827717110365317ull);
  CHECK(rng.next_u64() == 3203168211198807973ull);
  CHECK(rng.next_u64() == 9817491932198370423ull);
  CHECK(rng.next_u64() == 4593380528125082431ull);
  CHECK(rng.next_u64() == 16408922859458223821ull);
  attn::Rng zero(0);
  CHECK(zero.next_u64() == 0xe220a8397b1dcdafull);
}

TEST_CASE("Rng: uniform is the top 53 bits", "[montecarlo]") {
  attn::Rng a(7), b(7);
  for (int i = 0; i < 1000; ++i) {
    const double u = a.uniform();
    CHECK(u == static_cast<double>(b.next_u64() >> 11) / 9007199254740992.0);
    CHECK(u >= 0.0);
    CHECK(u < 1.0);
  }
}

TEST_CASE("Rng: normal is Box–Muller on (u1, u2) from one draw", "[montecarlo]") {
  // Seed 42, computed in Python with math.log/cos/sin on u1 = ((lo >> 8) + 1)/2^24 and
  // u2 = (hi >> 8)/2^24 of each 64-bit draw: z0 = r cos 2πu2, z1 = r sin 2πu2.
  const double want[] = {-0.096978435, -1.828085953, 0.455785701, 0.717310228, -0.407397242, 2.242563257};
  attn::Rng rng(42);
  for (double w : want)
    // The generator works in float with polynomial log/sin/cos: a few float ulps of |z| ≤ 2.3.
    CHECK(rng.normal() == Approx(w).margin(2e-6));
}

TEST_CASE("Rng: the float recipe, bit for bit on every build", "[montecarlo]") {
  // Seed 2024, from an independent Python port of the recipe documented in montecarlo.cpp
  // (every float operation rounded to binary32 with struct.pack). Exact equality: native
  // (scalar) and WebAssembly (SIMD, 4 pairs at a time) builds must both draw these numbers.
  const float want[] = {-0x1.64a8ccp-3f, -0x1.5ac852p-3f, 0x1.d4a38ep+0f, 0x1.482fd4p+0f, -0x1.bfa2cap-2f,
                        0x1.6333c6p+0f,  0x1.4dc0bap-1f,  0x1.2ab1dap-1f, 0x1.5398f6p-1f, -0x1.32393ep+0f};
  attn::Rng a(2024), b(2024);
  float got[10];
  a.fill_normal(got, 10);
  for (int i = 0; i < 10; ++i) {
    INFO("index " << i);
    CHECK(got[i] == want[i]);
    CHECK(b.normal() == static_cast<double>(want[i]));
  }
}

TEST_CASE("Rng: fill_normal is the normal() sequence, bit for bit", "[montecarlo]") {
  // Mixed chunk sizes exercise the carried spare, odd counts and (in wasm) the 4-pair SIMD path
  // against the scalar one: both must be bit-identical to one call of normal() per number.
  attn::Rng a(99), b(99);
  const int counts[] = {0, 1, 2, 3, 7, 8, 9, 16, 17, 1, 64, 33, 5, 1000};
  for (int count : counts) {
    std::vector<float> buf(static_cast<size_t>(count) + 1, 12345.0f);
    a.fill_normal(buf.data(), count);
    for (int i = 0; i < count; ++i) {
      const double z = b.normal();
      INFO("count " << count << " index " << i);
      REQUIRE(static_cast<double>(buf[static_cast<size_t>(i)]) == z);
    }
    CHECK(buf[static_cast<size_t>(count)] == 12345.0f);  // nothing written past the end
  }
}

TEST_CASE("Rng: normal moments", "[montecarlo]") {
  attn::Rng rng(5);
  const int N = 200000;
  double s1 = 0, s2 = 0, s4 = 0, max_abs = 0;
  for (int i = 0; i < N; ++i) {
    const double z = rng.normal();
    s1 += z;
    s2 += z * z;
    s4 += z * z * z * z;
    max_abs = std::max(max_abs, std::abs(z));
  }
  // Standard errors at N = 200000: mean 1/√N = 0.0022, E z² √(2/N) = 0.0032,
  // E z⁴ √(96/N) = 0.022; the tolerances are five of them.
  CHECK(s1 / N == Approx(0.0).margin(0.011));
  CHECK(s2 / N == Approx(1.0).margin(0.016));
  CHECK(s4 / N == Approx(3.0).margin(0.11));
  // The 24-bit u1 caps the radius at √(−2 ln 2^-24) ≈ 5.77.
  CHECK(max_abs <= 5.7684);
}

TEST_CASE("Rng: same seed, same numbers; other seed, other numbers", "[montecarlo]") {
  attn::Rng a(11), b(11), c(12);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const double x = a.normal();
    CHECK(x == b.normal());
    differs = differs || x != c.normal();
  }
  CHECK(differs);
}

TEST_CASE("variance experiment: Var(q·k) = d_k unscaled, 1 scaled", "[montecarlo]") {
  const std::vector<int> d_ks = {4, 16, 64, 256, 1024};
  const int N = 10000;
  const auto rows = attn::variance_experiment(d_ks, N, 2024, 41);
  REQUIRE(rows.size() == d_ks.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    const auto& row = rows[r];
    const double d = d_ks[r];
    INFO("d_k = " << d);
    CHECK(row.d_k == d_ks[r]);
    CHECK(row.samples == N);
    // q·k is a sum of d products of independent normals: E x² = d, E x⁴ = 3d² + 6d, so the
    // sample variance over d has standard error √((2 + 6/d)/N) ≤ 0.019 at N = 10000; five
    // standard errors: 0.094. The mean's standard error is √(d/N) (÷√d when scaled): 0.01.
    const double tol_var = 5 * std::sqrt((2 + 6 / d) / N);
    CHECK(row.var_unscaled / d == Approx(1.0).margin(tol_var));
    CHECK(row.var_scaled == Approx(1.0).margin(tol_var));
    CHECK(row.mean_scaled == Approx(0.0).margin(5 / std::sqrt(N)));
    CHECK(row.mean_unscaled == Approx(0.0).margin(5 * std::sqrt(d / N)));
    // The two views are one sample set: scaled = unscaled / √d_k, exactly up to rounding.
    CHECK(row.var_scaled == Approx(row.var_unscaled / d).epsilon(1e-12));
    CHECK(row.mean_scaled == Approx(row.mean_unscaled / std::sqrt(d)).epsilon(1e-12));

    CHECK(row.hist_unscaled.lo == Approx(-4 * std::sqrt(d)));
    CHECK(row.hist_unscaled.hi == Approx(4 * std::sqrt(d)));
    CHECK(row.hist_scaled.lo == -4.0);
    CHECK(row.hist_scaled.hi == 4.0);
    REQUIRE(row.hist_unscaled.counts.size() == 41);
    REQUIRE(row.hist_scaled.counts.size() == 41);
    long total_u = 0, total_s = 0;
    for (uint32_t c : row.hist_unscaled.counts) total_u += c;
    for (uint32_t c : row.hist_scaled.counts) total_s += c;
    CHECK(total_u == N);
    CHECK(total_s == N);
    // The centre bin (width 8/41) holds ≈ 0.195·φ(0) = 7.8% of a unit normal; its binomial
    // standard error is ≈ 27 counts of 10000, and for small d_k the distribution is more
    // peaked than a normal (kurtosis 3 + 6/d), so only a coarse band is asserted.
    CHECK(row.hist_scaled.counts[20] > 0.06 * N);
    CHECK(row.hist_scaled.counts[20] < 0.12 * N);
  }
}

TEST_CASE("variance experiment: recount from the generator", "[montecarlo]") {
  // Independent recount of the experiment's definition: sample s uses 2·d_k consecutive
  // normals of Rng(seed) (q first, then k); bins are equal-width over [lo, hi] and samples
  // outside fall in the edge bins. d_k = 1 has heavy tails (|q k| > 4 about 0.7% of the time),
  // so the edge rule is exercised.
  const std::vector<int> d_ks = {1, 3};
  const int N = 5000, bins = 9;
  const auto rows = attn::variance_experiment(d_ks, N, 77, bins);
  attn::Rng rng(77);
  for (size_t r = 0; r < d_ks.size(); ++r) {
    const int d = d_ks[r];
    std::vector<double> dots;
    for (int s = 0; s < N; ++s) {
      std::vector<double> q(d), k(d);
      for (double& x : q) x = rng.normal();
      for (double& x : k) x = rng.normal();
      double dot = 0;
      for (int i = 0; i < d; ++i) dot += q[i] * k[i];
      dots.push_back(dot);
    }
    double mean = 0;
    for (double x : dots) mean += x;
    mean /= N;
    double var = 0;
    for (double x : dots) var += (x - mean) * (x - mean);
    var /= (N - 1);
    // Two summation orders of the same doubles.
    CHECK(rows[r].mean_unscaled == Approx(mean).margin(1e-12));
    CHECK(rows[r].var_unscaled == Approx(var).epsilon(1e-10));
    std::vector<uint32_t> hist(bins, 0);
    const double half = 4 * std::sqrt(static_cast<double>(d));
    int outside = 0;
    for (double x : dots) {
      int b = static_cast<int>(std::floor((x + half) / (2 * half) * bins));
      outside += (b < 0 || b >= bins);
      b = std::min(std::max(b, 0), bins - 1);
      ++hist[static_cast<size_t>(b)];
    }
    CHECK(rows[r].hist_unscaled.counts == hist);
    if (d == 1) CHECK(outside > 0);  // the edge rule was actually needed
  }
}

TEST_CASE("variance experiment: arguments are clamped, results deterministic", "[montecarlo]") {
  const auto a = attn::variance_experiment({0, 8}, 0, 1, 0);
  REQUIRE(a.size() == 2);
  CHECK(a[0].d_k == 1);
  CHECK(a[0].samples == 0);
  CHECK(a[0].var_unscaled == 0.0);
  CHECK(a[0].hist_scaled.counts.size() == 1);
  CHECK(a[1].hist_scaled.counts == std::vector<uint32_t>{0});

  const auto b = attn::variance_experiment({8}, 1, 1, 5);
  CHECK(b[0].var_unscaled == 0.0);  // one sample has no spread

  const auto c1 = attn::variance_experiment({5, 32}, 3000, 9, 11);
  const auto c2 = attn::variance_experiment({5, 32}, 3000, 9, 11);
  for (size_t i = 0; i < c1.size(); ++i) {
    CHECK(c1[i].mean_unscaled == c2[i].mean_unscaled);
    CHECK(c1[i].var_unscaled == c2[i].var_unscaled);
    CHECK(c1[i].hist_unscaled.counts == c2[i].hist_unscaled.counts);
  }
}

// Not run by default (`core_tests "[.bench]"`): throughput depends on the machine and its load.
TEST_CASE("variance experiment throughput at d_k = 64", "[.bench]") {
  const int N = 1000000;
  const auto t0 = std::chrono::steady_clock::now();
  const auto rows = attn::variance_experiment({64}, N, 1, 41);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  WARN("d_k = 64: " << N / s / 1e6 << " million dot products per second (var/d_k = " << rows[0].var_unscaled / 64
                    << ")");
  CHECK(s > 0);
}

TEST_CASE("VarianceExperiment in slices draws exactly what variance_experiment draws at once", "[montecarlo]") {
  const std::vector<int> d_ks = {1, 3, 64, 1024};
  const auto whole = attn::variance_experiment(d_ks, 3000, 42, 17);
  attn::VarianceExperiment sliced(d_ks, 3000, 42, 17);
  int steps = 0;
  while (!sliced.step(1e-6)) {  // a chunk of draws per call
    ++steps;
    CHECK(sliced.rows().size() < d_ks.size());
    CHECK(sliced.progress() < 1.0f);
  }
  CHECK(steps > static_cast<int>(d_ks.size()));  // it was spread, not done in one call per row
  REQUIRE(sliced.rows().size() == whole.size());
  for (size_t k = 0; k < whole.size(); ++k) {
    CHECK(sliced.rows()[k].d_k == whole[k].d_k);
    CHECK(sliced.rows()[k].var_unscaled == whole[k].var_unscaled);
    CHECK(sliced.rows()[k].mean_scaled == whole[k].mean_scaled);
    CHECK(sliced.rows()[k].hist_unscaled.counts == whole[k].hist_unscaled.counts);
    CHECK(sliced.rows()[k].hist_scaled.counts == whole[k].hist_scaled.counts);
  }
  attn::VarianceExperiment none({}, 10, 1);
  CHECK(none.step(0));
  CHECK(none.rows().empty());
}
