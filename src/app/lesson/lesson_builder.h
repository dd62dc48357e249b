// lesson_builder.h — a teacher's lesson being built in the app: steps recorded from the current view, the texts
// typed for them, and what the draft becomes (a lesson file, a link that carries it, the progress that keeps it).
#pragma once

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/base/strings.h"
#include "app/lesson/lesson_run.h"
#include "app/state/state.h"

namespace attn {

// A text the teacher typed, by language tag: the builder edits the page's language and one other, and keeps the
// file's texts in any further language as they were (a missing one shows English, else the first there is).
struct DraftText {
  std::map<std::string, std::string> by_tag;
  std::string& in(Lang l) { return by_tag[lang_code(l)]; }
  const std::string& in(Lang l) const {
    static const std::string none;
    const auto it = by_tag.find(lang_code(l));
    return it == by_tag.end() ? none : it->second;
  }
  bool empty() const {
    return std::all_of(by_tag.begin(), by_tag.end(), [](const auto& t) { return t.second.empty(); });
  }
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
  // Choice and Number are predictions; Do asks the learner to reach a goal in the view.
  enum class Ask { None, Choice, Number, Do } ask = Ask::None;
  // The question's id, which LMS records and kept answers name: it stays when steps move and is never reused
  // (set_ask gives a new question a fresh one; a file's ids are kept as they are).
  std::string task_id;
  DraftText question, hint, explain;
  std::vector<DraftChoice> choices;
  int answer = 0;  // the right choice
  double number = 0, tolerance = 0;
  std::vector<std::string> asks;                       // facts a prediction asks about: no open panel may show one
  nlohmann::json reveal = nlohmann::json::object();    // a prediction's state once answered (panels it opens)
  nlohmann::json goal = nlohmann::json::object();      // a do task's condition {value, op, than}
  nlohmann::json solution = nlohmann::json::object();  // a state that meets the goal, as recorded
  // The step and its task as the file had them: what the builder does not edit (claims, slips, an id…) is
  // written back from here.
  nlohmann::json kept = nlohmann::json::object(), kept_task = nlohmann::json::object();
};

// A lesson's pass mark in the draft: the share of predictions right at the first try, or one of these.
constexpr double kPassUnset = -2;  // the file names none: a package takes its default
constexpr double kPassNone = -1;   // "pass": "none": the lesson is not graded

struct LessonDraft {
  std::string id = "my-lesson";
  DraftText title;
  std::vector<DraftStep> steps;
  double pass = kPassUnset;
  int next_question = 1;                           // the number of the next fresh task id ("q<n>")
  nlohmann::json kept = nlohmann::json::object();  // the file's other fields (summary, …), texts inline
};

constexpr size_t kMaxDraftSteps = 64;          // as a lesson file allows
constexpr size_t kMaxLessonLinkChars = 8000;   // a longer address is cut by mail and chat programs
constexpr size_t kScorm12SuspendChars = 4096;  // what SCORM 1.2 keeps of a learner's record
constexpr const char* kLessonLinkPrefix = "#lesson=1.";

// The view as a step: the state keys a lesson step may set (those that differ from the state's preset), the
// open panels (not the lesson's, the Share window's or the builder's own), and the locks given.
DraftStep capture_step(const State& s, const std::vector<std::string>& locks);
// Sets the kind of step `i`'s question; a step asking something for the first time gets a fresh task id.
void set_ask(LessonDraft& d, size_t i, DraftStep::Ask ask);
// A task id no step of the draft has and none had before ("q<next_question>", counting on).
std::string fresh_task_id(LessonDraft& d);
// Moves step i up (delta -1) or down (+1); false when it cannot move.
bool move_step(LessonDraft& d, size_t i, int delta);
bool delete_step(LessonDraft& d, size_t i);

// The draft as a lesson file (data/lessons format, texts inline, each task under its own id).
nlohmann::json draft_to_lesson_json(const LessonDraft& d);
std::string draft_lesson_text(const LessonDraft& d);  // the file's text
// The lesson validator's verdict on the draft, else the verifier's first failure: "" or one message. With
// `findings`, every failure the verifier finds walking the draft in both languages (each names its step), at the
// cost of the one walk the verdict takes anyway. Worded in `words`: the builder shows them in the page's language.
std::string check_draft(const LessonDraft& d, std::vector<std::string>* findings = nullptr, Lang words = Lang::En);
// A lesson file (or a kept draft, valid or not) read back as a draft; "" or why it is no draft. Catalog texts (a
// built-in lesson) become inline texts in both languages; fields the builder does not edit are kept for the file.
// The reason is worded in `words` (the builder's page language).
std::string draft_from_json(const nlohmann::json& j, LessonDraft& out, Lang words = Lang::En);
// A built-in lesson as a draft to edit, under an id of its own (a teacher's lesson may not take a built-in's id).
std::string draft_from_builtin(const std::string& id, LessonDraft& out, Lang words = Lang::En);

// The view now as a do task's solution, and its goal from the live value the goal names (max_weight unless the
// goal names another) as it is now: "> 0.95" when the value is 0.957.
void record_goal(DraftStep& s, const State& now, const std::map<std::string, double>& values);
// The view now as the state a prediction reveals once answered (what differs from the step, panels opened).
void record_reveal(DraftStep& s, const State& now);
// Moves the step's panels that show a fact the prediction asks about to its reveal: hidden until answered.
bool hide_answer_panels(DraftStep& s);

// What a text asserts of the live numbers it quotes (the file's "claims": conditions like a goal's), edited in
// `holder`: a step's kept fields for its text, its kept task for the explanation. The verifier checks each claim in
// every state a learner reaches, and refuses a text in comparing words ("equal", "saturated", …) that declares none.
void add_claim(nlohmann::json& holder, const std::string& value, const std::string& op, double than);
bool remove_claim(nlohmann::json& holder, size_t i);
// Declares that the text compares nothing its numbers could contradict ("claims": []), or takes the declaration
// and every claim away.
void declare_claims(nlohmann::json& holder, bool declared);
// A claim as the builder lists it: "max_weight > 0.5", or "row_weight_1 >= row_weight_2".
std::string claim_text(const nlohmann::json& claim, Lang lang);

// A control the learner may still move that changes the view a prediction asks about: shown, not refused.
struct DraftWarning {
  size_t step = 0;  // counted from 1
  std::string control;
};
std::vector<DraftWarning> draft_warnings(const LessonDraft& d);

// The pass mark as a lesson file gives it ("pass": 0.8 or "none"); null when unset.
nlohmann::json pass_json(double pass);

// A page address that carries the lesson: page_url + "#lesson=1.<deflated base64url JSON>". "" in `link` and
// the reason (in `words`) when it cannot be made.
std::string lesson_link(const std::string& page_url, const LessonDraft& d, std::string& link, Lang words = Lang::En);
// Whether a fragment is a lesson link's; its lesson file's text (or the reason, in `words`; the share codec's own
// reasons stay English) when it is.
bool is_lesson_link(const std::string& fragment);
std::string decode_lesson_link(const std::string& fragment, std::string& text, Lang words = Lang::En);

// Opens a lesson link's lesson as a lesson file is opened (open_lesson_file); "" or why not (also in the status).
std::string open_lesson_link(LessonParts run, const std::string& fragment);

// How long a learner's record of step `i` would be in an LMS (the step, answers and the view as a share
// fragment): over kScorm12SuspendChars a SCORM 1.2 LMS keeps the step and answers but not the learner's view.
size_t scorm_record_chars(const LessonDraft& d, size_t i);

}  // namespace attn
