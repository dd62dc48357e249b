// train_optim.h — Adam and plain SGD over a flat parameter vector, with global-norm gradient clipping.
#pragma once

#include <string>
#include <vector>

#include "core/train/train_settings.h"

namespace attn::train {

// √(Σ g²) over every parameter, accumulated in double (order fixed, so the same on every run).
template <typename T>
double global_norm(const std::vector<T>& g);

template <typename T>
class Optimizer {
 public:
  // Forgets the moments and the step count: the state of step 0 for `count` parameters.
  void reset(const OptimSettings& s, size_t count);
  // One update of params from grads. When clipping is on and `grad_norm` (global_norm(grads)) is
  // above the clip, the gradient is scaled down to that norm first (grads is left as it was).
  void step(std::vector<T>& params, const std::vector<T>& grads, double grad_norm);
  long steps() const { return t_; }
  const OptimSettings& settings() const { return s_; }

  // Moments and step count: what a saved run needs to continue with the same updates.
  struct State {
    long t = 0;
    double beta1_power = 1, beta2_power = 1;
    std::vector<T> m, v;  // empty for SGD
  };
  State save() const { return {t_, beta1_power_, beta2_power_, m_, v_}; }
  // Takes `s` for `count` parameters under the current settings; "" or why it does not fit (then nothing changes).
  std::string restore(State s, size_t count);

 private:
  OptimSettings s_;
  std::vector<T> m_, v_;
  long t_ = 0;
  double beta1_power_ = 1, beta2_power_ = 1;  // β^t as running products: no pow(), same bits everywhere
};

extern template class Optimizer<float>;
extern template class Optimizer<double>;
extern template double global_norm(const std::vector<float>&);
extern template double global_norm(const std::vector<double>&);

}  // namespace attn::train
