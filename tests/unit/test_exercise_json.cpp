// test_exercise_json.cpp — exercises and answers as JSON: round trips and clear errors for bad input.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/exercise/exercise.h"

using namespace attn::exercise;
using nlohmann::json;

namespace {

Exercise from(const json& j) {
  Exercise ex;
  const std::string err = exercise_from_json(j, ex);
  INFO(err);
  REQUIRE(err.empty());
  return ex;
}

std::string error_of(const std::string& text) {
  Exercise ex;
  Answers a;
  return parse_worksheet(text, ex, a);
}

json worksheet(json exercise, json answers = json::object()) {
  return {{"format", "attnplay-worksheet"}, {"version", 1}, {"exercise", exercise}, {"answers", answers}};
}

}  // namespace

TEST_CASE("exercises survive a JSON round trip", "[exercise]") {
  std::vector<Exercise> all(1);
  REQUIRE(generate_exercise(17, all[0]).empty());
  for (const std::string& id : note_exercise_ids()) {
    all.emplace_back();
    REQUIRE(note_exercise(id, all.back()).empty());
  }
  ExerciseSpec spec;
  spec.id = "two-tokens";
  spec.title = "Two tokens";
  spec.X = (attn::Mat(2, 2) << 1, 0, 0.5f, 1).finished();
  spec.W_q = spec.W_k = (attn::Mat(2, 2) << 1, 0, 0, 1).finished();
  spec.V = (attn::Mat(2, 1) << 3, -1).finished();
  spec.query_tokens = spec.key_tokens = {"a", "b"};
  all.emplace_back();
  REQUIRE(make_exercise(spec, all.back()).empty());
  for (const Exercise& ex : all) {
    INFO(ex.id);
    const json j = exercise_to_json(ex);
    const Exercise back = from(json::parse(j.dump()));
    CHECK(back.id == ex.id);
    CHECK(back.origin == ex.origin);
    CHECK(back.query_tokens == ex.query_tokens);
    CHECK(back.remarks.size() == ex.remarks.size());
    for (Stage s : kStages) {
      CHECK(back.ref(s) == ex.ref(s));
      CHECK(back.is_given(s) == ex.is_given(s));
      CHECK(back.decimals_of(s) == ex.decimals_of(s));
    }
  }
  CHECK(exercise_to_json(all[0]).at("stages").size() == 7);
  CHECK(exercise_to_json(all[2]).at("remarks")[2].at("printed")[0][1] == Approx(0.18));
}

TEST_CASE("answers survive a JSON round trip, garbage included", "[exercise]") {
  Exercise ex;
  REQUIRE(note_exercise("note-cat-sat-mat", ex).empty());
  Answers a = blank_answers(ex);
  a.set(Stage::Q, 0, 0, "1");
  a.set(Stage::Q, 0, 1, "abc");
  a.set(Stage::Weights, 2, 2, "0,5");
  const std::string text = worksheet_to_json(ex, a).dump();
  Exercise ex2;
  Answers b;
  REQUIRE(parse_worksheet(text, ex2, b).empty());
  CHECK(b.at(Stage::Q, 0, 0) == "1");
  CHECK(b.at(Stage::Q, 0, 1) == "abc");
  CHECK(b.at(Stage::Weights, 2, 2) == "0,5");
  CHECK(b.at(Stage::Output, 1, 1).empty());
  const Grade g = grade(ex2, b);
  CHECK(g.stage(Stage::Q).at(0, 1).issue == InputIssue::NotANumber);
  CHECK(g.stage(Stage::Weights).at(2, 2).issue == InputIssue::DecimalComma);
  // Numbers and null are cells too.
  Answers c;
  REQUIRE(answers_from_json(json{{"Q", {{1, nullptr}, {0, 1}, {1, "1"}}}}, ex, c).empty());
  CHECK(grade(ex, c).stage(Stage::Q).correct == 5);
  const json g_json = grade_to_json(ex2, g);
  CHECK(g_json.at("stages")[0].at("cells")[0][1].at("issue") == "not_a_number");
}

TEST_CASE("bad worksheets are refused with a clear reason", "[exercise]") {
  const json seventeen = {{"number", 17}};
  CHECK(error_of(worksheet(seventeen).dump()).empty());
  CHECK(error_of("{").find("malformed JSON") != std::string::npos);
  CHECK(error_of("[1, 2]").find("a worksheet is a JSON object") != std::string::npos);
  CHECK(error_of(R"({"format": "other", "version": 1, "exercise": {"number": 1}})").find("not a worksheet") !=
        std::string::npos);
  json w = worksheet(seventeen);
  w["version"] = 2;
  CHECK(error_of(w.dump()).find("version") != std::string::npos);
  w = worksheet(seventeen);
  w["extra"] = true;
  CHECK(error_of(w.dump()).find("unknown key \"extra\"") != std::string::npos);
  CHECK(error_of(worksheet({{"number", 0}}).dump()).find("outside") != std::string::npos);
  CHECK(error_of(worksheet({{"number", 1.5}}).dump()).find("integer") != std::string::npos);
  CHECK(error_of(worksheet({{"note", "nope"}}).dump()).find("unknown note exercise") != std::string::npos);
  CHECK(error_of(worksheet({{"number", 3}, {"colour", "red"}}).dump()).find("unknown key \"colour\"") !=
        std::string::npos);
  CHECK(error_of(worksheet({{"X", {{1, 2}}}}).dump()).find("missing Q") != std::string::npos);
  CHECK(error_of(worksheet({{"Q", {{1, 2}}}, {"K", {{1, 2}}}, {"V", "x"}}).dump()).find("V") != std::string::npos);
  CHECK(error_of(worksheet(seventeen, {{"scores", {{1, 2, 3}, {1, 2, 3}}}}).dump()).find("expected 3×3") !=
        std::string::npos);
  CHECK(error_of(worksheet(seventeen, {{"scores", {{1, 2, 3}, {1, 2}, {1, 2, 3}}}}).dump())
            .find("answers.scores row 2: expected 3 cells") != std::string::npos);
  CHECK(error_of(worksheet(seventeen, {{"Q", {{true, 1}, {1, 1}, {1, 1}}}}).dump())
            .find("row 1, column 1: a cell is a string, a number or null, not boolean") != std::string::npos);
  CHECK(error_of(worksheet(seventeen, {{"keys", {}}}).dump()).find("unknown stage \"keys\"") != std::string::npos);
  CHECK(error_of(worksheet({{"note", "note-cat-sat-mat"}}, {{"V", {{1, 1}, {1, 1}, {1, 1}}}}).dump())
            .find("V is given in this exercise") != std::string::npos);
  CHECK(error_of(std::string(20, '[') + std::string(20, ']')).find("nesting") != std::string::npos);
  CHECK(error_of(std::string(kMaxWorksheetBytes + 1, ' ')).find("over the limit") != std::string::npos);
}

TEST_CASE("a breakdown as JSON", "[exercise]") {
  Exercise ex;
  REQUIRE(note_exercise("note-cat-sat-mat", ex).empty());
  CellBreakdown b;
  REQUIRE(show_cell(ex, Stage::Weights, 0, 0, b).empty());
  const json j = breakdown_to_json(b);
  CHECK(j.at("kind") == "softmax");
  CHECK(j.at("row_exps").size() == 3);
  CHECK(j.at("stage") == "weights");
}
