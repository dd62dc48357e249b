// train_optim.cpp — the Adam and SGD updates (Kingma & Ba's bias-corrected Adam) and global-norm clipping.
#include "core/train/train_optim.h"

#include <Eigen/Core>
#include <cmath>

namespace attn::train {

template <typename T>
double global_norm(const std::vector<T>& g) {
  double sum = 0;
  for (const T x : g) sum += static_cast<double>(x) * static_cast<double>(x);
  return std::sqrt(sum);
}

template <typename T>
void Optimizer<T>::reset(const OptimSettings& s, size_t count) {
  s_ = s;
  t_ = 0;
  beta1_power_ = beta2_power_ = 1;
  if (s.kind == OptimizerKind::Adam) {
    m_.assign(count, T(0));
    v_.assign(count, T(0));
  } else {
    m_.clear();
    v_.clear();
  }
}

template <typename T>
std::string Optimizer<T>::restore(State s, size_t count) {
  const size_t moments = s_.kind == OptimizerKind::Adam ? count : 0;
  if (s.m.size() != moments || s.v.size() != moments)
    return "the optimiser state holds " + std::to_string(s.m.size()) + " moments, these settings need " +
           std::to_string(moments);
  if (s.t < 0 || !std::isfinite(s.beta1_power) || !std::isfinite(s.beta2_power))
    return "the optimiser state's step count or β powers are invalid";
  t_ = s.t;
  beta1_power_ = s.beta1_power;
  beta2_power_ = s.beta2_power;
  m_ = std::move(s.m);
  v_ = std::move(s.v);
  return "";
}

template <typename T>
void Optimizer<T>::step(std::vector<T>& params, const std::vector<T>& grads, double grad_norm) {
  using Arr = Eigen::Array<T, Eigen::Dynamic, 1>;
  const Eigen::Index count = static_cast<Eigen::Index>(params.size());
  Eigen::Map<Arr> p(params.data(), count);
  const Eigen::Map<const Arr> g(grads.data(), count);
  const T clip_factor = s_.clip > 0 && grad_norm > s_.clip ? static_cast<T>(s_.clip / grad_norm) : static_cast<T>(1);
  ++t_;
  if (s_.kind == OptimizerKind::Sgd) {
    p -= static_cast<T>(s_.learning_rate) * clip_factor * g;
    return;
  }
  beta1_power_ *= s_.beta1;
  beta2_power_ *= s_.beta2;
  const T b1 = static_cast<T>(s_.beta1), b2 = static_cast<T>(s_.beta2);
  Eigen::Map<Arr> m(m_.data(), count), v(v_.data(), count);
  m = b1 * m + (T(1) - b1) * clip_factor * g;
  v = b2 * v + (T(1) - b2) * (clip_factor * g).square();
  // The bias corrections folded into one step size and a rescaled epsilon (same update as
  // m̂ / (√v̂ + ε), one pass over the parameters).
  const double c1 = 1 - beta1_power_, c2 = 1 - beta2_power_;
  const T step_size = static_cast<T>(s_.learning_rate * std::sqrt(c2) / c1);
  const T eps = static_cast<T>(s_.epsilon * std::sqrt(c2));
  p -= step_size * m / (v.sqrt() + eps);
}

template class Optimizer<float>;
template class Optimizer<double>;
template double global_norm(const std::vector<float>&);
template double global_norm(const std::vector<double>&);

}  // namespace attn::train
