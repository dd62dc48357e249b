// warnings.cpp — a fully masked row, overflowing logits or scores, infinite outputs, from the catalog.
#include "app/describe/warnings.h"

#include <cstdio>

#include "app/playground/playground.h"

namespace attn {

namespace {
std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

void head_warnings(const HeadResult& h, int head, int heads, double temperature, Lang lang,
                   std::vector<std::string>& out) {
  // "head 2: …" only when there are several heads, as core words it (heads counted from 1 here).
  const std::string prefix = heads > 1 ? tr_format(lang, "warning.head", {{"head", std::to_string(head + 1)}}) : "";
  if (h.logits_overflowed)
    out.push_back(prefix + tr_format(lang, "warning.logits_overflow", {{"temperature", number(temperature)}}));
  if (h.undefined_scores > 0)
    out.push_back(prefix +
                  tr_format(lang, "warning.undefined_scores", {{"count", std::to_string(h.undefined_scores)}}));
  if (h.infinite_scores > 0)
    out.push_back(prefix + tr_format(lang, "warning.infinite_scores", {{"count", std::to_string(h.infinite_scores)}}));
}
}  // namespace

std::vector<std::string> result_warnings(const AppResult& ar, double temperature, Lang lang) {
  const Result& r = ar.core;
  std::vector<std::string> out;
  const std::vector<bool>& fully = r.main.row_fully_masked;
  for (size_t i = 0; i < fully.size(); ++i)
    if (fully[i])
      out.push_back(tr_format(lang, "warning.row_masked",
                              {{"row", i < ar.row_labels.size() ? ar.row_labels[i] : std::to_string(i + 1)}}));
  const int heads = static_cast<int>(r.heads.size());
  if (heads == 0)
    head_warnings(r.main, 0, 1, temperature, lang, out);
  else
    for (int k = 0; k < heads; ++k) head_warnings(r.heads[static_cast<size_t>(k)], k, heads, temperature, lang, out);
  if (r.output.size() > 0 && !r.output.allFinite()) out.push_back(tr(lang, "warning.output_infinite"));
  return out;
}

}  // namespace attn
