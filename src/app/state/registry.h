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
  X(masks, false, "mask", 1, 1.0f, "masks weights")                          \
  X(heads, false, "heads", 1, 1.0f, "weights output head_widths")            \
  X(positional, false, "positional_encoding", 0, 1.0f, "positions")          \
  X(numerics, false, "", 2, 1.0f, "scores weights numerics")                 \
  X(cross, false, "", 1, 1.0f, "cross")                                      \
  X(lesson, true, "", 0, 1.0f, "")                                           \
  X(help, false, "", 2, 1.0f, "")                                            \
  X(worksheet, false, "", 1, 2.0f, "scores weights output")                  \
  X(learn, false, "", 1, 2.0f, "training")                                   \
  X(builder, false, "", 2, 3.0f, "")

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

// One line per control a learner can use: X(enumerator, id, older label-text id or ""). The id is what
// embeds lock and hide (lock=, hide=), lessons lock, and attnplay.ui.itemRect(id) and input scripts find;
// the older id stays valid as an alias. Id grammar: a control that edits one state field is named by its
// state key ("d_k", "selected_row"); any other is "<panel or menu>:<name>" ("lesson:next", "share:csv"),
// lower case with '_' or '-' inside words. One of a family (ATTN_CONTROL_FAMILIES) adds ":<index>".
#define ATTN_CONTROLS(X)                                               \
  X(preset, "preset", "Preset")                                        \
  X(d_k, "d_k", "")                                                    \
  X(scale, "scale", "Scale by 1/√d_k")                                 \
  X(temperature, "temperature", "Temperature")                         \
  X(sentence, "sentence", "Sentence")                                  \
  X(seed, "seed", "Seed")                                              \
  X(selected_row, "selected_row", "Query row")                         \
  X(embeddings, "embeddings", "embedding plane")                       \
  X(theme, "theme", "Dark theme")                                      \
  X(text_scale, "text_scale", "Text size")                             \
  X(mask, "mask", "Causal mask")                                       \
  X(heads, "heads", "Heads")                                           \
  X(positional_encoding, "positional_encoding", "Positional encoding") \
  X(cross, "cross", "Decoder step")                                    \
  X(plane_x, "plane_x", "plane x")                                     \
  X(plane_y, "plane_y", "plane y")                                     \
  X(heatmap_scale, "heatmap_scale", "Row scale")                       \
  X(numerics_multiplier, "numerics_multiplier", "Logit multiplier")    \
  X(reroll, "controls:reroll", "Re-roll weights")                      \
  X(heatmap_grid, "heatmap:grid", "heatmap")                           \
  X(pipeline_head, "pipeline:head", "pipeline head")                   \
  X(pipeline_decimals, "pipeline:decimals", "pipeline decimals")       \
  X(variance_unscaled, "variance:unscaled", "variance: unscaled")      \
  X(variance_scaled, "variance:scaled", "variance: scaled")            \
  X(variance_histogram, "variance:histogram", "variance histogram")    \
  X(variance_std_curve, "variance:std_curve", "variance std curve")    \
  X(masks_clear_cells, "masks:clear_cells", "Clear painted cells")     \
  X(masks_clear_padding, "masks:clear_padding", "Clear padding")       \
  X(masks_grid, "masks:grid", "mask grid")                             \
  X(positional_shuffle, "positional:shuffle", "Shuffle tokens")        \
  X(positional_matrix, "positional:matrix", "pe matrix")               \
  X(cross_note, "cross:note", "")                                      \
  X(cross_seeded, "cross:seeded", "")                                  \
  X(share_copy_link, "share:copy_link", "Copy link")                   \
  X(share_embed_options, "share:embed_options", "Embed options")       \
  X(share_origins, "share:origins", "Embed origins")                   \
  X(share_copy_embed, "share:copy_embed", "Copy embed code")           \
  X(share_embed_width, "share:embed_width", "")                        \
  X(share_embed_height, "share:embed_height", "")                      \
  X(share_embed_code, "share:embed_code", "")                          \
  X(share_png_canvas, "share:png_canvas", "PNG of the canvas")         \
  X(share_png_heatmap, "share:png_heatmap", "PNG of the heatmap")      \
  X(share_csv, "share:csv", "CSV of every matrix")                     \
  X(share_result_json, "share:result_json", "Result JSON")             \
  X(share_state_json, "share:state_json", "State JSON")                \
  X(share_import_json, "share:import_json", "Import JSON…")            \
  X(share_lms_package, "share:lms_package", "lms:package")             \
  X(share_lms_scorm12, "share:lms_scorm12", "lms:scorm12")             \
  X(share_lms_scorm2004, "share:lms_scorm2004", "lms:scorm2004")       \
  X(share_lms_cmi5, "share:lms_cmi5", "")                              \
  X(share_lms_kind, "share:lms_kind", "")                              \
  X(share_lms_download, "share:lms_download", "lms:download")          \
  X(help_keys, "help:keys", "")                                        \
  X(menu_share, "menu:share", "Share…")                                \
  X(menu_view, "menu:view", "")                                        \
  X(menu_lessons, "menu:lessons", "")                                  \
  X(menu_language, "menu:language", "")                                \
  X(start_lesson, "start:lesson", "")                                  \
  X(start_explore, "start:explore", "")                                \
  X(lesson_sheet, "lesson:sheet", "")                                  \
  X(lesson_reset_progress, "lesson:reset-progress", "")                \
  X(lesson_progress, "lesson:progress", "")                            \
  X(lesson_text, "lesson:text", "")                                    \
  X(lesson_number, "lesson:number", "")                                \
  X(lesson_check, "lesson:check", "")                                  \
  X(lesson_feedback, "lesson:feedback", "")                            \
  X(lesson_explain, "lesson:explain", "")                              \
  X(lesson_goal, "lesson:goal", "")                                    \
  X(lesson_back, "lesson:back", "")                                    \
  X(lesson_next, "lesson:next", "")                                    \
  X(lesson_exit, "lesson:exit", "")                                    \
  X(lesson_results, "lesson:results", "")                              \
  X(lesson_results_restart, "lesson:results:restart", "")              \
  X(lesson_results_next, "lesson:results:next", "")                    \
  X(lesson_results_close, "lesson:results:close", "")                  \
  X(learn_task, "learn:task", "")                                      \
  X(learn_d_k, "learn:d_k", "")                                        \
  X(learn_layers, "learn:layers", "")                                  \
  X(learn_heads, "learn:heads", "")                                    \
  X(learn_lr, "learn:lr", "")                                          \
  X(learn_vary, "learn:vary", "")                                      \
  X(learn_play, "learn:play", "")                                      \
  X(learn_step, "learn:step", "")                                      \
  X(learn_reset, "learn:reset", "")                                    \
  X(learn_speed, "learn:speed", "")                                    \
  X(learn_export, "learn:export", "")                                  \
  X(learn_outcome, "learn:outcome", "")                                \
  X(learn_loss_plot, "learn:loss-plot", "")                            \
  X(learn_stats, "learn:stats", "")                                    \
  X(learn_study, "learn:study", "")                                    \
  X(learn_reversal, "learn:reversal", "")                              \
  X(worksheet_number, "worksheet:number", "")                          \
  X(worksheet_note, "worksheet:note", "")                              \
  X(worksheet_breakdown, "worksheet:breakdown", "")                    \
  X(worksheet_summary, "worksheet:summary", "")                        \
  X(builder_id, "builder:id", "")                                      \
  X(builder_title, "builder:title", "")                                \
  X(builder_add, "builder:add", "")                                    \
  X(builder_check, "builder:check", "")                                \
  X(builder_preview, "builder:preview", "")                            \
  X(builder_stop, "builder:stop", "")                                  \
  X(builder_save, "builder:save", "")                                  \
  X(builder_link, "builder:link", "")                                  \
  X(builder_scorm12, "builder:scorm12", "")                            \
  X(builder_scorm2004, "builder:scorm2004", "")                        \
  X(builder_lms, "builder:lms", "")                                    \
  X(builder_new, "builder:new", "")                                    \
  X(builder_open_section, "builder:open_section", "")                  \
  X(builder_builtin, "builder:builtin", "")                            \
  X(builder_open_builtin, "builder:open_builtin", "")                  \
  X(builder_open_file, "builder:open_file", "")                        \
  X(builder_open_text, "builder:open_text", "")                        \
  X(builder_open, "builder:open", "")                                  \
  X(builder_replace, "builder:replace", "")                            \
  X(builder_keep, "builder:keep", "")                                  \
  X(builder_pass, "builder:pass", "")                                  \
  X(builder_pass_mark, "builder:pass_mark", "")

