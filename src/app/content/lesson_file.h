// lesson_file.h — lessons as data: the file format (steps that set a partial state, show panels, lock controls, and
// ask the learner to predict or to do something), parsing it, and the catalog of lessons compiled in and added.
// Checking what a lesson refers to, and running it, are lesson/lesson.h's.
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/base/strings.h"

namespace attn {

// A condition on the live values ("max_weight >= 0.9") and, optionally, on the state ("scale": false).
struct Condition {
  std::string value;  // a live value name (see live_value_names())
  std::string op;     // "<", "<=", ">", ">=", "=="
  double than = 0;
  std::string than_value;                           // instead of `than`: another live value ("than": "row_weight_2")
  double tolerance = 1e-9;                          // how far apart "==" may be
  nlohmann::json state = nlohmann::json::object();  // partial state every key of which must hold
};

struct Task {
  enum class Kind { None, Predict, Do } kind = Kind::None;
  std::string id;        // stable question id (events, progress)
  std::string question;  // catalog key
  // predict: multiple choice (choices are catalog keys, `answer` the right index) or numeric
  // (no choices; `number` ± `tolerance`).
  std::vector<std::string> asks;  // facts the question asks about (registry.h): no panel showing one is open
  std::vector<std::string> choices;
  int answer = -1;
  std::optional<double> number;
  double tolerance = 0;
  nlohmann::json reveal = nlohmann::json::object();  // partial state applied at the reveal
  std::string explain;                               // catalog key shown after the reveal
  // What a wrong answer is told, naming its misconception: one catalog key per choice ("" for the right
  // one), and for a number the slips worth naming ("8": the standard deviation, not the variance).
  std::vector<std::string> feedback;
  struct Slip {
    double number = 0, tolerance = 0;
    std::string feedback;  // catalog key
  };
  std::vector<Slip> slips;
  // What the explanation asserts about the numbers it quotes ("Up", "equal", "saturated"), as conditions the lesson
  // verifier checks against the values it is shown with (after the reveal, or when the goal was met), in every
  // state that shows it: a text cannot claim what its numbers do not show. `claims_declared`: the file has "claims"
  // (maybe []: the words compare nothing its numbers could contradict); an explanation that quotes numbers in
  // comparing words ("soft", "equal", "add up to 1") without it is refused by the verifier.
  std::vector<Condition> claims;
  bool claims_declared = false;
  // do: done when `goal` holds. `solution`: a partial state that meets it, as a learner could set it (the lesson
  // verifier applies it to reach the done state; without one it searches the step's unlocked controls).
  Condition goal;
  nlohmann::json solution = nlohmann::json::object();
  std::string hint;  // catalog key
};

struct LessonStep {
  std::string id;                                   // optional: named in messages about the step
  std::string text;                                 // catalog key; may use {live values}
  nlohmann::json state = nlohmann::json::object();  // partial state applied on entering the step
  std::vector<std::string> panels;                  // panel ids shown (empty = keep)
  std::string highlight;                            // panel id drawn with an outline ("" = none)
  std::vector<std::string> lock;                    // control ids locked during the step
  // What the text asserts of the numbers it quotes ("flat", "saturated"), checked by the lesson verifier against the
  // values the text is shown with (those of the state the step opened in); `claims_declared` as for Task.
  std::vector<Condition> claims;
  bool claims_declared = false;
  Task task;
};

struct Lesson {
  std::string id;     // "why-sqrt-dk" (links: lesson=why-sqrt-dk&step=3)
  std::string title;  // catalog key
  std::string summary;
  // The pass mark a course package of the lesson takes unless told another ("pass": the share of predictions right
  // at the first try, 0 to 1; "pass": "none" — not graded; no "pass" — the package's own).
  std::optional<double> pass;
  bool ungraded = false;
  std::vector<LessonStep> steps;
  // Texts written inline ({"en": …, "hi-Latn": …}) under generated keys "inline:<id>:<field>", which the
  // fields above then name; loading the lesson adds them to what tr() finds.
  std::map<std::string, ExtraText> texts;
  std::vector<std::string> warnings;  // accepted but worth fixing (a text in one language only)
};

// A lesson file's bounds (`attnplay manifest` prints them for the page's and the notebooks' own checks).
constexpr size_t kMaxLessonSteps = 64;
constexpr size_t kMaxChoices = 8;               // of one question
constexpr size_t kMaxTextBytes = 2000;          // one inline text (the longest catalog text is ~530)
constexpr size_t kMaxLessonBytes = 256 * 1024;  // a teacher's file; the longest built-in is under 10 KiB

// Every lesson compiled in (not those added later), in file-name order (files are numbered: 01-…, 02-…).
const std::vector<Lesson>& lessons();

// One line of a list of lessons (the lesson panel's picker, the Lessons menu, the parallel DOM's list, the state
// schema's ids, the progress kept). A compiled-in lesson's line is read from its file's head (id, title, summary,
// the number of steps) without parsing the steps: a page lists its lessons before the code that runs them has
// arrived (scripts/split_wasm.mjs keeps only what the first view runs in the module's first half).
struct LessonEntry {
  std::string id;
  std::string title;    // catalog key
  std::string summary;  // catalog key or ""
  int steps = 0;
};
// The compiled-in lessons, in the order of lessons(); a file whose head does not read is left out, as lessons()
// leaves out one that does not parse (tests/unit/test_lessons.cpp holds the two lists equal).
const std::vector<LessonEntry>& builtin_lesson_entries();
// The compiled-in lessons, then a teacher's added ones: what a list of lessons shows.
const std::vector<LessonEntry>& lesson_entries();
bool lesson_listed(const std::string& id);
const Lesson* find_lesson(const std::string& id);
// Parses one lesson file; "" on success, else the first problem (with the step number), worded from the catalogs
// (lesson.check.*) in `words` (the builder's are the page's language; the CLI's and the JS API's English). The
// warnings (a text with no English or Hinglish) stay English: only `attnplay lesson check` prints them.
std::string parse_lesson(const std::string& text, Lesson& out, Lang words = Lang::En);
// A checked lesson kept beside the compiled-in ones (replacing one kept earlier under the same id) with its inline
// texts; find_lesson() finds it from now on. lesson.h's add_lesson checks a teacher's file before keeping it.
const Lesson& keep_added_lesson(Lesson&& lesson);
const std::deque<Lesson>& added_lessons_list();
// While alive, find_lesson(lesson.id) is `lesson` and tr() finds its inline texts: a lesson walked before it is added
// (the verifier, lesson_verify.h); what was found under that id before comes back after.
class LessonUnderTest {
 public:
  explicit LessonUnderTest(const Lesson& lesson);
  ~LessonUnderTest();
  LessonUnderTest(const LessonUnderTest&) = delete;
  LessonUnderTest& operator=(const LessonUnderTest&) = delete;

 private:
  const Lesson* previous_;
};
// Errors of the compiled-in files that did not parse (empty when all did).
const std::vector<std::string>& lesson_load_errors();

}  // namespace attn
