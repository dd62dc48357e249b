// registry.h — the one list of panels and the one list of controls; everything else reads these.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace attn {

struct State;

// One line per panel: X(id, open by default, control whose lock disables the whole panel, preferred column
// in a three-column tiling, relative height in its column).
// The id is the state key (getState().panels.<id>), the embed name (panels=<id>), the ImGui window id,
// the factory name (ui: make_<id>_panel()) and the title's catalog key ("panel.<id>" in data/strings/).
// Order is the View menu's and the default tiling's.
#define ATTN_PANELS(X)                                 \
  X(controls, true, "", 0, 1.4f)                       \
  X(embeddings, true, "embeddings", 0, 1.0f)           \
  X(heatmap, true, "", 1, 1.2f)                        \
  X(pipeline, true, "", 1, 1.0f)                       \
  X(saturation, true, "", 2, 1.4f)                     \
  X(variance, true, "", 2, 1.0f)                       \
  X(explain, true, "", 2, 0.9f)                        \
  X(share, false, "", 1, 1.0f)                         \
  X(masks, false, "mask", 1, 1.0f)                     \
  X(heads, false, "heads", 1, 1.0f)                    \
  X(positional, false, "positional_encoding", 0, 1.0f) \
  X(numerics, false, "", 2, 1.0f)                      \
  X(cross, false, "", 1, 1.0f)                         \
  X(lesson, true, "", 0, 1.0f)                         \
  X(help, false, "", 2, 1.0f)                          \
  X(worksheet, false, "", 1, 2.0f)

enum class PanelId {
#define ATTN_PANEL_ENUM(id, open, lock, column, weight) id,
  ATTN_PANELS(ATTN_PANEL_ENUM)
#undef ATTN_PANEL_ENUM
};

#define ATTN_PANEL_COUNT(id, open, lock, column, weight) +1
constexpr size_t kPanelCount = 0 ATTN_PANELS(ATTN_PANEL_COUNT);
#undef ATTN_PANEL_COUNT

struct PanelInfo {
  PanelId id;
  const char* key;  // "masks"; the title is the catalog's "panel.masks"
  bool default_open;
  const char* lock;  // control id that, when locked, disables the whole panel ("" = none)
  int column;        // 0, 1, 2: where it goes when the window has room for three columns
  float weight;      // share of its column's height, relative to the other panels there
};
const std::array<PanelInfo, kPanelCount>& panel_table();
const PanelInfo* find_panel(const std::string& key);  // nullptr if unknown
const PanelInfo& panel_info(PanelId id);

// Which panels are open: one bool per registry line, with the registry's defaults.
struct PanelVisibility {
#define ATTN_PANEL_FIELD(id, open, lock, column, weight) bool id = open;
  ATTN_PANELS(ATTN_PANEL_FIELD)
#undef ATTN_PANEL_FIELD
  bool& operator[](PanelId id);
  bool operator[](PanelId id) const;
  bool operator==(const PanelVisibility& o) const;
};

// One row per control that embeds can lock or hide and tests can find (attnplay.ui.itemRect(id)).
// `label` is the older label-text id, still accepted as an alias; `revert` undoes a learner's change
// of a locked control (embed mode) by copying the field(s) back from `before`.
struct ControlInfo {
  const char* id;
  const char* label;
  void (*revert)(State& now, const State& before);
};
const std::vector<ControlInfo>& control_table();
const ControlInfo* find_control(const std::string& id);  // by id or by label alias

// Panel keys and control ids, in registry order (embed parsers, share options, lesson validation).
const std::vector<std::string>& panel_ids();
const std::vector<std::string>& control_ids();
bool* panel_flag(PanelVisibility& p, const std::string& key);

}  // namespace attn
