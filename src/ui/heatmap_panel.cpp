// heatmap_panel.cpp — the attention matrix as a GPU-colormapped texture with labels, legend, hover.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/state/presets.h"
#include "render/heatmap.h"
#include "ui/axis_labels.h"
#include "ui/grid.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/tooltip.h"

namespace attn::ui {
namespace {

// Where the matrix goes in the window this frame: labels above and to the left when they fit,
// per-row entropy at the right, the legend below.
struct HeatmapLayout {
  int n = 0, m = 0;
  bool labels = false, row_entropy = false;
  float cell = 0;
  ImVec2 origin, p0, size;  // origin: the labels' corner; p0: the matrix's
  ImDrawList* dl = nullptr;
};

// The largest map whose cells always show their weights.
constexpr int kNumberedUpTo = 16;

HeatmapLayout heatmap_layout(int n, int m) {
  HeatmapLayout L;
  L.n = n;
  L.m = m;
  L.labels = n <= 64 && m <= 64;
  // Margins in the font's own units, so a larger text size gets room instead of being cut off.
  const float em = ImGui::GetFontSize(), line = ImGui::GetTextLineHeight();
  const float label_w = L.labels ? 5.4f * em : 0.0f, label_h = L.labels ? line + 3 : 0.0f;
  L.row_entropy = n <= 64;  // per-row entropy at the right of each row
  const float entropy_w = L.row_entropy ? ImGui::CalcTextSize("H 0.00").x + 10 : 0.0f;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float legend_h = 2 * line + 8 + ImGui::GetFrameHeightWithSpacing();  // the scale, then its checkbox
  const float fit = std::min((avail.x - label_w - entropy_w) / m, (avail.y - label_h - legend_h) / n);
  // Never smaller than what keeps each weight's number (up to the lessons' 16 × 16) or each row's name (up to 64)
  // readable: a short panel — a zoomed page, a docked lesson — scrolls instead of shrinking the map to a thumbnail.
  const float keep = n <= kNumberedUpTo && m <= kNumberedUpTo ? ImGui::CalcTextSize("0.00").x + 4
                     : L.labels                               ? line
                                                              : 0.5f;
  L.cell = std::max(keep, fit);
  L.origin = ImGui::GetCursorScreenPos();
  L.p0 = ImVec2(L.origin.x + label_w, L.origin.y + label_h);
  L.size = ImVec2(L.cell * m, L.cell * n);
  L.dl = ImGui::GetWindowDrawList();
  return L;
}

class HeatmapPanel : public Panel {
 public:
  // Cells never shrink below readable (heatmap_layout): a panel narrower than the map scrolls sideways to it.
  int window_flags() const override { return ImGuiWindowFlags_HorizontalScrollbar; }
  void draw(PanelContext& ctx) override {
    State& s = ctx.state;
    const AppResult& r = ctx.result;
    const HeadResult& h = r.core.first_head();
    const int n = static_cast<int>(h.weights.rows()), m = static_cast<int>(h.weights.cols());
    if (n == 0 || m == 0) {
      ImGui::TextDisabled("%s", ctx.tr("common.nothing_to_show"));
      return;
    }
    upload(s, r, h, n, m);
    const HeatmapLayout L = heatmap_layout(n, m);
    if (L.labels) axis_labels(s, r, L);
    matrix_image(ctx, s, r, h, L);
    cell_numbers(h, L);
    slip_marks(s, h, L);
    if (L.row_entropy && L.cell >= 11.0f) row_entropies(ctx, h, L);
    row_outline(s, L);
    legend(ctx, s, L);
    ImGui::SetCursorScreenPos(ImVec2(L.p0.x, ImGui::GetCursorScreenPos().y));
    if (ui::Control c(ctx, ControlId::heatmap_scale); !c.hidden()) {
      ctx.app.item_labels[control_id(ControlId::heatmap_scale)] = "heatmap.row_scale";  // the DOM twin's name
      checkbox_wrapped(ctx.label("heatmap.row_scale", "row_scale"), &s.heatmap_row_scale);
      c.track();
      if (ImGui::IsItemHovered()) tooltip(ctx.tr("heatmap.row_scale.tip"));
    }
  }

