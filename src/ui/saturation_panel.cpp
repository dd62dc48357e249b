// saturation_panel.cpp — the selected row's softmax with and without ÷√d_k, and how it saturates as d_k grows.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/describe/summary.h"
#include "ui/axis_labels.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/tooltip.h"

namespace attn::ui {
namespace {

const HeadResult* first_head(const Result& r) {
  const HeadResult& h = r.first_head();
  return h.weights.size() > 0 ? &h : nullptr;
}

// Keys the row may attend to (masked ones are out of the competition, so log m counts the rest).
int live_keys(const HeadResult& h, int row) { return row_saturation(h, row).live_keys; }

class SaturationPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    State& s = ctx.state;
    const AppResult& r = ctx.result;
    const HeadResult* cur = first_head(r.core);
    const HeadResult* other = first_head(r.flipped);
    const int row = s.selected_row;
    if (!cur || row < 0 || row >= cur->weights.rows()) {
      ImGui::TextDisabled("%s", ctx.tr("common.nothing_to_show"));
      return;
    }
    // The flipped result may hold only the selected row (long sequences): its rows start at flipped_row.
    const int other_row = row - r.flipped_row;
    if (other && (other_row < 0 || other_row >= other->weights.rows() || other->weights.cols() != cur->weights.cols()))
      other = nullptr;
    // Fixed places: unscaled on the left, scaled on the right, whichever is current.
    const HeadResult* unscaled = s.scale ? other : cur;
    const HeadResult* scaled = s.scale ? cur : other;
    const int unscaled_row = s.scale ? other_row : row, scaled_row = s.scale ? row : other_row;
    ImGui::TextUnformatted(ctx.trf(r.core.heads.empty() ? "saturation.title" : "saturation.title_head",
                                   {{"query", r.row_labels[static_cast<size_t>(row)]},
                                    {"row", learner_index(row)},
                                    {"d_k", fmt(r.core.d_k, 0)}})
                               .c_str());

