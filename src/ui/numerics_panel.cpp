// numerics_panel.cpp — why softmax subtracts the row maximum: the selected row's unscaled logits through
// float32 exp without it overflow to inf (and inf/inf = NaN), while the stable form stays exact.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/playground/numerics.h"
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

class NumericsPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    State& s = ctx.state;
    const AppResult& r = ctx.result;
    const HeadResult& h = r.core.first_head();
    const int n = static_cast<int>(h.scores.rows()), m = static_cast<int>(h.scores.cols());
    if (n == 0 || m == 0) {
      ImGui::TextDisabled("%s", ctx.tr("common.nothing_to_show"));
      return;
    }
    const int row = std::clamp(s.selected_row, 0, n - 1);
    text_wrapped(ctx.trf("numerics.intro", {{"row", r.row_labels[static_cast<size_t>(row)]},
                                            {"d_k", show(static_cast<float>(r.core.d_k))}}));
    float multiplier = static_cast<float>(s.numerics_multiplier);
    if (ui::Control c(ctx, ControlId::numerics_multiplier); !c.hidden()) {
      const std::string multiplier_label = ctx.label("numerics.multiplier", ControlId::numerics_multiplier);
      ImGui::SetNextItemWidth(std::min(ImGui::CalcItemWidth(), width_beside_label(multiplier_label)));
      if (ImGui::SliderFloat(multiplier_label.c_str(), &multiplier, static_cast<float>(kMinLogitMultiplier),
                             static_cast<float>(kMaxLogitMultiplier), "×%.1f",
                             ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
        s.numerics_multiplier = multiplier;
      c.track();
    }

    const RowSoftmax sm = row_softmax(h, row, multiplier);
    table(ctx, r, sm);
    // Wrapped, never clipped: the messages are sentences and the panel may be narrow.
    text_wrapped(ctx.trf("numerics.max_sum", {{"max", show(sm.mx)}, {"sum", show(sm.naive_sum)}}));
    if (sm.overflowed || sm.nans) {
      ImGui::PushStyleColor(ImGuiCol_Text, warn_col());
      text_wrapped(ctx.trf("numerics.overflowed",
                           {{"overflowed", std::to_string(sm.overflowed)}, {"nans", std::to_string(sm.nans)}}));
      ImGui::PopStyleColor();
    } else {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      text_wrapped(ctx.tr("numerics.no_overflow"));
      ImGui::PopStyleColor();
    }
  }

 private:
  // Every key's logit, exp and both softmaxes (the first 64 keys).
  void table(const PanelContext& ctx, const AppResult& r, const RowSoftmax& sm) {
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
      if (j >= 64) break;
      const float e = sm.naive[static_cast<size_t>(j)];
      const float p = sm.naive_weight(static_cast<size_t>(j));
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.col_labels[static_cast<size_t>(j)].c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(show(sm.x[static_cast<size_t>(j)]).c_str());
      ImGui::TableNextColumn();
      if (std::isinf(e))
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(warn_col()), "%s", show(e).c_str());
      else
        ImGui::TextUnformatted(show(e).c_str());
      ImGui::TableNextColumn();
      if (std::isnan(p))
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(bad_col()), "NaN");
      else
        ImGui::TextUnformatted(show(p).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(show(sm.stable[static_cast<size_t>(j)]).c_str());
    }
    ImGui::EndTable();
  }
};

}  // namespace

std::unique_ptr<Panel> make_numerics_panel() { return std::make_unique<NumericsPanel>(); }

}  // namespace attn::ui
