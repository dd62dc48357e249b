// builder_panel.cpp — the lesson builder: add the current view as a step, type its text and question, reorder,
// check it as a lesson file is checked, preview it as a learner, and save it as a file, a link or an LMS package.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/course_package.h"
#include "app/lesson_builder.h"
#include "app/lesson_run.h"
#include "ui/panels.h"
#include "ui/plot.h"

namespace attn::ui {
namespace {

int grow_string(ImGuiInputTextCallbackData* d) {
  if (d->EventFlag == ImGuiInputTextFlags_CallbackResize) {
    auto* s = static_cast<std::string*>(d->UserData);
    s->resize(static_cast<size_t>(d->BufTextLen));
    d->Buf = s->data();
  }
  return 0;
}

// A caption above a full-width text field (narrow panels and tablets keep the whole field); `hint` is shown while
// the field is empty (the text in the other language, which learners then see).
bool text_field(const char* caption, const std::string& id, std::string& s, bool multiline, const std::string& hint) {
  ImGui::TextUnformatted(caption);
  ImGui::SetNextItemWidth(-FLT_MIN);
  const std::string label = "##" + id;
  if (multiline)
    return ImGui::InputTextMultiline(label.c_str(), s.data(), s.capacity() + 1,
                                     ImVec2(-FLT_MIN, ImGui::GetTextLineHeight() * 3.4f),
                                     ImGuiInputTextFlags_CallbackResize, grow_string, &s);
  return ImGui::InputTextWithHint(label.c_str(), hint.c_str(), s.data(), s.capacity() + 1,
                                  ImGuiInputTextFlags_CallbackResize, grow_string, &s);
}

std::string first_line(const std::string& s, size_t n) {
  std::string out = s.substr(0, s.find('\n'));
  return out.size() > n ? out.substr(0, n) + "…" : out;
}

class BuilderPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    keep_in_sync(ctx);
    if (!previewing_.empty()) {
      preview_bar(ctx);
      return;
    }
    text_wrapped(ctx.tr("builder.intro"));
    head_fields(ctx);
    if (wrapped_button(ctx.tr("builder.add")) && draft_.steps.size() < kMaxDraftSteps) {
      draft_.steps.push_back(capture_step(ctx.state, ctx.app.lesson_locks));
      selected_ = static_cast<int>(draft_.steps.size()) - 1;
      changed_ = true;
    }
    ctx.track(ControlId::builder_add);
    step_list(ctx);
    if (selected_ >= 0 && selected_ < static_cast<int>(draft_.steps.size())) step_editor(ctx, selected_);
    verdict(ctx);
    outputs(ctx);
    if (changed_) keep(ctx);
  }

 private:
  // [SECTION] the draft kept with the progress -------------------------------------------------------------
  void keep_in_sync(PanelContext& ctx) {
    if (loads_ == ctx.app.progress_loads) return;
    loads_ = ctx.app.progress_loads;
    const nlohmann::json& kept = ctx.app.progress.value("builder", nlohmann::json());
    LessonDraft d;
    if (kept.is_object() && draft_from_json(kept, d).empty()) draft_ = std::move(d);
    ++edits_;
    const nlohmann::json& selected = kept.is_object() ? kept.value("selected", nlohmann::json()) : nlohmann::json();
    selected_ = selected.is_number_integer() ? selected.get<int>() : -1;
  }

  void keep(PanelContext& ctx) {
    changed_ = false;
    ++edits_;
    nlohmann::json j = draft_to_lesson_json(draft_);
    j["selected"] = selected_;
    ctx.app.progress["builder"] = std::move(j);
    save_progress(ctx.app);
  }

  Lang lang(const PanelContext& ctx) const { return ctx.state.lang; }
  Lang other(const PanelContext& ctx) const { return lang(ctx) == Lang::En ? Lang::HiLatn : Lang::En; }

  bool draft_text(PanelContext& ctx, const char* caption, const std::string& id, DraftText& t, bool multiline) {
    const bool edited = text_field(caption, id, t.in(lang(ctx)), multiline, t.in(other(ctx)));
    changed_ = changed_ || edited;
    return edited;
  }

  // [SECTION] lesson id and title ---------------------------------------------------------------------------
  void head_fields(PanelContext& ctx) {
    changed_ = text_field(ctx.tr("builder.id"), "id", draft_.id, false, "my-lesson") || changed_;
    ctx.track(ControlId::builder_id);
    draft_text(ctx, ctx.tr("builder.title"), "title", draft_.title, false);
    ctx.track(ControlId::builder_title);
  }

