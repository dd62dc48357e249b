// exercise.h — hand-calculation exercises of one attention computation: seeded generator, the notes' worked
// examples, a grader that diagnoses mistakes, the arithmetic of one cell ("Show me") and a JSON form.
//
// A worksheet has the stages of the pipeline panel, each a matrix the learner fills cell by cell:
//   Q = X·W_Q, K = X·W_K, V = X·W_V, S = QKᵀ, L = S/√d_k, A = softmax of each row of L, Z = A·V.
// Some stages can be given instead of asked (a note that prints Q, K, V directly).
//
// Grading rule (one cell, reference r, the stage's decimals d):
//   accepted when |x − r| ≤ 0.5·10^−d + 1e-6·max(1, |r|) + slack
// The first term accepts every correct rounding to d decimals (0.4011 typed as 0.40 or 0.401 passes, 0.41 does
// not). The second absorbs float rounding of the reference. The slack covers intermediate numbers the learner
// works out on paper but never types into the worksheet:
//   Q, K, V, QKᵀ     0 (sums of products of the given numbers: exact).
//   QKᵀ/√d_k         |r|·ρ, ρ = the larger relative error of dividing by √d_k rounded to 2 decimals or
//                    multiplying by 1/√d_k rounded to 2 decimals (d_k = 2: 1.41 or 0.71, ρ = 0.0041; d_k = 4: 0).
//   weights          2·ε·w·(1 − w), ε = 0.005: each exp kept to 3 significant figures (relative error ≤ 0.005),
//                    or — the same size — exp of a scaled score rounded to 2 decimals; dw_j = w_j(ε_j − Σ w_k ε_k)
//                    is at most 2ε·w_j(1 − w_j) in size.
//   output           0.5·10^−d_A·Σ_j |V_jc| over the weights A_ij of that row the learner did not type (they were
//                    rounded to d_A decimals on paper); typed weights are used exactly as typed.
// Later stages are graded against what the learner's own earlier numbers give as well as against the correct
// values, so one slip is not counted again in every later step (see CellStatus::CarriedForward): "their own
// numbers" means the stage computed from any earlier stage they typed (their typed numbers where valid, the
// correct ones elsewhere) and carried on from there without rounding — a learner may have kept more digits on
// paper than they typed.
//
// Diagnoses. Each wrong cell is explained, in this order, by a slip a note printed (Remark::printed), by what a
// note's printed slip gives in a later stage (FromNoteSlip: the note's numbers carried on, not printed), by a
// systematic mistake (the one explaining the most wrong cells of the stage first; it needs two matching cells,
// or the only cell where that mistake would show, so one coincidence is not a pattern; mistakes that explain
// exactly the same cells give the same numbers there and are one SameNumbers diagnosis naming each, one mistake),
// else as an arithmetic slip (one wrong cell in its row) or as unexplained (several in a row). Of the transposition
// confusions only those that fit the n×m worksheet are checked: K·Qᵀ (same shape in self-attention; invisible, and
// harmless, when QKᵀ is symmetric), Qᵀ·K (d_k×d_k, typed into the top-left corner) and Q·K (exists only when d_k = m).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/attention/scenario.h"

