// panels.h — one factory per panel; each lives in its own <name>_panel.cpp.
#pragma once

#include <memory>

#include "ui/panel.h"

namespace attn::ui {
std::unique_ptr<Panel> make_controls_panel();
std::unique_ptr<Panel> make_heatmap_panel();
}  // namespace attn::ui
