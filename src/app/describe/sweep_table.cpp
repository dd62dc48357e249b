// sweep_table.cpp — the Saturation panel's curves as a table (sweep_table.h).
#include "app/describe/sweep_table.h"

#include "app/playground/playground.h"

namespace attn {

std::vector<std::vector<std::string>> sweep_table(Lang lang, const DkSweep& sweep, int now) {
  std::vector<std::vector<std::string>> out;
  if (!sweep.available || sweep.d_k.empty()) return out;
  const std::string per_head = sweep.heads > 1 ? tr(lang, "saturation.per_head") : "";
  out.push_back({tr(lang, "a11y.sweep.d_k") + per_head, tr(lang, "a11y.sweep.max_unscaled"),
                 tr(lang, "a11y.sweep.max_scaled"), tr(lang, "a11y.sweep.entropy_unscaled"),
                 tr(lang, "a11y.sweep.entropy_scaled")});
  for (size_t i = 0; i < sweep.d_k.size(); ++i) {
    const std::string d_k = std::to_string(sweep.d_k[i]);
    const auto at = [&](const std::vector<float>& v) { return i < v.size() ? format_shown(v[i]) : "—"; };
    out.push_back({sweep.d_k[i] == now ? tr_format(lang, "a11y.sweep.now", {{"d_k", d_k}}) : d_k,
                   at(sweep.max_weight[0]), at(sweep.max_weight[1]), at(sweep.entropy[0]), at(sweep.entropy[1])});
  }
  return out;
}

}  // namespace attn
