// mask_panel.cpp — causal mask, a paintable n×n mask and per-key padding, with each row's renormalised weights.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "core/attention/attention.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/tooltip.h"

namespace attn::ui {
namespace {

// Where the grid goes this frame: row labels on the left when they fit, row sums on the right.
struct MaskGrid {
  int n = 0, m = 0;
  bool labels = false;
  float cell = 0;
  ImVec2 p0;
  ImDrawList* dl = nullptr;
};

MaskGrid mask_grid_layout(int n, int m) {
  MaskGrid G;
  G.n = n;
  G.m = m;
  G.labels = n <= 32 && m <= 32;
  const float label_w = G.labels ? 60.0f : 0.0f, stats_w = 150.0f;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  G.cell = std::clamp(std::min((avail.x - label_w - stats_w) / m, (avail.y - 8) / n), 2.0f, 40.0f);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  G.p0 = ImVec2(origin.x + label_w, origin.y);
  G.dl = ImGui::GetWindowDrawList();
  return G;
}

class MaskPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    State& s = ctx.state;
    const AppResult& r = ctx.result;
    // Random states keep their masks in the State; a preset's or imported scenario keeps them in
    // the scenario itself (n queries × m keys, m may differ from n).
    const bool random = s.mode == InputMode::Random;
    MaskKind& mask = random ? s.mask : s.explicit_scenario.mask;
    std::vector<bool>& padding = random ? s.key_padding : s.explicit_scenario.key_padding;
    std::optional<MaskMat>& cells = random ? s.mask_cells : s.explicit_scenario.mask_cells;
    const HeadResult& h = r.core.first_head();
    const int n = static_cast<int>(h.weights.rows()), m = static_cast<int>(h.weights.cols());
    const bool fits = n > 0 && m > 0 && (!random || (n == s.embeddings.rows() && m == n));

    const LockScope lock(ctx, ControlId::mask);  // embed mode: causal, padding and the grid drawn disabled
    mask_buttons(ctx, mask);
    if (!r.core.heads.empty())
      ImGui::TextDisabled("%s", ctx.trf("masks.head_shown", {{"heads", std::to_string(r.core.heads.size())}}).c_str());
    if (!fits) {
      ImGui::TextDisabled("%s", ctx.tr("common.nothing_to_show"));
      return;
    }
    padding_toggles(ctx, r, padding, m);
    grid(ctx, r, h, cells, mask_grid_layout(n, m));
  }

 private:
  void mask_buttons(PanelContext& ctx, MaskKind& mask) {
    bool causal = mask == MaskKind::Causal;
    if (ImGui::Checkbox(ctx.label("masks.causal", "causal").c_str(), &causal))
      mask = causal ? MaskKind::Causal : MaskKind::None;
    ctx.track(ControlId::mask);
    const std::string clear_cells = ctx.label("masks.clear_cells", "clear_cells");
    same_line_if_fits(button_width(clear_cells));
    if (ImGui::Button(clear_cells.c_str())) clear_mask_cells(ctx.state);  // the twin's action too (panel_actions)
    ctx.track(ControlId::masks_clear_cells);
    const std::string clear_padding = ctx.label("masks.clear_padding", "clear_padding");
    same_line_if_fits(button_width(clear_padding));
    if (ImGui::Button(clear_padding.c_str())) clear_key_padding(ctx.state);
    ctx.track(ControlId::masks_clear_padding);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped(ctx.tr("masks.hint"));
    ImGui::PopStyleColor();
  }

  // Padding toggles, one per key.
  void padding_toggles(PanelContext& ctx, const AppResult& r, std::vector<bool>& padding, int m) {
    ImGui::TextUnformatted(ctx.tr("masks.padding"));
    const std::vector<std::string>& cols = r.col_labels;
    for (int j = 0; j < m; ++j) {
      bool pad = j < static_cast<int>(padding.size()) && padding[static_cast<size_t>(j)];
      const std::string label =
          (j < static_cast<int>(cols.size()) ? cols[static_cast<size_t>(j)] : "k") + "##pad" + std::to_string(j);
      // As many keys to a line as the panel's width holds (a narrow panel wraps them instead of cutting them).
      if (j > 0) same_line_if_fits(checkbox_width(label));
      if (ImGui::Checkbox(label.c_str(), &pad)) {
        if (static_cast<int>(padding.size()) != m) padding.assign(static_cast<size_t>(m), false);
        padding[static_cast<size_t>(j)] = pad;
      }
      if (m <= 16) ctx.track(ControlFamily::mask_padding, std::to_string(j));
    }
  }

