// exercise_notes.cpp — the teaching notes' three worked examples as exercises, with remarks where a note slipped.
// Inputs as tests/unit/test_seed_examples.cpp reads them from the notes (which print matrices column by column).
#include <cmath>
#include <limits>

#include "core/exercise/exercise.h"

namespace attn::exercise {

namespace {

constexpr float kNone = std::numeric_limits<float>::quiet_NaN();

// A stage-shaped matrix of what the note printed: NaN everywhere but the listed cells.
Mat printed(int rows, int cols, std::initializer_list<std::pair<Cell, float>> cells) {
  Mat m = Mat::Constant(rows, cols, kNone);
  for (const auto& [c, v] : cells) m(c.row, c.col) = v;
  return m;
}

Remark remark(const std::string& exercise_id, const char* name, Stage stage, RemarkKind kind, const char* text,
              Mat numbers = Mat(), std::vector<DiagnosisKind> related = {}) {
  return Remark{exercise_id + "/" + name, stage, kind, text, std::move(numbers), std::move(related)};
}

// Scaled dot-product attention (Hinglish notes), worked example 1: one query, two keys, Q, K, V given.
std::string scaled_dot_product(Exercise& out) {
  ExerciseSpec spec;
  spec.id = "note-scaled-dot-product";
  spec.title = "One query, two keys";
  spec.source = "Scaled dot-product attention (Hinglish notes), worked example 1";
  spec.Q = (Mat(1, 4) << 1, 0, 1, 0).finished();
  spec.K = (Mat(2, 4) << 1, 0, 1, 0, 0, 1, 0, 1).finished();
  spec.V = (Mat(2, 3) << 5, 0, 0, 0, 3, 0).finished();
  spec.query_tokens = {"q"};
  spec.key_tokens = {"key 1", "key 2"};
  std::string err = make_exercise(spec, out);
  if (!err.empty()) return err;
  out.remarks.push_back(remark(spec.id, "sqrt-missing", Stage::Scaled, RemarkKind::Slip,
                               "The note calls this step “d_k = 2 se scale karo” and writes the formula as QKᵀ/d_k: "
                               "the square-root sign is lost. The divisor is √d_k = √4 = 2, so [2, 0] becomes "
                               "[1, 0] as the note's numbers say; dividing by d_k = 4 would give [0.5, 0].",
                               Mat(), {DiagnosisKind::DividedByDk}));
  out.remarks.push_back(remark(spec.id, "printed-right", Stage::Output, RemarkKind::Info,
                               "The note's weights [0.731, 0.269] and output [3.655, 0.807, 0] are right."));
  return "";
}

// Self-attention mechanism in detail (Hinglish notes), worked example 1: "cat sat mat", d_k = 2. Its V does not
// follow from its X·W^V, so V is given as the note prints and uses it.
std::string cat_sat_mat(Exercise& out) {
  ExerciseSpec spec;
  spec.id = "note-cat-sat-mat";
  spec.title = "cat sat mat";
  spec.source = "Self-attention mechanism in detail (Hinglish notes), worked example 1";
  spec.X = (Mat(3, 4) << 1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0, 0).finished();
  spec.W_q = (Mat(4, 2) << 1, 0, 0, 1, 0, 0, 0, 0).finished();
  spec.W_k = spec.W_q;
  spec.V = (Mat(3, 2) << 2, 0, 0, 2, 2, 1).finished();
  spec.query_tokens = spec.key_tokens = {"cat", "sat", "mat"};
  std::string err = make_exercise(spec, out);
  if (!err.empty()) return err;
  const std::string& id = spec.id;
  out.remarks.push_back(remark(id, "v-not-xwv", Stage::V, RemarkKind::Slip,
                               "The note's W^V = [[1, 0], [1, 0], [0, 1], [0, 1]] gives X·W^V = [[1, 1], [1, 1], "
                               "[2, 0]], not the V = [[2, 0], [0, 2], [2, 1]] it prints and then uses. This "
                               "exercise gives the note's V, so every later step can be compared with the note."));
  out.remarks.push_back(remark(id, "scaled-print", Stage::Scaled, RemarkKind::Slip,
                               "The note writes “d_k = 2 ≈ 1.41” for √d_k = √2 ≈ 1.41 (the square root is lost) "
                               "and prints only eight of the nine scaled scores. The full matrix is "
                               "[[0.71, 0, 0.71], [0, 0.71, 0.71], [0.71, 0.71, 1.41]].",
                               Mat(), {DiagnosisKind::DividedByDk}));
  out.remarks.push_back(remark(id, "weights-cat", Stage::Weights, RemarkKind::Slip,
                               "The note turns the “cat” row [0.71, 0, 0.71] into [0.5, 0.18, 0.5], which sums to "
                               "1.18, not 1 (its own matrix a line later has [0.40, 0.20, 0.40]). Softmax gives "
                               "[0.4011, 0.1978, 0.4011].",
                               printed(3, 3, {{{0, 0}, 0.5f}, {{0, 1}, 0.18f}, {{0, 2}, 0.5f}})));
  out.remarks.push_back(remark(id, "weights-mat", Stage::Weights, RemarkKind::Slip,
                               "The note's matrix has [0.23, 0.23, 0.54] for “mat”; softmax of [0.71, 0.71, 1.41] "
                               "is [0.2483, 0.2483, 0.5035].",
                               printed(3, 3, {{{2, 0}, 0.23f}, {{2, 1}, 0.23f}, {{2, 2}, 0.54f}})));
  out.remarks.push_back(remark(id, "output-mat", Stage::Output, RemarkKind::Slip,
                               "With the note's “mat” weights [0.23, 0.23, 0.54] the output row would be "
                               "[1.54, 1.00]; the correct weights give [1.50, 1.00]. (The note's “cat” row "
                               "[1.6, 0.8] is right to one decimal: [1.6044, 0.7967].)",
                               printed(3, 2, {{{2, 0}, 1.54f}})));
  return "";
}

// "Understanding the Self-Attention Mechanism" (article): "The cat sat on the mat", identity W, raw scores.
// The article stops at the raw scores; the exercise continues to the output.
std::string the_cat_sat_on_the_mat(Exercise& out) {
  ExerciseSpec spec;
  spec.id = "note-the-cat-sat-on-the-mat";
  spec.title = "The cat sat on the mat";
  spec.source = "Understanding the Self-Attention Mechanism (article), raw scores of “The cat sat on the mat”";
  spec.X = (Mat(6, 4) << 0.1f, 0.2f, 0.3f, 0.4f, 0.2f, 0.1f, 0.4f, 0.3f, 0.4f, 0.3f, 0.2f, 0.1f, 0.3f, 0.4f, 0.1f, 0.2f,
            0.1f, 0.2f, 0.3f, 0.4f, 0.2f, 0.3f, 0.4f, 0.1f)
               .finished();
  spec.W_q = spec.W_k = spec.W_v = Mat::Identity(4, 4);
  spec.Q = spec.K = spec.V = spec.X;  // identity projections: given, the article shows Q = K = V = X
  spec.query_tokens = spec.key_tokens = {"The", "cat", "sat", "on", "the", "mat"};
  std::string err = make_exercise(spec, out);
  if (!err.empty()) return err;
  const std::string& id = spec.id;
  out.remarks.push_back(remark(id, "identity", Stage::Q, RemarkKind::Info,
                               "The article's W_Q, W_K and W_V are identity matrices, so Q = K = V = X."));
  out.remarks.push_back(
      remark(id, "raw-scores", Stage::Scores, RemarkKind::Slip,
             "The article prints cat·The 0.29, cat·sat 0.23, cat·on 0.21, sat·cat 0.23, sat·on 0.29, on·cat 0.21 and "
             "on·sat 0.29: each 0.01 too high. Its own products add up to 0.28, 0.22, 0.20, 0.22, 0.28, 0.20 and 0.28.",
             printed(6, 6,
                     {{{1, 0}, 0.29f},
                      {{1, 2}, 0.23f},
                      {{1, 3}, 0.21f},
                      {{2, 1}, 0.23f},
                      {{2, 3}, 0.29f},
                      {{3, 1}, 0.21f},
                      {{3, 2}, 0.29f}})));
  out.remarks.push_back(remark(id, "continued", Stage::Scaled, RemarkKind::Info,
                               "The article stops at the raw scores; from here on (÷√4 = 2, softmax, output) the "
                               "exercise continues the computation."));
  out.remarks.push_back(remark(id, "low-score", Stage::Weights, RemarkKind::Slip,
                               "The article's “low score” passage (The→cat 0.05, The→sat 0.02, The→mat 0.01) is "
                               "made up, and contradicts its “high score” passage (The→cat 0.90). With these "
                               "embeddings the weights of “The” are nearly uniform: [0.17, 0.17, 0.16, 0.16, "
                               "0.17, 0.17].",
                               printed(6, 6, {{{0, 1}, 0.05f}, {{0, 2}, 0.02f}, {{0, 5}, 0.01f}})));
  out.remarks.push_back(remark(id, "high-score", Stage::Weights, RemarkKind::Slip,
                               "The article's “high score” passage (The→cat 0.90) is made up; with these "
                               "embeddings The→cat is 0.1686.",
                               printed(6, 6, {{{0, 1}, 0.90f}})));
  out.remarks.push_back(remark(id, "softmax-identity", Stage::Weights, RemarkKind::Slip,
                               "The article says softmax turns [0.3, 0.2, 0.5] into [0.3, 0.2, 0.5]. That is "
                               "dividing by the sum without taking exp first; softmax gives [0.3199, 0.2894, "
                               "0.3907].",
                               Mat(), {DiagnosisKind::ForgotExp}));
  return "";
}

}  // namespace

std::vector<std::string> note_exercise_ids() {
  return {"note-scaled-dot-product", "note-cat-sat-mat", "note-the-cat-sat-on-the-mat"};
}

std::string note_exercise(const std::string& id, Exercise& out) {
  Exercise ex;
  std::string err = id == "note-scaled-dot-product" ? scaled_dot_product(ex)
                    : id == "note-cat-sat-mat"      ? cat_sat_mat(ex)
                    : id == "note-the-cat-sat-on-the-mat"
                        ? the_cat_sat_on_the_mat(ex)
                        : "unknown note exercise \"" + id +
                              "\" (known: note-scaled-dot-product, note-cat-sat-mat, note-the-cat-sat-on-the-mat)";
  if (!err.empty()) return err;
  ex.origin = Origin::Note;
  out = std::move(ex);
  return "";
}

}  // namespace attn::exercise
