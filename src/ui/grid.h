// grid.h — a colour-coded numeric matrix drawn on ImDrawList: one hit-test item per grid, not per cell.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/base/strings.h"
#include "core/attention/scenario.h"

namespace attn::ui {

// At most this many rows/columns are drawn; the rest are summarised as "… (n more)".
constexpr int kGridMaxRows = 16, kGridMaxCols = 16;

struct GridSpec {
  const Mat* m = nullptr;
  const std::vector<std::string>* row_labels = nullptr;  // nullptr → row numbers
  const std::vector<std::string>* col_labels = nullptr;  // nullptr → column numbers
  bool unit = false;                                     // viridis on [0, 1] (weights) instead of diverging around 0
  float range = 0;  // diverging: |value| that gets full colour; ≤ 0 = the visible cells' max
  int decimals = 4;
  int focus_row = -1;                    // kept in view and outlined (the selected query)
  std::function<bool(int, int)> masked;  // cells shown as "masked"; may be empty
  std::function<bool(int, int)> slip;    // cells a note printed wrong: marked in a corner; may be empty
  Lang lang = kDefaultLang;              // of "masked" and the "… (n more rows)" notes
};

struct GridHit {
  int row = -1, col = -1;  // hovered cell, or −1
  bool clicked = false;
};

// Which rows are shown: a window of kGridMaxRows that contains focus_row.
int grid_first_row(int rows, int focus_row);
// Largest |finite value| among the cells a grid would show (for sharing one colour scale).
float grid_visible_abs_max(const Mat& m, int focus_row);
GridHit draw_grid(const char* id, const GridSpec& g);
// The mark of a cell whose number a note printed wrong (grids and the heatmap).
void slip_mark(ImDrawList* dl, ImVec2 c0, ImVec2 c1, ImU32 cell_bg);

}  // namespace attn::ui
