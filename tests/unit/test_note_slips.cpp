// test_note_slips.cpp — the cells where a note printed a wrong number: each is held against the computed cell,
// its text names both numbers, and the mark goes once the learner edits the cell away from the note's inputs.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <string>

#include "app/app.h"
#include "app/base/strings.h"
#include "app/state/presets.h"
#include "app/state/state_json.h"

using namespace attn;

namespace {
const Mat& slip_matrix(const HeadResult& h, SlipMatrix m) {
  switch (m) {
    case SlipMatrix::V:
      return h.V;
    case SlipMatrix::Scores:
      return h.scores;
    case SlipMatrix::Weights:
      return h.weights;
    case SlipMatrix::Output:
      break;
  }
  return h.output;
}

App preset_app(const std::string& id) {
  App app;
  REQUIRE(apply_preset(app.state, id));
  app.update();
  REQUIRE(app.result.error.empty());
  return app;
}
}  // namespace

TEST_CASE("every slip cell: the computed value is its 'correct' number and differs from what was printed",
          "[presets]") {
  REQUIRE(note_slips().size() >= 20);
  for (const NoteSlip& slip : note_slips()) {
    INFO(slip.preset << " " << static_cast<int>(slip.matrix) << " (" << slip.row << ", " << slip.col << ")");
    App app = preset_app(slip.preset);
    const Mat& m = slip_matrix(app.result.core.main, slip.matrix);
    REQUIRE(slip.row < m.rows());
    REQUIRE(slip.col < m.cols());
    const double v = m(slip.row, slip.col);
    // The slip's correct number is the computed cell rounded to its decimals.
    CHECK(std::fabs(v - slip.correct) <= 0.5 * std::pow(10.0, -slip.decimals) + 1e-6);
    // What the note printed is a different number at the same precision: a real slip, not a rounding.
    CHECK(std::fabs(std::atof(slip.printed) - v) > 0.5 * std::pow(10.0, -2));
    CHECK(slip_at(app.state, slip.matrix, slip.row, slip.col, v) == &slip);
    for (Lang lang : languages()) {
      const std::string text = slip_text(slip, lang);
      CHECK(text.find(slip.printed) != std::string::npos);
      CHECK(text.find('{') == std::string::npos);
    }
  }
}

TEST_CASE("the article's raw score cat·The: 0.29 printed, 0.28 correct, marked until the cell is edited", "[presets]") {
  App app = preset_app("cat-sat-mat");
  const HeadResult& h = app.result.core.main;
  const NoteSlip* slip = slip_at(app.state, SlipMatrix::Scores, 1, 0, h.scores(1, 0));
  REQUIRE(slip != nullptr);
  CHECK(slip_text(*slip, Lang::En) == "The article printed 0.29 here; the correct value is 0.28.");
  // A right cell of the same row has no mark; nor does the same cell in another preset.
  CHECK(slip_at(app.state, SlipMatrix::Scores, 1, 1, h.scores(1, 1)) == nullptr);
  CHECK(slip_at(app.state, SlipMatrix::Weights, 1, 0, h.weights(1, 0)) == nullptr);
  // The learner changes the numbers: the cell no longer shows 0.28, and the mark goes.
  CHECK(slip_at(app.state, SlipMatrix::Scores, 1, 0, h.scores(1, 0) + 0.05) == nullptr);
  State other = app.state;
  REQUIRE(apply_preset(other, "softmax-article"));
  CHECK(slip_at(other, SlipMatrix::Scores, 1, 0, 0.28) == nullptr);
}