 private:
  // Masked cells are sent as −1 so the shader can hatch them instead of showing weight 0.
  // With the row scale each row is divided by its largest weight, so the pattern of a long, nearly
  // uniform row (all ≈ 1/n) stays visible.
  void upload(const State& s, const AppResult& r, const HeadResult& h, int n, int m) {
    if (uploaded_ != r.revision || uploaded_row_scale_ != s.heatmap_row_scale) {
      values_.resize(static_cast<size_t>(n) * m);
      for (int i = 0; i < n; ++i) {
        const float top = h.max_weight(i);
        const float k = s.heatmap_row_scale && top > 0 ? 1.0f / top : 1.0f;
        for (int j = 0; j < m; ++j)
          values_[static_cast<size_t>(i) * m + j] = is_masked_logit(h.logits(i, j)) ? -1.0f : h.weights(i, j) * k;
      }
      uploaded_ = r.revision;
      uploaded_row_scale_ = s.heatmap_row_scale;
      ++upload_serial_;
    }
    renderer_.update(values_.data(), n, m, upload_serial_);
    if (!renderer_.error().empty())
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(bad_col()), "%s", renderer_.error().c_str());
  }

  // Column names shortened or thinned so they never run into each other (each stands over its own
  // column; the full token shows on hover); row names cut to the label margin.
  void axis_labels(const State& s, const AppResult& r, const HeatmapLayout& L) {
    AxisLabels a;
    a.origin = ImVec2(L.p0.x, L.origin.y);
    a.slot_w = L.cell;
    a.color = ImGui::GetColorU32(ImGuiCol_Text);
    const int hovered = draw_axis_labels(L.dl, r.col_labels, a);
    if (hovered >= 0) tooltip(r.col_labels[static_cast<size_t>(hovered)]);
    const float margin = L.p0.x - L.origin.x - 6;
    for (int i = 0; i < L.n; ++i) {
      const std::string t = fit_label(r.row_labels[static_cast<size_t>(i)], margin);
      const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
      const ImU32 col = i == s.selected_row ? highlight_col() : ImGui::GetColorU32(ImGuiCol_Text);
      L.dl->AddText(ImVec2(L.p0.x - ts.x - 6, L.p0.y + L.cell * (i + 0.5f) - ts.y * 0.5f), col, t.c_str());
    }
  }

  // Each weight written in its cell when the cell is big enough to hold "0.00", in black or white
  // whichever reads on that cell's colour (the viridis twin of the shader).
  void cell_numbers(const HeadResult& h, const HeatmapLayout& L) {
    const ImVec2 ts = ImGui::CalcTextSize("0.00");
    if (L.cell < ts.x + 4 || L.cell < ts.y + 2) return;
    char buf[16];
    for (int i = 0; i < L.n; ++i)
      for (int j = 0; j < L.m; ++j) {
        const float v = values_[static_cast<size_t>(i) * L.m + j];
        if (v < 0) continue;  // masked: the hatching says it
        std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(h.weights(i, j)));
        const ImVec2 c(L.p0.x + L.cell * (j + 0.5f) - ts.x * 0.5f, L.p0.y + L.cell * (i + 0.5f) - ts.y * 0.5f);
        L.dl->AddText(c, text_on(viridis_u32(v)), buf);
      }
  }

  // What a note printed wrong for this weight ("" if nothing): the end of the cell's tooltip.
  static std::string slip_note(const State& s, const HeadResult& h, int i, int j) {
    const NoteSlip* slip = slip_at(s, SlipMatrix::Weights, i, j, h.weights(i, j));
    return slip ? "\n\n" + slip_text(*slip, s.lang) : "";
  }