    if (ImGui::BeginTable("bars", 2, ImGuiTableFlags_SizingStretchSame)) {
      ImGui::TableNextColumn();
      distribution(ctx, "unscaled", ctx.tr("saturation.without"), unscaled, !s.scale, unscaled_row, row, r,
                   unscaled_col());
      ImGui::TableNextColumn();
      distribution(ctx, "scaled", ctx.tr("saturation.with"), scaled, s.scale, scaled_row, row, r, scaled_col());
      ImGui::EndTable();
    }
    if (s.mode == InputMode::Explicit && s.explicit_scenario.score == ScoreKind::Additive)
      text_wrapped(ctx.tr("saturation.additive"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    readouts(ctx, unscaled, unscaled_row, scaled, scaled_row);
    section_header(ctx.tr("saturation.as_dk_grows"));
    curves(ctx, r);
  }

 private:
  // `row` indexes h (which may hold only the selected row); `query` is the query's row in the sentence.
  void distribution(PanelContext& ctx, const char* id, const char* name, const HeadResult* h, bool current, int row,
                    int query, const AppResult& r, ImU32 col) {
    ImGui::Text("%s%s", name, current ? ctx.tr("saturation.current") : "");
    if (!h) {
      text_wrapped(ctx.tr("saturation.not_available"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
      return;
    }
    // A line of its own in both columns, so the two charts stay level whichever is saturated.
    const RowSaturation sat = row_saturation(*h, row);
    if (sat.no_keys)
      text_wrapped(ctx.tr("saturation.no_keys"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    else if (sat.single_key)
      text_wrapped(ctx.tr("saturation.one_key"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    else if (sat.saturated)
      badge(ctx.tr("saturation.badge"), IM_COL32(215, 45, 40, 255), IM_COL32(255, 255, 255, 255));
    else
      text_wrapped(ctx.tr("saturation.not_saturated"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    const int m = static_cast<int>(h->weights.cols());
    Axis xa{0, static_cast<double>(m), false, false};
    ImVec2 p0, p1;
    int hovered = -1;
    {
      Plot p(id, ImGui::GetFontSize() * 7, xa, Axis{0, 1});
      const double gap = m <= 32 ? 0.15 : 0.0;
      for (int j = 0; j < m; ++j)
        p.bar(j + gap, j + 1 - gap, h->weights(row, j), current ? col : (col & 0x00FFFFFF) | 0xA0000000);
      if (p.hovered()) hovered = std::clamp(static_cast<int>(p.x_of(p.mouse_x())), 0, m - 1);
      p0 = p.min();
      p1 = p.max();
    }
    ctx.track(ControlFamily::saturation_bars, id);
    // A name under every bar, shortened to the bar's width (thinned only when not even one letter
    // fits); the tooltip names any bar in full.
    if (m <= 64) {
      AxisLabels labels;
      labels.origin = ImVec2(p0.x, p1.y + 1);
      labels.slot_w = (p1.x - p0.x) / static_cast<float>(std::max(1, m));
      labels.color = ImGui::GetColorU32(ImGuiCol_TextDisabled);
      const int under = draw_axis_labels(ImGui::GetWindowDrawList(), r.col_labels, labels);
      if (hovered < 0 && under >= 0) hovered = under;
    }
    if (hovered >= 0) {
      const bool masked = is_masked_logit(h->logits(row, hovered));
      const std::string& q = r.row_labels[static_cast<size_t>(query)];
      const std::string& k = r.col_labels[static_cast<size_t>(hovered)];
      tooltip(masked ? ctx.trf("common.cell_masked", {{"query", q}, {"key", k}})
                     : ctx.trf("common.cell_weight",
                               {{"query", q}, {"key", k}, {"weight", fmt(h->weights(row, hovered))}}));
    }
  }

  void readouts(const PanelContext& ctx, const HeadResult* unscaled, int unscaled_row, const HeadResult* scaled,
                int scaled_row) {
    if (!ImGui::BeginTable("readouts", 3, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) return;
    // The names column fits its longest name; the two value columns share the rest.
    float names_w = 0;
    for (const char* key : {"saturation.entropy", "saturation.max_weight", "saturation.jacobian"})
      names_w = std::max(names_w, ImGui::CalcTextSize(ctx.tr(key)).x);
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, names_w + 4);
    ImGui::TableSetupColumn(ctx.tr("saturation.unscaled"), ImGuiTableColumnFlags_WidthStretch, 1.2f);
    ImGui::TableSetupColumn("÷√d_k", ImGuiTableColumnFlags_WidthStretch, 1.2f);
    ImGui::TableHeadersRow();
    const HeadResult* hs[2] = {unscaled, scaled};
    const int rows[2] = {unscaled_row, scaled_row};
    auto stat = [&](const char* name, const char* tip, auto value) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(name);
      if (ImGui::IsItemHovered()) tooltip(tip);
      for (int k = 0; k < 2; ++k) {
        ImGui::TableNextColumn();
        if (!hs[k] || rows[k] < 0 || rows[k] >= hs[k]->entropy.size())
          ImGui::TextDisabled("—");
        else
          value(*hs[k], rows[k]);
      }
    };
    stat(ctx.tr("saturation.entropy"), ctx.tr("saturation.entropy.tip"), [&](const HeadResult& h, int row) {
      const int m = live_keys(h, row);
      const double e = h.entropy(row), lm = m > 1 ? std::log(static_cast<double>(m)) : 0.0;
      ImGui::TextUnformatted(ctx.trf("saturation.nats", {{"value", fmt(e)}}).c_str());
      if (lm > 0)
        ImGui::TextDisabled(
            "%s",
            ctx.trf("saturation.of_log", {{"percent", fmt(100.0 * e / lm, 1)}, {"m", std::to_string(m)}}).c_str());
    });
    stat(ctx.tr("saturation.max_weight"), ctx.tr("saturation.max_weight.tip"), [&](const HeadResult& h, int row) {
      const float w = h.max_weight(row);
      if (w > kSaturatedMaxWeight)
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(bad_col()), "%s", fmt(w).c_str());
      else
        ImGui::Text("%s", fmt(w).c_str());
    });
    stat(ctx.tr("saturation.jacobian"), ctx.tr("saturation.jacobian.tip"),
         [&](const HeadResult& h, int row) { ImGui::Text("%s", fmt(h.jacobian_norm(row)).c_str()); });
    ImGui::EndTable();
  }

  void curves(PanelContext& ctx, const AppResult& r) {
    const DkSweep& sw = r.sweep;
    if (!sw.available || sw.d_k.empty()) {
      text_wrapped(ctx.trf("saturation.no_sweep", {{"d_k", fmt(r.core.d_k, 0)}}));
      return;
    }
    std::vector<double> xs(sw.d_k.begin(), sw.d_k.end());
    struct Metric {
      const char* id;
      const char* name;
      const std::vector<float>* y;
      double top;
    };
    double ent_top = 0.1, jac_top = 0.05;
    for (int k = 0; k < 2; ++k) {
      for (float v : sw.entropy[k]) ent_top = std::max(ent_top, static_cast<double>(v));
      for (float v : sw.jacobian[k]) jac_top = std::max(jac_top, static_cast<double>(v));
      for (float v : sw.band[0][k].hi) ent_top = std::max(ent_top, static_cast<double>(v));
      for (float v : sw.band[2][k].hi) jac_top = std::max(jac_top, static_cast<double>(v));
    }
    const Metric metrics[3] = {{"entropy", ctx.tr("saturation.curve.entropy"), sw.entropy, ent_top * 1.1},
                               {"max weight", ctx.tr("saturation.max_weight"), sw.max_weight, 1.05},
                               {"jacobian", ctx.tr("saturation.curve.jacobian"), sw.jacobian, jac_top * 1.1}};
    // One draw of W_Q, W_K wanders as d_k grows; the band says what is the trend and what is this draw.
    if (sw.draws > 0)
      text_wrapped(ctx.trf("saturation.band_note", {{"draws", std::to_string(sw.draws)}}),
                   ImGui::GetColorU32(ImGuiCol_TextDisabled));
    // With several heads the curve is head 1's, whose scores are divided by √(d_k per head): the axis
    // and the mark (r.core.d_k) are per head, and each point is the state at d_k = that × heads.
    const char* per_head = sw.heads > 1 ? ctx.tr("saturation.per_head") : "";
    for (const Metric& mt : metrics) {
      ImGui::TextDisabled("%s%s", ctx.trf("saturation.against", {{"metric", mt.name}}).c_str(), per_head);
      legend_row({{unscaled_col(), ctx.tr("saturation.unscaled")}, {scaled_col(), "÷√d_k"}});
      std::vector<double> ys[2];
      for (int k = 0; k < 2; ++k) ys[k].assign(mt.y[k].begin(), mt.y[k].end());
      Plot p(mt.id, ImGui::GetFontSize() * 7, Axis{1, 1024, true}, Axis{0, mt.top});
      const int m = static_cast<int>(&mt - metrics);
      for (int k = 0; k < 2 && sw.draws > 0; ++k) {
        const DkSweep::Band& b = sw.band[m][k];
        const ImU32 col = k == 0 ? unscaled_col() : scaled_col();
        p.band(xs, {b.lo.begin(), b.lo.end()}, {b.hi.begin(), b.hi.end()},
               (col & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 45));
        p.line(xs, {b.mean.begin(), b.mean.end()}, (col & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 150), 1.0f);
      }
      p.line(xs, ys[0], unscaled_col());
      p.line(xs, ys[1], scaled_col());
      p.vline(r.core.d_k, highlight_col(), 1.5f);
      if (mt.y == sw.max_weight) p.hline(kSaturatedMaxWeight, alarm_col());
      if (p.hovered()) {
        // Snap to the nearest sampled d_k (in log space, like the axis).
        const double mx = std::log(std::max(1.0, p.x_of(p.mouse_x())));
        size_t best = 0;
        for (size_t k = 1; k < xs.size(); ++k)
          if (std::fabs(std::log(xs[k]) - mx) < std::fabs(std::log(xs[best]) - mx)) best = k;
        p.vline(xs[best], ImGui::GetColorU32(ImGuiCol_Text, 0.5f));
        p.dot(xs[best], ys[0][best], unscaled_col(), 4);
        p.dot(xs[best], ys[1][best], scaled_col(), 4);
        tooltip(ctx.trf("saturation.curve.tip", {{"d_k", std::to_string(sw.d_k[best])},
                                                 {"unscaled", fmt(ys[0][best])},
                                                 {"scaled", fmt(ys[1][best])}}) +
                per_head);
      }
      if (ImGui::IsItemVisible()) ctx.track(ControlFamily::saturation_curve, mt.id);  // not when scrolled away
    }
  }
};

}  // namespace

std::unique_ptr<Panel> make_saturation_panel() { return std::make_unique<SaturationPanel>(); }

}  // namespace attn::ui
