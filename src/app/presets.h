// presets.h — the seed notes' worked examples (and demos) as one-click states.
#pragma once

#include <string>
#include <vector>

#include "app/state.h"

namespace attn {

// The texts are catalog keys (app/strings.h): tr(lang, p.title.c_str()) is the title to show.
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

}  // namespace attn
