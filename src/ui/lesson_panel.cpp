// lesson_panel.cpp — the lesson list on first load, then one step at a time: its text (app/lesson/lesson_text.h),
// predict-then-reveal questions, "do" goals, Back / Next, progress and the way out to free play.
#include <imgui.h>

#include <cstdio>
#include <string>

#include "app/lesson/lesson_run.h"
#include "app/lesson/lesson_text.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/theme.h"
#include "ui/tooltip.h"

namespace attn::ui {
namespace {

class LessonPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    if (!open_lesson(ctx.app)) {
      if (!ctx.app.finished_lesson.empty())
        results(ctx);
      else
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
    if (wrapped_button(std::string(num) + " " + ctx.tr(l.title.c_str()))) continue_lesson(ctx.app, l.id);
    ctx.track(ControlFamily::lesson_start, l.id);
    if (!l.summary.empty() && ImGui::IsItemHovered()) tooltip(ctx.tr(l.summary.c_str()));
    if (done)
      ImGui::TextDisabled("  %s", ctx.tr("lesson.ui.completed"));
    else if (furthest > 0)
      ImGui::TextDisabled(
          "  %s", ctx.trf("lesson.ui.reached", {{"step", std::to_string(furthest)}, {"steps", std::to_string(l.steps)}})
                      .c_str());
    ImGui::PopID();
  }