  // [SECTION] the steps: pick one to edit, move it, delete it -----------------------------------------------
  void step_list(PanelContext& ctx) {
    section_header(ctx.trf("builder.steps", {{"n", std::to_string(draft_.steps.size())}}).c_str());
    if (draft_.steps.empty()) ImGui::TextDisabled("%s", ctx.tr("builder.no_steps"));
    for (size_t i = 0; i < draft_.steps.size(); ++i) {
      ImGui::PushID(static_cast<int>(i));
      const std::string n = std::to_string(i + 1);
      const DraftStep& s = draft_.steps[i];
      const std::string shown = s.text.in(lang(ctx)).empty() ? s.text.in(other(ctx)) : s.text.in(lang(ctx));
      std::string name = n + ". " + (shown.empty() ? ctx.tr("builder.untitled") : first_line(shown, 40));
      if (s.ask != DraftStep::Ask::None) name += "  [?]";
      if (ImGui::Selectable((name + "###pick").c_str(), selected_ == static_cast<int>(i))) {
        selected_ = selected_ == static_cast<int>(i) ? -1 : static_cast<int>(i);
        changed_ = true;
      }
      ctx.track(ControlFamily::builder_step, n);
      step_buttons(ctx, i, n);
      ImGui::PopID();
    }
  }

  void step_buttons(PanelContext& ctx, size_t i, const std::string& n) {
    const int last = static_cast<int>(draft_.steps.size()) - 1;
    ImGui::BeginDisabled(i == 0);
    if (ImGui::Button(ctx.label("builder.up", "up").c_str()) && move_step(draft_, i, -1)) moved(i, -1);
    ImGui::EndDisabled();
    ctx.track(ControlFamily::builder_step, n + ":up");
    ImGui::SameLine();
    ImGui::BeginDisabled(static_cast<int>(i) == last);
    if (ImGui::Button(ctx.label("builder.down", "down").c_str()) && move_step(draft_, i, +1)) moved(i, +1);
    ImGui::EndDisabled();
    ctx.track(ControlFamily::builder_step, n + ":down");
    ImGui::SameLine();
    if (ImGui::Button(ctx.label("builder.delete", "delete").c_str()) && delete_step(draft_, i)) {
      if (selected_ == static_cast<int>(i)) selected_ = -1;
      if (selected_ > static_cast<int>(i)) --selected_;
      changed_ = true;
    }
    ctx.track(ControlFamily::builder_step, n + ":delete");
  }

  void moved(size_t i, int delta) {
    const int from = static_cast<int>(i), to = from + delta;
    if (selected_ == from)
      selected_ = to;
    else if (selected_ == to)
      selected_ = from;
    changed_ = true;
  }

  // [SECTION] one step's texts, view and question -------------------------------------------------------------
  void step_editor(PanelContext& ctx, int index) {
    DraftStep& s = draft_.steps[static_cast<size_t>(index)];
    const std::string n = std::to_string(index + 1);
    ImGui::PushID("editor");
    section_header(ctx.trf("builder.step", {{"n", n}}).c_str());
    draft_text(ctx, ctx.tr("builder.text"), "text", s.text, true);
    ctx.track(ControlFamily::builder_step, n + ":text");
    view_fields(ctx, s, n);
    ask_fields(ctx, s, n);
    other_language(ctx, s, n);
    ImGui::PopID();
  }

  // The same texts in the other language, optional: without them learners in that language read these.
  void other_language(PanelContext& ctx, DraftStep& s, const std::string& n) {
    const char* name = other(ctx) == Lang::En ? "builder.lang_en" : "builder.lang_hi";
    const std::string title = ctx.trf("builder.other_lang", {{"lang", ctx.tr(name)}}) + "###other";
    const bool open = ImGui::TreeNode(title.c_str());
    ctx.track(ControlFamily::builder_step, n + ":other");
    if (!open) return;
    const auto field = [&](const char* caption, const std::string& id, DraftText& t, bool multiline) {
      changed_ = text_field(caption, "other-" + id, t.in(other(ctx)), multiline, t.in(lang(ctx))) || changed_;
    };
    field(ctx.tr("builder.text"), "text", s.text, true);
    if (s.ask != DraftStep::Ask::None) {
      field(ctx.tr("builder.question"), "question", s.question, false);
      for (size_t j = 0; s.ask == DraftStep::Ask::Choice && j < s.choices.size(); ++j) {
        ImGui::PushID(static_cast<int>(j));
        field(ctx.trf("builder.choice", {{"n", std::to_string(j + 1)}}).c_str(), "choice", s.choices[j].text, false);
        if (static_cast<int>(j) != s.answer)
          field(ctx.tr("builder.feedback"), "feedback", s.choices[j].feedback, false);
        ImGui::PopID();
      }
      field(ctx.tr("builder.hint"), "hint", s.hint, false);
      field(ctx.tr("builder.explain"), "explain", s.explain, true);
    }
    ImGui::TreePop();
  }

