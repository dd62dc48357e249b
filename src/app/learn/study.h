// study.h — the scaling study's results as the page shows them (data/study-results/*.json, written by
// scripts/study.mjs; the README prints the same rows, checked by tests/source/study_tables.py), and the one
// configuration in it where the small initialisation reverses the result, as Learn settings a learner can run.
#pragma once

#include <string>
#include <vector>

#include "app/base/strings.h"
#include "core/train/train_settings.h"

namespace attn {

// One model at its own best learning rate: steps to 90 % over the seeds, as printed (">500" when censored).
struct StudySide {
  double lr = 0;
  bool lr_at_edge = false;  // the smallest or largest rate swept: the best may lie beyond the grid
  std::string median, q1, q3;
  int reached = 0, seeds = 0;
};

// One configuration: A (÷√d_k) and B (no scaling), each at its best rate, and the per-seed ratio B÷A.
struct StudyRow {
  std::string study;  // "scaling", "scaling-256"
  std::string task, init, optimizer;
  int d_k = 0;
  StudySide a, b;
  int b_slower = 0, paired = 0;  // seeds in which B needed more steps, of the seeds compared
  std::string ratio_median, ratio_min, ratio_max;
};

// Every row of every results file, in file order; empty when none is compiled in.
const std::vector<StudyRow>& study_rows();

// The reversal: a row where, under the small initialisation, B (no scaling) was faster in most seeds with both
// models at the same best rate (Learn trains both at one rate), or nullptr.
const StudyRow* reversal_row();
// Learn settings that rerun that row's configuration exactly as the study ran it (the grid's flags for its task,
// its d_k, init, optimizer and rate, its number of steps) with `seed`. "" or why not.
std::string reversal_settings(train::TrainSettings& out, uint64_t seed);
// The seed the page offers: one in which B reaches 90 % first, as in most of the study's seeds (a test reruns it).
inline constexpr uint64_t kReversalSeed = 1;

// The table's cells in the learner's language, header first (the canvas and the parallel DOM show these).
std::vector<std::vector<std::string>> study_table(Lang lang);
// What the reversal sets and what the study found for it, with the row's own figures.
std::string reversal_text(Lang lang);

}  // namespace attn
