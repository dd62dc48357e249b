// shell.h — the UI around the App: fonts, theme, menu, layout, and every panel, once per frame.
#pragma once

#include <memory>
#include <vector>

#include "app/app.h"
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
  // Window layout for the given display size (done on first frame and when the size changes).
  void request_layout() { relayout_ = true; }

 private:
  void apply_theme();
  void layout(float w, float h, float top);
  App& app_;
  std::vector<std::unique_ptr<Panel>> panels_;
  float pixel_ratio_ = 1;
  bool relayout_ = true;
  bool dark_applied_ = false, theme_set_ = false;
  float last_w_ = 0, last_h_ = 0;
};

}  // namespace attn::ui
