// test_worksheet_app.cpp — the worksheet in the app: a link names the exercise, typed cells are graded
// at once, and a bad exercise key is refused without touching the open one.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>

#include "app/app.h"
#include "app/lesson/lesson_run.h"
#include "app/state/state_json.h"

using namespace attn;
using namespace attn::exercise;

TEST_CASE("a link opens the 3-wide exercises, where ÷√d_model is diagnosed as itself", "[worksheet]") {
  App app;
  REQUIRE(apply_state_text(app.state, R"({"exercise": "exercise-1000017"})") == "");
  sync_worksheet(app);
  REQUIRE(app.worksheet.error.empty());
  const Exercise& ex = app.worksheet.exercise;
  CHECK(ex.number == 1000017);
  CHECK(ex.X.cols() == 3);  // d_model = 3, d_k = 2: √d_model ≈ 1.73 is neither √d_k nor d_k
  CHECK(ex.d_k == 2);
  const Mat& s = ex.ref(Stage::Scores);
  for (int i = 0; i < s.rows(); ++i)
    for (int j = 0; j < s.cols(); ++j) {
      char typed[32];
      std::snprintf(typed, sizeof typed, "%.2f", static_cast<double>(s(i, j)) / std::sqrt(3.0));
      type_cell(app, Stage::Scaled, i, j, typed);
    }
  bool root_of_d_model = false;
  for (const Diagnosis& d : app.worksheet.grade.diagnoses) {
    CHECK(d.kind != DiagnosisKind::DividedByDk);
    root_of_d_model = root_of_d_model || d.kind == DiagnosisKind::RootOfDModel;
  }
  CHECK(root_of_d_model);
  CHECK(app.worksheet.grade.mistakes == 1);
  CHECK_FALSE(apply_state_text(app.state, R"({"exercise": "exercise-2000000"})").empty());
  CHECK(app.state.exercise == "exercise-1000017");
}

TEST_CASE("the worksheet opens the state's exercise and grades typed cells", "[worksheet]") {
  App app;
  REQUIRE(apply_state_text(app.state, R"({"exercise": "exercise-17"})") == "");
  sync_worksheet(app);
  REQUIRE(app.worksheet.error.empty());
  CHECK(app.worksheet.exercise.number == 17);
  const Mat& q = app.worksheet.exercise.ref(Stage::Q);
  char typed[32];
  std::snprintf(typed, sizeof typed, "%.2f", static_cast<double>(q(0, 0)));
  type_cell(app, Stage::Q, 0, 0, typed);
  CHECK(app.worksheet.grade.stage(Stage::Q).at(0, 0).status == CellStatus::Correct);
  std::snprintf(typed, sizeof typed, "%.2f", static_cast<double>(q(0, 0)) + 1.0);
  type_cell(app, Stage::Q, 0, 0, typed);
  CHECK(app.worksheet.grade.stage(Stage::Q).at(0, 0).status == CellStatus::Wrong);
  CHECK(state_to_json(app.state)["exercise"] == "exercise-17");

  CHECK_FALSE(apply_state_text(app.state, R"({"exercise": "exercise-x"})").empty());
  CHECK_FALSE(apply_state_text(app.state, R"({"exercise": 5})").empty());
  CHECK(app.state.exercise == "exercise-17");  // refused: unchanged
  sync_worksheet(app);
  CHECK(app.worksheet.grade.stage(Stage::Q).at(0, 0).status == CellStatus::Wrong);  // the learner's cells stay
  for (const std::string& id : note_exercise_ids()) {
    INFO(id);
    REQUIRE(apply_state_json(app.state, {{"exercise", id}}) == "");
    sync_worksheet(app);
    CHECK(app.worksheet.error.empty());
  }
}

TEST_CASE("typed worksheet cells survive a reload through the saved progress", "[worksheet][progress]") {
  std::string saved;
  App first;
  first.host.save_progress = [&saved](const std::string& json) { saved = json; };
  REQUIRE(apply_state_text(first.state, R"({"exercise": "exercise-17"})") == "");
  sync_worksheet(first);
  type_cell(first, Stage::Q, 0, 0, "1.25");
  type_cell(first, Stage::K, 1, 0, "-3");
  REQUIRE_FALSE(saved.empty());

  App second;  // the reloaded page: same exercise, progress read back from storage
  REQUIRE(apply_state_text(second.state, R"({"exercise": "exercise-17"})") == "");
  sync_worksheet(second);
  CHECK(second.worksheet.answers.at(Stage::Q, 0, 0).empty());
  REQUIRE(load_progress(second, saved) == "");
  sync_worksheet(second);
  CHECK(second.worksheet.answers.at(Stage::Q, 0, 0) == "1.25");
  CHECK(second.worksheet.answers.at(Stage::K, 1, 0) == "-3");
  CHECK(second.worksheet.grade.answered == first.worksheet.grade.answered);

  // Another exercise opens blank; the first one's cells come back when it is chosen again.
  REQUIRE(apply_state_text(second.state, R"({"exercise": "exercise-18"})") == "");
  sync_worksheet(second);
  CHECK(second.worksheet.answers.at(Stage::Q, 0, 0).empty());
  REQUIRE(apply_state_text(second.state, R"({"exercise": "exercise-17"})") == "");
  sync_worksheet(second);
  CHECK(second.worksheet.answers.at(Stage::Q, 0, 0) == "1.25");
}

TEST_CASE("saved worksheet cells that do not fit are dropped, never applied", "[worksheet][progress]") {
  App app;
  REQUIRE(apply_state_text(app.state, R"({"exercise": "exercise-17"})") == "");
  const std::string junk = R"({"worksheet": {"exercise-17": {"Q": ["1"], "K": 7},
                                            "exercise-x": {"Q": ["1"]}, "note-nope": []}})";
  REQUIRE(load_progress(app, junk) == "");
  sync_worksheet(app);
  CHECK(app.worksheet.answers.at(Stage::Q, 0, 0).empty());  // Q has another shape: left blank
  CHECK(app.progress["worksheet"].empty());
  CHECK(load_progress(app, R"({"worksheet": "x"})") == "");
  sync_worksheet(app);
  CHECK(app.worksheet.error.empty());
}

TEST_CASE("a note's remark, which quotes the right numbers, shows only once its stage is answered", "[worksheet]") {
  int closed_at_start = 0;
  for (const std::string& id : note_exercise_ids()) {
    INFO(id);
    App app;
    REQUIRE(apply_state_json(app.state, {{"exercise", id}}) == "");
    sync_worksheet(app);
    const Exercise& ex = app.worksheet.exercise;
    for (const Remark& r : ex.remarks) {
      INFO(r.id);
      CHECK(remark_open(ex, app.worksheet.grade, r) == ex.is_given(r.stage));
      closed_at_start += !ex.is_given(r.stage);
    }
    for (Stage s : kStages) {
      if (ex.is_given(s)) continue;
      for (int i = 0; i < ex.rows(s); ++i)
        for (int j = 0; j < ex.cols(s); ++j) {
          for (const Remark& r : ex.remarks)  // a stage half done keeps its remarks closed
            if (r.stage == s) CHECK_FALSE(remark_open(ex, app.worksheet.grade, r));
          type_cell(app, s, i, j, "7");  // right or wrong: the learner's own answer is in
        }
      for (const Remark& r : ex.remarks)
        if (r.stage == s) CHECK(remark_open(ex, app.worksheet.grade, r));
    }
  }
  CHECK(closed_at_start >= 8);  // the three notes' slips about weights, scores, scaled scores and output
}
