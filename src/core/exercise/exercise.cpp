// exercise.cpp — exercises built from their inputs with the core, the seeded generator, stage labels, answers.
#include "core/exercise/exercise.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>

#include "core/attention/attention.h"

namespace attn::exercise {

namespace {

struct StageInfo {
  Stage stage;
  const char* id;
  const char* title;
  const char* formula;
};

constexpr StageInfo kStageInfo[kStageCount] = {
    {Stage::Q, "Q", "Q = X·W_Q", "q_i = x_i·W_Q: row i of X times each column of W_Q"},
    {Stage::K, "K", "K = X·W_K", "k_j = x_j·W_K: row j of X times each column of W_K"},
    {Stage::V, "V", "V = X·W_V", "v_j = x_j·W_V: row j of X times each column of W_V"},
    {Stage::Scores, "scores", "QKᵀ", "S_ij = q_i·k_j: query i against key j"},
    {Stage::Scaled, "scaled", "QKᵀ / √d_k", "L_ij = S_ij ÷ √d_k"},
    {Stage::Weights, "weights", "Softmax rows (weights A)", "A_ij = exp(L_ij) ÷ Σ_j exp(L_ij), along each row"},
    {Stage::Output, "output", "Output Z = A·V", "z_i = Σ_j A_ij·v_j: the weighted sum of the value rows"},
};

std::string shape(const Mat& m) { return std::to_string(m.rows()) + "×" + std::to_string(m.cols()); }

std::string check_matrix(const char* name, const Mat& m) {
  if (m.size() == 0) return "";
  if (m.rows() > kMaxExerciseDim || m.cols() > kMaxExerciseDim)
    return std::string(name) + " is " + shape(m) + "; a hand exercise has at most " + std::to_string(kMaxExerciseDim) +
           " rows and columns";
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      if (!std::isfinite(m(i, j)) || std::fabs(m(i, j)) > kMaxExerciseValue)
        return std::string(name) + " row " + std::to_string(i + 1) + ", column " + std::to_string(j + 1) +
               ": numbers of a hand exercise are finite and at most " +
               std::to_string(static_cast<int>(kMaxExerciseValue)) + " in size";
  return "";
}

// The fewest decimals (at most 2) that write every entry exactly, and at least 1 so that an integer answer is
// not accepted from half a unit away. Stages that are never exact use kRoundedDecimals.
int exact_decimals(const Mat& m) {
  for (int d = 1; d < kRoundedDecimals; ++d) {
    const double scale = std::pow(10.0, d);
    bool exact = true;
    for (Eigen::Index i = 0; i < m.size() && exact; ++i) {
      const double v = m.data()[i] * scale;
      exact = std::fabs(v - std::round(v)) <= 1e-4 * std::max(1.0, std::fabs(v));
    }
    if (exact) return d;
  }
  return kRoundedDecimals;
}

std::vector<std::string> numbered(Eigen::Index n) {
  std::vector<std::string> out;
  for (Eigen::Index i = 0; i < n; ++i) out.push_back(std::to_string(i + 1));
  return out;
}

// Q, K, V: given directly, or X·W (the core's projection), or an error.
std::string qkv_from_spec(const ExerciseSpec& spec, Mat& Q, Mat& K, Mat& V, std::array<bool, kStageCount>& given) {
  const Mat* direct[3] = {&spec.Q, &spec.K, &spec.V};
  const Mat* weight[3] = {&spec.W_q, &spec.W_k, &spec.W_v};
  const char* names[3] = {"Q", "K", "V"};
  const char* wnames[3] = {"W_q", "W_k", "W_v"};
  Scenario p;
  if (spec.X.size()) p.X = spec.X;
  for (int k = 0; k < 3; ++k) {
    if (weight[k]->size() == 0) continue;
    if (spec.X.size() == 0) return std::string(wnames[k]) + " needs X";
    if (weight[k]->rows() != spec.X.cols())
      return std::string(wnames[k]) + " has " + std::to_string(weight[k]->rows()) + " rows but X has " +
             std::to_string(spec.X.cols()) + " columns";
    (k == 0 ? p.W_q : k == 1 ? p.W_k : p.W_v) = *weight[k];
  }
  Mat Xe, projected[3];
  if (p.X) project(p, Xe, projected[0], projected[1], projected[2]);
  Mat* outs[3] = {&Q, &K, &V};
  for (int k = 0; k < 3; ++k) {
    const bool has_xw = spec.X.size() && weight[k]->size();
    given[static_cast<size_t>(k)] = direct[k]->size() != 0;
    if (!given[static_cast<size_t>(k)] && !has_xw)
      return std::string("missing ") + names[k] + ": give " + names[k] + " directly, or X and " + wnames[k];
    if (given[static_cast<size_t>(k)] && has_xw && !projected[k].isApprox(*direct[k], 1e-6f))
      return std::string(names[k]) + " is given and differs from X·" + wnames[k];
    *outs[k] = given[static_cast<size_t>(k)] ? *direct[k] : projected[k];
  }
  if (Q.cols() != K.cols())
    return "Q has " + std::to_string(Q.cols()) + " columns but K has " + std::to_string(K.cols()) +
           " (both are d_k wide)";
  if (K.rows() != V.rows())
    return "K has " + std::to_string(K.rows()) + " rows but V has " + std::to_string(V.rows()) + " (one per key)";
  for (const Mat* m : {&Q, &K, &V}) {
    std::string e = check_matrix(m == &Q ? "Q" : m == &K ? "K" : "V", *m);
    if (!e.empty()) return e;
  }
  return "";
}

std::string check_tokens(const std::vector<std::string>& tokens, Eigen::Index n, const char* what) {
  if (!tokens.empty() && static_cast<Eigen::Index>(tokens.size()) != n)
    return std::string(what) + " has " + std::to_string(tokens.size()) + " labels for " + std::to_string(n) + " rows";
  for (const std::string& t : tokens)
    if (t.size() > 64) return std::string(what) + ": a label is longer than 64 bytes";
  return "";
}

}  // namespace

const char* stage_id(Stage s) { return kStageInfo[stage_index(s)].id; }
const char* stage_title(Stage s) { return kStageInfo[stage_index(s)].title; }
const char* stage_formula(Stage s) { return kStageInfo[stage_index(s)].formula; }

std::optional<Stage> stage_from_id(const std::string& id) {
  for (const StageInfo& s : kStageInfo)
    if (id == s.id) return s.stage;
  return std::nullopt;
}

std::string make_exercise(const ExerciseSpec& spec, Exercise& out) {
  const std::pair<const char*, const Mat*> inputs[] = {{"X", &spec.X},     {"W_q", &spec.W_q}, {"W_k", &spec.W_k},
                                                       {"W_v", &spec.W_v}, {"Q", &spec.Q},     {"K", &spec.K},
                                                       {"V", &spec.V}};
  for (const auto& [name, m] : inputs) {
    std::string e = check_matrix(name, *m);
    if (!e.empty()) return e;
  }
  Exercise ex;
  Mat Q, K, V;
  std::string err = qkv_from_spec(spec, Q, K, V, ex.given);
  if (!err.empty()) return err;
  err = check_tokens(spec.query_tokens, Q.rows(), "query_tokens");
  if (err.empty()) err = check_tokens(spec.key_tokens, K.rows(), "key_tokens");
  if (!err.empty()) return err;

  Scenario s;
  s.Q = Q;
  s.K = K;
  s.V = V;
  Result r;
  err = compute(s, r);
  if (!err.empty()) return err;
  if (!r.warnings.empty()) return r.warnings.front();

  ex.id = spec.id;
  ex.title = spec.title;
  ex.source = spec.source;
  ex.X = spec.X;
  // Every W given is kept, also for a given stage (qkv_from_spec checked that X·W agrees with it).
  ex.W_q = spec.W_q;
  ex.W_k = spec.W_k;
  ex.W_v = spec.W_v;
  ex.query_tokens = spec.query_tokens.empty() ? numbered(Q.rows()) : spec.query_tokens;
  ex.key_tokens = spec.key_tokens.empty() ? numbered(K.rows()) : spec.key_tokens;
  ex.d_k = r.d_k;
  const Mat* values[kStageCount] = {&r.main.Q,      &r.main.K,       &r.main.V,     &r.main.scores,
                                    &r.main.logits, &r.main.weights, &r.main.output};
  for (Stage st : kStages) {
    const size_t k = static_cast<size_t>(stage_index(st));
    ex.answer[k] = *values[k];
    const bool exact = st == Stage::Q || st == Stage::K || st == Stage::V || st == Stage::Scores;
    ex.decimals[k] = exact ? exact_decimals(ex.answer[k]) : kRoundedDecimals;
  }
  out = std::move(ex);
  return "";
}

// ---- generator ----------------------------------------------------------------------------------------------

namespace {

// Three-word sentences as row labels. Changing this list, the value sets or the draw order below changes
// every numbered exercise a teacher may have handed out: append, never edit.
constexpr const char* kSentences[][3] = {
    {"the", "cat", "sat"},     {"dogs", "chase", "cats"}, {"birds", "sing", "songs"}, {"we", "drink", "tea"},
    {"rain", "falls", "down"}, {"kids", "read", "books"}, {"fish", "swim", "fast"},   {"she", "writes", "code"},
};

// d_model: 4 up to exercise 999999, 3 from kFirstThreeWideExercise on (d_k = kHead = 2 in both).
constexpr int kRows = 3, kModel = 4, kThreeWideModel = 3, kHead = 2;
using IntMat = Eigen::Matrix<int, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct Draw {
  int sentence = 0;
  IntMat X, Wq2, Wk2, Wv;  // W_Q and W_K in units of 0.5
};

Draw draw(SplitMix64& rng, int model) {
  Draw d;
  d.sentence = rng.below(static_cast<int>(sizeof kSentences / sizeof kSentences[0]));
  d.X.resize(kRows, model);
  for (int i = 0; i < d.X.size(); ++i) d.X.data()[i] = rng.below(4) - 1;  // −1, 0, 1, 2
  for (IntMat* w : {&d.Wq2, &d.Wk2}) {
    w->resize(model, kHead);
    for (int i = 0; i < w->size(); ++i) w->data()[i] = rng.below(5) - 2;  // −1, −0.5, 0, 0.5, 1
  }
  d.Wv.resize(model, kHead);
  for (int i = 0; i < d.Wv.size(); ++i) d.Wv.data()[i] = rng.below(4) - 1;  // −1, 0, 1, 2
  return d;
}

// Whether a draw makes a good exercise, decided in exact integers (scores in units of 0.25) so no build's
// floating point can accept what another build rejects.
bool teaches_well(const Draw& d) {
  const IntMat Q2 = d.X * d.Wq2, K2 = d.X * d.Wk2, V = d.X * d.Wv;
  const IntMat S4 = Q2 * K2.transpose();
  if (Q2 == K2) return false;
  for (int i = 0; i < kRows; ++i) {
    if (Q2.row(i).isZero() || K2.row(i).isZero() || V.row(i).isZero()) return false;
    const int lo = S4.row(i).minCoeff(), hi = S4.row(i).maxCoeff();
    // Scores within ±4; a row spread of 1…3 keeps the weights neither near-uniform nor saturated.
    if (lo < -16 || hi > 16 || hi - lo < 4 || hi - lo > 12) return false;
    if (hi < 0) return false;  // a row of only negative scores is a needless extra hurdle by hand
    // Normalising without exp (a diagnosed mistake) divides by the row sum: keep it away from 0.
    if (std::abs(S4.row(i).sum()) < 2) return false;
  }
  if (V.cwiseAbs().maxCoeff() > 4 || (V.row(0) == V.row(1) && V.row(1) == V.row(2))) return false;
  // QKᵀ visibly not symmetric, so K·Qᵀ (a diagnosed mistake) differs from it.
  for (int i = 0; i < kRows; ++i)
    for (int j = i + 1; j < kRows; ++j)
      if (std::abs(S4(i, j) - S4(j, i)) >= 4) return true;
  return false;
}

}  // namespace

std::string generate_exercise(int number, Exercise& out) {
  if (number < kMinExerciseNumber || number > kMaxExerciseNumber)
    return "exercise number " + std::to_string(number) + " is outside " + std::to_string(kMinExerciseNumber) + "…" +
           std::to_string(kMaxExerciseNumber);
  SplitMix64 rng{0x6174746e706c6179ull ^ static_cast<uint64_t>(number)};
  const int model = number >= kFirstThreeWideExercise ? kThreeWideModel : kModel;
  // About 1 draw in 40 is kept (4 wide); the tests check every number up to 3000 and the first 3000 3-wide ones.
  constexpr int kMaxDraws = 100000;
  for (int attempt = 0; attempt < kMaxDraws; ++attempt) {
    const Draw d = draw(rng, model);
    if (!teaches_well(d)) continue;
    ExerciseSpec spec;
    spec.id = "exercise-" + std::to_string(number);
    spec.title = "Exercise " + std::to_string(number);
    spec.X = d.X.cast<float>();
    spec.W_q = d.Wq2.cast<float>() * 0.5f;
    spec.W_k = d.Wk2.cast<float>() * 0.5f;
    spec.W_v = d.Wv.cast<float>();
    for (const char* t : kSentences[d.sentence]) spec.query_tokens.push_back(t);
    spec.key_tokens = spec.query_tokens;
    Exercise ex;
    std::string err = make_exercise(spec, ex);
    if (!err.empty()) return "exercise " + std::to_string(number) + ": " + err;
    ex.origin = Origin::Generated;
    ex.number = number;
    out = std::move(ex);
    return "";
  }
  return "exercise " + std::to_string(number) + ": no suitable numbers found";
}

// ---- labels and answers -------------------------------------------------------------------------------------

std::vector<std::string> stage_row_labels(const Exercise& ex, Stage s) {
  return s == Stage::K || s == Stage::V ? ex.key_tokens : ex.query_tokens;
}

std::vector<std::string> stage_col_labels(const Exercise& ex, Stage s) {
  if (s == Stage::Scores || s == Stage::Scaled || s == Stage::Weights) return ex.key_tokens;
  return numbered(ex.ref(s).cols());
}

namespace {
size_t cell_index(const Answers& a, Stage s, int row, int col) {
  const size_t k = static_cast<size_t>(stage_index(s));
  if (row < 0 || col < 0 || row >= a.rows[k] || col >= a.cols[k])
    throw std::out_of_range(std::string("cell (") + std::to_string(row + 1) + ", " + std::to_string(col + 1) +
                            ") is outside stage " + stage_id(s));
  return static_cast<size_t>(row * a.cols[k] + col);
}
}  // namespace

const std::string& Answers::at(Stage s, int row, int col) const {
  return text[static_cast<size_t>(stage_index(s))][cell_index(*this, s, row, col)];
}

void Answers::set(Stage s, int row, int col, std::string typed) {
  text[static_cast<size_t>(stage_index(s))][cell_index(*this, s, row, col)] = std::move(typed);
}

void Answers::set(Stage s, int row, int col, double value) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", value);
  set(s, row, col, std::string(buf));
}

