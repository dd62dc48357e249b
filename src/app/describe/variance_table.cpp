// variance_table.cpp — the Variance lab's readouts (variance_table.h).
#include "app/describe/variance_table.h"

#include <cmath>

#include "core/attention/montecarlo.h"

namespace attn {
double sd_of(double var) { return var > 0 ? std::sqrt(var) : 0.0; }

std::string variance_intro(Lang lang, const VarianceRow& v) {
  if (v.samples <= 0 || v.d_k <= 0) return tr(lang, "variance.not_run");
  return tr_format(lang, v.d_k < 8 ? "variance.intro_small" : "variance.intro",
                   {{"samples", std::to_string(v.samples)}, {"d_k", std::to_string(v.d_k)}});
}

ReadoutTable variance_readouts(Lang lang, const VarianceRow& v) {
  const double dk = v.d_k;
  const std::string d_k = std::to_string(v.d_k);
  ReadoutTable t;
  t.header = {tr(lang, "variance.col.measured"), tr(lang, "variance.col.unscaled"), tr(lang, "variance.col.scaled")};
  t.rows = {
      {tr(lang, "variance.row.mean"), {{format_shown(v.mean_unscaled), "0"}, {format_shown(v.mean_scaled), "0"}}},
      {tr(lang, "variance.row.variance"), {{format_shown(v.var_unscaled), d_k}, {format_shown(v.var_scaled), "1"}}},
      {tr(lang, "variance.row.variance_dk"), {{format_shown(v.var_unscaled / dk), "1"}, {"—", ""}}},
      {tr(lang, "variance.row.std"),
       {{format_shown(sd_of(v.var_unscaled)), format_shown(std::sqrt(dk))}, {format_shown(sd_of(v.var_scaled)), "1"}}}};
  return t;
}

}  // namespace attn
