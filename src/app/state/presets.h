// presets.h — the seed notes' worked examples (and demos) as one-click states.
#pragma once

#include <string>
#include <vector>

#include "app/state/state.h"

namespace attn {

// The texts are catalog keys (app/base/strings.h): tr(lang, p.title.c_str()) is the title to show.
struct Preset {
  std::string id;
  std::string title;   // "preset.<id>.title"
  std::string source;  // which note the example comes from
  std::string story;   // what to look at, with the correct numbers
  std::string slips;   // where the note's printed arithmetic is wrong ("" if it is right)
};

const std::vector<Preset>& presets();
const Preset* find_preset(const std::string& id);
// Resets the state to the preset (keeps display settings such as theme and text scale).
bool apply_preset(State& s, const std::string& id);
// The state a new page, window or CLI run starts from: the "default" preset on a State. Its keys' values are the
// defaults the manifest and the reference list (state_schema()).
State default_state();

// A number a note printed wrong, kept with the cell the learner compares it with: the cell is marked
// and its tooltip says what the note printed and what is correct.
enum class SlipMatrix { V, Scores, Weights, Output };
struct NoteSlip {
  const char* preset;
  bool article;  // printed by the article (else by a note)
  SlipMatrix matrix;
  int row, col;
  const char* printed;  // as the note printed it
  double correct;
  int decimals;  // of `correct`, as the slip texts give it
};
const std::vector<NoteSlip>& note_slips();
// The slip of this cell under the open preset, while the cell still shows the correct value (an edit
// that moves it also drops the mark); nullptr otherwise.
const NoteSlip* slip_at(const State& s, SlipMatrix matrix, int row, int col, double shown);
// "The article printed 0.29 here; the correct value is 0.28." in the learner's language.
std::string slip_text(const NoteSlip& slip, Lang lang);

}  // namespace attn
