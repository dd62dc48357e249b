// test_worked_examples.cpp — a note's worked example is one file (data/worked-examples/<id>.json): each file
// opens as a preset and as an exercise that agree cell for cell, and a broken file is refused with a message
// that names what is wrong.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "app/app.h"
#include "app/state/presets.h"
#include "core/exercise/worked_example.h"

using namespace attn;
using namespace attn::exercise;

namespace {
// The preset's matrix for a stage, or nullptr where the preset has no such matrix.
const Mat* preset_stage(const HeadResult& h, Stage s) {
  switch (s) {
    case Stage::Q:
      return &h.Q;
    case Stage::K:
      return &h.K;
    case Stage::V:
      return &h.V;
    case Stage::Scores:
      return &h.scores;
    case Stage::Scaled:
      return &h.logits;
    case Stage::Weights:
      return &h.weights;
    case Stage::Output:
      break;
  }
  return &h.output;
}

std::string error_of(const std::string& text) {
  WorkedExample w;
  return parse_worked_example(text, w);
}

const char* kSmall = R"({"id": "tiny", "preset": "tiny", "title": "t", "source": "s", "tokens": ["a", "b"],
  "given": {"Q": [[1, 0], [0, 1]], "K": [[1, 0], [0, 1]], "V": [[1, 2], [3, 4]]},
  "remarks": [{"name": "r", "stage": "weights", "kind": "slip"}],
  "slips": [{"stage": "weights", "cell": [0, 0], "printed": "0.9", "correct": 0.67, "remark": "r"}]})";
}  // namespace

TEST_CASE("every worked example file becomes a preset and an exercise that agree cell for cell", "[examples]") {
  REQUIRE(worked_examples().size() >= 3);
  for (const WorkedExample& w : worked_examples()) {
    INFO(w.spec.id);
    Exercise ex;
    REQUIRE(note_exercise(w.spec.id, ex).empty());
    REQUIRE(find_preset(w.preset) != nullptr);
    App app;
    REQUIRE(apply_preset(app.state, w.preset));
    app.update();
    REQUIRE(app.result.error.empty());
    const HeadResult& h = app.result.core.main;
    // A stage the note gives differently from its own X·W (cat sat mat's V) changes the exercise from there on.
    bool same_inputs = true;
    for (Stage s : kStages) {
      INFO(stage_id(s));
      const Mat& want = ex.ref(s);
      const Mat& got = *preset_stage(h, s);
      if (s == Stage::V || s == Stage::Output)
        same_inputs = same_inputs && (w.V.size() == 0 || w.X.size() == 0 || (got - w.V).cwiseAbs().maxCoeff() < 1e-6f);
      if ((s == Stage::V || s == Stage::Output) && !same_inputs) continue;
      REQUIRE(got.rows() == want.rows());
      REQUIRE(got.cols() == want.cols());
      CHECK((got - want).cwiseAbs().maxCoeff() < 1e-5f);
    }
    // Every slip's correct number is the exercise's cell at its decimals (where the note's own numbers are used).
    for (const ExampleSlip& slip : w.slips)
      if (!ex.is_given(slip.stage)) {
        INFO(stage_id(slip.stage) << " (" << slip.cell.row << ", " << slip.cell.col << ")");
        CHECK(std::fabs(ex.ref(slip.stage)(slip.cell.row, slip.cell.col) - slip.correct) <=
              0.5 * std::pow(10.0, -slip.decimals) + 1e-6);
      }
    // Every slip is a remark's printed number in the exercise or a mark on the preset (or both).
    for (const ExampleSlip& slip : w.slips) {
      bool in_exercise = false;
      for (const Remark& r : ex.remarks)
        in_exercise = in_exercise || (r.id == w.spec.id + "/" + slip.remark && r.printed.size() &&
                                      !std::isnan(r.printed(slip.cell.row, slip.cell.col)));
      bool marked = false;
      for (const NoteSlip& n : note_slips())
        marked = marked || (n.preset == w.preset && n.row == slip.cell.row && n.col == slip.cell.col);
      CHECK((in_exercise || marked));
    }
  }
}

TEST_CASE("a malformed worked example file is refused with a message naming the field", "[examples]") {
  WorkedExample ok;
  REQUIRE(parse_worked_example(kSmall, ok).empty());
  CHECK(ok.slips.size() == 1);
  CHECK(error_of("{not json").find("not a JSON object") != std::string::npos);
  CHECK(error_of(R"({"id": "x"})").find("preset") != std::string::npos);
  std::string bad = kSmall;
  bad.replace(bad.find("\"weights\", \"cell\""), 9, "\"weighs\"");
  CHECK(error_of(bad).find("slips[0].stage") != std::string::npos);
  bad = kSmall;
  bad.replace(bad.find("[0, 0]"), 6, "[5, 0]");
  CHECK(error_of(bad).find("outside weights") != std::string::npos);
  bad = kSmall;
  bad.replace(bad.find("\"0.9\""), 5, "\"zero\"");
  CHECK(error_of(bad).find("slips[0].printed") != std::string::npos);
  bad = kSmall;
  bad.replace(bad.find("\"remark\": \"r\"}]}"), 13, "\"remark\": \"q\"");
  CHECK(error_of(bad).find("no remark named \"q\"") != std::string::npos);
  bad = kSmall;
  bad.replace(bad.find("[3, 4]"), 6, "[3]");
  CHECK(error_of(bad).find("tiny: ") == 0);
  WorkedExample untouched = ok;
  CHECK_FALSE(parse_worked_example("[]", untouched).empty());
  CHECK(untouched.spec.id == "tiny");
}
