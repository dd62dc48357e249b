// exercise_json.cpp — exercises, learner answers, grades and "Show me" breakdowns as JSON, read with validation.
#include <cmath>
#include <set>

#include "core/exercise/exercise.h"
#include "core/json_codec.h"

namespace attn::exercise {

using nlohmann::json;

namespace {

const char* const kOrigins[] = {"generated", "note", "custom"};
const char* const kBreakdownKinds[] = {"given", "projection", "dot_product", "scale", "softmax", "weighted_sum"};

// Keys exercise_to_json writes that are derived from the others: accepted on input and recomputed.
const std::set<std::string> kDerivedKeys = {"origin", "source", "d_k", "stages", "remarks"};
const std::set<std::string> kSpecKeys = {"id", "title",        "X",          "W_q",    "W_k", "W_v", "Q", "K",
                                         "V",  "query_tokens", "key_tokens", "number", "note"};

json cells_json(const Mat& m) {
  json rows = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    json row = json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      row.push_back(std::isfinite(m(i, j)) ? json(static_cast<double>(m(i, j))) : json(nullptr));
    rows.push_back(std::move(row));
  }
  return rows;
}

json cell_json(Cell c) { return json::array({c.row, c.col}); }

std::string read_tokens(const json& j, const char* key, std::vector<std::string>& out) {
  if (!j.contains(key)) return "";
  const json& v = j.at(key);
  if (!v.is_array()) return std::string(key) + " must be an array of strings";
  for (const json& t : v) {
    if (!t.is_string()) return std::string(key) + " must be an array of strings";
    out.push_back(t.get<std::string>());
  }
  return "";
}

std::string read_string(const json& j, const char* key, std::string& out) {
  if (!j.contains(key)) return "";
  if (!j.at(key).is_string()) return std::string(key) + " must be a string";
  out = j.at(key).get<std::string>();
  if (out.size() > 200) return std::string(key) + " is longer than 200 bytes";
  return "";
}

std::string custom_from_json(const json& j, Exercise& out) {
  ExerciseSpec spec;
  std::string err = read_string(j, "id", spec.id);
  if (err.empty()) err = read_string(j, "title", spec.title);
  if (err.empty()) err = read_tokens(j, "query_tokens", spec.query_tokens);
  if (err.empty()) err = read_tokens(j, "key_tokens", spec.key_tokens);
  if (!err.empty()) return err;
  const std::pair<const char*, Mat*> mats[] = {{"X", &spec.X},     {"W_q", &spec.W_q}, {"W_k", &spec.W_k},
                                               {"W_v", &spec.W_v}, {"Q", &spec.Q},     {"K", &spec.K},
                                               {"V", &spec.V}};
  for (const auto& [key, m] : mats) {
    if (!j.contains(key)) continue;
    err = matrix_from_json(j.at(key), key, *m);
    if (!err.empty()) return err;
  }
  return make_exercise(spec, out);
}

std::string exercise_from_json_impl(const json& j, Exercise& out) {
  if (!j.is_object()) return std::string("exercise must be an object, got ") + j.type_name();
  for (const auto& [key, value] : j.items())
    if (!kSpecKeys.count(key) && !kDerivedKeys.count(key)) return "unknown key \"" + key + "\" in the exercise";
  const std::string origin =
      j.contains("origin") && j.at("origin").is_string() ? j.at("origin").get<std::string>() : "";
  if (j.contains("origin") && origin != "generated" && origin != "note" && origin != "custom")
    return "origin must be \"generated\", \"note\" or \"custom\"";
  if (j.contains("number") || origin == "generated") {
    if (!j.contains("number")) return "a generated exercise needs its number";
    const json& n = j.at("number");
    if (!n.is_number_integer()) return "number must be an integer";
    const long long v = n.get<long long>();
    if (v < kMinExerciseNumber || v > kMaxExerciseNumber)
      return "exercise number " + std::to_string(v) + " is outside " + std::to_string(kMinExerciseNumber) + "…" +
             std::to_string(kMaxExerciseNumber);
    return generate_exercise(static_cast<int>(v), out);
  }
  if (j.contains("note") || origin == "note") {
    const json* id = j.contains("note") ? &j.at("note") : j.contains("id") ? &j.at("id") : nullptr;
    if (!id || !id->is_string()) return "a note exercise needs \"note\": its id as a string";
    return note_exercise(id->get<std::string>(), out);
  }
  return custom_from_json(j, out);
}

std::string cell_from_json(const json& v, std::string& out) {
  if (v.is_null()) {
    out.clear();
  } else if (v.is_string()) {
    out = v.get<std::string>();
    if (out.size() > 256) return "a cell holds at most 256 bytes of text";
  } else if (v.is_number()) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v.get<double>());
    out = buf;
  } else {
    return std::string("a cell is a string, a number or null, not ") + v.type_name();
  }
  return "";
}

