// presets.cpp — each worked example of the seed notes as a state; its texts (correct numbers, the notes'
// slips) are catalog entries "preset.<id>.title|source|story|slips".
#include "app/state/presets.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>

#include "app/base/strings.h"
#include "app/state/state_json.h"
#include "core/exercise/worked_example.h"

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

// The texts live in the string catalog (data/strings/), one key per text and language.
Preset preset_keys(const std::string& id, bool has_slips) {
  const std::string k = "preset." + id + ".";
  return {id, k + "title", k + "source", k + "story", has_slips ? k + "slips" : ""};
}

// Each example's settings on top of the defaults. The random ones keep a sentence and draw (or set)
// its embeddings; the others are a note's own matrices in the explicit scenario.

void default_example(State& s) {
  s.mode = InputMode::Random;
  sync_embeddings(s, {});
}

void dot_product_2d(State& s) {
  s.mode = InputMode::Random;
  s.sentence = "cat dog sat mat";
  s.d_model = s.d_k = s.d_v = 2;
  s.projections = Projections::Identity;
  s.embeddings = rows({{2, 0}, {0, 2.5f}, {-1.5f, -1}, {1, -1.5f}});
}

void saturation(State& s) {
  s.mode = InputMode::Random;
  s.d_k = 512;
  s.scale = false;
  s.sentence = "The cat sat on the mat because it was tired";
  // Ten tokens are few draws: under seed 1 the queries' norms came out small (row spreads 5–24) and half
  // the rows stayed below 0.95. Seed 3's spreads (14–33) match the story's √512 ≈ 22.6, and 9 of 10 rows,
  // "The" among them, are one-hot.
  s.seed = 3;
  s.selected_row = 0;
  sync_embeddings(s, {});
}

void dog_bites_man(State& s) {
  s.mode = InputMode::Random;
  s.sentence = "dog bites man";
  s.positional_encoding = PositionalEncoding::None;
  sync_embeddings(s, {});
}

Scenario& explicit_example(State& s) {
  s.mode = InputMode::Explicit;
  return s.explicit_scenario;
}

void self_attn_example_1(State& s) {
  Scenario& e = explicit_example(s);
  e.Q = rows({{1, 0}, {0, 1}, {1, 1}});
  e.K = *e.Q;
  e.V = rows({{2, 0}, {0, 2}, {2, 1}});
  e.tokens = {"cat", "sat", "mat"};
  s.sentence = "cat sat mat";
}

void distant_dependency(State& s) {
  Scenario& e = explicit_example(s);
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
}

void bahdanau(State& s) {
  Scenario& e = explicit_example(s);
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
}

