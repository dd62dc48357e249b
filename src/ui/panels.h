// panels.h — one factory per registry line (app/state/registry.h): make_<id>_panel(), each in its own file.
#pragma once

#include <memory>

#include "app/state/registry.h"
#include "ui/panel.h"

namespace attn::ui {
#define ATTN_PANEL_FACTORY(id, open, lock, column, weight, shows) std::unique_ptr<Panel> make_##id##_panel();
ATTN_PANELS(ATTN_PANEL_FACTORY)
#undef ATTN_PANEL_FACTORY
// The start view of a first visit (app/start_view.h), below the menu bar at `top`; not a panel of the View menu.
void draw_start_view(PanelContext& ctx, float top);
}  // namespace attn::ui