  void view_fields(PanelContext& ctx, DraftStep& s, const std::string& n) {
    std::string panels;
    for (const std::string& p : s.panels)
      panels += (panels.empty() ? "" : ", ") + std::string(ctx.tr(("panel." + p).c_str()));
    std::string keys;
    for (auto it = s.state.begin(); it != s.state.end(); ++it) keys += (keys.empty() ? "" : ", ") + it.key();
    text_wrapped(ctx.trf("builder.recorded", {{"panels", panels}, {"keys", keys}}),
                 ImGui::GetColorU32(ImGuiCol_TextDisabled));
    if (ImGui::Button(ctx.label("builder.record", "record").c_str())) {
      const DraftStep now = capture_step(ctx.state, s.lock);
      s.state = now.state, s.panels = now.panels, changed_ = true;
      if (std::find(s.panels.begin(), s.panels.end(), s.highlight) == s.panels.end()) s.highlight.clear();
    }
    ctx.track(ControlFamily::builder_step, n + ":record");
    highlight_combo(ctx, s, n);
    locks_tree(ctx, s, n);
  }

  void highlight_combo(PanelContext& ctx, DraftStep& s, const std::string& n) {
    const std::string now = s.highlight.empty() ? ctx.tr("builder.none") : ctx.tr(("panel." + s.highlight).c_str());
    ImGui::SetNextItemWidth(width_beside_label(ctx.tr("builder.highlight")));
    if (ImGui::BeginCombo(ctx.label("builder.highlight", "highlight").c_str(), now.c_str())) {
      if (ImGui::Selectable(ctx.tr("builder.none"), s.highlight.empty())) s.highlight.clear(), changed_ = true;
      for (const std::string& p : s.panels)
        if (ImGui::Selectable(ctx.tr(("panel." + p).c_str()), p == s.highlight)) s.highlight = p, changed_ = true;
      ImGui::EndCombo();
    }
    ctx.track(ControlFamily::builder_step, n + ":highlight");
  }

  void locks_tree(PanelContext& ctx, DraftStep& s, const std::string& n) {
    const std::string title = ctx.trf("builder.locks", {{"n", std::to_string(s.lock.size())}}) + "###locks";
    const bool open = ImGui::TreeNode(title.c_str());
    ctx.track(ControlFamily::builder_step, n + ":locks");
    if (!open) return;
    for (const ControlInfo& c : control_table()) {
      auto at = std::find(s.lock.begin(), s.lock.end(), c.id);
      bool on = at != s.lock.end();
      if (!ImGui::Checkbox(c.id, &on)) continue;
      if (on)
        s.lock.push_back(c.id);
      else
        s.lock.erase(at);
      changed_ = true;
    }
    ImGui::TreePop();
  }

  void ask_fields(PanelContext& ctx, DraftStep& s, const std::string& n) {
    int ask = static_cast<int>(s.ask);
    ImGui::TextUnformatted(ctx.tr("builder.ask"));
    const char* names[] = {"builder.ask_none", "builder.ask_choice", "builder.ask_number"};
    for (int k = 0; k < 3; ++k) {
      if (k > 0) same_line_if_fits(button_width(ctx.tr(names[k])) + ImGui::GetFrameHeight());
      if (ImGui::RadioButton(ctx.label(names[k], names[k]).c_str(), &ask, k)) changed_ = true;
      ctx.track(ControlFamily::builder_step, n + ":ask:" + std::to_string(k));
    }
    s.ask = static_cast<DraftStep::Ask>(ask);
    if (s.ask == DraftStep::Ask::None) return;
    if (s.ask == DraftStep::Ask::Choice && s.choices.empty()) s.choices.resize(2);
    draft_text(ctx, ctx.tr("builder.question"), "question", s.question, false);
    ctx.track(ControlFamily::builder_step, n + ":question");
    if (s.ask == DraftStep::Ask::Choice)
      choice_fields(ctx, s, n);
    else
      number_fields(ctx, s, n);
    draft_text(ctx, ctx.tr("builder.hint"), "hint", s.hint, false);
    ctx.track(ControlFamily::builder_step, n + ":hint");
    draft_text(ctx, ctx.tr("builder.explain"), "explain", s.explain, true);
    ctx.track(ControlFamily::builder_step, n + ":explain");
  }

