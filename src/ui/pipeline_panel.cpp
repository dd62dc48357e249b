// pipeline_panel.cpp — every intermediate of softmax(QKᵀ/√d_k)·V as numeric grids, arithmetic on hover.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "app/state/presets.h"
#include "core/attention/cell_math.h"
#include "ui/grid.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/tooltip.h"

namespace attn::ui {
namespace {

constexpr int kTerms = 8;  // products written out before "…", like the notes' worked examples

// One factor of a product: negative numbers in parentheses so "0.5×(-0.3)" cannot be misread.
std::string num(double v) {
  if (!std::isfinite(v)) return "—";
  char buf[32];
  std::snprintf(buf, sizeof buf, v < 0 ? "(%.4g)" : "%.4g", v);
  return buf;
}

// "\n  = a₀×b₀ + a₁×b₁ + …\n  = total" for a dot product's terms: four products a line, like the notes' worked
// examples, with explicit breaks (ImGui's word wrap would split numbers at the decimal point).
std::string dot_terms(Lang lang, const DotCell& d, double total) {
  const int len = static_cast<int>(d.a.size());
  std::string out = "\n  = ";
  for (int c = 0; c < std::min(len, kTerms); ++c) {
    if (c) out += c % 4 == 0 ? "\n  + " : " + ";
    out += num(d.a[static_cast<size_t>(c)]) + "×" + num(d.b[static_cast<size_t>(c)]);
  }
  if (len > kTerms) out += tr_format(lang, "pipeline.more_terms", {{"count", std::to_string(len - kTerms)}});
  return out + "\n  = " + fmt(total);
}

VecD row_of(const Mat& m, int i) { return m.row(i).transpose().cast<double>(); }
VecD col_of(const Mat& m, int c) { return m.col(c).cast<double>(); }

// q_i·W_a as a row of doubles: the query side of the general and additive scores.
VecD project(const Mat& Q, int i, const Mat& W) {
  VecD out(W.cols());
  for (Eigen::Index c = 0; c < W.cols(); ++c) out(c) = explain_dot(row_of(Q, i), col_of(W, static_cast<int>(c))).value;
  return out;
}

// The arithmetic is only shown when recomputing it reproduces the shown value (guards against
// layouts this panel does not know, e.g. a future head split).
bool agrees(double a, double b) { return std::fabs(a - b) <= 1e-3 * (1 + std::fabs(b)); }

bool is_masked(const Mat& logits, int i, int j) {
  return i < logits.rows() && j < logits.cols() && is_masked_logit(logits(i, j));
}

// Bodies carry their own line breaks (one "= …" step per line), so no wrapping here.
void cell_tooltip(const std::string& head, const std::string& body) { tooltip(head, body); }

class PipelinePanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    State& s = ctx.state;
    const AppResult& r = ctx.result;
    ctx_ = &ctx;
    if (!r.error.empty())
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(bad_col()), "%s",
                         trf("pipeline.last_valid", {{"error", r.error}}).c_str());
    const int heads = static_cast<int>(r.core.heads.size());
    head_ = std::clamp(head_, 0, std::max(0, heads - 1));
    if (heads > 0) {
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
      const std::string cur = head_name(head_);
      if (ImGui::BeginCombo(ctx.label("pipeline.head_label", "head").c_str(), cur.c_str())) {
        for (int h = 0; h < heads; ++h)
          if (ImGui::Selectable((head_name(h) + "###" + std::to_string(h)).c_str(), h == head_)) head_ = h;
        ImGui::EndCombo();
      }
      ctx.track(ControlId::pipeline_head);
      ImGui::SameLine();
    }
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    ImGui::SliderInt(ctx.label("pipeline.decimals", "decimals").c_str(), &decimals_, 1, 6, "%d",
                     ImGuiSliderFlags_AlwaysClamp);
    ctx.track(ControlId::pipeline_decimals);
    ImGui::SameLine();
    ImGui::PushTextWrapPos(0.0f);  // a narrow tile or large text: the hint wraps beside the slider
    ImGui::TextDisabled("%s", tr("pipeline.hover_hint"));
    ImGui::PopTextWrapPos();

