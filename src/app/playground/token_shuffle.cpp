// token_shuffle.cpp — "Shuffle tokens" and the permutation test it reads off the next result.
#include "app/playground/token_shuffle.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "core/attention/montecarlo.h"

namespace attn {

bool shuffle_tokens(State& s, const AppResult& r, TokenShuffle& t) {
  const int n = static_cast<int>(s.embeddings.rows());
  const std::vector<std::string> tokens = split_tokens(s.sentence);
  if (s.mode != InputMode::Random || n < 2 || !r.error.empty() || static_cast<int>(tokens.size()) != n) return false;
  std::vector<int> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  Rng rng(s.seed * 7919 + ++t.count);
  for (int i = n - 1; i > 0; --i)
    std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(rng.next_u64() % static_cast<uint64_t>(i + 1))]);
  Mat E = s.embeddings;
  std::string sentence;
  for (int i = 0; i < n; ++i) {
    E.row(i) = s.embeddings.row(perm[static_cast<size_t>(i)]);
    sentence += (i ? " " : "") + tokens[static_cast<size_t>(perm[static_cast<size_t>(i)])];
  }
  t.before = r.core.output;  // compared with the next result, row by row through the permutation
  t.before_revision = r.revision;
  t.perm = perm;
  s.sentence = sentence;
  s.embeddings = E;
  s.mask_cells.reset();  // painted cells and padding belonged to the old positions
  s.key_padding.clear();
  s.preset.clear();
  return true;
}

void measure_shuffle(TokenShuffle& t, const State& s, const AppResult& r) {
  if (t.perm.empty() || t.before_revision == r.revision || r.core.output.rows() != t.before.rows() ||
      r.core.output.cols() != t.before.cols() || static_cast<int>(t.perm.size()) != t.before.rows())
    return;
  double gap = 0;
  for (Eigen::Index i = 0; i < t.before.rows(); ++i)
    gap =
        std::max(gap, static_cast<double>(
                          (r.core.output.row(i) - t.before.row(t.perm[static_cast<size_t>(i)])).cwiseAbs().maxCoeff()));
  t.gap = gap;
  t.with_pe = s.positional_encoding == PositionalEncoding::Sinusoidal;
  t.before_revision = r.revision;
  t.before.resize(0, 0);
  t.perm.clear();
}

}  // namespace attn
