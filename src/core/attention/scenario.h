// scenario.h — the input of one attention computation and the result holding every intermediate.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace attn {

// Row-major float matrices: rows are tokens, which is how the kernels and the UI walk them.
using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::VectorXf;
// Boolean masks as bytes (1 = blocked) so they are addressable and cheap to copy.
using MaskMat = Eigen::Matrix<uint8_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

enum class ScoreKind { Dot, General, Additive };
enum class MaskKind { None, Causal };
enum class PositionalEncoding { None, Sinusoidal };

// Explicit limits on every dimension so hostile input cannot exhaust memory.
constexpr int kMaxDim = 4096;
constexpr int kMaxHeads = 256;
// heads × n × m: every head keeps n×m scores, logits and weights (about 200 MB at this limit).
constexpr long long kMaxScoreCells = 1LL << 24;

struct Scenario {
  // Either X (n×d_model) with optional projections (absent = identity) ...
  std::optional<Mat> X;
  std::optional<Mat> W_q, W_k, W_v, W_o;
  // ... or Q, K, V given directly (K and V may have m ≠ n rows).
  std::optional<Mat> Q, K, V;
  // Cross-attention: keys and values come from memory (m×d_model).
  std::optional<Mat> memory;

  ScoreKind score = ScoreKind::Dot;
  std::optional<Mat> W_a;  // general: d_k×d_k; additive: d_k×d_a
  std::optional<Mat> U_a;  // additive: d_k×d_a
  std::optional<Vec> v_a;  // additive: length d_a

  bool scale = true;         // divide dot/general scores by √d_k
  double temperature = 1.0;  // 0 = the limit T→0⁺ (hard attention)

  MaskKind mask = MaskKind::None;
  std::vector<bool> key_padding;      // m entries, true = key ignored
  std::optional<MaskMat> mask_cells;  // n×m, 1 = cell blocked (painted by hand)

  int heads = 1;
  PositionalEncoding positional_encoding = PositionalEncoding::None;

  // Labels only; they never change the numbers.
  std::vector<std::string> tokens;         // query side (n)
  std::vector<std::string> memory_tokens;  // key side when cross-attending (m)
};

// A logit the mask (or an undefined score) removed from the softmax: −∞, weight 0 whatever the key
// holds. A +∞ logit is an overflowed score that wins its row, not a masked one.
inline bool is_masked_logit(float logit) { return logit == -std::numeric_limits<float>::infinity(); }

// Everything one head computes. Masked logits are -infinity (null in JSON).
struct HeadResult {
  Mat Q, K, V;
  Mat scores;         // raw compatibility, n×m
  Mat logits;         // after scaling, temperature and masking
  Mat weights;        // softmax rows
  Mat output;         // weights × V, n×d_v
  Vec entropy;        // per row, nats
  Vec max_weight;     // per row
  Vec jacobian_norm;  // per row, ‖diag(p) − ppᵀ‖_F
  std::vector<bool> row_fully_masked;
  // What went out of the float range (reported as warnings): NaN scores, ±inf scores, and whether
  // some logits overflowed at a tiny temperature (their weights then come from double precision).
  long undefined_scores = 0, infinite_scores = 0;
  bool logits_overflowed = false;
};

struct Result {
  HeadResult main;                // h = 1: the head; h > 1: Q/K/V full width, output = final
  std::vector<HeadResult> heads;  // only when h > 1
  Mat concat;                     // heads' outputs side by side (h > 1), before W_o
  Mat output;                     // final output (after W_o if given)
  Mat X_effective;                // X after positional encoding (empty if Q/K/V were given)
  double d_k = 0;                 // per-head key width used for scaling
  std::vector<std::string> warnings;

  // The head the single-head views show: the only one, or head 1 of several.
  const HeadResult& first_head() const { return heads.empty() ? main : heads.front(); }
};

}  // namespace attn