    const HeadResult& h = heads > 0 ? r.core.heads[static_cast<size_t>(head_)] : r.core.main;
    if (h.weights.size() == 0) {
      ImGui::TextDisabled("%s", tr("common.nothing_computed"));
      return;
    }
    if (ImGui::BeginTabBar("stages", ImGuiTabBarFlags_FittingPolicyScroll)) {
      stage(ctx, "X, W", [&] { inputs(s, r); });
      stage(ctx, "Q K V", [&] { qkv(s, r, h); });
      stage(ctx, "QKᵀ", [&] { scores(s, r, h); });
      stage(ctx, "÷√d_k", [&] { scaled(s, r, h); });
      stage(ctx, "softmax A", [&] { weights(s, r, h); });
      stage(
          ctx, "output Z", [&] { output(s, r, h); }, tr("pipeline.tab.output"));
      ImGui::EndTabBar();
    }
  }

 private:
  const char* tr(const char* key) const { return ctx_->tr(key); }
  std::string trf(const char* key, StringArgs args) const { return ctx_->trf(key, args); }
  Lang lang() const { return ctx_->state.lang; }
  std::string head_name(int h) const { return trf("pipeline.head", {{"head", std::to_string(h + 1)}}); }

  // `name` is the tab's id (and its text, unless `shown_as` gives the learner's-language text).
  template <class F>
  void stage(PanelContext& ctx, const char* name, F body, const char* shown_as = nullptr) {
    const bool shown = ImGui::BeginTabItem(shown_as ? (std::string(shown_as) + "###" + name).c_str() : name);
    // A tab past the edge is not cut: the tab bar scrolls (FittingPolicyScroll), so only its rectangle is kept.
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    ctx.track_rect(ControlFamily::pipeline_stage, name, a.x, a.y, b.x - a.x, b.y - a.y);
    if (!shown) return;
    // Wide matrices scroll sideways inside the stage; the tab bar stays put.
    ImGui::BeginChild("stage", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    body();
    ImGui::EndChild();
    ImGui::EndTabItem();
  }

  // What the note printed for this cell, when it printed it wrong ("" otherwise): ends a tooltip.
  std::string slip_note(const State& s, SlipMatrix kind, const Mat& m, int i, int j) const {
    const NoteSlip* slip = slip_at(s, kind, i, j, m(i, j));
    return slip ? "\n\n" + slip_text(*slip, s.lang) : "";
  }

  // Draws a grid; a click on a query row selects it everywhere.
  GridHit grid(State& s, const char* id, const Mat& m, const std::vector<std::string>* rows,
               const std::vector<std::string>* cols, bool query_rows, float range = 0, bool unit = false,
               const Mat* logits = nullptr, std::optional<SlipMatrix> slips = std::nullopt) {
    GridSpec g;
    g.m = &m;
    g.row_labels = rows;
    g.col_labels = cols;
    g.unit = unit;
    g.range = range;
    g.decimals = decimals_;
    g.focus_row = query_rows ? s.selected_row : -1;
    g.lang = s.lang;
    if (logits) g.masked = [logits](int i, int j) { return is_masked(*logits, i, j); };
    if (slips) g.slip = [&s, &m, kind = *slips](int i, int j) { return slip_at(s, kind, i, j, m(i, j)) != nullptr; };
    const GridHit hit = draw_grid(id, g);
    if (hit.clicked && query_rows && hit.row >= 0) s.selected_row = hit.row;
    return hit;
  }

  void matrix_or_identity(State& s, const char* name, const char* why, const std::optional<Mat>& w) {
    ImGui::Text("%s", name);
    ImGui::SameLine();
    ImGui::TextDisabled("%s", why);
    if (!w) {
      ImGui::TextDisabled("   %s", tr("pipeline.identity"));
      return;
    }
    ImGui::TextDisabled("   %d×%d", static_cast<int>(w->rows()), static_cast<int>(w->cols()));
    grid(s, name, *w, nullptr, nullptr, false);
  }

  void inputs(State& s, const AppResult& r) {
    const Mat& X = r.core.X_effective;
    if (X.size() == 0) {
      text_wrapped(tr("pipeline.no_x"));
      return;
    }
    ImGui::Text("X");
    ImGui::SameLine();
    ImGui::TextDisabled(
        "%s",
        trf(r.scenario.positional_encoding == PositionalEncoding::Sinusoidal ? "pipeline.x_what_pe" : "pipeline.x_what",
            {{"rows", std::to_string(X.rows())}, {"cols", std::to_string(X.cols())}})
            .c_str());
    grid(s, "X", X, &r.row_labels, nullptr, true);
    if (r.scenario.memory) ImGui::TextDisabled("%s", tr("pipeline.memory"));
    matrix_or_identity(s, "W_Q", tr("pipeline.w_q"), r.scenario.W_q);
    matrix_or_identity(s, "W_K", tr("pipeline.w_k"), r.scenario.W_k);
    matrix_or_identity(s, "W_V", tr("pipeline.w_v"), r.scenario.W_v);
    if (r.scenario.heads > 1)
      ImGui::TextDisabled("%s", trf("pipeline.heads_slice", {{"heads", std::to_string(r.scenario.heads)}}).c_str());
  }

  // Hover text for Q/K/V cells: x_i · column c of W (or "given" / identity).
  std::string projection_hover(const AppResult& r, const Mat& P, char which, int i, int c) {
    const std::optional<Mat>& W = which == 'q' ? r.scenario.W_q : which == 'k' ? r.scenario.W_k : r.scenario.W_v;
    const Mat& X = which == 'q' || !r.scenario.memory ? r.core.X_effective : *r.scenario.memory;
    const char* Wn = which == 'q' ? "W_Q" : which == 'k' ? "W_K" : "W_V";
    const std::string lhs = std::string(1, which) + "_" + learner_index(i) + "," + learner_index(c);
    if (X.size() == 0 || i >= X.rows()) return lhs + " = " + fmt(P(i, c)) + tr("pipeline.given_by_example");
    const int off = r.scenario.heads > 1 ? head_ * static_cast<int>(P.cols()) : 0;
    if (!W) {
      if (c + off < X.cols() && agrees(X(i, c + off), P(i, c)))
        return lhs + " = x_" + learner_index(i) + "," + learner_index(c) + " = " + fmt(P(i, c)) +
               trf("pipeline.is_identity", {{"w", Wn}});
      return lhs + " = " + fmt(P(i, c));
    }
    if (W->rows() != X.cols() || c + off >= W->cols()) return lhs + " = " + fmt(P(i, c));
    const DotCell d = explain_dot(row_of(X, i), col_of(*W, c + off));
    if (!agrees(d.value, P(i, c))) return lhs + " = " + fmt(P(i, c));
    return lhs + " = Σ_r x_" + learner_index(i) + ",r·" + Wn + "[r," + learner_index(c + off) + "]" +
           dot_terms(lang(), d, P(i, c));
  }

  void qkv(State& s, const AppResult& r, const HeadResult& h) {
    const bool given = r.core.X_effective.size() == 0;
    const char* why[3] = {given ? tr("pipeline.given") : "= X·W_Q", given ? tr("pipeline.given") : "= X·W_K",
                          given ? tr("pipeline.given") : "= X·W_V"};
    const Mat* mats[3] = {&h.Q, &h.K, &h.V};
    const char names[3] = {'q', 'k', 'v'};
    const char* titles[3] = {"Q", "K", "V"};
    for (int k = 0; k < 3; ++k) {
      ImGui::Text("%s", titles[k]);
      ImGui::SameLine();
      ImGui::TextDisabled("%s  (%d×%d)", why[k], static_cast<int>(mats[k]->rows()), static_cast<int>(mats[k]->cols()));
      const std::optional<SlipMatrix> slips = k == 2 ? std::optional(SlipMatrix::V) : std::nullopt;
      const GridHit hit = grid(s, titles[k], *mats[k], k == 0 ? &r.row_labels : &r.col_labels, nullptr, k == 0, 0,
                               false, nullptr, slips);
      if (hit.row >= 0 && hit.col >= 0)
        cell_tooltip(trf("pipeline.cell_title",
                         {{"matrix", titles[k]}, {"row", learner_index(hit.row)}, {"col", learner_index(hit.col)}}),
                     projection_hover(r, *mats[k], names[k], hit.row, hit.col) +
                         (slips ? slip_note(s, *slips, *mats[k], hit.row, hit.col) : ""));
    }
  }

  // How the raw score s_ij came about, for the three score functions.
  std::string score_hover(const AppResult& r, const HeadResult& h, int i, int j) {
    const int d = static_cast<int>(h.Q.cols());
    const double sv = h.scores(i, j);
    const std::string ij = learner_index(i) + "·k_" + learner_index(j);
    if (r.scenario.score == ScoreKind::Dot && h.K.cols() == d) {
      return "q_" + ij + " = Σ_c q_" + learner_index(i) + ",c·k_" + learner_index(j) + ",c" +
             dot_terms(lang(), explain_dot(row_of(h.Q, i), row_of(h.K, j)), sv);
    }
    if (r.scenario.score == ScoreKind::General && r.scenario.W_a && r.scenario.W_a->rows() == d &&
        r.scenario.W_a->cols() == h.K.cols()) {
      return "s = (q_" + learner_index(i) + "·W_a)·k_" + learner_index(j) +
             dot_terms(lang(), explain_dot(project(h.Q, i, *r.scenario.W_a), row_of(h.K, j)), sv);
    }
    if (r.scenario.score == ScoreKind::Additive && r.scenario.W_a && r.scenario.U_a && r.scenario.v_a &&
        r.scenario.W_a->rows() == d && r.scenario.U_a->rows() == h.K.cols() &&
        r.scenario.W_a->cols() == r.scenario.U_a->cols() && r.scenario.v_a->size() == r.scenario.W_a->cols()) {
      const int da = static_cast<int>(r.scenario.W_a->cols());
      const VecD qa = project(h.Q, i, *r.scenario.W_a), kb = project(h.K, j, *r.scenario.U_a);
      std::string out = "e = v_aᵀ tanh(q·W_a + k·U_a)\n  = ";
      for (int c = 0; c < std::min(da, kTerms); ++c)
        out += (c ? (c % 3 == 0 ? "\n  + " : " + ") : "") + num((*r.scenario.v_a)(c)) + "×tanh(" + num(qa(c)) + " + " +
               num(kb(c)) + ")";
      if (da > kTerms) out += " + …";
      return out + "\n  = " + fmt(sv);
    }
    return "s = " + fmt(sv);
  }

  void scores(State& s, const AppResult& r, const HeadResult& h) {
    const char* what = tr(r.scenario.score == ScoreKind::Dot       ? "pipeline.scores.dot"
                          : r.scenario.score == ScoreKind::General ? "pipeline.scores.general"
                                                                   : "pipeline.scores.additive");
    text_wrapped(std::string(what) + "  (" + std::to_string(h.scores.rows()) + "×" + std::to_string(h.scores.cols()) +
                 ")");
    const GridHit hit = grid(s, "S", h.scores, &r.row_labels, &r.col_labels, true, shared_range(s, h), false, nullptr,
                             SlipMatrix::Scores);
    if (hit.row >= 0 && hit.col >= 0)
      cell_tooltip(r.row_labels[static_cast<size_t>(hit.row)] + " → " + r.col_labels[static_cast<size_t>(hit.col)],
                   score_hover(r, h, hit.row, hit.col) + slip_note(s, SlipMatrix::Scores, h.scores, hit.row, hit.col));
    text_wrapped(tr("pipeline.same_scale"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
  }

  // Raw and scaled scores share one colour scale: the scaled grid then looks paler by √d_k.
  float shared_range(const State& s, const HeadResult& h) const {
    return std::max(1e-6f, grid_visible_abs_max(h.scores, s.selected_row));
  }

  std::string divisor_text(const AppResult& r) const {
    std::string t;
    const bool scaled = r.scenario.scale && r.scenario.score != ScoreKind::Additive;
    if (scaled) t += " ÷ √d_k";
    if (r.scenario.temperature != 1.0) t += " ÷ T";
    if (t.empty())
      return tr(r.scenario.score == ScoreKind::Additive ? "pipeline.divisor.additive" : "pipeline.divisor.off");
    std::string out = "ℓ = s" + t + "  (";
    if (scaled) out += "√d_k = √" + fmt(r.core.d_k, 0) + " = " + fmt(std::sqrt(r.core.d_k));
    if (r.scenario.temperature == 0) return out + std::string(scaled ? ", " : "") + tr("pipeline.divisor.t_zero") + ")";
    if (r.scenario.temperature != 1.0) out += std::string(scaled ? ", " : "") + "T = " + fmt(r.scenario.temperature);
    return out + ")";
  }

  void scaled(State& s, const AppResult& r, const HeadResult& h) {
    text_wrapped(divisor_text(r));
    const GridHit hit =
        grid(s, "L", h.logits, &r.row_labels, &r.col_labels, true, shared_range(s, h), false, &h.logits);
    if (hit.row < 0 || hit.col < 0) return;
    const int i = hit.row, j = hit.col;
    std::string body;
    const bool scaled_on = r.scenario.scale && r.scenario.score != ScoreKind::Additive;
    if (is_masked(h.logits, i, j)) {
      body = tr("pipeline.logit.masked");
    } else if (r.scenario.temperature == 0) {
      body = tr("pipeline.logit.t_zero");
    } else {
      const double sv = h.scores(i, j), sd = std::sqrt(r.core.d_k);
      body = "ℓ = s";
      std::string nums = fmt(sv);
      double v = sv;
      if (scaled_on) {
        body += " ÷ √d_k";
        nums += " ÷ " + fmt(sd);
        v /= sd;
      }
      if (r.scenario.temperature != 1.0) {
        body += " ÷ T";
        nums += " ÷ " + fmt(r.scenario.temperature);
        v /= r.scenario.temperature;
      }
      body += " = " + nums + " = " + fmt(agrees(v, h.logits(i, j)) ? v : h.logits(i, j));
    }
    cell_tooltip(r.row_labels[static_cast<size_t>(i)] + " → " + r.col_labels[static_cast<size_t>(j)], body);
  }

  void weights(State& s, const AppResult& r, const HeadResult& h) {
    text_wrapped(tr("pipeline.weights.what"));
    const GridHit hit =
        grid(s, "A", h.weights, &r.row_labels, &r.col_labels, true, 1.0f, true, &h.logits, SlipMatrix::Weights);
    if (hit.row < 0 || hit.col < 0) return;
    const int i = hit.row, j = hit.col;
    std::string body;
    if (is_masked(h.logits, i, j)) {
      body = tr("pipeline.weight.masked");
    } else if (r.scenario.temperature == 0) {
      body = trf("pipeline.weight.t_zero", {{"a", fmt(h.weights(i, j))}});
    } else {
      const SoftmaxCell c = explain_softmax_cell(row_of(h.logits, i), j);
      if (!c.ok)
        body = trf("pipeline.weight.hard", {{"a", fmt(h.weights(i, j))}});
      else
        body = "A_ij = exp(ℓ_ij − max) / Σ_j exp(ℓ_ij − max)\n  = exp(" + fmt(h.logits(i, j)) + " − " + fmt(c.max) +
               ") / " + fmt(c.exp_sum) + "\n  = " + fmt(c.exps[static_cast<size_t>(j)]) + " / " + fmt(c.exp_sum) +
               "\n  = " + fmt(h.weights(i, j)) + "\n" + trf("pipeline.weight.subtract_max", {{"max", fmt(c.max)}});
    }
    body += slip_note(s, SlipMatrix::Weights, h.weights, i, j);
    cell_tooltip(r.row_labels[static_cast<size_t>(i)] + " → " + r.col_labels[static_cast<size_t>(j)], body);
  }

  void output(State& s, const AppResult& r, const HeadResult& h) {
    text_wrapped(trf("pipeline.output.what",
                     {{"rows", std::to_string(h.output.rows())}, {"cols", std::to_string(h.output.cols())}}));
    const GridHit hit = grid(s, "Z", h.output, &r.row_labels, nullptr, true, 0, false, nullptr, SlipMatrix::Output);
    if (hit.row >= 0 && hit.col >= 0 && h.V.cols() == h.output.cols() && h.weights.cols() == h.V.rows()) {
      const int i = hit.row, c = hit.col;
      cell_tooltip(
          trf("pipeline.row_column", {{"row", r.row_labels[static_cast<size_t>(i)]}, {"col", learner_index(c)}}),
          "z_" + learner_index(i) + "," + learner_index(c) + " = Σ_j A_" + learner_index(i) + "j·v_j," +
              learner_index(c) + dot_terms(lang(), explain_dot(row_of(h.weights, i), col_of(h.V, c)), h.output(i, c)));
    }
    if (!r.core.heads.empty()) {
      section_header(tr("pipeline.all_heads"));
      ImGui::TextDisabled("%s", trf("pipeline.concat", {{"rows", std::to_string(r.core.concat.rows())},
                                                        {"cols", std::to_string(r.core.concat.cols())}})
                                    .c_str());
      grid(s, "concat", r.core.concat, &r.row_labels, nullptr, true);
      ImGui::TextDisabled("%s", tr(r.scenario.W_o ? "pipeline.final_wo" : "pipeline.final_identity"));
      grid(s, "final", r.core.output, &r.row_labels, nullptr, true);
    }
  }

  const PanelContext* ctx_ = nullptr;  // this frame's context (the learner's language)
  int head_ = 0, decimals_ = 4;
};

}  // namespace

std::unique_ptr<Panel> make_pipeline_panel() { return std::make_unique<PipelinePanel>(); }

}  // namespace attn::ui
