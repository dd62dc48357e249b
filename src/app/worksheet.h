// worksheet.h — the hand-calculation checker in the app: which exercise is open (part of the state, so a
// teacher can link "exercise 17"), the learner's typed cells, and their grade, kept current.
#pragma once

#include <string>

#include "core/exercise.h"

namespace attn {

class App;

struct WorksheetSession {
  std::string loaded;  // the exercise id the answers belong to
  exercise::Exercise exercise;
  exercise::Answers answers;
  exercise::Grade grade;
  std::string error;                                // why the exercise could not be opened
  int show_stage = -1, show_row = 0, show_col = 0;  // the cell whose arithmetic "Show me" writes out
};

// "exercise-17" (generated, seeded by the number) or a note's worked example ("note-…").
std::string exercise_key_error(const std::string& key);  // "" if the key names an exercise
// Opens the state's exercise when it changed (answers start blank) and regrades.
void sync_worksheet(App& app);
// The learner typed into a cell: store it and regrade.
void type_cell(App& app, exercise::Stage s, int row, int col, const std::string& text);

}  // namespace attn
