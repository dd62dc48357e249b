// lesson_builder.h — a teacher's lesson being built in the app: steps recorded from the current view, the texts
// typed for them, and what the draft becomes (a lesson file, a link that carries it, the progress that keeps it).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/state.h"
#include "app/strings.h"

namespace attn {

// A text the teacher typed, in one or both languages (the file keeps what is there; the other is then shown).
struct DraftText {
  std::string en, hi_latn;
  std::string& in(Lang l) { return l == Lang::En ? en : hi_latn; }
  const std::string& in(Lang l) const { return l == Lang::En ? en : hi_latn; }
  bool empty() const { return en.empty() && hi_latn.empty(); }
};

struct DraftChoice {
  DraftText text, feedback;  // feedback: what picking this choice tells a learner (the right one has none)
};

struct DraftStep {
  DraftText text;
  nlohmann::json state = nlohmann::json::object();  // the view's partial state (keys a lesson step may set)
  std::vector<std::string> panels;                  // open panels
  std::string highlight;                            // "" = none
  std::vector<std::string> lock;                    // control ids
  enum class Ask { None, Choice, Number } ask = Ask::None;
  DraftText question, hint, explain;
  std::vector<DraftChoice> choices;
  int answer = 0;  // the right choice
  double number = 0, tolerance = 0;
};

struct LessonDraft {
  std::string id = "my-lesson";
  DraftText title;
  std::vector<DraftStep> steps;
};

constexpr size_t kMaxDraftSteps = 64;          // as a lesson file allows
constexpr size_t kMaxLessonLinkChars = 8000;   // a longer address is cut by mail and chat programs
constexpr size_t kScorm12SuspendChars = 4096;  // what SCORM 1.2 keeps of a learner's record
constexpr const char* kLessonLinkPrefix = "#lesson=1.";

// The view as a step: the state keys a lesson step may set (those that differ from the state's preset), the
// open panels (not the lesson's, the Share window's or the builder's own), and the locks given.
DraftStep capture_step(const State& s, const std::vector<std::string>& locks);
// Moves step i up (delta -1) or down (+1); false when it cannot move.
bool move_step(LessonDraft& d, size_t i, int delta);
bool delete_step(LessonDraft& d, size_t i);

// The draft as a lesson file (data/lessons format, texts inline; task ids q1, q2… by step).
nlohmann::json draft_to_lesson_json(const LessonDraft& d);
std::string draft_lesson_text(const LessonDraft& d);  // the file's text
// The lesson validator's verdict on the draft: "" or its one message.
std::string check_draft(const LessonDraft& d);
// A lesson file (or a kept draft, valid or not) read back as a draft; "" or why it is no draft.
std::string draft_from_json(const nlohmann::json& j, LessonDraft& out);

// A page address that carries the lesson: page_url + "#lesson=1.<deflated base64url JSON>". "" in `link` and
// the reason when it cannot be made.
std::string lesson_link(const std::string& page_url, const LessonDraft& d, std::string& link);
// Whether a fragment is a lesson link's; its lesson file's text (or the reason) when it is.
bool is_lesson_link(const std::string& fragment);
std::string decode_lesson_link(const std::string& fragment, std::string& text);

class App;
// Opens a lesson link's lesson as a lesson file is opened (open_lesson_file); "" or why not (also in the status).
std::string open_lesson_link(App& app, const std::string& fragment);

// How long a learner's record of step `i` would be in an LMS (the step, answers and the view as a share
// fragment): over kScorm12SuspendChars a SCORM 1.2 LMS keeps the step and answers but not the learner's view.
size_t scorm_record_chars(const LessonDraft& d, size_t i);

}  // namespace attn
