// test_worksheet_language.cpp — the worksheet in Hinglish: stage headers, diagnoses with their cell lists and
// remarks, cell messages and "Show me" all come from the catalog (none left English), and English is core's text.
#include <catch2/catch.hpp>
#include <regex>
#include <set>

#include "app/worksheet/worksheet.h"
#include "exercise_reference.h"

using namespace attn;
using namespace attn::exercise;
using exref::MatD;

namespace {

// Words Hinglish keeps in English (the notes write them so), and notation.
const std::set<std::string> kKeptWords = {
    "softmax", "exp",  "query", "key", "keys",   "score", "scores", "weights", "row", "rows", "column",
    "columns", "cell", "cells", "sum", "output", "value", "values", "The",     "cat", "sat",  "mat"};

// Whether a text has English words a translation has to change.
bool has_words(const std::string& text) {
  static const std::regex word("[A-Za-z]{3,}");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), word); it != std::sregex_iterator(); ++it) {
    std::string w = it->str();
    std::string lower = w;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!kKeptWords.count(w) && !kKeptWords.count(lower)) return true;
  }
  return false;
}

// The Hinglish text of something whose English text is `en`: filled, and translated where there are words.
void check_hinglish(const std::string& en, const std::string& hi) {
  INFO("en: " << en);
  INFO("hi: " << hi);
  CHECK_FALSE(hi.empty());
  CHECK_FALSE(std::regex_search(hi, std::regex("\\{[A-Za-z_][A-Za-z0-9_]*\\}")));
  if (has_words(en)) CHECK(hi != en);
  // Joining words of core's cell lists and sentences would show a half-translated text.
  for (const char* english : {" and ", " of ", " the ", "all cells", " more", " against ", " times "})
    CHECK(hi.find(english) == std::string::npos);
}

Exercise open(const std::string& key) {
  Exercise ex;
  if (key.rfind("exercise-", 0) == 0)
    REQUIRE(generate_exercise(std::stoi(key.substr(9)), ex).empty());
  else
    REQUIRE(note_exercise(key, ex).empty());
  return ex;
}

// Worksheets with a mistake of each common kind in exercise 17, built from the math (exercise_reference.h).
std::vector<Answers> generated_mistakes(const Exercise& ex) {
  const exref::Pipeline p = exref::pipeline_of(ex);
  std::vector<Answers> out;
  auto worksheet = [&](std::initializer_list<std::pair<Stage, MatD>> stages) {
    Answers a = blank_answers(ex);
    for (const auto& [s, m] : stages) exref::type_stage(a, s, m, 2);
    out.push_back(a);
  };
  worksheet({{Stage::Scores, p.S}, {Stage::Scaled, p.S}});  // forgot ÷√d_k
  worksheet({{Stage::Scaled, p.S / p.d_k}});                // ÷d_k
  worksheet({{Stage::Weights, exref::softmax_columns(p.L)}});
  MatD no_exp = p.L;
  for (int i = 0; i < no_exp.rows(); ++i) no_exp.row(i) /= p.L.row(i).sum();
  worksheet({{Stage::Weights, no_exp}});
  worksheet({{Stage::Scores, exref::times_transposed(p.K, p.Q)}});
  worksheet({{Stage::Q, exref::times(ex.X.cast<double>(), ex.W_k.cast<double>())}});  // wrong weight matrix
  MatD Q = p.Q;  // one slip in Q, the rest right from the learner's own numbers
  Q(1, 0) += 1;
  const exref::Pipeline own = exref::pipeline(Q, p.K, p.V);
  worksheet({{Stage::Q, Q},
             {Stage::K, p.K},
             {Stage::V, p.V},
             {Stage::Scores, own.S},
             {Stage::Scaled, own.L},
             {Stage::Weights, own.A},
             {Stage::Output, own.Z}});
  worksheet({{Stage::Output, exref::times(p.L, p.V)}});              // no softmax
  worksheet({{Stage::Output, exref::times(p.A.transpose(), p.V)}});  // Aᵀ·V
  worksheet({{Stage::Output, exref::times(p.A, p.K)}});              // K as V
  worksheet({{Stage::Weights, exref::softmax_rows(p.L * std::log(10.0))}});
  worksheet({{Stage::Scaled, p.S * std::sqrt(p.d_k)}});
  MatD whole = p.L.array().exp().matrix();
  worksheet({{Stage::Weights, whole / whole.sum()}});
  MatD off = p.A;  // a weights row off in two cells: unexplained, and it does not sum to 1
  off(0, 0) += 0.3;
  off(0, 1) += 0.2;
  worksheet({{Stage::Weights, off}});
  return out;
}