void Answers::fill(Stage s, const Mat& values, int decimals) {
  const size_t k = static_cast<size_t>(stage_index(s));
  if (values.rows() != rows[k] || values.cols() != cols[k])
    throw std::invalid_argument(std::string("fill: stage ") + stage_id(s) + " is " + std::to_string(rows[k]) + "×" +
                                std::to_string(cols[k]) + ", the values are " + shape(values));
  for (int i = 0; i < rows[k]; ++i)
    for (int j = 0; j < cols[k]; ++j) {
      if (decimals < 0) {
        set(s, i, j, static_cast<double>(values(i, j)));
        continue;
      }
      char buf[48];
      std::snprintf(buf, sizeof buf, "%.*f", decimals, static_cast<double>(values(i, j)));
      set(s, i, j, std::string(buf));
    }
}

void Answers::clear(Stage s) {
  for (std::string& t : text[static_cast<size_t>(stage_index(s))]) t.clear();
}

Answers blank_answers(const Exercise& ex) {
  Answers a;
  for (Stage s : kStages) {
    if (ex.is_given(s)) continue;
    const size_t k = static_cast<size_t>(stage_index(s));
    a.rows[k] = ex.rows(s);
    a.cols[k] = ex.cols(s);
    a.text[k].assign(static_cast<size_t>(a.rows[k] * a.cols[k]), std::string());
  }
  return a;
}

}  // namespace attn::exercise
