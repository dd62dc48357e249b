// tiling.cpp — column tiling of open panels; workspaces as ordered panel lists.
#include "app/tiling.h"

#include <algorithm>
#include <cmath>

namespace attn {

const std::vector<Workspace>& workspaces() {
  using P = PanelId;
  static const std::vector<Workspace> list = {
      {"scaling", {P::controls, P::embeddings, P::heatmap, P::pipeline, P::saturation, P::variance, P::explain}},
      {"masks-heads", {P::controls, P::heatmap, P::masks, P::heads, P::explain}},
      {"positions", {P::controls, P::embeddings, P::positional, P::heatmap}},
      {"cross-attention", {P::controls, P::cross, P::explain}},
      {"numerics", {P::controls, P::heatmap, P::numerics, P::saturation}},
  };
  return list;
}

const Workspace* find_workspace(const std::string& key) {
  for (const Workspace& w : workspaces())
    if (key == w.key) return &w;
  return nullptr;
}

void apply_workspace(PanelVisibility& panels, const Workspace& w) {
  for (const PanelInfo& info : panel_table())
    if (info.id != PanelId::share)
      panels[info.id] = std::find(w.panels.begin(), w.panels.end(), info.id) != w.panels.end();
}

std::vector<Tile> tile_panels(const std::vector<PanelId>& panels, float x, float y, float w, float h, float min_col) {
  std::vector<Tile> out;
  const int k = static_cast<int>(panels.size());
  if (k == 0 || !(w > 0) || !(h > 0)) return out;
  if (w < kNarrowWidth) {  // phones: one panel per row, full width; the column scrolls
    const float ph = std::floor(h * kStackedHeightShare);
    for (int i = 0; i < k; ++i)
      out.push_back({panels[static_cast<size_t>(i)], x, y + ph * static_cast<float>(i), w, ph});
    return out;
  }
  int cols = std::max(1, std::min(k, static_cast<int>(w / std::max(1.0f, min_col))));
  cols = std::min(cols, 4);
  if (w < h * 1.1f) cols = std::min(cols, 2);  // portrait: two columns at most
  // Column c holds k / cols panels, the last k % cols columns one more (the right-hand column of the
  // default workspace holds the three plots).
  const int base = k / cols, extra = k % cols;
  int next = 0;
  for (int c = 0; c < cols; ++c) {
    const int count = base + (c >= cols - extra ? 1 : 0);
    const float x0 = std::floor(x + w * static_cast<float>(c) / static_cast<float>(cols));
    const float x1 = std::floor(x + w * static_cast<float>(c + 1) / static_cast<float>(cols));
    for (int r = 0; r < count; ++r, ++next) {
      const float y0 = std::floor(y + h * static_cast<float>(r) / static_cast<float>(count));
      const float y1 = std::floor(y + h * static_cast<float>(r + 1) / static_cast<float>(count));
      out.push_back({panels[static_cast<size_t>(next)], x0, y0, x1 - x0, y1 - y0});
    }
  }
  return out;
}

}  // namespace attn
