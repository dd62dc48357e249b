// page_events.h — the events the page emits to hosts and scripts, declared once (attnplay manifest prints them).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace attn {

// One line per event: X(enumerator, name, who makes it, whether a host page can subscribe to it, what it says).
// "app": the C++ app emits it (Playground::emit, drained by attnplay_take_events); "embed": the embed script
// (web/site/attnplay-embed.js) makes it from the state it watches or from the page's own DOM events. Subscribable
// ones are what a host's {cmd: "subscribe", events} may name; "ready" and "error" reach an allow-listed parent
// unasked, "start-view" stays inside the page. `attnplay manifest` prints this table (data/manifest.json).
#define ATTN_PAGE_EVENTS(X)                                                                                            \
  X(change, "change", "embed", true, "state keys changed: {changed, values}")                                          \
  X(saturation, "saturation", "embed", true, "the selected row saturated or recovered")                                \
  X(lesson_step, "lesson-step", "app", true, "a lesson step opened: {lesson, step, steps}")                            \
  X(answer, "answer", "app", true, "a lesson question was answered: {lesson, step, question, …}")                      \
  X(lesson_complete, "lesson-complete", "app", true, "a lesson was finished: {lesson, steps, questions, right_first}") \
  X(embed_panels, "embed-panels", "app", true, "a lesson step showed or withheld embedded panels")                     \
  X(xapi, "xapi", "embed", true, "an xAPI statement the LMS adapter made: {statement}")                                \
  X(ready, "ready", "embed", false, "the page is ready for messages")                                                  \
  X(error, "error", "embed", false, "the page's module stopped: {error, crashed}")                                     \
  X(start_view, "start-view", "app", false, "the learner left the start view: {choice}")

enum class PageEvent {
#define ATTN_PAGE_EVENT_ENUM(name, text, source, subscribable, what) name,
  ATTN_PAGE_EVENTS(ATTN_PAGE_EVENT_ENUM)
#undef ATTN_PAGE_EVENT_ENUM
};

#define ATTN_PAGE_EVENT_COUNT(name, text, source, subscribable, what) +1
constexpr size_t kPageEventCount = 0 ATTN_PAGE_EVENTS(ATTN_PAGE_EVENT_COUNT);
#undef ATTN_PAGE_EVENT_COUNT

struct PageEventInfo {
  PageEvent id;
  const char* name;    // "lesson-complete": the event's "type" (page) and "event" (host message)
  const char* source;  // "app" or "embed"
  bool subscribable;   // a host page may name it in subscribe
  const char* what;    // what it tells, for the manifest's readers
};

inline const std::array<PageEventInfo, kPageEventCount>& page_event_table() {
  static const std::array<PageEventInfo, kPageEventCount> table = {{
#define ATTN_PAGE_EVENT_INFO(name, text, source, subscribable, what) \
  {PageEvent::name, text, source, subscribable, what},
      ATTN_PAGE_EVENTS(ATTN_PAGE_EVENT_INFO)
#undef ATTN_PAGE_EVENT_INFO
  }};
  return table;
}

inline const char* page_event_name(PageEvent e) { return page_event_table()[static_cast<size_t>(e)].name; }

// The names a host page may subscribe to, in table order (the embed script's check and its error message).
inline std::vector<std::string> subscribable_page_events() {
  std::vector<std::string> out;
  for (const PageEventInfo& e : page_event_table())
    if (e.subscribable) out.push_back(e.name);
  return out;
}

}  // namespace attn
