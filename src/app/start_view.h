// start_view.h — the start view a first visit opens with: what the page is in one sentence, "Start the first
// lesson" and "Explore freely". Whether it shows is decided here from what the platform knows at start.
#pragma once

#include <string>

namespace attn {

class App;

// How a visit began, as the platform found it at start.
struct VisitFacts {
  bool kept_work = false;    // kept state or progress (the page's storage, the config folder), or a start view left
  bool link = false;         // a share link's fragment, a lesson link (#lesson=), a state file given
  bool lesson_link = false;  // ?lesson=, ?lesson-url=, --lesson FILE
  bool embed = false;        // an embed (?embed…, or a page in a frame)
  bool lms = false;          // a course package's launch (?lms=1, ?xapi-endpoint=, cmi5's launch parameters)
  bool inline_copy = false;  // the page inlined into a notebook's output
};

// A first visit: nothing kept, nothing linked, the page on its own. Only then does the start view show.
bool first_visit(const VisitFacts& f);
// The page's query string's part in the facts: a lesson link, an embed's or an LMS's launch.
void read_visit_query(const std::string& query, VisitFacts& f);
// The page's words for what else it found ("kept inline framed", attnplay-api.js pageString(5)).
void read_visit_words(const std::string& words, VisitFacts& f);

// Whether the start view is on screen: set at start on a first visit, gone once the learner chose or a lesson opened.
bool start_view_shown(const App& app);
// "Start the first lesson": the first built-in lesson at step 1 ("" or why it could not open).
std::string start_first_lesson(App& app);
// "Explore freely": the usual default view.
void explore_freely(App& app);

}  // namespace attn
