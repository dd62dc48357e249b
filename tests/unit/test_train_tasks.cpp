// test_train_tasks.cpp — each task generator's sequences obey the task's stated rule, seeded and within its vocabulary.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <vector>

#include "core/train/train_tasks.h"

using namespace attn::train;

namespace {

Batch draw(TaskKind task, int vocab, int n, int batch, uint64_t seed) {
  attn::Rng rng(seed);
  Batch b;
  REQUIRE(validate_task(task, vocab, n, true) == "");
  generate_batch(task, vocab, n, batch, rng, b);
  REQUIRE(b.batch == batch);
  REQUIRE(b.seq_len == n);
  return b;
}

std::vector<int> row(const Batch& b, int s, const std::vector<int>& v) {
  return std::vector<int>(v.begin() + static_cast<long>(s) * b.seq_len,
                          v.begin() + static_cast<long>(s + 1) * b.seq_len);
}

// Positions whose target is set, and that count equals Batch::scored.
std::vector<int> scored_positions(const Batch& b, int s) {
  std::vector<int> out;
  for (int t = 0; t < b.seq_len; ++t)
    if (b.target(s, t) >= 0) out.push_back(t);
  return out;
}

void check_common(const Batch& b, int vocab) {
  int scored = 0;
  for (size_t i = 0; i < b.tokens.size(); ++i) {
    CHECK(b.tokens[i] >= 0);
    CHECK(b.tokens[i] < vocab);
    CHECK(b.targets[i] >= -1);
    CHECK(b.targets[i] < vocab);
    scored += b.targets[i] >= 0;
  }
  CHECK(scored == b.scored);
}

// The whole sequence the input is a prefix of: the input, then the last target.
std::vector<int> full_sequence(const Batch& b, int s) {
  std::vector<int> full = row(b, s, b.tokens);
  full.push_back(b.target(s, b.seq_len - 1));
  return full;
}

}  // namespace

TEST_CASE("copy, reverse and sort: the answer after the separator is the first half copied, reversed, sorted",
          "[train][tasks]") {
  const int vocab = 10, n = 12, m = n / 2;
  for (TaskKind task : {TaskKind::Copy, TaskKind::Reverse, TaskKind::Sort}) {
    INFO(task_name(task));
    const Batch b = draw(task, vocab, n, 50, 9);
    check_common(b, vocab);
    for (int s = 0; s < b.batch; ++s) {
      const std::vector<int> full = full_sequence(b, s);
      REQUIRE(full.size() == static_cast<size_t>(n + 1));
      CHECK(full[m] == separator_token(vocab));
      const std::vector<int> first(full.begin(), full.begin() + m), answer(full.begin() + m + 1, full.end());
      for (int x : first) CHECK(x != separator_token(vocab));
      if (task == TaskKind::Copy) CHECK(answer == first);
      if (task == TaskKind::Reverse) CHECK(answer == std::vector<int>(first.rbegin(), first.rend()));
      if (task == TaskKind::Sort) {
        CHECK(std::is_sorted(answer.begin(), answer.end()));
        CHECK(std::is_permutation(answer.begin(), answer.end(), first.begin()));
      }
      // Next-token prediction: each scored position's target is the next token of the sequence,
      // and exactly the separator and answer positions are scored.
      const std::vector<int> pos = scored_positions(b, s);
      REQUIRE(pos.size() == static_cast<size_t>(m));
      for (int t : pos) {
        CHECK(t >= m);
        CHECK(b.target(s, t) == full[static_cast<size_t>(t) + 1]);
      }
    }
  }
}

