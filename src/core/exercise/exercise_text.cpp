// exercise_text.cpp — the English texts of the checker in one place (ids for a string catalog), and number
// and cell-list formatting.
#include <cmath>
#include <cstdio>

#include "core/exercise/exercise.h"
#include "core/exercise/exercise_detail.h"

namespace attn::exercise {

namespace {

// Placeholders: {stage} {cells} {count} {d_k} {sqrt_d_k} {sources} {value} {expected} {remark} {used} {wanted}
// {rows} {sums} {d_model} {sqrt_d_model} {x_row} {mistakes} (see Diagnosis::params). A translation keeps the same
// placeholders, and opens each template of a systematic mistake with "{stage}, {cells}: " (same_numbers_list).
const std::array<DiagnosisText, kDiagnosisKindCount> kDiagnosisTexts = {{
    {DiagnosisKind::ForgotScale, "forgot_scale", "Forgot ÷√d_k",
     "{stage}, {cells}: the raw scores QKᵀ, without ÷√d_k. Divide every score by √d_k = √{d_k} ≈ {sqrt_d_k} "
     "before the softmax.",
     true},
    {DiagnosisKind::DividedByDk, "divided_by_dk", "Divided by d_k instead of √d_k",
     "{stage}, {cells}: divided by d_k = {d_k}, but the scale is √d_k ≈ {sqrt_d_k}. A dot product of d_k terms "
     "has variance d_k, so its spread grows like √d_k, and dividing by √d_k brings it back to about 1.",
     true},
    {DiagnosisKind::SoftmaxOverColumns, "softmax_columns", "Softmax over columns",
     "{stage}, {cells}: normalised down each column. Softmax runs along each row: one query spreads its attention "
     "over all the keys, so every row of the weights sums to 1.",
     true},
    {DiagnosisKind::ScoresTransposed, "scores_transposed", "K·Qᵀ instead of QKᵀ",
     "{stage}, {cells}: key i against query j, which is K·Qᵀ (the transpose). In QKᵀ row i belongs to query i and "
     "column j to key j: S_ij = q_i·k_j.",
     true},
    {DiagnosisKind::UsedQtK, "used_qt_k", "Qᵀ·K instead of QKᵀ",
     "{stage}, {cells}: Qᵀ·K, a d_k×d_k table that sums over the tokens. QKᵀ has one row per query and one column "
     "per key: S_ij = q_i·k_j multiplies row i of Q with row j of K.",
     true},
    {DiagnosisKind::UsedKNotKt, "used_k_not_kt", "K instead of Kᵀ",
     "{stage}, {cells}: Q·K, rows of Q times columns of K. The score q_i·k_j multiplies row i of Q with row j of K "
     "entry by entry: that is Q·Kᵀ.",
     true},
    {DiagnosisKind::ForgotExp, "forgot_exp", "Forgot exp",
     "{stage}, {cells}: the scores divided by their row sum. Softmax first takes exp of every scaled score, then "
     "divides each exp by the sum of the row's exps.",
     true},
    {DiagnosisKind::WrongProjection, "wrong_projection", "Wrong weight matrix",
     "{stage}, {cells}: computed with {used} instead of {wanted}.", true},
    {DiagnosisKind::NoteSlip, "note_slip", "The note's slip",
     "{stage}, {cells}: the number the note printed, and the note is wrong here. {remark}", true},
    {DiagnosisKind::CarriedForward, "carried_forward", "Follows from an earlier slip",
     "{stage}, {cells}: right from your own numbers in {sources}. Not counted as a new mistake; once those are "
     "fixed, these change too.",
     false},
    {DiagnosisKind::ArithmeticSlip, "arithmetic_slip", "Arithmetic slip",
     "{stage}, {cells}: {value} is off. It looks like a slip in this one cell: Show me writes out its arithmetic.",
     true},
    {DiagnosisKind::Unexplained, "unexplained", "Several cells off",
     "{stage}, {cells}: not what your earlier numbers give, and no common mistake explains it. Show me writes out "
     "the arithmetic of each cell.",
     true},
    {DiagnosisKind::RowSumNotOne, "row_sum_not_one", "Row does not sum to 1",
     "{stage}, row {rows}: sums to {sums}, not 1. The softmax weights of one row always add up to 1.", false},
    {DiagnosisKind::SkippedSoftmax, "skipped_softmax", "No softmax before ·V",
     "{stage}, {cells}: {used} times V, the scores used as weights with no softmax in between. The weights are "
     "softmax(QKᵀ/√d_k): every one positive, every row summing to 1. Multiply those by V.",
     true},
    {DiagnosisKind::WeightsTransposed, "weights_transposed", "Aᵀ·V instead of A·V",
     "{stage}, {cells}: Aᵀ·V, the weights transposed. Row i of the output mixes the values with row i of A, query "
     "i's weights over the keys: z_i = Σ_j A_ij v_j.",
     true},
    {DiagnosisKind::KeysAsValues, "keys_as_values", "K mixed instead of V",
     "{stage}, {cells}: the weights times K, not V. The keys decide where a query looks (through the scores); what "
     "it takes from there is the values: Z = A·V.",
     true},
    {DiagnosisKind::ExpZeroAsZero, "exp_zero_as_zero", "e⁰ taken as 0",
     "{stage}, {cells}: e⁰ taken as 0 where a scaled score is 0. Any number to the power 0 is 1, so e⁰ = 1: a "
     "score of 0 still gets its share of the attention.",
     true},
    {DiagnosisKind::PowerOfTen, "power_of_ten", "10^x instead of e^x",
     "{stage}, {cells}: 10 to the power of each score instead of e to that power. Softmax uses e ≈ 2.718; base 10 "
     "makes every row sharper than it is.",
     true},
    {DiagnosisKind::SoftmaxOverMatrix, "softmax_matrix", "One softmax over the whole matrix",
     "{stage}, {cells}: one softmax over the whole matrix, so all the weights together sum to 1. Each query has "
     "its own softmax along its row: every row sums to 1.",
     true},
    {DiagnosisKind::MultipliedByRoot, "multiplied_by_root", "×√d_k instead of ÷√d_k",
     "{stage}, {cells}: multiplied by √d_k ≈ {sqrt_d_k} instead of divided by it. Dividing brings the scores back "
     "to a spread of about 1; multiplying makes them larger still and the softmax sharper.",
     true},
    {DiagnosisKind::RootOfDModel, "root_of_d_model", "√d_model instead of √d_k",
     "{stage}, {cells}: divided by √d_model = √{d_model} ≈ {sqrt_d_model}. The scale is √d_k = √{d_k} ≈ "
     "{sqrt_d_k}: d_k is the length of a query and a key, the number of terms in each dot product, not the width "
     "of the embeddings.",
     true},
    {DiagnosisKind::XReadAsRows, "x_read_as_rows", "X read row by row",
     "{stage}, {cells}: computed from X read row by row. The note prints X column by column: each column there is "
     "one token's embedding, so the first token is {x_row}.",
     true},
    {DiagnosisKind::SameNumbers, "same_numbers", "Mistakes that give the same numbers",
     "{stage}, {cells}: more than one mistake gives exactly these numbers, so they count as one. Either {mistakes}",
     true},
    {DiagnosisKind::FromNoteSlip, "from_note_slip", "The note's slip, carried on",
     "{stage}, {cells}: what the note's wrong numbers in {sources} give. The note does not print this number; its "
     "slip there carries on to here.",
     true},
}};

constexpr const char* kTemplateOpening = "{stage}, {cells}: ";

struct IssueText {
  InputIssue issue;
  const char* id;
  const char* tmpl;  // {text}: what was typed
};

const IssueText kIssueTexts[] = {
    {InputIssue::None, "none", ""},
    {InputIssue::NotANumber, "not_a_number", "“{text}” is not a number: type a decimal such as 0.25 or -1.5."},
    {InputIssue::DecimalComma, "decimal_comma", "Use a point for decimals: “{text}” should be written {fixed}."},
    {InputIssue::NotFinite, "not_finite", "“{text}” is not a value a hand calculation gives: type a number."},
    {InputIssue::OutOfRange, "out_of_range",
     "“{text}” is far too large for this exercise (the numbers here stay well below a million)."},
    {InputIssue::TooLong, "too_long", "This cell holds too much text: type one number."},
};

const char* const kStatusIds[] = {"empty", "invalid", "correct", "carried_forward", "wrong", "given"};

std::string cell_pair(Cell c) { return "(" + std::to_string(c.row + 1) + ", " + std::to_string(c.col + 1) + ")"; }

// "a", "a and b", "a, b and c"; after `limit` items, "… and N more".
std::string join_list(const std::vector<std::string>& items, const CellWords& words, size_t limit = 8) {
  std::string out;
  const size_t shown = items.size() > limit ? limit : items.size();
  for (size_t k = 0; k < shown; ++k) {
    if (k) out += k + 1 == items.size() ? words.last_separator : ", ";
    out += items[k];
  }
  if (shown < items.size()) out += fill_template(words.more, {{"count", std::to_string(items.size() - shown)}});
  return out;
}

}  // namespace

const std::array<DiagnosisText, kDiagnosisKindCount>& diagnosis_texts() { return kDiagnosisTexts; }

const DiagnosisText& diagnosis_text(DiagnosisKind kind) { return kDiagnosisTexts[static_cast<size_t>(kind)]; }

const char* diagnosis_id(DiagnosisKind kind) { return diagnosis_text(kind).id; }

std::optional<DiagnosisKind> diagnosis_from_id(const std::string& id) {
  for (const DiagnosisText& t : kDiagnosisTexts)
    if (id == t.id) return t.kind;
  return std::nullopt;
}

const char* input_issue_id(InputIssue issue) { return kIssueTexts[static_cast<int>(issue)].id; }

const char* input_issue_template(InputIssue issue) { return kIssueTexts[static_cast<int>(issue)].tmpl; }

std::map<std::string, std::string> input_issue_params(const std::string& typed) {
  std::string shown = typed.size() > 24 ? typed.substr(0, 24) + "…" : typed;
  std::string fixed = typed;
  for (char& c : fixed)
    if (c == ',') c = '.';
  return {{"text", shown}, {"fixed", fixed}};
}

std::string input_issue_message(InputIssue issue, const std::string& typed) {
  return fill_template(input_issue_template(issue), input_issue_params(typed));
}

const char* cell_status_id(CellStatus s) { return kStatusIds[static_cast<int>(s)]; }

std::string fill_template(const std::string& tmpl, const std::map<std::string, std::string>& params) {
  std::string out;
  for (size_t i = 0; i < tmpl.size();) {
    const size_t close = tmpl[i] == '{' ? tmpl.find('}', i) : std::string::npos;
    if (close != std::string::npos) {
      const auto it = params.find(tmpl.substr(i + 1, close - i - 1));
      if (it != params.end()) {
        out += it->second;
        i = close + 1;
        continue;
      }
    }
    out += tmpl[i++];
  }
  return out;
}

std::string same_numbers_list(const Diagnosis& d, const std::map<std::string, std::string>& params,
                              const DiagnosisTemplate& tmpl, const std::string& or_word) {
  std::string out;
  for (const Alternative& a : d.alternatives) {
    std::string body = tmpl ? tmpl(a.kind) : diagnosis_text(a.kind).tmpl;
    if (body.rfind(kTemplateOpening, 0) == 0) body = body.substr(std::string(kTemplateOpening).size());
    std::map<std::string, std::string> own = params;
    for (const auto& [k, v] : a.params) own[k] = v;
    out += (out.empty() ? "" : " " + or_word + " ") + fill_template(body, own);
  }
  return out;
}

std::string describe_cells(const Exercise& ex, Stage s, const std::vector<Cell>& cells, const CellWords& words) {
  const int rows = ex.rows(s), cols = ex.cols(s);
  std::vector<int> per_row(static_cast<size_t>(rows), 0);
  for (Cell c : cells)
    if (c.row >= 0 && c.row < rows) ++per_row[static_cast<size_t>(c.row)];
  bool whole_rows = !cells.empty();
  std::vector<std::string> row_names;
  for (int i = 0; i < rows; ++i) {
    if (per_row[static_cast<size_t>(i)] == cols) row_names.push_back(std::to_string(i + 1));
    whole_rows = whole_rows && (per_row[static_cast<size_t>(i)] == 0 || per_row[static_cast<size_t>(i)] == cols);
  }
  if (whole_rows && static_cast<int>(row_names.size()) == rows && rows > 1) return words.all_cells;
  if (whole_rows && cols > 1)
    return fill_template(row_names.size() == 1 ? words.row : words.rows, {{"list", join_list(row_names, words)}});
  std::vector<std::string> names;
  for (Cell c : cells) names.push_back(cell_pair(c));
  return fill_template(names.size() == 1 ? words.cell : words.cells, {{"list", join_list(names, words)}});
}

std::string describe_sources(const Exercise& ex, const std::vector<std::pair<Stage, Cell>>& sources,
                             const CellWords& words, const SourcePart& part) {
  std::string out;
  for (size_t a = 0; a < sources.size();) {
    size_t b = a;
    std::vector<Cell> cells;
    while (b < sources.size() && sources[b].first == sources[a].first) cells.push_back(sources[b++].second);
    if (!out.empty()) out += "; ";
    const Stage s = sources[a].first;
    const std::string described = describe_cells(ex, s, cells, words);
    out += part ? part(s, described) : std::string(stage_title(s)) + " " + described;
    a = b;
  }
  return out;
}

namespace detail {

std::string format_number(double v, int max_decimals) {
  if (!std::isfinite(v)) return "—";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", max_decimals < 0 ? 0 : max_decimals, v);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s == "-0" ? "0" : s;
}

std::string format_row(const MatD& m, int row, int max_decimals) {
  std::string out = "[";
  for (Eigen::Index j = 0; j < m.cols(); ++j) out += (j ? ", " : "") + format_number(m(row, j), max_decimals);
  return out + "]";
}

}  // namespace detail
}  // namespace attn::exercise
