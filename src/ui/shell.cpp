// shell.cpp — [SECTION] fonts · [SECTION] theme · [SECTION] layout · [SECTION] frame
#include "ui/shell.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "app/embed.h"
#include "render/assets.h"
#include "ui/lock.h"
#include "ui/panels.h"
#include "ui/track.h"

namespace attn::ui {

Shell::Shell(App& app) : app_(app) {
  PanelVisibility& v = app_.state.panels;
  auto add = [&](std::unique_ptr<Panel> p, bool* flag) {
    p->open = flag;
    panels_.push_back(std::move(p));
  };
  add(make_controls_panel(), &v.controls);
  add(make_embeddings_panel(), &v.embeddings);
  add(make_heatmap_panel(), &v.heatmap);
  add(make_pipeline_panel(), &v.pipeline);
  add(make_saturation_panel(), &v.saturation);
  add(make_variance_panel(), &v.variance);
  add(make_explain_panel(), &v.explain);
  add(make_share_panel(app_), &v.share);
  add(make_mask_panel(), &v.masks);
  add(make_heads_panel(), &v.heads);
  add(make_positional_panel(), &v.positional);
  add(make_numerics_panel(), &v.numerics);
  add(make_cross_panel(), &v.cross);
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
    static const ImWchar extra[] = {0x0100, 0x017F, 0x0370, 0x03FF, 0x1D00, 0x1DBF, 0x2000, 0x214F,
                                    0x2190, 0x22FF, 0x2300, 0x23FF, 0x25A0, 0x25FF, 0};
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
  const float a = std::max(w * 0.25f, std::min(300.0f, w * 0.3f)), b = w * 0.40f, c = w - a - b;
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

// [SECTION] embed mode -------------------------------------------------------------------------
namespace {
// An <iframe> on a course page: no menu bar, no scrollbars, no close buttons; the listed panels tile
// whatever size the frame has. Locked controls are drawn disabled and any change to them is undone.
void draw_embedded(App& app, std::vector<std::unique_ptr<Panel>>& panels) {
  const EmbedSettings& e = app.embed;
  std::vector<Panel*> shown;
  auto find = [&](const std::string& id) -> Panel* {
    const bool* flag = panel_flag(app.state.panels, id);
    for (auto& p : panels)
      if (flag && p->open == flag) return p.get();
    return nullptr;
  };
  if (!e.panels.empty()) {
    for (const std::string& id : e.panels)
      if (Panel* p = find(id)) shown.push_back(p);
  } else {
    for (auto& p : panels)
      if (p->open && *p->open && p->open != &app.state.panels.share) shown.push_back(p.get());
  }
  const ImVec2 ds = ImGui::GetIO().DisplaySize;
  const int k = static_cast<int>(shown.size());
  // Side by side while each panel keeps ≥ 300 px of width, then rows; the last row stretches.
  int cols = k;
  if (k > 0 && ds.x < ds.y * 1.1f)
    cols = std::min(k, ds.x >= 700 ? 2 : 1);
  else if (k > 0)
    cols = std::max(1, std::min(k, static_cast<int>(ds.x / 300)));
  const int rows = k > 0 ? (k + cols - 1) / cols : 1;
  const bool any_lock = !e.locked.empty() || !e.hidden.empty();
  State before;
  if (any_lock) before = app.state;
  ImGui::PushStyleVar(ImGuiStyleVar_ScrollbarSize, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  for (int idx = 0; idx < k; ++idx) {
    const int row = idx / cols, col = idx % cols;
    const int in_row = row == rows - 1 ? k - row * cols : cols;
    const float w = ds.x / static_cast<float>(in_row), h = ds.y / static_cast<float>(rows);
    Panel* p = shown[static_cast<size_t>(idx)];
    ImGui::SetNextWindowPos(ImVec2(std::floor(w * col), std::floor(h * row)), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(std::ceil(w), std::ceil(h)), ImGuiCond_Always);
    ImGui::SetNextWindowCollapsed(false, ImGuiCond_Always);
    bool* flag = p->open;
    p->open = nullptr;  // no close button: the embedding page decides what shows
    // Panels that edit one locked thing throughout are disabled as a whole.
    const PanelVisibility& pv = app.state.panels;
    const bool disable_all = (flag == &pv.embeddings && locked("embeddings")) ||
                             (flag == &pv.masks && locked("mask")) || (flag == &pv.heads && locked("heads")) ||
                             (flag == &pv.positional && locked("positional_encoding"));
    if (disable_all) ImGui::BeginDisabled();
    p->draw(app.state, app.result);
    if (disable_all) ImGui::EndDisabled();
    p->open = flag;
  }
  ImGui::PopStyleVar(2);
  if (any_lock) revert_locked(app.state, before, e);
  if (!app.status.empty()) {  // no menu bar to show it in: a strip along the bottom edge
    const float wrap = std::max(100.0f, ds.x - 24);
    const ImVec2 ts = ImGui::CalcTextSize(app.status.c_str(), nullptr, false, wrap);
    ImDrawList* fg = ImGui::GetForegroundDrawList();
    fg->AddRectFilled(ImVec2(4, ds.y - ts.y - 14), ImVec2(ts.x + 18, ds.y - 4), IM_COL32(70, 40, 20, 235), 4);
    fg->AddText(nullptr, 0, ImVec2(11, ds.y - ts.y - 9), IM_COL32(255, 205, 130, 255), app.status.c_str(), nullptr,
                wrap);
    const ImVec2 m = ImGui::GetIO().MousePos;
    if (ImGui::IsMouseClicked(0) && m.x >= 4 && m.x <= ts.x + 18 && m.y >= ds.y - ts.y - 14)
      app.status.clear();  // dismiss
  }
}
}  // namespace

// [SECTION] frame ------------------------------------------------------------------------------
void Shell::draw() {
  ImGuiIO& io = ImGui::GetIO();
  io.FontGlobalScale = app_.state.text_scale / pixel_ratio_;
  apply_theme();
  app_.item_rects.clear();
  bind_item_rects(&app_.item_rects);
  app_.update_frame();

  bind_embed(&app_.embed);
  if (app_.embed.enabled) {
    draw_embedded(app_, panels_);
    ++app_.frames;
    return;
  }

  float top = 0;
  if (ImGui::BeginMainMenuBar()) {
    if (ImGui::BeginMenu("View")) {
      for (auto& p : panels_) ImGui::MenuItem(p->title(), nullptr, p->open);
      ImGui::Separator();
      if (ImGui::MenuItem("Reset layout")) relayout_ = true;
      ImGui::EndMenu();
    }
    if (ImGui::MenuItem("Share…")) app_.state.panels.share = true;  // links, embed code, export, import
    track("Share…");
    ImGui::TextDisabled("Attention Playground — softmax(QKᵀ/√d_k)·V");
    if (app_.result.pending >= 0) {  // a long recomputation running across frames
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1.0f), "computing… %d%%",
                         static_cast<int>(app_.result.pending * 100));
    }
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
