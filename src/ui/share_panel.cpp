// share_panel.cpp — copy a link to this exact state, build an <iframe> embed code for a course page,
// export PNG / CSV / JSON, import a JSON scenario or state.
#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/app_exchange.h"
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_run.h"
#include "app/share_actions.h"
#include "app/state/state_json.h"
#include "ui/axis_labels.h"
#include "ui/panels.h"
#include "ui/plot.h"

namespace attn::ui {
namespace {

// Below this display width (in em) the Share window takes the screen's width less kPhoneMargin px a side instead
// of its content's (30 em fields and the export buttons' rows), so nothing runs past the screen's edge.
constexpr float kWideEnoughEm = 36.0f;
constexpr float kPhoneMargin = 4.0f;

// Read-only text that can still be selected and copied by hand (clipboard access may be refused).
void selectable_text(const char* id, const std::string& text, float height) {
  std::vector<char> buf(text.begin(), text.end());
  buf.push_back('\0');
  const float width = ImGui::CalcItemWidth();
  if (height > 0) {
    ImGui::InputTextMultiline(id, buf.data(), buf.size(), ImVec2(width, height), ImGuiInputTextFlags_ReadOnly);
  } else {
    ImGui::SetNextItemWidth(width);
    ImGui::InputText(id, buf.data(), buf.size(), ImGuiInputTextFlags_ReadOnly | ImGuiInputTextFlags_AutoSelectAll);
  }
}

class SharePanel : public Panel {
 public:
  bool floating() const override { return true; }
  int window_flags() const override { return ImGuiWindowFlags_AlwaysAutoResize; }
  void before_begin(PanelContext&) override {
    // A floating window over the layout: in front when it opens, always exactly as tall as its content
    // (so no button is ever clipped under another panel), growing downwards from below the menu bar.
    const ImVec2 ds = ImGui::GetIO().DisplaySize;
    const float max_h = std::max(200.0f, ds.y - ImGui::GetFrameHeight() - 8);
    if (ds.x < ImGui::GetFontSize() * kWideEnoughEm) {
      // A phone (or large text): the whole width less a margin, never past the screen's edge; the hints wrap.
      const float w = ds.x - 2 * kPhoneMargin;
      ImGui::SetNextWindowPos(ImVec2(kPhoneMargin, ImGui::GetFrameHeight() + 8), ImGuiCond_Always);
      ImGui::SetNextWindowSizeConstraints(ImVec2(w, 0), ImVec2(w, max_h));
    } else {
      ImGui::SetNextWindowPos(ImVec2(ds.x * 0.5f, ImGui::GetFrameHeight() + 8), ImGuiCond_Appearing, ImVec2(0.5f, 0));
      ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(ds.x, max_h));
    }
    ImGui::SetNextWindowBgAlpha(1.0f);  // it floats over the panels: keep it legible
    if (ImGui::GetFrameCount() > last_frame_ + 1) ImGui::SetNextWindowFocus();  // (re)opened: in front
    last_frame_ = ImGui::GetFrameCount();
  }

  void draw(PanelContext& ctx) override {
    app_ = &ctx.app;
    ctx_ = &ctx;
    width_px_ = std::min(ImGui::GetFontSize() * 30, ImGui::GetContentRegionAvail().x);
    ImGui::PushItemWidth(width_px_);
    link_section(ctx.state);
    embed_section();
    export_section();
    lms_section(ctx.state);
    import_section();
    ImGui::PopItemWidth();
  }

 private:
  void link_section(const State&) {
    section_header(ctx_->tr("share.link_section"));
    if (ImGui::Button(ctx_->label("share.copy_link", "copy_link").c_str())) {
      share_copy_link(*app_);
      link_shown_ = true;
    }
    ctx_->track(ControlId::share_copy_link);
    hint_beside("share.same_numbers");
    // The box follows the state, so copying from it by hand never shares an old one.
    if (link_shown_) selectable_text("##link", app_->current_share_link(ImGui::GetTime()), 0);
  }