  // The grid: cell colour = weight; painted cells red, causal/padded cells grey.
  void grid(PanelContext& ctx, const AppResult& r, const HeadResult& h, std::optional<MaskMat>& cells,
            const MaskGrid& G) {
    ImGui::SetCursorScreenPos(G.p0);
    ImGui::InvisibleButton("mask grid", ImVec2(G.cell * G.m, G.cell * G.n));
    mark_two_d_drag_surface();
    ctx.track(ControlId::masks_grid);
    paint(cells, G);
    const bool have = cells && cells->rows() == G.n && cells->cols() == G.m;
    for (int i = 0; i < G.n; ++i) {
      row_cells(ctx, h, have ? &*cells : nullptr, G, i);
      if (G.labels) {
        const std::string& t = r.row_labels[static_cast<size_t>(i)];
        const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
        G.dl->AddText(ImVec2(G.p0.x - ts.x - 6, G.p0.y + G.cell * (i + 0.5f) - ts.y * 0.5f),
                      ImGui::GetColorU32(ImGuiCol_Text), t.c_str());
      }
      if (G.cell >= 12) row_sums(ctx, h, G, i);
    }
    if (ImGui::IsItemHovered()) {
      const ImVec2 mp = ImGui::GetMousePos();
      const int j = std::clamp(static_cast<int>((mp.x - G.p0.x) / G.cell), 0, G.m - 1);
      const int i = std::clamp(static_cast<int>((mp.y - G.p0.y) / G.cell), 0, G.n - 1);
      tooltip(ctx.trf("common.cell_weight", {{"query", r.row_labels[static_cast<size_t>(i)]},
                                             {"key", r.col_labels[static_cast<size_t>(j)]},
                                             {"weight", fmt(h.weights(i, j))}}));
    }
  }

  // Dragging over the grid paints or erases cells; the first cell decides which.
  void paint(std::optional<MaskMat>& cells, const MaskGrid& G) {
    const bool painted_any = cells && cells->rows() == G.n && cells->cols() == G.m;
    auto painted = [&](int i, int j) { return painted_any && (*cells)(i, j) != 0; };
    if (!ImGui::IsItemActive()) return;
    const ImVec2 mp = ImGui::GetMousePos();
    const int j = static_cast<int>(std::floor((mp.x - G.p0.x) / G.cell));
    const int i = static_cast<int>(std::floor((mp.y - G.p0.y) / G.cell));
    if (i >= 0 && i < G.n && j >= 0 && j < G.m) {
      if (ImGui::IsItemActivated()) paint_value_ = !painted(i, j);
      if (!painted_any) cells = MaskMat::Zero(G.n, G.m);
      (*cells)(i, j) = paint_value_ ? 1 : 0;
    }
  }

  // Row i's cells; `cells` is the painted mask when it matches the grid's shape.
  void row_cells(PanelContext& ctx, const HeadResult& h, const MaskMat* cells, const MaskGrid& G, int i) {
    const float cell = G.cell;
    for (int j = 0; j < G.m; ++j) {
      const ImVec2 a(G.p0.x + cell * j, G.p0.y + cell * i), b(a.x + cell - 1, a.y + cell - 1);
      const bool paint = cells && (*cells)(i, j) != 0;
      const bool blocked = is_masked_logit(h.logits(i, j));
      ImU32 col;
      if (paint)
        col = IM_COL32(170, 50, 50, 255);
      else if (blocked)
        col = IM_COL32(80, 80, 80, 255);
      else
        col = viridis_u32(h.weights(i, j));
      G.dl->AddRectFilled(a, b, col);
      if (cell >= 34) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%.2f", h.weights(i, j));
        G.dl->AddText(ImVec2(a.x + 2, a.y + cell * 0.5f - 7), text_on(col), buf);
      }
      if (G.n <= 16 && G.m <= 16)
        ctx.track_rect(ControlFamily::mask_cell, std::to_string(i) + "," + std::to_string(j), a.x, a.y, cell, cell);
    }
  }

  // Each row's sum and entropy: the renormalisation, made visible.
  void row_sums(const PanelContext& ctx, const HeadResult& h, const MaskGrid& G, int i) {
    char buf[64];
    const bool none = i < static_cast<int>(h.row_fully_masked.size()) && h.row_fully_masked[static_cast<size_t>(i)];
    if (none)
      std::snprintf(buf, sizeof buf, "%s", ctx.tr("masks.no_keys"));
    else
      std::snprintf(buf, sizeof buf, "Σ %.3f  H %.2f  max %.2f", static_cast<double>(h.weights.row(i).sum()),
                    static_cast<double>(h.entropy(i)), static_cast<double>(h.max_weight(i)));
    G.dl->AddText(ImVec2(G.p0.x + G.cell * G.m + 8, G.p0.y + G.cell * (i + 0.5f) - 7),
                  none ? warn_col() : ImGui::GetColorU32(ImGuiCol_TextDisabled), buf);
  }

 private:
  bool paint_value_ = true;
};

}  // namespace

std::unique_ptr<Panel> make_masks_panel() { return std::make_unique<MaskPanel>(); }

}  // namespace attn::ui
