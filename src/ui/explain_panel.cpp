// explain_panel.cpp — the seed notes' step-by-step story in the learner's language, with this screen's numbers.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/describe/summary.h"
#include "app/state/presets.h"
#include "core/attention/attention.h"
#include "ui/panels.h"
#include "ui/plot.h"

namespace attn::ui {
namespace {

bool masked(const HeadResult& h, int i, int j) { return is_masked_logit(h.logits(i, j)); }

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
  dl->AddRectFilled(p0, p1, (outline_col() & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 45), 4);
  dl->AddRect(p0, p1, outline_col(), 4);
  dl->ChannelsMerge();
}

class ExplainPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    State& s = ctx.state;
    const AppResult& r = ctx.result;
    // Another example opens at its own story and slips, not at the old example's scroll position.
    if (s.preset != shown_preset_) {
      ImGui::SetScrollY(0);
      shown_preset_ = s.preset;
    }
    if (const Preset* p = find_preset(s.preset)) preset(ctx, *p);
    const HeadResult& h = r.core.first_head();
    const int i = s.selected_row;
    if (h.weights.size() == 0 || i < 0 || i >= h.weights.rows()) {
      ImGui::TextDisabled("%s", ctx.tr("common.nothing_computed"));
      return;
    }
    const double dk = r.core.d_k, sdk = std::sqrt(dk);
    const std::string q = "\"" + r.row_labels[static_cast<size_t>(i)] + "\"";
    const bool additive = s.mode == InputMode::Explicit && s.explicit_scenario.score == ScoreKind::Additive;