  // [SECTION] a finished lesson's results ---------------------------------------------------------
  // Every word comes from render_results() (app/lesson/lesson_text.h), as the parallel DOM's. Right or wrong is said by
  // ✓ / ✗ in each verdict's words, the colour only repeats it.
  void results(PanelContext& ctx) {
    App& app = ctx.app;
    const LessonResults r = render_results(app);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(good_col()), "%s", r.heading.c_str());
    text_wrapped(r.score);
    if (!r.tasks.empty()) text_wrapped(r.tasks);
    ctx.track(ControlId::lesson_results);
    if (!r.next_id.empty()) {
      if (wrapped_button(r.next)) {
        continue_lesson(app, r.next_id);
        return;
      }
      ctx.track(ControlId::lesson_results_next);
    }
    if (ImGui::Button(r.restart.c_str())) {
      restart_lesson(app, r.lesson);
      return;
    }
    ctx.track(ControlId::lesson_results_restart);
    ImGui::SameLine();
    if (ImGui::Button(r.close.c_str())) close_results(app);
    ctx.track(ControlId::lesson_results_close);
    if (r.rows.empty()) return;
    ImGui::Separator();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(title_col()), "%s", r.answers_heading.c_str());
    if (ImGui::BeginChild("lesson-results", ImVec2(0, 0), false, ImGuiWindowFlags_AlwaysVerticalScrollbar))
      for (const ResultRow& row : r.rows) result_row(ctx, row);
    ImGui::EndChild();
  }

  void result_row(PanelContext& ctx, const ResultRow& row) {
    ImGui::PushID(row.step);
    ImGui::Spacing();
    text_wrapped(row.question);
    if (!row.given.empty()) text_wrapped(row.given, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    text_wrapped(row.verdict, row.right ? good_col() : bad_col());
    if (!row.answer.empty()) text_wrapped(row.answer);
    if (ImGui::SmallButton(row.review.c_str())) review_step(ctx.app, row.step);
    ctx.track(ControlFamily::lesson_review, std::to_string(row.step));
    ImGui::PopID();
  }

  // [SECTION] one step -------------------------------------------------------------------------------
  // Every word comes from render_step() (app/lesson/lesson_text.h), the same texts the parallel DOM and the live region
  // say.
  void step_view(PanelContext& ctx) {
    App& app = ctx.app;
    const StepTexts t = render_step(app);
    const int step = app.state.lesson.step, steps = static_cast<int>(open_lesson(app)->steps.size());
    text_wrapped(t.title);
    ImGui::ProgressBar(static_cast<float>(step) / static_cast<float>(steps), ImVec2(-FLT_MIN, 0), t.step_of.c_str());
    ctx.track(ControlId::lesson_progress);
    // Back / Next stay in sight above the step's text, which scrolls on its own when it is long (a
    // reveal can add a paragraph below a short panel).
    navigation(ctx, t, step);
    ImGui::Separator();
    // The scroll bar's room is kept from the start: feedback that makes the step scroll must not rewrap the
    // question and move the choices under the learner's next click.
    if (ImGui::BeginChild("lesson-step", ImVec2(0, 0), false, ImGuiWindowFlags_AlwaysVerticalScrollbar) &&
        open_step(app)) {
      text_wrapped(t.text);
      if (!t.text_since.empty()) text_wrapped(t.text_since, ImGui::GetColorU32(ImGuiCol_TextDisabled));
      ctx.track(ControlId::lesson_text);
      if (!t.loading) {
        ImGui::Spacing();
        if (t.task == StepTexts::Task::Predict) predict(ctx, t);
        if (t.task == StepTexts::Task::Do) goal(ctx, t);
      }
    }
    ImGui::EndChild();
  }

  // A step just opened whose question's inputs end below the visible part of the step (a phone's sheet, a short
  // panel): the step scrolls until the last input is in sight, so the learner can answer without hunting for it;
  // the text above stays a scroll away. Over a few frames, as the sheet and the texts settle; then the learner's
  // own scrolling is left alone. Runs right after the last input, before any feedback below it.
  void keep_inputs_in_view(const App& app, bool answered) {
    const std::string key = app.state.lesson.id + "#" + std::to_string(app.state.lesson.step);
    if (key != shown_step_) {
      shown_step_ = key;
      reveal_frames_ = 4;
    }
    if (reveal_frames_ <= 0 || answered) return;
    --reveal_frames_;
    const float visible_bottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight();
    if (ImGui::GetItemRectMax().y > visible_bottom) ImGui::SetScrollHereY(1.0f);
  }

  void predict(PanelContext& ctx, const StepTexts& t) {
    App& app = ctx.app;
    const StepProgress& p = app.step_progress;
    const Task& task = open_step(app)->task;
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(title_col()), "%s", t.task_label.c_str());
    text_wrapped(t.question);
    if (!t.choices.empty()) {
      for (size_t i = 0; i < t.choices.size(); ++i) {
        // The picked choice is green when right, red when wrong; once missed, the right one shows green.
        const bool picked = p.chosen == static_cast<int>(i), right = static_cast<int>(i) == task.answer;
        const bool mark = picked || (p.missed && right);
        // The fill repeats what the verdict says in words; its text reads on it (theme.h: ink_on).
        const Rgb& fill = right ? kCellFills.correct : kCellFills.wrong;
        if (mark) {
          ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(fill.r, fill.g, fill.b, 1));
          const Rgb ink = ink_on(fill);
          ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(ink.r, ink.g, ink.b, 1));
        }
        ImGui::BeginDisabled(t.answered);
        if (wrapped_button(t.choices[i] + "##choice" + std::to_string(i))) answer_choice(app, static_cast<int>(i));
        ImGui::EndDisabled();
        if (mark) ImGui::PopStyleColor(2);
        ctx.track(ControlFamily::lesson_choice, std::to_string(i));
      }
    } else {
      number_box(ctx, t);
    }
    keep_inputs_in_view(app, t.answered);
    feedback(ctx, t);
  }

  // The box shows the step's own draft (empty for a new question); while it is being edited, ImGui keeps
  // its own copy of the text, and each change is handed back to be kept.
  void number_box(PanelContext& ctx, const StepTexts& t) {
    App& app = ctx.app;
    const std::string draft = lesson_draft(app);
    std::snprintf(typed_, sizeof typed_, "%s", draft.c_str());
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    ImGui::BeginDisabled(t.answered);
    const bool enter = ImGui::InputText("##answer", typed_, sizeof typed_,
                                        ImGuiInputTextFlags_CharsScientific | ImGuiInputTextFlags_EnterReturnsTrue);
    if (typed_ != draft) set_lesson_draft(app, typed_);
    ctx.track(ControlId::lesson_number);
    ImGui::SameLine();
    if (ImGui::Button(t.check.c_str()) || enter) answer_typed(app, typed_);
    ImGui::EndDisabled();
    ctx.track(ControlId::lesson_check);
  }

  // A wrong answer is told what its slip was (or given the hint) and that one more try is left; the right
  // answer, or the last miss, shows the explanation.
  void feedback(PanelContext& ctx, const StepTexts& t) {
    if (!t.verdict.empty() && !t.correct) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(bad_col()), "%s", t.verdict.c_str());
      if (!t.feedback.empty()) text_wrapped(t.feedback);
      ctx.track(ControlId::lesson_feedback);
      if (!t.one_more.empty()) text_wrapped(t.one_more);
    }
    if (!t.missed.empty()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(title_col()), "%s", t.missed.c_str());
    if (t.correct) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(good_col()), "%s", t.verdict.c_str());
    explanation(ctx, t);
  }

  void explanation(PanelContext& ctx, const StepTexts& t) {
    if (t.explain.empty()) return;
    text_wrapped(t.explain);
    if (!t.explain_since.empty()) text_wrapped(t.explain_since, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ctx.track(ControlId::lesson_explain);
  }

  void goal(PanelContext& ctx, const StepTexts& t) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(title_col()), "%s", t.task_label.c_str());
    text_wrapped(t.question);
    if (t.answered) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(good_col()), "%s", t.verdict.c_str());
      explanation(ctx, t);
    } else if (!t.hint.empty()) {
      text_wrapped(t.hint, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    }
    ctx.track(ControlId::lesson_goal);
  }

  void navigation(PanelContext& ctx, const StepTexts& t, int step) {
    App& app = ctx.app;
    ImGui::BeginDisabled(step <= 1);
    if (ImGui::Button(t.back.c_str())) go_to_step(app, step - 1);
    ImGui::EndDisabled();
    ctx.track(ControlId::lesson_back);
    ImGui::SameLine();
    ImGui::BeginDisabled(!step_complete(app));
    if (ImGui::Button(t.next.c_str())) next_step(app);
    ImGui::EndDisabled();
    ctx.track(ControlId::lesson_next);
    ImGui::SameLine();
    if (ImGui::Button(t.exit.c_str())) leave_lesson(app);
    ctx.track(ControlId::lesson_exit);
  }

  std::string shown_step_;  // the step keep_inputs_in_view() last saw open
  int reveal_frames_ = 0;   // frames it still brings the inputs into view
  char typed_[64] = {};     // the answer box's text buffer; the draft itself is the app's (lesson_draft)
};

}  // namespace

std::unique_ptr<Panel> make_lesson_panel() { return std::make_unique<LessonPanel>(); }

}  // namespace attn::ui
