// builder_panel.cpp — the lesson builder: add the current view as a step, type its text and question, reorder,
// check it as a lesson file is checked, preview it as a learner, and save it as a file, a link or an LMS package; open
// a built-in lesson, a lesson file or link to edit it, or start anew.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/app_exchange.h"
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

std::string first_line(const std::string& s, size_t n) {
  std::string out = s.substr(0, s.find('\n'));
  return out.size() > n ? out.substr(0, n) + "…" : out;
}

class BuilderPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    keep_in_sync(ctx);
    take_opened(ctx);
    if (!previewing_.empty()) {
      preview_bar(ctx);
      return;
    }
    text_wrapped(ctx.tr("builder.intro"));
    open_section(ctx);
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
    j["next_question"] = draft_.next_question;  // a deleted question's id is not given out again
    ctx.app.progress["builder"] = std::move(j);
    save_progress(ctx.app);
  }

  Lang lang(const PanelContext& ctx) const { return ctx.state.lang; }
  Lang other(const PanelContext& ctx) const { return lang(ctx) == Lang::En ? Lang::HiLatn : Lang::En; }

  bool draft_text(PanelContext& ctx, const char* caption, const std::string& id, DraftText& t, bool wrapping) {
    const bool edited = text_field(caption, id, t.in(lang(ctx)), wrapping, t.in(other(ctx)));
    changed_ = changed_ || edited;
    return edited;
  }

  // [SECTION] open a lesson to edit, or start anew ----------------------------------------------------------
  void open_section(PanelContext& ctx) {
    if (!pending_.empty()) return confirm_replace(ctx);
    const bool open = ImGui::TreeNode((std::string(ctx.tr("builder.open_section")) + "###open").c_str());
    ctx.track(ControlId::builder_open_section);
    if (!open) return;
    if (wrapped_button(ctx.tr("builder.new"))) request(ctx, nlohmann::json());
    ctx.track(ControlId::builder_new);
    builtin_row(ctx);
    if (ctx.app.host.pick_file) {
      if (wrapped_button(ctx.tr("builder.open_file"))) {
        ctx.app.builder_import = true;  // the picked file comes back through App::import_text
        ctx.app.host.pick_file();
      }
      ctx.track(ControlId::builder_open_file);
    }
    const bool path = ctx.app.host.read_file && !ctx.app.host.pick_file;
    text_field(ctx.tr(path ? "builder.open_path" : "builder.open_link"), "open", open_text_, false, "");
    ctx.track(ControlId::builder_open_text);
    ImGui::BeginDisabled(open_text_.empty());
    if (wrapped_button(ctx.tr("builder.open"))) open_typed(ctx, path);
    ImGui::EndDisabled();
    ctx.track(ControlId::builder_open);
    ImGui::TreePop();
  }

  void builtin_row(PanelContext& ctx) {
    const std::vector<Lesson>& all = lessons();
    if (all.empty()) return;
    if (builtin_ >= all.size()) builtin_ = 0;
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::BeginCombo("##builtin", tr(lang(ctx), all[builtin_].title.c_str()))) {
      for (size_t i = 0; i < all.size(); ++i)
        if (ImGui::Selectable(tr(lang(ctx), all[i].title.c_str()), i == builtin_)) builtin_ = i;
      ImGui::EndCombo();
    }
    ctx.track(ControlId::builder_builtin);
    if (wrapped_button(ctx.tr("builder.open_builtin"))) {
      LessonDraft d;
      if (draft_from_builtin(all[builtin_].id, d).empty()) request(ctx, to_kept(d));
    }
    ctx.track(ControlId::builder_open_builtin);
  }

  // A typed lesson link (or, on the desktop, a file's path) opened in the builder.
  void open_typed(PanelContext& ctx, bool path) {
    std::string text = open_text_;
    if (path && !is_lesson_link(text)) {
      const std::string err = ctx.app.host.read_file(open_text_, text);
      if (!err.empty()) {
        ctx.app.status = ctx.trf("status.lesson_failed", {{"name", open_text_}, {"error", err}});
        return;
      }
    }
    if (open_in_builder(ctx.app, text, open_text_).empty()) open_text_.clear();
  }

  static nlohmann::json to_kept(const LessonDraft& d) {
    nlohmann::json j = draft_to_lesson_json(d);
    j["next_question"] = d.next_question;
    return j;
  }

  // A lesson opened in the builder (here, or a file picked for it), once it has arrived.
  void take_opened(PanelContext& ctx) {
    if (ctx.app.builder_opened.is_null()) return;
    request(ctx, std::move(ctx.app.builder_opened));
    ctx.app.builder_opened = nullptr;
  }

  // A draft to replace this one (null: a new, empty one): at once when this one has no steps, else once confirmed.
  void request(PanelContext& ctx, nlohmann::json next) {
    pending_ = next.is_null() ? nlohmann::json::object({{"steps", nlohmann::json::array()}}) : std::move(next);
    if (draft_.steps.empty()) adopt(ctx);
  }

  void adopt(PanelContext& ctx) {
    LessonDraft d;
    if (draft_from_json(pending_, d).empty()) {
      draft_ = std::move(d);
      selected_ = -1;
      changed_ = true;
      const std::string title =
          draft_.title.in(lang(ctx)).empty() ? draft_.title.in(other(ctx)) : draft_.title.in(lang(ctx));
      ctx.app.status = draft_.steps.empty()
                           ? ctx.tr("builder.started")
                           : ctx.trf("builder.opened", {{"title", title}, {"n", std::to_string(draft_.steps.size())}});
    }
    pending_ = nlohmann::json();
  }

  void confirm_replace(PanelContext& ctx) {
    text_wrapped(ctx.trf("builder.replace_confirm", {{"n", std::to_string(draft_.steps.size())}}), bad_col());
    if (wrapped_button(ctx.tr("builder.replace"))) adopt(ctx);
    ctx.track(ControlId::builder_replace);
    if (wrapped_button(ctx.tr("builder.keep"))) pending_ = nlohmann::json();
    ctx.track(ControlId::builder_keep);
  }

  // [SECTION] lesson id and title -------------------------------------------------------------------
  void head_fields(PanelContext& ctx) {
    changed_ = text_field(ctx.tr("builder.id"), "id", draft_.id, false, "my-lesson") || changed_;
    ctx.track(ControlId::builder_id);
    draft_text(ctx, ctx.tr("builder.title"), "title", draft_.title, false);
    ctx.track(ControlId::builder_title);
  }

  // A pass mark (what an LMS package grades by) or none; unset shows the package's default, 80 %.
  void pass_fields(PanelContext& ctx) {
    bool graded = draft_.pass != kPassNone;
    if (ImGui::Checkbox(ctx.label("builder.pass", ControlId::builder_pass).c_str(), &graded)) {
      draft_.pass = graded ? 0.8 : kPassNone;
      changed_ = true;
    }
    ctx.track(ControlId::builder_pass);
    if (!graded) return;
    int percent = static_cast<int>(std::lround((draft_.pass >= 0 ? draft_.pass : 0.8) * 100));
    ImGui::SetNextItemWidth(width_beside_label(ctx.tr("builder.pass_mark")));
    if (ImGui::SliderInt(ctx.label("builder.pass_mark", ControlId::builder_pass_mark).c_str(), &percent, 0, 100,
                         "%d %%")) {
      draft_.pass = std::clamp(percent, 0, 100) / 100.0;
      changed_ = true;
    }
    ctx.track(ControlId::builder_pass_mark);
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
    claims_fields(ctx, s.kept, "builder.claims", n + ":claims");
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
    const auto field = [&](const char* caption, const std::string& id, DraftText& t, bool wrapping) {
      changed_ = text_field(caption, "other-" + id, t.in(other(ctx)), wrapping, t.in(lang(ctx))) || changed_;
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
    const char* names[] = {"builder.ask_none", "builder.ask_choice", "builder.ask_number", "builder.ask_do"};
    for (int k = 0; k < 4; ++k) {
      if (k > 0) same_line_if_fits(button_width(ctx.tr(names[k])) + ImGui::GetFrameHeight());
      if (ImGui::RadioButton(ctx.label(names[k], names[k]).c_str(), &ask, k)) changed_ = true;
      ctx.track(ControlFamily::builder_step, n + ":ask:" + std::to_string(k));
    }
    if (ask != static_cast<int>(s.ask))
      set_ask(draft_, static_cast<size_t>(selected_), static_cast<DraftStep::Ask>(ask));
    if (s.ask == DraftStep::Ask::None) return;
    // The id LMS records name: shown so a teacher sees it stay when steps move.
    text_wrapped(ctx.trf("builder.task_id", {{"id", s.task_id}}), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    draft_text(ctx, ctx.tr("builder.question"), "question", s.question, true);
    ctx.track(ControlFamily::builder_step, n + ":question");
    if (s.ask == DraftStep::Ask::Choice)
      choice_fields(ctx, s, n);
    else if (s.ask == DraftStep::Ask::Number)
      number_fields(ctx, s, n);
    else
      goal_fields(ctx, s, n);
    if (s.ask != DraftStep::Ask::Do) prediction_fields(ctx, s, n);
    draft_text(ctx, ctx.tr("builder.hint"), "hint", s.hint, true);
    ctx.track(ControlFamily::builder_step, n + ":hint");
    draft_text(ctx, ctx.tr("builder.explain"), "explain", s.explain, true);
    ctx.track(ControlFamily::builder_step, n + ":explain");
    claims_fields(ctx, s.kept_task, "builder.explain_claims", n + ":explain_claims");
  }

  // What a text says of the live numbers it quotes (app/lesson/lesson_builder.h: add_claim): the claims so far, each
  // with its Remove, a new one from a live value, a comparison and a threshold, and the declaration that the text
  // compares nothing. The verifier's findings below say when a text needs them.
  void claims_fields(PanelContext& ctx, nlohmann::json& holder, const char* title_key, const std::string& id) {
    const nlohmann::json& list = holder.value("claims", nlohmann::json());
    const size_t count = list.is_array() ? list.size() : 0;
    const std::string title = ctx.trf(title_key, {{"n", std::to_string(count)}}) + "###" + id;
    const bool open = ImGui::TreeNode(title.c_str());
    ctx.track(ControlFamily::builder_step, id);
    if (!open) return;
    ImGui::PushID(id.c_str());
    text_wrapped(ctx.tr("builder.claims_help"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    for (size_t i = 0; i < count; ++i) {
      const nlohmann::json& c = list[i];
      ImGui::PushID(static_cast<int>(i));
      ImGui::TextUnformatted(claim_text(c, lang(ctx)).c_str());
      ImGui::SameLine();
      if (ImGui::SmallButton(ctx.label("builder.remove", "claim_remove").c_str()))
        changed_ = remove_claim(holder, i) || changed_;
      ctx.track(ControlFamily::builder_step, id + ":remove:" + std::to_string(i + 1));
      ImGui::PopID();
    }
    // The claim the Add button makes.
    condition_fields(ctx, "builder.claim_value", "claim_", id + ":", new_claim_value_, new_claim_op_, new_claim_than_);
    if (wrapped_button(ctx.tr("builder.claim_add"))) {
      add_claim(holder, new_claim_value_, new_claim_op_, new_claim_than_);
      changed_ = true;
    }
    ctx.track(ControlFamily::builder_step, id + ":add");
    bool declared = holder.is_object() && holder.contains("claims");
    if (checkbox_wrapped(ctx.label("builder.claims_declared", "claims_declared"), &declared)) {
      declare_claims(holder, declared);
      changed_ = true;
    }
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
      for (const char* o : {">", ">=", "<", "<=", "=="})
        if (ImGui::Selectable(o, op == o)) op = o, edited = true;
      ImGui::EndCombo();
    }
    ctx.track(ControlFamily::builder_step, track_prefix + "op");
    ImGui::SetNextItemWidth(width_beside_label(ctx.tr("builder.goal_than")));
    if (ImGui::InputDouble(ctx.label("builder.goal_than", (id_prefix + "than").c_str()).c_str(), &than, 0, 0, "%.6g"))
      edited = true;
    ctx.track(ControlFamily::builder_step, track_prefix + "than");
    const LiveValues values = live_values(ctx.app);
    if (const auto now = values.find(value); now != values.end())
      ImGui::TextDisabled("%s",
                          ctx.trf("builder.goal_now", {{"value", format_live_value(lang(ctx), now->second)}}).c_str());
    return edited;
  }

  // What the prediction asks about (no open panel may show it before the answer) and what the answer reveals.
  void prediction_fields(PanelContext& ctx, DraftStep& s, const std::string& n) {
    const std::string title = ctx.trf("builder.asks", {{"n", std::to_string(s.asks.size())}}) + "###asks";
    const bool open = ImGui::TreeNode(title.c_str());
    ctx.track(ControlFamily::builder_step, n + ":asks");
    if (open) {
      for (const std::string& fact : panel_facts()) {
        auto at = std::find(s.asks.begin(), s.asks.end(), fact);
        bool on = at != s.asks.end();
        if (!ImGui::Checkbox(fact.c_str(), &on)) continue;
        if (on)
          s.asks.push_back(fact);
        else
          s.asks.erase(at);
        changed_ = true;
      }
      ImGui::TreePop();
    }
    if (wrapped_button(ctx.tr("builder.hide"))) changed_ = hide_answer_panels(s) || changed_;
    ctx.track(ControlFamily::builder_step, n + ":hide");
    text_wrapped(ctx.trf("builder.reveal", {{"state", s.reveal.empty() ? ctx.tr("builder.none") : s.reveal.dump()}}),
                 ImGui::GetColorU32(ImGuiCol_TextDisabled));
    if (wrapped_button(ctx.tr("builder.record_reveal"))) record_reveal(s, ctx.state), changed_ = true;
    ctx.track(ControlFamily::builder_step, n + ":reveal");
    if (!s.reveal.empty()) {
      same_line_if_fits(button_width(ctx.tr("builder.clear")));
      if (ImGui::Button(ctx.label("builder.clear", "clear_reveal").c_str()))
        s.reveal = nlohmann::json::object(), changed_ = true;
      ctx.track(ControlFamily::builder_step, n + ":reveal_clear");
    }
  }

  static std::string goal_string(const DraftStep& s, const char* key, const char* otherwise) {
    const nlohmann::json& v = s.goal.value(key, nlohmann::json());
    return v.is_string() ? v.get<std::string>() : otherwise;
  }

  // A do task: the goal a live value must meet, recorded from the view the teacher set up, which becomes the
  // solution (the verifier walks it).
  void goal_fields(PanelContext& ctx, DraftStep& s, const std::string& n) {
    std::string value = goal_string(s, "value", ""), op = goal_string(s, "op", ">");
    // Read without writing: a new goal has no threshold yet, and s.goal["than"] would insert a null that get() throws
    // on.
    const nlohmann::json given = s.goal.value("than", nlohmann::json(0.0));
    double than = given.is_number() ? given.get<double>() : 0.0;
    const std::string value_before = value, op_before = op;
    const double than_before = than;
    if (condition_fields(ctx, "builder.goal_value", "goal_", n + ":goal_", value, op, than)) {
      if (value != value_before) s.goal["value"] = value;
      if (op != op_before) s.goal["op"] = op;
      if (than != than_before) s.goal["than"] = than;
      changed_ = true;
    }
    text_wrapped(
        ctx.trf("builder.solution", {{"state", s.solution.empty() ? ctx.tr("builder.none") : s.solution.dump()}}),
        ImGui::GetColorU32(ImGuiCol_TextDisabled));
    if (wrapped_button(ctx.tr("builder.record_goal"))) record_goal(s, ctx.state, live_values(ctx.app)), changed_ = true;
    ctx.track(ControlFamily::builder_step, n + ":goal_record");
  }

  void choice_fields(PanelContext& ctx, DraftStep& s, const std::string& n) {
    for (size_t j = 0; j < s.choices.size(); ++j) {
      ImGui::PushID(static_cast<int>(j));
      const std::string c = std::to_string(j + 1), cid = n + ":choice:" + c;
      draft_text(ctx, ctx.trf("builder.choice", {{"n", c}}).c_str(), "choice", s.choices[j].text, true);
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
        draft_text(ctx, ctx.tr("builder.feedback"), "feedback", s.choices[j].feedback, true);
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
      problem_ = check_draft(draft_, &findings_);
      warnings_ = draft_warnings(draft_);
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
    // The verifier's other findings: the first is the verdict above.
    for (size_t i = 1; i < findings_.size() && i < kShownFindings; ++i)
      text_wrapped(ctx.trf("builder.finding", {{"error", findings_[i]}}), bad_col());
    if (findings_.size() > kShownFindings)
      text_wrapped(ctx.trf("builder.more_findings", {{"n", std::to_string(findings_.size() - kShownFindings)}}),
                   bad_col());
    // One line per step: its unlocked controls together.
    for (size_t i = 0; i < warnings_.size();) {
      std::string controls;
      const size_t step = warnings_[i].step;
      for (; i < warnings_.size() && warnings_[i].step == step; ++i)
        controls += (controls.empty() ? "" : ", ") + warnings_[i].control;
      text_wrapped(ctx.trf("builder.unlocked", {{"step", std::to_string(step)}, {"controls", controls}}),
                   highlight_col());
    }
    for (size_t step : long_steps_)
      text_wrapped(ctx.trf("builder.scorm_long", {{"step", std::to_string(step)}}), bad_col());
  }

  // [SECTION] preview, file, link, LMS package ------------------------------------------------------------------
  void outputs(PanelContext& ctx) {
    pass_fields(ctx);  // kept in the file; a package grades by it
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
    if (draft_.pass == kPassNone) {  // the page packages for SCORM, which grades by a pass mark
      text_wrapped(ctx.tr("builder.pass_none_scorm"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
      return;
    }
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
  static constexpr size_t kShownFindings = 6;   // more would push the buttons out of a short panel
  std::string problem_;
  std::vector<std::string> findings_;
  std::vector<DraftWarning> warnings_;
  std::vector<size_t> long_steps_;
  nlohmann::json pending_;  // a lesson opened to replace a draft with steps, until the teacher confirms
  std::string open_text_;   // a lesson link (or a file's path) to open
  size_t builtin_ = 0;      // the built-in lesson picked to open
  int scorm_ = 0;
  std::string previewing_;  // the id of the lesson being previewed ("" = building)
  std::string new_claim_value_ = "max_weight", new_claim_op_ = ">";  // the claim the next Add makes
  double new_claim_than_ = 0.5;
  State before_;
};

}  // namespace

std::unique_ptr<Panel> make_builder_panel() { return std::make_unique<BuilderPanel>(); }

}  // namespace attn::ui
