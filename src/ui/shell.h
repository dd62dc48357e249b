// shell.h — the UI around the App: fonts, theme, menu, layout, and every panel, once per frame.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "app/app.h"
#include "app/state/tiling.h"
#include "ui/panel.h"

namespace attn::ui {

class Shell {
 public:
  explicit Shell(App& app);
  ~Shell();
  // After ImGui::CreateContext and the backends: loads the font at `pixel_ratio` for crisp text.
  void init(float pixel_ratio);
  // Between ImGui::NewFrame and ImGui::Render.
  void draw();

 private:
  void draw_frame();  // all but the tooltips, which go over everything
  void apply_theme();
  void draw_panel(PanelContext& ctx, PanelId id, const Tile* tile, bool closable);
  void draw_panel_body(PanelContext& ctx, PanelId id);
  void follow_kept_scroll(const char* key, size_t slot);
  void draw_stacked(PanelContext& ctx, const std::vector<PanelId>& ids, float top, float bottom);
  float draw_lesson_sheet(PanelContext& ctx, float top);
  void stack_with_lesson_sheet(PanelContext& ctx, std::vector<PanelId> ids, float top);
  void draw_embedded(PanelContext& ctx);
  float draw_menu_bar(PanelContext& ctx);
  std::vector<PanelId> tiled_panels() const;
  App& app_;
  uint64_t drawn_stamp_ = 0;                                // App::state_stamp() when the widgets had last drawn
  std::array<std::unique_ptr<Panel>, kPanelCount> panels_;  // indexed by PanelId
  struct ScrollFollow {
    uint64_t loads = 0;  // App::progress_loads whose kept scroll this window has applied
    int tries = 0;       // frames spent waiting for its content to be tall enough
  };
  std::array<ScrollFollow, kPanelCount + 1> scroll_follow_{};  // per PanelId, and the phone's column last
  float pixel_ratio_ = 1;
  bool dark_applied_ = false, theme_set_ = false;
  bool lesson_sheet_folded_ = false;  // phones: the lesson sheet shows only its title bar
  std::string scrolled_to_step_;      // phones: "<lesson>#<step>" whose panel the column last brought up
  int scroll_frames_left_ = 0;
  std::string scroll_to_panel_;  // phones: a panel just opened from the View menu, to bring into view
  // The bar had no room for the Share menu's title last frame (a longer language on a phone): Share is then the
  // View menu's last item.
  bool share_in_view_menu_ = false;
  std::string scroll_target_;  // phones: the panel the column is bringing to its top        // frames that still bring
                               // it to the top (the column's height settles first)
};

}  // namespace attn::ui
