// train_tasks.h — the Learn-mode tasks: seeded batch generators, what a correct answer is, how accuracy is counted.
#pragma once

#include <string>
#include <vector>

#include "core/attention/montecarlo.h"  // Rng
#include "core/train/train_settings.h"

namespace attn::train {

// Every task is next-token prediction over a sequence of seq_len tokens: at a scored position t the
// model must output targets[t]; every other position has target −1 and adds nothing to the loss or
// the accuracy. Accuracy = correct scored positions / scored positions (argmax of the read-out,
// the first index on ties); a sequence counts as solved when all its scored positions are correct.
struct Batch {
  int batch = 0, seq_len = 0;
  std::vector<int> tokens;   // batch × seq_len, row-major
  std::vector<int> targets;  // batch × seq_len; −1 = not scored
  int scored = 0;            // number of targets ≥ 0

  int token(int b, int t) const { return tokens[static_cast<size_t>(b) * seq_len + t]; }
  int target(int b, int t) const { return targets[static_cast<size_t>(b) * seq_len + t]; }
};

struct TaskInfo {
  const char* name;
  const char* format;    // what a sequence looks like
  const char* correct;   // what a correct answer is
  const char* accuracy;  // which positions are scored
  bool needs_causal;     // the answers appear later in the sequence, so the future must be masked
};

TaskInfo task_info(TaskKind task);

// "" if the task is well defined for this vocabulary, length and mask, else why not.
std::string validate_task(TaskKind task, int vocab, int seq_len, bool causal);

// The separator token (copy, reverse, sort, lookup): always the last one of the vocabulary.
inline int separator_token(int vocab) { return vocab - 1; }

// Fills `out` (reusing its storage) with `batch` fresh sequences drawn from rng. Assumes validate_task passed.
void generate_batch(TaskKind task, int vocab, int seq_len, int batch, Rng& rng, Batch& out);

// A short label for a token: letters for symbols, numbers for sort, "|" for the separator.
std::string token_label(TaskKind task, int vocab, int token);

// A uniform integer in [0, n) from one 64-bit draw (multiply-high, no modulo bias worth the name).
inline int uniform_int(Rng& rng, int n) {
  return static_cast<int>(((rng.next_u64() >> 32) * static_cast<uint64_t>(n)) >> 32);
}

}  // namespace attn::train
