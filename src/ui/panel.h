// panel.h — what every panel is: a struct with draw(PanelContext&), and the context it draws from.
#pragma once

#include <imgui.h>

#include <string>

#include "app/app.h"
#include "app/state/registry.h"
#include "app/state/state.h"

namespace attn::ui {

// Everything a panel may read or change in one frame, passed down instead of kept in globals:
// the state it edits, the result it draws, the embed locks, the item-rectangle tracker and the
// App (host services, status line, share links).
class PanelContext {
 public:
  explicit PanelContext(App& owner) : state(owner.state), result(owner.result), app(owner) {}
  State& state;
  const AppResult& result;
  App& app;
  // The state changed this frame from outside the widgets (Shell::draw let the active widget go): a field
  // that applies its text when it loses focus must not apply it now, over the change.
  bool outside_change = false;
  // The registry key of the panel being drawn ("" outside panels: menus): the parallel DOM groups by it.
  const char* panel = "";

  // The learner's language: tr("key") is the catalog text, trf("key", {{"w", "0.88"}}) fills placeholders.
  const char* tr(const char* key) const { return attn::tr(state.lang, key); }
  std::string trf(const char* key, StringArgs args) const { return tr_format(state.lang, key, args); }
  // A widget label "text###id": the text in the learner's language, the ImGui id the same in every
  // language (so a switch keeps open trees, active sliders and tab choices).
  std::string label(const char* key, const char* id) const { return std::string(tr(key)) + "###" + id; }
  std::string label(const char* key, ControlId id) const {
    app.item_labels[control_id(id)] = key;  // the parallel DOM names the control's twin the same
    return label(key, control_id(id));
  }

  bool hidden(ControlId control) const;  // embed mode: don't draw the control at all
  bool locked(ControlId control) const;  // embed mode or the lesson step: draw it disabled
  // Records ImGui's last item under the control's id for window.attnplay.ui.itemRect(id) (which also takes
  // the older label-text ids), the keyboard focus and the check that nothing is cut at a panel's edge.
  void track(ControlId control) { track_id(control_id(control)); }
  void track(ControlFamily family, const std::string& index) { track_id(control_id(family, index)); }
  void track_rect(ControlId control, float x, float y, float w, float h) {
    track_rect_id(control_id(control), x, y, w, h);
  }
  void track_rect(ControlFamily family, const std::string& index, float x, float y, float w, float h) {
    track_rect_id(control_id(family, index), x, y, w, h);
  }

  // The fit check alone for the last item (a hint, a line of text that is no control), named `what` if it was cut.
  void check_fit(const std::string& what);

 private:
  void track_id(const std::string& id);
  void track_rect_id(const std::string& id, float x, float y, float w, float h);
  static void draw_focus_ring(float x0, float y0, float x1, float y1);
};

// Everything drawn while this lives is disabled if `control` is locked.
class LockScope {
 public:
  LockScope(const PanelContext& ctx, ControlId control);
  ~LockScope();
  LockScope(const LockScope&) = delete;
  LockScope& operator=(const LockScope&) = delete;

 private:
  bool disabled_;
};

// One widget that edits a lockable control, said once: skip it when hidden, draw it disabled while locked,
// label it and record it under its id.
//   if (Control c(ctx, ControlId::scale); !c.hidden()) { ImGui::Checkbox(c.label("controls.scale").c_str(), &on);
//     c.track(); }
class Control {
 public:
  Control(PanelContext& ctx, ControlId id)
      : ctx_(ctx), id_(id), hidden_(ctx.hidden(id)), disabled_(!hidden_ && ctx.locked(id)) {
    if (disabled_) ImGui::BeginDisabled();
  }
  ~Control() {
    if (disabled_) ImGui::EndDisabled();
  }
  Control(const Control&) = delete;
  Control& operator=(const Control&) = delete;
  bool hidden() const { return hidden_; }
  std::string label(const char* catalog_key) const { return ctx_.label(catalog_key, id_); }
  void track() { ctx_.track(id_); }

 private:
  PanelContext& ctx_;
  ControlId id_;
  bool hidden_, disabled_;
};

// A panel draws the inside of its window; the shell opens and closes the window (one Begin/End for all),
// names it from the registry and places it in the current tiling.
struct Panel {
  virtual ~Panel() = default;
  virtual void draw(PanelContext& ctx) = 0;
  // Extra ImGuiWindowFlags for this panel's window (e.g. AlwaysAutoResize for the Share dialog).
  virtual int window_flags() const { return 0; }
  // Floating panels (not tiled) place themselves here, before the shell calls Begin.
  virtual bool floating() const { return false; }
  virtual void before_begin(PanelContext&) {}
};

// Colour for a value in [0, 1] on the viridis map (same polynomial as shaders/heatmap.frag.glsl).
unsigned viridis_u32(float t);
// Black or white text for a cell of colour `bg`, whichever contrasts more.
unsigned text_on(unsigned bg);
// Diverging blue–white–red for signed values scaled by `range` (pipeline grids).
unsigned diverging_u32(float v, float range);
// A titled divider between groups of controls.
void section_header(const char* text);

}  // namespace attn::ui
