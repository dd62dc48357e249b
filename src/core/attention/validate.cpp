// validate.cpp — whether a scenario can be computed, and if not, the first reason in words. It reads every entry of
// every matrix (non-finite values), so it stays at the core's -O3: built for size, the page's whole compute at
// n = 64, d_k = 256 took 1.8× as long (tests/bench/run_bench.mjs, compute-wasm).
#include <cmath>
#include <string>
#include <vector>

#include "core/attention/attention.h"
#include "core/attention/number_text.h"

namespace attn {

namespace {

std::string shape_str(Eigen::Index rows, Eigen::Index cols) {
  return std::to_string(rows) + "×" + std::to_string(cols);
}

// A present matrix with what its rows and columns stand for, so limit errors can say
// "n = 5000 (rows of X)" rather than just a number.
struct Named {
  const char* name;
  const Mat* mat;
  const char* rows_dim;
  const char* cols_dim;
};

std::vector<Named> present_matrices(const Scenario& s) {
  const char* a_cols = s.score == ScoreKind::General ? "d_k" : "d_a";
  const Named all[] = {
      {"X", s.X ? &*s.X : nullptr, "n", "d_model"},
      {"memory", s.memory ? &*s.memory : nullptr, "m", "d_model"},
      {"W_q", s.W_q ? &*s.W_q : nullptr, "d_model", "d_k"},
      {"W_k", s.W_k ? &*s.W_k : nullptr, "d_model", "d_k"},
      {"W_v", s.W_v ? &*s.W_v : nullptr, "d_model", "d_v"},
      {"W_o", s.W_o ? &*s.W_o : nullptr, "d_v", "d_out"},
      {"Q", s.Q ? &*s.Q : nullptr, "n", "d_k"},
      {"K", s.K ? &*s.K : nullptr, "m", "d_k"},
      {"V", s.V ? &*s.V : nullptr, "m", "d_v"},
      {"W_a", s.W_a ? &*s.W_a : nullptr, "d_k", a_cols},
      {"U_a", s.U_a ? &*s.U_a : nullptr, "d_k", "d_a"},
  };
  std::vector<Named> out;
  for (const Named& x : all)
    if (x.mat) out.push_back(x);
  return out;
}

std::string limit_error(const char* dim, Eigen::Index value, const std::string& what) {
  return std::string(dim) + " = " + std::to_string(value) + " (" + what + ") exceeds the limit of " +
         std::to_string(kMaxDim);
}

// The first non-finite entry, reported by position so the user can find it.
std::string non_finite_error(const char* name, const Mat& m) {
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      if (!std::isfinite(m(i, j)))
        return std::string(name) + " has a non-finite value (" + number_str(m(i, j)) + ") at row " + std::to_string(i) +
               ", column " + std::to_string(j);
  return "";
}

// The sizes every check after the shapes talks about.
struct Dims {
  Eigen::Index n = 0, m = 0, d_k = 0, d_v = 0;
};

// Which inputs: X (with optional projections) or Q, K, V directly.
std::string check_inputs(const Scenario& s) {
  const bool direct = s.Q || s.K || s.V;
  if (!s.X && !direct) return "missing inputs: give X (n×d_model) or Q, K and V";
  if (s.X && direct) return "give either X (with projections) or Q, K and V directly, not both";
  if (direct) {
    if (!s.Q) return "missing inputs: Q is required when K and V are given";
    if (!s.K) return "missing inputs: K is required when Q and V are given";
    if (!s.V) return "missing inputs: V is required when Q and K are given";
    if (s.W_q || s.W_k || s.W_v)
      return std::string(s.W_q ? "W_q" : s.W_k ? "W_k" : "W_v") + " projects X, but Q, K and V were given directly";
    if (s.memory) return "memory needs X: with Q, K and V given directly, K and V are the memory";
    if (s.positional_encoding != PositionalEncoding::None) return "positional_encoding needs X";
  }
  return "";
}

// Empty matrices, limits, non-finite values.
std::string check_matrix_values(const Scenario& s) {
  const std::vector<Named> mats = present_matrices(s);
  for (const Named& x : mats)
    if (x.mat->rows() == 0 || x.mat->cols() == 0)
      return std::string(x.name) + " is empty (" + shape_str(x.mat->rows(), x.mat->cols()) + ")";
  if (s.v_a && s.v_a->size() == 0) return "v_a is empty";
  for (const Named& x : mats) {
    if (x.mat->rows() > kMaxDim) return limit_error(x.rows_dim, x.mat->rows(), std::string("rows of ") + x.name);
    if (x.mat->cols() > kMaxDim) return limit_error(x.cols_dim, x.mat->cols(), std::string("columns of ") + x.name);
  }
  if (s.v_a && s.v_a->size() > kMaxDim) return limit_error("d_a", s.v_a->size(), "length of v_a");
  if (s.mask_cells && (s.mask_cells->rows() > kMaxDim || s.mask_cells->cols() > kMaxDim))
    return "mask_cells is " + shape_str(s.mask_cells->rows(), s.mask_cells->cols()) + ", which exceeds the limit of " +
           std::to_string(kMaxDim);
  if (s.key_padding.size() > static_cast<size_t>(kMaxDim))
    return limit_error("m", static_cast<Eigen::Index>(s.key_padding.size()), "entries of key_padding");
  for (const Named& x : mats) {
    std::string e = non_finite_error(x.name, *x.mat);
    if (!e.empty()) return e;
  }
  if (s.v_a)
    for (Eigen::Index a = 0; a < s.v_a->size(); ++a)
      if (!std::isfinite((*s.v_a)(a)))
        return "v_a has a non-finite value (" + number_str((*s.v_a)(a)) + ") at entry " + std::to_string(a);
  return "";
}

// n, m, d_k, d_v of X and its projections.
std::string shapes_from_x(const Scenario& s, Dims& d) {
  const Mat& X = *s.X;
  const Eigen::Index d_model = X.cols();
  const std::string x_cols = "X has " + std::to_string(d_model) + " columns";
  for (const auto& [name, w] :
       {std::pair<const char*, const std::optional<Mat>*>{"W_q", &s.W_q}, {"W_k", &s.W_k}, {"W_v", &s.W_v}})
    if (*w && (*w)->rows() != d_model)
      return std::string(name) + " has " + std::to_string((*w)->rows()) + " rows but " + x_cols;
  if (s.memory && s.memory->cols() != d_model)
    return "memory has " + std::to_string(s.memory->cols()) + " columns but " + x_cols + " (both are d_model wide)";
  d.n = X.rows();
  d.m = s.memory ? s.memory->rows() : d.n;
  const Eigen::Index dq = s.W_q ? s.W_q->cols() : d_model;
  const Eigen::Index dk = s.W_k ? s.W_k->cols() : d_model;
  if (dq != dk) {
    const std::string q = s.W_q ? "W_q gives " + std::to_string(dq) + " columns"
                                : "queries are X itself with " + std::to_string(dq) + " columns";
    const std::string k = s.W_k ? "W_k gives " + std::to_string(dk) : "keys are unprojected with " + std::to_string(dk);
    return "queries and keys need the same width d_k, but " + q + " and " + k;
  }
  d.d_k = dq;
  d.d_v = s.W_v ? s.W_v->cols() : d_model;
  return "";
}

// n, m, d_k, d_v of Q, K, V given directly.
std::string shapes_from_qkv(const Scenario& s, Dims& d) {
  const Mat &Q = *s.Q, &K = *s.K, &V = *s.V;
  if (Q.cols() != K.cols())
    return "Q has " + std::to_string(Q.cols()) + " columns but K has " + std::to_string(K.cols()) +
           " columns (queries and keys need the same width d_k)";
  if (K.rows() != V.rows())
    return "K has " + std::to_string(K.rows()) + " rows but V has " + std::to_string(V.rows()) +
           " rows (each key needs one value)";
  d.n = Q.rows();
  d.m = K.rows();
  d.d_k = Q.cols();
  d.d_v = V.cols();
  return "";
}

// Shapes: n, m, d_k, d_v, and the output projection that takes d_v.
std::string check_shapes(const Scenario& s, Dims& d) {
  const std::string e = s.X ? shapes_from_x(s, d) : shapes_from_qkv(s, d);
  if (!e.empty()) return e;
  if (d.d_k > kMaxDim) return limit_error("d_k", d.d_k, "width of the keys");
  if (d.d_v > kMaxDim) return limit_error("d_v", d.d_v, "width of the values");
  if (s.W_o && s.W_o->rows() != d.d_v)
    return "W_o has " + std::to_string(s.W_o->rows()) + " rows but the attention output has " + std::to_string(d.d_v) +
           " columns (d_v)";
  return "";
}

std::string check_heads(const Scenario& s, const Dims& d) {
  if (s.heads < 1) return "heads = " + std::to_string(s.heads) + " must be at least 1";
  if (s.heads > kMaxHeads)
    return "heads = " + std::to_string(s.heads) + " exceeds the limit of " + std::to_string(kMaxHeads);
  if (d.d_k % s.heads != 0)
    return "heads = " + std::to_string(s.heads) + " does not divide d_k = " + std::to_string(d.d_k);
  if (d.d_v % s.heads != 0)
    return "heads = " + std::to_string(s.heads) + " does not divide d_v = " + std::to_string(d.d_v);
  return "";
}

std::string check_temperature_and_masks(const Scenario& s, const Dims& d) {
  if (!std::isfinite(s.temperature))
    return "temperature must be a finite number (got " + number_str(s.temperature) + ")";
  if (s.temperature < 0) return "temperature must be >= 0 (got " + number_str(s.temperature) + ")";
  if (!s.key_padding.empty() && static_cast<Eigen::Index>(s.key_padding.size()) != d.m)
    return "key_padding has " + std::to_string(s.key_padding.size()) + " entries but there are " + std::to_string(d.m) +
           " keys (m)";
  if (s.mask_cells && (s.mask_cells->rows() != d.n || s.mask_cells->cols() != d.m))
    return "mask_cells is " + shape_str(s.mask_cells->rows(), s.mask_cells->cols()) + " but the scores are " +
           shape_str(d.n, d.m) + " (n×m)";
  return "";
}

// Score parameters, per head: dh is the head's d_k.
std::string check_score_parameters(const Scenario& s, Eigen::Index dh) {
  const std::string per_head = s.heads > 1 ? " (the d_k of one of " + std::to_string(s.heads) + " heads)" : " (d_k)";
  if (s.score == ScoreKind::General) {
    if (!s.W_a) return "score 'general' needs W_a (" + shape_str(dh, dh) + ")";
    if (s.W_a->rows() != dh || s.W_a->cols() != dh)
      return "W_a is " + shape_str(s.W_a->rows(), s.W_a->cols()) + " but score 'general' needs " + shape_str(dh, dh) +
             per_head;
  } else if (s.score == ScoreKind::Additive) {
    if (!s.W_a || !s.U_a || !s.v_a)
      return std::string("score 'additive' needs W_a, U_a and v_a (") +
             (!s.W_a   ? "W_a"
              : !s.U_a ? "U_a"
                       : "v_a") +
             " is missing)";
    if (s.W_a->rows() != dh)
      return "W_a has " + std::to_string(s.W_a->rows()) + " rows but score 'additive' needs " + std::to_string(dh) +
             per_head;
    if (s.U_a->rows() != dh)
      return "U_a has " + std::to_string(s.U_a->rows()) + " rows but score 'additive' needs " + std::to_string(dh) +
             per_head;
    if (s.U_a->cols() != s.W_a->cols())
      return "U_a has " + std::to_string(s.U_a->cols()) + " columns but W_a has " + std::to_string(s.W_a->cols()) +
             " (both are d_a wide)";
    if (s.v_a->size() != s.W_a->cols())
      return "v_a has " + std::to_string(s.v_a->size()) + " entries but W_a has " + std::to_string(s.W_a->cols()) +
             " columns (d_a)";
  }
  return "";
}

// Total work: every head keeps its n×m scores, logits and weights.
std::string check_total_work(const Scenario& s, const Dims& d) {
  const long long cells = static_cast<long long>(s.heads) * d.n * d.m;
  if (cells > kMaxScoreCells)
    return "heads × n × m = " + std::to_string(cells) + " score cells exceeds the limit of " +
           std::to_string(kMaxScoreCells);
  return "";
}

}  // namespace

// The checks run in this order, each assuming the ones before it passed; the first failure is the message.
std::string validate(const Scenario& s) {
  Dims d;
  std::string e = check_inputs(s);
  if (e.empty()) e = check_matrix_values(s);
  if (e.empty()) e = check_shapes(s, d);
  if (e.empty()) e = check_heads(s, d);
  if (e.empty()) e = check_temperature_and_masks(s, d);
  if (e.empty()) e = check_score_parameters(s, d.d_k / s.heads);
  if (e.empty()) e = check_total_work(s, d);
  return e;
}

}  // namespace attn
