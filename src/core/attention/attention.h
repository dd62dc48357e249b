// attention.h — validate a scenario and compute it into a Result (the one code path for UI, CLI, tests).
#pragma once

#include <string>
#include <vector>

#include "core/attention/scenario.h"

namespace attn {

// Returns an empty string when the scenario is computable, else one human-readable reason
// (shape mismatches, limits, missing score parameters, negative temperature, ...).
std::string validate(const Scenario& s);

// Validates, then computes. On error returns the reason and leaves `out` untouched.
std::string compute(const Scenario& s, Result& out);

// The inputs of the scores: X after positional encoding (empty when Q, K, V are given) and the
// projected Q, K (from memory when cross-attending) and V. Assumes a validated scenario.
void project(const Scenario& s, Mat& X_effective, Mat& Q, Mat& K, Mat& V);
// Blocked cells (1) of the n×m scores: causal mask, key padding and painted cells combined.
MaskMat attention_mask(const Scenario& s, int n, int m);
// Rows [first, first + rows) of it, without building the others (one query row of a long sequence).
MaskMat attention_mask_rows(const Scenario& s, int first, int rows, int m);
// A scenario over given (already projected) K and V with s's score function, heads, W_o, scale and
// temperature, and no mask of its own: rows of a larger one are computed by setting Q and
// mask_cells (a block of rows of attention_mask) on it.
Scenario keys_scenario(const Scenario& s, Mat K, Mat V);

// The rest of compute() for one head once its raw scores are known: from hr.scores (n×m), the n×m
// mask and hr.V (m rows, any width), the logits (÷√d_k when s.scale and the score is not additive,
// then ÷ temperature, masked = −∞), weights, output and per-row statistics, exactly as compute()
// makes them. s supplies only scale, temperature and the score kind.
void softmax_head(const Scenario& s, const MaskMat& blocked, int d_k, HeadResult& hr);

// The warnings compute() gives for one head's out-of-range numbers, and for infinite outputs.
void append_head_warnings(const HeadResult& hr, int head, int heads, double temperature,
                          std::vector<std::string>& warnings);
void append_output_warning(Result& r);

// Per-row statistics of a probability row p (entries ≥ 0, sum 1 or all zero).
double row_entropy(const float* p, int m);
double row_jacobian_norm(const float* p, int m);  // ‖diag(p) − ppᵀ‖_F

// Spread (population standard deviation) of row i of m (hr's scores or logits) over the keys the row
// may see: masked and non-finite entries are left out; 0 when none is left.
double row_spread(const Mat& m, const HeadResult& hr, int i);

// Sinusoidal encoding PE(p,2i)=sin(p/10000^(2i/d)), PE(p,2i+1)=cos(p/10000^(2i/d)).
Mat sinusoidal_encoding(int n, int d);

}  // namespace attn
