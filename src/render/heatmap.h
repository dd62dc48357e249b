// heatmap.h — attention weights drawn by a GLSL colormap shader into a texture, one texel per
// cell, so n = 2048 (4 M cells) costs one upload and one draw instead of millions of ImGui rects.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

// Set once by the platform layer: "#version 300 es" (WebGL2) or "#version 330 core".
void set_glsl_version(const char* version_line);

// How many colormap passes have run so far, in all heatmaps: a frame whose draw lists did not change
// still shows new pixels when this moved (its textures changed under the same names).
uint64_t offscreen_passes();

class HeatmapRenderer {
 public:
  HeatmapRenderer() = default;
  HeatmapRenderer(const HeatmapRenderer&) = delete;
  HeatmapRenderer& operator=(const HeatmapRenderer&) = delete;
  ~HeatmapRenderer();

  // values: rows×cols, row-major, in [0, 1]; negative values mark masked cells (drawn hatched grey).
  // Re-renders only when `revision` differs from the last call.
  void update(const float* values, int rows, int cols, uint64_t revision);
  unsigned texture() const { return color_tex_; }  // RGBA8, cols×rows texels
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  const std::string& error() const { return error_; }

 private:
  bool ensure_program();
  unsigned program_ = 0, vao_ = 0, value_tex_ = 0, color_tex_ = 0, fbo_ = 0;
  int rows_ = 0, cols_ = 0, tex_rows_ = 0, tex_cols_ = 0;
  uint64_t revision_ = ~0ull;
  std::string error_;
};

}  // namespace attn
