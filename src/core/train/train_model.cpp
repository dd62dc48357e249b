// train_model.cpp — forward pass through the playground's attention kernels and the hand-written backward pass.
#include "core/train/train_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/attention/attention.h"  // row_entropy, row_jacobian_norm, sinusoidal_encoding
#include "core/attention/kernels.h"
#include "core/attention/matmul_eigen.h"

namespace attn::train {

namespace {

constexpr double kRmsEpsilon = 1e-6;

// ---- matrix products: the core's matmul kernel for float (hand-written wasm SIMD in the page, Eigen
// natively), Eigen for the double path the gradient checks use. Every operand is a row-major matrix,
// a block of one or a map of the parameters.

template <typename T>
struct Operand {
  const T* data;
  Eigen::Index rows, cols, stride;
  bool transposed;
};

template <typename D>
Operand<typename D::Scalar> N(const Eigen::MatrixBase<D>& m) {
  return {m.derived().data(), m.rows(), m.cols(), m.derived().outerStride(), false};
}

template <typename D>
Operand<typename D::Scalar> Tr(const Eigen::MatrixBase<D>& m) {
  return {m.derived().data(), m.cols(), m.rows(), m.derived().outerStride(), true};
}

void matmul_into(float* c, Eigen::Index ldc, Operand<float> a, Operand<float> b, bool accumulate) {
  matmul_simd(static_cast<int>(a.rows), static_cast<int>(b.cols), static_cast<int>(a.cols),
              {a.data, static_cast<long>(a.stride), a.transposed}, {b.data, static_cast<long>(b.stride), b.transposed},
              c, static_cast<long>(ldc), accumulate);
}

void matmul_into(double* c, Eigen::Index ldc, Operand<double> a, Operand<double> b, bool accumulate) {
  matmul_eigen(static_cast<int>(a.rows), static_cast<int>(b.cols), static_cast<int>(a.cols), a.data,
               static_cast<long>(a.stride), a.transposed, b.data, static_cast<long>(b.stride), b.transposed, c,
               static_cast<long>(ldc), accumulate);
}

// out = op(A)·op(B), or out += op(A)·op(B). `out` is a whole matrix (resized to fit), a block or a map.
template <typename T, typename Out>
void matmul(Out&& out, Operand<T> a, Operand<T> b, bool accumulate = false) {
  eigen_assert(a.cols == b.rows);
  if constexpr (std::is_same_v<std::decay_t<Out>, MatX<T>>) {
    if (!accumulate && (out.rows() != a.rows || out.cols() != b.cols)) out.resize(a.rows, b.cols);
  }
  eigen_assert(out.rows() == a.rows && out.cols() == b.cols);
  matmul_into(out.data(), out.outerStride(), a, b, accumulate);
}

// ---- the attention of one head: the playground's kernels for float, the same steps in Eigen for double.

template <typename T>
void mask_future(MatX<T>& S) {
  const T neg_inf = -std::numeric_limits<T>::infinity();
  for (Eigen::Index i = 0; i < S.rows(); ++i)
    for (Eigen::Index j = i + 1; j < S.cols(); ++j) S(i, j) = neg_inf;
}

// Row softmax in double with the kernels' contract (−inf entries get weight 0); rows are never all
// masked here, since every position sees itself.
void softmax_rows_reference(MatX<double>& A) {
  for (Eigen::Index i = 0; i < A.rows(); ++i) {
    const double mx = A.row(i).maxCoeff();
    A.row(i) = (A.row(i).array() - mx).exp();
    A.row(i) /= A.row(i).sum();
  }
}

void softmax_rows_any(MatX<float>& A) { softmax_rows_simd(A); }
void softmax_rows_any(MatX<double>& A) { softmax_rows_reference(A); }

void head_attention(const MatX<float>& q, const MatX<float>& k, const MatX<float>& v, double alpha, bool causal,
                    MatX<float>& A, MatX<float>& z) {
  scores_simd(q, k, static_cast<float>(alpha), A);
  if (causal) mask_future(A);
  softmax_rows_simd(A);
  weighted_sum_simd(A, v, z);
}

void head_attention(const MatX<double>& q, const MatX<double>& k, const MatX<double>& v, double alpha, bool causal,
                    MatX<double>& A, MatX<double>& z) {
  A.noalias() = alpha * q * k.transpose();
  if (causal) mask_future(A);
  softmax_rows_reference(A);
  z.noalias() = A * v;
}

// Accumulates the core's per-row statistics over the rows of one head's weights.
void add_row_stats(const MatX<float>& A, double& entropy, double& jacobian) {
  const int m = static_cast<int>(A.cols());
  for (Eigen::Index i = 0; i < A.rows(); ++i) {
    entropy += row_entropy(A.row(i).data(), m);
    jacobian += row_jacobian_norm(A.row(i).data(), m);
  }
}

void add_row_stats(const MatX<double>& A, double& entropy, double& jacobian) {
  const MatX<float> f = A.cast<float>();
  add_row_stats(f, entropy, jacobian);
}

// ---- RMS normalisation without gain, and GELU (tanh form, GPT-2's).

template <typename T>
void rms_forward(const MatX<T>& x, VecX<T>& r, MatX<T>& u) {
  const T inv_d = T(1) / static_cast<T>(x.cols());
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    r(i) = std::sqrt(x.row(i).squaredNorm() * inv_d + static_cast<T>(kRmsEpsilon));
    u.row(i) = x.row(i) / r(i);
  }
}

// dx += ∂/∂x of u = x / r(x):  (du − u · mean(du ⊙ u)) / r.
template <typename T>
void rms_backward_add(const MatX<T>& du, const MatX<T>& u, const VecX<T>& r, MatX<T>& dx) {
  const T inv_d = T(1) / static_cast<T>(u.cols());
  for (Eigen::Index i = 0; i < u.rows(); ++i) {
    const T c = du.row(i).dot(u.row(i)) * inv_d;
    dx.row(i) += (du.row(i) - c * u.row(i)) / r(i);
  }
}

constexpr double kGeluC = 0.7978845608028654;  // √(2/π)
constexpr double kGeluA = 0.044715;

template <typename T>
T gelu(T x) {
  return T(0.5) * x * (T(1) + std::tanh(static_cast<T>(kGeluC) * (x + static_cast<T>(kGeluA) * x * x * x)));
}

template <typename T>
T gelu_derivative(T x) {
  const T c = static_cast<T>(kGeluC), a = static_cast<T>(kGeluA);
  const T t = std::tanh(c * (x + a * x * x * x));
  return T(0.5) * (T(1) + t) + T(0.5) * x * (T(1) - t * t) * c * (T(1) + T(3) * a * x * x);
}

}  // namespace

