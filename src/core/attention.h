// attention.h — validate a scenario and compute it into a Result (the one code path for UI, CLI, tests).
#pragma once

#include <string>

#include "scenario.h"

namespace attn {

// Returns an empty string when the scenario is computable, else one human-readable reason
// (shape mismatches, limits, missing score parameters, negative temperature, ...).
std::string validate(const Scenario& s);

// Validates, then computes. On error returns the reason and leaves `out` untouched.
std::string compute(const Scenario& s, Result& out);

// Per-row statistics of a probability row p (entries ≥ 0, sum 1 or all zero).
double row_entropy(const float* p, int m);
double row_jacobian_norm(const float* p, int m);  // ‖diag(p) − ppᵀ‖_F

// Sinusoidal encoding PE(p,2i)=sin(p/10000^(2i/d)), PE(p,2i+1)=cos(p/10000^(2i/d)).
Mat sinusoidal_encoding(int n, int d);

}  // namespace attn
