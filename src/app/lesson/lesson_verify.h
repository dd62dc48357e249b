// lesson_verify.h — the lesson verifier: walks the states a learner can reach in every step of a lesson and checks,
// in each, every text any surface shows (render_step() and the live summary): nothing unfilled, every claim true of
// the values its text quotes, no text quoting past values as the current ones, and nothing a question asks shown
// before its answer. `attnplay lesson verify`, `attnplay lesson check`, the builder and the unit tests run it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/lesson/lesson.h"

namespace attn {

struct LessonVerifyReport {
  int states = 0;  // states visited
  int texts = 0;   // texts checked (each visible text in each state, on each surface)
  int claims = 0;  // claims checked
  // One line per failure: lesson, step, state, surface, text and the values that make it wrong.
  std::vector<std::string> failures;
  bool ok() const { return failures.empty(); }
};

// Walks `lesson` in `lang`: each step's entry, each wrong choice and named slip, a second miss, the right answer
// (its reveal applied) or a do task's success, then `moves` seeded random moves of every control the step leaves
// unlocked. The lesson need not be added (a teacher's file, the builder's draft): it is walked as it is. The
// failures are worded in `words` (the catalogs' lesson.check.verify.*): English for the CLI and the JS API, the
// page's language for the builder.
constexpr uint64_t kVerifySeed = 1;
constexpr int kVerifyMoves = 6;
LessonVerifyReport verify_lesson(const Lesson& lesson, Lang lang, uint64_t seed = kVerifySeed, int moves = kVerifyMoves,
                                 Lang words = Lang::En);
// Both languages; the first failure as one message ("" when the lesson passes), for refusing a lesson.
std::string verify_lesson_message(const Lesson& lesson, Lang words = Lang::En);

}  // namespace attn
