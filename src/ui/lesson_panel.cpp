// lesson_panel.cpp — the lesson list on first load, then one step at a time: text with live numbers,
// predict-then-reveal questions, "do" goals, Back / Next, progress and the way out to free play.
#include <imgui.h>

#include <cstdio>
#include <string>

#include "app/lesson_run.h"
#include "ui/panels.h"
#include "ui/plot.h"

namespace attn::ui {
namespace {

class LessonPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    if (!open_lesson(ctx.app)) {
      lesson_list(ctx);
      return;
    }
    step_view(ctx);
  }

 private:
  // [SECTION] the list of lessons ------------------------------------------------------------------
  void lesson_list(PanelContext& ctx) {
    text_wrapped(ctx.tr("lesson.ui.intro"));
    ImGui::Spacing();
    int k = 0;
    for (const LessonEntry& l : lesson_entries()) lesson_entry(ctx, l, ++k);  // a teacher's too, once loaded
    ImGui::Spacing();
    if (ImGui::SmallButton(ctx.tr("lesson.ui.reset_progress"))) reset_progress(ctx.app);
    ctx.track(ControlId::lesson_reset_progress);
  }

  void lesson_entry(PanelContext& ctx, const LessonEntry& l, int k) {
    ImGui::PushID(l.id.c_str());
    const nlohmann::json& p = ctx.app.progress.contains(l.id) ? ctx.app.progress[l.id] : nlohmann::json::object();
    const bool done = p.value("completed", false);
    const int furthest = p.value("furthest", 0);
    char num[16];
    std::snprintf(num, sizeof num, "%d.", k);
    if (wrapped_button(std::string(num) + " " + ctx.tr(l.title.c_str())))
      start_lesson(ctx.app, l.id, furthest > 0 && !done ? furthest : 1);
    ctx.track(ControlFamily::lesson_start, l.id);
    if (!l.summary.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr(l.summary.c_str()));
    if (done)
      ImGui::TextDisabled("  %s", ctx.tr("lesson.ui.completed"));
    else if (furthest > 0)
      ImGui::TextDisabled(
          "  %s", ctx.trf("lesson.ui.reached", {{"step", std::to_string(furthest)}, {"steps", std::to_string(l.steps)}})
                      .c_str());
    ImGui::PopID();
  }

  // [SECTION] one step -------------------------------------------------------------------------------
  void step_view(PanelContext& ctx) {
    App& app = ctx.app;
    const Lesson& l = *open_lesson(app);
    const LessonStep* s = open_step(app);
    const int step = app.state.lesson.step, steps = static_cast<int>(l.steps.size());
    text_wrapped(ctx.tr(l.title.c_str()));
    const std::string of =
        ctx.trf("lesson.ui.step_of", {{"step", std::to_string(step)}, {"steps", std::to_string(steps)}});
    ImGui::ProgressBar(static_cast<float>(step) / static_cast<float>(steps), ImVec2(-FLT_MIN, 0), of.c_str());
    ctx.track(ControlId::lesson_progress);
    // Back / Next stay in sight above the step's text, which scrolls on its own when it is long (a
    // reveal can add a paragraph below a short panel).
    navigation(ctx, step, steps);
    ImGui::Separator();
    // A web page fetches the lessons' own texts after its first view (src/app/strings.h): a moment's wait.
    if (ImGui::BeginChild("lesson-step", ImVec2(0, 0), false) && s) {
      if (!lesson_texts_present()) {
        text_wrapped(ctx.tr("lesson.ui.loading"));
        ctx.track(ControlId::lesson_text);
      } else {
        text_wrapped(step_text(app, s->text));
        ctx.track(ControlId::lesson_text);
        ImGui::Spacing();
        if (s->task.kind == Task::Kind::Predict) predict(ctx, s->task);
        if (s->task.kind == Task::Kind::Do) goal(ctx, s->task);
      }
    }
    ImGui::EndChild();
  }

