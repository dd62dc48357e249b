// exercise_key.cpp — exercise keys opened: a generated exercise by its number, a note's worked example by its id.
#include "app/state/exercise_key.h"

namespace attn {

using namespace attn::exercise;

std::string open_exercise(const std::string& key, Exercise& out) {
  if (key.rfind("exercise-", 0) == 0) {
    const std::string digits = key.substr(9);
    const std::string max = std::to_string(kMaxExerciseNumber);
    if (digits.empty() || digits.size() > max.size() || digits.find_first_not_of("0123456789") != std::string::npos)
      return "exercise numbers are " + std::to_string(kMinExerciseNumber) + " to " + max;
    return generate_exercise(std::stoi(digits), out);
  }
  return note_exercise(key, out);
}

std::string exercise_key_error(const std::string& key) {
  Exercise ex;
  return open_exercise(key, ex);
}

}  // namespace attn