namespace attn::exercise {

// ---- stages ------------------------------------------------------------------------------------------------

enum class Stage { Q, K, V, Scores, Scaled, Weights, Output };
constexpr int kStageCount = 7;
constexpr std::array<Stage, kStageCount> kStages = {Stage::Q,      Stage::K,       Stage::V,     Stage::Scores,
                                                    Stage::Scaled, Stage::Weights, Stage::Output};
constexpr int stage_index(Stage s) { return static_cast<int>(s); }

// Stable ids ("Q", "K", "V", "scores", "scaled", "weights", "output") for JSON and string catalogs.
const char* stage_id(Stage s);
std::optional<Stage> stage_from_id(const std::string& id);
// English defaults: the short title ("QKᵀ / √d_k") and what the stage computes ("L = S ÷ √d_k, cell by cell").
const char* stage_title(Stage s);
const char* stage_formula(Stage s);

// A cell of a stage matrix, 0-based (learner-facing text counts from 1).
struct Cell {
  int row = 0, col = 0;
  bool operator==(const Cell& o) const { return row == o.row && col == o.col; }
  bool operator<(const Cell& o) const { return row != o.row ? row < o.row : col < o.col; }
};

// ---- diagnoses (declared here because remarks refer to them) --------------------------------------------------

enum class DiagnosisKind {
  ForgotScale,         // the raw scores QKᵀ used where QKᵀ/√d_k belongs (scaled stage, or softmax of raw scores)
  DividedByDk,         // divided by d_k instead of √d_k
  SoftmaxOverColumns,  // normalised down each column instead of along each row
  ScoresTransposed,    // K·Qᵀ (= (QKᵀ)ᵀ): row i holds key i against every query
  UsedQtK,             // Qᵀ·K, a d_k×d_k table, typed into the top-left corner of the n×m scores
  UsedKNotKt,          // Q·K (rows of Q times columns of K), possible only when d_k = m
  ForgotExp,           // normalised the scores directly: L_ij / Σ_j L_ij
  WrongProjection,     // Q, K or V computed with another stage's weight matrix
  NoteSlip,            // the value a note printed wrongly (see Remark)
  CarriedForward,      // right from the learner's own wrong earlier numbers: not a new mistake
  ArithmeticSlip,      // one cell off, no pattern: a slip in that cell
  Unexplained,         // several cells off in one row, no known pattern
  RowSumNotOne,        // a fully typed weights row that does not sum to 1 (a hint next to other diagnoses)
  SkippedSoftmax,      // the scores QKᵀ or QKᵀ/√d_k times V, with no softmax in between
  WeightsTransposed,   // Aᵀ·V: column i of the weights mixes the values of row i
  KeysAsValues,        // A·K: the keys mixed instead of the values
  ExpZeroAsZero,       // e⁰ taken as 0 where a scaled score is 0
  PowerOfTen,          // 10^x instead of e^x
  SoftmaxOverMatrix,   // one softmax over the whole matrix: all the weights together sum to 1
  MultipliedByRoot,    // ×√d_k instead of ÷√d_k
  RootOfDModel,        // ÷√d_model (the embedding width) instead of ÷√d_k
  XReadAsRows,         // a note's column-by-column X read row by row, d_model numbers per token
  SameNumbers,         // several systematic mistakes giving exactly these numbers (Diagnosis::alternatives)
  FromNoteSlip,        // what a note's printed slip gives in a later stage, which the note never prints
};
constexpr int kDiagnosisKindCount = 24;

// ---- exercises ---------------------------------------------------------------------------------------------

enum class Origin { Generated, Note, Custom };
enum class RemarkKind { Slip, Info };

// Something a note says about a stage: a slip the learner may have copied (with what the note printed), or
// information (e.g. "the article stops here").
struct Remark {
  std::string id;  // stable, "<exercise id>/<name>", for string catalogs
  Stage stage = Stage::Q;
  RemarkKind kind = RemarkKind::Info;
  std::string text;  // English
  Mat printed;       // the note's wrong numbers in this stage's shape, NaN where it printed none (only numbers the note
                     // prints: what they lead to later is computed, FromNoteSlip); may be empty
  std::vector<DiagnosisKind> related;  // diagnoses this remark explains (the note's "÷d_k" formula, …)
};

constexpr int kRoundedDecimals = 2;  // decimals of the scaled scores, the weights and the output
constexpr int kMaxExerciseDim = 8;   // rows and columns of every stage of a hand exercise
constexpr double kMaxExerciseValue = 1000;
constexpr int kMinExerciseNumber = 1;
// Exercises 1…999999 embed each token in 4 numbers with d_k = 2: d_model = 4 = d_k², so ÷√d_model is the same
// number as ÷d_k. The numbers after them (appended: no exercise handed out changes) embed in 3, where ÷√d_model
// (≈ ÷1.73) is a mistake of its own.
constexpr int kFirstThreeWideExercise = 1000000;
constexpr int kMaxExerciseNumber = 1999999;

struct Exercise {
  std::string id;  // "exercise-17", "note-cat-sat-mat", or a custom id
  Origin origin = Origin::Custom;
  int number = 0;                                     // generated exercises: the number a teacher hands out
  std::string title;                                  // English
  std::string source;                                 // notes: where the worked example is (English); empty otherwise
  std::vector<std::string> query_tokens, key_tokens;  // row labels (n) and key labels (m)
  Mat X, W_q, W_k, W_v;                               // the inputs; a W is empty when its stage is given directly
  std::array<bool, kStageCount> given{};              // shown filled in, not asked
  std::array<Mat, kStageCount> answer;      // correct value of every stage (the given values for given stages)
  std::array<int, kStageCount> decimals{};  // decimals a stage is shown and graded at
  double d_k = 0;
  std::vector<Remark> remarks;

