// positional_panel.cpp — sinusoidal positional encoding, and why it is needed: without it, attention
// is permutation-equivariant (shuffle the tokens and the output rows are the same rows, shuffled).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "core/attention/attention.h"
#include "core/attention/montecarlo.h"
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
    controls(ctx, s, r, n);
    measure_last_shuffle(s, r);
    last_shuffle(ctx);
    text_wrapped(ctx.tr("positional.formula"));
    if (n > 0) encoding_matrix(ctx, s, n);
    section_header(ctx.tr("positional.shuffle_section"));
    reversed_sentence(ctx, s, r, n);
  }

 private:
  // The encoding switch and the shuffle button.
  void controls(PanelContext& ctx, State& s, const AppResult& r, int n) {
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
    if (shuffle_clicked && n > 1 && r.error.empty()) {
      before_ = r.core.output;  // compared with the next result, row by row through the permutation
      before_revision_ = r.revision;
      shuffle(s);
    }
    ctx.track(ControlId::positional_shuffle);
  }

  // Once the shuffled sentence has been computed: how far its output rows are from the old ones, permuted.
  void measure_last_shuffle(const State& s, const AppResult& r) {
    if (last_perm_.empty() || before_revision_ == r.revision || r.core.output.rows() != before_.rows() ||
        r.core.output.cols() != before_.cols() || static_cast<int>(last_perm_.size()) != before_.rows())
      return;
    double gap = 0;
    for (Eigen::Index i = 0; i < before_.rows(); ++i)
      gap = std::max(
          gap, static_cast<double>(
                   (r.core.output.row(i) - before_.row(last_perm_[static_cast<size_t>(i)])).cwiseAbs().maxCoeff()));
    shuffle_gap_ = gap;
    shuffle_pe_ = s.positional_encoding == PositionalEncoding::Sinusoidal;
    before_revision_ = r.revision;
    before_.resize(0, 0);
    last_perm_.clear();
  }

  void last_shuffle(const PanelContext& ctx) {
    if (shuffle_gap_ < 0) return;
    ImGui::TextUnformatted(ctx.trf(shuffle_pe_ ? "positional.last_shuffle_on" : "positional.last_shuffle_off",
                                   {{"gap", gap_text(shuffle_gap_)}})
                               .c_str());
    ImGui::SameLine();
    if (shuffle_gap_ < 1e-4)
      ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.5f, 1), "%s", ctx.tr("positional.same_rows"));
    else
      ImGui::TextColored(ImVec4(1, 0.75f, 0.3f, 1), "%s", ctx.tr("positional.rows_changed"));
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
      ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.5f, 1), "%s",
                         ctx.tr(gap_off < 1e-4 ? "positional.same_rows" : "positional.differ"));
      ImGui::TextUnformatted(ctx.trf("positional.with_pe", {{"gap", gap_text(gap_on)}}).c_str());
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(1, 0.75f, 0.3f, 1), "%s",
                         ctx.tr(gap_on < 1e-4 ? "positional.same_rows" : "positional.order_matters"));
      text_wrapped(ctx.tr("positional.bag_of_tokens"));
    }
  }

  void shuffle(State& s) {
    const int n = static_cast<int>(s.embeddings.rows());
    std::vector<std::string> tokens = split_tokens(s.sentence);
    if (static_cast<int>(tokens.size()) != n) return;
    std::vector<int> perm(static_cast<size_t>(n));
    std::iota(perm.begin(), perm.end(), 0);
    Rng rng(s.seed * 7919 + ++shuffles_);
    for (int i = n - 1; i > 0; --i)
      std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(rng.next_u64() % static_cast<uint64_t>(i + 1))]);
    Mat E = s.embeddings;
    std::string sentence;
    for (int i = 0; i < n; ++i) {
      E.row(i) = s.embeddings.row(perm[static_cast<size_t>(i)]);
      sentence += (i ? " " : "") + tokens[static_cast<size_t>(perm[static_cast<size_t>(i)])];
    }
    s.sentence = sentence;
    s.embeddings = E;
    last_perm_ = perm;
    s.mask_cells.reset();  // painted cells and padding belonged to the old positions
    s.key_padding.clear();
    s.preset.clear();
  }

  Mat before_;                  // the output before the last shuffle
  std::vector<int> last_perm_;  // row i of the shuffled sentence was row last_perm_[i]
  uint64_t before_revision_ = 0;
  double shuffle_gap_ = -1;  // < 0: no shuffle yet
  bool shuffle_pe_ = false;
  uint64_t shuffles_ = 0;
};

}  // namespace

std::unique_ptr<Panel> make_positional_panel() { return std::make_unique<PositionalPanel>(); }

}  // namespace attn::ui
