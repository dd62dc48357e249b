// exercise_key.h — the state key "exercise": which hand-calculation exercise a key names ("exercise-17", generated and
// seeded by the number, or a note's worked example "note-…"), read by setState and opened by the worksheet.
#pragma once

#include <string>

#include "core/exercise/exercise.h"

namespace attn {

// Opens the exercise `key` names into `out`: "" or why the key names none.
std::string open_exercise(const std::string& key, exercise::Exercise& out);
std::string exercise_key_error(const std::string& key);  // "" if the key names an exercise

}  // namespace attn