  void choice_fields(PanelContext& ctx, DraftStep& s, const std::string& n) {
    for (size_t j = 0; j < s.choices.size(); ++j) {
      ImGui::PushID(static_cast<int>(j));
      const std::string c = std::to_string(j + 1), cid = n + ":choice:" + c;
      draft_text(ctx, ctx.trf("builder.choice", {{"n", c}}).c_str(), "choice", s.choices[j].text, false);
      ctx.track(ControlFamily::builder_step, cid);
      if (ImGui::RadioButton(ctx.label("builder.right", "right").c_str(), &s.answer, static_cast<int>(j)))
        changed_ = true;
      ctx.track(ControlFamily::builder_step, cid + ":right");
      same_line_if_fits(button_width(ctx.tr("builder.remove")));
      ImGui::BeginDisabled(s.choices.size() <= 2);
      const bool remove = ImGui::SmallButton(ctx.label("builder.remove", "remove").c_str());
      ImGui::EndDisabled();
      ctx.track(ControlFamily::builder_step, cid + ":remove");
      if (static_cast<int>(j) != s.answer) {
        ImGui::Indent();
        draft_text(ctx, ctx.tr("builder.feedback"), "feedback", s.choices[j].feedback, false);
        ctx.track(ControlFamily::builder_step, cid + ":feedback");
        ImGui::Unindent();
      }
      ImGui::PopID();
      if (remove) {
        s.choices.erase(s.choices.begin() + static_cast<long>(j));
        if (s.answer >= static_cast<int>(j) && s.answer > 0) --s.answer;
        changed_ = true;
        break;
      }
    }
    ImGui::BeginDisabled(s.choices.size() >= 8);
    if (ImGui::Button(ctx.label("builder.add_choice", "add_choice").c_str())) s.choices.emplace_back(), changed_ = true;
    ImGui::EndDisabled();
    ctx.track(ControlFamily::builder_step, n + ":add_choice");
  }

  void number_fields(PanelContext& ctx, DraftStep& s, const std::string& n) {
    ImGui::SetNextItemWidth(width_beside_label(ctx.tr("builder.number")));
    changed_ = ImGui::InputDouble(ctx.label("builder.number", "number").c_str(), &s.number, 0, 0, "%.6g") || changed_;
    ctx.track(ControlFamily::builder_step, n + ":number");
    ImGui::SetNextItemWidth(width_beside_label(ctx.tr("builder.tolerance")));
    changed_ =
        ImGui::InputDouble(ctx.label("builder.tolerance", "tolerance").c_str(), &s.tolerance, 0, 0, "%.6g") || changed_;
    ctx.track(ControlFamily::builder_step, n + ":tolerance");
  }

  // [SECTION] the validator's verdict and SCORM 1.2's limit ---------------------------------------------------
  void verdict(PanelContext& ctx) {
    // Checking applies every step's state: once per edit, never per frame. An edit drawn before this frame's
    // check is kept (and counted) at the end of the frame.
    if (changed_ || checked_edits_ != edits_) {
      checked_edits_ = changed_ ? edits_ + 1 : edits_;
      problem_ = check_draft(draft_);
      long_steps_.clear();
      for (size_t i = 0; problem_.empty() && i < draft_.steps.size(); ++i)
        if (scorm_record_chars(draft_, i) > kScorm12SuspendChars) long_steps_.push_back(i + 1);
    }
    ImGui::Separator();
    if (problem_.empty())
      text_wrapped(ctx.trf("builder.ok", {{"n", std::to_string(draft_.steps.size())}}), good_col());
    else
      text_wrapped(ctx.trf("builder.problem", {{"error", problem_}}), bad_col());
    ctx.track(ControlId::builder_check);
    for (size_t step : long_steps_)
      text_wrapped(ctx.trf("builder.scorm_long", {{"step", std::to_string(step)}}), bad_col());
  }

