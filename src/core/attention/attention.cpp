// attention.cpp — scenario validation and the attention computation with every intermediate kept.
#include "core/attention/attention.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

#include "core/attention/kernels.h"
#include "core/attention/number_text.h"

namespace attn {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr double kFloatMax = std::numeric_limits<float>::max();

// Blocked cells (1) of query rows [first, first + rows) from the causal mask, key padding and
// hand-painted cells combined.
MaskMat build_mask_rows(const Scenario& s, int first, int rows, int m) {
  MaskMat blocked = MaskMat::Zero(rows, m);
  for (int r = 0; r < rows; ++r) {
    const int i = first + r;
    for (int j = 0; j < m; ++j) {
      bool b = s.mask == MaskKind::Causal && j > i;
      if (!s.key_padding.empty() && s.key_padding[static_cast<size_t>(j)]) b = true;
      if (s.mask_cells && (*s.mask_cells)(i, j) != 0) b = true;
      blocked(r, j) = b ? 1 : 0;
    }
  }
  return blocked;
}

MaskMat build_mask(const Scenario& s, int n, int m) { return build_mask_rows(s, 0, n, m); }

// Raw compatibility scores of one head, before any scaling.
void head_scores(const Scenario& s, HeadResult& hr) {
  switch (s.score) {
    case ScoreKind::Dot:
      scores_simd(hr.Q, hr.K, 1.0f, hr.scores);
      break;
    case ScoreKind::General: {  // Luong: qᵀ W_a k = (q W_a) · k
      const Mat QW = hr.Q * *s.W_a;
      scores_simd(QW, hr.K, 1.0f, hr.scores);
      break;
    }
    case ScoreKind::Additive: {  // Bahdanau: v_aᵀ tanh(q W_a + k U_a)
      const Mat QW = hr.Q * *s.W_a;
      const Mat KU = hr.K * *s.U_a;
      const Vec& va = *s.v_a;
      const Eigen::Index da = va.size();
      hr.scores.resize(hr.Q.rows(), hr.K.rows());
      for (Eigen::Index i = 0; i < QW.rows(); ++i)
        for (Eigen::Index j = 0; j < KU.rows(); ++j) {
          double acc = 0;
          for (Eigen::Index a = 0; a < da; ++a)
            acc += static_cast<double>(va(a)) * std::tanh(static_cast<double>(QW(i, a)) + KU(j, a));
          // Σ|v_a| can exceed the float range only for absurd v_a; say so with ±inf.
          hr.scores(i, j) = std::abs(acc) <= kFloatMax ? static_cast<float>(acc) : (acc > 0 ? kInf : -kInf);
        }
      break;
    }
  }
}

// The T→0⁺ limit of softmax(logits / T): the row's largest logits share the weight evenly
// (exact ties only); blocked keys (−inf) get nothing; a row with no key left stays zero.
void hard_attention_row(const float* logits, float* w, int m) {
  float mx = -kInf;
  for (int j = 0; j < m; ++j) mx = std::max(mx, logits[j]);
  int ties = 0;
  for (int j = 0; j < m; ++j) ties += (mx > -kInf && logits[j] == mx);
  const float share = ties > 0 ? 1.0f / static_cast<float>(ties) : 0.0f;
  for (int j = 0; j < m; ++j) w[j] = (ties > 0 && logits[j] == mx) ? share : 0.0f;
}

// softmax(scaled / T) in double for a row whose logits overflow float (tiny T): the exponents
// (x_j − x_max)/T are ≤ 0, so they can only underflow to a weight of 0, never overflow.
void softmax_row_double(const double* scaled, const uint8_t* active, double T, float* w, int m) {
  double mx = -std::numeric_limits<double>::infinity();
  for (int j = 0; j < m; ++j)
    if (active[j]) mx = std::max(mx, scaled[j]);
  double sum = 0;
  std::vector<double> e(static_cast<size_t>(m), 0.0);
  for (int j = 0; j < m; ++j)
    if (active[j]) {
      e[static_cast<size_t>(j)] = std::exp((scaled[j] - mx) / T);
      sum += e[static_cast<size_t>(j)];
    }
  for (int j = 0; j < m; ++j) w[j] = static_cast<float>(e[static_cast<size_t>(j)] / sum);
}

// Entropy of p = softmax(l) with one logarithm per row instead of one per entry: with M = max l
// and S = Σ exp(l_j − M), log p_j = l_j − M − log S and p_max = 1/S, so
// H = −Σ p_j log p_j = −log p_max − Σ p_j (l_j − M), a sum of two non-negative terms (no
// cancellation). −1 when the row is not such a softmax (no finite maximum, nothing positive).
double softmax_entropy(const float* p, const float* l, int m) {
  float M = -kInf, pmax = 0;
  for (int j = 0; j < m; ++j) {
    M = std::max(M, l[j]);
    pmax = std::max(pmax, p[j]);
  }
  if (!std::isfinite(M) || !(pmax > 0)) return -1.0;
  double acc = 0;
  for (int j = 0; j < m; ++j)
    if (p[j] > 0) acc += static_cast<double>(p[j]) * (static_cast<double>(l[j]) - M);
  return std::max(0.0, -std::log(static_cast<double>(pmax)) - acc);
}

std::string head_prefix(int head, int heads) { return heads > 1 ? "head " + std::to_string(head) + ": " : ""; }

// What turning one head's scores into logits found, for the softmax and the warnings.
struct LogitRows {
  std::vector<uint8_t> overflow_rows;  // rows with a logit beyond the float range (tiny T)
  long undefined_scores = 0, infinite_scores = 0;
};

// Scaling and temperature in double, rounded once to float: at T = 1 the logits are exactly
// the float-rounded scaled scores, so ties stay ties.
LogitRows compute_logits(const MaskMat& blocked, double alpha, double T, HeadResult& hr) {
  const int n = static_cast<int>(hr.scores.rows());
  const int m = static_cast<int>(hr.scores.cols());
  hr.logits.resize(n, m);
  LogitRows out;
  out.overflow_rows.assign(static_cast<size_t>(n), 0);
  const double divisor = T > 0 ? T : 1.0;
  for (int i = 0; i < n; ++i) {
    // The common row (nothing masked, every score finite, no overflow) in a branch-free loop the
    // compiler vectorises; anything else takes the careful loop below. Same arithmetic either way.
    const float* sr = hr.scores.data() + static_cast<long>(i) * m;
    float* lr = hr.logits.data() + static_cast<long>(i) * m;
    const uint8_t* br = blocked.data() + static_cast<long>(i) * m;
    int irregular = 0;
    double largest = 0;
    for (int j = 0; j < m; ++j) {
      const double l = static_cast<double>(sr[j]) * alpha / divisor;
      irregular |= br[j] | static_cast<int>(!(sr[j] - sr[j] == 0.0f));  // masked, ±inf or NaN
      largest = std::max(largest, std::abs(l));
      lr[j] = static_cast<float>(l);
    }
    if (irregular == 0 && largest <= kFloatMax) continue;
    for (int j = 0; j < m; ++j) {
      const float sc = hr.scores(i, j);
      float logit;
      if (blocked(i, j)) {
        logit = -kInf;  // masked: the key's content can never matter
      } else if (std::isnan(sc)) {
        logit = -kInf;  // inf − inf inside an overflowed dot product: nothing to rank by
        ++out.undefined_scores;
      } else if (std::isinf(sc)) {
        logit = sc;  // +inf acts as a hard maximum in the softmax, −inf as a weight of 0
        ++out.infinite_scores;
      } else {
        const double l = T > 0 ? static_cast<double>(sc) * alpha / T : static_cast<double>(sc) * alpha;
        if (std::abs(l) > kFloatMax) {
          out.overflow_rows[static_cast<size_t>(i)] = 1;
          logit = l > 0 ? std::numeric_limits<float>::max() : std::numeric_limits<float>::lowest();
        } else {
          logit = static_cast<float>(l);
        }
      }
      hr.logits(i, j) = logit;
    }
  }
  return out;
}

// Weights from the logits: hard attention at T = 0, else the SIMD softmax, redone in double for the
// rows whose logits overflowed float.
void compute_weights(const LogitRows& rows, double alpha, double T, HeadResult& hr) {
  const int n = static_cast<int>(hr.scores.rows());
  const int m = static_cast<int>(hr.scores.cols());
  hr.weights.resize(n, m);
  if (T == 0) {
    for (int i = 0; i < n; ++i)
      hard_attention_row(hr.logits.data() + static_cast<long>(i) * m, hr.weights.data() + static_cast<long>(i) * m, m);
    return;
  }
  hr.weights = hr.logits;
  softmax_rows_simd(hr.weights);
  std::vector<double> row_scaled(static_cast<size_t>(m));
  std::vector<uint8_t> active(static_cast<size_t>(m));
  for (int i = 0; i < n; ++i) {
    if (!rows.overflow_rows[static_cast<size_t>(i)]) continue;
    bool has_pos_inf = false;
    for (int j = 0; j < m; ++j) {
      has_pos_inf = has_pos_inf || hr.logits(i, j) == kInf;
      active[static_cast<size_t>(j)] = hr.logits(i, j) > -kInf;
      row_scaled[static_cast<size_t>(j)] = static_cast<double>(hr.scores(i, j)) * alpha;
    }
    if (has_pos_inf) continue;  // an infinite score already decides the row
    softmax_row_double(row_scaled.data(), active.data(), T, hr.weights.data() + static_cast<long>(i) * m, m);
  }
  hr.logits_overflowed =
      std::any_of(rows.overflow_rows.begin(), rows.overflow_rows.end(), [](uint8_t b) { return b != 0; });
}

// Entropy, largest weight, Jacobian norm and "nothing left to attend to" for every query row.
void row_statistics(const MaskMat& blocked, const LogitRows& rows, double T, HeadResult& hr) {
  const int n = static_cast<int>(hr.scores.rows());
  const int m = static_cast<int>(hr.scores.cols());
  hr.entropy.resize(n);
  hr.max_weight.resize(n);
  hr.jacobian_norm.resize(n);
  hr.row_fully_masked.assign(static_cast<size_t>(n), false);
  for (int i = 0; i < n; ++i) {
    const float* p = hr.weights.data() + static_cast<long>(i) * m;
    const double h = T > 0 && !rows.overflow_rows[static_cast<size_t>(i)]
                         ? softmax_entropy(p, hr.logits.data() + static_cast<long>(i) * m, m)
                         : -1.0;
    hr.entropy(i) = static_cast<float>(h >= 0 ? h : row_entropy(p, m));
    hr.max_weight(i) = m > 0 ? *std::max_element(p, p + m) : 0.0f;
    hr.jacobian_norm(i) = static_cast<float>(row_jacobian_norm(p, m));
    hr.row_fully_masked[static_cast<size_t>(i)] = (blocked.row(i).array() != 0).all();
  }
}

}  // namespace

