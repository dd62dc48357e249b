// worksheet.h — the hand-calculation checker in the app: which exercise is open (part of the state, so a
// teacher can link "exercise 17"), the learner's typed cells, and their grade, kept current.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "app/base/host.h"
#include "app/base/strings.h"
#include "app/state/state.h"
#include "core/exercise/exercise.h"

namespace attn {

struct WorksheetSession {
  std::string loaded;  // the exercise id the answers belong to
  exercise::Exercise exercise;
  exercise::Answers answers;
  exercise::Grade grade;
  std::string error;                                // why the exercise could not be opened
  int show_stage = -1, show_row = 0, show_col = 0;  // the cell whose arithmetic "Show me" writes out
  int picked_stage = -1;                            // the stage of the cell picked last: its "Show me" is offered
};

// What the worksheet touches, by reference (App makes one per call: `sync_worksheet(app)`): the state naming
// the exercise, the session, the saved progress that keeps typed cells, and the host that stores it.
struct WorksheetParts {
  const State& state;
  WorksheetSession& worksheet;
  nlohmann::json& progress;
  const HostServices& host;
};

// The typed cells by stage id, row by row (stages with nothing typed left out): getResult().worksheet.answers.
nlohmann::json worksheet_answers_json(const exercise::Answers& a);
// Saved worksheet cells as read back from storage: only exercises that exist, cells of their shapes.
nlohmann::json clean_worksheet_progress(const nlohmann::json& saved);
// Opens the state's exercise when it changed (answers start blank) and regrades.
void sync_worksheet(WorksheetParts p);
// The learner typed into a cell: store it, regrade, and keep the cells in the saved progress.
void type_cell(WorksheetParts p, exercise::Stage s, int row, int col, const std::string& text);

// A cell was picked (the canvas's cell activated, or its twin focused): "Show me" is offered under its stage and
// will refer to it; a breakdown shown for another cell is put away.
void pick_cell(WorksheetSession& w, exercise::Stage s, int row, int col);
// "Show me" under stage `s`: the picked cell's arithmetic is written out (false if no cell of `s` is picked).
bool show_picked_cell(WorksheetSession& w, exercise::Stage s);
// The arithmetic "Show me" wrote out, as the panel shows it ("" while none is shown under `s`).
std::string shown_breakdown(const WorksheetSession& w, exercise::Stage s, Lang lang);

// Whether a note's remark can be shown: it quotes the right numbers, so only under a stage that is given or
// whose every cell the learner has answered (an answer is never on screen before the learner's own).
bool remark_open(const exercise::Exercise& ex, const exercise::Grade& g, const exercise::Remark& r);

// ---- the worksheet's texts in the learner's language (worksheet_text.cpp) ----------------------------------------
// Core words its texts in English; these rebuild them from the same data with the catalog's words
// (worksheet.stage.*, worksheet.cells.*, worksheet.issue.*, worksheet.show.*, remark.*, diagnosis.*). In English
// each returns exactly core's text.

std::string worksheet_stage_title(exercise::Stage s, Lang lang);    // "QKᵀ / √d_k"
std::string worksheet_stage_formula(exercise::Stage s, Lang lang);  // "L_ij = S_ij ÷ √d_k"
exercise::CellWords cell_words(Lang lang);
// A note's remark; its catalog key is "remark." + the remark's id with "/" as "." (core's text if none).
std::string remark_key(const exercise::Remark& r);
std::string remark_text(const exercise::Remark& r, Lang lang);
// The diagnosis as Diagnosis::message words it, in `lang`.
std::string diagnosis_message(const exercise::Exercise& ex, const exercise::Diagnosis& d, Lang lang);
// What is wrong with a typed cell ("" when nothing is).
std::string issue_message(exercise::InputIssue issue, const std::string& typed, Lang lang);
// "Show me": the arithmetic of one cell as CellBreakdown::text writes it, in `lang`.
std::string breakdown_text(const exercise::Exercise& ex, const exercise::CellBreakdown& b, Lang lang);
// A note example's title and where it is from ("" for generated and custom exercises' source).
std::string exercise_title(const exercise::Exercise& ex, Lang lang);
std::string exercise_source(const exercise::Exercise& ex, Lang lang);

}  // namespace attn
