// cross_panel.cpp — encoder–decoder (cross) attention: decoder states query the encoder states of
// "Je suis étudiant", scored three ways side by side — additive (Bahdanau), general (Luong), scaled dot.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/attention.h"
#include "ui/panels.h"
#include "ui/track.h"

namespace attn::ui {
namespace {

constexpr int kWidth = 4;  // state width of the toy encoder and decoder

class CrossPanel : public Panel {
 public:
  const char* title() const override { return "Cross-attention"; }

  void draw(State& s, const AppResult& /*r*/) override {
    ImGui::SetNextWindowPos(ImVec2(240, 90), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(720, 540), ImGuiCond_FirstUseEver);
    if (!ImGui::Begin(title(), open)) {
      ImGui::End();
      return;
    }
    if (seed_ != s.seed || results_.empty()) build(s.seed);
    ImGui::TextWrapped(
        "Encoder states of \"Je suis étudiant\" are the keys and values; the decoder's states for "
        "\"I am a student\" are the queries (seeded, width %d). The same states, three score functions:",
        kWidth);
    const int n = static_cast<int>(decoder_.size());
    ImGui::SliderInt("Decoder step", &step_, 0, n - 1, "%d");
    track("Decoder step");
    step_ = std::clamp(step_, 0, n - 1);
    ImGui::Text("generating after \"%s\": which source word does it look at?",
                decoder_[static_cast<size_t>(step_)].c_str());
    static const char* names[3] = {"additive (Bahdanau)\nv_aᵀ tanh(W_a q + U_a k)", "general (Luong)\nqᵀ W_a k",
                                   "scaled dot product\nq·k / √d_k"};
    const float avail = ImGui::GetContentRegionAvail().x;
    const float tile_w = std::clamp((avail - 24) / 3, 90.0f, 220.0f);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (int k = 0; k < 3; ++k) {
      if (k) ImGui::SameLine(0, 12);
      ImGui::BeginGroup();
      ImGui::TextUnformatted(names[k]);
      if (!errors_[static_cast<size_t>(k)].empty()) {
        ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", errors_[static_cast<size_t>(k)].c_str());
        ImGui::EndGroup();
        continue;
      }
      const Result& res = results_[static_cast<size_t>(k)];
      const Mat& W = res.main.weights;
      const int m = static_cast<int>(W.cols());
      const float cell = tile_w / m;
      const ImVec2 p0 = ImGui::GetCursorScreenPos();
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j)
          dl->AddRectFilled(ImVec2(p0.x + cell * j, p0.y + cell * i),
                            ImVec2(p0.x + cell * (j + 1) - 1, p0.y + cell * (i + 1) - 1), viridis_u32(W(i, j)));
      dl->AddRect(ImVec2(p0.x, p0.y + cell * step_), ImVec2(p0.x + cell * m, p0.y + cell * (step_ + 1)),
                  IM_COL32(255, 190, 60, 255), 0, 0, 2);
      ImGui::Dummy(ImVec2(tile_w, cell * n));
      track("cross:" + std::to_string(k));
      for (int j = 0; j < m; ++j)
        ImGui::Text("%-9s %.3f  (score %.3f)", encoder_[static_cast<size_t>(j)].c_str(),
                    static_cast<double>(W(step_, j)), static_cast<double>(res.main.scores(step_, j)));
      std::string ctx = "context [";
      for (Eigen::Index c = 0; c < res.output.cols(); ++c) {
        char buf[24];
        std::snprintf(buf, sizeof buf, "%s%.2f", c ? ", " : "", static_cast<double>(res.output(step_, c)));
        ctx += buf;
      }
      ImGui::TextUnformatted((ctx + "]").c_str());
      ImGui::EndGroup();
    }
    ImGui::TextWrapped(
        "The context vector is the weighted sum of the encoder states: the decoder reads it before "
        "emitting the next word. Step through the decoder to watch the alignment move.");
    ImGui::End();
  }

 private:
  void build(uint64_t seed) {
    seed_ = seed;
    encoder_ = {"Je", "suis", "étudiant"};
    decoder_ = {"<s>", "I", "am", "a"};
    Mat H(3, kWidth), S(4, kWidth);
    for (int i = 0; i < 3; ++i)
      H.row(i) = random_embedding(seed, "enc:" + encoder_[static_cast<size_t>(i)], i, kWidth).transpose();
    for (int i = 0; i < 4; ++i)
      S.row(i) = random_embedding(seed, "dec:" + decoder_[static_cast<size_t>(i)], i, kWidth).transpose();
    Scenario base;
    base.Q = S;
    base.K = H;
    base.V = H;
    base.tokens = decoder_;
    base.memory_tokens = encoder_;
    Scenario additive = base, general = base, dot = base;
    additive.score = ScoreKind::Additive;
    additive.W_a = random_projection(seed, 'a', kWidth, kWidth);
    additive.U_a = random_projection(seed, 'u', kWidth, kWidth);
    Vec va(kWidth);
    const Mat vcol = random_projection(seed, 'w', kWidth, 1);
    for (int a = 0; a < kWidth; ++a) va(a) = vcol(a, 0) * 2.0f;
    additive.v_a = va;
    additive.scale = false;
    general.score = ScoreKind::General;
    general.W_a = random_projection(seed, 'g', kWidth, kWidth);
    general.scale = false;
    dot.scale = true;
    const Scenario* all[3] = {&additive, &general, &dot};
    results_.assign(3, Result{});
    errors_.assign(3, "");
    for (int k = 0; k < 3; ++k) errors_[static_cast<size_t>(k)] = compute(*all[k], results_[static_cast<size_t>(k)]);
  }

  uint64_t seed_ = 0;
  int step_ = 1;
  std::vector<std::string> encoder_, decoder_;
  std::vector<Result> results_;
  std::vector<std::string> errors_;
};

}  // namespace

std::unique_ptr<Panel> make_cross_panel() { return std::make_unique<CrossPanel>(); }

}  // namespace attn::ui
