// state.cpp — tokenising, seeded embeddings/projections, and State → Scenario.
#include "app/state/state.h"

#include <array>
#include <cctype>
#include <cmath>

#include "core/attention/montecarlo.h"
#include "core/hash.h"

namespace attn {

std::vector<std::string> split_tokens(const std::string& sentence) {
  // Words between white space, as `stream >> word` reads them (written out: no iostreams in the page's module).
  std::vector<std::string> out;
  const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  for (size_t i = 0; i < sentence.size() && static_cast<int>(out.size()) < kMaxTokens;) {
    while (i < sentence.size() && space(sentence[i])) ++i;
    size_t end = i;
    while (end < sentence.size() && !space(sentence[end])) ++end;
    if (end > i) out.push_back(sentence.substr(i, end - i));
    i = end;
  }
  return out;
}

Vec random_embedding(uint64_t seed, const std::string& token, int /*index*/, int d_model) {
  Rng rng(seed * 0x9E3779B97F4A7C15ull ^ fnv1a(token));
  Vec v(d_model);
  for (int i = 0; i < d_model; ++i) v[i] = static_cast<float>(rng.normal());
  return v;
}

namespace {
Mat draw_projection(uint64_t seed, char which, int d_model, int width) {
  Mat w(d_model, width);
  const double sd = 1.0 / std::sqrt(static_cast<double>(d_model));
  for (int j = 0; j < width; ++j) {
    Rng rng((seed + 0x51ED27ull * static_cast<uint64_t>(which)) * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(j));
    for (int i = 0; i < d_model; ++i) w(i, j) = static_cast<float>(rng.normal() * sd);
  }
  return w;
}
}  // namespace

// Every build_scenario draws the seeded projections again — the recomputation, the change stamp's digest of the
// scenario, the heads options: several times a frame while a finger drags d_k, where the draws were about a
// third of the app's own work on the phone profile. The last few draws are kept (at most d_model × d_k =
// 64 × 1024 floats each); per thread, as a native trainer thread builds scenarios of its own.
Mat random_projection(uint64_t seed, char which, int d_model, int width) {
  struct Drawn {
    uint64_t seed = 0;
    char which = 0;
    int d_model = 0, width = 0;
    Mat w;
  };
  constexpr int kKept = 8;  // Q, K, V and O, and the cross example's four
  thread_local std::array<Drawn, kKept> kept;
  thread_local int oldest = 0;
  for (const Drawn& d : kept)
    if (d.w.size() > 0 && d.seed == seed && d.which == which && d.d_model == d_model && d.width == width) return d.w;
  Drawn& slot = kept[static_cast<size_t>(oldest)];
  oldest = (oldest + 1) % kKept;
  slot = Drawn{seed, which, d_model, width, draw_projection(seed, which, d_model, width)};
  return slot.w;
}

void sync_embeddings(State& s, const std::vector<std::string>& previous_tokens) {
  const auto tokens = split_tokens(s.sentence);
  const int n = static_cast<int>(tokens.size());
  Mat next(n, s.d_model);
  for (int i = 0; i < n; ++i) {
    const bool keep = i < static_cast<int>(previous_tokens.size()) && previous_tokens[i] == tokens[i] &&
                      i < s.embeddings.rows() && s.embeddings.cols() == s.d_model;
    if (keep)
      next.row(i) = s.embeddings.row(i);
    else
      next.row(i) = random_embedding(s.seed, tokens[i], i, s.d_model).transpose();
  }
  s.embeddings = std::move(next);
}

bool set_sentence(State& s, const std::string& sentence) {
  if (split_tokens(sentence).empty() || s.sentence == sentence) return false;
  const auto before = split_tokens(s.sentence);
  s.sentence = sentence;
  s.key_padding.clear();
  sync_embeddings(s, before);
  return true;
}

void set_seed(State& s, uint64_t seed) {
  s.seed = seed;
  s.embeddings.resize(0, 0);
  sync_embeddings(s, {});
}

void reroll(State& s) { set_seed(s, s.seed + 1); }

void clear_mask_cells(State& s) {
  (s.mode == InputMode::Random ? s.mask_cells : s.explicit_scenario.mask_cells).reset();
}
void clear_key_padding(State& s) {
  (s.mode == InputMode::Random ? s.key_padding : s.explicit_scenario.key_padding).clear();
}

Scenario build_scenario(const State& s) {
  Scenario sc;
  if (s.mode == InputMode::Explicit) {
    sc = s.explicit_scenario;
  } else {
    sc.X = s.embeddings;
    const bool seeded = s.projections == Projections::Seeded;  // else absent W: the identity
    if (seeded) {
      sc.W_q = random_projection(s.seed, 'q', s.d_model, s.d_k);
      sc.W_k = random_projection(s.seed, 'k', s.d_model, s.d_k);
      sc.W_v = random_projection(s.seed, 'v', s.d_model, s.d_v);
    }
    sc.tokens = split_tokens(s.sentence);
    sc.mask = s.mask;
    // A padding row or painted mask left over from a sentence of another length is ignored.
    const Eigen::Index n = sc.X->rows();
    if (static_cast<Eigen::Index>(s.key_padding.size()) == n) sc.key_padding = s.key_padding;
    if (s.mask_cells && s.mask_cells->rows() == n && s.mask_cells->cols() == n) sc.mask_cells = s.mask_cells;
    sc.heads = s.heads;
    // Several heads are mixed back together by an output projection W_O (d_v×d_v), seeded like W_Q.
    const int d_v = seeded ? s.d_v : s.d_model;
    if (s.heads > 1) sc.W_o = random_projection(s.seed, 'o', d_v, d_v);
    sc.positional_encoding = s.positional_encoding;
  }
  sc.scale = s.scale;
  sc.temperature = s.temperature;
  return sc;
}

Widths computed_widths(const State& s) {
  Widths w{s.d_model, s.d_k, s.d_v};
  if (s.mode == InputMode::Random) return w;
  const Scenario& e = s.explicit_scenario;
  if (e.X) w.d_model = static_cast<int>(e.X->cols());
  const int d_model = e.X ? w.d_model : 0;
  w.d_k = e.Q ? static_cast<int>(e.Q->cols()) : e.W_q ? static_cast<int>(e.W_q->cols()) : d_model;
  w.d_v = e.V ? static_cast<int>(e.V->cols()) : e.W_v ? static_cast<int>(e.W_v->cols()) : d_model;
  return w;
}

uint64_t scenario_fingerprint(const Scenario& sc) {
  ValueHasher h;
  for (const auto* m : {&sc.X, &sc.W_q, &sc.W_k, &sc.W_v, &sc.W_o, &sc.Q, &sc.K, &sc.V, &sc.memory, &sc.W_a, &sc.U_a})
    h.mat(*m);
  h.pod(sc.v_a.has_value());
  if (sc.v_a) h.bytes(sc.v_a->data(), sizeof(float) * static_cast<size_t>(sc.v_a->size()));
  h.pod(sc.score);
  h.pod(sc.scale);
  h.pod(sc.temperature);
  h.pod(sc.mask);
  for (bool b : sc.key_padding) h.pod(b);
  h.pod(sc.mask_cells.has_value());
  if (sc.mask_cells) h.bytes(sc.mask_cells->data(), static_cast<size_t>(sc.mask_cells->size()));
  h.pod(sc.heads);
  h.pod(sc.positional_encoding);
  for (const auto& t : sc.tokens) h.str(t);
  for (const auto& t : sc.memory_tokens) h.str(t);
  return h.value();
}

}  // namespace attn
