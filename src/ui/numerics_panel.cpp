// numerics_panel.cpp — why softmax subtracts the row maximum: the selected row's unscaled logits through
// float32 exp without it overflow to inf (and inf/inf = NaN), while the stable form stays exact.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/panels.h"
#include "ui/plot.h"

namespace attn::ui {
namespace {

// Text for a float that may be inf or NaN: these are shown as labels, never plotted.
std::string show(float v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", static_cast<double>(v));
  return buf;
}

// One row's logits through float32 exp as written (naive) and with the row maximum subtracted (stable).
struct RowSoftmax {
  std::vector<float> x, naive, stable;  // logits (masked = −inf), exp(x), the stable softmax
  float naive_sum = 0;
  float mx = -INFINITY;
};

RowSoftmax row_softmax(const HeadResult& h, int row, int m, float multiplier) {
  RowSoftmax sm;
  const size_t len = static_cast<size_t>(m);
  sm.x.resize(len);
  sm.naive.resize(len);
  sm.stable.resize(len);
  for (size_t j = 0; j < len; ++j) {
    const bool blocked = is_masked_logit(h.logits(row, static_cast<int>(j)));
    sm.x[j] = blocked ? -INFINITY : h.scores(row, static_cast<int>(j)) * multiplier;
    sm.mx = std::max(sm.mx, sm.x[j]);
  }
  for (size_t j = 0; j < len; ++j) {
    sm.naive[j] = std::exp(sm.x[j]);  // float exp: may be inf
    sm.naive_sum += sm.naive[j];
  }
  double stable_sum = 0;
  for (size_t j = 0; j < len; ++j)
    stable_sum += std::isfinite(sm.mx) ? std::exp(static_cast<double>(sm.x[j] - sm.mx)) : 0.0;
  for (size_t j = 0; j < len; ++j)
    sm.stable[j] =
        stable_sum > 0 ? static_cast<float>(std::exp(static_cast<double>(sm.x[j] - sm.mx)) / stable_sum) : 0.0f;
  return sm;
}

class NumericsPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    State& s = ctx.state;
    const AppResult& r = ctx.result;
    const HeadResult& h = r.core.heads.empty() ? r.core.main : r.core.heads.front();
    const int n = static_cast<int>(h.scores.rows()), m = static_cast<int>(h.scores.cols());
    if (n == 0 || m == 0) {
      ImGui::TextDisabled("%s", ctx.tr("common.nothing_to_show"));
      return;
    }
    const int row = std::clamp(s.selected_row, 0, n - 1);
    text_wrapped(ctx.trf("numerics.intro", {{"row", r.row_labels[static_cast<size_t>(row)]},
                                            {"d_k", show(static_cast<float>(r.core.d_k))}}));
    ImGui::SliderFloat(ctx.label("numerics.multiplier", "multiplier").c_str(), &multiplier_, 1.0f, 100.0f, "×%.1f",
                       ImGuiSliderFlags_Logarithmic);
    ctx.track("Logit multiplier");

    const RowSoftmax sm = row_softmax(h, row, m, multiplier_);
    int overflowed = 0, nans = 0;
    table(ctx, r, sm, overflowed, nans);
    // Wrapped, never clipped: the messages are sentences and the panel may be narrow.
    text_wrapped(ctx.trf("numerics.max_sum", {{"max", show(sm.mx)}, {"sum", show(sm.naive_sum)}}));
    if (overflowed || nans) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.5f, 0.3f, 1));
      text_wrapped(
          ctx.trf("numerics.overflowed", {{"overflowed", std::to_string(overflowed)}, {"nans", std::to_string(nans)}}));
      ImGui::PopStyleColor();
    } else {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      text_wrapped(ctx.tr("numerics.no_overflow"));
      ImGui::PopStyleColor();
    }
  }

 private:
  // Every key's logit, exp and both softmaxes; counts the infinite exps and NaN weights while drawing.
  void table(const PanelContext& ctx, const AppResult& r, const RowSoftmax& sm, int& overflowed, int& nans) {
    const int m = static_cast<int>(sm.x.size());
    if (!ImGui::BeginTable(
            "numerics", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY,
            ImVec2(0, std::min(24.0f * (std::min(m, 64) + 1) + 4, ImGui::GetContentRegionAvail().y - 70))))
      return;
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const char* key :
         {"numerics.col.key", "numerics.col.logit", "numerics.col.exp", "numerics.col.naive", "numerics.col.stable"})
      ImGui::TableSetupColumn(ctx.tr(key));
    ImGui::TableHeadersRow();
    for (int j = 0; j < m; ++j) {
      const float e = sm.naive[static_cast<size_t>(j)];
      const float p = sm.naive_sum == 0 ? NAN : e / sm.naive_sum;  // 0/0 and inf/inf are NaN, as in float code
      if (std::isinf(e)) ++overflowed;
      if (std::isnan(p)) ++nans;
      if (j >= 64) continue;  // count all, show the first 64
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.col_labels[static_cast<size_t>(j)].c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(show(sm.x[static_cast<size_t>(j)]).c_str());
      ImGui::TableNextColumn();
      if (std::isinf(e))
        ImGui::TextColored(ImVec4(1, 0.5f, 0.3f, 1), "%s", show(e).c_str());
      else
        ImGui::TextUnformatted(show(e).c_str());
      ImGui::TableNextColumn();
      if (std::isnan(p))
        ImGui::TextColored(ImVec4(1, 0.3f, 0.3f, 1), "NaN");
      else
        ImGui::TextUnformatted(show(p).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(show(sm.stable[static_cast<size_t>(j)]).c_str());
    }
    ImGui::EndTable();
  }

  float multiplier_ = 1.0f;
};

}  // namespace

std::unique_ptr<Panel> make_numerics_panel() { return std::make_unique<NumericsPanel>(); }

}  // namespace attn::ui
