// lesson.h — guided lessons checked and run against the app: what a lesson refers to exists (validation), a
// teacher's file added, the step's panels shown, and the live values lessons quote and check. The file format and the
// catalog are content/lesson_file.h's.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "app/base/strings.h"
#include "app/content/lesson_file.h"

namespace attn {

class Playground;
struct State;

// Shows exactly the step's panels (the lesson panel always; the Share window and the builder stay as they are), as a
// workspace would; a step without panels keeps the open ones.
void show_step_panels(State& s, const LessonStep& step);

// Everything a lesson refers to exists: state keys apply, panel ids, control ids, catalog keys in
// both languages (or inline texts), live value names, answers in range. "" when valid, else ONE message
// naming the step ("step 3 (\"q-sum\")") and the field, worded in `words` (lesson.check.*; English for the CLI and
// the JS API, the page's language for the builder; problems a builder's draft cannot have stay English).
std::string validate_lesson(const Lesson& l, Lang words = Lang::En);
// parse_lesson + validate_lesson; `out` is set only when both pass.
std::string check_lesson_text(const std::string& text, Lesson& out, Lang words = Lang::En);
// A teacher's lesson file, checked and then added beside the compiled-in ones (replacing one loaded earlier
// under the same id); find_lesson() finds it. A refused file changes nothing. "" or the one reason, in `words`.
std::string add_lesson(const std::string& text, const Lesson** added = nullptr, Lang words = Lang::En);

// Live values lessons quote and check, computed from the current result (selected row, head 1).
using LiveValues = std::map<std::string, double>;
const std::vector<std::string>& live_value_names();
LiveValues live_values(const Playground& pg);
// Whether the condition holds of a set of values (and, for its `state` part, of the state).
bool condition_holds(const Condition& c, const LiveValues& values, const State& state);
bool condition_holds(const Condition& c, const Playground& pg);
// A live value as lessons print it: 3 significant places; a float32 rounding remainder (3.1e-07) as "0 (to 6
// decimals)".
std::string format_live_value(Lang lang, double v);
// The text of `key` in `lang` with every {name} replaced by its value in `values` (lesson_text.h renders a whole
// step with the values each text was written for; no surface fills a lesson template itself).
std::string fill_live_values(Lang lang, const std::string& key, const LiveValues& values);

}  // namespace attn