// controls_panel.cpp — d_k (log slider), scaling, temperature, sentence, seed, presets, display.
#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "app/describe/warnings.h"
#include "app/state/presets.h"
#include "ui/axis_labels.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/tooltip.h"

namespace attn::ui {
namespace {

class ControlsPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    State& s = ctx.state;
    const AppResult& r = ctx.result;
    preset_combo(ctx, s);
    const bool random = s.mode == InputMode::Random;
    attention_controls(ctx, s, r, random);
    if (random && !(ctx.hidden(ControlId::sentence) && ctx.hidden(ControlId::seed))) {
      section_header(ctx.tr("controls.section.tokens"));
    }
    if (random && !ctx.hidden(ControlId::sentence)) sentence_input(ctx, s);
    if (random && !ctx.hidden(ControlId::seed)) seed_controls(ctx, s);
    query_row_slider(ctx, s, r);
    display_controls(ctx, s);
    messages(ctx, s, r);
  }

 private:
  void preset_combo(PanelContext& ctx, State& s) {
    const Preset* current = find_preset(s.preset);
    if (ctx.hidden(ControlId::preset)) return;  // embed mode may lock or hide each control (LockScope, ui/panel.h)
    ui::LockScope lock_preset(ctx, ControlId::preset);
    // The preview ends in "…" where a narrow tile or large text cuts it; the whole title on hover.
    const float preview_w =
        ImGui::GetContentRegionAvail().x - ImGui::GetFrameHeight() - 2 * ImGui::GetStyle().FramePadding.x;
    const std::string preview =
        fit_label(current ? ctx.tr(current->title.c_str()) : ctx.tr("controls.custom"), preview_w);
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::BeginCombo("##preset", preview.c_str(), ImGuiComboFlags_HeightLargest)) {
      for (const Preset& p : presets()) {
        const bool selected = current && current->id == p.id;
        if (ImGui::Selectable((std::string(ctx.tr(p.title.c_str())) + "###" + p.id).c_str(), selected))
          apply_preset(s, p.id);
        ctx.track(ControlFamily::preset_item, p.id);
        if (selected) ImGui::SetItemDefaultFocus();
      }
      ImGui::EndCombo();
    }
    if (current && ImGui::IsItemHovered()) tooltip(ctx.tr(current->title.c_str()));
    ctx.track(ControlId::preset);
  }

  // d_k (only a random scenario's can change), the ÷√d_k switch and the temperature.
  void attention_controls(PanelContext& ctx, State& s, const AppResult& r, bool random) {
    section_header(ctx.tr("controls.section.sdpa"));
    if (ui::Control c(ctx, ControlId::d_k); random && !c.hidden()) {
      ImGui::SliderInt("d_k", &s.d_k, kMinDk, kMaxDk, "%d",
                       ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
      c.track();
      if (ImGui::IsItemHovered())
        tooltip(ctx.trf("controls.d_k.tip", {{"sd", fmt(std::sqrt(static_cast<double>(s.d_k)), 2)}}));
    } else if (!random) {
      ImGui::TextUnformatted(ctx.trf("controls.d_k.fixed", {{"d_k", fmt(r.core.d_k, 0)}}).c_str());
    }
    if (ui::Control c(ctx, ControlId::scale); !c.hidden()) {
      ImGui::Checkbox(c.label("controls.scale").c_str(), &s.scale);
      c.track();
    }
    if (ui::Control c(ctx, ControlId::temperature); !c.hidden()) {
      float t = static_cast<float>(s.temperature);
      if (ImGui::SliderFloat(field_label(c.label("controls.temperature")).c_str(), &t, 0.0f,
                             static_cast<float>(kTemperatureSliderMax), "%.3f",
                             ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
        s.temperature = t;
      c.track();
    }
  }

  void sentence_input(PanelContext& ctx, State& s) {
    ui::LockScope lock_sentence(ctx, ControlId::sentence);
    // As long as a sentence may be (a pasted text of kMaxTokens words fits), not a round number below it.
    std::snprintf(sentence_, sizeof sentence_, "%s", s.sentence.c_str());
    char* buf = sentence_;
    if (ImGui::InputText(field_label(ctx.label("controls.sentence", ControlId::sentence)).c_str(), buf,
                         sizeof sentence_, ImGuiInputTextFlags_EnterReturnsTrue) ||
        (ImGui::IsItemDeactivatedAfterEdit() && !ctx.outside_change)) {
      set_sentence(s, buf);
    }
    ctx.track(ControlId::sentence);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped(ctx.trf("controls.token_count",
                         {{"n", std::to_string(s.embeddings.rows())}, {"max", std::to_string(kMaxTokens)}}));
    ImGui::PopStyleColor();
  }

  void seed_controls(PanelContext& ctx, State& s) {
    ui::LockScope lock_seed(ctx, ControlId::seed);
    int seed = static_cast<int>(s.seed & 0x7fffffff);
    if (ImGui::InputInt(ctx.label("controls.seed", ControlId::seed).c_str(), &seed)) {
      set_seed(s, static_cast<uint64_t>(seed < 0 ? 0 : seed));
    }
    ctx.track(ControlId::seed);
    if (ImGui::Button(ctx.label("controls.reroll", "reroll").c_str())) {
      reroll(s);
    }
    ctx.track(ControlId::reroll);
    const char* hint = ctx.tr("controls.reroll.hint");
    if (ImGui::IsItemHovered()) tooltip(hint);
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x >= ImGui::CalcTextSize(hint).x)
      ImGui::TextDisabled("%s", hint);
    else
      ImGui::NewLine();  // a narrow panel: the tooltip says it
  }

  void query_row_slider(PanelContext& ctx, State& s, const AppResult& r) {
    const int n = static_cast<int>(r.core.main.Q.rows());
    if (n <= 0 || ctx.hidden(ControlId::selected_row)) return;
    ui::LockScope lock_row(ctx, ControlId::selected_row);
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.5f);
    const std::string& label =
        s.selected_row < static_cast<int>(r.row_labels.size()) ? r.row_labels[s.selected_row] : "";
    ImGui::SliderInt(ctx.label("controls.query_row", ControlId::selected_row).c_str(), &s.selected_row, 0, n - 1,
                     label.c_str());
    ctx.track(ControlId::selected_row);
  }

  void display_controls(PanelContext& ctx, State& s) {
    if (!(ctx.hidden(ControlId::theme) && ctx.hidden(ControlId::text_scale)))
      section_header(ctx.tr("controls.section.display"));
    if (ui::Control c(ctx, ControlId::theme); !c.hidden()) {
      bool dark = s.dark_theme;
      if (ImGui::Checkbox(c.label("controls.dark_theme").c_str(), &dark)) s.dark_theme = dark;
      c.track();
    }
    if (ui::Control c(ctx, ControlId::text_scale); !c.hidden()) {
      ImGui::SliderFloat(field_label(c.label("controls.text_size")).c_str(), &s.text_scale, 0.75f, 2.0f, "%.2f×",
                         ImGuiSliderFlags_AlwaysClamp);
      c.track();
    }
  }

  // Why nothing could be computed, and out-of-range numbers the result still shows (clamped logits,
  // overflowing scores, masked rows).
  void messages(PanelContext& ctx, const State& s, const AppResult& r) {
    if (!r.error.empty())
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(bad_col()), "%s",
                         ctx.trf("controls.cannot_compute", {{"error", r.error}}).c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, warn_col());
    for (const std::string& w : result_warnings(r, s.temperature, s.lang)) text_wrapped(w);
    ImGui::PopStyleColor();
  }

  char sentence_[kMaxSentenceBytes + 1] = {};
};

}  // namespace

std::unique_ptr<Panel> make_controls_panel() { return std::make_unique<ControlsPanel>(); }

}  // namespace attn::ui
