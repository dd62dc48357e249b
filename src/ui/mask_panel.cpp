// mask_panel.cpp — causal mask, a paintable n×n mask and per-key padding, with each row's renormalised weights.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "core/attention.h"
#include "ui/panels.h"
#include "ui/plot.h"

namespace attn::ui {
namespace {

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
    const HeadResult& h = r.core.heads.empty() ? r.core.main : r.core.heads.front();
    const int n = static_cast<int>(h.weights.rows()), m = static_cast<int>(h.weights.cols());
    const bool fits = n > 0 && m > 0 && (!random || (n == s.embeddings.rows() && m == n));

    const LockScope lock(ctx, "mask");  // embed mode: causal, padding and the grid drawn disabled
    bool causal = mask == MaskKind::Causal;
    if (ImGui::Checkbox(ctx.label("masks.causal", "causal").c_str(), &causal))
      mask = causal ? MaskKind::Causal : MaskKind::None;
    ctx.track("Causal mask");
    ImGui::SameLine();
    if (ImGui::Button(ctx.label("masks.clear_cells", "clear_cells").c_str())) cells.reset();
    ctx.track("Clear painted cells");
    ImGui::SameLine();
    if (ImGui::Button(ctx.label("masks.clear_padding", "clear_padding").c_str())) padding.clear();
    ctx.track("Clear padding");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", ctx.tr("masks.hint"));
    ImGui::PopStyleColor();
    if (!r.core.heads.empty())
      ImGui::TextDisabled("%s", ctx.trf("masks.head_shown", {{"heads", std::to_string(r.core.heads.size())}}).c_str());
    if (!fits) {
      ImGui::TextDisabled("%s", ctx.tr("common.nothing_to_show"));
      return;
    }

    // Padding toggles, one per key.
    ImGui::TextUnformatted(ctx.tr("masks.padding"));
    const std::vector<std::string>& cols = r.col_labels;
    for (int j = 0; j < m; ++j) {
      bool pad = j < static_cast<int>(padding.size()) && padding[static_cast<size_t>(j)];
      if (j > 0 && j % 8 != 0) ImGui::SameLine();
      const std::string label =
          (j < static_cast<int>(cols.size()) ? cols[static_cast<size_t>(j)] : "k") + "##pad" + std::to_string(j);
      if (ImGui::Checkbox(label.c_str(), &pad)) {
        if (static_cast<int>(padding.size()) != m) padding.assign(static_cast<size_t>(m), false);
        padding[static_cast<size_t>(j)] = pad;
      }
      if (m <= 16) ctx.track("pad:" + std::to_string(j));
    }

    // The grid: cell colour = weight; painted cells red, causal/padded cells grey.
    const bool labels = n <= 32 && m <= 32;
    const float label_w = labels ? 60.0f : 0.0f, stats_w = 150.0f;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float cell = std::clamp(std::min((avail.x - label_w - stats_w) / m, (avail.y - 8) / n), 2.0f, 40.0f);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 p0(origin.x + label_w, origin.y);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImGui::SetCursorScreenPos(p0);
    ImGui::InvisibleButton("mask grid", ImVec2(cell * m, cell * n));
    ctx.track("mask grid");
    const bool painted_any = cells && cells->rows() == n && cells->cols() == m;
    auto painted = [&](int i, int j) { return painted_any && (*cells)(i, j) != 0; };
    if (ImGui::IsItemActive()) {
      const ImVec2 mp = ImGui::GetMousePos();
      const int j = static_cast<int>(std::floor((mp.x - p0.x) / cell));
      const int i = static_cast<int>(std::floor((mp.y - p0.y) / cell));
      if (i >= 0 && i < n && j >= 0 && j < m) {
        if (ImGui::IsItemActivated()) paint_value_ = !painted(i, j);  // the first cell decides paint or erase
        if (!painted_any) cells = MaskMat::Zero(n, m);
        (*cells)(i, j) = paint_value_ ? 1 : 0;
      }
    }
    const bool have = cells && cells->rows() == n && cells->cols() == m;
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < m; ++j) {
        const ImVec2 a(p0.x + cell * j, p0.y + cell * i), b(a.x + cell - 1, a.y + cell - 1);
        const bool paint = have && (*cells)(i, j) != 0;
        const bool blocked = is_masked_logit(h.logits(i, j));
        ImU32 col;
        if (paint)
          col = IM_COL32(170, 50, 50, 255);
        else if (blocked)
          col = IM_COL32(80, 80, 80, 255);
        else
          col = viridis_u32(h.weights(i, j));
        dl->AddRectFilled(a, b, col);
        if (cell >= 34) {
          char buf[16];
          std::snprintf(buf, sizeof buf, "%.2f", h.weights(i, j));
          dl->AddText(ImVec2(a.x + 2, a.y + cell * 0.5f - 7),
                      h.weights(i, j) > 0.6f ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255), buf);
        }
        if (n <= 16 && m <= 16)
          ctx.track_rect("mask:" + std::to_string(i) + "," + std::to_string(j), a.x, a.y, cell, cell);
      }
      if (labels) {
        const std::string& t = r.row_labels[static_cast<size_t>(i)];
        const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
        dl->AddText(ImVec2(p0.x - ts.x - 6, p0.y + cell * (i + 0.5f) - ts.y * 0.5f), ImGui::GetColorU32(ImGuiCol_Text),
                    t.c_str());
      }
      if (cell >= 12) {  // each row's sum and entropy: the renormalisation, made visible
        char buf[64];
        const bool none = i < static_cast<int>(h.row_fully_masked.size()) && h.row_fully_masked[static_cast<size_t>(i)];
        if (none)
          std::snprintf(buf, sizeof buf, "%s", ctx.tr("masks.no_keys"));
        else
          std::snprintf(buf, sizeof buf, "Σ %.3f  H %.2f  max %.2f", static_cast<double>(h.weights.row(i).sum()),
                        static_cast<double>(h.entropy(i)), static_cast<double>(h.max_weight(i)));
        dl->AddText(ImVec2(p0.x + cell * m + 8, p0.y + cell * (i + 0.5f) - 7),
                    none ? IM_COL32(255, 160, 80, 255) : ImGui::GetColorU32(ImGuiCol_TextDisabled), buf);
      }
    }
    if (ImGui::IsItemHovered()) {
      const ImVec2 mp = ImGui::GetMousePos();
      const int j = std::clamp(static_cast<int>((mp.x - p0.x) / cell), 0, m - 1);
      const int i = std::clamp(static_cast<int>((mp.y - p0.y) / cell), 0, n - 1);
      ImGui::SetTooltip("%s", ctx.trf("common.cell_weight", {{"query", r.row_labels[static_cast<size_t>(i)]},
                                                             {"key", r.col_labels[static_cast<size_t>(j)]},
                                                             {"weight", fmt(h.weights(i, j))}})
                                  .c_str());
    }
  }

 private:
  bool paint_value_ = true;
};

}  // namespace

std::unique_ptr<Panel> make_masks_panel() { return std::make_unique<MaskPanel>(); }

}  // namespace attn::ui