  // [SECTION] preview, file, link, LMS package ------------------------------------------------------------------
  void outputs(PanelContext& ctx) {
    ImGui::BeginDisabled(!problem_.empty());
    if (wrapped_button(ctx.tr("builder.preview"))) preview(ctx);
    ctx.track(ControlId::builder_preview);
    if (wrapped_button(ctx.tr("builder.save")))
      ctx.app.download((draft_.id.empty() ? "lesson" : draft_.id) + ".json", "application/json",
                       draft_lesson_text(draft_));
    ctx.track(ControlId::builder_save);
    if (ctx.app.host.page_url && ctx.app.host.copy_text && !ctx.app.host.page_url().empty()) {  // not on the desktop
      if (wrapped_button(ctx.tr("builder.link"))) copy_link(ctx);
      ctx.track(ControlId::builder_link);
    }
    if (ctx.app.host.make_course_package) lms_row(ctx);
    ImGui::EndDisabled();
  }

  void copy_link(PanelContext& ctx) {
    std::string link;
    const std::string err = lesson_link(ctx.app.host.page_url(), draft_, link);
    if (!err.empty()) {
      ctx.app.status = ctx.trf("builder.link_long", {{"error", err}});
      return;
    }
    ctx.app.host.copy_text(link);
    ctx.app.status = ctx.trf("builder.link_copied", {{"n", std::to_string(link.size())}});
  }

  void lms_row(PanelContext& ctx) {
    ImGui::RadioButton(ctx.label("share.lms_scorm12", ControlId::builder_scorm12).c_str(), &scorm_, 0);
    ctx.track(ControlId::builder_scorm12);
    same_line_if_fits(button_width(ctx.tr("share.lms_scorm2004")) + ImGui::GetFrameHeight());
    ImGui::RadioButton(ctx.label("share.lms_scorm2004", ControlId::builder_scorm2004).c_str(), &scorm_, 1);
    ctx.track(ControlId::builder_scorm2004);
    if (wrapped_button(ctx.tr("builder.lms"))) {
      const std::string text = draft_lesson_text(draft_);
      const Lesson* added = nullptr;
      const std::string err = add_lesson(text, &added);
      if (!err.empty()) {
        ctx.app.status = ctx.trf("builder.problem", {{"error", err}});
      } else {
        set_package_lesson_text(added->id, text);
        ctx.app.host.make_course_package(added->id, scorm_ == 0 ? "1.2" : "2004");
      }
    }
    ctx.track(ControlId::builder_lms);
  }

  // The lesson opens as a teacher's file does; the builder stays open beside it and, once the lesson ends (its
  // last Next, Exit, or Stop here), puts the view back as it was before the preview.
  void preview(PanelContext& ctx) {
    State before = ctx.state;
    forget_answers(ctx.app, draft_.id);  // a preview opens as a learner's first visit (answers are kept per lesson id)
    if (!open_lesson_file(ctx.app, draft_lesson_text(draft_), ctx.tr("builder.preview_name")).empty()) return;
    before_ = std::move(before);
    previewing_ = draft_.id;
    ctx.state.panels.builder = true;
  }

  void preview_bar(PanelContext& ctx) {
    const bool over = ctx.state.lesson.id != previewing_;
    text_wrapped(ctx.tr("builder.previewing"));
    for (size_t step : long_steps_)
      text_wrapped(ctx.trf("builder.scorm_long", {{"step", std::to_string(step)}}), bad_col());
    const bool stop = wrapped_button(ctx.tr("builder.stop"));
    ctx.track(ControlId::builder_stop);
    if (!over && !stop) return;
    if (!over) leave_lesson(ctx.app);
    forget_answers(ctx.app, previewing_);  // the teacher's try is no learner's progress
    const Lang lang = ctx.state.lang;
    ctx.app.state = before_;
    ctx.app.state.lang = lang;
    ctx.app.state.panels.builder = true;
    ctx.app.update();
    ctx.app.status = ctx.tr("builder.back");
    previewing_.clear();
  }

  LessonDraft draft_;
  int selected_ = -1;
  bool changed_ = false;
  uint64_t loads_ = ~uint64_t{0};
  uint64_t edits_ = 0, checked_edits_ = ~0ull;  // draft edits and loads so far; the count last checked
  std::string problem_;
  std::vector<size_t> long_steps_;
  int scorm_ = 0;
  std::string previewing_;  // the id of the lesson being previewed ("" = building)
  State before_;
};

}  // namespace

std::unique_ptr<Panel> make_builder_panel() { return std::make_unique<BuilderPanel>(); }

}  // namespace attn::ui
