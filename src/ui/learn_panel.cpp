// learn_panel.cpp — [SECTION] settings · [SECTION] play controls · [SECTION] curves · [SECTION] probe heads ·
// [SECTION] the study:
// two models, one with ÷√d_k and one without (or another single difference), trained live side by side.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/learn/learn.h"
#include "app/learn/learn_text.h"
#include "app/learn/study.h"
#include "core/train/train_tasks.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/tooltip.h"

namespace attn::ui {
namespace {

using train::Difference;
using train::TaskKind;

class LearnPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    train::TrainSettings& st = ctx.state.learn_settings;
    const train::Trainer& t = ctx.app.learn.trainer;
    text_wrapped(ctx.tr("learn.intro"));
    settings(ctx, st);
    controls(ctx, t);
    if (!ctx.app.learn.message.empty())
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(warn_col()), "%s", ctx.app.learn.message.c_str());
    if (!ctx.app.learn.in_page_reason.empty())  // no worker thread: training shares the frame
      text_wrapped(ctx.trf("learn.in_page", {{"error", ctx.app.learn.in_page_reason}}));
    const std::string init_a = learn_init_text(ctx.state.lang, t.settings(), 0);
    const std::string init_b = learn_init_text(ctx.state.lang, t.settings(), 1);
    const ImU32 quiet = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    if (init_a == init_b) {
      text_wrapped("A, B: " + init_a, quiet);
    } else {
      text_wrapped("A: " + init_a, quiet);
      text_wrapped("B: " + init_b, quiet);
    }
    curves(ctx, t);
    probe(ctx, t);
    study(ctx);
  }

 private:
  // [SECTION] settings ----------------------------------------------------------------------------
  void settings(PanelContext& ctx, train::TrainSettings& st) {
    section_header(ctx.tr("learn.setup"));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    const Lang lang = ctx.state.lang;
    if (ImGui::BeginCombo((std::string(ctx.tr("learn.task")) + "###learn-task").c_str(),
                          learn_task_name(lang, st.task).c_str())) {
      for (TaskKind k : kLearnTasks)
        if (ImGui::Selectable(learn_task_name(lang, k).c_str(), k == st.task)) set_learn_task(st, k);
      ImGui::EndCombo();
    }
    ctx.track(ControlId::learn_task);
    if (ImGui::IsItemHovered()) tooltip(learn_task_tip(lang, st.task));
    text_wrapped(learn_task_about(lang, st.task), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    int dk = st.model.d_k;
    if (ImGui::SliderInt((std::string(ctx.tr("learn.dk")) + "###learn-dk").c_str(), &dk, 1, kLearnDkMax, "%d",
                         ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
      set_learn_d_k(st, dk);
    ctx.track(ControlId::learn_d_k);
    int layers = st.model.layers, heads = st.model.heads;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    if (ImGui::SliderInt((std::string(ctx.tr("learn.layers")) + "###learn-layers").c_str(), &layers, 1,
                         kLearnLayersMax))
      st.model.layers = layers;
    ctx.track(ControlId::learn_layers);
    const std::string heads_label = std::string(ctx.tr("learn.heads")) + "###learn-heads";
    same_line_if_fits(ImGui::GetFontSize() * 5 + ImGui::GetStyle().ItemInnerSpacing.x +
                      ImGui::CalcTextSize(ctx.tr("learn.heads")).x);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    if (ImGui::SliderInt(heads_label.c_str(), &heads, 1, kLearnHeadsMax)) st.model.heads = heads;
    ctx.track(ControlId::learn_heads);
    difference(ctx, st);
    float lr = static_cast<float>(st.optim.learning_rate);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    if (ImGui::SliderFloat((std::string(ctx.tr("learn.lr")) + "###learn-lr").c_str(), &lr,
                           static_cast<float>(kLearnLrMin), static_cast<float>(kLearnLrMax), "%.4f",
                           ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
      st.optim.learning_rate = lr;
    ctx.track(ControlId::learn_lr);
    // What the settings cost, shown as they are chosen, before Play.
    bool slow = false;
    const std::string cost = learn_cost_text(lang, st, &slow);
    if (!cost.empty()) text_wrapped(cost, slow ? warn_col() : ImGui::GetColorU32(ImGuiCol_TextDisabled));
  }

  void difference(PanelContext& ctx, train::TrainSettings& st) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    const Lang lang = ctx.state.lang;
    if (ImGui::BeginCombo((std::string(ctx.tr("learn.b_differs")) + "###learn-vary").c_str(),
                          learn_difference_name(lang, st.vary).c_str())) {
      for (Difference d : kLearnDifferences)
        if (ImGui::Selectable(learn_difference_name(lang, d).c_str(), d == st.vary)) st.vary = d;
      ImGui::EndCombo();
    }
    ctx.track(ControlId::learn_vary);
    ImGui::SameLine();
    ImGui::TextDisabled("A: %s · B: %s", learn_model_label(lang, st, 0).c_str(),
                        learn_model_label(lang, st, 1).c_str());
  }

  // [SECTION] play controls -------------------------------------------------------------------------
  void controls(PanelContext& ctx, const train::Trainer& t) {
    bool& playing = ctx.state.learn_playing;
    // As wide as the longer of its two labels, so it does not jump when pressed.
    const float play_w = std::max(button_width(ctx.tr("learn.pause")), button_width(ctx.tr("learn.play")));
    if (ImGui::Button(playing ? ctx.tr("learn.pause") : ctx.tr("learn.play"), ImVec2(play_w, 0))) playing = !playing;
    ctx.track(ControlId::learn_play);
    same_line_if_fits(button_width(ctx.tr("learn.step")));
    if (ImGui::Button(ctx.tr("learn.step"))) learn_step(ctx.app);
    ctx.track(ControlId::learn_step);
    same_line_if_fits(button_width(ctx.tr("learn.reset")));
    if (ImGui::Button(ctx.tr("learn.reset"))) learn_reset(ctx.app);
    ctx.track(ControlId::learn_reset);
    same_line_if_fits(ImGui::GetFontSize() * 6 + ImGui::GetStyle().ItemInnerSpacing.x +
                      ImGui::CalcTextSize(ctx.tr("learn.speed")).x);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::SliderInt((std::string(ctx.tr("learn.speed")) + "###learn-speed").c_str(), &ctx.state.learn_speed, 1,
                     kLearnSpeedMax);
    ctx.track(ControlId::learn_speed);
    same_line_if_fits(button_width(ctx.tr("learn.export")));
    if (ImGui::Button(ctx.tr("learn.export")) && ctx.app.host.download)
      ctx.app.download("attnplay-train.json", "application/json", t.to_json(true).dump(1));
    ctx.track(ControlId::learn_export);
    ImGui::Text("%s", ctx.trf("learn.steps", {{"steps", std::to_string(t.steps_done())},
                                              {"planned", std::to_string(t.settings().steps)}})
                          .c_str());
    const std::string outcome = learn_outcome(ctx.state.lang, t);
    if (!outcome.empty()) {
      text_wrapped(outcome);
      ctx.track(ControlId::learn_outcome);
      text_wrapped(ctx.tr("learn.outcome.note"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    }
  }

  // [SECTION] curves --------------------------------------------------------------------------------
  void curves(PanelContext& ctx, const train::Trainer& t) {
    const auto& a = t.curve(0);
    const auto& b = t.curve(1);
    const size_t n = std::max(a.size(), b.size());
    double top = 0.1;
    for (const auto* c : {&a, &b})
      for (const auto& r : *c) top = std::max(top, std::isfinite(r.loss) ? r.loss : 0.0);
    section_header(ctx.tr("learn.loss"));
    const Lang lang = ctx.state.lang;
    legend_row({{scaled_col(), "A " + learn_model_label(lang, t.settings(), 0)},
                {unscaled_col(), "B " + learn_model_label(lang, t.settings(), 1)}});
    {
      Plot p("learn-loss", ImGui::GetFontSize() * 7, Axis{0, static_cast<double>(std::max<size_t>(n, 10))},
             Axis{0, top * 1.05});
      for (int which = 0; which < 2; ++which) {
        const auto& c = which == 0 ? a : b;
        std::vector<double> xs, loss, acc;
        for (size_t i = 0; i < c.size(); ++i) {
          xs.push_back(static_cast<double>(i + 1));
          loss.push_back(c[i].loss);
        }
        p.line(xs, loss, which == 0 ? scaled_col() : unscaled_col());
      }
    }
    ctx.track(ControlId::learn_loss_plot);
    section_header(ctx.tr("learn.accuracy"));
    {
      Plot p("learn-acc", ImGui::GetFontSize() * 5, Axis{0, static_cast<double>(std::max<size_t>(n, 10))}, Axis{0, 1});
      for (int which = 0; which < 2; ++which) {
        const auto& c = which == 0 ? a : b;
        std::vector<double> xs, acc;
        for (size_t i = 0; i < c.size(); ++i) {
          xs.push_back(static_cast<double>(i + 1));
          acc.push_back(c[i].accuracy);
        }
        p.line(xs, acc, which == 0 ? scaled_col() : unscaled_col());
      }
      p.hline(0.9, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    }
    stats_table(ctx, a, b);
  }

  void stats_table(PanelContext& ctx, const std::vector<train::StepRecord>& a,
                   const std::vector<train::StepRecord>& b) {
    if (!ImGui::BeginTable("learn-stats", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchProp)) return;
    ImGui::TableSetupColumn(ctx.tr("learn.this_step"));
    ImGui::TableSetupColumn("A");
    ImGui::TableSetupColumn("B");
    ImGui::TableHeadersRow();
    struct Row {
      const char* key;
      double train::StepRecord::*field;
    };
    const Row rows[] = {{"learn.stat.loss", &train::StepRecord::loss},
                        {"learn.stat.accuracy", &train::StepRecord::accuracy},
                        {"learn.stat.jacobian", &train::StepRecord::jacobian_norm},
                        {"learn.stat.logit_grad", &train::StepRecord::logit_grad_norm},
                        {"learn.stat.entropy", &train::StepRecord::entropy}};
    for (const Row& r : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(ctx.tr(r.key));
      for (const auto* c : {&a, &b}) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(c->empty() ? "—" : fmt(c->back().*(r.field), 4).c_str());
      }
    }
    ImGui::EndTable();
    ctx.track(ControlId::learn_stats);
    // Why B's logit gradient stays larger once A has learned (read the other way, it says the opposite of the lesson).
    text_wrapped(ctx.tr("learn.stat.logit_grad_note"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
  }

  // [SECTION] the study -----------------------------------------------------------------------------
  // The scaling study's table (one run above is one seed at one rate; this is the spread) and its reversal.
  void study(PanelContext& ctx) {
    const auto table = study_table(ctx.state.lang);
    if (table.size() < 2 ||
        !ImGui::CollapsingHeader((std::string(ctx.tr("learn.study.title")) + "###learn-study").c_str(),
                                 ImGuiTreeNodeFlags_DefaultOpen))
      return;
    text_wrapped(ctx.tr("learn.study.about"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    const int columns = static_cast<int>(table[0].size());
    if (ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 40) {
      // Too narrow for five columns (a phone): each configuration as a short block, every cell with its heading.
      for (size_t r = 1; r < table.size(); ++r) {
        ImGui::Separator();
        ImGui::TextUnformatted(table[r][0].c_str());
        for (size_t c = 1; c < table[r].size(); ++c) text_wrapped(table[0][c] + ": " + table[r][c]);
      }
    } else if (ImGui::BeginTable("learn-study-table", columns,
                                 ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) {
      for (const std::string& head : table[0])
        ImGui::TableSetupColumn(head.c_str(), ImGuiTableColumnFlags_WidthStretch);
      ImGui::TableHeadersRow();
      for (size_t r = 1; r < table.size(); ++r) {
        ImGui::TableNextRow();
        for (const std::string& cell : table[r]) {
          ImGui::TableNextColumn();
          ImGui::TextWrapped("%s", cell.c_str());
        }
      }
      ImGui::EndTable();
    }
    ctx.track(ControlId::learn_study);
    const std::string about = reversal_text(ctx.state.lang);
    if (about.empty()) return;
    text_wrapped(about);
    if (ImGui::Button(ctx.tr("learn.study.reversal"))) learn_open_reversal(ctx.app);
    ctx.track(ControlId::learn_reversal);
  }

  // [SECTION] probe heads ---------------------------------------------------------------------------
  void probe(PanelContext& ctx, const train::Trainer& t) {
    section_header(ctx.tr("learn.probe"));
    text_wrapped(ctx.tr("learn.probe_legend"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    const float cell = std::clamp(ImGui::GetContentRegionAvail().x / 9.0f, 40.0f, 120.0f);
    for (int which = 0; which < 2; ++which) {
      const train::ProbeView& v = t.probe(which);
      if (pictures_[which].size() < v.heads.size()) pictures_[which].resize(v.heads.size());
      ImGui::Text("%s %s", which == 0 ? "A" : "B", learn_model_label(ctx.state.lang, t.settings(), which).c_str());
      for (size_t k = 0; k < v.heads.size(); ++k) {
        const train::HeadView& h = v.heads[k];
        if (k > 0) same_line_if_fits(std::max(cell, button_width(ctx.tr("learn.open"))));
        ImGui::BeginGroup();
        const ImVec2 p0 = ImGui::GetCursorScreenPos();
        const Thumbnail& picture = pictures_[which][k].get(v.pass, h.weights, true);
        draw_thumbnail(ImGui::GetWindowDrawList(), p0, cell, cell, picture, true);
        ImGui::Dummy(ImVec2(cell, cell));
        const std::string id =
            std::string(which == 0 ? "a:" : "b:") + std::to_string(h.layer) + ":" + std::to_string(h.head);
        ctx.track(ControlFamily::learn_head, id);
        if (ImGui::IsItemHovered())
          tooltip(ctx.trf("learn.head_tip", {{"layer", std::to_string(h.layer + 1)},
                                             {"head", std::to_string(h.head + 1)},
                                             {"prev", fmt(h.previous_token, 2)},
                                             {"induction", fmt(h.induction, 2)}}));
        // Under the picture and no wider: "layer 1, head 2" wraps inside the cell.
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + cell);
        ImGui::TextDisabled("%s", ctx.trf("learn.head_label", {{"layer", std::to_string(h.layer + 1)},
                                                               {"head", std::to_string(h.head + 1)}})
                                      .c_str());
        ImGui::PopTextWrapPos();
        ImGui::PushID(id.c_str());
        if (ImGui::Button(ctx.tr("learn.open"))) {
          const std::string err = open_head_in_playground(ctx.app, which, h.layer, h.head);
          ctx.app.status = err.empty() ? ctx.tr("learn.opened") : err;
        }
        ImGui::PopID();
        ImGui::EndGroup();
      }
      induction_note(ctx, t, v);
    }
  }

  // Once a two-layer model solves induction: which head looks at the previous token, which one at
  // the token after the earlier occurrence.
  void induction_note(PanelContext& ctx, const train::Trainer& t, const train::ProbeView& v) {
    if (t.settings().task != TaskKind::Induction || t.settings().model.layers < 2 || v.heads.empty()) return;
    const train::HeadView* prev = nullptr;
    const train::HeadView* ind = nullptr;
    for (const auto& h : v.heads) {
      if (h.layer == 0 && (!prev || h.previous_token > prev->previous_token)) prev = &h;
      if (h.layer == 1 && (!ind || h.induction > ind->induction)) ind = &h;
    }
    if (!prev || !ind || ind->induction < 0.4 || prev->previous_token < 0.4) {
      text_wrapped(ctx.tr("learn.no_induction_yet"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
      return;
    }
    text_wrapped(ctx.trf("learn.induction", {{"prev_layer", std::to_string(prev->layer + 1)},
                                             {"prev_head", std::to_string(prev->head + 1)},
                                             {"prev", fmt(prev->previous_token, 2)},
                                             {"ind_layer", std::to_string(ind->layer + 1)},
                                             {"ind_head", std::to_string(ind->head + 1)},
                                             {"induction", fmt(ind->induction, 2)}}));
  }

 private:
  std::vector<ThumbnailCache> pictures_[2];  // each head of model A and B on the probe example, kept per pass
};

}  // namespace

std::unique_ptr<Panel> make_learn_panel() { return std::make_unique<LearnPanel>(); }

}  // namespace attn::ui