  const Mat& ref(Stage s) const { return answer[static_cast<size_t>(stage_index(s))]; }
  bool is_given(Stage s) const { return given[static_cast<size_t>(stage_index(s))]; }
  int decimals_of(Stage s) const { return decimals[static_cast<size_t>(stage_index(s))]; }
  int rows(Stage s) const { return static_cast<int>(ref(s).rows()); }
  int cols(Stage s) const { return static_cast<int>(ref(s).cols()); }
};

// How a custom exercise is built: each of Q, K, V is either given directly or computed from X and its W
// (X·W must then agree with a directly given matrix). Limits: every dimension ≤ kMaxExerciseDim, every
// number finite with |x| ≤ kMaxExerciseValue.
struct ExerciseSpec {
  std::string id = "custom", title = "Custom exercise", source;
  Mat X, W_q, W_k, W_v;
  Mat Q, K, V;                                        // given directly when not empty
  std::vector<std::string> query_tokens, key_tokens;  // default "1", "2", …
};
// "" on success, else one clear reason; `out` is untouched on error. The reference answers come from compute().
std::string make_exercise(const ExerciseSpec& spec, Exercise& out);

// The generator's random numbers: SplitMix64 (Vigna), a few integer operations that give the same sequence on
// every compiler and target (std distributions do not). Seeded with 1234567 its first outputs are the published
// reference values 6457827717110365317, 3203168211198807973, …
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, k) for 0 < k < 2³²: the top 32 bits scaled (no modulo).
  int below(int k) { return static_cast<int>(((next() >> 32) * static_cast<uint64_t>(k)) >> 32); }
};

// Exercise `number` (…kMaxExerciseNumber): X 3×4 of small integers, W_Q and W_K 4×2 in
// steps of 0.5, W_V 4×2 of small integers (from kFirstThreeWideExercise on: X 3×3, the W's 3×2), drawn by a fixed
// integer generator, so the same number gives the same exercise on every build. Numbers are redrawn (deterministically)
// until the exercise teaches well: scores in [−4, 4], no near-uniform, saturated or all-negative rows, QKᵀ not
// symmetric.
std::string generate_exercise(int number, Exercise& out);

// The notes' three worked examples: "note-scaled-dot-product", "note-cat-sat-mat", "note-the-cat-sat-on-the-mat".
std::vector<std::string> note_exercise_ids();
std::string note_exercise(const std::string& id, Exercise& out);

// Row and column labels of a stage as a worksheet shows them (tokens, or "1", "2", … for feature columns).
std::vector<std::string> stage_row_labels(const Exercise& ex, Stage s);
std::vector<std::string> stage_col_labels(const Exercise& ex, Stage s);

// ---- learner answers ----------------------------------------------------------------------------------------

// What the learner typed, one string per cell ("" = not answered), row-major in each stage's shape.
struct Answers {
  std::array<int, kStageCount> rows{}, cols{};
  std::array<std::vector<std::string>, kStageCount> text;

