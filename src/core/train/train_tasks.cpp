// train_tasks.cpp — the five task generators (copy, reverse, sort, key–value lookup, induction) and their rules.
#include "core/train/train_tasks.h"

#include <algorithm>
#include <numeric>

namespace attn::train {

namespace {

// Copy, reverse and sort: m = seq_len/2 symbols, the separator, then the answer; the input holds
// all but the answer's last token, so positions m … 2m−1 each predict one answer token.
void fill_transform(TaskKind task, int vocab, int n, Rng& rng, int* tok, int* tgt) {
  const int m = n / 2;
  const int symbols = vocab - 1;
  int x[kMaxSeqLen];
  for (int i = 0; i < m; ++i) x[i] = uniform_int(rng, symbols);
  int y[kMaxSeqLen];
  for (int i = 0; i < m; ++i) y[i] = task == TaskKind::Reverse ? x[m - 1 - i] : x[i];
  if (task == TaskKind::Sort) std::sort(y, y + m);
  for (int i = 0; i < m; ++i) tok[i] = x[i];
  tok[m] = separator_token(vocab);
  for (int i = 1; i < m; ++i) tok[m + i] = y[i - 1];
  for (int t = 0; t < n; ++t) tgt[t] = t >= m ? y[t - m] : -1;
}

// Lookup: p = (seq_len−2)/2 pairs key value with distinct keys from the lower half of the symbols
// and values from the upper half, the separator, then one of the keys; the last position predicts its value.
void fill_lookup(int vocab, int n, Rng& rng, int* tok, int* tgt) {
  const int pairs = (n - 2) / 2;
  const int key_symbols = (vocab - 1) / 2;
  const int value_symbols = vocab - 1 - key_symbols;
  int keys[kMaxVocab];
  std::iota(keys, keys + key_symbols, 0);
  for (int i = 0; i < pairs; ++i) std::swap(keys[i], keys[i + uniform_int(rng, key_symbols - i)]);
  int values[kMaxSeqLen];
  for (int i = 0; i < pairs; ++i) {
    values[i] = key_symbols + uniform_int(rng, value_symbols);
    tok[2 * i] = keys[i];
    tok[2 * i + 1] = values[i];
  }
  const int asked = uniform_int(rng, pairs);
  tok[2 * pairs] = separator_token(vocab);
  tok[2 * pairs + 1] = keys[asked];
  for (int t = 0; t < n; ++t) tgt[t] = -1;
  tgt[n - 1] = values[asked];
}

// Induction: r = m distinct symbols repeated to fill the sequence (s[t] = r[t mod m]), with m drawn
// from [max(2, ⌈n/4⌉), n/2] so the distance to the earlier occurrence differs from sequence to
// sequence and only the content rule solves it. Every position t ≥ m is scored: its token appeared
// at t − m and the token that followed it there is the answer.
void fill_induction(int vocab, int n, Rng& rng, int* tok, int* tgt) {
  const int m_hi = n / 2;
  const int m_lo = std::max(2, (n + 3) / 4);
  const int m = m_lo + uniform_int(rng, m_hi - m_lo + 1);
  int r[kMaxVocab];
  std::iota(r, r + vocab, 0);
  for (int i = 0; i < m; ++i) std::swap(r[i], r[i + uniform_int(rng, vocab - i)]);
  for (int t = 0; t < n; ++t) tok[t] = r[t % m];
  for (int t = 0; t < n; ++t) tgt[t] = t >= m ? r[(t + 1) % m] : -1;
}

}  // namespace

TaskInfo task_info(TaskKind task) {
  switch (task) {
    case TaskKind::Copy:
      return {"copy",
              "x\xe2\x82\x81 \xe2\x80\xa6 x\xe2\x82\x98 | x\xe2\x82\x81 \xe2\x80\xa6 "
              "x\xe2\x82\x98\xe2\x82\x8b\xe2\x82\x81, m = seq_len/2 random symbols",
              "after the separator, the next token is the symbol at the same place in the first half",
              "the separator and the answer positions: m per sequence", true};
    case TaskKind::Reverse:
      return {"reverse",
              "x\xe2\x82\x81 \xe2\x80\xa6 x\xe2\x82\x98 | x\xe2\x82\x98 \xe2\x80\xa6 x\xe2\x82\x82, m = seq_len/2 "
              "random symbols",
              "after the separator, the first half read backwards",
              "the separator and the answer positions: m per sequence", true};
    case TaskKind::Sort:
      return {"sort",
              "x\xe2\x82\x81 \xe2\x80\xa6 x\xe2\x82\x98 | y\xe2\x82\x81 \xe2\x80\xa6 "
              "y\xe2\x82\x98\xe2\x82\x8b\xe2\x82\x81, y = x sorted ascending (repeats kept)",
              "after the separator, the first half in ascending order",
              "the separator and the answer positions: m per sequence", true};
    case TaskKind::Lookup:
      return {"lookup",
              "k\xe2\x82\x81 v\xe2\x82\x81 \xe2\x80\xa6 k\xe2\x82\x9a v\xe2\x82\x9a | k\xe1\xb5\xa2: distinct keys, "
              "each followed by its value, then one key again",
              "the value that followed the asked key", "the last position only: one per sequence", false};
    case TaskKind::Induction:
      return {"induction",
              "r\xe2\x82\x81 \xe2\x80\xa6 r\xe2\x82\x98 r\xe2\x82\x81 \xe2\x80\xa6: m distinct random symbols "
              "repeated, m from seq_len/4 to seq_len/2",
              "the token that followed the current token's earlier occurrence",
              "every position from the first repetition on (the second half when m = seq_len/2)", true};
  }
  return {"?", "", "", "", true};
}

std::string validate_task(TaskKind task, int vocab, int seq_len, bool causal) {
  const std::string name = task_info(task).name;
  if (seq_len % 2 != 0) return "task " + name + " needs an even seq_len (got " + std::to_string(seq_len) + ")";
  if (task_info(task).needs_causal && !causal)
    return "task " + name + " scores positions whose answers appear later in the input: it needs the causal mask";
  if (task == TaskKind::Lookup) {
    const int pairs = (seq_len - 2) / 2;
    const int keys = (vocab - 1) / 2;
    if (keys < pairs)
      return "task lookup with seq_len " + std::to_string(seq_len) + " has " + std::to_string(pairs) +
             " distinct keys but vocab " + std::to_string(vocab) + " gives only " + std::to_string(keys) +
             " (keys use (vocab − 1)/2 symbols): use vocab ≥ " + std::to_string(2 * pairs + 1);
  }
  if (task == TaskKind::Induction && vocab < seq_len / 2)
    return "task induction repeats up to seq_len/2 = " + std::to_string(seq_len / 2) +
           " distinct symbols: vocab must be at least that (got " + std::to_string(vocab) + ")";
  return "";
}

void generate_batch(TaskKind task, int vocab, int seq_len, int batch, Rng& rng, Batch& out) {
  out.batch = batch;
  out.seq_len = seq_len;
  const size_t cells = static_cast<size_t>(batch) * seq_len;
  out.tokens.resize(cells);
  out.targets.resize(cells);
  for (int b = 0; b < batch; ++b) {
    int* tok = out.tokens.data() + static_cast<size_t>(b) * seq_len;
    int* tgt = out.targets.data() + static_cast<size_t>(b) * seq_len;
    switch (task) {
      case TaskKind::Copy:
      case TaskKind::Reverse:
      case TaskKind::Sort:
        fill_transform(task, vocab, seq_len, rng, tok, tgt);
        break;
      case TaskKind::Lookup:
        fill_lookup(vocab, seq_len, rng, tok, tgt);
        break;
      case TaskKind::Induction:
        fill_induction(vocab, seq_len, rng, tok, tgt);
        break;
    }
  }
  out.scored = static_cast<int>(std::count_if(out.targets.begin(), out.targets.end(), [](int t) { return t >= 0; }));
}

std::string token_label(TaskKind task, int vocab, int token) {
  static const char kUpper[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  static const char kLower[] = "abcdefghijklmnopqrstuvwxyz";
  if (token == separator_token(vocab) && task != TaskKind::Induction) return "|";
  if (task == TaskKind::Sort) return std::to_string(token);
  if (task == TaskKind::Lookup) {
    const int keys = (vocab - 1) / 2;
    if (token < keys) return token < 26 ? std::string(1, kUpper[token]) : "K" + std::to_string(token);
    const int v = token - keys;
    return v < 26 ? std::string(1, kLower[v]) : "v" + std::to_string(v);
  }
  if (token < 26) return std::string(1, kUpper[token]);
  if (token < 52) return std::string(1, kLower[token - 26]);
  return "#" + std::to_string(token);
}

}  // namespace attn::train
