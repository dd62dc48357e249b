// cross_panel.cpp — encoder–decoder (cross) attention: the decoder's states query the encoder states
// of "Je suis étudiant", scored three ways side by side — additive (Bahdanau), general (Luong),
// scaled dot — with each heatmap, the weights and context vector at the chosen decoder step.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/tooltip.h"

namespace attn::ui {
namespace {

std::string vector_text(const Mat& M, int row, int decimals) {
  std::string out = "[";
  for (Eigen::Index c = 0; c < M.cols(); ++c) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%.*f", c ? ", " : "", decimals, static_cast<double>(M(row, c)));
    out += buf;
  }
  return out + "]";
}

// One scoring's heatmap: n decoder steps (rows) × m source words (columns), `cell` pixels each.
struct CrossTile {
  int n = 0, m = 0;
  float cell = 0;
  ImVec2 top, p0;  // top: the labels' corner; p0: the cells'
};

class CrossPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    State& s = ctx.state;
    const AppResult& r = ctx.result;
    const CrossResult& c = r.cross;
    const int n = static_cast<int>(c.target.size());
    if (n == 0) {
      ImGui::TextDisabled("%s", ctx.tr("common.nothing_to_show"));
      return;
    }
    const int step = step_controls(ctx, s, c, n);
    const float avail = ImGui::GetContentRegionAvail().x;
    const float col_w = std::max(150.0f, (avail - 24) / 3);
    const float tile = std::clamp(col_w - 130, 60.0f, 160.0f);
    for (int k = 0; k < kCrossScorings; ++k) {
      if (k) same_line_if_fits(col_w, 12);
      ImGui::BeginGroup();
      scoring_column(ctx, c, k, step, col_w, tile);
      ImGui::EndGroup();
    }
    states(ctx, s, c, step);
  }

 private:
  // Which decoder states, and the decoder step; returns the step this frame draws (before the slider's
  // change, which the next frame shows).
  int step_controls(PanelContext& ctx, State& s, const CrossResult& c, int n) {
    const LockScope lock(ctx, ControlId::cross);  // embed mode may lock the step and the states
    int kind = s.cross.states == CrossStates::NoteExample ? 0 : 1;
    if (ImGui::RadioButton(ctx.label("cross.note", "note").c_str(), &kind, 0))
      s.cross.states = CrossStates::NoteExample;
    ctx.track(ControlId::cross_note);
    const std::string seeded = ctx.label("cross.seeded", "seeded");
    same_line_if_fits(button_width(seeded) + ImGui::GetFrameHeight());
    if (ImGui::RadioButton(seeded.c_str(), &kind, 1)) s.cross.states = CrossStates::Seeded;
    ctx.track(ControlId::cross_seeded);
    text_wrapped(ctx.tr("cross.intro"));
    const int step = std::clamp(s.cross.step, 0, n - 1);
    std::string slider_format;  // the slider's printf format: a '%' in the text must not start a conversion
    for (char ch :
         ctx.trf("cross.generating", {{"t", std::to_string(step + 1)}, {"word", c.target[static_cast<size_t>(step)]}}))
      slider_format += ch == '%' ? std::string("%%") : std::string(1, ch);
    ImGui::SetNextItemWidth(std::min(320.0f, ImGui::GetContentRegionAvail().x));
    ImGui::SliderInt("##decoder-step", &s.cross.step, 0, n - 1, slider_format.c_str(), ImGuiSliderFlags_AlwaysClamp);
    ctx.track(ControlId::cross);  // the slider's frame only, without its label
    ImGui::SameLine();
    ImGui::TextUnformatted(ctx.tr("cross.decoder_step"));
    return step;
  }

  // Scoring k: its name and formula, heatmap, and the chosen step's weights and context vector.
  void scoring_column(PanelContext& ctx, const CrossResult& c, int k, int step, float col_w, float tile) {
    static const char* names[kCrossScorings] = {"cross.additive", "cross.general", "cross.dot"};
    // "e" is what enters the softmax, so the listed percentages are softmax of the listed e.
    static const char* formulas[kCrossScorings] = {"e = v_aᵀ tanh(W_a s + U_a h)", "e = sᵀ W_a h", "e = s·h / √d"};
    ImGui::TextUnformatted(ctx.tr(names[k]));
    ImGui::TextDisabled("%s", formulas[k]);
    const std::string& err = c.error[static_cast<size_t>(k)];
    if (!err.empty()) {
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + col_w);
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(bad_col()), "%s", err.c_str());
      ImGui::PopTextWrapPos();
      return;
    }
    const HeadResult& h = c.scored[static_cast<size_t>(k)].main;
    const Mat& W = h.weights;
    const Mat& E = c.softmax_scores(k);  // what the softmax sees: the dot product's after ÷√d
    CrossTile T;
    T.n = static_cast<int>(c.target.size());
    T.m = static_cast<int>(W.cols());
    T.cell = tile / static_cast<float>(std::max(T.m, T.n));
    // Row labels (the word being generated) at the left, key words above the columns.
    const float label_w = ImGui::CalcTextSize("student ").x;
    T.top = ImGui::GetCursorScreenPos();
    T.p0 = ImVec2(T.top.x + label_w, T.top.y + ImGui::GetTextLineHeight());
    tile_heatmap(c, h, T, step);
    ImGui::Dummy(ImVec2(col_w, T.cell * T.n + ImGui::GetTextLineHeight()));
    ctx.track(ControlFamily::cross_scoring, cross_scoring_id(k));
    if (ImGui::IsItemHovered()) {
      const ImVec2 mp = ImGui::GetMousePos();
      const int i = static_cast<int>((mp.y - T.p0.y) / T.cell), j = static_cast<int>((mp.x - T.p0.x) / T.cell);
      if (i >= 0 && i < T.n && j >= 0 && j < T.m)
        tooltip(ctx.trf("cross.tip", {{"word", c.target[static_cast<size_t>(i)]},
                                      {"key", c.source[static_cast<size_t>(j)]},
                                      {"score", fmt(E(i, j))},
                                      {"weight", fmt(W(i, j))}}) +
                (k == 2 ? " (e = s·h ÷ √d)" : ""));  // the scaled dot product
    }
    for (int j = 0; j < T.m; ++j)
      ImGui::Text("%-9s %5.1f%%  e %+.3f", c.source[static_cast<size_t>(j)].c_str(),
                  100.0 * static_cast<double>(W(step, j)), static_cast<double>(E(step, j)));
    ImGui::TextUnformatted(ctx.trf("cross.context", {{"t", std::to_string(step + 1)}}).c_str());
    ImGui::TextUnformatted(vector_text(c.scored[static_cast<size_t>(k)].output, step, 3).c_str());
  }

  // Labels, the weight cells with each row's entropy beside it, and the chosen step's outline.
  void tile_heatmap(const CrossResult& c, const HeadResult& h, const CrossTile& T, int step) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Mat& W = h.weights;
    const float cell = T.cell;
    const ImVec2 p0 = T.p0;
    const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text);
    for (int j = 0; j < T.m; ++j) {
      const char* w = c.source[static_cast<size_t>(j)].c_str();
      const float tw = ImGui::CalcTextSize(w).x;
      if (tw <= cell + 4)
        dl->AddText(ImVec2(p0.x + cell * j + (cell - tw) / 2, T.top.y), text_col, w);
      else
        dl->AddText(ImVec2(p0.x + cell * j + 2, T.top.y), text_col, std::string(w, 2).append(".").c_str());
    }
    for (int i = 0; i < T.n; ++i)
      dl->AddText(ImVec2(T.top.x, p0.y + cell * i + (cell - ImGui::GetFontSize()) / 2), text_col,
                  c.target[static_cast<size_t>(i)].c_str());
    for (int i = 0; i < T.n; ++i) {
      for (int j = 0; j < T.m; ++j)
        dl->AddRectFilled(ImVec2(p0.x + cell * j, p0.y + cell * i),
                          ImVec2(p0.x + cell * (j + 1) - 1, p0.y + cell * (i + 1) - 1), viridis_u32(W(i, j)));
      char ent[24];
      std::snprintf(ent, sizeof ent, "H %.2f", static_cast<double>(h.entropy(i)));
      dl->AddText(ImVec2(p0.x + cell * T.m + 4, p0.y + cell * i + (cell - ImGui::GetFontSize()) / 2),
                  ImGui::GetColorU32(ImGuiCol_TextDisabled), ent);
    }
    dl->AddRect(ImVec2(p0.x - 1, p0.y + cell * step - 1), ImVec2(p0.x + cell * T.m + 1, p0.y + cell * (step + 1) + 1),
                outline_col(), 0, 0, 2);
  }

  // The decoder state and encoder states the scores came from, and where they came from.
  void states(const PanelContext& ctx, const State& s, const CrossResult& c, int step) {
    section_header(ctx.tr("cross.states"));
    ImGui::TextUnformatted(
        ctx.trf("cross.decoder_state", {{"t", std::to_string(step)}, {"v", vector_text(c.decoder, step, 3)}}).c_str());
    for (int j = 0; j < static_cast<int>(c.source.size()); ++j)
      ImGui::Text("h_%d \"%s\" = %s", j + 1, c.source[static_cast<size_t>(j)].c_str(),
                  vector_text(c.encoder, j, 3).c_str());
    if (s.cross.states == CrossStates::NoteExample) {
      text_wrapped(ctx.tr("cross.note_example"));
    } else {
      text_wrapped(ctx.trf("cross.seeded_example", {{"seed", std::to_string(s.seed)}}));
    }
  }
};

}  // namespace

std::unique_ptr<Panel> make_cross_panel() { return std::make_unique<CrossPanel>(); }

}  // namespace attn::ui
