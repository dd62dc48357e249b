// exercise_notes.cpp — the teaching notes' worked examples as exercises; each is one file under
// data/worked-examples/ (src/core/exercise/worked_example.h), its remarks' slips from the file's slips.
#include "core/exercise/exercise.h"
#include "core/exercise/worked_example.h"

namespace attn::exercise {

std::vector<std::string> note_exercise_ids() {
  std::vector<std::string> ids;
  for (const WorkedExample& w : worked_examples()) ids.push_back(w.spec.id);
  return ids;
}

std::string note_exercise(const std::string& id, Exercise& out) {
  const WorkedExample* w = find_worked_example(id);
  if (w) return exercise_of(*w, out);
  std::string known;
  for (const std::string& k : note_exercise_ids()) known += (known.empty() ? "" : ", ") + k;
  return "unknown note exercise \"" + id + "\" (known: " + known + ")";
}

}  // namespace attn::exercise
