// help_panel.cpp — the keys of the playground (opened with ? or from the View menu).
#include <imgui.h>

#include "ui/panels.h"
#include "ui/plot.h"

namespace attn::ui {
namespace {

class HelpPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    text_wrapped(ctx.tr("help.intro"));
    if (!ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH)) return;
    for (const char* row : {"tab", "arrows", "enter", "ctrl_click", "escape", "question"}) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(ctx.tr((std::string("help.key.") + row).c_str()));
      ImGui::TableNextColumn();
      text_wrapped(ctx.tr((std::string("help.does.") + row).c_str()));
    }
    ImGui::EndTable();
    ctx.track(ControlId::help_keys);
  }
};

}  // namespace

std::unique_ptr<Panel> make_help_panel() { return std::make_unique<HelpPanel>(); }

}  // namespace attn::ui
