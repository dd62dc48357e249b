// summary.cpp — the aria-live text: d_k, scaling, the selected row's weights, entropy, saturation.
#include "app/summary.h"

#include <cstdio>

#include "app/app.h"

namespace attn {

std::string screen_summary(const App& app) {
  const State& s = app.state;
  const Result& r = app.result.core;
  const HeadResult& h = r.heads.empty() ? r.main : r.heads.front();
  std::string out;
  char buf[256];
  std::snprintf(buf, sizeof buf, "d_k = %d, scaling %s, temperature %.2f. ", static_cast<int>(r.d_k),
                s.scale ? "on (divide by square root of d_k)" : "off", s.temperature);
  out += buf;
  const int i = s.selected_row;
  if (h.weights.rows() > i && i >= 0) {
    const auto& labels = app.result.row_labels;
    const std::string name = i < static_cast<int>(labels.size()) ? labels[static_cast<size_t>(i)] : "";
    out += "Query " + name + " attends: ";
    const auto& cols = app.result.col_labels;
    const int m = static_cast<int>(h.weights.cols());
    for (int j = 0; j < m && j < 16; ++j) {
      std::snprintf(buf, sizeof buf, "%s %.1f%%%s",
                    j < static_cast<int>(cols.size()) ? cols[static_cast<size_t>(j)].c_str() : "",
                    100.0 * h.weights(i, j), j + 1 < m ? ", " : ". ");
      out += buf;
    }
    if (m > 16) out += "… ";
    std::snprintf(buf, sizeof buf, "Entropy %.3f nats, largest weight %.3f, gradient (Jacobian norm) %.3f. ",
                  h.entropy[i], h.max_weight[i], h.jacobian_norm[i]);
    out += buf;
    const RowSaturation sat = row_saturation(h, i);
    out += sat.single_key  ? "One key left: its weight is 1 whatever the scores, so this is not saturation."
           : sat.saturated ? "Saturated: softmax is nearly one-hot, gradients vanish."
                           : "Not saturated.";
  }
  return out;
}

}  // namespace attn
