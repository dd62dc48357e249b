// fuzz_lesson.cpp — libFuzzer target for the lesson-file parser and validator: a teacher's file arrives from a
// file picker, a drop, a URL or a postMessage. Whatever is accepted must hold what the app relies on when it
// runs the lesson (checked here, aborts if not); whatever is refused must say why in one line.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/lesson/lesson.h"

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_lesson: %s\n%s\n", what, detail.c_str());
  std::abort();
}

// Every text a step names is an inline text of the lesson or a catalog key in both languages.
void check_text(const attn::Lesson& l, const std::string& key) {
  if (key.empty() || l.texts.count(key)) return;
  for (attn::Lang lang : {attn::Lang::En, attn::Lang::HiLatn})
    if (!attn::has_string(lang, key)) fail("an accepted lesson names a missing text", key);
}

void check_accepted(const attn::Lesson& l) {
  if (l.steps.empty() || l.steps.size() > 64) fail("an accepted lesson has 0 or more than 64 steps", l.id);
  check_text(l, l.title);
  for (const attn::LessonStep& s : l.steps) {
    check_text(l, s.text);
    const attn::Task& t = s.task;
    if (t.kind == attn::Task::Kind::Predict) {
      if (t.choices.empty() == !t.number) fail("a prediction has neither choices nor a number (or both)", t.id);
      if (!t.choices.empty() && (t.answer < 0 || t.answer >= static_cast<int>(t.choices.size())))
        fail("an accepted answer index is out of range", t.id);
    }
    for (const std::string& c : t.choices) check_text(l, c);
    for (const std::string& f : t.feedback) check_text(l, f);
    check_text(l, t.question);
    check_text(l, t.explain);
    check_text(l, t.hint);
  }
  for (const auto& [key, text] : l.texts) {
    if (text.by_tag.empty()) fail("an accepted inline text is empty", key);
    for (const auto& [tag, t] : text.by_tag)
      if (t.empty() || t.size() > 2000) fail("an accepted inline text is empty or over the limit", key + " " + tag);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string in(reinterpret_cast<const char*>(data), size);
  attn::Lesson l;
  const std::string err = attn::check_lesson_text(in, l);
  if (err.empty())
    check_accepted(l);
  else if (err.find('\n') != std::string::npos)
    fail("a refusal is more than one line", err);
  return 0;
}