  void embed_section() {
    section_header(ctx_->tr("share.embed_section"));
    // A tree node's label cannot wrap: on a narrow screen it ends in "…" (the section header above says it).
    const std::string embed_label = fit_label(ctx_->tr("share.embed_options"),
                                              ImGui::GetContentRegionAvail().x - ImGui::GetTreeNodeToLabelSpacing());
    const bool open = ImGui::TreeNode("embed", "%s", embed_label.c_str());
    // A tree node's row spans the panel (and, in the Share window that sizes to its content, a little past its
    // clip edge); what the learner reads and clicks is the arrow and the label.
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const float label_w = ImGui::GetTreeNodeToLabelSpacing() + ImGui::CalcTextSize(embed_label.c_str()).x;
    ctx_->track_rect(ControlId::share_embed_options, a.x, a.y, std::min(b.x - a.x, label_w), b.y - a.y);
    if (!open) return;
    // A view of app.embed_choice: its twins in the parallel DOM change the same choice (share_actions.h).
    ImGui::TextUnformatted(ctx_->tr("share.panels_to_show"));
    checkbox_row(ControlFamily::share_show, embed_panel_ids());
    ImGui::TextUnformatted(ctx_->tr("share.controls_locked"));
    checkbox_row(ControlFamily::share_lock, control_ids());
    ImGui::TextUnformatted(ctx_->tr("share.controls_hidden"));
    checkbox_row(ControlFamily::share_hide, control_ids());
    EmbedChoice& choice = app_->embed_choice;
    ImGui::TextUnformatted(ctx_->tr("share.origins"));
    char origins[kMaxEmbedOriginsText + 1];
    const size_t n = choice.origins.copy(origins, kMaxEmbedOriginsText);
    origins[n] = '\0';
    if (ImGui::InputTextWithHint("##origins", "https://course.example", origins, sizeof origins))
      set_embed_origins(*app_, origins);
    ctx_->track(ControlId::share_origins);
    int width = choice.width, height = choice.height;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    ImGui::InputInt(ctx_->label("share.width", ControlId::share_embed_width).c_str(), &width, 0);
    ctx_->track(ControlId::share_embed_width);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    ImGui::InputInt(ctx_->label("share.height", ControlId::share_embed_height).c_str(), &height, 0);
    ctx_->track(ControlId::share_embed_height);
    set_embed_size(*app_, width, height);

    const EmbedCode code = embed_code_problems(*app_);  // the code itself only on a press
    if (!code.origins_error.empty())
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(bad_col()), "%s", code.origins_error.c_str());
    ImGui::BeginDisabled(!code.error.empty());
    if (ImGui::Button(ctx_->label("share.copy_embed", "copy_embed").c_str())) copy_embed_code(*app_);
    ImGui::EndDisabled();
    ctx_->track(ControlId::share_copy_embed);
    if (!code.error.empty() && code.origins_error.empty()) {  // why it is greyed (an origin's problem is said above)
      ImGui::SameLine();
      ImGui::TextDisabled("%s", code.error.c_str());
    }
    if (!choice.code.empty()) {
      selectable_text("##embed", choice.code, ImGui::GetTextLineHeight() * 4.5f);
      ctx_->track(ControlId::share_embed_code);
    }
    ImGui::TreePop();
  }

  // The exports (share_actions.h), the same actions as their twins'.
  void export_section() {
    section_header(ctx_->tr("share.export_section"));
    const std::vector<ShareExport>& exports = share_exports();
    for (size_t i = 0; i < exports.size(); ++i) {
      const ShareExport& e = exports[i];
      const std::string label = ctx_->label(e.label, e.control.c_str());
      // Rows: the PNGs, the SVG figures, the data files; a row wraps where the panel is narrower than it.
      if (i != 0 && i != 2 && i != 5) same_line_if_fits(button_width(label));
      ImGui::BeginDisabled(!share_export_available(*app_, e.control));
      if (ImGui::Button(label.c_str())) share_save(*app_, e.control);
      ImGui::EndDisabled();
      if (e.svg_name)
        ctx_->track(ControlFamily::share_svg, e.svg_name);
      else
        ctx_->track(e.id);
    }
  }