  // Bounds-checked: throws std::out_of_range for a cell outside the stage.
  const std::string& at(Stage s, int row, int col) const;
  void set(Stage s, int row, int col, std::string typed);
  // A number as a cell: written with 17 significant digits (NaN and infinities stay detectable).
  void set(Stage s, int row, int col, double value);
  // A whole stage from a matrix of its shape (std::invalid_argument otherwise); decimals ≥ 0 writes each number
  // rounded, as a learner would.
  void fill(Stage s, const Mat& values, int decimals = -1);
  void clear(Stage s);
};
// Every asked stage blank, in the exercise's shapes (given stages have no cells).
Answers blank_answers(const Exercise& ex);

// ---- reading one cell ---------------------------------------------------------------------------------------

enum class InputIssue { None, NotANumber, DecimalComma, NotFinite, OutOfRange, TooLong };
constexpr double kMaxCellMagnitude = 1e6;
constexpr size_t kMaxCellChars = 40;

struct ParsedCell {
  bool empty = true;  // nothing but spaces
  InputIssue issue = InputIssue::None;
  double value = 0;
  int decimals_typed = 0;  // digits after the point as typed
};
// Accepts "1", "-0.25", "+.5", "3.", "1e-2", surrounding spaces and the minus sign "−" (U+2212) copied from
// notes. "1,5" is a DecimalComma, "nan"/"inf" NotFinite, "1e999" or |x| > kMaxCellMagnitude OutOfRange.
ParsedCell parse_cell(const std::string& text);
const char* input_issue_id(InputIssue issue);
// English message for a cell, quoting what was typed.
std::string input_issue_message(InputIssue issue, const std::string& typed);
// The placeholders of an issue message: {text} (what was typed, shortened) and {fixed} (commas as points).
std::map<std::string, std::string> input_issue_params(const std::string& typed);
const char* input_issue_template(InputIssue issue);  // English

// ---- grading ------------------------------------------------------------------------------------------------

enum class CellStatus {
  Empty,           // not answered yet
  Invalid,         // not a number (see issue/message)
  Correct,         // the correct value, to the stage's decimals
  CarriedForward,  // wrong, but exactly what the learner's own wrong earlier numbers give: not a new mistake
  Wrong,
  Given,  // part of the exercise, not asked
};
const char* cell_status_id(CellStatus s);

struct CellGrade {
  CellStatus status = CellStatus::Empty;
  double value = 0;  // as parsed (0 when empty or invalid)
  InputIssue issue = InputIssue::None;
  std::string message;      // English: the input problem, empty otherwise
  double expected = 0;      // the correct value
  double expected_own = 0;  // the cell computed from the learner's numbers in the stage right before it
  double tolerance = 0;     // accepted distance from expected (the rule at the top of this file)
  int diagnosis = -1;       // index into Grade::diagnoses explaining a Wrong or CarriedForward cell
};

struct StageGrade {
  Stage stage = Stage::Q;
  bool given = false;
  int rows = 0, cols = 0;
  std::vector<CellGrade> cells;  // row-major
  int answered = 0, correct = 0, carried = 0, wrong = 0, invalid = 0;
  const CellGrade& at(int row, int col) const { return cells.at(static_cast<size_t>(row * cols + col)); }
};

// One of the systematic mistakes a SameNumbers diagnosis names, with the placeholders of its own template.
struct Alternative {
  DiagnosisKind kind = DiagnosisKind::ForgotScale;
  std::map<std::string, std::string> params;
};

