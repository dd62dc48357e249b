// tiling.h — where each open panel goes: one module for the full page, embed mode and narrow screens.
#pragma once

#include <string>
#include <vector>

#include "app/state/registry.h"

namespace attn {

struct Tile {
  PanelId id;
  float x, y, w, h;
};

// Named layouts: which panels a workspace opens, in tiling order.
struct Workspace {
  const char* key;  // "scaling" (links: workspace=scaling); its name is the catalog's "workspace.scaling"
  std::vector<PanelId> panels;
};
const std::vector<Workspace>& workspaces();
const Workspace* find_workspace(const std::string& key);
// Opens exactly the workspace's panels (the Share dialog keeps its state).
void apply_workspace(PanelVisibility& panels, const Workspace& w);

// Below this width (CSS or logical pixels) panels stack one per row at full width.
constexpr float kNarrowWidth = 700;
// A tiled column is at least this many font sizes wide, so larger text gets fewer, wider columns
// instead of clipped labels.
constexpr float kMinColumnEms = 22;
// Whether panels stack one per row: a narrow screen, or text so large that two columns do not fit
// (stacked, each panel keeps most of the screen's height and the column scrolls). At the default text
// size (15 px) two columns need 660 px, less than kNarrowWidth: only larger text stacks wider screens.
bool stacks_panels(float width, float font_px);
// The narrowest column for text of this size.
inline float min_column_width(float font_px) { return kMinColumnEms * font_px; }
// Height of a stacked panel on a narrow screen, as a share of the viewport (the column scrolls).
constexpr float kStackedHeightShare = 0.85f;
// On a narrow screen the open lesson is a sheet docked at the bottom, this share of the height below the menu,
// so the panel it asks about stays in sight above it.
constexpr float kLessonSheetShare = 0.36f;
// A step that asks a question takes more: its text, the question and every choice (or the answer box) in the sheet,
// with room left above for the panel it asks about (tests/browser/phone-steps.test.mjs).
constexpr float kLessonSheetQuestionShare = 0.6f;
// On a short screen (400 % zoom: 320 × 256 CSS px) a share is a line or two: the sheet takes at least this many
// lines of text, as long as one panel header still shows above it (tests/browser/zoom.test.mjs).
constexpr float kLessonSheetMinLines = 8;

// Tiles `panels` (in order) into the area x, y, w, h without overlap: columns of at least `min_col`
// pixels, filled top to bottom, the later columns taking the remainder; a portrait area uses at most
// two columns; an area narrower than kNarrowWidth stacks every panel in one column, each
// kStackedHeightShare of h tall, so the tiles may extend below y + h (the caller scrolls). With `lesson_column` (a
// lesson is open) and room for two columns or more, the lesson panel takes the first column alone.
std::vector<Tile> tile_panels(const std::vector<PanelId>& panels, float x, float y, float w, float h,
                              float min_col = 300, bool lesson_column = false);

}  // namespace attn