// The notes' slips copied, and many scattered wrong cells (a long cell list) in the 6×6 example.
std::vector<Answers> note_mistakes(const Exercise& ex) {
  std::vector<Answers> out;
  Answers a = blank_answers(ex);
  for (int r = 0; r < static_cast<int>(ex.remarks.size()); ++r) {
    const Mat& printed = ex.remarks[static_cast<size_t>(r)].printed;
    for (int i = 0; i < printed.rows(); ++i)
      for (int j = 0; j < printed.cols(); ++j)
        if (std::isfinite(printed(i, j))) a.set(ex.remarks[static_cast<size_t>(r)].stage, i, j, double(printed(i, j)));
  }
  out.push_back(a);
  if (ex.id == "note-cat-sat-mat") {
    Answers rows = blank_answers(ex);
    exref::type_stage(rows, Stage::Q, exref::times(exref::cat_sat_mat_x_read_by_rows(), ex.W_q.cast<double>()), 0);
    out.push_back(rows);
  }
  if (ex.rows(Stage::Scores) >= 6) {
    Answers scattered = blank_answers(ex);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 2; ++j) scattered.set(Stage::Scores, i, j, double(ex.ref(Stage::Scores)(i, j)) + 1.5);
    out.push_back(scattered);
  }
  return out;
}

std::set<std::string> check_diagnoses(const Exercise& ex, const std::vector<Answers>& worksheets) {
  std::set<std::string> kinds;
  for (const Answers& a : worksheets) {
    const Grade g = grade(ex, a);
    for (const Diagnosis& d : g.diagnoses) {
      kinds.insert(diagnosis_id(d.kind));
      CHECK(diagnosis_message(ex, d, Lang::En) == d.message);
      check_hinglish(d.message, diagnosis_message(ex, d, Lang::HiLatn));
    }
  }
  return kinds;
}

}  // namespace

TEST_CASE("the worksheet's diagnoses read in Hinglish, cell lists and remarks included", "[worksheet][language]") {
  const Exercise ex = open("exercise-17");
  const std::set<std::string> kinds = check_diagnoses(ex, generated_mistakes(ex));
  for (const char* kind :
       {"forgot_scale", "divided_by_dk", "softmax_columns", "forgot_exp", "scores_transposed", "wrong_projection",
        "arithmetic_slip", "carried_forward", "unexplained", "row_sum_not_one", "skipped_softmax", "weights_transposed",
        "keys_as_values", "power_of_ten", "multiplied_by_root", "softmax_matrix"}) {
    INFO(kind);
    CHECK(kinds.count(kind));
  }
  std::set<std::string> note_kinds;
  for (const std::string& id : note_exercise_ids()) {
    INFO(id);
    const Exercise note = open(id);
    for (const std::string& k : check_diagnoses(note, note_mistakes(note))) note_kinds.insert(k);
  }
  CHECK(note_kinds.count("note_slip"));
  CHECK(note_kinds.count("unexplained"));
  CHECK(note_kinds.count("x_read_as_rows"));
  int with_zero = 0;
  for (int number = 1; number < 200 && !with_zero; ++number) {  // e⁰ taken as 0, in a row with a 0 score
    const Exercise zero = open("exercise-" + std::to_string(number));
    const exref::Pipeline p = exref::pipeline_of(zero);
    if (!(p.S.row(0).array() == 0).any()) continue;
    MatD w = p.L.array().exp().matrix();
    for (int j = 0; j < w.cols(); ++j)
      if (p.S(0, j) == 0) w(0, j) = 0;
    w.row(0) /= w.row(0).sum();
    Answers a = blank_answers(zero);
    exref::type_stage(a, Stage::Weights, w.topRows(1), 2);
    CHECK(check_diagnoses(zero, {a}).count("exp_zero_as_zero"));
    with_zero = number;
  }
  CHECK(with_zero > 0);
  const Exercise wide = exref::wide_embedding_exercise();
  const exref::Pipeline p = exref::pipeline_of(wide);
  Answers a = blank_answers(wide);
  exref::type_stage(a, Stage::Scaled, p.S / std::sqrt(8.0), 2);
  CHECK(check_diagnoses(wide, {a}).count("root_of_d_model"));
  // A list longer than eight cells ends "… and N more" in English: Hinglish words it its own way.
  const Exercise article = open("note-the-cat-sat-on-the-mat");
  const Grade g = grade(article, note_mistakes(article).back());
  bool long_list = false;
  for (const Diagnosis& d : g.diagnoses)
    long_list = long_list || d.params.at("cells").find(" more") != std::string::npos;
  CHECK(long_list);
}

