// worked_example.cpp — reads a worked example's file (data/worked-examples/<id>.json) and turns it into the note
// exercise. One description, so the preset, the exercise and the slip marks cannot drift apart.
#include "core/exercise/worked_example.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/json_codec.h"

namespace attn::exercise {

namespace {

using nlohmann::json;

std::string field_error(const std::string& where, const std::string& what) { return where + ": " + what; }

std::string read_stage(const json& j, const std::string& where, Stage& out) {
  const auto s = j.is_string() ? stage_from_id(j.get<std::string>()) : std::nullopt;
  if (!s) return field_error(where, "expected a stage (Q, K, V, scores, scaled, weights, output)");
  out = *s;
  return "";
}

std::string read_tokens(const json& j, const char* name, std::vector<std::string>& out) {
  if (!j.contains(name)) return "";
  if (!j[name].is_array()) return field_error(name, "expected a list of words");
  for (const json& t : j[name]) {
    if (!t.is_string()) return field_error(name, "expected a list of words");
    out.push_back(t.get<std::string>());
  }
  return "";
}

std::string read_remark(const json& j, const std::string& where, ExampleRemark& r) {
  if (!j.is_object() || !j.contains("name") || !j["name"].is_string())
    return field_error(where, "expected {\"name\", \"stage\", \"kind\"}");
  r.name = j["name"].get<std::string>();
  std::string err = read_stage(j.value("stage", json()), where + ".stage", r.stage);
  if (!err.empty()) return err;
  const std::string kind = j.value("kind", std::string());
  if (kind != "slip" && kind != "info") return field_error(where + ".kind", "expected \"slip\" or \"info\"");
  r.kind = kind == "slip" ? RemarkKind::Slip : RemarkKind::Info;
  for (const json& d : j.value("related", json::array())) {
    const auto k = d.is_string() ? diagnosis_from_id(d.get<std::string>()) : std::nullopt;
    if (!k) return field_error(where + ".related", "unknown diagnosis " + d.dump());
    r.related.push_back(*k);
  }
  return "";
}

std::string read_slip(const json& j, const std::string& where, ExampleSlip& s) {
  if (!j.is_object()) return field_error(where, "expected an object");
  std::string err = read_stage(j.value("stage", json()), where + ".stage", s.stage);
  if (!err.empty()) return err;
  const json cell = j.value("cell", json());
  if (!cell.is_array() || cell.size() != 2 || !cell[0].is_number_integer() || !cell[1].is_number_integer())
    return field_error(where + ".cell", "expected [row, column], counted from 0");
  s.cell = {cell[0].get<int>(), cell[1].get<int>()};
  if (!j.contains("printed") || !j["printed"].is_string())
    return field_error(where + ".printed", "expected the number as printed, as a string");
  if (!j.contains("correct") || !j["correct"].is_number()) return field_error(where + ".correct", "expected a number");
  s.printed = j["printed"].get<std::string>();
  char* end = nullptr;
  std::strtod(s.printed.c_str(), &end);
  if (s.printed.empty() || *end) return field_error(where + ".printed", "\"" + s.printed + "\" is not a number");
  s.correct = j["correct"].get<double>();
  s.decimals = j.value("decimals", 2);
  s.remark = j.value("remark", std::string());
  s.mark = j.value("mark", true);
  return "";
}

std::string read_matrices(const json& j, WorkedExample& w) {
  const std::pair<const char*, Mat*> inputs[] = {{"X", &w.X}, {"W_Q", &w.W_q}, {"W_K", &w.W_k}, {"W_V", &w.W_v}};
  for (const auto& [name, m] : inputs)
    if (j.contains(name)) {
      std::string err = matrix_from_json(j[name], name, *m);
      if (!err.empty()) return err;
    }
  // "given": {"V": matrix} when the note prints its own numbers for a stage, or ["Q", "K", "V"] when it hands
  // the learner X·W ready-made (the article's identity W's).
  const json given = j.value("given", json::object());
  if (given.is_array()) {
    for (const json& g : given) {
      Stage s = Stage::Q;
      std::string err = read_stage(g, "given", s);
      if (!err.empty() || (s != Stage::Q && s != Stage::K && s != Stage::V))
        return field_error("given", "only Q, K and V can be given");
      w.given_as_computed.push_back(s);
    }
    return "";
  }
  if (!given.is_object()) return field_error("given", "expected {\"Q\"|\"K\"|\"V\": matrix} or [\"Q\", \"K\", \"V\"]");
  for (const auto& [key, value] : given.items()) {
    Mat* m = key == "Q" ? &w.Q : key == "K" ? &w.K : key == "V" ? &w.V : nullptr;
    if (!m) return field_error("given." + key, "only Q, K and V can be given");
    std::string err = matrix_from_json(value, ("given." + key).c_str(), *m);
    if (!err.empty()) return err;
  }
  return "";
}

std::string read_lists(const json& j, WorkedExample& w) {
  const json remarks = j.value("remarks", json::array()), slips = j.value("slips", json::array());
  if (!remarks.is_array()) return field_error("remarks", "expected a list");
  if (!slips.is_array()) return field_error("slips", "expected a list");
  for (size_t i = 0; i < remarks.size(); ++i) {
    w.remarks.emplace_back();
    std::string err = read_remark(remarks[i], "remarks[" + std::to_string(i) + "]", w.remarks.back());
    if (!err.empty()) return err;
  }
  for (size_t i = 0; i < slips.size(); ++i) {
    ExampleSlip s;
    const std::string where = "slips[" + std::to_string(i) + "]";
    std::string err = read_slip(slips[i], where, s);
    if (!err.empty()) return err;
    bool known = false;
    for (const ExampleRemark& r : w.remarks) known = known || r.name == s.remark;
    if (!known) return field_error(where + ".remark", "no remark named \"" + s.remark + "\"");
    w.slips.push_back(std::move(s));
  }
  return "";
}

// A note's projection that is left out is the identity (the article's W's): Q = X.
Mat or_identity(const Mat& w, const Mat& x) { return w.size() || !x.size() ? w : Mat::Identity(x.cols(), x.cols()); }

// Whether a given stage is what X·W computes (then W stays in the exercise, as the note gives both).
bool agrees(const Mat& given, const Mat& x, const Mat& w) {
  if (!given.size() || !x.size()) return true;
  return x.cols() == w.rows() && given.rows() == x.rows() && given.cols() == w.cols() &&
         (x * w - given).cwiseAbs().maxCoeff() < 1e-6f;
}

std::string parse_object(const json& j, WorkedExample& out);

}  // namespace

std::string parse_worked_example(const std::string& text, WorkedExample& out) {
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return "worked example: not a JSON object";
  try {
    return parse_object(j, out);
  } catch (const json::exception& e) {  // a field of the wrong type read by value()
    return std::string("worked example: ") + e.what();
  }
}

namespace {
std::string parse_object(const json& j, WorkedExample& out) {
  WorkedExample w;
  for (const char* key : {"id", "preset"})
    if (!j.contains(key) || !j[key].is_string() || j[key].get<std::string>().empty())
      return field_error(key, "expected a non-empty string");
  w.spec.id = j["id"].get<std::string>();
  w.preset = j["preset"].get<std::string>();
  const std::string by = j.value("printed_by", std::string("note"));
  if (by != "note" && by != "article") return field_error("printed_by", "expected \"note\" or \"article\"");
  w.by_article = by == "article";
  w.order = j.value("order", 0);
  std::string err = read_tokens(j, "tokens", w.spec.query_tokens);
  if (err.empty()) err = read_tokens(j, "key_tokens", w.spec.key_tokens);
  if (err.empty()) err = read_matrices(j, w);
  if (err.empty()) err = read_lists(j, w);
  if (!err.empty()) return w.spec.id + ": " + err;
  if (w.spec.key_tokens.empty()) w.spec.key_tokens = w.spec.query_tokens;
  w.spec.X = w.X;
  const std::pair<Mat*, const Mat*> proj[] = {{&w.spec.W_q, &w.W_q}, {&w.spec.W_k, &w.W_k}, {&w.spec.W_v, &w.W_v}};
  const Mat* given[] = {&w.Q, &w.K, &w.V};
  const Stage stages[] = {Stage::Q, Stage::K, Stage::V};
  Mat* spec_given[] = {&w.spec.Q, &w.spec.K, &w.spec.V};
  for (size_t k = 0; k < 3; ++k) {
    const Mat wk = or_identity(*proj[k].second, w.X);
    if (agrees(*given[k], w.X, wk)) *proj[k].first = wk;
    *spec_given[k] = *given[k];
    const auto& g = w.given_as_computed;
    if (std::find(g.begin(), g.end(), stages[k]) != g.end()) {
      if (!w.X.size() || w.X.cols() != wk.rows())
        return w.spec.id + ": given " + stage_id(stages[k]) + " needs X and its W";
      *spec_given[k] = w.X * wk;
    }
  }
  Exercise check;
  err = make_exercise(w.spec, check);
  if (!err.empty()) return w.spec.id + ": " + err;
  for (const ExampleSlip& s : w.slips)
    if (s.cell.row < 0 || s.cell.col < 0 || s.cell.row >= check.rows(s.stage) || s.cell.col >= check.cols(s.stage))
      return w.spec.id + ": slip cell (" + std::to_string(s.cell.row) + ", " + std::to_string(s.cell.col) +
             ") is outside " + stage_id(s.stage);
  out = std::move(w);
  return "";
}
}  // namespace

const std::vector<WorkedExample>& worked_examples() {
  static const std::vector<WorkedExample> list = [] {
    std::vector<WorkedExample> all;
    for (const DataFile* f = worked_example_files_begin(); f != worked_example_files_end(); ++f) {
      WorkedExample w;
      // The files are checked by tests/unit/test_worked_examples.cpp; a broken one is left out, not fatal.
      if (parse_worked_example(std::string(f->data, f->size), w).empty()) all.push_back(std::move(w));
    }
    // Menus list the examples by their "order" (file name on a tie), so a new file can choose its place.
    std::stable_sort(all.begin(), all.end(),
                     [](const WorkedExample& a, const WorkedExample& b) { return a.order < b.order; });
    return all;
  }();
  return list;
}

const WorkedExample* find_worked_example(const std::string& id) {
  for (const WorkedExample& w : worked_examples())
    if (w.spec.id == id) return &w;
  return nullptr;
}

namespace {
ExampleWords g_words = nullptr;
std::string words(const std::string& key) { return g_words ? g_words(key) : key; }
}  // namespace

void set_example_words(ExampleWords w) { g_words = w; }

std::string exercise_of(const WorkedExample& w, Exercise& out) {
  Exercise ex;
  ExerciseSpec spec = w.spec;
  spec.title = words("worksheet.note." + w.spec.id + ".title");
  spec.source = words("worksheet.note." + w.spec.id + ".source");
  std::string err = make_exercise(spec, ex);
  if (!err.empty()) return err;
  for (const ExampleRemark& r : w.remarks) {
    Mat printed;
    for (const ExampleSlip& s : w.slips) {
      if (s.remark != r.name || s.stage != r.stage || ex.is_given(s.stage)) continue;
      if (!printed.size()) printed = Mat::Constant(ex.rows(r.stage), ex.cols(r.stage), std::nanf(""));
      printed(s.cell.row, s.cell.col) = static_cast<float>(std::strtod(s.printed.c_str(), nullptr));
    }
    ex.remarks.push_back(Remark{w.spec.id + "/" + r.name, r.stage, r.kind, words("remark." + w.spec.id + "." + r.name),
                                std::move(printed), r.related});
  }
  ex.origin = Origin::Note;
  out = std::move(ex);
  return "";
}

}  // namespace attn::exercise