void softmax_article(State& s) {
  Scenario& e = explicit_example(s);
  e.Q = rows({{1}});
  e.K = rows({{0.3f}, {0.2f}, {0.5f}});
  e.V = rows({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
  e.tokens = {"query"};
  e.memory_tokens = {"cat", "sat", "mat"};
  s.scale = false;
}

// A note's worked example (data/worked-examples/<id>.json): its own inputs, as the note gives them.
void worked_example(State& s, const exercise::WorkedExample& w) {
  Scenario& e = explicit_example(s);
  const std::pair<std::optional<Mat>*, const Mat*> inputs[] = {
      {&e.X, &w.X}, {&e.W_q, &w.W_q}, {&e.W_k, &w.W_k}, {&e.W_v, &w.W_v}, {&e.Q, &w.Q}, {&e.K, &w.K}, {&e.V, &w.V}};
  const bool from_x = w.X.size() > 0;  // from X the note's given stages are what it printed, not its inputs
  for (const auto& [to, from] : inputs)
    if (from->size() && (!from_x || from == &w.X || from == &w.W_q || from == &w.W_k || from == &w.W_v)) *to = *from;
  e.tokens = w.spec.query_tokens;
  if (w.spec.key_tokens != w.spec.query_tokens) {
    e.memory_tokens = w.spec.key_tokens;
    return;
  }
  std::string sentence;
  for (const std::string& t : w.spec.query_tokens) sentence += (sentence.empty() ? "" : " ") + t;
  s.sentence = sentence;
}

struct PresetSetup {
  const char* id;
  void (*apply)(State&);
};

const PresetSetup kPresetSetups[] = {
    {"default", default_example},
    {"self-attn-example-1", self_attn_example_1},
    {"dot-product-2d", dot_product_2d},
    {"distant-dependency", distant_dependency},
    {"bahdanau", bahdanau},
    {"softmax-article", softmax_article},
    {"saturation", saturation},
    {"dog-bites-man", dog_bites_man},
};
}  // namespace

const std::vector<Preset>& presets() {
  static const std::vector<Preset> list = {
      preset_keys("default", false),           preset_keys("sdpa-example-1", true),
      preset_keys("cat-sat-mat", true),        preset_keys("self-attn-example-1", true),
      preset_keys("self-attn-from-x", true),   preset_keys("dot-product-2d", false),
      preset_keys("distant-dependency", true), preset_keys("bahdanau", true),
      preset_keys("softmax-article", true),    preset_keys("saturation", true),
      preset_keys("dog-bites-man", false),
  };
  static const std::vector<Preset> with_examples = [] {
    std::vector<Preset> all = list;  // a new worked example's file adds its preset at the end
    for (const exercise::WorkedExample& w : exercise::worked_examples())
      if (std::none_of(all.begin(), all.end(), [&](const Preset& p) { return p.id == w.preset; }))
        all.push_back(preset_keys(w.preset, !w.slips.empty()));
    return all;
  }();
  return with_examples;
}

const Preset* find_preset(const std::string& id) {
  for (const Preset& p : presets())
    if (p.id == id) return &p;
  return nullptr;
}

State default_state() {
  State s;
  apply_preset(s, "default");
  return s;
}

bool apply_preset(State& s, const std::string& id) {
  if (!find_preset(id)) return false;
  const State old = s;
  static const State defaults;
  s = defaults;
  keep_learner_fields(s, old);  // the example changes; language, panels, lesson, worksheet and Learn stay
  s.preset = id;
  for (const PresetSetup& p : kPresetSetups)
    if (id == p.id) {
      p.apply(s);
      return true;
    }
  for (const exercise::WorkedExample& w : exercise::worked_examples())
    if (id == w.preset) {
      worked_example(s, w);
      return true;
    }
  s.mode = InputMode::Explicit;
  return true;
}

namespace {
// The marked slips of the worked examples' files, on the matrices a preset shows.
void add_example_slips(std::vector<NoteSlip>& out) {
  using exercise::Stage;
  for (const exercise::WorkedExample& w : exercise::worked_examples())
    for (const exercise::ExampleSlip& slip : w.slips) {
      const std::optional<SlipMatrix> m = slip.stage == Stage::V         ? std::optional(SlipMatrix::V)
                                          : slip.stage == Stage::Scores  ? std::optional(SlipMatrix::Scores)
                                          : slip.stage == Stage::Weights ? std::optional(SlipMatrix::Weights)
                                          : slip.stage == Stage::Output  ? std::optional(SlipMatrix::Output)
                                                                         : std::nullopt;
      if (slip.mark && m)
        out.push_back({w.preset.c_str(), w.by_article, *m, slip.cell.row, slip.cell.col, slip.printed.c_str(),
                       slip.correct, slip.decimals});
    }
}
}  // namespace

// The cells of the slips texts (preset.<id>.slips), rows and columns counted from 0 here: the worked examples'
// files, then the presets that are not one (the self-attention note from Q, K, V; the softmax article).
const std::vector<NoteSlip>& note_slips() {
  using M = SlipMatrix;
  static const std::vector<NoteSlip> list = [] {
    std::vector<NoteSlip> all;
    add_example_slips(all);
    const NoteSlip others[] = {
        // Softmax rows 1 and 3 of the self-attention example (the first sums to 1.18).
        {"self-attn-example-1", false, M::Weights, 0, 0, "0.5", 0.401, 3},
        {"self-attn-example-1", false, M::Weights, 0, 1, "0.18", 0.198, 3},
        {"self-attn-example-1", false, M::Weights, 0, 2, "0.5", 0.401, 3},
        {"self-attn-example-1", false, M::Weights, 2, 0, "0.23", 0.248, 3},
        {"self-attn-example-1", false, M::Weights, 2, 1, "0.23", 0.248, 3},
        {"self-attn-example-1", false, M::Weights, 2, 2, "0.54", 0.503, 3},
        // "softmax turns [0.3, 0.2, 0.5] into [0.3, 0.2, 0.5]".
        {"softmax-article", true, M::Weights, 0, 0, "0.3", 0.320, 3},
        {"softmax-article", true, M::Weights, 0, 1, "0.2", 0.289, 3},
        {"softmax-article", true, M::Weights, 0, 2, "0.5", 0.391, 3},
    };
    all.insert(all.end(), std::begin(others), std::end(others));
    return all;
  }();
  return list;
}

const NoteSlip* slip_at(const State& s, SlipMatrix matrix, int row, int col, double shown) {
  if (s.preset.empty()) return nullptr;
  for (const NoteSlip& slip : note_slips()) {
    if (s.preset != slip.preset || slip.matrix != matrix || slip.row != row || slip.col != col) continue;
    return std::fabs(shown - slip.correct) <= 0.5 * std::pow(10.0, -slip.decimals) + 1e-6 ? &slip : nullptr;
  }
  return nullptr;
}

std::string slip_text(const NoteSlip& slip, Lang lang) {
  return tr_format(lang, slip.article ? "slip.cell.article" : "slip.cell.note",
                   {{"printed", slip.printed}, {"correct", format_fixed(slip.correct, slip.decimals)}});
}

}  // namespace attn
