// panels.h — one factory per registry line (app/registry.h): make_<id>_panel(), each in its own file.
#pragma once

#include <memory>

#include "app/registry.h"
#include "ui/panel.h"

namespace attn::ui {
#define ATTN_PANEL_FACTORY(id, open, lock, column, weight, shows) std::unique_ptr<Panel> make_##id##_panel();
ATTN_PANELS(ATTN_PANEL_FACTORY)
#undef ATTN_PANEL_FACTORY
}  // namespace attn::ui
