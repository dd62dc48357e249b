// builder_panel.cpp — the lesson builder: add the current view as a step, type its text and question, reorder,
// check it as a lesson file is checked, preview it as a learner, and save it as a file, a link or an LMS package; open
// a built-in lesson, a lesson file or link to edit it, or start anew.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/app_exchange.h"
#include "app/builder_actions.h"
#include "app/lesson/course_package.h"
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_builder.h"
#include "app/lesson/lesson_run.h"
#include "app/state/registry.h"
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

// A paragraph laid out to `width`: each space after which the next word would not fit becomes a line break, every
// other break a space again. Lesson texts hold no line breaks of their own, so the field shows the text wrapped
// (ImGui's text fields do not wrap) while every byte stays where it was: the cursor does not move.
void wrap_at_spaces(char* text, size_t n, float width) {
  std::replace(text, text + n, '\n', ' ');
  size_t line = 0, space = std::string::npos;
  for (size_t i = 0; i <= n; ++i) {
    if (i < n && text[i] != ' ') continue;
    if (space != std::string::npos && space >= line && ImGui::CalcTextSize(text + line, text + i).x > width) {
      text[space] = '\n';
      line = space + 1;
    }
    space = i;
  }
}

struct WrappedField {
  std::string shown;  // the text with its wrapping breaks
  float width = 0;
};

int wrap_as_typed(ImGuiInputTextCallbackData* d) {
  auto* f = static_cast<WrappedField*>(d->UserData);
  if (d->EventFlag == ImGuiInputTextFlags_CallbackResize) {
    f->shown.resize(static_cast<size_t>(d->BufTextLen));
    d->Buf = f->shown.data();
  } else if (d->EventFlag == ImGuiInputTextFlags_CallbackEdit) {
    wrap_at_spaces(d->Buf, static_cast<size_t>(d->BufTextLen), f->width);
    d->BufDirty = true;
  }
  return 0;
}

// A text field as tall as its text wrapped to the panel's width (a few lines at most, then it scrolls); `hint` is
// drawn while it is empty.
bool wrapping_field(const std::string& label, std::string& s, const std::string& hint) {
  const ImGuiStyle& style = ImGui::GetStyle();
  WrappedField f{s, ImGui::GetContentRegionAvail().x - style.FramePadding.x * 2 - style.ScrollbarSize};
  wrap_at_spaces(f.shown.data(), f.shown.size(), f.width);
  const int lines = std::clamp(static_cast<int>(std::count(f.shown.begin(), f.shown.end(), '\n')) + 1, 1, 8);
  const ImVec2 size(-FLT_MIN, ImGui::GetTextLineHeight() * static_cast<float>(lines) + style.FramePadding.y * 2);
  const bool edited = ImGui::InputTextMultiline(label.c_str(), f.shown.data(), f.shown.capacity() + 1, size,
                                                ImGuiInputTextFlags_CallbackResize | ImGuiInputTextFlags_CallbackEdit,
                                                wrap_as_typed, &f);
  if (s.empty() && !edited && !ImGui::IsItemActive() && !hint.empty()) {
    const ImVec2 at(ImGui::GetItemRectMin().x + style.FramePadding.x, ImGui::GetItemRectMin().y + style.FramePadding.y);
    ImGui::GetWindowDrawList()->AddText(nullptr, 0, at, ImGui::GetColorU32(ImGuiCol_TextDisabled), hint.c_str(),
                                        nullptr, f.width);
  }
  if (edited) {
    std::replace(f.shown.begin(), f.shown.end(), '\n', ' ');
    s = f.shown;
  }
  return edited;
}

// A caption above a full-width text field (narrow panels and tablets keep the whole field); `hint` is shown while
// the field is empty (the text in the other language, which learners then see). A lesson's texts wrap.
bool text_field(const char* caption, const std::string& id, std::string& s, bool wrapping, const std::string& hint) {
  ImGui::TextUnformatted(caption);
  ImGui::SetNextItemWidth(-FLT_MIN);
  const std::string label = "##" + id;
  if (wrapping) return wrapping_field(label, s, hint);
  return ImGui::InputTextWithHint(label.c_str(), hint.c_str(), s.data(), s.capacity() + 1,
                                  ImGuiInputTextFlags_CallbackResize, grow_string, &s);
}

