// heads_panel.cpp — multi-head attention: h heads share the total width d_k, each head's heatmap and
// entropy side by side, then the concatenation and the output projection W_O.
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

// What trading h against the per-head width does, every option computed on the current state.
void heads_table(PanelContext& ctx, State& s, const AppResult& r) {
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("heads-tradeoff", 5, flags)) return;
  ImGui::TableSetupColumn("h");
  ImGui::TableSetupColumn(ctx.tr("heads.col.d_head"));
  ImGui::TableSetupColumn(ctx.tr("heads.col.mean_entropy"));
  ImGui::TableSetupColumn(ctx.tr("heads.col.entropies"));
  ImGui::TableSetupColumn(ctx.tr("heads.col.mean_max_weight"));
  ImGui::TableHeadersRow();
  for (const HeadsOption& o : r.heads_options) {
    ImGui::TableNextRow();
    if (o.heads == s.heads)
      ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, ImGui::GetColorU32(ImGuiCol_HeaderActive, 0.6f));
    ImGui::TableNextColumn();
    char label[16];
    std::snprintf(label, sizeof label, "%d", o.heads);
    bool pick = false;
    {
      const LockScope lock(ctx, ControlId::heads);
      pick = ImGui::Selectable(label, o.heads == s.heads, ImGuiSelectableFlags_SpanAllColumns);
    }
    if (pick) s.heads = o.heads;
    ctx.track(ControlFamily::heads_option, label);
    ImGui::TableNextColumn();
    ImGui::Text("%d (÷√%d)", o.d_head, o.d_head);
    ImGui::TableNextColumn();
    ImGui::Text("%.3f", static_cast<double>(o.mean_entropy));
    ImGui::TableNextColumn();
    ImGui::Text("%.2f … %.2f", static_cast<double>(o.min_head_entropy), static_cast<double>(o.max_head_entropy));
    ImGui::TableNextColumn();
    ImGui::Text("%.3f", static_cast<double>(o.mean_max_weight));
  }
  ImGui::EndTable();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped(ctx.tr("heads.tradeoff"));
  ImGui::PopStyleColor();
}

// The head count: a slider over the counts that divide both widths for a random state, else a note.
void head_count(PanelContext& ctx, State& s) {
  if (s.mode != InputMode::Random) {
    text_wrapped(ctx.trf("heads.fixed", {{"h", std::to_string(s.heads)}}));
    return;
  }
  // h can be any power of two that divides both widths: each head gets d_k/h and d_v/h columns.
  std::vector<int> options;
  for (int h = 1; h <= kMaxHeads; h *= 2)
    if (s.d_k % h == 0 && s.d_v % h == 0) options.push_back(h);
  if (std::find(options.begin(), options.end(), s.heads) == options.end()) {  // e.g. h = 3 set through the API
    options.push_back(s.heads);
    std::sort(options.begin(), options.end());
  }
  int idx = 0;
  for (size_t k = 0; k < options.size(); ++k)
    if (options[k] == s.heads) idx = static_cast<int>(k);
  char fmt[32];
  std::snprintf(fmt, sizeof fmt, "h = %d", options[static_cast<size_t>(idx)]);
  const LockScope lock(ctx, ControlId::heads);
  if (ImGui::SliderInt(ctx.label("heads.heads", ControlId::heads).c_str(), &idx, 0,
                       static_cast<int>(options.size()) - 1, fmt, ImGuiSliderFlags_AlwaysClamp))
    s.heads = options[static_cast<size_t>(std::clamp(idx, 0, static_cast<int>(options.size()) - 1))];
  ctx.track(ControlId::heads);
  text_wrapped(ctx.trf("heads.widths", {{"d_k", std::to_string(s.d_k)},
                                        {"d_v", std::to_string(s.d_v)},
                                        {"d_head", std::to_string(s.d_k / std::max(1, s.heads))},
                                        {"d_v_head", std::to_string(s.d_v / std::max(1, s.heads))}}));
}

// Each head's weights as a tile with its mean entropy, up to 16 of them, four to a row.
// Thumbnails of up to 16 heads' weights, then the concatenation and the output: pooled once per result.
struct HeadThumbnails {
  ThumbnailCache heads[16], concat, output;
};

