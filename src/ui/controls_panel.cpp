// controls_panel.cpp — d_k (log slider), scaling, temperature, sentence, seed, presets, display.
#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "app/presets.h"
#include "ui/lock.h"
#include "ui/panels.h"
#include "ui/track.h"

namespace attn::ui {
namespace {

class ControlsPanel : public Panel {
 public:
  const char* title() const override { return "Controls"; }

  void draw(State& s, const AppResult& r) override {
    if (!ImGui::Begin(title(), open)) {
      ImGui::End();
      return;
    }
    const Preset* current = find_preset(s.preset);
    if (!ui::hidden("preset")) {  // embed mode may lock or hide each control (ui/lock.h)
      ui::LockScope lock_preset("preset");
      ImGui::SetNextItemWidth(-FLT_MIN);
      if (ImGui::BeginCombo("##preset", current ? current->title.c_str() : "Custom", ImGuiComboFlags_HeightLargest)) {
        for (const Preset& p : presets()) {
          const bool selected = current && current->id == p.id;
          if (ImGui::Selectable(p.title.c_str(), selected)) apply_preset(s, p.id);
          ui::track("preset:" + p.id);
          if (selected) ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
      }
      ui::track("Preset");
    }

    section_header("Scaled dot-product");
    const bool random = s.mode == InputMode::Random;
    if (random && !ui::hidden("d_k")) {
      ui::LockScope lock_dk("d_k");
      ImGui::SliderInt("d_k", &s.d_k, kMinDk, kMaxDk, "%d",
                       ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
      ui::track("d_k");
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Width of queries and keys. Unscaled q·k has standard deviation √d_k = %.2f.",
                          std::sqrt(static_cast<double>(s.d_k)));
    } else if (!random) {
      ImGui::Text("d_k = %d (fixed by the example's matrices)", static_cast<int>(r.core.d_k));
    }
    if (!ui::hidden("scale")) {
      ui::LockScope lock_scale("scale");
      ImGui::Checkbox("Scale by 1/√d_k", &s.scale);
      ui::track("Scale by 1/√d_k");
    }
    if (!ui::hidden("temperature")) {
      ui::LockScope lock_temperature("temperature");
      float t = static_cast<float>(s.temperature);
      if (ImGui::SliderFloat("Temperature", &t, 0.0f, 10.0f, "%.3f",
                             ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
        s.temperature = t;
      ui::track("Temperature");
    }

    if (random && !(ui::hidden("sentence") && ui::hidden("seed"))) {
      section_header("Tokens and weights");
    }
    if (random && !ui::hidden("sentence")) {
      ui::LockScope lock_sentence("sentence");
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
      ui::track("Sentence");
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("%d tokens (split at spaces, up to %d)", static_cast<int>(s.embeddings.rows()), kMaxTokens);
      ImGui::PopStyleColor();
    }
    if (random && !ui::hidden("seed")) {
      ui::LockScope lock_seed("seed");
      int seed = static_cast<int>(s.seed & 0x7fffffff);
      if (ImGui::InputInt("Seed", &seed)) {
        s.seed = static_cast<uint64_t>(seed < 0 ? 0 : seed);
        s.embeddings.resize(0, 0);
        sync_embeddings(s, {});
      }
      ui::track("Seed");
      if (ImGui::Button("Re-roll weights")) {
        s.seed += 1;
        s.embeddings.resize(0, 0);
        sync_embeddings(s, {});
      }
      ui::track("Re-roll weights");
      static const char* hint = "(new embeddings and W_Q, W_K, W_V)";
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", hint);
      ImGui::SameLine();
      if (ImGui::GetContentRegionAvail().x >= ImGui::CalcTextSize(hint).x)
        ImGui::TextDisabled("%s", hint);
      else
        ImGui::NewLine();  // a narrow panel: the tooltip says it
    }

    const int n = static_cast<int>(r.core.main.Q.rows());
    if (n > 0 && !ui::hidden("selected_row")) {
      ui::LockScope lock_row("selected_row");
      ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.5f);
      const std::string& label =
          s.selected_row < static_cast<int>(r.row_labels.size()) ? r.row_labels[s.selected_row] : "";
      ImGui::SliderInt("Query row", &s.selected_row, 0, n - 1, label.c_str());
      ui::track("Query row");
    }

    if (!(ui::hidden("theme") && ui::hidden("text_scale"))) section_header("Display");
    if (!ui::hidden("theme")) {
      ui::LockScope lock_theme("theme");
      bool dark = s.dark_theme;
      if (ImGui::Checkbox("Dark theme", &dark)) s.dark_theme = dark;
      ui::track("Dark theme");
    }
    if (!ui::hidden("text_scale")) {
      ui::LockScope lock_text("text_scale");
      ImGui::SliderFloat("Text size", &s.text_scale, 0.75f, 2.0f, "%.2f×", ImGuiSliderFlags_AlwaysClamp);
      ui::track("Text size");
    }
    if (!r.error.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "Cannot compute: %s", r.error.c_str());
    ImGui::End();
  }
};

}  // namespace

std::unique_ptr<Panel> make_controls_panel() { return std::make_unique<ControlsPanel>(); }

}  // namespace attn::ui
