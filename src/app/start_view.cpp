// start_view.cpp — when a visit opens with the start view, and what its two buttons do.
#include "app/start_view.h"

#include <algorithm>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/base/page_events.h"
#include "app/exchange/embed.h"
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_run.h"

namespace attn {

bool first_visit(const VisitFacts& f) {
  return !f.kept_work && !f.link && !f.lesson_link && !f.embed && !f.lms && !f.inline_copy;
}

namespace {
// The non-empty parts of `text` between `sep`s. Not a string stream: streams would bring their locale machinery into
// the code the page runs before its first frame (the module's first half, docs/performance.md).
std::vector<std::string> split_on(const std::string& text, char sep) {
  std::vector<std::string> out;
  for (size_t at = 0; at <= text.size();) {
    const size_t end = std::min(text.find(sep, at), text.size());
    if (end > at) out.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}
}  // namespace

void read_visit_query(const std::string& query, VisitFacts& f) {
  std::string q = query;
  if (!q.empty() && q[0] == '?') q.erase(0, 1);
  int cmi5 = 0;  // a cmi5 launch carries all five of its parameters (attnplay-cmi5.js)
  for (const std::string& pair : split_on(q, '&')) {
    const size_t eq = pair.find('=');
    const std::string key = pair.substr(0, eq), value = eq == std::string::npos ? "" : pair.substr(eq + 1);
    if (key == "lesson" || key == "lesson-url") f.lesson_link = true;
    if ((key == "lms" && value == "1") || (key == "xapi-endpoint" && !value.empty())) f.lms = true;
    if ((key == "endpoint" || key == "fetch" || key == "registration" || key == "actor" || key == "activityId") &&
        !value.empty())
      ++cmi5;
  }
  if (cmi5 == 5) f.lms = true;
  EmbedSettings embed;  // embed=1, panels=, lock=, hide=: as the page reads them
  parse_embed_query(query, embed);
  if (embed.enabled) f.embed = true;
}

void read_visit_words(const std::string& words, VisitFacts& f) {
  for (const std::string& w : split_on(words, ' ')) {
    if (w == "kept") f.kept_work = true;
    if (w == "inline") f.inline_copy = true;
    if (w == "framed") f.embed = true;
  }
}

bool start_view_shown(const App& app) { return app.start_view && !app.embed.enabled && !open_lesson(app); }

namespace {
// The choice is the learner's: it is kept (the progress is saved), so the next visit goes straight to the work, and
// the page hears it (attnplay-api.js remembers this browser has been here).
void leave_start_view(App& app, const char* choice) {
  app.start_view = false;
  save_progress(app);
  app.emit({{"type", page_event_name(PageEvent::start_view)}, {"choice", choice}});
}
}  // namespace

std::string start_first_lesson(App& app) {
  const std::vector<LessonEntry>& lessons = builtin_lesson_entries();
  if (lessons.empty()) return "no lesson is built in";
  const std::string err = start_lesson(app, lessons.front().id, 1);
  leave_start_view(app, "lesson");
  return err;
}

void explore_freely(App& app) { leave_start_view(app, "explore"); }

}  // namespace attn
