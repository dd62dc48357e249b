// panels.h — one factory per panel; each lives in its own <name>_panel.cpp.
#pragma once

#include <memory>

#include "ui/panel.h"

namespace attn::ui {
std::unique_ptr<Panel> make_controls_panel();
std::unique_ptr<Panel> make_heatmap_panel();
std::unique_ptr<Panel> make_embeddings_panel();
std::unique_ptr<Panel> make_pipeline_panel();
std::unique_ptr<Panel> make_saturation_panel();
std::unique_ptr<Panel> make_variance_panel();
std::unique_ptr<Panel> make_explain_panel();
std::unique_ptr<Panel> make_mask_panel();
std::unique_ptr<Panel> make_heads_panel();
std::unique_ptr<Panel> make_positional_panel();
std::unique_ptr<Panel> make_numerics_panel();
std::unique_ptr<Panel> make_cross_panel();
std::unique_ptr<Panel> make_share_panel(App& app);  // needs the platform's services, not just the state
}  // namespace attn::ui
