// presets.cpp — each worked example of the seed notes, with its correct numbers and the notes' slips.
#include "app/presets.h"

#include <cmath>

namespace attn {

namespace {
Mat rows(std::initializer_list<std::initializer_list<float>> r) {
  const int n = static_cast<int>(r.size());
  const int d = n ? static_cast<int>(r.begin()->size()) : 0;
  Mat m(n, d);
  int i = 0;
  for (const auto& row : r) {
    int j = 0;
    for (float v : row) m(i, j++) = v;
    ++i;
  }
  return m;
}

void keep_display(State& s, const State& old) {
  s.dark_theme = old.dark_theme;
  s.text_scale = old.text_scale;
  s.heatmap_row_scale = old.heatmap_row_scale;
  s.panels = old.panels;
  s.lang = old.lang;          // the learner's language,
  s.lesson = old.lesson;      // the lesson being followed (a step may apply a preset)
  s.exercise = old.exercise;  // and the worksheet are not part of an example
}
}  // namespace

const std::vector<Preset>& presets() {
  static const std::vector<Preset> list = {
      {"default", "Random embeddings: \"The cat sat on the mat\"", "Playground default",
       "Seeded embeddings and projections; q and k entries have unit variance, so drag d_k and watch "
       "the unscaled logits grow like √d_k while the scaled ones stay put.",
       ""},
      {"sdpa-example-1", "Scaled dot-product, example 1 (one query, two keys)", "Note: Scaled dot-product attention",
       "Q = [1,0,1,0], keys [1,0,1,0] and [0,1,0,1], d_k = 4, so √d_k = 2. Scores [2, 0] → scaled [1, 0] → "
       "softmax [0.7311, 0.2689] → output 0.7311·[5,0,0] + 0.2689·[0,3,0] = [3.6553, 0.8068, 0].",
       "The note writes the scale as \"d_k = 2\": it means √d_k = 2 (d_k = 4). Its numbers (0.731, 0.269, "
       "[3.655, 0.807, 0]) are right."},
      {"cat-sat-mat", "\"The cat sat on the mat\" with identity projections", "Article: self-attention, worked example",
       "Embeddings are used directly as Q, K and V (W = I), d_k = 4. Raw scores are plain dot products: e.g. "
       "The·cat = 0.1·0.2 + 0.2·0.1 + 0.3·0.4 + 0.4·0.3 = 0.28.",
       "The article prints 7 of the raw scores 0.01 too high: cat·The 0.29 (correct 0.28), cat·sat 0.23 (0.22), "
       "cat·on 0.21 (0.20), sat·cat 0.23 (0.22), sat·on 0.29 (0.28), on·cat 0.21 (0.20), on·sat 0.29 (0.28). "
       "Rows for The, the and mat are right. Its later \"low score\" (The→cat 0.05, The→sat 0.02, The→mat 0.01) and "
       "\"high score\" (The→cat 0.90) passages are made-up numbers that contradict each other: with its own "
       "embeddings the weights of The (÷√4) are nearly uniform, [0.170, 0.169, 0.162, 0.164, 0.170, 0.165]."},
      {"self-attn-example-1", "Self-attention example 1: \"cat sat mat\" (d_k = 2)", "Note: Self-attention in detail",
       "Q = K = [[1,0],[0,1],[1,1]], V = [[2,0],[0,2],[2,1]]. QKᵀ = [[1,0,1],[0,1,1],[1,1,2]], ÷√2 → "
       "softmax row 0 = [0.4011, 0.1978, 0.4011], row 2 = [0.2483, 0.2483, 0.5035]; output row 0 = [1.6044, 0.7967].",
       "The note prints softmax row 0 as [0.5, 0.18, 0.5] (it sums to 1.18; correct [0.401, 0.198, 0.401]) and row 2 "
       "as [0.23, 0.23, 0.54] (correct [0.248, 0.248, 0.503]). Its output row 0 [1.6, 0.8] is the rounded-weights "
       "value "
       "(exact [1.604, 0.797]). Its V does not follow from its own X and W^V: X·W^V = [[1,1],[1,1],[2,0]]."},
      {"self-attn-from-x", "Self-attention example 1 from X: \"cat sat mat\" by hand", "Note: Self-attention in detail",
       "The note's own X (3×4) and W^Q = W^K, W^V (4×2), computed step by step: Q = K = [[1,0],[0,1],[1,1]], "
       "V = X·W^V = [[1,1],[1,1],[2,0]], QKᵀ = [[1,0,1],[0,1,1],[1,1,2]], ÷√2, softmax row 0 = [0.4011, 0.1978, "
       "0.4011], output row 0 = [1.4011, 0.5989].",
       "The note prints V = [[2,0],[0,2],[2,1]], which does not follow from its X and W^V (X·W^V = "
       "[[1,1],[1,1],[2,0]]), so its outputs ([1.6, 0.8] for row 0) belong to a different V. Its softmax rows "
       "[0.5, 0.18, 0.5] and [0.23, 0.23, 0.54] are wrong too (correct [0.401, 0.198, 0.401], [0.248, 0.248, 0.503])."},
      {"dot-product-2d", "Dot product as similarity: 2-D embeddings, W_Q = W_K = W_V = I",
       "Note: Scaled dot-product attention (step 1)",
       "Each word is a point (x, y) and there are no projections, so the plane is the whole space: a score is the "
       "dot product of two points, q·k = x₁x₂ + y₁y₂ (÷√2). cat (2, 0) and dog (0, 2.5) are at right angles: "
       "score 0, weight 0.045. Drag cat towards dog and its weight on dog rises.",
       ""},
      {"distant-dependency", "Distant dependency: \"The cat which was very fluffy sat on the mat\"",
       "Note: Self-attention (worked example 2)",
       "Features per word: [noun, subject, descriptor, verb]. W_Q turns a verb into a query for \"noun + subject\" "
       "(3·[1, 1]); W_K lets each word advertise its noun and subject features. Row \"sat\": cat 4.243 ÷ √2 → "
       "weight 0.8015, mat 0.0961, fluffy 0.0115: the subject five words back wins, the adjective next door "
       "gets the baseline. Distance plays no part, only the match of query and key.",
       "The note gives no numbers for this example. It says \"cat\" is 7 words from \"sat\": that counts the two "
       "commas; in words \"sat\" comes 5 after \"cat\"."},
      {"bahdanau", "Bahdanau (additive) attention: \"Je suis étudiant\" → \"am\"",
       "Note: The attention mechanism intuition",
       "Additive scores e = v_aᵀ tanh(W s₁ + U hᵢ) are built to equal the note's [0.3, 2.1, 0.5]; softmax gives "
       "[0.1209, 0.7314, 0.1477] (denominator 11.165): 73% on \"suis\" when generating \"am\". V = I, so the "
       "context vector shows the weights.",
       "The note's numbers (1.350 + 8.166 + 1.649 = 11.165; 0.12, 0.73, 0.15) are right."},
      {"softmax-article", "Softmax of [0.3, 0.2, 0.5]", "Article: self-attention, robot analogy",
       "One query whose scores against three keys are 0.3, 0.2 and 0.5 (scaling off): softmax gives "
       "[0.3199, 0.2894, 0.3907].",
       "The article says softmax turns [0.3, 0.2, 0.5] into [0.3, 0.2, 0.5] \"as percentages\"; it does not — "
       "softmax exponentiates first, giving [0.320, 0.289, 0.391]."},
      {"saturation", "Saturation demo: d_k = 512 without scaling", "Notes: why divide by √d_k",
       "Unscaled logits have standard deviation ≈ √512 ≈ 22.6, so each softmax row is nearly one-hot, its "
       "entropy near 0 and its Jacobian (the gradient path) near 0. Turn scaling on to rescue it.",
       "The notes write the scale as d_k and the standard deviation as \"d_k\"; both mean √d_k (the square root "
       "was lost in typesetting)."},
      {"dog-bites-man", "\"dog bites man\" vs \"man bites dog\" (positional encoding)", "Notes: positional encoding",
       "Random embeddings, positional encoding off. Open View → Positional encoding: reversing the sentence gives "
       "the same output rows in reverse order (max difference 0 up to rounding), so attention alone cannot tell who "
       "bit whom. Turn positional encoding on and the rows change.",
       ""},
  };
  return list;
}

const Preset* find_preset(const std::string& id) {
  for (const Preset& p : presets())
    if (p.id == id) return &p;
  return nullptr;
}

bool apply_preset(State& s, const std::string& id) {
  if (!find_preset(id)) return false;
  const State old = s;
  static const State defaults;
  s = defaults;
  keep_display(s, old);
  s.preset = id;
  Scenario& e = s.explicit_scenario;
  if (id == "dot-product-2d") {
    s.mode = InputMode::Random;
    s.sentence = "cat dog sat mat";
    s.d_model = s.d_k = s.d_v = 2;
    s.projections = Projections::Identity;
    s.embeddings = rows({{2, 0}, {0, 2.5f}, {-1.5f, -1}, {1, -1.5f}});
    return true;
  }
  if (id == "default" || id == "saturation" || id == "dog-bites-man") {
    s.mode = InputMode::Random;
    if (id == "dog-bites-man") {
      s.sentence = "dog bites man";
      s.positional_encoding = PositionalEncoding::None;
    }
    if (id == "saturation") {
      s.d_k = 512;
      s.scale = false;
      s.sentence = "The cat sat on the mat because it was tired";
    }
    sync_embeddings(s, {});
    return true;
  }
  s.mode = InputMode::Explicit;
  if (id == "sdpa-example-1") {
    e.Q = rows({{1, 0, 1, 0}});
    e.K = rows({{1, 0, 1, 0}, {0, 1, 0, 1}});
    e.V = rows({{5, 0, 0}, {0, 3, 0}});
    e.tokens = {"q"};
    e.memory_tokens = {"key 1", "key 2"};
  } else if (id == "cat-sat-mat") {
    e.X = rows({{0.1f, 0.2f, 0.3f, 0.4f},
                {0.2f, 0.1f, 0.4f, 0.3f},
                {0.4f, 0.3f, 0.2f, 0.1f},
                {0.3f, 0.4f, 0.1f, 0.2f},
                {0.1f, 0.2f, 0.3f, 0.4f},
                {0.2f, 0.3f, 0.4f, 0.1f}});
    e.tokens = {"The", "cat", "sat", "on", "the", "mat"};
    s.sentence = "The cat sat on the mat";
  } else if (id == "self-attn-example-1") {
    e.Q = rows({{1, 0}, {0, 1}, {1, 1}});
    e.K = *e.Q;
    e.V = rows({{2, 0}, {0, 2}, {2, 1}});
    e.tokens = {"cat", "sat", "mat"};
    s.sentence = "cat sat mat";
  } else if (id == "self-attn-from-x") {
    // The note prints its matrices column by column; these are its X, W^Q = W^K and W^V.
    e.X = rows({{1, 0, 1, 0}, {0, 1, 0, 1}, {1, 1, 0, 0}});
    e.W_q = rows({{1, 0}, {0, 1}, {0, 0}, {0, 0}});
    e.W_k = e.W_q;
    e.W_v = rows({{1, 0}, {1, 0}, {0, 1}, {0, 1}});
    e.tokens = {"cat", "sat", "mat"};
    s.sentence = "cat sat mat";
  } else if (id == "distant-dependency") {
    // Hand-set "learned" projections (the note's words: verbs learn to ask for subjects).
    e.X = rows({{0, 0, 0.2f, 0},
                {1, 1, 0, 0},
                {0, 0.3f, 0, 0},
                {0, 0, 0, 0.5f},
                {0, 0, 0.5f, 0},
                {0, 0, 1, 0},
                {0, 0, 0, 1},
                {0, 0, 0, 0},
                {0, 0, 0.2f, 0},
                {1, 0, 0, 0}});
    e.W_q = rows({{0, 0}, {0, 0}, {0, 0}, {3, 3}});
    e.W_k = rows({{1, 0}, {0, 1}, {0, 0}, {0, 0}});
    e.tokens = {"The", "cat", "which", "was", "very", "fluffy", "sat", "on", "the", "mat"};
    s.sentence = "The cat which was very fluffy sat on the mat";
    s.selected_row = 6;  // "sat"
  } else if (id == "bahdanau") {
    // v_a = [3], W = U = [1], s₁ = 0.2: h_i = atanh(e_i / 3) − 0.2 makes 3·tanh(0.2 + h_i) = e_i.
    const float e1 = 0.3f, e2 = 2.1f, e3 = 0.5f;
    e.Q = rows({{0.2f}});
    e.K = rows({{static_cast<float>(std::atanh(e1 / 3.0) - 0.2)},
                {static_cast<float>(std::atanh(e2 / 3.0) - 0.2)},
                {static_cast<float>(std::atanh(e3 / 3.0) - 0.2)}});
    e.V = rows({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
    e.score = ScoreKind::Additive;
    e.W_a = rows({{1}});
    e.U_a = rows({{1}});
    e.v_a = Vec::Constant(1, 3.0f);
    e.tokens = {"am"};
    e.memory_tokens = {"Je", "suis", "étudiant"};
    s.scale = false;
    // The same example as a whole decoder (every step, three score functions) in its own panel.
    s.cross = CrossState{};
    s.panels.cross = true;
  } else if (id == "softmax-article") {
    e.Q = rows({{1}});
    e.K = rows({{0.3f}, {0.2f}, {0.5f}});
    e.V = rows({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
    e.tokens = {"query"};
    e.memory_tokens = {"cat", "sat", "mat"};
    s.scale = false;
  }
  return true;
}

}  // namespace attn