// One function from scores to row statistics, so compute() and anything that needs one row's softmax
// (the d_k sweep) share every rule: scaling, temperature, masking, overflow, hard attention.
void softmax_head(const Scenario& s, const MaskMat& blocked, int d_k, HeadResult& hr) {
  const bool scaled = s.scale && s.score != ScoreKind::Additive;
  const double alpha = scaled ? 1.0 / std::sqrt(static_cast<double>(d_k)) : 1.0;
  const double T = s.temperature;
  const LogitRows rows = compute_logits(blocked, alpha, T, hr);
  compute_weights(rows, alpha, T, hr);
  hr.undefined_scores = rows.undefined_scores;
  hr.infinite_scores = rows.infinite_scores;
  weighted_sum_simd(hr.weights, hr.V, hr.output);
  row_statistics(blocked, rows, T, hr);
}

namespace {
void compute_head(const Scenario& s, const MaskMat& blocked, HeadResult& hr) {
  head_scores(s, hr);
  softmax_head(s, blocked, static_cast<int>(hr.Q.cols()), hr);
}

}  // namespace

void project(const Scenario& s, Mat& X_effective, Mat& Q, Mat& K, Mat& V) {
  X_effective.resize(0, 0);
  if (s.X) {
    const int n = static_cast<int>(s.X->rows());
    const int d_model = static_cast<int>(s.X->cols());
    const bool pe = s.positional_encoding == PositionalEncoding::Sinusoidal;
    X_effective = *s.X;
    if (pe) X_effective += sinusoidal_encoding(n, d_model);
    Mat memory;
    if (s.memory) {
      memory = *s.memory;
      if (pe) memory += sinusoidal_encoding(static_cast<int>(memory.rows()), d_model);
    }
    const Mat& src = s.memory ? memory : X_effective;  // where keys and values come from
    Q = s.W_q ? Mat(X_effective * *s.W_q) : X_effective;
    K = s.W_k ? Mat(src * *s.W_k) : src;
    V = s.W_v ? Mat(src * *s.W_v) : src;
  } else {
    Q = *s.Q;
    K = *s.K;
    V = *s.V;
  }
}

