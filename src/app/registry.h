// registry.h — the one list of panels and the one list of controls; everything else reads these.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace attn {

struct State;

// One line per panel: X(id, open by default, control whose lock disables the whole panel, preferred column
// in a three-column tiling, relative height in its column, what it shows). "What it shows" names the facts a
// learner can read off the panel (weights, scores, variance, dk_sweep, …): a lesson's prediction declares
// the facts it asks about, and no panel showing one of them may be open before the answer (lesson.cpp).
// The id is the state key (getState().panels.<id>), the embed name (panels=<id>), the ImGui window id,
// the factory name (ui: make_<id>_panel()) and the title's catalog key ("panel.<id>" in data/strings/).
// Order is the View menu's and the default tiling's.
#define ATTN_PANELS(X)                                                       \
  X(controls, true, "", 0, 1.4f, "")                                         \
  X(embeddings, true, "embeddings", 0, 1.0f, "embeddings")                   \
  X(heatmap, true, "", 1, 1.2f, "weights scores")                            \
  X(pipeline, true, "", 1, 1.0f, "projections scores weights output")        \
  X(saturation, true, "", 2, 1.4f, "weights saturation dk_sweep")            \
  X(variance, true, "", 2, 1.0f, "variance")                                 \
  X(explain, true, "", 2, 0.9f, "scores weights output variance saturation") \
  X(share, false, "", 1, 1.0f, "")                                           \
  X(masks, false, "mask", 1, 1.0f, "masks")                                  \
  X(heads, false, "heads", 1, 1.0f, "weights output head_widths")            \
  X(positional, false, "positional_encoding", 0, 1.0f, "positions")          \
  X(numerics, false, "", 2, 1.0f, "scores weights numerics")                 \
  X(cross, false, "", 1, 1.0f, "cross")                                      \
  X(lesson, true, "", 0, 1.0f, "")                                           \
  X(help, false, "", 2, 1.0f, "")                                            \
  X(worksheet, false, "", 1, 2.0f, "scores weights output")                  \
  X(learn, false, "", 1, 2.0f, "training")

enum class PanelId {
#define ATTN_PANEL_ENUM(id, open, lock, column, weight, shows) id,
  ATTN_PANELS(ATTN_PANEL_ENUM)
#undef ATTN_PANEL_ENUM
};

#define ATTN_PANEL_COUNT(id, open, lock, column, weight, shows) +1
constexpr size_t kPanelCount = 0 ATTN_PANELS(ATTN_PANEL_COUNT);
#undef ATTN_PANEL_COUNT

struct PanelInfo {
  PanelId id;
  const char* key;  // "masks"; the title is the catalog's "panel.masks"
  bool default_open;
  const char* lock;   // control id that, when locked, disables the whole panel ("" = none)
  int column;         // 0, 1, 2: where it goes when the window has room for three columns
  float weight;       // share of its column's height, relative to the other panels there
  const char* shows;  // facts the panel shows, space-separated ("weights scores")
};
const std::array<PanelInfo, kPanelCount>& panel_table();
const PanelInfo* find_panel(const std::string& key);  // nullptr if unknown
const PanelInfo& panel_info(PanelId id);
bool panel_shows(const PanelInfo& p, const std::string& fact);
const std::vector<std::string>& panel_facts();  // every fact some panel shows

// Which panels are open: one bool per registry line, with the registry's defaults.
struct PanelVisibility {
#define ATTN_PANEL_FIELD(id, open, lock, column, weight, shows) bool id = open;
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
