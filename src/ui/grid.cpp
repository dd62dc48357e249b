// grid.cpp — matrix grids sized to their visible cells, so a 1024×1024 matrix costs 16×16 cells a frame.
#include "ui/grid.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "ui/panel.h"
#include "ui/plot.h"

namespace attn::ui {
namespace {

std::string label_or_index(const std::vector<std::string>* labels, int i) {
  if (labels && i < static_cast<int>(labels->size())) return (*labels)[static_cast<size_t>(i)];
  return learner_index(i);
}

bool cell_masked(const GridSpec& g, int i, int j) { return g.masked && g.masked(i, j); }

}  // namespace

// A corner triangle in black or white, whichever reads on the cell's colour (as its number does), and
// the cell outlined the same way: seen on every colour of both scales.
void slip_mark(ImDrawList* dl, ImVec2 c0, ImVec2 c1, ImU32 cell_bg) {
  const ImU32 ink = text_on(cell_bg);
  const float k = std::min(std::min(c1.x - c0.x, c1.y - c0.y) * 0.6f, ImGui::GetFontSize() * 0.8f);
  dl->AddTriangleFilled(ImVec2(c1.x - k, c0.y), ImVec2(c1.x, c0.y), ImVec2(c1.x, c0.y + k), ink);
  dl->AddRect(c0, c1, ink, 0, 0, 1.5f);
}

namespace {

// The visible rows r0 … r0 + nr and columns 0 … nc, each cell's text, and the sizes they need.
struct GridCells {
  int rows = 0, cols = 0, r0 = 0, nr = 0, nc = 0;
  std::vector<std::string> text;  // nr × nc, row-major
  float cell_w = 0, label_w = 0, cell_h = 0, head_h = 0;
  float range = 0;   // diverging colour scale
  ImVec2 o, cells0;  // the grid's corner and its first cell's, once placed
};

GridCells measure_grid(const GridSpec& g) {
  const Mat& m = *g.m;
  GridCells G;
  G.rows = static_cast<int>(m.rows());
  G.cols = static_cast<int>(m.cols());
  G.r0 = grid_first_row(G.rows, g.focus_row);
  G.nr = std::min(G.rows - G.r0, kGridMaxRows);
  G.nc = std::min(G.cols, kGridMaxCols);
  const int nr = G.nr, nc = G.nc;

  // Cell text first: its widest entry decides the (uniform) cell width.
  G.text.resize(static_cast<size_t>(nr) * nc);
  float cell_w = ImGui::CalcTextSize("0.00").x, label_w = 0;
  G.range = g.range;
  for (int a = 0; a < nr; ++a) {
    const int i = G.r0 + a;
    label_w = std::max(label_w, ImGui::CalcTextSize(label_or_index(g.row_labels, i).c_str()).x);
    for (int j = 0; j < nc; ++j) {
      std::string& t = G.text[static_cast<size_t>(a) * nc + j];
      t = cell_masked(g, i, j) ? std::string(tr(g.lang, "grid.masked")) : fmt(m(i, j), g.decimals);
      cell_w = std::max(cell_w, ImGui::CalcTextSize(t.c_str()).x);
      if (g.range <= 0 && !cell_masked(g, i, j) && std::isfinite(m(i, j)))
        G.range = std::max(G.range, std::fabs(m(i, j)));
    }
  }
  // Let short column names (tokens) fit too, but never let one long name widen every cell a lot.
  for (int j = 0; j < nc && g.col_labels; ++j)
    cell_w = std::max(
        cell_w, std::min(ImGui::CalcTextSize(label_or_index(g.col_labels, j).c_str()).x, ImGui::GetFontSize() * 5));
  G.cell_w = cell_w + 10;
  G.label_w = std::min(label_w, 110.0f) + 8;
  const float line = ImGui::GetTextLineHeight();
  G.cell_h = line + 4;
  G.head_h = line + 2;
  return G;
}

// Column headers, clipped to their cell, and the "more columns" note beside them.
void draw_column_headers(ImDrawList* dl, const GridSpec& g, const GridCells& G, const std::string& more_cols) {
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  for (int j = 0; j < G.nc; ++j) {
    const std::string h = label_or_index(g.col_labels, j);
    const ImVec2 a(G.cells0.x + G.cell_w * j, G.o.y), b(a.x + G.cell_w, G.o.y + G.head_h);
    const float w = ImGui::CalcTextSize(h.c_str()).x;
    const ImVec4 clip(a.x + 1, a.y, b.x - 2, b.y);
    dl->AddText(nullptr, 0, ImVec2(a.x + std::max(2.0f, (G.cell_w - w) * 0.5f), a.y), dim, h.c_str(), nullptr, 0,
                &clip);
  }
  if (!more_cols.empty()) dl->AddText(ImVec2(G.cells0.x + G.cell_w * G.nc, G.o.y + G.head_h), dim, more_cols.c_str());
}

// Each visible row: its label, clipped to the label column, then its coloured cells.
void draw_rows(ImDrawList* dl, const GridSpec& g, const GridCells& G) {
  const Mat& m = *g.m;
  const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const float cell_w = G.cell_w, cell_h = G.cell_h;
  for (int a = 0; a < G.nr; ++a) {
    const int i = G.r0 + a;
    const float y = G.cells0.y + cell_h * a;
    const std::string rl = label_or_index(g.row_labels, i);
    dl->PushClipRect(ImVec2(G.o.x, y), ImVec2(G.o.x + G.label_w - 4, y + cell_h), true);
    dl->AddText(ImVec2(G.o.x, y + 2), i == g.focus_row ? highlight_col() : text_col, rl.c_str());
    dl->PopClipRect();
    for (int j = 0; j < G.nc; ++j) {
      const ImVec2 c0(G.cells0.x + cell_w * j, y), c1(c0.x + cell_w - 1, y + cell_h - 1);
      const std::string& t = G.text[static_cast<size_t>(a) * G.nc + j];
      ImU32 bg;
      if (cell_masked(g, i, j))
        bg = ImGui::GetColorU32(ImGuiCol_FrameBg);
      else if (!std::isfinite(m(i, j)))
        bg = ImGui::GetColorU32(ImGuiCol_FrameBg);
      else
        bg = g.unit ? viridis_u32(m(i, j)) : diverging_u32(m(i, j), G.range);
      dl->AddRectFilled(c0, c1, bg);
      const float w = ImGui::CalcTextSize(t.c_str()).x;
      const bool plain = cell_masked(g, i, j) || !std::isfinite(m(i, j));
      dl->AddText(ImVec2(c1.x - w - 5, y + 2), plain ? dim : text_on(bg), t.c_str());
      if (g.slip && g.slip(i, j)) slip_mark(dl, c0, c1, bg);
    }
  }
}

// The hovered cell (outlined) and whether the grid was clicked.
GridHit hovered_cell(ImDrawList* dl, const GridCells& G) {
  GridHit hit;
  const ImVec2 mp = ImGui::GetIO().MousePos;
  const int a = static_cast<int>(std::floor((mp.y - G.cells0.y) / G.cell_h));
  const int j = static_cast<int>(std::floor((mp.x - G.cells0.x) / G.cell_w));
  if (a >= 0 && a < G.nr) {
    hit.row = G.r0 + a;
    hit.col = mp.x >= G.cells0.x && j < G.nc ? j : -1;
    hit.clicked = ImGui::IsItemClicked();
    if (hit.col >= 0) {
      const ImVec2 c0(G.cells0.x + G.cell_w * hit.col, G.cells0.y + G.cell_h * a);
      dl->AddRect(c0, ImVec2(c0.x + G.cell_w - 1, c0.y + G.cell_h - 1), ImGui::GetColorU32(ImGuiCol_Text), 0, 0, 1.5f);
    }
  }
  return hit;
}

}  // namespace

int grid_first_row(int rows, int focus_row) {
  if (rows <= kGridMaxRows || focus_row < 0) return 0;
  return std::clamp(focus_row - kGridMaxRows / 2, 0, rows - kGridMaxRows);
}

float grid_visible_abs_max(const Mat& m, int focus_row) {
  const int rows = static_cast<int>(m.rows()), cols = static_cast<int>(m.cols());
  const int r0 = grid_first_row(rows, focus_row);
  float mx = 0;
  for (int i = r0; i < std::min(rows, r0 + kGridMaxRows); ++i)
    for (int j = 0; j < std::min(cols, kGridMaxCols); ++j)
      if (std::isfinite(m(i, j))) mx = std::max(mx, std::fabs(m(i, j)));
  return mx;
}

GridHit draw_grid(const char* id, const GridSpec& g) {
  if (!g.m || g.m->size() == 0) {
    ImGui::TextDisabled("%s", tr(g.lang, "grid.empty"));
    return GridHit{};
  }
  GridCells G = measure_grid(g);
  const int r0 = G.r0, nr = G.nr, nc = G.nc;
  if (r0 > 0) ImGui::TextDisabled("%s", tr_format(g.lang, "grid.rows_above", {{"count", std::to_string(r0)}}).c_str());
  const std::string more_cols =
      G.cols > nc ? "  " + tr_format(g.lang, "grid.more_cols", {{"count", std::to_string(G.cols - nc)}}) : "";
  const float more_w = more_cols.empty() ? 0 : ImGui::CalcTextSize(more_cols.c_str()).x;
  G.o = ImGui::GetCursorScreenPos();
  G.cells0 = ImVec2(G.o.x + G.label_w, G.o.y + G.head_h);
  ImGui::InvisibleButton(id, ImVec2(G.label_w + G.cell_w * nc + more_w, G.head_h + G.cell_h * nr));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  draw_column_headers(dl, g, G, more_cols);
  draw_rows(dl, g, G);
  if (g.focus_row >= r0 && g.focus_row < r0 + nr) {
    const float y = G.cells0.y + G.cell_h * (g.focus_row - r0);
    dl->AddRect(ImVec2(G.cells0.x - 1, y - 1), ImVec2(G.cells0.x + G.cell_w * nc, y + G.cell_h), highlight_col(), 0, 0,
                2.0f);
  }
  const GridHit hit = hovered ? hovered_cell(dl, G) : GridHit{};
  if (r0 + nr < G.rows)
    ImGui::TextDisabled("%s",
                        tr_format(g.lang, "grid.more_rows", {{"count", std::to_string(G.rows - r0 - nr)}}).c_str());
  return hit;
}

}  // namespace attn::ui