  // A lesson as a SCORM or cmi5 package an LMS imports (the page zips its own files with the manifest): the LMS then
  // records completion, score, each answer and where the learner left off. Only where the host can build it.
  void lms_section(const State& s) {
    if (!app_->host.make_course_package || lessons().empty()) return;
    section_header(ctx_->tr("share.lms_section"));
    if (ImGui::Button(ctx_->label("share.lms_download", "lms_download").c_str())) ImGui::OpenPopup("lms_package");
    ctx_->track(ControlId::share_lms_package);
    hint_beside("share.lms_what");
    if (!ImGui::BeginPopup("lms_package")) return;
    PackageChoice& choice = app_->package_choice;
    // One unit per ticked lesson; none ticked by the teacher yet: the open lesson (or the first) is.
    ImGui::TextDisabled("%s", ctx_->tr("share.lms_lesson"));
    const std::vector<std::string> chosen = package_lessons(*app_);
    const float rows = std::min<float>(8.5f, static_cast<float>(lessons().size()));
    ImGui::BeginChild("lessons", ImVec2(width_px_ * 0.9f, rows * ImGui::GetFrameHeightWithSpacing()), true);
    for (const Lesson& l : lessons()) {
      bool in = std::find(chosen.begin(), chosen.end(), l.id) != chosen.end();
      if (ImGui::Checkbox((std::string(tr(s.lang, l.title.c_str())) + "###" + l.id).c_str(), &in))
        choose_package_lesson(*app_, l.id, in);
      ctx_->track(ControlFamily::share_package_lesson, l.id);
    }
    ImGui::EndChild();
    int kind = static_cast<int>(choice.kind);
    ImGui::RadioButton(ctx_->label("share.lms_scorm12", "lms_scorm12").c_str(), &kind, 0);
    ctx_->track(ControlId::share_lms_scorm12);
    ImGui::SameLine();
    ImGui::RadioButton(ctx_->label("share.lms_scorm2004", "lms_scorm2004").c_str(), &kind, 1);
    ctx_->track(ControlId::share_lms_scorm2004);
    ImGui::SameLine();
    ImGui::RadioButton(ctx_->label("share.lms_cmi5", "lms_cmi5").c_str(), &kind, 2);
    ctx_->track(ControlId::share_lms_cmi5);
    choice.kind = static_cast<PackageKind>(kind);
    if (ImGui::Button(ctx_->label("share.lms_make", "lms_make").c_str()) && !chosen.empty()) {
      make_package(*app_);
      ImGui::CloseCurrentPopup();
    }
    ctx_->track(ControlId::share_lms_download);
    ImGui::EndPopup();
  }

  void import_section() {
    section_header(ctx_->tr("share.import_section"));
    if (app_->host.pick_file) {
      if (ImGui::Button(ctx_->label("share.import", "import").c_str())) app_->host.pick_file();
      ctx_->track(ControlId::share_import_json);
      hint_beside("share.drop_hint");
    } else if (app_->host.read_file) {
      ImGui::SetNextItemWidth(width_px_ * 0.7f);
      ImGui::InputTextWithHint("##import path", ctx_->tr("share.path_hint"), path_, sizeof path_);
      same_line_if_fits(button_width(ctx_->label("share.import", "import")));
      if (ImGui::Button(ctx_->label("share.import", "import").c_str()) && path_[0]) {
        std::string text;
        const std::string err = app_->host.read_file(path_, text);
        if (err.empty())
          app_->import_text(text, path_);
        else
          app_->status = err;
      }
      ctx_->track(ControlId::share_import_json);
    }
    text_wrapped(ctx_->tr("share.import_what"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ctx_->check_fit("share.import_what");
  }

  // A greyed hint after a button: on its line where it fits, else wrapped on the lines below.
  void hint_beside(const char* key) {
    const char* text = ctx_->tr(key);
    same_line_if_fits(ImGui::CalcTextSize(text).x);
    text_wrapped(text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ctx_->check_fit(key);
  }

  // One checkbox per panel to show or control to lock or hide, as many to a row as fit.
  void checkbox_row(ControlFamily group, const std::vector<std::string>& ids) {
    ImGui::PushID(static_cast<int>(group));
    float x = 0;
    const float avail = ImGui::CalcItemWidth();
    bool first = true;
    for (const std::string& id : ids) {
      const float w = ImGui::CalcTextSize(id.c_str()).x + ImGui::GetFrameHeight() +
                      ImGui::GetStyle().ItemInnerSpacing.x + ImGui::GetStyle().ItemSpacing.x;
      if (!first && x + w < avail)
        ImGui::SameLine();
      else
        x = 0;
      x += w;
      first = false;
      bool on = embed_item_chosen(*app_, group, id);
      if (ImGui::Checkbox(id.c_str(), &on)) choose_embed_item(*app_, group, id, on);
      ctx_->track(group, id);
    }
    ImGui::PopID();
  }

  App* app_ = nullptr;           // the context's App, set each frame
  PanelContext* ctx_ = nullptr;  // this frame's context (item rectangles)
  bool link_shown_ = false;      // after the first "Copy link"
  char path_[1024] = "";
  float width_px_ = 440;
  int last_frame_ = -10;
};

}  // namespace

std::unique_ptr<Panel> make_share_panel() { return std::make_unique<SharePanel>(); }

}  // namespace attn::ui
