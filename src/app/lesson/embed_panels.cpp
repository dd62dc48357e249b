// embed_panels.cpp — an embed's panels, with a lesson step's own winning (see embed_panels.h).
#include "app/lesson/embed_panels.h"

#include <algorithm>

#include "app/lesson/lesson_text.h"

namespace attn {

EmbedPanels embed_panels(const EmbedSettings& e, LessonView run) {
  EmbedPanels out;
  const auto listed = [&](PanelId id) { return std::find(out.shown.begin(), out.shown.end(), id) != out.shown.end(); };
  if (e.panels.empty()) {
    for (const PanelInfo& info : panel_table())
      if (run.pg.state.panels[info.id]) out.shown.push_back(info.id);
  } else {
    for (const std::string& key : e.panels)
      if (const PanelInfo* info = find_panel(key); info && !listed(info->id)) out.shown.push_back(info->id);
  }
  const LessonStep* step = open_step(run.pg);
  if (!step) return out;
  // The step's panels (the state holds them: show_step_panels) the list lacks, the lesson itself among them.
  for (const PanelInfo& info : panel_table())
    if (run.pg.state.panels[info.id] && !listed(info.id) && (info.id == PanelId::lesson || !step->panels.empty())) {
      out.shown.push_back(info.id);
      out.added.push_back(info.key);
    }
  const std::vector<std::string> withheld = withheld_facts(run);
  const auto gives_away = [&](PanelId id) {
    for (const std::string& fact : withheld)
      if (panel_shows(panel_info(id), fact)) return true;
    return false;
  };
  for (PanelId id : out.shown)
    if (gives_away(id)) out.withheld.push_back(panel_info(id).key);
  out.shown.erase(std::remove_if(out.shown.begin(), out.shown.end(), gives_away), out.shown.end());
  return out;
}

}  // namespace attn
