// sweep_table.h — the Saturation panel's curves in numbers (the selected row as d_k grows, without and with
// ÷√d_k): a table a screen reader reads where a sighted learner reads the plots.
#pragma once

#include <string>
#include <vector>

#include "app/base/strings.h"  // Lang

namespace attn {
struct DkSweep;

// A header row, then one row per d_k the sweep computed: d_k, the largest weight unscaled and scaled, the entropy
// unscaled and scaled (the numbers the thick lines join). `now` marks the state's d_k. Empty when there is no sweep.
std::vector<std::vector<std::string>> sweep_table(Lang lang, const DkSweep& sweep, int now);

}  // namespace attn
