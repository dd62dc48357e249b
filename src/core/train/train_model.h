// train_model.h — the attention-only transformer of Learn mode: parameters, forward pass and hand-written backprop.
//
// x₀ = E[token] + P[position] (P learned, or the core's sinusoidal encoding); then per layer
//   u = rms(x)  (x / √(mean x² + ε), no gain; u = x when norm is off)
//   per head h: Q = u W_q[h], K = u W_k[h], V = u W_v[h];  A = softmax(α Q Kᵀ + mask), α = (1/√d_k if scaled)/T
//   x ← x + concat_h(A V) W_o;   with mlp: x ← x + gelu(rms(x) W_1 + b_1) W_2 + b_2
// logits = rms(x) W_u + b_u; loss = mean cross-entropy over the scored positions of the batch.
// The float model runs the attention through the playground's kernels (scores_simd, softmax_rows_simd,
// weighted_sum_simd); the double model, used for the gradient check, writes the same steps in Eigen.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "core/attention/montecarlo.h"
#include "core/train/train_settings.h"
#include "core/train/train_tasks.h"

namespace attn::train {

template <typename T>
using MatX = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using VecX = Eigen::Matrix<T, Eigen::Dynamic, 1>;

// One named parameter tensor: rows × cols entries at `offset` of the flat parameter vector.
struct TensorInfo {
  std::string name;
  int rows = 0, cols = 0;
  size_t offset = 0;
  size_t size() const { return static_cast<size_t>(rows) * cols; }
};

// What one forward pass measured. The attention statistics average over every row of every head,
// layer and example; logit_grad_norm is filled by backward().
struct PassStats {
  double loss = 0;
  long scored = 0, correct = 0;
  long sequences = 0, sequences_correct = 0;
  double mean_jacobian_norm = 0;  // mean over rows of ‖diag(p) − ppᵀ‖_F (row_jacobian_norm)
  double mean_entropy = 0;        // mean over rows, nats (row_entropy)
  double logit_grad_norm = 0;     // ‖∂loss/∂(attention logits)‖_F over every head and layer
};

// Activations of one forward pass (kept for backward) and the gradients; reused across steps so a
// step of the same batch size allocates nothing.
template <typename T>
struct Workspace {
  struct Layer {
    MatX<T> x_in, u, Q, K, V, Z, x_mid, u2, pre, act;
    VecX<T> r, r2;
    std::vector<MatX<T>> A;  // batch × heads attention weights, n×n each, index b·heads + h
  };
  std::vector<Layer> layers;
  MatX<T> x_out, u_out, logits, probs;
  VecX<T> r_out;
  std::vector<int> predictions;  // argmax per position, batch × seq_len
  std::vector<T> gradients;
  // Backward scratch.
  MatX<T> dx, du, dQ, dK, dV, dZ, dlogits, dpre, dact;
  MatX<T> qh, kh, vh, zh, dA, dS;
  int batch = 0;
};

template <typename T>
class Model {
 public:
  // The parameter layout for validated settings; every parameter is zero until initialise().
  explicit Model(const ModelSettings& settings);

  // Draws the initialisation of settings().init from rng (tensor by tensor, in layout order), always
  // in float, so a float and a double model initialised from equal seeds hold equal numbers.
  void initialise(Rng& rng);

  const ModelSettings& settings() const { return s_; }
  const std::vector<TensorInfo>& tensors() const { return tensors_; }
  // The tensor called `name` ("embed", "pos", "L0.W_q", …, "unembed", "unembed.b"), or null.
  const TensorInfo* tensor(const std::string& name) const;
  std::vector<T>& parameters() { return params_; }
  const std::vector<T>& parameters() const { return params_; }
  // α: what q·k is multiplied by before the softmax.
  double logit_factor() const;

  // Forward pass with loss and accuracy on the scored positions; `statistics` adds the attention
  // entropy and Jacobian norm. The workspace keeps what backward() needs.
  PassStats forward(const Batch& batch, Workspace<T>& ws, bool statistics = true) const;
  // After forward() on the same batch: fills ws.gradients (same layout as parameters()) and
  // stats.logit_grad_norm.
  void backward(const Batch& batch, Workspace<T>& ws, PassStats& stats) const;

  // Column block of head h in a layer's W_q / W_k (d_model × d_k) or W_v (d_model × d_v).
  MatX<T> head_weights(int layer, const char* which, int head) const;

 private:
  using Map = Eigen::Map<MatX<T>>;
  using ConstMap = Eigen::Map<const MatX<T>>;
  struct LayerIndex {
    int W_q = -1, W_k = -1, W_v = -1, W_o = -1, W_1 = -1, b_1 = -1, W_2 = -1, b_2 = -1;
  };

  int add_tensor(const std::string& name, int rows, int cols, double unit_sd);
  ConstMap param(int t) const;
  Map grad(Workspace<T>& ws, int t) const;
  void prepare(Workspace<T>& ws, int batch) const;
  void attention_forward(int l, Workspace<T>& ws, PassStats& st, bool statistics) const;
  void attention_backward(int l, Workspace<T>& ws, double& logit_sq) const;
  void mlp_forward(int l, Workspace<T>& ws) const;
  void mlp_backward(int l, Workspace<T>& ws) const;
  void readout_loss(const Batch& batch, Workspace<T>& ws, PassStats& st) const;

  ModelSettings s_;
  std::vector<TensorInfo> tensors_;
  std::vector<double> unit_sd_;  // per tensor: its standard deviation under unit init; 0 = a bias (zeros)
  std::vector<T> params_;
  int embed_ = -1, pos_ = -1, unembed_ = -1, unembed_b_ = -1;
  std::vector<LayerIndex> layer_index_;
  MatX<T> sinusoidal_;  // seq_len × d_model, when positions are sinusoidal
};

extern template class Model<float>;
extern template class Model<double>;

}  // namespace attn::train
