// variance_table.h — the Variance lab's readouts (mean, variance, std of q·k and of q·k ÷ √d_k, each with its
// theory), one table the canvas draws and the parallel DOM reads.
#pragma once

#include <string>
#include <vector>

#include "app/base/strings.h"  // Lang

namespace attn {
struct VarianceRow;

struct ReadoutCell {
  std::string value;
  std::string theory;  // what theory says, shown beside the value; "" for none
};
struct ReadoutRow {
  std::string name;
  std::vector<ReadoutCell> cells;  // unscaled, scaled
};
struct ReadoutTable {
  std::vector<std::string> header;  // the rows' names' column, then measured unscaled and scaled (theory)
  std::vector<ReadoutRow> rows;
};

// What the experiment is, with its sample count and d_k ("20000 random pairs q, k …"), or that it has not run yet.
std::string variance_intro(Lang lang, const VarianceRow& v);
ReadoutTable variance_readouts(Lang lang, const VarianceRow& v);
// A measured variance's standard deviation (0 for a variance not yet measured).
double sd_of(double var);

}  // namespace attn