  void predict(PanelContext& ctx, const Task& t) {
    App& app = ctx.app;
    const StepProgress& p = app.step_progress;
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(title_col()), "%s", ctx.tr("lesson.ui.predict"));
    text_wrapped(step_text(app, t.question));
    const bool done = p.correct || p.missed;
    if (!t.choices.empty()) {
      for (size_t i = 0; i < t.choices.size(); ++i) {
        // The picked choice is green when right, red when wrong; once missed, the right one shows green.
        const bool picked = p.chosen == static_cast<int>(i), right = static_cast<int>(i) == t.answer;
        const bool mark = picked || (p.missed && right);
        if (mark)
          ImGui::PushStyleColor(ImGuiCol_Button, right ? ImVec4(0.2f, 0.55f, 0.3f, 1) : ImVec4(0.6f, 0.25f, 0.2f, 1));
        ImGui::BeginDisabled(done);
        if (wrapped_button(std::string(ctx.tr(t.choices[i].c_str())) + "##choice" + std::to_string(i)))
          answer_choice(app, static_cast<int>(i));
        ImGui::EndDisabled();
        if (mark) ImGui::PopStyleColor();
        ctx.track(ControlFamily::lesson_choice, std::to_string(i));
      }
    } else {
      number_box(ctx, done);
    }
    feedback(ctx, t);
  }

  // The box shows the step's own draft (empty for a new question); while it is being edited, ImGui keeps
  // its own copy of the text, and each change is handed back to be kept.
  void number_box(PanelContext& ctx, bool done) {
    App& app = ctx.app;
    const std::string draft = lesson_draft(app);
    std::snprintf(typed_, sizeof typed_, "%s", draft.c_str());
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    ImGui::BeginDisabled(done);
    const bool enter = ImGui::InputText("##answer", typed_, sizeof typed_,
                                        ImGuiInputTextFlags_CharsScientific | ImGuiInputTextFlags_EnterReturnsTrue);
    if (typed_ != draft) set_lesson_draft(app, typed_);
    ctx.track(ControlId::lesson_number);
    ImGui::SameLine();
    if (ImGui::Button(ctx.tr("lesson.ui.check")) || enter) answer_typed(app, typed_);
    ImGui::EndDisabled();
    ctx.track(ControlId::lesson_check);
  }

  // A wrong answer is told what its slip was (or given the hint) and that one more try is left; the right
  // answer, or the last miss, shows the explanation.
  void feedback(PanelContext& ctx, const Task& t) {
    App& app = ctx.app;
    const StepProgress& p = app.step_progress;
    if (p.attempts > 0 && !p.correct) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(bad_col()), "%s", ctx.tr("lesson.ui.try_again"));
      const std::string& why = p.feedback.empty() ? t.hint : p.feedback;
      if (!why.empty()) text_wrapped(step_text(app, why));
      ctx.track(ControlId::lesson_feedback);
      if (!p.missed) text_wrapped(ctx.tr("lesson.ui.one_more"));
    }
    if (p.missed) {
      const std::string answer =
          t.choices.empty() ? format_answer(*t.number) : ctx.tr(t.choices[static_cast<size_t>(t.answer)].c_str());
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(title_col()), "%s",
                         ctx.trf("lesson.ui.missed", {{"answer", answer}}).c_str());
    }
    if (p.correct) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(good_col()), "%s", ctx.tr("lesson.ui.right"));
    if ((p.correct || p.missed) && !t.explain.empty()) {
      text_wrapped(step_text(app, t.explain));
      ctx.track(ControlId::lesson_explain);
    }
  }

  static std::string format_answer(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
  }

  void goal(PanelContext& ctx, const Task& t) {
    App& app = ctx.app;
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(title_col()), "%s", ctx.tr("lesson.ui.do"));
    text_wrapped(step_text(app, t.question));
    if (app.step_progress.goal_met) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(good_col()), "%s", ctx.tr("lesson.ui.done"));
      if (!t.explain.empty()) text_wrapped(step_text(app, t.explain));
    } else if (!t.hint.empty()) {
      text_wrapped(step_text(app, t.hint), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    }
    ctx.track(ControlId::lesson_goal);
  }

  void navigation(PanelContext& ctx, int step, int steps) {
    App& app = ctx.app;
    ImGui::BeginDisabled(step <= 1);
    if (ImGui::Button(ctx.tr("lesson.ui.back"))) go_to_step(app, step - 1);
    ImGui::EndDisabled();
    ctx.track(ControlId::lesson_back);
    ImGui::SameLine();
    ImGui::BeginDisabled(!step_complete(app));
    if (ImGui::Button(step < steps ? ctx.tr("lesson.ui.next") : ctx.tr("lesson.ui.finish"))) next_step(app);
    ImGui::EndDisabled();
    ctx.track(ControlId::lesson_next);
    ImGui::SameLine();
    if (ImGui::Button(ctx.tr("lesson.ui.free_play"))) leave_lesson(app);
    ctx.track(ControlId::lesson_exit);
  }

  char typed_[64] = {};  // the answer box's text buffer; the draft itself is the app's (lesson_draft)
};

}  // namespace

std::unique_ptr<Panel> make_lesson_panel() { return std::make_unique<LessonPanel>(); }

}  // namespace attn::ui
