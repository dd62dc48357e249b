// worksheet.cpp — opening exercises by key and regrading after every typed cell.
#include "app/worksheet.h"

#include "app/app.h"

namespace attn {

using namespace attn::exercise;

namespace {
std::string open_exercise(const std::string& key, Exercise& out) {
  if (key.rfind("exercise-", 0) == 0) {
    const std::string digits = key.substr(9);
    if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos)
      return "exercise numbers are 1 to 999999";
    return generate_exercise(std::stoi(digits), out);
  }
  return note_exercise(key, out);
}
}  // namespace

std::string exercise_key_error(const std::string& key) {
  Exercise ex;
  return open_exercise(key, ex);
}

void sync_worksheet(App& app) {
  WorksheetSession& w = app.worksheet;
  if (w.loaded != app.state.exercise) {
    Exercise ex;
    w.error = open_exercise(app.state.exercise, ex);
    w.loaded = app.state.exercise;
    if (w.error.empty()) {
      w.exercise = std::move(ex);
      w.answers = blank_answers(w.exercise);
      w.show_stage = -1;
    }
  }
  if (w.error.empty()) w.grade = grade(w.exercise, w.answers);
}

void type_cell(App& app, Stage s, int row, int col, const std::string& text) {
  app.worksheet.answers.set(s, row, col, text);
  app.worksheet.grade = grade(app.worksheet.exercise, app.worksheet.answers);
}

}  // namespace attn