template <typename T>
Model<T>::Model(const ModelSettings& settings) : s_(settings) {
  const int d = s_.d_model, H = s_.heads;
  // Unit init: the embeddings sum to unit-variance entries; every projection reads unit-RMS rows,
  // so N(0, 1/fan_in) makes its outputs (q, k and v in particular) unit-variance.
  const auto fan = [](int fan_in) { return 1.0 / std::sqrt(static_cast<double>(fan_in)); };
  embed_ = add_tensor("embed", s_.vocab, d, std::sqrt(0.5));
  if (s_.positional == PositionalKind::Learned) pos_ = add_tensor("pos", s_.seq_len, d, std::sqrt(0.5));
  for (int l = 0; l < s_.layers; ++l) {
    const std::string p = "L" + std::to_string(l) + ".";
    LayerIndex li;
    li.W_q = add_tensor(p + "W_q", d, H * s_.d_k, fan(d));
    li.W_k = add_tensor(p + "W_k", d, H * s_.d_k, fan(d));
    li.W_v = add_tensor(p + "W_v", d, H * s_.d_v, fan(d));
    li.W_o = add_tensor(p + "W_o", H * s_.d_v, d, fan(H * s_.d_v));
    if (s_.mlp) {
      li.W_1 = add_tensor(p + "W_1", d, s_.d_mlp, fan(d));
      li.b_1 = add_tensor(p + "b_1", 1, s_.d_mlp, 0);
      li.W_2 = add_tensor(p + "W_2", s_.d_mlp, d, fan(s_.d_mlp));
      li.b_2 = add_tensor(p + "b_2", 1, d, 0);
    }
    layer_index_.push_back(li);
  }
  unembed_ = add_tensor("unembed", d, s_.vocab, fan(d));
  unembed_b_ = add_tensor("unembed.b", 1, s_.vocab, 0);
  params_.assign(tensors_.empty() ? 0 : tensors_.back().offset + tensors_.back().size(), T(0));
  if (s_.positional == PositionalKind::Sinusoidal) sinusoidal_ = sinusoidal_encoding(s_.seq_len, d).cast<T>();
}