enum class ControlId {
#define ATTN_CONTROL_ENUM(name, id, alias) name,
  ATTN_CONTROLS(ATTN_CONTROL_ENUM)
#undef ATTN_CONTROL_ENUM
};
#define ATTN_CONTROL_COUNT(name, id, alias) +1
constexpr size_t kControlCount = 0 ATTN_CONTROLS(ATTN_CONTROL_COUNT);
#undef ATTN_CONTROL_COUNT

// Families of controls, one per item of something (X(enumerator, id prefix, older prefix or "")):
// the id is the prefix and an index or name, "lesson:choice:2", "masks:cell:1,3".
#define ATTN_CONTROL_FAMILIES(X)                                \
  X(preset_item, "preset:", "")                                 \
  X(panel, "panel:", "")                                        \
  X(panel_header, "header:", "")                                \
  X(menu_view_item, "menu:view:", "")                           \
  X(menu_language_item, "menu:language:", "")                   \
  X(menu_lessons_item, "menu:lessons:", "")                     \
  X(start_language, "start:language:", "")                      \
  X(lesson_start, "lesson:start:", "")                          \
  X(lesson_choice, "lesson:choice:", "")                        \
  X(lesson_review, "lesson:review:", "")                        \
  X(learn_head, "learn:head:", "")                              \
  X(worksheet_show, "worksheet:show:", "")                      \
  X(worksheet_cell, "worksheet:", "")                           \
  X(head, "heads:head:", "head:")                               \
  X(heads_option, "heads:option:", "heads-option:")             \
  X(cross_scoring, "cross:", "")                                \
  X(pipeline_stage, "pipeline:", "")                            \
  X(saturation_bars, "saturation:bars:", "saturation bars ")    \
  X(saturation_curve, "saturation:curve:", "saturation curve ") \
  X(embedding_point, "embeddings:point:", "point:")             \
  X(embedding_cell, "embeddings:cell:", "embedding ")           \
  X(mask_padding, "masks:pad:", "pad:")                         \
  X(mask_cell, "masks:cell:", "mask:")                          \
  X(share_svg, "share:svg:", "svg:")                            \
  X(share_package_lesson, "share:package:", "")                 \
  X(share_show, "share:show:", "show:")                         \
  X(share_lock, "share:lock:", "lock:")                         \
  X(share_hide, "share:hide:", "hide:")                         \
  X(builder_step, "builder:step:", "")