std::string answers_from_json_impl(const json& j, const Exercise& ex, Answers& out) {
  if (!j.is_object()) return std::string("answers must be an object keyed by stage, got ") + j.type_name();
  Answers a = blank_answers(ex);
  for (const auto& [key, rows] : j.items()) {
    const std::optional<Stage> s = stage_from_id(key);
    if (!s) return "unknown stage \"" + key + "\" in the answers (stages: Q, K, V, scores, scaled, weights, output)";
    if (ex.is_given(*s)) return "answers." + key + ": " + key + " is given in this exercise, not asked";
    const std::string where = "answers." + key;
    const std::string want = std::to_string(ex.rows(*s)) + "×" + std::to_string(ex.cols(*s));
    if (!rows.is_array() || rows.size() != static_cast<size_t>(ex.rows(*s)))
      return where + ": expected " + want + " (an array of " + std::to_string(ex.rows(*s)) + " rows)";
    for (size_t i = 0; i < rows.size(); ++i) {
      const json& row = rows[i];
      if (!row.is_array() || row.size() != static_cast<size_t>(ex.cols(*s)))
        return where + " row " + std::to_string(i + 1) + ": expected " + std::to_string(ex.cols(*s)) + " cells (" +
               want + ")";
      for (size_t c = 0; c < row.size(); ++c) {
        std::string text;
        std::string err = cell_from_json(row[c], text);
        if (!err.empty())
          return where + " row " + std::to_string(i + 1) + ", column " + std::to_string(c + 1) + ": " + err;
        a.set(*s, static_cast<int>(i), static_cast<int>(c), std::move(text));
      }
    }
  }
  out = std::move(a);
  return "";
}

}  // namespace

json exercise_to_json(const Exercise& ex) {
  json j;
  j["origin"] = kOrigins[static_cast<int>(ex.origin)];
  if (ex.origin == Origin::Generated) j["number"] = ex.number;
  if (ex.origin == Origin::Note) j["note"] = ex.id;
  j["id"] = ex.id;
  j["title"] = ex.title;
  if (!ex.source.empty()) j["source"] = ex.source;
  j["query_tokens"] = ex.query_tokens;
  j["key_tokens"] = ex.key_tokens;
  j["d_k"] = ex.d_k;
  const std::pair<const char*, const Mat*> inputs[] = {
      {"X", &ex.X}, {"W_q", &ex.W_q}, {"W_k", &ex.W_k}, {"W_v", &ex.W_v}};
  for (const auto& [key, m] : inputs)
    if (m->size()) j[key] = matrix_to_json(*m);
  for (Stage s : {Stage::Q, Stage::K, Stage::V})
    if (ex.is_given(s)) j[stage_id(s)] = matrix_to_json(ex.ref(s));
  json stages = json::array();
  for (Stage s : kStages)
    stages.push_back({{"id", stage_id(s)},
                      {"title", stage_title(s)},
                      {"given", ex.is_given(s)},
                      {"decimals", ex.decimals_of(s)},
                      {"rows", ex.rows(s)},
                      {"cols", ex.cols(s)},
                      {"answer", matrix_to_json(ex.ref(s))}});
  j["stages"] = std::move(stages);
  json remarks = json::array();
  for (const Remark& r : ex.remarks) {
    json rj = {{"id", r.id},
               {"stage", stage_id(r.stage)},
               {"kind", r.kind == RemarkKind::Slip ? "slip" : "info"},
               {"text", r.text}};
    if (r.printed.size()) rj["printed"] = cells_json(r.printed);
    json related = json::array();
    for (DiagnosisKind k : r.related) related.push_back(diagnosis_id(k));
    rj["related"] = std::move(related);
    remarks.push_back(std::move(rj));
  }
  j["remarks"] = std::move(remarks);
  return j;
}

std::string exercise_from_json(const json& j, Exercise& out) {
  try {
    return exercise_from_json_impl(j, out);
  } catch (const std::exception& e) {
    return std::string("exercise: ") + e.what();
  }
}

json answers_to_json(const Exercise& ex, const Answers& answers) {
  json j = json::object();
  for (Stage s : kStages) {
    const size_t k = static_cast<size_t>(stage_index(s));
    if (ex.is_given(s) || answers.rows[k] != ex.rows(s) || answers.cols[k] != ex.cols(s)) continue;
    json rows = json::array();
    for (int i = 0; i < ex.rows(s); ++i) {
      json row = json::array();
      for (int c = 0; c < ex.cols(s); ++c) {
        const std::string& t = answers.at(s, i, c);
        row.push_back(t.empty() ? json(nullptr) : json(t));
      }
      rows.push_back(std::move(row));
    }
    j[stage_id(s)] = std::move(rows);
  }
  return j;
}

std::string answers_from_json(const json& j, const Exercise& ex, Answers& out) {
  try {
    return answers_from_json_impl(j, ex, out);
  } catch (const std::exception& e) {
    return std::string("answers: ") + e.what();
  }
}