template <typename T>
int Model<T>::add_tensor(const std::string& name, int rows, int cols, double unit_sd) {
  TensorInfo t;
  t.name = name;
  t.rows = rows;
  t.cols = cols;
  t.offset = tensors_.empty() ? 0 : tensors_.back().offset + tensors_.back().size();
  tensors_.push_back(t);
  unit_sd_.push_back(unit_sd);
  return static_cast<int>(tensors_.size()) - 1;
}

template <typename T>
const TensorInfo* Model<T>::tensor(const std::string& name) const {
  for (const TensorInfo& t : tensors_)
    if (t.name == name) return &t;
  return nullptr;
}

template <typename T>
typename Model<T>::ConstMap Model<T>::param(int t) const {
  const TensorInfo& ti = tensors_[static_cast<size_t>(t)];
  return ConstMap(params_.data() + ti.offset, ti.rows, ti.cols);
}

template <typename T>
typename Model<T>::Map Model<T>::grad(Workspace<T>& ws, int t) const {
  const TensorInfo& ti = tensors_[static_cast<size_t>(t)];
  return Map(ws.gradients.data() + ti.offset, ti.rows, ti.cols);
}

template <typename T>
double Model<T>::logit_factor() const {
  return (s_.scale ? 1.0 / std::sqrt(static_cast<double>(s_.d_k)) : 1.0) / s_.temperature;
}

template <typename T>
void Model<T>::initialise(Rng& rng) {
  std::fill(params_.begin(), params_.end(), T(0));
  std::vector<float> draws;
  for (size_t k = 0; k < tensors_.size(); ++k) {
    const TensorInfo& t = tensors_[k];
    const double sd = s_.init == InitKind::Unit ? unit_sd_[k] : 0.02;
    if (unit_sd_[k] == 0) continue;  // biases start at zero
    draws.resize(t.size());
    rng.fill_normal(draws.data(), static_cast<int>(draws.size()));
    const float sdf = static_cast<float>(sd);
    for (size_t i = 0; i < draws.size(); ++i) params_[t.offset + i] = static_cast<T>(draws[i] * sdf);
  }
}

template <typename T>
MatX<T> Model<T>::head_weights(int layer, const char* which, int head) const {
  const LayerIndex& li = layer_index_[static_cast<size_t>(layer)];
  const std::string w = which;
  const int t = w == "W_q" ? li.W_q : w == "W_k" ? li.W_k : li.W_v;
  const int width = w == "W_v" ? s_.d_v : s_.d_k;
  return param(t).middleCols(static_cast<Eigen::Index>(head) * width, width);
}

template <typename T>
void Model<T>::prepare(Workspace<T>& ws, int batch) const {
  const Eigen::Index R = static_cast<Eigen::Index>(batch) * s_.seq_len;
  const int n = s_.seq_len, d = s_.d_model, H = s_.heads;
  if (ws.batch == batch && ws.layers.size() == static_cast<size_t>(s_.layers) && ws.x_out.rows() == R &&
      ws.x_out.cols() == d && ws.gradients.size() == params_.size() && ws.dQ.cols() == H * s_.d_k &&
      ws.dV.cols() == H * s_.d_v && ws.logits.cols() == s_.vocab && ws.dpre.cols() == (s_.mlp ? s_.d_mlp : 0) &&
      ws.dA.rows() == n)
    return;
  ws.batch = batch;
  ws.layers.assign(static_cast<size_t>(s_.layers), {});
  for (auto& L : ws.layers) {
    L.x_in.resize(R, d);
    L.u.resize(R, d);
    L.r.resize(R);
    L.Q.resize(R, H * s_.d_k);
    L.K.resize(R, H * s_.d_k);
    L.V.resize(R, H * s_.d_v);
    L.Z.resize(R, H * s_.d_v);
    L.A.assign(static_cast<size_t>(batch) * H, MatX<T>(n, n));
    if (s_.mlp) {
      L.x_mid.resize(R, d);
      L.u2.resize(R, d);
      L.r2.resize(R);
      L.pre.resize(R, s_.d_mlp);
      L.act.resize(R, s_.d_mlp);
    }
  }
  ws.x_out.resize(R, d);
  ws.u_out.resize(R, d);
  ws.r_out.resize(R);
  ws.logits.resize(R, s_.vocab);
  ws.probs.resize(R, s_.vocab);
  ws.predictions.assign(static_cast<size_t>(R), 0);
  ws.gradients.assign(params_.size(), T(0));
  ws.dx.resize(R, d);
  ws.du.resize(R, d);
  ws.dQ.resize(R, H * s_.d_k);
  ws.dK.resize(R, H * s_.d_k);
  ws.dV.resize(R, H * s_.d_v);
  ws.dZ.resize(R, H * s_.d_v);
  ws.dlogits.resize(R, s_.vocab);
  ws.dpre.resize(R, s_.mlp ? s_.d_mlp : 0);
  ws.dact.resize(R, s_.mlp ? s_.d_mlp : 0);
  ws.qh.resize(n, s_.d_k);
  ws.kh.resize(n, s_.d_k);
  ws.vh.resize(n, s_.d_v);
  ws.zh.resize(n, s_.d_v);
  ws.dA.resize(n, n);
  ws.dS.resize(n, n);
}

