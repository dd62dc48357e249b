// panel.h — what every panel is: a window struct with `open` and draw(State&, const AppResult&).
#pragma once

#include "app/app.h"
#include "app/state.h"

namespace attn::ui {

struct Panel {
  virtual ~Panel() = default;
  virtual const char* title() const = 0;  // also the ImGui window name
  virtual void draw(State& s, const AppResult& r) = 0;
  bool* open = nullptr;  // points into State::panels so visibility is part of the shared state
};

// Colour for a value in [0, 1] on the viridis map (same polynomial as shaders/heatmap.frag.glsl).
unsigned viridis_u32(float t);
// Diverging blue–white–red for signed values scaled by `range` (pipeline grids).
unsigned diverging_u32(float v, float range);
// A titled divider between groups of controls.
void section_header(const char* text);

}  // namespace attn::ui
