// variance_panel.cpp — the variance argument measured: q·k histograms against N(0, d_k), and std against d_k.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/describe/variance_table.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/tooltip.h"

namespace attn::ui {
namespace {

constexpr double kPi = 3.14159265358979323846;

double normal_pdf(double x, double var) { return std::exp(-x * x / (2 * var)) / std::sqrt(2 * kPi * var); }

class VariancePanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    const AppResult& r = ctx.result;
    const VarianceRow& v = r.variance;
    if (v.samples <= 0 || v.d_k <= 0) {
      text_wrapped(variance_intro(ctx.state.lang, v), ImGui::GetColorU32(ImGuiCol_TextDisabled));
      return;
    }
    text_wrapped(variance_intro(ctx.state.lang, v));
    if (ImGui::RadioButton("q·k", !scaled_)) scaled_ = false;
    ctx.track(ControlId::variance_unscaled);
    ImGui::SameLine();
    if (ImGui::RadioButton("q·k ÷ √d_k", scaled_)) scaled_ = true;
    ctx.track(ControlId::variance_scaled);
    histogram(ctx, v);
    readouts(ctx, v);
    section_header(ctx.tr("variance.spread"));
    std_curve(ctx, r.std_curve, v.d_k);
  }

 private:
  void histogram(PanelContext& ctx, const VarianceRow& v) {
    const Histogram& h = scaled_ ? v.hist_scaled : v.hist_unscaled;
    const int bins = static_cast<int>(h.counts.size());
    if (bins == 0 || !(h.hi > h.lo)) return;
    const double var = scaled_ ? 1.0 : static_cast<double>(v.d_k);
    const double w = (h.hi - h.lo) / bins;
    // The density times samples × bin width is what a bin should count on average.
    const double peak = v.samples * w * normal_pdf(0, var);
    double top = peak;
    for (uint32_t c : h.counts) top = std::max(top, static_cast<double>(c));
    std::vector<double> xs, ys;
    for (int k = 0; k <= 120; ++k) {
      const double x = h.lo + (h.hi - h.lo) * k / 120.0;
      xs.push_back(x);
      ys.push_back(v.samples * w * normal_pdf(x, var));
    }
    const ImU32 col = scaled_ ? scaled_col() : unscaled_col();
    const std::string theory = scaled_ ? "N(0, 1)" : "N(0, d_k = " + std::to_string(v.d_k) + ")";
    legend_row({{col, ctx.trf("variance.measured", {{"what", scaled_ ? "q·k ÷ √d_k" : "q·k"}})},
                {ImGui::GetColorU32(ImGuiCol_Text), theory}});
    Plot p("hist", ImGui::GetFontSize() * 8, Axis{h.lo, h.hi}, Axis{0, top * 1.1});
    for (int b = 0; b < bins; ++b)
      p.bar(h.lo + w * b, h.lo + w * (b + 1) - w * 0.08, h.counts[static_cast<size_t>(b)],
            (col & 0x00FFFFFF) | 0xB0000000);
    p.line(xs, ys, ImGui::GetColorU32(ImGuiCol_Text), 2.0f);
    if (ImGui::IsItemVisible()) ctx.track(ControlId::variance_histogram);
    if (p.hovered()) {
      const int b = std::clamp(static_cast<int>((p.x_of(p.mouse_x()) - h.lo) / w), 0, bins - 1);
      const double a = h.lo + w * b, e = a + w;
      tooltip(ctx.trf("variance.bin_tip", {{"lo", fmt(a, 2)},
                                           {"hi", fmt(e, 2)},
                                           {"count", std::to_string(h.counts[static_cast<size_t>(b)])},
                                           {"theory", theory},
                                           {"expected", fmt(v.samples * w * normal_pdf((a + e) / 2, var), 1)}}) +
              (b == 0 || b == bins - 1 ? ctx.tr("variance.edge_bin") : ""));
    }
  }

  // Measured value with the theory beside it in grey, so the two are read together (the parallel DOM reads the same
  // table: app/describe/variance_table.h).
  static void readouts(const PanelContext& ctx, const VarianceRow& v) {
    const ReadoutTable t = variance_readouts(ctx.state.lang, v);
    if (!ImGui::BeginTable("stats", 3, ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_RowBg)) return;
    for (const std::string& h : t.header) ImGui::TableSetupColumn(h.c_str());
    ImGui::TableHeadersRow();
    for (const ReadoutRow& row : t.rows) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(row.name.c_str());
      for (const ReadoutCell& c : row.cells) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(c.value.c_str());
        if (c.theory.empty()) continue;
        ImGui::SameLine();
        ImGui::TextDisabled("(%s)", c.theory.c_str());
      }
    }
    ImGui::EndTable();
  }

  void std_curve(PanelContext& ctx, const std::vector<VarianceRow>& rows, int current_dk) {
    if (rows.empty()) return;
    std::vector<double> xs, measured, root, scaled;
    for (const VarianceRow& row : rows) {
      xs.push_back(row.d_k);
      measured.push_back(sd_of(row.var_unscaled));
      root.push_back(std::sqrt(static_cast<double>(row.d_k)));
      scaled.push_back(sd_of(row.var_scaled));
    }
    const ImU32 ref = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    ImGui::TextDisabled("%s", ctx.tr("variance.std_title"));
    legend_row({{unscaled_col(), "q·k"}, {ref, ctx.tr("variance.sqrt_dk_theory")}, {scaled_col(), "q·k ÷ √d_k (≈ 1)"}});
    Plot p("std", ImGui::GetFontSize() * 9, Axis{1, 1024, true}, Axis{0.25, 64, true});
    p.line(xs, root, ref, 4.0f);
    p.hline(1.0, ref, 1.0f);
    p.line(xs, measured, unscaled_col(), 2.0f);
    p.line(xs, scaled, scaled_col(), 2.0f);
    for (size_t k = 0; k < xs.size(); ++k) {
      p.dot(xs[k], measured[k], unscaled_col(), 2.5f);
      p.dot(xs[k], scaled[k], scaled_col(), 2.5f);
    }
    p.vline(current_dk, highlight_col(), 1.5f);
    if (ImGui::IsItemVisible())
      ctx.track(ControlId::variance_std_curve);  // a scrolled-away rect would point at another panel
    if (p.hovered()) {
      const double mx = std::log(std::max(1.0, p.x_of(p.mouse_x())));
      size_t best = 0;
      for (size_t k = 1; k < xs.size(); ++k)
        if (std::fabs(std::log(xs[k]) - mx) < std::fabs(std::log(xs[best]) - mx)) best = k;
      tooltip(ctx.trf("variance.curve_tip", {{"d_k", std::to_string(rows[best].d_k)},
                                             {"samples", std::to_string(rows[best].samples)},
                                             {"std", fmt(measured[best])},
                                             {"root", fmt(root[best])},
                                             {"std_scaled", fmt(scaled[best])}}));
    }
  }

  bool scaled_ = false;
};

}  // namespace

std::unique_ptr<Panel> make_variance_panel() { return std::make_unique<VariancePanel>(); }

}  // namespace attn::ui
