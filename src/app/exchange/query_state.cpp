// query_state.cpp — lesson, step, workspace and language from the query string, checked against the registries.
#include "app/exchange/query_state.h"

#include "app/content/lesson_file.h"
#include "app/state/tiling.h"

namespace attn {

namespace {
// Values here are ids ([a-z0-9-]) and numbers: anything else is refused rather than decoded.
bool plain(const std::string& v) {
  if (v.empty() || v.size() > 64) return false;
  for (char c : v)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
      return false;
  return true;
}
}  // namespace

std::string apply_query_state(State& s, const std::string& query_in) {
  std::string query = query_in.substr(0, query_in.find('#'));
  if (!query.empty() && query[0] == '?') query.erase(0, 1);
  std::string lesson, step, workspace, lang, err;
  bool lang_given = false;  // "lang=" with no value is a mistake to report, not an absent parameter
  size_t start = 0;
  while (start <= query.size()) {
    const size_t amp = query.find('&', start);
    const std::string pair = query.substr(start, amp == std::string::npos ? std::string::npos : amp - start);
    const size_t eq = pair.find('=');
    const std::string key = pair.substr(0, eq), value = eq == std::string::npos ? "" : pair.substr(eq + 1);
    if (key == "lesson") lesson = value;
    if (key == "step") step = value;
    if (key == "workspace") workspace = value;
    if (key == "lang") {
      lang = value;
      lang_given = true;
    }
    if (amp == std::string::npos) break;
    start = amp + 1;
  }
  if (!workspace.empty()) {
    const Workspace* w = plain(workspace) ? find_workspace(workspace) : nullptr;
    if (w) {
      apply_workspace(s.panels, *w);
    } else {
      std::string names;  // from the workspace table itself, so a new workspace is listed here too
      for (const Workspace& known : workspaces()) names += (names.empty() ? "" : ", ") + std::string(known.key);
      err = "unknown workspace (expected one of " + names + ")";
    }
  }
  if (lang_given) {
    Lang l = kDefaultLang;
    if (plain(lang) && lang_from_code(lang, l))
      s.lang = l;
    else if (err.empty())
      err = "lang must be one of " + lang_codes_list();
  }
  if (!lesson.empty()) {
    const Lesson* l = plain(lesson) ? find_lesson(lesson) : nullptr;
    int k = 1;
    if (!step.empty()) {
      k = plain(step) && step.find_first_not_of("0123456789") == std::string::npos && step.size() <= 3 ? std::stoi(step)
                                                                                                       : 0;
      if (l && (k < 1 || k > static_cast<int>(l->steps.size()))) {
        if (err.empty()) err = "step must be between 1 and " + std::to_string(l->steps.size()) + " for this lesson";
        k = 1;
      }
    }
    if (l)
      s.lesson = LessonRef{l->id, k};
    else if (err.empty())
      err = "unknown lesson in the page address";
  }
  return err;
}

}  // namespace attn