json worksheet_to_json(const Exercise& ex, const Answers& answers) {
  return {{"format", "attnplay-worksheet"},
          {"version", 1},
          {"exercise", exercise_to_json(ex)},
          {"answers", answers_to_json(ex, answers)}};
}

std::string parse_worksheet(const std::string& text, Exercise& ex, Answers& answers) {
  json j;
  std::string err = parse_json_text(text, kMaxWorksheetBytes, "the worksheet", j);
  if (!err.empty()) return err;
  if (!j.is_object()) return "a worksheet is a JSON object";
  for (const auto& [key, value] : j.items())
    if (key != "format" && key != "version" && key != "exercise" && key != "answers")
      return "unknown key \"" + key + "\" in the worksheet";
  if (!j.contains("format") || j.at("format") != "attnplay-worksheet")
    return "not a worksheet: \"format\" must be \"attnplay-worksheet\"";
  if (!j.contains("version") || j.at("version") != 1) return "unsupported worksheet version (this build reads 1)";
  if (!j.contains("exercise")) return "the worksheet has no \"exercise\"";
  Exercise e;
  err = exercise_from_json(j.at("exercise"), e);
  if (!err.empty()) return "exercise: " + err;
  Answers a = blank_answers(e);
  if (j.contains("answers")) {
    err = answers_from_json(j.at("answers"), e, a);
    if (!err.empty()) return err;
  }
  ex = std::move(e);
  answers = std::move(a);
  return "";
}

json grade_to_json(const Exercise& ex, const Grade& g) {
  json stages = json::array();
  for (const StageGrade& sg : g.stages) {
    json rows = json::array();
    for (int i = 0; i < sg.rows; ++i) {
      json row = json::array();
      for (int c = 0; c < sg.cols; ++c) {
        const CellGrade& cg = sg.at(i, c);
        json cj = {{"status", cell_status_id(cg.status)},
                   {"expected", cg.expected},
                   {"expected_own", cg.expected_own},
                   {"tolerance", cg.tolerance}};
        if (cg.status != CellStatus::Empty && cg.status != CellStatus::Invalid) cj["value"] = cg.value;
        if (cg.status == CellStatus::Invalid) {
          cj["issue"] = input_issue_id(cg.issue);
          cj["message"] = cg.message;
        }
        cj["diagnosis"] = cg.diagnosis >= 0 ? json(cg.diagnosis) : json(nullptr);
        row.push_back(std::move(cj));
      }
      rows.push_back(std::move(row));
    }
    stages.push_back({{"id", stage_id(sg.stage)}, {"given", sg.given}, {"cells", std::move(rows)}});
  }
  json diagnoses = json::array();
  for (const Diagnosis& d : g.diagnoses) {
    json cells = json::array(), sources = json::array();
    for (Cell c : d.cells) cells.push_back(cell_json(c));
    for (const auto& [s, c] : d.sources) sources.push_back({{"stage", stage_id(s)}, {"cell", cell_json(c)}});
    json dj = {{"kind", diagnosis_id(d.kind)},
               {"stage", stage_id(d.stage)},
               {"cells", std::move(cells)},
               {"sources", std::move(sources)},
               {"remark", d.remark >= 0 ? json(ex.remarks[static_cast<size_t>(d.remark)].id) : json(nullptr)},
               {"params", d.params},
               {"message", d.message}};
    if (!d.alternatives.empty()) {  // SameNumbers: each mistake that gives these numbers
      json alternatives = json::array();
      for (const Alternative& a : d.alternatives)
        alternatives.push_back({{"kind", diagnosis_id(a.kind)}, {"params", a.params}});
      dj["alternatives"] = std::move(alternatives);
    }
    diagnoses.push_back(std::move(dj));
  }
  return {
      {"complete", g.complete}, {"all_correct", g.all_correct}, {"mistakes", g.mistakes},           {"asked", g.asked},
      {"answered", g.answered}, {"stages", std::move(stages)},  {"diagnoses", std::move(diagnoses)}};
}

json breakdown_to_json(const CellBreakdown& b) {
  json terms = json::array();
  for (const Term& t : b.terms)
    terms.push_back({{"a", t.a}, {"b", t.b}, {"product", t.product}, {"a_label", t.a_label}, {"b_label", t.b_label}});
  json j = {{"stage", stage_id(b.stage)},
            {"row", b.row},
            {"col", b.col},
            {"kind", kBreakdownKinds[static_cast<int>(b.kind)]},
            {"value", b.value},
            {"text", b.text}};
  if (!b.terms.empty()) j["terms"] = std::move(terms);
  if (b.kind == BreakdownKind::Scale) {
    j["score"] = b.score;
    j["d_k"] = b.d_k;
    j["sqrt_d_k"] = b.sqrt_d_k;
  }
  if (b.kind == BreakdownKind::Softmax) {
    j["row_logits"] = b.row_logits;
    j["row_exps"] = b.row_exps;
    j["shift"] = b.shift;
    j["exp_sum"] = b.exp_sum;
  }
  return j;
}

}  // namespace attn::exercise
