// positional_panel.cpp — sinusoidal positional encoding, and why it is needed: without it, attention
// is permutation-equivariant (shuffle the tokens and the output rows are the same rows, shuffled).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/playground/token_shuffle.h"
#include "core/attention/attention.h"
#include "ui/panels.h"
#include "ui/plot.h"

namespace attn::ui {
namespace {

// A gap in the permutation test, as "%.3g" writes it (0, 1.2e-07, 0.348).
std::string gap_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

class PositionalPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    State& s = ctx.state;
    const AppResult& r = ctx.result;
    if (s.mode != InputMode::Random) {
      text_wrapped(ctx.tr("positional.random_only"));
      return;
    }
    const int n = static_cast<int>(s.embeddings.rows());
    controls(ctx, s, r);
    last_shuffle(ctx);
    text_wrapped(ctx.tr("positional.formula"));
    if (n > 0) encoding_matrix(ctx, s, n);
    section_header(ctx.tr("positional.shuffle_section"));
    reversed_sentence(ctx, s, r, n);
  }

 private:
  // The encoding switch and the shuffle button (the app's shuffle_tokens, which the button's twin calls too).
  void controls(PanelContext& ctx, State& s, const AppResult& r) {
    bool pe = s.positional_encoding == PositionalEncoding::Sinusoidal;
    {
      const LockScope lock(ctx, ControlId::positional_encoding);
      if (ImGui::Checkbox(ctx.label("positional.pe", "pe").c_str(), &pe))
        s.positional_encoding = pe ? PositionalEncoding::Sinusoidal : PositionalEncoding::None;
    }
    ctx.track(ControlId::positional_encoding);
    const std::string shuffle_label = ctx.label("positional.shuffle", "shuffle");
    same_line_if_fits(button_width(shuffle_label));
    bool shuffle_clicked = false;
    {
      const LockScope lock(ctx, ControlId::sentence);  // shuffling rewrites the sentence
      shuffle_clicked = ImGui::Button(shuffle_label.c_str());
    }
    if (shuffle_clicked) shuffle_tokens(s, r, ctx.app.token_shuffle);
    ctx.track(ControlId::positional_shuffle);
  }

  // The last shuffle's gap (measured by the app once the shuffled sentence is computed), in words and colour.
  static void last_shuffle(const PanelContext& ctx) {
    const TokenShuffle& t = ctx.app.token_shuffle;
    if (t.gap < 0) return;
    ImGui::TextUnformatted(
        ctx.trf(t.with_pe ? "positional.last_shuffle_on" : "positional.last_shuffle_off", {{"gap", gap_text(t.gap)}})
            .c_str());
    ImGui::SameLine();
    if (t.gap < 1e-4)
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(good_col()), "%s", ctx.tr("positional.same_rows"));
    else
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(warn_col()), "%s", ctx.tr("positional.rows_changed"));
  }

  // The encoding matrix, n × d_model.
  void encoding_matrix(PanelContext& ctx, const State& s, int n) {
    const Mat P = sinusoidal_encoding(std::min(n, 64), s.d_model);
    const float w = std::min(ImGui::GetContentRegionAvail().x - 70, 12.0f * s.d_model + 100);
    const float cw = w / static_cast<float>(P.cols()),
                ch = std::clamp(120.0f / static_cast<float>(P.rows()), 2.0f, 14.0f);
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (Eigen::Index i = 0; i < P.rows(); ++i)
      for (Eigen::Index j = 0; j < P.cols(); ++j)
        dl->AddRectFilled(ImVec2(p0.x + cw * j, p0.y + ch * i), ImVec2(p0.x + cw * (j + 1), p0.y + ch * (i + 1)),
                          diverging_u32(P(i, j), 1.0f));
    ImGui::Dummy(ImVec2(w, ch * P.rows()));
    ctx.track(ControlId::positional_matrix);
    ImGui::TextDisabled("%s", ctx.trf("positional.matrix_caption",
                                      {{"last", std::to_string(P.rows() - 1)}, {"d", std::to_string(s.d_model)}})
                                  .c_str());
  }

  // The sentence against its reverse, with and without the encoding (the app computes both).
  void reversed_sentence(const PanelContext& ctx, const State& s, const AppResult& r, int n) {
    const PositionalCheck& pc = r.positional;
    const double gap_off = pc.gap_without, gap_on = pc.gap_with;
    const std::string& reversed = pc.reversed;
    if (n > kMaxPositionalCheckTokens) {
      text_wrapped(ctx.trf("positional.too_long",
                           {{"n", std::to_string(n)}, {"max", std::to_string(kMaxPositionalCheckTokens)}}));
    } else if (pc.available && r.error.empty()) {
      text_wrapped(ctx.trf("positional.compare", {{"sentence", s.sentence}, {"reversed", reversed}}));
      ImGui::TextUnformatted(ctx.trf("positional.without_pe", {{"gap", gap_text(gap_off)}}).c_str());
      ImGui::SameLine();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(good_col()), "%s",
                         ctx.tr(gap_off < 1e-4 ? "positional.same_rows" : "positional.differ"));
      ImGui::TextUnformatted(ctx.trf("positional.with_pe", {{"gap", gap_text(gap_on)}}).c_str());
      ImGui::SameLine();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(warn_col()), "%s",
                         ctx.tr(gap_on < 1e-4 ? "positional.same_rows" : "positional.order_matters"));
      text_wrapped(ctx.tr("positional.bag_of_tokens"));
    }
  }
};

}  // namespace

std::unique_ptr<Panel> make_positional_panel() { return std::make_unique<PositionalPanel>(); }

}  // namespace attn::ui