    if (step(ctx, "explain.step1", "step1")) {
      para(ctx.tr("explain.step1.text"));
      if (s.mode == InputMode::Random)
        para(ctx.trf(s.heads > 1 ? "explain.step1.random_heads" : "explain.step1.random",
                     {{"d_model", std::to_string(s.d_model)},
                      {"d_k", std::to_string(s.d_k)},
                      {"d_v", std::to_string(s.d_v)},
                      {"heads", std::to_string(s.heads)},
                      {"d_head", fmt(dk, 0)}}));
      else
        para(ctx.trf("explain.step1.explicit", {{"d_k", fmt(dk, 0)}}));
    }
    if (step(ctx, "explain.step2", "step2")) {
      para(ctx.tr(additive ? "explain.step2.additive" : "explain.step2.dot"));
      int best = -1;
      for (int j = 0; j < h.scores.cols(); ++j)
        if (!masked(h, i, j) && std::isfinite(h.scores(i, j)) && (best < 0 || h.scores(i, j) > h.scores(i, best)))
          best = j;
      if (best >= 0)
        para(ctx.trf("explain.step2.best", {{"query", q},
                                            {"score", fmt(h.scores(i, best))},
                                            {"key", r.col_labels[static_cast<size_t>(best)]},
                                            {"sd", fmt(row_spread(h.scores, h, i))}}));
    }
    if (step(ctx, "explain.step3", "step3")) {
      para(ctx.tr("explain.step3.text"));
      para(ctx.trf("explain.step3.now", {{"d_k", fmt(dk, 0)}, {"sqrt", fmt(sdk)}, {"sqrt_short", fmt(sdk, 2)}}) + " " +
           (s.scale && !additive ? ctx.trf("explain.step3.on", {{"from", fmt(row_spread(h.scores, h, i))},
                                                                {"to", fmt(row_spread(h.logits, h, i))}})
                                 : std::string(ctx.tr("explain.step3.off"))));
      if (s.temperature != 1.0)
        para(ctx.trf(s.temperature == 0 ? "explain.step3.temperature_zero" : "explain.step3.temperature",
                     {{"t", fmt(s.temperature)}}));
      text_wrapped(ctx.tr("explain.step3.note_slip"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    }
    if (step(ctx, "explain.step4", "step4")) {
      para(ctx.tr("explain.step4.text"));
      para(ctx.trf("explain.step4.top", {{"query", q}, {"top", top_weights(ctx, h, r, i)}}));
      int m = 0;
      for (int j = 0; j < h.logits.cols(); ++j) m += masked(h, i, j) ? 0 : 1;
      if (m > 1 && i < h.entropy.size())
        para(ctx.trf("explain.step4.entropy", {{"h", fmt(h.entropy(i))},
                                               {"percent", fmt(100 * h.entropy(i) / std::log(m), 1)},
                                               {"m", std::to_string(m)},
                                               {"log_m", fmt(std::log(m))}}));
    }
    if (step(ctx, "explain.step5", "step5")) {
      para(ctx.tr("explain.step5.text"));
      if (h.output.cols() > 0) {
        std::string z = "[";
        for (int c = 0; c < std::min<int>(4, static_cast<int>(h.output.cols())); ++c)
          z += (c ? ", " : "") + fmt(h.output(i, c));
        z += h.output.cols() > 4 ? ", …]" : "]";
        para(ctx.trf("explain.step5.output", {{"query", q}, {"z", z}}));
      }
      text_wrapped(ctx.tr("explain.step5.note"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    }
    if (step(ctx, "explain.step6", "step6")) saturation(ctx, r, h, i, q, s.scale);
  }

 private:
  // The header's text in the learner's language; its id (open or closed) the same in every language.
  static bool step(const PanelContext& ctx, const char* key, const char* id) {
    return ImGui::CollapsingHeader(ctx.label(key, id).c_str(), ImGuiTreeNodeFlags_DefaultOpen);
  }

  void preset(const PanelContext& ctx, const Preset& p) {
    text_wrapped(ctx.tr(p.title.c_str()), title_col());
    text_wrapped(ctx.tr(p.source.c_str()), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    para(ctx.tr(p.story.c_str()));
    if (!p.slips.empty()) highlighted(ctx.tr("explain.slips_heading"), ctx.tr(p.slips.c_str()));
    ImGui::Spacing();
  }

  static std::string top_weights(const PanelContext& ctx, const HeadResult& h, const AppResult& r, int i) {
    std::vector<int> idx;
    for (int j = 0; j < h.weights.cols(); ++j)
      if (!masked(h, i, j)) idx.push_back(j);
    const size_t k = std::min<size_t>(3, idx.size());
    std::partial_sort(idx.begin(), idx.begin() + static_cast<long>(k), idx.end(),
                      [&](int a, int b) { return h.weights(i, a) > h.weights(i, b); });
    std::string out;
    for (size_t t = 0; t < k; ++t)
      out += (t ? ", " : "") + ("\"" + r.col_labels[static_cast<size_t>(idx[t])] + "\" ") + fmt(h.weights(i, idx[t]));
    return out.empty() ? std::string(ctx.tr("explain.all_masked")) : out;
  }

  static void saturation(const PanelContext& ctx, const AppResult& r, const HeadResult& h, int i, const std::string& q,
                         bool scale) {
    para(ctx.tr("explain.step6.text"));
    if (i >= h.max_weight.size()) return;
    const auto end = [&](const HeadResult& hr, int row) {
      return row_saturation(hr, row).saturated ? ctx.tr("explain.end_saturated") : ".";
    };
    para(ctx.trf("explain.step6.now",
                 {{"query", q}, {"w", fmt(h.max_weight(i))}, {"j", fmt(h.jacobian_norm(i))}, {"end", end(h, i)}}));
    const HeadResult& o = r.flipped.first_head();
    const int k = i - r.flipped_row;  // the flipped result may hold only the selected row
    if (k >= 0 && k < o.max_weight.size() && k < o.jacobian_norm.size())
      para(ctx.trf(scale ? "explain.step6.flipped_off" : "explain.step6.flipped_on",
                   {{"w", fmt(o.max_weight(k))}, {"j", fmt(o.jacobian_norm(k))}, {"end", end(o, k)}}));
  }
  std::string shown_preset_;  // the preset the text was last scrolled for
};

}  // namespace

std::unique_ptr<Panel> make_explain_panel() { return std::make_unique<ExplainPanel>(); }

}  // namespace attn::ui
