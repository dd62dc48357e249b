// worksheet_panel.cpp — compute one attention by hand: type Q, K, V, QKᵀ, the scaled scores, the softmax
// rows and the output cell by cell; each cell is graded, each mistake diagnosed, "Show me" writes out one
// cell's arithmetic. [SECTION] exercise · [SECTION] inputs · [SECTION] stages · [SECTION] show me
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "app/worksheet/worksheet.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/theme.h"
#include "ui/tooltip.h"

namespace attn::ui {
namespace {

using namespace attn::exercise;

constexpr Stage kStages[] = {Stage::Q, Stage::K, Stage::V, Stage::Scores, Stage::Scaled, Stage::Weights, Stage::Output};

// A checked cell's fill (theme.h), and the mark drawn in it: right, wrong or following from an earlier slip is
// said by the mark too, not by the colour alone (WCAG 1.4.1). nullptr: the cell is unchecked.
const Rgb* status_fill(CellStatus st, const char** mark) {
  switch (st) {
    case CellStatus::Correct:
      *mark = "✓";
      return &kCellFills.correct;
    case CellStatus::CarriedForward:
      *mark = "▲";
      return &kCellFills.carried;
    case CellStatus::Wrong:
      *mark = "✗";
      return &kCellFills.wrong;
    case CellStatus::Invalid:
      *mark = "?";
      return &kCellFills.invalid;
    default:
      *mark = "";
      return nullptr;
  }
}

ImVec4 vec4(Rgb c) { return ImVec4(c.r, c.g, c.b, 1); }

class WorksheetPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    sync_worksheet(ctx.app);
    WorksheetSession& w = ctx.app.worksheet;
    chooser(ctx);
    if (!w.error.empty()) {
      text_wrapped(w.error, bad_col());
      return;
    }
    const Exercise& ex = w.exercise;
    const Lang lang = ctx.state.lang;
    if (ex.origin == Origin::Note)
      ImGui::TextDisabled("%s — %s", exercise_title(ex, lang).c_str(), exercise_source(ex, lang).c_str());
    text_wrapped(ctx.trf("worksheet.intro", {{"d_k", fmt(ex.d_k, 0)}, {"sqrt_d_k", fmt(std::sqrt(ex.d_k), 4)}}));
    const auto slips =
        std::count_if(ex.remarks.begin(), ex.remarks.end(), [](const Remark& r) { return r.kind == RemarkKind::Slip; });
    if (slips > 0)  // ▲: ⚠ is not in the font
      text_wrapped("▲ " + ctx.trf("worksheet.note_slips", {{"count", std::to_string(slips)}}), warn_col());
    inputs(ex);
    for (Stage s : kStages) stage(ctx, s);
    summary(ctx);
  }