enum class ControlFamily {
#define ATTN_CONTROL_FAMILY_ENUM(name, prefix, alias) name,
  ATTN_CONTROL_FAMILIES(ATTN_CONTROL_FAMILY_ENUM)
#undef ATTN_CONTROL_FAMILY_ENUM
};

const char* control_id(ControlId c);                                // "d_k", "lesson:next"
std::string control_id(ControlFamily f, const std::string& index);  // "lesson:choice:2"
// The control named `id` (or its older id); false if it is no control of ATTN_CONTROLS.
bool find_control_id(const std::string& id, ControlId& out);
// The current id of `id`, which may be an older label-text id or family prefix; `id` itself if unknown.
std::string canonical_control_id(const std::string& id);

// The controls an embed or a lesson can lock, with how a lock takes back a learner's change: every control named by
// a state key sets that key back (revert_state_key); the few whose change reaches further have their own revert.
struct ControlInfo {
  ControlId which;
  const char* id;
  const char* label;                                // the older label-text id, or ""
  void (*revert)(State& now, const State& before);  // nullptr: set the key `id` back
  void undo(State& now, const State& before) const;
};
const std::vector<ControlInfo>& control_table();
const ControlInfo* find_control(const std::string& id);  // by id or by alias; nullptr if not lockable

// Panel keys and control ids, in registry order (embed parsers, share options, lesson validation).
const std::vector<std::string>& panel_ids();
const std::vector<std::string>& control_ids();
bool* panel_flag(PanelVisibility& p, const std::string& key);

}  // namespace attn