TEST_CASE("lookup: distinct keys, and the target is the value that followed the asked key", "[train][tasks]") {
  const int vocab = 16, n = 16, pairs = (n - 2) / 2, keys = (vocab - 1) / 2;
  const Batch b = draw(TaskKind::Lookup, vocab, n, 60, 4);
  check_common(b, vocab);
  std::set<int> asked_slots;
  for (int s = 0; s < b.batch; ++s) {
    std::set<int> seen;
    for (int i = 0; i < pairs; ++i) {
      const int key = b.token(s, 2 * i), value = b.token(s, 2 * i + 1);
      CHECK(key < keys);
      CHECK(value >= keys);
      CHECK(value < vocab - 1);
      CHECK(seen.insert(key).second);  // distinct
    }
    CHECK(b.token(s, n - 2) == separator_token(vocab));
    const int query = b.token(s, n - 1);
    REQUIRE(scored_positions(b, s) == std::vector<int>{n - 1});
    int found = -1;
    for (int i = 0; i < pairs; ++i)
      if (b.token(s, 2 * i) == query) found = i;
    REQUIRE(found >= 0);
    asked_slots.insert(found);
    CHECK(b.target(s, n - 1) == b.token(s, 2 * found + 1));
  }
  CHECK(asked_slots.size() > 3);  // the asked pair is not always the same slot
}

TEST_CASE("induction: a random sequence repeated; scored targets are what followed the earlier occurrence",
          "[train][tasks]") {
  const int vocab = 16, n = 16;
  const Batch b = draw(TaskKind::Induction, vocab, n, 80, 21);
  check_common(b, vocab);
  std::set<int> periods;
  for (int s = 0; s < b.batch; ++s) {
    // The period: the first position whose token already appeared.
    int m = n;
    for (int t = 1; t < n && m == n; ++t)
      for (int j = 0; j < t; ++j)
        if (b.token(s, j) == b.token(s, t)) m = t;
    REQUIRE(m <= n / 2);
    REQUIRE(m >= n / 4);
    periods.insert(m);
    for (int t = m; t < n; ++t) CHECK(b.token(s, t) == b.token(s, t - m));  // the repetition
    const std::vector<int> pos = scored_positions(b, s);
    CHECK(pos.front() == m);
    CHECK(pos.size() == static_cast<size_t>(n - m));
    for (int t : pos) {
      // The answer by the induction rule: find the earlier occurrence, take the token after it.
      int earlier = -1;
      for (int j = t - 1; j >= 0; --j)
        if (b.token(s, j) == b.token(s, t)) {
          earlier = j;
          break;
        }
      REQUIRE(earlier >= 0);
      CHECK(b.target(s, t) == b.token(s, earlier + 1));
    }
    if (m == n / 2) {  // one repetition: the second half equals the first, and it is what is scored
      for (int t = 0; t < m; ++t) CHECK(b.token(s, t + m) == b.token(s, t));
      CHECK(pos.front() == n / 2);
    }
  }
  CHECK(periods.size() >= 3);  // the distance to the earlier occurrence varies
}

TEST_CASE("task generators are seeded: same seed, same batch; another seed, another batch", "[train][tasks]") {
  for (TaskKind task : {TaskKind::Copy, TaskKind::Reverse, TaskKind::Sort, TaskKind::Lookup, TaskKind::Induction}) {
    const Batch a = draw(task, 16, 16, 8, 1), b = draw(task, 16, 16, 8, 1), c = draw(task, 16, 16, 8, 2);
    CHECK(a.tokens == b.tokens);
    CHECK(a.targets == b.targets);
    CHECK(a.tokens != c.tokens);
  }
}

TEST_CASE("tasks refuse vocabularies, lengths and masks they cannot be defined with", "[train][tasks]") {
  CHECK(validate_task(TaskKind::Copy, 16, 15, true).find("even seq_len") != std::string::npos);
  CHECK(validate_task(TaskKind::Copy, 16, 16, false).find("causal mask") != std::string::npos);
  CHECK(validate_task(TaskKind::Induction, 7, 16, true).find("vocab must be at least") != std::string::npos);
  CHECK(validate_task(TaskKind::Lookup, 10, 16, true).find("distinct keys") != std::string::npos);
  CHECK(validate_task(TaskKind::Lookup, 16, 16, false) == "");  // lookup scores only the last position
  CHECK(task_info(TaskKind::Lookup).needs_causal == false);
  CHECK(token_label(TaskKind::Copy, 16, 15) == "|");
  CHECK(token_label(TaskKind::Sort, 16, 3) == "3");
  CHECK(token_label(TaskKind::Induction, 16, 15) == "P");
}