TEST_CASE("two mistakes with the same numbers, and a number the note's slip leads to, in both languages",
          "[worksheet][language]") {
  const Exercise one = open("note-scaled-dot-product");
  Answers same = blank_answers(one);
  same.set(Stage::Weights, 0, 0, "1");  // [1, 0]: no exp, or e⁰ taken as 0
  same.set(Stage::Weights, 0, 1, "0");
  CHECK(check_diagnoses(one, {same}).count("same_numbers"));
  const Grade g = grade(one, same);
  REQUIRE(g.diagnoses.size() >= 1);
  const std::string hi = diagnosis_message(one, g.diagnoses[0], Lang::HiLatn);
  INFO(hi);
  CHECK(hi.find("scores ko seedha row sum se divide kiya") != std::string::npos);
  CHECK(hi.find("e⁰ ko 0 le liya") != std::string::npos);

  const Exercise cat = open("note-cat-sat-mat");
  Answers from_note = blank_answers(cat);
  from_note.set(Stage::Output, 2, 0, "1.54");  // what the note's "mat" weights give; the note prints no such row
  CHECK(check_diagnoses(cat, {from_note}).count("from_note_slip"));
  for (const Diagnosis& d : grade(cat, from_note).diagnoses) {
    CHECK(diagnosis_message(cat, d, Lang::En).find("the note printed") == std::string::npos);
    CHECK(diagnosis_message(cat, d, Lang::HiLatn).find("note ne print kiya") == std::string::npos);
  }
}

TEST_CASE("stage headers, remarks, titles and sources have Hinglish catalog texts", "[worksheet][language]") {
  for (Stage s : kStages) {
    INFO(stage_id(s));
    CHECK(worksheet_stage_title(s, Lang::En) == stage_title(s));
    CHECK(worksheet_stage_formula(s, Lang::En) == stage_formula(s));
    check_hinglish(stage_title(s), worksheet_stage_title(s, Lang::HiLatn));
    check_hinglish(stage_formula(s), worksheet_stage_formula(s, Lang::HiLatn));
  }
  for (const std::string& id : note_exercise_ids()) {
    const Exercise ex = open(id);
    CHECK(exercise_title(ex, Lang::En) == ex.title);
    CHECK(exercise_source(ex, Lang::En) == ex.source);
    CHECK_FALSE(exercise_title(ex, Lang::HiLatn).empty());
    CHECK(exercise_source(ex, Lang::HiLatn) != ex.source);
    for (const Remark& r : ex.remarks) {
      INFO(r.id);
      CHECK(has_string(Lang::HiLatn, remark_key(r)));
      CHECK(remark_text(r, Lang::En) == r.text);
      CHECK(remark_text(r, Lang::HiLatn) != r.text);
    }
  }
  const Exercise ex = open("exercise-17");
  CHECK(exercise_title(ex, Lang::En) == ex.title);
}

TEST_CASE("a typed cell's problem is said in Hinglish", "[worksheet][language]") {
  const Exercise ex = open("exercise-17");
  int issues = 0;
  for (const char* typed : {"abc", "1,5", "nan", "1e999", "11111111111111111111111111111111111111111"}) {
    Answers a = blank_answers(ex);
    a.set(Stage::Q, 0, 0, typed);
    const Grade g = grade(ex, a);
    const CellGrade& cg = g.stage(Stage::Q).at(0, 0);
    INFO(typed);
    REQUIRE(cg.issue != InputIssue::None);
    ++issues;
    CHECK(issue_message(cg.issue, typed, Lang::En) == cg.message);
    check_hinglish(cg.message, issue_message(cg.issue, typed, Lang::HiLatn));
  }
  CHECK(issues == 5);
  CHECK(issue_message(InputIssue::None, "1", Lang::HiLatn).empty());
}

TEST_CASE("Show me writes a cell of every stage in Hinglish", "[worksheet][language]") {
  for (const std::string& key : {std::string("exercise-17"), std::string("note-cat-sat-mat")}) {
    const Exercise ex = open(key);
    Answers a = blank_answers(ex);
    a.set(Stage::Q, 0, 0, double(ex.ref(Stage::Q)(0, 0)) + 1);  // Show me follows the learner's own numbers
    for (Stage s : kStages) {
      INFO(key << " " << stage_id(s));
      CellBreakdown b;
      REQUIRE(show_cell(ex, a, s, 1, 0, b).empty());
      CHECK(breakdown_text(ex, b, Lang::En) == b.text);
      check_hinglish(b.text, breakdown_text(ex, b, Lang::HiLatn));
      if (b.kind == BreakdownKind::Softmax) {  // a row with a large score is written shifted by its maximum
        b.shift = 31;
        const std::string en = breakdown_text(ex, b, Lang::En);
        CHECK(en.find("every score minus the row's largest, 31") != std::string::npos);
        check_hinglish(en, breakdown_text(ex, b, Lang::HiLatn));
      }
    }
  }
}
