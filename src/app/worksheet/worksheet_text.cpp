// worksheet_text.cpp — the worksheet's stage headers, diagnoses, remarks, cell messages and "Show me" texts
// worded from the string catalog, built from the same data core words in English.
#include <cmath>

#include "app/worksheet/worksheet.h"

namespace attn {

using namespace attn::exercise;

namespace {

std::string key_text(Lang lang, const std::string& key) { return tr(lang, key.c_str()); }

// "QKᵀ row 2; Q cell (1, 2)": the learner's earlier cells a carried-forward diagnosis follows from.
std::string describe_sources(const Exercise& ex, const std::vector<std::pair<Stage, Cell>>& sources, Lang lang) {
  return exercise::describe_sources(ex, sources, cell_words(lang), [lang](Stage s, const std::string& cells) {
    return tr_format(lang, "worksheet.source", {{"stage", worksheet_stage_title(s, lang)}, {"cells", cells}});
  });
}

// Core's diagnoses start with a capital letter; so do these, where the first letter is a lowercase ASCII one.
void capitalise(std::string& s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
}

}  // namespace

std::string worksheet_stage_title(Stage s, Lang lang) {
  return key_text(lang, std::string("worksheet.stage.") + stage_id(s));
}

std::string worksheet_stage_formula(Stage s, Lang lang) {
  return key_text(lang, std::string("worksheet.formula.") + stage_id(s));
}

CellWords cell_words(Lang lang) {
  CellWords w;
  w.all_cells = tr(lang, "worksheet.cells.all");
  w.row = tr(lang, "worksheet.cells.row");
  w.rows = tr(lang, "worksheet.cells.rows");
  w.cell = tr(lang, "worksheet.cells.cell");
  w.cells = tr(lang, "worksheet.cells.cells");
  w.last_separator = std::string(" ") + tr(lang, "worksheet.cells.and") + " ";
  w.more = std::string(" ") + tr(lang, "worksheet.cells.more");
  return w;
}

std::string remark_key(const Remark& r) {
  std::string key = "remark." + r.id;
  for (char& c : key)
    if (c == '/') c = '.';
  return key;
}

std::string remark_text(const Remark& r, Lang lang) {
  const std::string key = remark_key(r);
  return has_string(lang, key) || has_string(Lang::En, key) ? key_text(lang, key) : r.text;
}

std::string diagnosis_message(const Exercise& ex, const Diagnosis& d, Lang lang) {
  std::map<std::string, std::string> params = d.params;
  params["stage"] = worksheet_stage_title(d.stage, lang);
  params["cells"] = describe_cells(ex, d.stage, d.cells, cell_words(lang));
  if (!d.sources.empty()) params["sources"] = describe_sources(ex, d.sources, lang);
  const bool has_remark = d.remark >= 0 && d.remark < static_cast<int>(ex.remarks.size());
  if (has_remark) params["remark"] = remark_text(ex.remarks[static_cast<size_t>(d.remark)], lang);
  if (!d.alternatives.empty())
    params["mistakes"] = same_numbers_list(
        d, params, [lang](DiagnosisKind k) { return key_text(lang, std::string("diagnosis.") + diagnosis_id(k)); },
        tr(lang, "diagnosis.same_numbers_or"));
  const std::string key = std::string("diagnosis.") + diagnosis_id(d.kind);
  std::string message = fill_template(tr(lang, key.c_str()), params);
  if (has_remark && d.kind != DiagnosisKind::NoteSlip) message += " " + params["remark"];
  capitalise(message);
  return message;
}

std::string issue_message(InputIssue issue, const std::string& typed, Lang lang) {
  if (issue == InputIssue::None) return "";
  const std::string key = std::string("worksheet.issue.") + input_issue_id(issue);
  return fill_template(tr(lang, key.c_str()), input_issue_params(typed));
}

std::string breakdown_text(const Exercise& ex, const CellBreakdown& b, Lang lang) {
  BreakdownWords w;
  w.given = tr(lang, "worksheet.show.given");
  w.projection = tr(lang, "worksheet.show.projection");
  w.dot_product = tr(lang, "worksheet.show.dot_product");
  w.softmax = tr(lang, "worksheet.show.softmax");
  w.exp_sum = tr(lang, "worksheet.show.exp_sum");
  w.shifted = tr(lang, "worksheet.show.shifted");
  w.weighted_sum = tr(lang, "worksheet.show.weighted_sum");
  return exercise::breakdown_text(ex, b, w);
}

std::string exercise_title(const Exercise& ex, Lang lang) {
  if (ex.origin == Origin::Generated)
    return tr_format(lang, "worksheet.exercise_number", {{"number", std::to_string(ex.number)}});
  const std::string key = "worksheet.note." + ex.id + ".title";
  return ex.origin == Origin::Note && has_string(Lang::En, key) ? key_text(lang, key) : ex.title;
}

std::string exercise_source(const Exercise& ex, Lang lang) {
  const std::string key = "worksheet.note." + ex.id + ".source";
  return ex.origin == Origin::Note && has_string(Lang::En, key) ? key_text(lang, key) : ex.source;
}

}  // namespace attn
