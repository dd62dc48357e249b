// controls_panel.cpp — d_k (log slider), scaling, temperature, sentence, seed, presets, display.
#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "app/presets.h"
#include "ui/panels.h"

namespace attn::ui {
namespace {

class ControlsPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    State& s = ctx.state;
    const AppResult& r = ctx.result;
    const Preset* current = find_preset(s.preset);
    if (!ctx.hidden("preset")) {  // embed mode may lock or hide each control (ui/lock.h)
      ui::LockScope lock_preset(ctx, "preset");
      ImGui::SetNextItemWidth(-FLT_MIN);
      if (ImGui::BeginCombo("##preset", current ? current->title.c_str() : "Custom", ImGuiComboFlags_HeightLargest)) {
        for (const Preset& p : presets()) {
          const bool selected = current && current->id == p.id;
          if (ImGui::Selectable(p.title.c_str(), selected)) apply_preset(s, p.id);
          ctx.track("preset:" + p.id);
          if (selected) ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
      }
      ctx.track("Preset");
    }

    section_header("Scaled dot-product");
    const bool random = s.mode == InputMode::Random;
    if (random && !ctx.hidden("d_k")) {
      ui::LockScope lock_dk(ctx, "d_k");
      ImGui::SliderInt("d_k", &s.d_k, kMinDk, kMaxDk, "%d",
                       ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
      ctx.track("d_k");
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Width of queries and keys. Unscaled q·k has standard deviation √d_k = %.2f.",
                          std::sqrt(static_cast<double>(s.d_k)));
    } else if (!random) {
      ImGui::Text("d_k = %d (fixed by the example's matrices)", static_cast<int>(r.core.d_k));
    }
    if (!ctx.hidden("scale")) {
      ui::LockScope lock_scale(ctx, "scale");
      ImGui::Checkbox("Scale by 1/√d_k", &s.scale);
      ctx.track("Scale by 1/√d_k");
    }
    if (!ctx.hidden("temperature")) {
      ui::LockScope lock_temperature(ctx, "temperature");
      float t = static_cast<float>(s.temperature);
      if (ImGui::SliderFloat("Temperature", &t, 0.0f, 10.0f, "%.3f",
                             ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
        s.temperature = t;
      ctx.track("Temperature");
    }

    if (random && !(ctx.hidden("sentence") && ctx.hidden("seed"))) {
      section_header("Tokens and weights");
    }
    if (random && !ctx.hidden("sentence")) {
      ui::LockScope lock_sentence(ctx, "sentence");
      char buf[4096];
      std::snprintf(buf, sizeof buf, "%s", s.sentence.c_str());
      if (ImGui::InputText("Sentence", buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue) ||
          (ImGui::IsItemDeactivatedAfterEdit())) {
        if (!split_tokens(buf).empty() && s.sentence != buf) {
          const auto before = split_tokens(s.sentence);
          s.sentence = buf;
          s.key_padding.clear();
          sync_embeddings(s, before);
        }
      }
      ctx.track("Sentence");
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("%d tokens (split at spaces, up to %d)", static_cast<int>(s.embeddings.rows()), kMaxTokens);
      ImGui::PopStyleColor();
    }
    if (random && !ctx.hidden("seed")) {
      ui::LockScope lock_seed(ctx, "seed");
      int seed = static_cast<int>(s.seed & 0x7fffffff);
      if (ImGui::InputInt("Seed", &seed)) {
        s.seed = static_cast<uint64_t>(seed < 0 ? 0 : seed);
        s.embeddings.resize(0, 0);
        sync_embeddings(s, {});
      }
      ctx.track("Seed");
      if (ImGui::Button("Re-roll weights")) {
        s.seed += 1;
        s.embeddings.resize(0, 0);
        sync_embeddings(s, {});
      }
      ctx.track("Re-roll weights");
      static const char* hint = "(new embeddings and W_Q, W_K, W_V)";
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", hint);
      ImGui::SameLine();
      if (ImGui::GetContentRegionAvail().x >= ImGui::CalcTextSize(hint).x)
        ImGui::TextDisabled("%s", hint);
      else
        ImGui::NewLine();  // a narrow panel: the tooltip says it
    }

    const int n = static_cast<int>(r.core.main.Q.rows());
    if (n > 0 && !ctx.hidden("selected_row")) {
      ui::LockScope lock_row(ctx, "selected_row");
      ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.5f);
      const std::string& label =
          s.selected_row < static_cast<int>(r.row_labels.size()) ? r.row_labels[s.selected_row] : "";
      ImGui::SliderInt("Query row", &s.selected_row, 0, n - 1, label.c_str());
      ctx.track("Query row");
    }

    if (!(ctx.hidden("theme") && ctx.hidden("text_scale"))) section_header("Display");
    if (!ctx.hidden("theme")) {
      ui::LockScope lock_theme(ctx, "theme");
      bool dark = s.dark_theme;
      if (ImGui::Checkbox("Dark theme", &dark)) s.dark_theme = dark;
      ctx.track("Dark theme");
    }
    if (!ctx.hidden("text_scale")) {
      ui::LockScope lock_text(ctx, "text_scale");
      ImGui::SliderFloat("Text size", &s.text_scale, 0.75f, 2.0f, "%.2f×", ImGuiSliderFlags_AlwaysClamp);
      ctx.track("Text size");
    }
    if (!r.error.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "Cannot compute: %s", r.error.c_str());
  }
};

}  // namespace

std::unique_ptr<Panel> make_controls_panel() { return std::make_unique<ControlsPanel>(); }

}  // namespace attn::ui
