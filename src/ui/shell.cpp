// shell.cpp — [SECTION] fonts · [SECTION] theme · [SECTION] layout · [SECTION] frame
#include "ui/shell.h"

#include <imgui.h>

#include <cstring>
#include <string>

#include "render/assets.h"
#include "ui/panels.h"
#include "ui/track.h"

namespace attn::ui {

Shell::Shell(App& app) : app_(app) {
  panels_.push_back(make_controls_panel());
  panels_.push_back(make_heatmap_panel());
  PanelVisibility& v = app_.state.panels;
  panels_[0]->open = &v.controls;
  panels_[1]->open = &v.heatmap;
}

Shell::~Shell() = default;

// [SECTION] fonts ------------------------------------------------------------------------------
void Shell::init(float pixel_ratio) {
  pixel_ratio_ = pixel_ratio > 0 ? pixel_ratio : 1;
  ImGuiIO& io = ImGui::GetIO();
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  const Asset font = find_asset("ui_font.ttf");
  if (font.data) {
    static ImVector<ImWchar> ranges;  // must outlive the atlas build
    ImFontGlyphRangesBuilder b;
    b.AddRanges(io.Fonts->GetGlyphRangesDefault());
    static const ImWchar extra[] = {0x0100, 0x017F, 0x0370, 0x03FF, 0x1D00, 0x1DBF, 0x2000, 0x214F, 0x2190, 0x22FF,
                                    0x2300, 0x23FF, 0x25A0, 0x25FF, 0};
    b.AddRanges(extra);
    b.BuildRanges(&ranges);
    ImFontConfig cfg;
    cfg.FontDataOwnedByAtlas = false;  // the bytes are static, compiled into the binary
    std::strncpy(cfg.Name, "DejaVu Sans", sizeof cfg.Name - 1);
    // Rasterise at device resolution, draw at logical size: crisp on high-DPI screens.
    io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(font.data), static_cast<int>(font.size),
                                   15.0f * pixel_ratio_, &cfg, ranges.Data);
  } else {
    io.Fonts->AddFontDefault();
  }
  apply_theme();
}

// [SECTION] theme ------------------------------------------------------------------------------
void Shell::apply_theme() {
  if (theme_set_ && dark_applied_ == app_.state.dark_theme) return;
  dark_applied_ = app_.state.dark_theme;
  theme_set_ = true;
  ImGuiStyle& st = ImGui::GetStyle();
  if (dark_applied_)
    ImGui::StyleColorsDark(&st);
  else
    ImGui::StyleColorsLight(&st);
  st.WindowRounding = 4;
  st.FrameRounding = 3;
  st.GrabMinSize = 12;
}

// [SECTION] layout -----------------------------------------------------------------------------
void Shell::layout(float w, float h, float top) {
  // Three columns that never overlap; proportions tuned for 1280×800 and still legible at 1024×768.
  const float H = h - top;
  const float a = w * 0.25f, b = w * 0.40f, c = w - a - b;
  struct Slot {
    const char* title;
    float x, y, w, h;
  };
  const Slot slots[] = {
      {"Controls", 0, top, a, H * 0.58f},
      {"Embeddings", 0, top + H * 0.58f, a, H * 0.42f},
      {"Attention heatmap", a, top, b, H * 0.55f},
      {"Pipeline", a, top + H * 0.55f, b, H * 0.45f},
      {"Saturation", a + b, top, c, H * 0.42f},
      {"Variance lab", a + b, top + H * 0.42f, c, H * 0.30f},
      {"Explanation", a + b, top + H * 0.72f, c, H * 0.28f},
  };
  for (const Slot& s : slots) {
    ImGui::SetWindowPos(s.title, ImVec2(s.x, s.y), ImGuiCond_Always);
    ImGui::SetWindowSize(s.title, ImVec2(s.w, s.h), ImGuiCond_Always);
  }
}

// [SECTION] frame ------------------------------------------------------------------------------
void Shell::draw() {
  ImGuiIO& io = ImGui::GetIO();
  io.FontGlobalScale = app_.state.text_scale / pixel_ratio_;
  apply_theme();
  app_.item_rects.clear();
  bind_item_rects(&app_.item_rects);
  app_.update();

  float top = 0;
  if (ImGui::BeginMainMenuBar()) {
    if (ImGui::BeginMenu("View")) {
      for (auto& p : panels_) ImGui::MenuItem(p->title(), nullptr, p->open);
      ImGui::Separator();
      if (ImGui::MenuItem("Reset layout")) relayout_ = true;
      ImGui::EndMenu();
    }
    ImGui::TextDisabled("Attention Playground — softmax(QKᵀ/√d_k)·V");
    if (!app_.status.empty()) {
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.3f, 1.0f), "%s", app_.status.c_str());
    }
    top = ImGui::GetWindowSize().y;
    ImGui::EndMainMenuBar();
  }

  const ImVec2 ds = io.DisplaySize;
  const bool resized = ds.x != last_w_ || ds.y != last_h_;
  for (auto& p : panels_) {
    if (p->open && !*p->open) continue;
    p->draw(app_.state, app_.result);
  }
  // Layout after the windows exist (SetWindowPos by name needs them), then keep it until resize.
  if (relayout_ || resized) {
    layout(ds.x, ds.y, top);
    relayout_ = false;
    last_w_ = ds.x;
    last_h_ = ds.y;
  }
  ++app_.frames;
}

}  // namespace attn::ui
