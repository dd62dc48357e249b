// explain_panel.cpp — the seed notes' step-by-step story in plain English, with this screen's numbers.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/presets.h"
#include "app/summary.h"
#include "ui/panels.h"
#include "ui/plot.h"

namespace attn::ui {
namespace {

bool masked(const HeadResult& h, int i, int j) { return is_masked_logit(h.logits(i, j)); }

// Spread (population standard deviation) of the unmasked entries of one row.
double row_sd(const Mat& m, const HeadResult& h, int i) {
  double sum = 0, sq = 0;
  int n = 0;
  for (int j = 0; j < m.cols(); ++j)
    if (!masked(h, i, j) && std::isfinite(m(i, j))) {
      sum += m(i, j);
      sq += static_cast<double>(m(i, j)) * m(i, j);
      ++n;
    }
  if (n == 0) return NAN;
  const double mean = sum / n;
  return std::sqrt(std::max(0.0, sq / n - mean * mean));
}

void para(const std::string& text) { text_wrapped(text); }

// Text on a tinted background: the notes' slips must stand out from the story.
void highlighted(const char* heading, const std::string& text) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->ChannelsSplit(2);
  dl->ChannelsSetCurrent(1);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::BeginGroup();
  ImGui::Indent(6);
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, highlight_col());
  ImGui::TextUnformatted(heading);
  ImGui::PopStyleColor();
  text_wrapped(text);
  ImGui::Spacing();
  ImGui::Unindent(6);
  ImGui::EndGroup();
  dl->ChannelsSetCurrent(0);
  const ImVec2 p1(p0.x + ImGui::GetContentRegionAvail().x, ImGui::GetItemRectMax().y);
  dl->AddRectFilled(p0, p1, IM_COL32(255, 170, 40, 45), 4);
  dl->AddRect(p0, p1, IM_COL32(255, 170, 40, 160), 4);
  dl->ChannelsMerge();
}

class ExplainPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    State& s = ctx.state;
    const AppResult& r = ctx.result;
    if (const Preset* p = find_preset(s.preset)) preset(*p);
    const HeadResult& h = r.core.heads.empty() ? r.core.main : r.core.heads.front();
    const int i = s.selected_row;
    if (h.weights.size() == 0 || i < 0 || i >= h.weights.rows()) {
      ImGui::TextDisabled("Nothing computed yet.");
      return;
    }
    const double dk = r.core.d_k, sdk = std::sqrt(dk);
    const std::string q = "\"" + r.row_labels[static_cast<size_t>(i)] + "\"";
    const bool additive = s.mode == InputMode::Explicit && s.explicit_scenario.score == ScoreKind::Additive;

    if (step("1 · Why three matrices: Q, K, V")) {
      para(
          "An embedding says what a word means, not what it is looking for, and comparing raw embeddings would "
          "compare the wrong things. So each token is projected three ways: W_Q turns it into a query (what to "
          "search for), W_K into a key (what it offers to be matched), W_V into a value (what it hands over).");
      if (s.mode == InputMode::Random)
        para("Here each token has d_model = " + std::to_string(s.d_model) + " numbers and is projected to " +
             std::to_string(s.d_k) + " numbers for queries and keys, " + std::to_string(s.d_v) + " for values" +
             (s.heads > 1 ? ", split across " + std::to_string(s.heads) + " heads with d_k = " + fmt(dk, 0) + " each."
                          : "."));
      else
        para("This example gives its matrices directly (missing projections are the identity), with d_k = " +
             fmt(dk, 0) + ".");
    }
    if (step("2 · Scores: how well each query matches each key")) {
      if (additive)
        para(
            "This example scores with a small network instead of a dot product (additive, Bahdanau): "
            "e = v_aᵀ tanh(W s + U h). Everything after the scores works the same.");
      else
        para(
            "Row i, column j of QKᵀ is the dot product q_i·k_j = Σ q_i,c·k_j,c: large and positive when the two "
            "point the same way, 0 when they are orthogonal, negative when they point opposite ways.");
      int best = -1;
      for (int j = 0; j < h.scores.cols(); ++j)
        if (!masked(h, i, j) && std::isfinite(h.scores(i, j)) && (best < 0 || h.scores(i, j) > h.scores(i, best)))
          best = j;
      if (best >= 0)
        para("For " + q + " the highest raw score is " + fmt(h.scores(i, best)) + ", against \"" +
             r.col_labels[static_cast<size_t>(best)] +
             "\"; the raw scores in this row spread with standard deviation " + fmt(row_sd(h.scores, h, i)) + ".");
    }
    if (step("3 · Why divide by √d_k")) {
      para(
          "Suppose the entries of q and k are independent with mean 0 and variance 1. Each product q_c·k_c then "
          "has variance 1·1 = 1, and q·k adds d_k of them, so Var(q·k) = d_k and its standard deviation grows like "
          "√d_k. Large scores push softmax towards one-hot. Dividing by √d_k brings the variance back to 1 for any "
          "d_k.");
      para("Now d_k = " + fmt(dk, 0) + ", so √d_k = " + fmt(sdk) + ": unscaled scores typically land within about ±" +
           fmt(sdk, 2) + ", scaled ones within about ±1. " +
           (s.scale && !additive ? "Scaling is on: this row's spread goes from " + fmt(row_sd(h.scores, h, i)) +
                                       " to " + fmt(row_sd(h.logits, h, i)) + "."
                                 : "Scaling is off: the scores go into softmax as they are."));
      if (s.temperature != 1.0)
        para("Temperature T = " + fmt(s.temperature) +
             " divides the scores once more: T < 1 sharpens the softmax, "
             "T > 1 flattens it" +
             (s.temperature == 0 ? " (T = 0 is the hard maximum)." : "."));
      text_wrapped("The notes write the divisor as \"d_k\"; they mean √d_k (the root was lost in typesetting).",
                   ImGui::GetColorU32(ImGuiCol_TextDisabled));
    }
    if (step("4 · Softmax: scores become weights")) {
      para(
          "Softmax turns each row into a probability distribution: A_ij = exp(ℓ_ij) / Σ_j exp(ℓ_ij). Every weight "
          "is at least 0 and the row sums to 1, so keys compete: more attention to one means less to the others.");
      para("For " + q + " the largest weights are " + top_weights(h, r, i) + ".");
      int m = 0;
      for (int j = 0; j < h.logits.cols(); ++j) m += masked(h, i, j) ? 0 : 1;
      if (m > 1 && i < h.entropy.size())
        para("Entropy −Σ p log p = " + fmt(h.entropy(i)) + " nats, " + fmt(100 * h.entropy(i) / std::log(m), 1) +
             "% of the maximum log " + std::to_string(m) + " = " + fmt(std::log(m)) +
             ". Low entropy means focused, high means spread out; both can be right for a task.");
    }
    if (step("5 · Weighted sum of values")) {
      para(
          "The output for a query is Σ_j A_ij·v_j, a soft lookup: values of well-matching keys contribute most. "
          "Because the weights are ≥ 0 and sum to 1, the output is a blend that stays inside the range of the value "
          "vectors (interpolation, not extrapolation).");
      if (h.output.cols() > 0) {
        std::string z = "[";
        for (int c = 0; c < std::min<int>(4, static_cast<int>(h.output.cols())); ++c)
          z += (c ? ", " : "") + fmt(h.output(i, c));
        z += h.output.cols() > 4 ? ", …]" : "]";
        para("Output for " + q + ": " + z + ".");
      }
      text_wrapped("Attention weights show where information flows, not what the model finally decides.",
                   ImGui::GetColorU32(ImGuiCol_TextDisabled));
    }
    if (step("6 · Saturation and vanishing gradients")) saturation(r, h, i, q, s.scale);
  }

 private:
  static bool step(const char* name) { return ImGui::CollapsingHeader(name, ImGuiTreeNodeFlags_DefaultOpen); }

  void preset(const Preset& p) {
    text_wrapped(p.title, title_col());
    text_wrapped(p.source, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    para(p.story);
    if (!p.slips.empty()) highlighted("What the note printed vs the correct value", p.slips);
    ImGui::Spacing();
  }

  static std::string top_weights(const HeadResult& h, const AppResult& r, int i) {
    std::vector<int> idx;
    for (int j = 0; j < h.weights.cols(); ++j)
      if (!masked(h, i, j)) idx.push_back(j);
    const size_t k = std::min<size_t>(3, idx.size());
    std::partial_sort(idx.begin(), idx.begin() + static_cast<long>(k), idx.end(),
                      [&](int a, int b) { return h.weights(i, a) > h.weights(i, b); });
    std::string out;
    for (size_t t = 0; t < k; ++t)
      out += (t ? ", " : "") + ("\"" + r.col_labels[static_cast<size_t>(idx[t])] + "\" ") + fmt(h.weights(i, idx[t]));
    return out.empty() ? "— (every key is masked)" : out;
  }

  static void saturation(const AppResult& r, const HeadResult& h, int i, const std::string& q, bool scale) {
    para(
        "When the scores are large, softmax becomes almost one-hot. Its Jacobian diag(p) − ppᵀ then has entries "
        "near 0, so almost no gradient flows back through it: positions with weight near 0 cannot learn to get more "
        "attention. That is the vanishing-gradient problem the √d_k scaling prevents.");
    if (i >= h.max_weight.size()) return;
    const bool sat = row_saturation(h, i).saturated;
    para("Now, for " + q + ": largest weight " + fmt(h.max_weight(i)) + ", Jacobian norm " + fmt(h.jacobian_norm(i)) +
         (sat ? " — saturated." : "."));
    const HeadResult& o = r.flipped.heads.empty() ? r.flipped.main : r.flipped.heads.front();
    const int k = i - r.flipped_row;  // the flipped result may hold only the selected row
    if (k >= 0 && k < o.max_weight.size() && k < o.jacobian_norm.size())
      para(std::string("With scaling turned ") + (scale ? "off" : "on") + ": largest weight " + fmt(o.max_weight(k)) +
           ", Jacobian norm " + fmt(o.jacobian_norm(k)) + (row_saturation(o, k).saturated ? " — saturated." : "."));
  }
};

}  // namespace

std::unique_ptr<Panel> make_explain_panel() { return std::make_unique<ExplainPanel>(); }

}  // namespace attn::ui