template <typename T>
PassStats Model<T>::forward(const Batch& batch, Workspace<T>& ws, bool statistics) const {
  prepare(ws, batch.batch);
  const int n = s_.seq_len;
  MatX<T>& x0 = ws.layers[0].x_in;
  const ConstMap E = param(embed_);
  for (int b = 0; b < batch.batch; ++b)
    for (int t = 0; t < n; ++t) {
      const Eigen::Index r = static_cast<Eigen::Index>(b) * n + t;
      if (pos_ >= 0)
        x0.row(r) = E.row(batch.token(b, t)) + param(pos_).row(t);
      else
        x0.row(r) = E.row(batch.token(b, t)) + sinusoidal_.row(t);
    }
  PassStats st;
  for (int l = 0; l < s_.layers; ++l) {
    attention_forward(l, ws, st, statistics);
    if (s_.mlp) mlp_forward(l, ws);
  }
  if (statistics) {
    const double rows = static_cast<double>(batch.batch) * s_.heads * s_.layers * n;
    st.mean_entropy /= rows;
    st.mean_jacobian_norm /= rows;
  }
  readout_loss(batch, ws, st);
  return st;
}

template <typename T>
void Model<T>::attention_forward(int l, Workspace<T>& ws, PassStats& st, bool statistics) const {
  auto& L = ws.layers[static_cast<size_t>(l)];
  const LayerIndex& li = layer_index_[static_cast<size_t>(l)];
  const int n = s_.seq_len, H = s_.heads, dk = s_.d_k, dv = s_.d_v;
  if (s_.norm)
    rms_forward(L.x_in, L.r, L.u);
  else
    L.u = L.x_in;
  matmul(L.Q, N(L.u), N(param(li.W_q)));
  matmul(L.K, N(L.u), N(param(li.W_k)));
  matmul(L.V, N(L.u), N(param(li.W_v)));
  const double alpha = logit_factor();
  for (int b = 0; b < ws.batch; ++b)
    for (int h = 0; h < H; ++h) {
      const Eigen::Index r0 = static_cast<Eigen::Index>(b) * n;
      ws.qh = L.Q.block(r0, h * dk, n, dk);
      ws.kh = L.K.block(r0, h * dk, n, dk);
      ws.vh = L.V.block(r0, h * dv, n, dv);
      MatX<T>& A = L.A[static_cast<size_t>(b) * H + h];
      head_attention(ws.qh, ws.kh, ws.vh, alpha, s_.causal, A, ws.zh);
      L.Z.block(r0, h * dv, n, dv) = ws.zh;
      if (statistics) add_row_stats(A, st.mean_entropy, st.mean_jacobian_norm);
    }
  // The residual stream after the block: the MLP's input when there is one, else the next layer's.
  MatX<T>& out = s_.mlp ? L.x_mid : (l + 1 < s_.layers ? ws.layers[static_cast<size_t>(l) + 1].x_in : ws.x_out);
  out = L.x_in;
  matmul(out, N(L.Z), N(param(li.W_o)), true);
}