  // The cells whose weight a note printed wrong, marked as in the pipeline's grids. The slip table is
  // walked, not the cells: a 1024 × 1024 map costs no more per frame than a 3 × 3 one.
  void slip_marks(const State& s, const HeadResult& h, const HeatmapLayout& L) const {
    for (const NoteSlip& slip : note_slips()) {
      const int i = slip.row, j = slip.col;
      if (slip.matrix != SlipMatrix::Weights || i >= L.n || j >= L.m) continue;
      if (slip_at(s, SlipMatrix::Weights, i, j, h.weights(i, j)) != &slip) continue;
      slip_mark(L.dl, ImVec2(L.p0.x + L.cell * j, L.p0.y + L.cell * i),
                ImVec2(L.p0.x + L.cell * (j + 1) - 1, L.p0.y + L.cell * (i + 1) - 1),
                viridis_u32(values_[static_cast<size_t>(i) * L.m + j]));
    }
  }

  // The selected row: a dark and a light stroke, so the outline shows on every colour of the map.
  static void row_outline(const State& s, const HeatmapLayout& L) {
    const ImVec2 a(L.p0.x, L.p0.y + L.cell * s.selected_row),
        b(L.p0.x + L.size.x, L.p0.y + L.cell * (s.selected_row + 1));
    L.dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), IM_COL32(0, 0, 0, 255), 0, 0, 4.0f);
    L.dl->AddRect(a, b, IM_COL32(255, 255, 255, 255), 0, 0, 1.5f);
  }

  // The texture, with the hovered cell's numbers in a tooltip; a click selects the row.
  void matrix_image(PanelContext& ctx, State& s, const AppResult& r, const HeadResult& h, const HeatmapLayout& L) {
    ImGui::SetCursorScreenPos(L.p0);
    ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(renderer_.texture())), L.size);
    ctx.track(ControlId::heatmap_grid);
    if (!ImGui::IsItemHovered()) return;
    const ImVec2 mp = ImGui::GetMousePos();
    const int j = std::clamp(static_cast<int>((mp.x - L.p0.x) / L.cell), 0, L.m - 1);
    const int i = std::clamp(static_cast<int>((mp.y - L.p0.y) / L.cell), 0, L.n - 1);
    if (is_masked_logit(h.logits(i, j)))
      tooltip(ctx.trf("common.cell_masked", {{"query", r.row_labels[i]}, {"key", r.col_labels[j]}}));
    else
      tooltip((ctx.trf("heatmap.tip", {{"query", r.row_labels[i]},
                                       {"key", r.col_labels[j]},
                                       {"weight", fmt(h.weights(i, j))},
                                       {"logit", fmt(h.logits(i, j))},
                                       {"score", fmt(h.scores(i, j))}}) +
               slip_note(s, h, i, j)));
    if (ImGui::IsMouseClicked(0)) s.selected_row = i;
  }

  void row_entropies(const PanelContext& ctx, const HeadResult& h, const HeatmapLayout& L) {
    for (int i = 0; i < L.n; ++i) {
      char buf[24];
      const bool none = i < static_cast<int>(h.row_fully_masked.size()) && h.row_fully_masked[static_cast<size_t>(i)];
      if (none)
        std::snprintf(buf, sizeof buf, "%s", ctx.tr("heatmap.no_keys"));
      else
        std::snprintf(buf, sizeof buf, "H %.2f", static_cast<double>(h.entropy(i)));
      L.dl->AddText(ImVec2(L.p0.x + L.size.x + 6, L.p0.y + L.cell * (i + 0.5f) - 7),
                    ImGui::GetColorU32(ImGuiCol_TextDisabled), buf);
    }
  }

  // The 0–1 scale of the colormap, its caption and the saturation meter, then the space they take; all
  // in font units, and the caption goes under the bar when it does not fit beside it (large text).
  void legend(const PanelContext& ctx, const State& s, const HeatmapLayout& L) {
    ImDrawList* dl = L.dl;
    const float line = ImGui::GetTextLineHeight(), bar_h = std::round(line * 0.6f);
    const ImVec2 l0(L.p0.x, L.p0.y + L.size.y + 8);
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    const std::string caption = ctx.tr(s.heatmap_row_scale ? "heatmap.legend_row_scale" : "heatmap.legend");
    const float meter_w = meter_width(ctx);
    const float caption_w = std::max(ImGui::CalcTextSize(caption.c_str()).x, meter_w);
    const float min_bar = ImGui::CalcTextSize("0    0.5    max").x;  // its three labels apart
    const float beside_w = std::min(L.size.x, right - l0.x - caption_w - line);
    const bool beside = beside_w >= min_bar;
    const float lw = std::min(beside ? beside_w : std::max(min_bar, std::min(L.size.x, right - l0.x)), 20 * line);
    const int steps = 48;
    for (int k = 0; k < steps; ++k)
      dl->AddRectFilled(ImVec2(l0.x + lw * k / steps, l0.y), ImVec2(l0.x + lw * (k + 1) / steps + 0.5f, l0.y + bar_h),
                        viridis_u32((k + 0.5f) / steps));
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const char* top = s.heatmap_row_scale ? "max" : "1";
    const float label_y = l0.y + bar_h + 1;
    dl->AddText(ImVec2(l0.x, label_y), dim, "0");
    dl->AddText(ImVec2(l0.x + (lw - ImGui::CalcTextSize("0.5").x) * 0.5f, label_y), dim, "0.5");
    dl->AddText(ImVec2(l0.x + lw - ImGui::CalcTextSize(top).x, label_y), dim, top);
    const ImVec2 cap = beside ? ImVec2(l0.x + lw + line, l0.y) : ImVec2(l0.x, label_y + line + 2);
    dl->AddText(cap, dim, caption.c_str());
    saturation_meter(ctx, dl, ImVec2(cap.x, cap.y + line + 1), L.n);
    const float used = beside ? std::max(bar_h + 1 + line, 2 * line + 1) : bar_h + 1 + line + 2 + 2 * line + 1;
    ImGui::Dummy(ImVec2(L.size.x, used + 4));
  }

  // The meter's box is as tall and, with its text, as wide as one line of text.
  static float meter_width(const PanelContext& ctx) {
    const float line = ImGui::GetTextLineHeight();
    return 3.5f * line +
           ImGui::CalcTextSize(ctx.trf("heatmap.saturated", {{"count", "1024"}, {"rows", "1024"}}).c_str()).x;
  }

  // The share of rows that are nearly one-hot (app/playground/saturation.h says when).
  static void saturation_meter(const PanelContext& ctx, ImDrawList* dl, ImVec2 at, int n) {
    const int saturated = ctx.result.saturated_rows;
    const std::string meter =
        ctx.trf("heatmap.saturated", {{"count", std::to_string(saturated)}, {"rows", std::to_string(n)}});
    const float line = ImGui::GetTextLineHeight(), fw = 3 * line;
    const float y0 = at.y + line * 0.2f, y1 = at.y + line * 0.8f;
    dl->AddRect(ImVec2(at.x, y0), ImVec2(at.x + fw, y1), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    dl->AddRectFilled(ImVec2(at.x, y0), ImVec2(at.x + fw * saturated / std::max(1, n), y1), alarm_col());
    dl->AddText(ImVec2(at.x + fw + line * 0.5f, at.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), meter.c_str());
  }

  HeatmapRenderer renderer_;
  std::vector<float> values_;
  uint64_t uploaded_ = ~0ull, upload_serial_ = 0;
  bool uploaded_row_scale_ = false;
};

}  // namespace

std::unique_ptr<Panel> make_heatmap_panel() { return std::make_unique<HeatmapPanel>(); }

}  // namespace attn::ui
