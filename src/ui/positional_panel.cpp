// positional_panel.cpp — sinusoidal positional encoding, and why it is needed: without it, attention
// is permutation-equivariant (shuffle the tokens and the output rows are the same rows, shuffled).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "core/attention.h"
#include "core/montecarlo.h"
#include "ui/panels.h"

namespace attn::ui {
namespace {

class PositionalPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    State& s = ctx.state;
    const AppResult& r = ctx.result;
    if (s.mode != InputMode::Random) {
      ImGui::TextWrapped("Positional encoding applies to random-embedding states (try the \"dog bites man\" preset).");
      return;
    }
    bool pe = s.positional_encoding == PositionalEncoding::Sinusoidal;
    {
      const LockScope lock(ctx, "positional_encoding");
      if (ImGui::Checkbox("Positional encoding", &pe))
        s.positional_encoding = pe ? PositionalEncoding::Sinusoidal : PositionalEncoding::None;
    }
    ctx.track("Positional encoding");
    ImGui::SameLine();
    const int n = static_cast<int>(s.embeddings.rows());
    bool shuffle_clicked = false;
    {
      const LockScope lock(ctx, "sentence");  // shuffling rewrites the sentence
      shuffle_clicked = ImGui::Button("Shuffle tokens");
    }
    if (shuffle_clicked && n > 1 && r.error.empty()) {
      before_ = r.core.output;  // compared with the next result, row by row through the permutation
      before_revision_ = r.revision;
      shuffle(s);
    }
    ctx.track("Shuffle tokens");
    if (!last_perm_.empty() && before_revision_ != r.revision && r.core.output.rows() == before_.rows() &&
        r.core.output.cols() == before_.cols() && static_cast<int>(last_perm_.size()) == before_.rows()) {
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
    if (shuffle_gap_ >= 0) {
      ImGui::Text("Last shuffle (PE %s): max |Y(shuffled)ᵢ − Y(before)_π(i)| = %.3g", shuffle_pe_ ? "on" : "off",
                  shuffle_gap_);
      ImGui::SameLine();
      if (shuffle_gap_ < 1e-4)
        ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.5f, 1), "same rows, permuted");
      else
        ImGui::TextColored(ImVec4(1, 0.75f, 0.3f, 1), "rows changed");
    }
    ImGui::TextWrapped("PE(p, 2i) = sin(p / 10000^(2i/d)), PE(p, 2i+1) = cos(…), added to each token's embedding.");

    // The encoding matrix, n × d_model.
    if (n > 0) {
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
      ctx.track("pe matrix");
      ImGui::TextDisabled("rows: positions 0…%d, columns: the %d embedding dimensions (blue −1, red +1)",
                          static_cast<int>(P.rows()) - 1, s.d_model);
    }

    section_header("Shuffle the tokens: what happens to the output?");
    const PositionalCheck& pc = r.positional;
    const double gap_off = pc.gap_without, gap_on = pc.gap_with;
    const std::string& reversed = pc.reversed;
    if (n > kMaxPositionalCheckTokens) {
      ImGui::TextWrapped("n = %d > %d: the comparison is skipped to keep the frame fast.", n,
                         kMaxPositionalCheckTokens);
    } else if (pc.available && r.error.empty()) {
      ImGui::TextWrapped("Compare \"%s\" with its reversal \"%s\" (masks ignored here):", s.sentence.c_str(),
                         reversed.c_str());
      ImGui::Text("without PE: max |Y(reversed) − reversed Y| = %.3g", gap_off);
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.5f, 1), "%s", gap_off < 1e-4 ? "same rows, permuted" : "differ");
      ImGui::Text("with PE:    max |Y(reversed) − reversed Y| = %.3g", gap_on);
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(1, 0.75f, 0.3f, 1), "%s", gap_on < 1e-4 ? "same rows, permuted" : "order matters");
      ImGui::TextWrapped(
          "Without positions, attention sees a bag of tokens: each output row depends only on its own "
          "token and the set of others, so \"dog bites man\" and \"man bites dog\" give the same rows "
          "in another order (0 up to rounding). Adding PE makes the rows position-dependent.");
    }
  }

 private:
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