struct Diagnosis {
  DiagnosisKind kind = DiagnosisKind::ArithmeticSlip;
  Stage stage = Stage::Q;
  std::vector<Cell> cells;  // the learner's cells it is about
  // CarriedForward: the learner's wrong earlier cells; FromNoteSlip: the note's printed cells it follows from.
  std::vector<std::pair<Stage, Cell>> sources;
  int remark = -1;  // index into Exercise::remarks (NoteSlip, FromNoteSlip, or a related remark)
  // SameNumbers: the mistakes that each give exactly these numbers, in the order the grader tries them.
  std::vector<Alternative> alternatives;
  // Placeholder values for the text templates: stage, cells, count, d_k, sqrt_d_k, sources, value, expected,
  // remark, used, wanted, sums, mistakes. English-formatted; a catalog with its own templates can format `cells`
  // itself.
  std::map<std::string, std::string> params;
  std::string message;  // the English default text, filled in
};

struct Grade {
  std::array<StageGrade, kStageCount> stages;
  std::vector<Diagnosis> diagnoses;
  int mistakes = 0;          // diagnoses that are mistakes of their own (not CarriedForward or RowSumNotOne)
  int asked = 0;             // cells the learner has to fill in
  int answered = 0;          // … of which are filled with a number
  bool complete = false;     // every asked cell answered with a number
  bool all_correct = false;  // complete and every cell Correct
  const StageGrade& stage(Stage s) const { return stages[static_cast<size_t>(stage_index(s))]; }
};

// Grades every cell and diagnoses the mistakes. Answers in another shape than the exercise's are treated as
// blank for the mismatched stages.
Grade grade(const Exercise& ex, const Answers& answers);

// ---- the English texts (one table; a string catalog translates by id) ------------------------------------------

struct DiagnosisText {
  DiagnosisKind kind;
  const char* id;     // stable: "forgot_scale", "divided_by_dk", …
  const char* title;  // English, short
  const char* tmpl;   // English, with {placeholders} from Diagnosis::params
  bool is_mistake;    // counts in Grade::mistakes
};
const std::array<DiagnosisText, kDiagnosisKindCount>& diagnosis_texts();
const DiagnosisText& diagnosis_text(DiagnosisKind kind);
const char* diagnosis_id(DiagnosisKind kind);
std::optional<DiagnosisKind> diagnosis_from_id(const std::string& id);
// Replaces every {name} found in params; unknown placeholders stay as they are.
std::string fill_template(const std::string& tmpl, const std::map<std::string, std::string>& params);
// The {mistakes} of a SameNumbers diagnosis: each alternative's template (`tmpl` of its kind) without its opening
// "{stage}, {cells}: ", filled from `params` and the alternative's own, joined by " <or_word> ". English by default.
using DiagnosisTemplate = std::function<std::string(DiagnosisKind)>;
std::string same_numbers_list(const Diagnosis& d, const std::map<std::string, std::string>& params,
                              const DiagnosisTemplate& tmpl = nullptr, const std::string& or_word = "Or");
// The words of a cell list; {list} is "2", "1 and 3" or "(1, 2) and (2, 3)". English by default, a string
// catalog supplies another language's.
struct CellWords {
  std::string all_cells = "all cells", row = "row {list}", rows = "rows {list}", cell = "cell {list}",
              cells = "cells {list}";
  std::string last_separator = " and ";    // before the last item ("a, b and c")
  std::string more = " and {count} more";  // after the first eight
};
// "all cells", "row 2", "rows 1 and 3", "cell (2, 3)", "cells (1, 2) and (2, 3)" — counted from 1.
std::string describe_cells(const Exercise& ex, Stage s, const std::vector<Cell>& cells, const CellWords& words = {});
// "QKᵀ row 2; Q cell (1, 2)": cells of several stages, grouped by stage; `part` writes one stage's group from
// the stage and its described cells (default: the English "<stage title> <cells>").
using SourcePart = std::function<std::string(Stage, const std::string& cells)>;
std::string describe_sources(const Exercise& ex, const std::vector<std::pair<Stage, Cell>>& sources,
                             const CellWords& words = {}, const SourcePart& part = nullptr);

// ---- "Show me": the arithmetic of one cell ------------------------------------------------------------------

enum class BreakdownKind { Given, Projection, DotProduct, Scale, Softmax, WeightedSum };

