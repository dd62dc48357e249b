// builder_session.h — the lesson builder's working state: the draft, the step being edited, a lesson waiting to
// replace it, a preview under way and the checker's last verdict. The App keeps it, so the builder's canvas panel and
// its parallel-DOM twin edit one draft through one set of actions (app/builder_actions.h).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/lesson/lesson_builder.h"
#include "app/state/state.h"

namespace attn {

struct BuilderSession {
  LessonDraft draft;
  int selected = -1;              // the step being edited (-1 = none)
  nlohmann::json pending;         // a lesson opened to replace a draft with steps, until the teacher confirms
  std::string open_text;          // a lesson link (or, on the desktop, a file's path) to open
  size_t builtin = 0;             // the built-in lesson picked to open
  int scorm = 0;                  // the package's standard: 0 = SCORM 1.2, 1 = SCORM 2004
  std::string previewing;         // the id of the lesson being previewed ("" = building)
  State before;                   // the view before the preview, given back when it ends
  uint64_t loads = ~uint64_t{0};  // the progress loads taken (a reload's kept draft is read once after each)
  uint64_t edits = 0;             // the draft's version: every edit and load moves it
  // The checker's verdict on version `checked` (checking applies every step's state: once per edit, never per frame),
  // worded in `checked_lang`: a change of the page's language words it again.
  uint64_t checked = ~uint64_t{0};
  Lang checked_lang = Lang::En;
  std::string problem;                // "" = the draft is a valid lesson
  std::vector<std::string> findings;  // every failure the verifier found; the first is `problem`
  std::vector<DraftWarning> warnings;
  std::vector<size_t> long_steps;  // steps (from 1) whose record is over SCORM 1.2's limit
  // The claim the next "Add claim" makes.
  std::string new_claim_value = "max_weight", new_claim_op = ">";
  double new_claim_than = 0.5;
};

}  // namespace attn