MaskMat attention_mask(const Scenario& s, int n, int m) { return build_mask(s, n, m); }
MaskMat attention_mask_rows(const Scenario& s, int first, int rows, int m) {
  return build_mask_rows(s, first, rows, m);
}

Scenario keys_scenario(const Scenario& s, Mat K, Mat V) {
  Scenario out;
  out.K = std::move(K);
  out.V = std::move(V);
  out.W_o = s.W_o;
  out.score = s.score;
  out.W_a = s.W_a;
  out.U_a = s.U_a;
  out.v_a = s.v_a;
  out.scale = s.scale;
  out.temperature = s.temperature;
  out.heads = s.heads;
  return out;
}

void append_head_warnings(const HeadResult& hr, int head, int heads, double temperature,
                          std::vector<std::string>& warnings) {
  if (hr.logits_overflowed)
    warnings.push_back(head_prefix(head, heads) + "at temperature " + number_str(temperature) +
                       " some logits exceed the float range; they are shown clamped to "
                       "±3.4e38 and their weights are computed in double precision");
  if (hr.undefined_scores > 0)
    warnings.push_back(head_prefix(head, heads) + std::to_string(hr.undefined_scores) +
                       " scores are undefined (their dot products overflow the float range); "
                       "those keys get weight 0");
  if (hr.infinite_scores > 0)
    warnings.push_back(head_prefix(head, heads) + std::to_string(hr.infinite_scores) +
                       " scores overflow the float range; +inf scores share their row's weight "
                       "as hard maxima");
}