template <typename T>
void Model<T>::mlp_forward(int l, Workspace<T>& ws) const {
  auto& L = ws.layers[static_cast<size_t>(l)];
  const LayerIndex& li = layer_index_[static_cast<size_t>(l)];
  if (s_.norm)
    rms_forward(L.x_mid, L.r2, L.u2);
  else
    L.u2 = L.x_mid;
  matmul(L.pre, N(L.u2), N(param(li.W_1)));
  L.pre.rowwise() += param(li.b_1).row(0);
  L.act = L.pre.unaryExpr([](T x) { return gelu(x); });
  MatX<T>& out = l + 1 < s_.layers ? ws.layers[static_cast<size_t>(l) + 1].x_in : ws.x_out;
  out = L.x_mid;
  matmul(out, N(L.act), N(param(li.W_2)), true);
  out.rowwise() += param(li.b_2).row(0);
}

template <typename T>
void Model<T>::readout_loss(const Batch& batch, Workspace<T>& ws, PassStats& st) const {
  if (s_.norm)
    rms_forward(ws.x_out, ws.r_out, ws.u_out);
  else
    ws.u_out = ws.x_out;
  matmul(ws.logits, N(ws.u_out), N(param(unembed_)));
  ws.logits.rowwise() += param(unembed_b_).row(0);
  ws.probs = ws.logits;
  softmax_rows_any(ws.probs);
  const int n = s_.seq_len, V = s_.vocab;
  double loss = 0;
  for (int b = 0; b < batch.batch; ++b) {
    bool all_right = true;
    for (int t = 0; t < n; ++t) {
      const Eigen::Index r = static_cast<Eigen::Index>(b) * n + t;
      const T* row = ws.logits.row(r).data();
      const int best = static_cast<int>(std::max_element(row, row + V) - row);
      ws.predictions[static_cast<size_t>(r)] = best;
      const int target = batch.target(b, t);
      if (target < 0) continue;
      // Cross-entropy from the logits (log-sum-exp in double), so a tiny probability cannot round to log 0.
      const double mx = static_cast<double>(row[best]);
      double sum = 0;
      for (int v = 0; v < V; ++v) sum += std::exp(static_cast<double>(row[v]) - mx);
      loss += std::log(sum) + mx - static_cast<double>(row[target]);
      ++st.scored;
      if (best == target)
        ++st.correct;
      else
        all_right = false;
    }
    ++st.sequences;
    if (all_right) ++st.sequences_correct;
  }
  st.loss = st.scored > 0 ? loss / static_cast<double>(st.scored) : 0.0;
}

template <typename T>
void Model<T>::backward(const Batch& batch, Workspace<T>& ws, PassStats& stats) const {
  const int n = s_.seq_len;
  std::fill(ws.gradients.begin(), ws.gradients.end(), T(0));
  // ∂loss/∂logits = (softmax − one-hot) / scored on scored positions, 0 elsewhere.
  const T inv_scored = batch.scored > 0 ? T(1) / static_cast<T>(batch.scored) : T(0);
  for (int b = 0; b < batch.batch; ++b)
    for (int t = 0; t < n; ++t) {
      const Eigen::Index r = static_cast<Eigen::Index>(b) * n + t;
      const int target = batch.target(b, t);
      if (target < 0) {
        ws.dlogits.row(r).setZero();
        continue;
      }
      ws.dlogits.row(r) = ws.probs.row(r) * inv_scored;
      ws.dlogits(r, target) -= inv_scored;
    }
  matmul(grad(ws, unembed_), Tr(ws.u_out), N(ws.dlogits));
  grad(ws, unembed_b_) = ws.dlogits.colwise().sum();
  matmul(ws.du, N(ws.dlogits), Tr(param(unembed_)));
  if (s_.norm) {
    ws.dx.setZero();
    rms_backward_add(ws.du, ws.u_out, ws.r_out, ws.dx);
  } else {
    ws.dx = ws.du;
  }
  double logit_sq = 0;
  for (int l = s_.layers - 1; l >= 0; --l) {
    if (s_.mlp) mlp_backward(l, ws);
    attention_backward(l, ws, logit_sq);
  }
  Map gE = grad(ws, embed_);
  for (int b = 0; b < batch.batch; ++b)
    for (int t = 0; t < n; ++t) {
      const Eigen::Index r = static_cast<Eigen::Index>(b) * n + t;
      gE.row(batch.token(b, t)) += ws.dx.row(r);
    }
  if (pos_ >= 0) {
    Map gP = grad(ws, pos_);
    for (int b = 0; b < batch.batch; ++b) gP += ws.dx.middleRows(static_cast<Eigen::Index>(b) * n, n);
  }
  stats.logit_grad_norm = std::sqrt(logit_sq);
}