void head_tiles(PanelContext& ctx, const Result& c, uint64_t revision, float avail, HeadThumbnails& pictures) {
  std::vector<const HeadResult*> heads;
  if (c.heads.empty())
    heads.push_back(&c.main);
  else
    for (const HeadResult& h : c.heads) heads.push_back(&h);
  const int shown = std::min(static_cast<int>(heads.size()), 16);
  // Up to four tiles to a row, as many as fit with their titles: a narrow panel wraps them instead of cutting them.
  const float least = std::max(
      60.0f,
      ImGui::CalcTextSize(ctx.trf("heads.head_title", {{"head", std::to_string(shown)}, {"h", "0.00"}}).c_str()).x);
  const int per_row =
      std::clamp(static_cast<int>((avail + 12.0f) / (least + 12.0f)), 1, std::max(1, std::min(shown, 4)));
  const float tile = std::clamp((avail - 12.0f * per_row) / per_row, least, 180.0f);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int k = 0; k < shown; ++k) {
    const HeadResult& h = *heads[static_cast<size_t>(k)];
    if (k % per_row != 0) ImGui::SameLine(0, 12);
    ImGui::BeginGroup();
    const double mean_h = h.entropy.size() ? static_cast<double>(h.entropy.mean()) : 0.0;
    ImGui::TextUnformatted(
        ctx.trf("heads.head_title", {{"head", std::to_string(k + 1)}, {"h", fmt(mean_h, 2)}}).c_str());
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    draw_thumbnail(dl, p0, tile, tile, pictures.heads[k].get(revision, h.weights, true), true);
    ImGui::Dummy(ImVec2(tile, tile));
    ctx.track(ControlFamily::head, std::to_string(k));
    ImGui::EndGroup();
  }
  if (static_cast<int>(heads.size()) > shown)
    ImGui::TextDisabled(
        "%s", ctx.trf("heads.first_shown", {{"shown", std::to_string(shown)}, {"total", std::to_string(heads.size())}})
                  .c_str());
}

// The heads' outputs side by side (concat) and what W_O makes of them.
void concat_and_output(const PanelContext& ctx, const Result& c, uint64_t revision, float avail,
                       HeadThumbnails& pictures) {
  section_header(ctx.tr("heads.concat_section"));
  text_wrapped(ctx.trf("heads.concat", {{"h", std::to_string(c.heads.size())},
                                        {"rows", std::to_string(c.concat.rows())},
                                        {"cols", std::to_string(c.concat.cols())},
                                        {"out_cols", std::to_string(c.output.cols())},
                                        {"out_rows", std::to_string(c.output.rows())}}));
  const float w = std::clamp((avail - 40) / 2, 80.0f, 260.0f);
  const float hgt = std::min(160.0f, w);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImGui::BeginGroup();
  ImGui::TextUnformatted("concat");
  draw_thumbnail(dl, ImGui::GetCursorScreenPos(), w, hgt, pictures.concat.get(revision, c.concat, false), false);
  ImGui::Dummy(ImVec2(w, hgt));
  ImGui::EndGroup();
  ImGui::SameLine(0, 24);
  ImGui::BeginGroup();
  ImGui::TextUnformatted(ctx.tr("heads.output"));
  draw_thumbnail(dl, ImGui::GetCursorScreenPos(), w, hgt, pictures.output.get(revision, c.output, false), false);
  ImGui::Dummy(ImVec2(w, hgt));
  ImGui::EndGroup();
}

class HeadsPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    State& s = ctx.state;
    const AppResult& r = ctx.result;
    head_count(ctx, s);
    if (!r.heads_options.empty()) heads_table(ctx, s, r);
    if (!r.error.empty()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(bad_col()), "%s", r.error.c_str());
    const Result& c = r.core;
    const HeadResult& first = c.first_head();
    if (first.weights.size() == 0) {
      ImGui::TextDisabled("%s", ctx.tr("common.nothing_to_show"));
      return;
    }
    section_header(ctx.tr("heads.each_head"));
    const float avail = ImGui::GetContentRegionAvail().x;
    head_tiles(ctx, c, r.revision, avail, pictures_);
    if (!c.heads.empty()) concat_and_output(ctx, c, r.revision, avail, pictures_);
  }

 private:
  HeadThumbnails pictures_;
};

}  // namespace

std::unique_ptr<Panel> make_heads_panel() { return std::make_unique<HeadsPanel>(); }

}  // namespace attn::ui
