// cross.cpp — builds the encoder–decoder example and computes it with each score function.
#include "app/state/cross.h"

#include <Eigen/Dense>
#include <cmath>

#include "app/state/state.h"
#include "core/attention/attention.h"

namespace attn {

// Rows 1 and 3 are the note's: t = 2 ("am") scores 0.3, 2.1, 0.5; t = 4 ("student") ≈ 0.85 on
// "étudiant" (softmax of [−0.3, 0.1, 2.4] gives 0.8566). Rows 0 and 2 are ours, for the other words.
const float kCrossNoteScores[4][3] = {{2.0f, 0.4f, 0.2f}, {0.3f, 2.1f, 0.5f}, {0.2f, 0.6f, 1.2f}, {-0.3f, 0.1f, 2.4f}};

const char* cross_scoring_id(int k) {
  static const char* ids[kCrossScorings] = {"additive", "general", "dot"};
  return k >= 0 && k < kCrossScorings ? ids[k] : "";
}

namespace {

constexpr int kNoteWidth = 3, kSeededWidth = 4;

// Additive score of decoder state s against each one-hot encoder state h_j, with W_a = −I,
// U_a = u·I, v_a = v·1: e_j = v Σ_a tanh(−s_a + u δ_aj).
Eigen::Vector3d note_additive(const Eigen::Vector3d& s, double u, double v) {
  Eigen::Vector3d e;
  for (int j = 0; j < 3; ++j) {
    double sum = 0;
    for (int a = 0; a < 3; ++a) sum += std::tanh(-s(a) + (a == j ? u : 0.0));
    e(j) = v * sum;
  }
  return e;
}

// Newton's method (with step halving) for the decoder state whose additive scores equal `target`.
// Converges in a handful of steps from 0 for the rows above (checked by the unit tests).
Eigen::Vector3d solve_decoder_state(const Eigen::Vector3d& target, double u, double v) {
  Eigen::Vector3d s = Eigen::Vector3d::Zero();
  for (int it = 0; it < 60; ++it) {
    const Eigen::Vector3d f = note_additive(s, u, v) - target;
    if (f.norm() < 1e-13) break;
    Eigen::Matrix3d J;
    for (int j = 0; j < 3; ++j)
      for (int a = 0; a < 3; ++a) {
        const double t = std::tanh(-s(a) + (a == j ? u : 0.0));
        J(j, a) = -v * (1 - t * t);
      }
    const Eigen::Vector3d ds = J.fullPivLu().solve(-f);
    double step = 1;
    while (step > 1e-6 && (note_additive(s + step * ds, u, v) - target).norm() >= f.norm()) step /= 2;
    s += step * ds;
  }
  return s;
}

}  // namespace

CrossResult compute_cross(const CrossState& c, uint64_t seed) {
  CrossResult out;
  out.source = {"Je", "suis", "étudiant"};
  out.target = {"I", "am", "a", "student"};
  Scenario base;
  base.tokens = out.target;
  base.memory_tokens = out.source;
  Scenario additive, general, dot;
  if (c.states == CrossStates::NoteExample) {
    const double u = 3, v = 4;
    out.encoder = Mat::Identity(3, kNoteWidth);
    out.decoder.resize(4, kNoteWidth);
    for (int t = 0; t < 4; ++t) {
      const Eigen::Vector3d target(kCrossNoteScores[t][0], kCrossNoteScores[t][1], kCrossNoteScores[t][2]);
      out.decoder.row(t) = solve_decoder_state(target, u, v).cast<float>().transpose();
    }
    additive.W_a = -Mat::Identity(kNoteWidth, kNoteWidth);
    additive.U_a = static_cast<float>(u) * Mat::Identity(kNoteWidth, kNoteWidth);
    additive.v_a = Vec::Constant(kNoteWidth, static_cast<float>(v));
    // Luong's W_a: mostly a stretch of the shared axes, with a little mixing between them.
    Mat Wg(kNoteWidth, kNoteWidth);
    Wg << 4.0f, 0.5f, 0.0f, 0.0f, 4.0f, 0.5f, 0.5f, 0.0f, 4.0f;
    general.W_a = Wg;
  } else {
    out.encoder.resize(3, kSeededWidth);
    out.decoder.resize(4, kSeededWidth);
    for (int i = 0; i < 3; ++i)
      out.encoder.row(i) =
          random_embedding(seed, "enc:" + out.source[static_cast<size_t>(i)], i, kSeededWidth).transpose();
    for (int i = 0; i < 4; ++i)
      out.decoder.row(i) =
          random_embedding(seed, "dec:" + out.target[static_cast<size_t>(i)], i, kSeededWidth).transpose();
    additive.W_a = random_projection(seed, 'a', kSeededWidth, kSeededWidth);
    additive.U_a = random_projection(seed, 'u', kSeededWidth, kSeededWidth);
    Vec va(kSeededWidth);
    const Mat vcol = random_projection(seed, 'w', kSeededWidth, 1);
    for (int a = 0; a < kSeededWidth; ++a) va(a) = vcol(a, 0) * 2.0f;
    additive.v_a = va;
    general.W_a = random_projection(seed, 'g', kSeededWidth, kSeededWidth);
  }
  base.Q = out.decoder;
  base.K = out.encoder;
  base.V = out.encoder;
  Scenario* all[kCrossScorings] = {&additive, &general, &dot};
  const ScoreKind kinds[kCrossScorings] = {ScoreKind::Additive, ScoreKind::General, ScoreKind::Dot};
  for (int k = 0; k < kCrossScorings; ++k) {
    Scenario sc = base;
    sc.score = kinds[k];
    sc.W_a = all[k]->W_a;
    sc.U_a = all[k]->U_a;
    sc.v_a = all[k]->v_a;
    sc.scale = kinds[k] == ScoreKind::Dot;  // Bahdanau and Luong score unscaled
    out.error[static_cast<size_t>(k)] = compute(sc, out.scored[static_cast<size_t>(k)]);
  }
  return out;
}

}  // namespace attn