// ws.dx holds ∂loss/∂(the block's output); leaves ∂loss/∂(the MLP's input) there.
template <typename T>
void Model<T>::mlp_backward(int l, Workspace<T>& ws) const {
  auto& L = ws.layers[static_cast<size_t>(l)];
  const LayerIndex& li = layer_index_[static_cast<size_t>(l)];
  matmul(grad(ws, li.W_2), Tr(L.act), N(ws.dx));
  grad(ws, li.b_2) = ws.dx.colwise().sum();
  matmul(ws.dact, N(ws.dx), Tr(param(li.W_2)));
  ws.dpre = ws.dact.cwiseProduct(L.pre.unaryExpr([](T x) { return gelu_derivative(x); }));
  matmul(grad(ws, li.W_1), Tr(L.u2), N(ws.dpre));
  grad(ws, li.b_1) = ws.dpre.colwise().sum();
  matmul(ws.du, N(ws.dpre), Tr(param(li.W_1)));
  if (s_.norm)
    rms_backward_add(ws.du, L.u2, L.r2, ws.dx);
  else
    ws.dx += ws.du;
}

// ws.dx holds ∂loss/∂(x_in + Z W_o); leaves ∂loss/∂x_in there.
template <typename T>
void Model<T>::attention_backward(int l, Workspace<T>& ws, double& logit_sq) const {
  auto& L = ws.layers[static_cast<size_t>(l)];
  const LayerIndex& li = layer_index_[static_cast<size_t>(l)];
  const int n = s_.seq_len, H = s_.heads, dk = s_.d_k, dv = s_.d_v;
  const T alpha = static_cast<T>(logit_factor());
  matmul(grad(ws, li.W_o), Tr(L.Z), N(ws.dx));
  matmul(ws.dZ, N(ws.dx), Tr(param(li.W_o)));
  for (int b = 0; b < ws.batch; ++b)
    for (int h = 0; h < H; ++h) {
      const Eigen::Index r0 = static_cast<Eigen::Index>(b) * n;
      const MatX<T>& A = L.A[static_cast<size_t>(b) * H + h];
      const auto dz = ws.dZ.block(r0, h * dv, n, dv);
      matmul(ws.dA, N(dz), Tr(L.V.block(r0, h * dv, n, dv)));
      matmul(ws.dV.block(r0, h * dv, n, dv), Tr(A), N(dz));
      // Softmax backward, row by row: ∂S = A ⊙ (∂A − ⟨A, ∂A⟩_row). Masked weights are exactly 0,
      // so the mask passes no gradient.
      for (int i = 0; i < n; ++i) {
        const T c = A.row(i).dot(ws.dA.row(i));
        ws.dS.row(i) = A.row(i).cwiseProduct((ws.dA.row(i).array() - c).matrix());
      }
      logit_sq += static_cast<double>(ws.dS.squaredNorm());
      ws.dS *= alpha;
      matmul(ws.dQ.block(r0, h * dk, n, dk), N(ws.dS), N(L.K.block(r0, h * dk, n, dk)));
      matmul(ws.dK.block(r0, h * dk, n, dk), Tr(ws.dS), N(L.Q.block(r0, h * dk, n, dk)));
    }
  matmul(grad(ws, li.W_q), Tr(L.u), N(ws.dQ));
  matmul(grad(ws, li.W_k), Tr(L.u), N(ws.dK));
  matmul(grad(ws, li.W_v), Tr(L.u), N(ws.dV));
  matmul(ws.du, N(ws.dQ), Tr(param(li.W_q)));
  matmul(ws.du, N(ws.dK), Tr(param(li.W_k)), true);
  matmul(ws.du, N(ws.dV), Tr(param(li.W_v)), true);
  if (s_.norm)
    rms_backward_add(ws.du, L.u, L.r, ws.dx);
  else
    ws.dx += ws.du;
}

template class Model<float>;
template class Model<double>;

}  // namespace attn::train
