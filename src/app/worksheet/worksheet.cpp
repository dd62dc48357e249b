// worksheet.cpp — opening exercises by key and regrading after every typed cell.
#include "app/worksheet/worksheet.h"

#include <algorithm>

#include "app/state/exercise_key.h"

namespace attn {

using namespace attn::exercise;

namespace {
// The learner's cells live in the progress document (web: local storage; desktop: the config folder) under
// "worksheet" → exercise key → stage id → the stage's cells, row by row, so a reload or a crash keeps them.
constexpr size_t kKeptExercises = 16;
constexpr size_t kMaxCellChars = 31;  // what the cell's field holds

}  // namespace

bool remark_open(const Exercise& ex, const Grade& g, const Remark& r) {
  if (ex.is_given(r.stage)) return true;
  const StageGrade& st = g.stage(r.stage);
  return st.rows * st.cols > 0 && st.answered == st.rows * st.cols;
}

nlohmann::json worksheet_answers_json(const Answers& a) {
  nlohmann::json j = nlohmann::json::object();
  for (int k = 0; k < kStageCount; ++k) {
    const auto& cells = a.text[static_cast<size_t>(k)];
    if (std::any_of(cells.begin(), cells.end(), [](const std::string& c) { return !c.empty(); }))
      j[stage_id(static_cast<Stage>(k))] = cells;
  }
  return j;
}

namespace {
// Saved cells into `a` where each stage still has the exercise's shape (anything else is left blank).
void restore_answers(const nlohmann::json& saved, Answers& a) {
  if (!saved.is_object()) return;
  for (int k = 0; k < kStageCount; ++k) {
    const auto it = saved.find(stage_id(static_cast<Stage>(k)));
    auto& cells = a.text[static_cast<size_t>(k)];
    if (it == saved.end() || !it->is_array() || it->size() != cells.size()) continue;
    for (size_t c = 0; c < cells.size(); ++c) {
      const nlohmann::json& v = (*it)[c];
      if (v.is_string() && v.get_ref<const std::string&>().size() <= kMaxCellChars) cells[c] = v.get<std::string>();
    }
  }
}

void remember_answers(WorksheetParts p) {
  nlohmann::json& kept = p.progress["worksheet"];
  if (!kept.is_object()) kept = nlohmann::json::object();
  const nlohmann::json mine = worksheet_answers_json(p.worksheet.answers);
  if (!mine.empty()) kept[p.state.exercise] = mine;
  while (kept.size() > kKeptExercises)
    kept.erase(kept.begin() == kept.find(p.state.exercise) ? std::next(kept.begin()) : kept.begin());
  if (p.host.save_progress) p.host.save_progress(p.progress.dump());
}
}  // namespace

nlohmann::json clean_worksheet_progress(const nlohmann::json& saved) {
  nlohmann::json out = nlohmann::json::object();
  if (!saved.is_object()) return out;
  for (auto it = saved.begin(); it != saved.end() && out.size() < kKeptExercises; ++it) {
    if (!exercise_key_error(it.key()).empty() || !it->is_object()) continue;
    Exercise ex;
    open_exercise(it.key(), ex);
    Answers a = blank_answers(ex);
    restore_answers(*it, a);
    const nlohmann::json kept = worksheet_answers_json(a);
    if (!kept.empty()) out[it.key()] = kept;
  }
  return out;
}

void sync_worksheet(WorksheetParts p) {
  WorksheetSession& w = p.worksheet;
  if (w.loaded != p.state.exercise) {
    Exercise ex;
    w.error = open_exercise(p.state.exercise, ex);
    w.loaded = p.state.exercise;
    if (w.error.empty()) {
      w.exercise = std::move(ex);
      w.answers = blank_answers(w.exercise);
      if (const auto kept = p.progress.find("worksheet"); kept != p.progress.end() && kept->is_object())
        if (const auto mine = kept->find(p.state.exercise); mine != kept->end()) restore_answers(*mine, w.answers);
      w.show_stage = -1;
      w.picked_stage = -1;
    }
  }
  if (w.error.empty()) w.grade = grade(w.exercise, w.answers);
}

void type_cell(WorksheetParts p, Stage s, int row, int col, const std::string& text) {
  p.worksheet.answers.set(s, row, col, text);
  p.worksheet.grade = grade(p.worksheet.exercise, p.worksheet.answers);
  remember_answers(p);
}

void pick_cell(WorksheetSession& w, Stage s, int row, int col) {
  w.show_stage = -2;  // Show me now refers to this cell
  w.show_row = row;
  w.show_col = col;
  w.picked_stage = stage_index(s);
}

bool show_picked_cell(WorksheetSession& w, Stage s) {
  if (w.picked_stage != stage_index(s)) return false;
  w.show_stage = stage_index(s);
  return true;
}

std::string shown_breakdown(const WorksheetSession& w, Stage s, Lang lang) {
  if (w.show_stage != stage_index(s) || !w.error.empty()) return "";
  CellBreakdown b;
  const std::string err = show_cell(w.exercise, w.answers, s, w.show_row, w.show_col, b);
  return err.empty() ? breakdown_text(w.exercise, b, lang) : err;
}

}  // namespace attn