struct Term {
  double a = 0, b = 0, product = 0;
  std::string a_label, b_label;  // "X[2,1]", "W_Q[1,2]", "A[1,3]", … (counted from 1)
};

struct CellBreakdown {
  Stage stage = Stage::Q;
  int row = 0, col = 0;
  BreakdownKind kind = BreakdownKind::Given;
  std::vector<Term> terms;                   // Projection, DotProduct, WeightedSum: value = Σ products
  double score = 0, d_k = 0, sqrt_d_k = 0;   // Scale: value = score / sqrt_d_k
  std::vector<double> row_logits, row_exps;  // Softmax: the row's scaled scores and exp(ℓ − shift)
  double shift = 0;                          // 0 unless the row's largest score is large (then the max)
  double exp_sum = 0;                        // Softmax: value = row_exps[col] / exp_sum
  double value = 0;
  std::string text;  // English, several lines
};
// The sentences of a breakdown's text, {placeholders} filled from the breakdown: {cell} ("A[1,2]"), {row}, {col}
// (from 1), {matrix} ("W_Q"), {query}, {key} (tokens), {logit} ("L[1,2]"), {value}, {shift}. English by
// default; the numbers and formulas around them are the same in every language.
struct BreakdownWords {
  std::string given = "{cell} is given in this exercise: {value}";
  std::string projection = "{cell} = row {row} of X · column {col} of {matrix}";
  std::string dot_product = "{cell} = q_{row}·k_{col} (query “{query}”, key “{key}”)";
  std::string softmax = "{cell} = exp({logit}) ÷ the sum of exp over row {row} of L";
  std::string exp_sum = "sum";
  std::string shifted = "(every score minus the row's largest, {shift}: the weights are the same and no exp overflows)";
  std::string weighted_sum = "{cell} = row {row} of A · column {col} of V (the weights times the values)";
};
// The text of a breakdown show_cell filled in (CellBreakdown::text is this with the English words).
std::string breakdown_text(const Exercise& ex, const CellBreakdown& b, const BreakdownWords& words = {});
// With the correct numbers; or with the learner's own earlier numbers where typed (so a learner sees how their
// own cell should follow from what they wrote). Error for a cell outside the stage.
std::string show_cell(const Exercise& ex, Stage s, int row, int col, CellBreakdown& out);
std::string show_cell(const Exercise& ex, const Answers& answers, Stage s, int row, int col, CellBreakdown& out);

// ---- JSON ---------------------------------------------------------------------------------------------------
//
// Exercise: {"number": 17} | {"note": "note-cat-sat-mat"} | a custom one {"id", "title", "X", "W_q", "W_k",
// "W_v", "Q", "K", "V", "query_tokens", "key_tokens"} (as ExerciseSpec). exercise_to_json also writes the
// reference answers, decimals, given stages and remarks; they are recomputed, never read back.
// Answers: {"Q": [["1", "0"], …], "scores": [[…]], …} keyed by stage id, each the stage's shape, cells a string,
// a number or null (= not answered). Worksheet: {"format": "attnplay-worksheet", "version": 1, "exercise": …,
// "answers": …}.

nlohmann::json exercise_to_json(const Exercise& ex);
std::string exercise_from_json(const nlohmann::json& j, Exercise& out);
nlohmann::json answers_to_json(const Exercise& ex, const Answers& answers);
std::string answers_from_json(const nlohmann::json& j, const Exercise& ex, Answers& out);
nlohmann::json worksheet_to_json(const Exercise& ex, const Answers& answers);
// Text → exercise and answers, with the JSON size and nesting limits; "" on success, outputs untouched on error.
constexpr size_t kMaxWorksheetBytes = 1u << 20;
std::string parse_worksheet(const std::string& text, Exercise& ex, Answers& answers);
nlohmann::json grade_to_json(const Exercise& ex, const Grade& g);
nlohmann::json breakdown_to_json(const CellBreakdown& b);

}  // namespace attn::exercise
