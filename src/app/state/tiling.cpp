// tiling.cpp — column tiling of open panels; workspaces as ordered panel lists.
#include "app/state/tiling.h"

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
      {"learn", {P::learn, P::explain}},
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

bool stacks_panels(float width, float font_px) { return width < kNarrowWidth || width < 2 * min_column_width(font_px); }

namespace {
// An open lesson's column: the lesson alone on the left, at the window's full height, so a question, its choices
// and the explanation fit without scrolling; the other panels keep their registry columns to its right (the
// first column's move into the second), or share one column when only two fit.
std::vector<std::vector<PanelId>> lesson_first(const std::vector<PanelId>& panels, int cols) {
  std::vector<std::vector<PanelId>> columns(cols >= 3 ? 3 : 2);
  columns[0].push_back(PanelId::lesson);
  for (PanelId id : panels)
    if (id != PanelId::lesson)
      columns[cols >= 3 ? static_cast<size_t>(std::clamp(panel_info(id).column, 1, 2)) : 1].push_back(id);
  columns.erase(std::remove_if(columns.begin(), columns.end(), [](const auto& c) { return c.empty(); }), columns.end());
  return columns;
}
}  // namespace

std::vector<Tile> tile_panels(const std::vector<PanelId>& panels, float x, float y, float w, float h, float min_col,
                              bool lesson_column) {
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
  // Column c holds its panels: with room for three columns each panel goes to its registry column
  // (empty columns drop out), else k / cols panels in order, the last k % cols columns one more.
  std::vector<std::vector<PanelId>> columns;
  const bool own_column =
      lesson_column && cols >= 2 && k > 1 && std::find(panels.begin(), panels.end(), PanelId::lesson) != panels.end();
  if (own_column) {
    columns = lesson_first(panels, cols);
  } else if (cols >= 3) {
    columns.resize(3);
    for (PanelId id : panels) columns[static_cast<size_t>(std::clamp(panel_info(id).column, 0, 2))].push_back(id);
    columns.erase(std::remove_if(columns.begin(), columns.end(), [](const auto& c) { return c.empty(); }),
                  columns.end());
  } else {
    const int base = k / cols, extra = k % cols;
    int next = 0;
    for (int c = 0; c < cols; ++c) {
      columns.emplace_back();
      for (int r = 0; r < base + (c >= cols - extra ? 1 : 0); ++r)
        columns.back().push_back(panels[static_cast<size_t>(next++)]);
    }
  }
  const int nc = static_cast<int>(columns.size());
  for (int c = 0; c < nc; ++c) {
    const float x0 = std::floor(x + w * static_cast<float>(c) / static_cast<float>(nc));
    const float x1 = std::floor(x + w * static_cast<float>(c + 1) / static_cast<float>(nc));
    float total = 0;
    for (PanelId id : columns[static_cast<size_t>(c)]) total += panel_info(id).weight;
    float acc = 0;
    for (PanelId id : columns[static_cast<size_t>(c)]) {
      const float y0 = std::floor(y + h * acc / total);
      acc += panel_info(id).weight;
      const float y1 = std::floor(y + h * acc / total);
      out.push_back({id, x0, y0, x1 - x0, y1 - y0});
    }
  }
  // Callers get the tiles in the order they asked for.
  std::vector<Tile> ordered;
  for (PanelId id : panels)
    for (const Tile& t : out)
      if (t.id == id) ordered.push_back(t);
  return ordered;
}

}  // namespace attn
