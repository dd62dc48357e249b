// start_view.cpp — the start view of a first visit: what the page is in one sentence, a language choice, "Start the
// first lesson" and "Explore freely" (the decisions are app/start_view.h's).
#include "app/start_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/lesson/lesson.h"
#include "app/state/tiling.h"
#include "ui/panels.h"
#include "ui/plot.h"

namespace attn::ui {

namespace {
// One radio button per catalog language, wrapping onto the next line when the row is full.
void draw_language_choice(PanelContext& ctx) {
  ImGui::TextUnformatted(ctx.tr("start.language"));
  for (Lang l : languages()) {
    const std::string label = language_name(l) + "##" + lang_code(l);
    same_line_if_fits(button_width(label));
    if (ImGui::RadioButton(label.c_str(), ctx.state.lang == l)) ctx.state.lang = l;
    ctx.track(ControlFamily::start_language, lang_code(l));
  }
}
}  // namespace

// A window of its own below the menu bar, centred, at most 34 em wide: on a phone it is the whole first screen.
void draw_start_view(PanelContext& ctx, float top) {
  const ImVec2 ds = ImGui::GetIO().DisplaySize;
  const float em = ImGui::GetFontSize(), margin = std::min(2 * em, ds.x * 0.04f);
  const float w = std::min(34 * em, ds.x - 2 * margin);
  ImGui::SetNextWindowPos(ImVec2(std::floor((ds.x - w) / 2), top + margin), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(w, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSizeConstraints(ImVec2(w, 0), ImVec2(w, std::max(em * 8, ds.y - top - 2 * margin)));
  const int flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                    ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_AlwaysAutoResize;
  if (ctx.app.frames <= 1) ImGui::SetNextWindowFocus();  // keyboard learners start on its buttons
  // Its two buttons are the page's first touch for many learners: a finger's height on a touch screen or a phone.
  const bool touch = ctx.app.touch_screen || stacks_panels(ds.x, em);
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(10, touch ? std::max(6.0f, (44.0f - em) / 2) : 8.0f));
  if (ImGui::Begin("###start", nullptr, flags)) {
    ImGui::SetWindowFontScale(1.4f);
    text_wrapped(ctx.tr("start.title"));
    ImGui::SetWindowFontScale(1.0f);
    text_wrapped(ctx.tr("start.sentence"));
    ImGui::Spacing();
    draw_language_choice(ctx);
    ImGui::Spacing();
    ImGui::Separator();
    ImGui::Spacing();
    const std::vector<LessonEntry>& lessons = builtin_lesson_entries();
    if (wrapped_button(std::string(ctx.tr("start.lesson")) + "##start-lesson")) start_first_lesson(ctx.app);
    ctx.track(ControlId::start_lesson);
    if (!lessons.empty())
      text_wrapped(ctx.trf("start.lesson_about", {{"title", ctx.tr(lessons.front().title.c_str())}}),
                   ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::Spacing();
    if (wrapped_button(std::string(ctx.tr("start.explore")) + "##start-explore")) explore_freely(ctx.app);
    ctx.track(ControlId::start_explore);
    text_wrapped(ctx.tr("start.explore_about"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
  }
  ImGui::End();
  ImGui::PopStyleVar();
}

}  // namespace attn::ui
