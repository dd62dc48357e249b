// summary.cpp — the aria-live text: d_k, scaling, the selected row's weights, entropy, saturation,
// in the learner's language.
#include "app/describe/summary.h"

#include "app/playground/playground.h"

namespace attn {

std::string screen_summary(const Playground& pg, const std::vector<std::string>& withheld) {
  const State& s = pg.state;
  const Lang lang = s.lang;
  const Result& r = pg.result.core;
  const HeadResult& h = r.first_head();
  std::string out = tr_format(lang, "summary.settings",
                              {{"d_k", std::to_string(static_cast<int>(r.d_k))},
                               {"scaling", tr(lang, s.scale ? "summary.scaling_on" : "summary.scaling_off")},
                               {"temperature", format_fixed(s.temperature, 2)}}) +
                    " ";
  const int i = s.selected_row;
  for (const std::string& fact : withheld)
    if (fact == "weights" || fact == "saturation") return out + tr(lang, "summary.withheld");
  if (h.weights.rows() > i && i >= 0) {
    const auto& labels = pg.result.row_labels;
    const std::string name = i < static_cast<int>(labels.size()) ? labels[static_cast<size_t>(i)] : "";
    out += tr_format(lang, "summary.attends", {{"query", name}}) + " ";
    const auto& cols = pg.result.col_labels;
    const int m = static_cast<int>(h.weights.cols());
    for (int j = 0; j < m && j < 16; ++j)
      out += (j < static_cast<int>(cols.size()) ? cols[static_cast<size_t>(j)] : std::string()) + " " +
             format_fixed(100.0 * h.weights(i, j), 1) + "%" + (j + 1 < m ? ", " : ". ");
    if (m > 16) out += "… ";
    out += tr_format(lang, "summary.stats",
                     {{"entropy", format_fixed(h.entropy[i], 3)},
                      {"max_weight", format_fixed(h.max_weight[i], 3)},
                      {"jacobian", format_fixed(h.jacobian_norm[i], 3)}}) +
           " ";
    const RowSaturation sat = row_saturation(h, i);
    out += tr(lang, sat.single_key  ? "summary.single_key"
                    : sat.saturated ? "summary.saturated"
                                    : "summary.not_saturated");
  }
  return out;
}

}  // namespace attn