// The draft and everything done to it live in the app (app/builder_actions.h), shared with the panel's
// parallel-DOM twin; the panel keeps only what is drawn.
class BuilderPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    BuilderSession& b = ctx.app.builder;
    if (!b.previewing.empty()) {
      preview_bar(ctx);
      return;
    }
    text_wrapped(ctx.tr("builder.intro"));
    open_section(ctx);
    head_fields(ctx);
    if (wrapped_button(ctx.tr("builder.add"))) builder_add_step(ctx.app);
    ctx.track(ControlId::builder_add);
    step_list(ctx);
    if (builder_step(ctx.app, b.selected)) step_editor(ctx, b.selected);
    verdict(ctx);
    outputs(ctx);
  }

 private:
  LessonDraft& draft(PanelContext& ctx) { return ctx.app.builder.draft; }
  Lang lang(const PanelContext& ctx) const { return ctx.state.lang; }
  Lang other(const PanelContext& ctx) const { return builder_other_lang(lang(ctx)); }

  bool draft_text(PanelContext& ctx, const char* caption, const std::string& id, DraftText& t, bool wrapping) {
    const bool edited = text_field(caption, id, t.in(lang(ctx)), wrapping, t.in(other(ctx)));
    if (edited) builder_changed(ctx.app);
    return edited;
  }

  // [SECTION] open a lesson to edit, or start anew ----------------------------------------------------------
  void open_section(PanelContext& ctx) {
    if (!ctx.app.builder.pending.is_null()) return confirm_replace(ctx);
    const bool open = ImGui::TreeNode((std::string(ctx.tr("builder.open_section")) + "###open").c_str());
    ctx.track(ControlId::builder_open_section);
    if (!open) return;
    if (wrapped_button(ctx.tr("builder.new"))) builder_request(ctx.app, nlohmann::json());
    ctx.track(ControlId::builder_new);
    builtin_row(ctx);
    if (builder_can_pick_file(ctx.app)) {
      if (wrapped_button(ctx.tr("builder.open_file"))) builder_pick_file(ctx.app);
      ctx.track(ControlId::builder_open_file);
    }
    const bool path = ctx.app.host.read_file && !ctx.app.host.pick_file;
    std::string& typed = ctx.app.builder.open_text;
    text_field(ctx.tr(path ? "builder.open_path" : "builder.open_link"), "open", typed, false, "");
    ctx.track(ControlId::builder_open_text);
    ImGui::BeginDisabled(typed.empty());
    if (wrapped_button(ctx.tr("builder.open"))) builder_open_typed(ctx.app);
    ImGui::EndDisabled();
    ctx.track(ControlId::builder_open);
    ImGui::TreePop();
  }

  void builtin_row(PanelContext& ctx) {
    const std::vector<Lesson>& all = lessons();
    if (all.empty()) return;
    size_t& picked = ctx.app.builder.builtin;
    if (picked >= all.size()) picked = 0;
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::BeginCombo("##builtin", tr(lang(ctx), all[picked].title.c_str()))) {
      for (size_t i = 0; i < all.size(); ++i)
        if (ImGui::Selectable(tr(lang(ctx), all[i].title.c_str()), i == picked)) picked = i;
      ImGui::EndCombo();
    }
    ctx.track(ControlId::builder_builtin);
    if (wrapped_button(ctx.tr("builder.open_builtin"))) builder_open_builtin(ctx.app, all[picked].id);
    ctx.track(ControlId::builder_open_builtin);
  }

  void confirm_replace(PanelContext& ctx) {
    const std::string n = std::to_string(draft(ctx).steps.size());
    text_wrapped(ctx.trf("builder.replace_confirm", {{"n", n}}), bad_col());
    if (wrapped_button(ctx.tr("builder.replace"))) builder_replace(ctx.app);
    ctx.track(ControlId::builder_replace);
    if (wrapped_button(ctx.tr("builder.keep"))) builder_keep(ctx.app);
    ctx.track(ControlId::builder_keep);
  }

  // [SECTION] lesson id and title -------------------------------------------------------------------
  void head_fields(PanelContext& ctx) {
    if (text_field(ctx.tr("builder.id"), "id", draft(ctx).id, false, "my-lesson")) builder_changed(ctx.app);
    ctx.track(ControlId::builder_id);
    draft_text(ctx, ctx.tr("builder.title"), "title", draft(ctx).title, false);
    ctx.track(ControlId::builder_title);
  }

  // A pass mark (what an LMS package grades by) or none; unset shows the package's default, 80 %.
  void pass_fields(PanelContext& ctx) {
    const double pass = draft(ctx).pass;
    bool graded = pass != kPassNone;
    int percent = static_cast<int>(std::lround((pass >= 0 ? pass : 0.8) * 100));
    if (ImGui::Checkbox(ctx.label("builder.pass", ControlId::builder_pass).c_str(), &graded))
      builder_set_pass(ctx.app, graded, 80);
    ctx.track(ControlId::builder_pass);
    if (!graded) return;
    ImGui::SetNextItemWidth(width_beside_label(ctx.tr("builder.pass_mark")));
    if (ImGui::SliderInt(ctx.label("builder.pass_mark", ControlId::builder_pass_mark).c_str(), &percent, 0, 100,
                         "%d %%"))
      builder_set_pass(ctx.app, true, percent);
    ctx.track(ControlId::builder_pass_mark);
  }

  // [SECTION] the steps: pick one to edit, move it, delete it -----------------------------------------------
  void step_list(PanelContext& ctx) {
    const LessonDraft& d = draft(ctx);
    section_header(ctx.trf("builder.steps", {{"n", std::to_string(d.steps.size())}}).c_str());
    if (d.steps.empty()) ImGui::TextDisabled("%s", ctx.tr("builder.no_steps"));
    for (size_t i = 0; i < draft(ctx).steps.size(); ++i) {
      ImGui::PushID(static_cast<int>(i));
      const std::string n = std::to_string(i + 1);
      const int selected = ctx.app.builder.selected;
      if (ImGui::Selectable((builder_step_name(ctx.app, i) + "###pick").c_str(), selected == static_cast<int>(i)))
        builder_select(ctx.app, selected == static_cast<int>(i) ? -1 : static_cast<int>(i));
      ctx.track(ControlFamily::builder_step, n);
      step_buttons(ctx, i, n);
      ImGui::PopID();
    }
  }

  void step_buttons(PanelContext& ctx, size_t i, const std::string& n) {
    const size_t last = draft(ctx).steps.size() - 1;
    ImGui::BeginDisabled(i == 0);
    if (ImGui::Button(ctx.label("builder.up", "up").c_str())) builder_move(ctx.app, i, -1);
    ImGui::EndDisabled();
    ctx.track(ControlFamily::builder_step, n + ":up");
    ImGui::SameLine();
    ImGui::BeginDisabled(i == last);
    if (ImGui::Button(ctx.label("builder.down", "down").c_str())) builder_move(ctx.app, i, +1);
    ImGui::EndDisabled();
    ctx.track(ControlFamily::builder_step, n + ":down");
    ImGui::SameLine();
    if (ImGui::Button(ctx.label("builder.delete", "delete").c_str())) builder_delete(ctx.app, i);
    ctx.track(ControlFamily::builder_step, n + ":delete");
  }

  // [SECTION] one step's texts, view and question -------------------------------------------------------------
  void step_editor(PanelContext& ctx, int index) {
    DraftStep& s = draft(ctx).steps[static_cast<size_t>(index)];
    const std::string n = std::to_string(index + 1);
    ImGui::PushID("editor");
    section_header(ctx.trf("builder.step", {{"n", n}}).c_str());
    draft_text(ctx, ctx.tr("builder.text"), "text", s.text, true);
    ctx.track(ControlFamily::builder_step, n + ":text");
    claims_fields(ctx, static_cast<size_t>(index), false, "builder.claims", n + ":claims");
    view_fields(ctx, static_cast<size_t>(index), n);
    ask_fields(ctx, static_cast<size_t>(index), n);
    if (builder_step(ctx.app, index)) other_language(ctx, *builder_step(ctx.app, index), n);
    ImGui::PopID();
  }

  // The same texts in the other language, optional: without them learners in that language read these.
  void other_language(PanelContext& ctx, DraftStep& s, const std::string& n) {
    const char* name = other(ctx) == Lang::En ? "builder.lang_en" : "builder.lang_hi";
    const std::string title = ctx.trf("builder.other_lang", {{"lang", ctx.tr(name)}}) + "###other";
    const bool open = ImGui::TreeNode(title.c_str());
    ctx.track(ControlFamily::builder_step, n + ":other");
    if (!open) return;
    const auto field = [&](const char* caption, const std::string& id, DraftText& t, bool wrapping) {
      if (text_field(caption, "other-" + id, t.in(other(ctx)), wrapping, t.in(lang(ctx)))) builder_changed(ctx.app);
    };
    field(ctx.tr("builder.text"), "text", s.text, true);
    if (s.ask != DraftStep::Ask::None) {
      field(ctx.tr("builder.question"), "question", s.question, true);
      for (size_t j = 0; s.ask == DraftStep::Ask::Choice && j < s.choices.size(); ++j) {
        ImGui::PushID(static_cast<int>(j));
        field(ctx.trf("builder.choice", {{"n", std::to_string(j + 1)}}).c_str(), "choice", s.choices[j].text, true);
        if (static_cast<int>(j) != s.answer) field(ctx.tr("builder.feedback"), "feedback", s.choices[j].feedback, true);
        ImGui::PopID();
      }
      field(ctx.tr("builder.hint"), "hint", s.hint, true);
      field(ctx.tr("builder.explain"), "explain", s.explain, true);
    }
    ImGui::TreePop();
  }

  void view_fields(PanelContext& ctx, size_t i, const std::string& n) {
    text_wrapped(builder_recorded_text(ctx.app, i), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    if (ImGui::Button(ctx.label("builder.record", "record").c_str())) builder_record_view(ctx.app, i);
    ctx.track(ControlFamily::builder_step, n + ":record");
    highlight_combo(ctx, i, n);
    locks_tree(ctx, i, n);
  }

  void highlight_combo(PanelContext& ctx, size_t i, const std::string& n) {
    const DraftStep& s = draft(ctx).steps[i];  // set_highlight changes only the highlight
    const std::string now = s.highlight.empty() ? ctx.tr("builder.none") : ctx.tr(("panel." + s.highlight).c_str());
    ImGui::SetNextItemWidth(width_beside_label(ctx.tr("builder.highlight")));
    if (ImGui::BeginCombo(ctx.label("builder.highlight", "highlight").c_str(), now.c_str())) {
      if (ImGui::Selectable(ctx.tr("builder.none"), s.highlight.empty())) builder_set_highlight(ctx.app, i, "");
      for (const std::string& p : s.panels)
        if (ImGui::Selectable(ctx.tr(("panel." + p).c_str()), p == s.highlight)) builder_set_highlight(ctx.app, i, p);
      ImGui::EndCombo();
    }
    ctx.track(ControlFamily::builder_step, n + ":highlight");
  }

  void locks_tree(PanelContext& ctx, size_t i, const std::string& n) {
    const std::vector<std::string>& lock = draft(ctx).steps[i].lock;
    const std::string title = ctx.trf("builder.locks", {{"n", std::to_string(lock.size())}}) + "###locks";
    const bool open = ImGui::TreeNode(title.c_str());
    ctx.track(ControlFamily::builder_step, n + ":locks");
    if (!open) return;
    for (const ControlInfo& c : control_table()) {
      bool on = std::find(lock.begin(), lock.end(), c.id) != lock.end();
      if (ImGui::Checkbox(c.id, &on)) builder_set_lock(ctx.app, i, c.id, on);
    }
    ImGui::TreePop();
  }

  void ask_fields(PanelContext& ctx, size_t i, const std::string& n) {
    int ask = static_cast<int>(draft(ctx).steps[i].ask);
    ImGui::TextUnformatted(ctx.tr("builder.ask"));
    for (int k = 0; k < 4; ++k) {
      const char* name = builder_ask_keys()[k];
      if (k > 0) same_line_if_fits(button_width(ctx.tr(name)) + ImGui::GetFrameHeight());
      if (ImGui::RadioButton(ctx.label(name, name).c_str(), &ask, k))
        builder_set_ask(ctx.app, i, static_cast<DraftStep::Ask>(k));
      ctx.track(ControlFamily::builder_step, n + ":ask:" + std::to_string(k));
    }
    DraftStep& s = draft(ctx).steps[i];
    if (s.ask == DraftStep::Ask::None) return;
    // The id LMS records name: shown so a teacher sees it stay when steps move.
    text_wrapped(ctx.trf("builder.task_id", {{"id", s.task_id}}), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    draft_text(ctx, ctx.tr("builder.question"), "question", s.question, true);
    ctx.track(ControlFamily::builder_step, n + ":question");
    if (s.ask == DraftStep::Ask::Choice)
      choice_fields(ctx, i, n);
    else if (s.ask == DraftStep::Ask::Number)
      number_fields(ctx, s, n);
    else
      goal_fields(ctx, i, n);
    if (s.ask != DraftStep::Ask::Do) prediction_fields(ctx, i, n);
    DraftStep& now = draft(ctx).steps[i];  // a choice removed above may have moved nothing, but be sure
    draft_text(ctx, ctx.tr("builder.hint"), "hint", now.hint, true);
    ctx.track(ControlFamily::builder_step, n + ":hint");
    draft_text(ctx, ctx.tr("builder.explain"), "explain", now.explain, true);
    ctx.track(ControlFamily::builder_step, n + ":explain");
    claims_fields(ctx, i, true, "builder.explain_claims", n + ":explain_claims");
  }

  // What a text says of the live numbers it quotes (app/lesson/lesson_builder.h: add_claim): the claims so far, each
  // with its Remove, a new one from a live value, a comparison and a threshold, and the declaration that the text
  // compares nothing. The verifier's findings below say when a text needs them.
  void claims_fields(PanelContext& ctx, size_t step, bool explain, const char* title_key, const std::string& id) {
    const nlohmann::json list =
        builder_claims_holder(draft(ctx).steps[step], explain).value("claims", nlohmann::json());
    const size_t count = list.is_array() ? list.size() : 0;
    const std::string title = ctx.trf(title_key, {{"n", std::to_string(count)}}) + "###" + id;
    const bool open = ImGui::TreeNode(title.c_str());
    ctx.track(ControlFamily::builder_step, id);
    if (!open) return;
    ImGui::PushID(id.c_str());
    text_wrapped(ctx.tr("builder.claims_help"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    for (size_t i = 0; i < count; ++i) {
      ImGui::PushID(static_cast<int>(i));
      ImGui::TextUnformatted(claim_text(list[i], lang(ctx)).c_str());
      ImGui::SameLine();
      if (ImGui::SmallButton(ctx.label("builder.remove", "claim_remove").c_str()))
        builder_remove_claim(ctx.app, step, explain, i);
      ctx.track(ControlFamily::builder_step, id + ":remove:" + std::to_string(i + 1));
      ImGui::PopID();
    }
    BuilderSession& b = ctx.app.builder;  // the claim the Add button makes
    condition_fields(ctx, "builder.claim_value", "claim_", id + ":", b.new_claim_value, b.new_claim_op,
                     b.new_claim_than);
    if (wrapped_button(ctx.tr("builder.claim_add"))) builder_add_claim(ctx.app, step, explain);
    ctx.track(ControlFamily::builder_step, id + ":add");
    bool declared = builder_claims_holder(draft(ctx).steps[step], explain).contains("claims");
    if (checkbox_wrapped(ctx.label("builder.claims_declared", "claims_declared"), &declared))
      builder_declare_claims(ctx.app, step, explain, declared);
    ctx.track(ControlFamily::builder_step, id + ":declared");
    ImGui::PopID();
    ImGui::TreePop();
  }

  // A condition on a live value — a do task's goal, a text's claim: the value, the comparison and the threshold,
  // each with its ImGui id (`id_prefix` + value|op|than) and tracked id (`track_prefix` + the same), then the value
  // now. True when one of them was edited.
  bool condition_fields(PanelContext& ctx, const char* value_label, const std::string& id_prefix,
                        const std::string& track_prefix, std::string& value, std::string& op, double& than) {
    bool edited = false;
    ImGui::SetNextItemWidth(width_beside_label(ctx.tr(value_label)));
    if (ImGui::BeginCombo(ctx.label(value_label, (id_prefix + "value").c_str()).c_str(), value.c_str())) {
      for (const std::string& name : live_value_names())
        if (ImGui::Selectable(name.c_str(), name == value)) value = name, edited = true;
      ImGui::EndCombo();
    }
    ctx.track(ControlFamily::builder_step, track_prefix + "value");
    ImGui::SetNextItemWidth(width_beside_label(ctx.tr("builder.goal_op")));
    if (ImGui::BeginCombo(ctx.label("builder.goal_op", (id_prefix + "op").c_str()).c_str(), op.c_str())) {
      for (const char* o : builder_goal_ops())
        if (ImGui::Selectable(o, op == o)) op = o, edited = true;
      ImGui::EndCombo();
    }
    ctx.track(ControlFamily::builder_step, track_prefix + "op");
    ImGui::SetNextItemWidth(width_beside_label(ctx.tr("builder.goal_than")));
    if (ImGui::InputDouble(ctx.label("builder.goal_than", (id_prefix + "than").c_str()).c_str(), &than, 0, 0, "%.6g"))
      edited = true;
    ctx.track(ControlFamily::builder_step, track_prefix + "than");
    const std::string now = builder_value_now(ctx.app, value);
    if (!now.empty()) ImGui::TextDisabled("%s", now.c_str());
    return edited;
  }

  // What the prediction asks about (no open panel may show it before the answer) and what the answer reveals.
  void prediction_fields(PanelContext& ctx, size_t i, const std::string& n) {
    const std::vector<std::string>& asks = draft(ctx).steps[i].asks;
    const std::string title = ctx.trf("builder.asks", {{"n", std::to_string(asks.size())}}) + "###asks";
    const bool open = ImGui::TreeNode(title.c_str());
    ctx.track(ControlFamily::builder_step, n + ":asks");
    if (open) {
      for (const std::string& fact : panel_facts()) {
        bool on = std::find(asks.begin(), asks.end(), fact) != asks.end();
        if (ImGui::Checkbox(fact.c_str(), &on)) builder_set_asks(ctx.app, i, fact, on);
      }
      ImGui::TreePop();
    }
    if (wrapped_button(ctx.tr("builder.hide"))) builder_hide_answers(ctx.app, i);
    ctx.track(ControlFamily::builder_step, n + ":hide");
    text_wrapped(builder_reveal_text(ctx.app, i), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    if (wrapped_button(ctx.tr("builder.record_reveal"))) builder_record_reveal(ctx.app, i);
    ctx.track(ControlFamily::builder_step, n + ":reveal");
    if (!draft(ctx).steps[i].reveal.empty()) {
      same_line_if_fits(button_width(ctx.tr("builder.clear")));
      if (ImGui::Button(ctx.label("builder.clear", "clear_reveal").c_str())) builder_clear_reveal(ctx.app, i);
      ctx.track(ControlFamily::builder_step, n + ":reveal_clear");
    }
  }

  // A do task: the goal a live value must meet, recorded from the view the teacher set up, which becomes the
  // solution (the verifier walks it).
  void goal_fields(PanelContext& ctx, size_t i, const std::string& n) {
    const BuilderGoal g = builder_goal(draft(ctx).steps[i]);
    std::string value = g.value, op = g.op;
    double than = g.than;
    if (condition_fields(ctx, "builder.goal_value", "goal_", n + ":goal_", value, op, than)) {
      if (value != g.value) builder_set_goal(ctx.app, i, "value", value);
      if (op != g.op) builder_set_goal(ctx.app, i, "op", op);
      if (than != g.than) builder_set_goal(ctx.app, i, "than", than);
    }
    text_wrapped(builder_solution_text(ctx.app, i), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    if (wrapped_button(ctx.tr("builder.record_goal"))) builder_record_goal(ctx.app, i);
    ctx.track(ControlFamily::builder_step, n + ":goal_record");
  }

  void choice_fields(PanelContext& ctx, size_t i, const std::string& n) {
    DraftStep& s = draft(ctx).steps[i];
    for (size_t j = 0; j < s.choices.size(); ++j) {
      ImGui::PushID(static_cast<int>(j));
      const std::string c = std::to_string(j + 1), cid = n + ":choice:" + c;
      draft_text(ctx, ctx.trf("builder.choice", {{"n", c}}).c_str(), "choice", s.choices[j].text, true);
      ctx.track(ControlFamily::builder_step, cid);
      int answer = s.answer;
      if (ImGui::RadioButton(ctx.label("builder.right", "right").c_str(), &answer, static_cast<int>(j)))
        builder_set_answer(ctx.app, i, j);
      ctx.track(ControlFamily::builder_step, cid + ":right");
      same_line_if_fits(button_width(ctx.tr("builder.remove")));
      ImGui::BeginDisabled(s.choices.size() <= 2);
      const bool remove = ImGui::SmallButton(ctx.label("builder.remove", "remove").c_str());
      ImGui::EndDisabled();
      ctx.track(ControlFamily::builder_step, cid + ":remove");
      if (static_cast<int>(j) != s.answer) {
        ImGui::Indent();
        draft_text(ctx, ctx.tr("builder.feedback"), "feedback", s.choices[j].feedback, true);
        ctx.track(ControlFamily::builder_step, cid + ":feedback");
        ImGui::Unindent();
      }
      ImGui::PopID();
      if (remove && builder_remove_choice(ctx.app, i, j)) break;
    }
    ImGui::BeginDisabled(s.choices.size() >= kMaxDraftChoices);
    if (ImGui::Button(ctx.label("builder.add_choice", "add_choice").c_str())) builder_add_choice(ctx.app, i);
    ImGui::EndDisabled();
    ctx.track(ControlFamily::builder_step, n + ":add_choice");
  }

  void number_fields(PanelContext& ctx, DraftStep& s, const std::string& n) {
    ImGui::SetNextItemWidth(width_beside_label(ctx.tr("builder.number")));
    if (ImGui::InputDouble(ctx.label("builder.number", "number").c_str(), &s.number, 0, 0, "%.6g"))
      builder_changed(ctx.app);
    ctx.track(ControlFamily::builder_step, n + ":number");
    ImGui::SetNextItemWidth(width_beside_label(ctx.tr("builder.tolerance")));
    if (ImGui::InputDouble(ctx.label("builder.tolerance", "tolerance").c_str(), &s.tolerance, 0, 0, "%.6g"))
      builder_changed(ctx.app);
    ctx.track(ControlFamily::builder_step, n + ":tolerance");
  }

  // [SECTION] the checker's verdict and SCORM 1.2's limit ----------------------------------------------------
  void verdict(PanelContext& ctx) {
    builder_check(ctx.app);
    ImGui::Separator();
    const BuilderVerdict v = builder_verdict(ctx.app);
    text_wrapped(v.head, v.ok ? good_col() : bad_col());
    ctx.track(ControlId::builder_check);
    for (const std::string& line : v.findings) text_wrapped(line, bad_col());
    for (const std::string& line : v.unlocked) text_wrapped(line, highlight_col());
    for (const std::string& line : v.long_steps) text_wrapped(line, bad_col());
  }

  // [SECTION] preview, file, link, LMS package ------------------------------------------------------------------
  void outputs(PanelContext& ctx) {
    pass_fields(ctx);  // kept in the file; a package grades by it
    ImGui::BeginDisabled(!ctx.app.builder.problem.empty());
    if (wrapped_button(ctx.tr("builder.preview"))) builder_preview(ctx.app);
    ctx.track(ControlId::builder_preview);
    if (wrapped_button(ctx.tr("builder.save"))) builder_save(ctx.app);
    ctx.track(ControlId::builder_save);
    if (builder_can_link(ctx.app)) {
      if (wrapped_button(ctx.tr("builder.link"))) builder_copy_link(ctx.app);
      ctx.track(ControlId::builder_link);
    }
    if (ctx.app.host.make_course_package) lms_row(ctx);
    ImGui::EndDisabled();
  }

  void lms_row(PanelContext& ctx) {
    if (!builder_can_package(ctx.app)) {  // the page packages for SCORM, which grades by a pass mark
      text_wrapped(ctx.tr("builder.pass_none_scorm"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
      return;
    }
    int& scorm = ctx.app.builder.scorm;
    ImGui::RadioButton(ctx.label("share.lms_scorm12", ControlId::builder_scorm12).c_str(), &scorm, 0);
    ctx.track(ControlId::builder_scorm12);
    same_line_if_fits(button_width(ctx.tr("share.lms_scorm2004")) + ImGui::GetFrameHeight());
    ImGui::RadioButton(ctx.label("share.lms_scorm2004", ControlId::builder_scorm2004).c_str(), &scorm, 1);
    ctx.track(ControlId::builder_scorm2004);
    if (wrapped_button(ctx.tr("builder.lms"))) builder_package(ctx.app);
    ctx.track(ControlId::builder_lms);
  }

  void preview_bar(PanelContext& ctx) {
    text_wrapped(ctx.tr("builder.previewing"));
    for (const std::string& line : builder_verdict(ctx.app).long_steps) text_wrapped(line, bad_col());
    if (wrapped_button(ctx.tr("builder.stop"))) builder_stop_preview(ctx.app);
    ctx.track(ControlId::builder_stop);
  }
};

}  // namespace

std::unique_ptr<Panel> make_builder_panel() { return std::make_unique<BuilderPanel>(); }

}  // namespace attn::ui