void append_output_warning(Result& r) {
  if (!r.output.allFinite())
    r.warnings.push_back("some outputs are infinite: the values or projections overflow the float range");
}

std::string compute(const Scenario& s, Result& out) {
  std::string err = validate(s);
  if (!err.empty()) return err;

  Result r;
  Mat Q, K, V;
  project(s, r.X_effective, Q, K, V);

  const int n = static_cast<int>(Q.rows());
  const int m = static_cast<int>(K.rows());
  const int h = s.heads;
  const int dh = static_cast<int>(Q.cols()) / h;
  const int dvh = static_cast<int>(V.cols()) / h;
  r.d_k = dh;

  // The mask does not depend on the head, so neither do its warnings.
  const MaskMat blocked = build_mask(s, n, m);
  std::vector<bool> fully_masked(static_cast<size_t>(n), false);
  for (int i = 0; i < n; ++i) {
    fully_masked[static_cast<size_t>(i)] = (blocked.row(i).array() != 0).all();
    if (fully_masked[static_cast<size_t>(i)])
      r.warnings.push_back("row " + std::to_string(i) + ": every key is masked; its weights and output are zero");
  }

  std::vector<HeadResult> heads(static_cast<size_t>(h));
  for (int k = 0; k < h; ++k) {
    HeadResult& hr = heads[static_cast<size_t>(k)];
    hr.Q = Q.middleCols(static_cast<Eigen::Index>(k) * dh, dh);
    hr.K = K.middleCols(static_cast<Eigen::Index>(k) * dh, dh);
    hr.V = V.middleCols(static_cast<Eigen::Index>(k) * dvh, dvh);
    compute_head(s, blocked, hr);
  }
  for (int k = 0; k < h; ++k) append_head_warnings(heads[static_cast<size_t>(k)], k, h, s.temperature, r.warnings);

  if (h == 1) {
    r.main = std::move(heads[0]);
    r.output = s.W_o ? Mat(r.main.output * *s.W_o) : r.main.output;
  } else {
    r.concat.resize(n, static_cast<Eigen::Index>(dvh) * h);
    for (int k = 0; k < h; ++k)
      r.concat.middleCols(static_cast<Eigen::Index>(k) * dvh, dvh) = heads[static_cast<size_t>(k)].output;
    r.output = s.W_o ? Mat(r.concat * *s.W_o) : r.concat;
    r.main.Q = std::move(Q);
    r.main.K = std::move(K);
    r.main.V = std::move(V);
    r.main.output = r.output;
    r.main.row_fully_masked = fully_masked;
    r.heads = std::move(heads);
  }
  append_output_warning(r);
  out = std::move(r);
  return "";
}

double row_spread(const Mat& m, const HeadResult& hr, int i) {
  double sum = 0, sq = 0;
  int n = 0;
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    if (!is_masked_logit(hr.logits(i, j)) && std::isfinite(m(i, j))) {
      sum += m(i, j);
      sq += static_cast<double>(m(i, j)) * m(i, j);
      ++n;
    }
  if (n == 0) return 0.0;
  const double mean = sum / n;
  return std::sqrt(std::max(0.0, sq / n - mean * mean));
}

double row_entropy(const float* p, int m) {
  double h = 0;
  for (int j = 0; j < m; ++j)
    if (p[j] > 0) h -= static_cast<double>(p[j]) * std::log(static_cast<double>(p[j]));  // 0·log 0 = 0
  return std::max(h, 0.0);
}

double row_jacobian_norm(const float* p, int m) {
  // ‖diag(p) − ppᵀ‖_F² = Σp² − 2Σp³ + (Σp²)², from expanding the squares entry by entry.
  double s2 = 0, s3 = 0;
  for (int j = 0; j < m; ++j) {
    const double x = p[j];
    s2 += x * x;
    s3 += x * x * x;
  }
  return std::sqrt(std::max(s2 - 2 * s3 + s2 * s2, 0.0));
}

Mat sinusoidal_encoding(int n, int d) {
  Mat pe(n, d);
  for (int p = 0; p < n; ++p)
    for (int c = 0; c < d; ++c) {
      const int two_i = c - c % 2;
      const double angle = p / std::pow(10000.0, static_cast<double>(two_i) / d);
      pe(p, c) = static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
  return pe;
}

}  // namespace attn