 private:
  // [SECTION] exercise ------------------------------------------------------------------------------
  void chooser(PanelContext& ctx) {
    std::string& key = ctx.state.exercise;
    int number = key.rfind("exercise-", 0) == 0 ? std::atoi(key.c_str() + 9) : 0;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    if (ImGui::InputInt((std::string(ctx.tr("worksheet.number")) + "###ws-number").c_str(), &number) && number >= 1 &&
        number <= exercise::kMaxExerciseNumber)
      key = "exercise-" + std::to_string(number);
    ctx.track(ControlId::worksheet_number);
    same_line_if_fits(ImGui::GetFontSize() * 12);
    ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * 12, ImGui::GetContentRegionAvail().x));
    if (ImGui::BeginCombo("###ws-note", ctx.tr("worksheet.note_examples"))) {
      for (const std::string& id : note_exercise_ids()) {
        Exercise note;
        const std::string title = note_exercise(id, note).empty() ? exercise_title(note, ctx.state.lang) : id;
        if (ImGui::Selectable((title + "###" + id).c_str(), key == id)) key = id;
      }
      ImGui::EndCombo();
    }
    ctx.track(ControlId::worksheet_note);
  }

  // [SECTION] inputs --------------------------------------------------------------------------------
  static void matrix(const char* name, const Mat& m, int decimals) {
    if (m.size() == 0) return;
    ImGui::TextUnformatted(name);
    ImGui::SameLine();
    std::string row_text;
    for (int i = 0; i < m.rows(); ++i) {
      row_text += i == 0 ? "[" : " ";
      for (int j = 0; j < m.cols(); ++j) row_text += (j ? ", " : "") + fmt(m(i, j), decimals);
      row_text += i + 1 == m.rows() ? "]" : ";";
    }
    text_wrapped(row_text);
  }

  static void inputs(const Exercise& ex) {
    matrix("X =", ex.X, 1);
    matrix("W_Q =", ex.W_q, 1);
    matrix("W_K =", ex.W_k, 1);
    matrix("W_V =", ex.W_v, 1);
  }

  // [SECTION] stages --------------------------------------------------------------------------------
  void stage(PanelContext& ctx, Stage s) {
    WorksheetSession& w = ctx.app.worksheet;
    const Exercise& ex = w.exercise;
    const Lang lang = ctx.state.lang;
    section_header((worksheet_stage_title(s, lang) + "   " + worksheet_stage_formula(s, lang)).c_str());
    if (ex.is_given(s)) {
      matrix(ctx.tr("worksheet.given"), ex.ref(s), ex.decimals_of(s));
      remarks(ctx, s);
      return;
    }
    const float cell_w = ImGui::GetFontSize() * 4.2f;
    const auto rows = stage_row_labels(ex, s);
    ImGui::PushID(stage_id(s));
    for (int i = 0; i < ex.rows(s); ++i) {
      ImGui::TextUnformatted(i < static_cast<int>(rows.size()) ? rows[static_cast<size_t>(i)].c_str() : "");
      for (int j = 0; j < ex.cols(s); ++j) {
        ImGui::SameLine(ImGui::GetFontSize() * 4.5f + static_cast<float>(j) * (cell_w + 6));
        cell(ctx, s, i, j, cell_w);
      }
    }
    ImGui::PopID();
    remarks(ctx, s);
    diagnoses(ctx, s);
    if (w.show_stage == stage_index(s)) show_me(ctx, s);
  }

  // Typing into a cell regrades the whole sheet (type_cell replaces w.grade): nothing of the old grade is held
  // across it, so the cell's grade is read before the field for its colour and again after it for the tooltip.
  void cell(PanelContext& ctx, Stage s, int i, int j, float width) {
    WorksheetSession& w = ctx.app.worksheet;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s", w.answers.at(s, i, j).c_str());
    const char* mark = "";
    const Rgb* fill = status_fill(w.grade.stage(s).at(i, j).status, &mark);
    // A checked cell's text is black or white, whichever reads on its fill (≥ 4.5:1 in both themes).
    ImGui::PushStyleColor(ImGuiCol_FrameBg, fill ? vec4(*fill) : ImGui::GetStyleColorVec4(ImGuiCol_FrameBg));
    ImGui::PushStyleColor(ImGuiCol_Text, fill ? vec4(ink_on(*fill)) : ImGui::GetStyleColorVec4(ImGuiCol_Text));
    ImGui::SetNextItemWidth(width);
    ImGui::PushID(i * 64 + j);
    if (ImGui::InputText("##cell", buf, sizeof buf, ImGuiInputTextFlags_CharsScientific))
      type_cell(ctx.app, s, i, j, buf);
    if (ImGui::IsItemActivated() || ImGui::IsItemClicked()) pick_cell(w, s, i, j);  // Show me refers to it
    ImGui::PopID();
    ImGui::PopStyleColor(2);
    if (fill) cell_mark(mark, ink_on(*fill));
    ctx.track(ControlFamily::worksheet_cell,
              std::string(stage_id(s)) + ":" + std::to_string(i + 1) + "," + std::to_string(j + 1));
    const InputIssue issue = w.grade.stage(s).at(i, j).issue;
    if (ImGui::IsItemHovered() && issue != InputIssue::None)
      tooltip(issue_message(issue, w.answers.at(s, i, j), ctx.state.lang));
  }

  // The check's mark in the cell's right end, over the text's last characters only when the cell is full.
  static void cell_mark(const char* mark, Rgb ink) {
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    const ImVec2 size = ImGui::CalcTextSize(mark);
    ImGui::GetWindowDrawList()->AddText(ImVec2(hi.x - size.x - 3, lo.y + (hi.y - lo.y - size.y) / 2),
                                        ImGui::ColorConvertFloat4ToU32(vec4(ink)), mark);
  }

  // What the note says about this stage, once the learner's own answer is in (remark_open); a remark a
  // diagnosis quotes already is not said twice.
  static void remarks(PanelContext& ctx, Stage s) {
    const WorksheetSession& w = ctx.app.worksheet;
    for (size_t k = 0; k < w.exercise.remarks.size(); ++k) {
      const Remark& r = w.exercise.remarks[k];
      const bool quoted = std::any_of(w.grade.diagnoses.begin(), w.grade.diagnoses.end(),
                                      [&](const Diagnosis& d) { return d.remark == static_cast<int>(k); });
      if (r.stage == s && !quoted && remark_open(w.exercise, w.grade, r))
        text_wrapped((r.kind == RemarkKind::Slip ? "▲ " : "") + remark_text(r, ctx.state.lang),
                     r.kind == RemarkKind::Slip ? warn_col() : ImGui::GetColorU32(ImGuiCol_TextDisabled));
    }
  }

  void diagnoses(PanelContext& ctx, Stage s) {
    WorksheetSession& w = ctx.app.worksheet;
    for (const Diagnosis& d : w.grade.diagnoses) {
      if (d.stage != s) continue;
      const ImU32 col = d.kind == DiagnosisKind::CarriedForward ? warn_col() : bad_col();
      text_wrapped(diagnosis_message(w.exercise, d, ctx.state.lang), col);
    }
    if (w.picked_stage == stage_index(s)) {
      if (ImGui::SmallButton((std::string(ctx.tr("worksheet.show_me")) + "###show-" + stage_id(s)).c_str()))
        show_picked_cell(w, s);
      ctx.track(ControlFamily::worksheet_show, stage_id(s));
    }
  }

  // [SECTION] show me -------------------------------------------------------------------------------
  void show_me(PanelContext& ctx, Stage s) {
    const std::string text = shown_breakdown(ctx.app.worksheet, s, ctx.state.lang);
    // Continuation lines start with two spaces: indented, as the text writes them (text_wrapped drops spaces).
    for (size_t start = 0; start <= text.size();) {
      const size_t end = std::min(text.find('\n', start), text.size());
      const std::string line = text.substr(start, end - start);
      const bool continued = line.rfind("  ", 0) == 0;
      if (continued) ImGui::Indent();
      text_wrapped(continued ? line.substr(2) : line, info_col());
      if (continued) ImGui::Unindent();
      start = end + 1;
    }
    ctx.track(ControlId::worksheet_breakdown);
  }

  void summary(PanelContext& ctx) {
    const Grade& g = ctx.app.worksheet.grade;
    ImGui::Separator();
    if (g.all_correct)
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(good_col()), "%s", ctx.tr("worksheet.all_correct"));
    else
      text_wrapped(ctx.trf("worksheet.progress", {{"answered", std::to_string(g.answered)},
                                                  {"asked", std::to_string(g.asked)},
                                                  {"mistakes", std::to_string(g.mistakes)}}));
    ctx.track(ControlId::worksheet_summary);
  }
};

}  // namespace

std::unique_ptr<Panel> make_worksheet_panel() { return std::make_unique<WorksheetPanel>(); }

}  // namespace attn::ui
