// json_codec.cpp — strict scenario decoding (every bad input named) and result/variance encoding.
#include "core/json_codec.h"

#include <cfloat>
#include <cmath>
#include <exception>
#include <initializer_list>
#include <string>
#include <utility>

#include "core/attention/attention.h"

namespace attn {

using nlohmann::json;

namespace {

constexpr size_t kMaxTokenBytes = 256;
// A label per query or key row, so as many as a matrix may have rows. (The app's random-mode sentence
// has its own, shorter limit.)
constexpr size_t kMaxLabels = static_cast<size_t>(kMaxDim);

std::string quoted(const std::string& s) {
  // Echo user strings back shortened, so one hostile key can't flood the error line.
  if (s.size() <= 64) return "\"" + s + "\"";
  size_t cut = 64;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // keep UTF-8 whole
  std::string t = s.substr(0, cut) + "...";
  return "\"" + t + "\"";
}

std::string at(const char* name, size_t i) { return std::string(name) + "[" + std::to_string(i) + "]"; }
std::string at(const char* name, size_t i, size_t k) { return at(name, i) + "[" + std::to_string(k) + "]"; }

// Reads one JSON number as a float, rejecting what a float cannot hold instead of turning it into inf.
std::string number_to_float(const json& v, const std::string& where, float& out) {
  if (!v.is_number()) return where + " must be a number, got " + v.type_name();
  const double d = v.get<double>();
  if (!std::isfinite(d)) return where + " is not a finite number";
  if (std::fabs(d) > static_cast<double>(FLT_MAX)) return where + " overflows float (|x| > 3.4e38)";
  out = static_cast<float>(d);
  return "";
}

std::string limit_error(const std::string& what, size_t n, const char* unit) {
  return what + " has " + std::to_string(n) + " " + unit + ", over the limit of " + std::to_string(kMaxDim);
}

// Mask entries may be written as booleans or as 0/1, the way people paint them by hand.
std::string flag_from_json(const json& v, const std::string& where, bool& out) {
  if (v.is_boolean()) {
    out = v.get<bool>();
    return "";
  }
  if (v.is_number()) {
    const double d = v.get<double>();
    if (d == 0.0 || d == 1.0) {
      out = d == 1.0;
      return "";
    }
  }
  return where + " must be true/false or 0/1 (one of 0, 1, true or false)";
}

std::string vector_from_json(const json& j, const char* name, Vec& out) {
  if (!j.is_array()) return std::string(name) + " must be an array of numbers, got " + j.type_name();
  if (j.empty()) return std::string(name) + " is empty";
  if (j.size() > static_cast<size_t>(kMaxDim)) return limit_error(name, j.size(), "entries");
  Vec v(static_cast<Eigen::Index>(j.size()));
  for (size_t i = 0; i < j.size(); ++i) {
    float f = 0;
    std::string err = number_to_float(j[i], at(name, i), f);
    if (!err.empty()) return err;
    v(static_cast<Eigen::Index>(i)) = f;
  }
  out = std::move(v);
  return "";
}

}  // namespace

std::string flags_from_json(const json& j, const char* name, std::vector<bool>& out) {
  if (!j.is_array()) return std::string(name) + " must be an array of booleans, got " + j.type_name();
  if (j.size() > static_cast<size_t>(kMaxDim)) return limit_error(name, j.size(), "entries");
  std::vector<bool> v(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    bool b = false;
    std::string err = flag_from_json(j[i], at(name, i), b);
    if (!err.empty()) return err;
    v[i] = b;
  }
  out = std::move(v);
  return "";
}

// Shared shape checks for numeric and mask matrices: array of equal-length, non-empty arrays.
std::string check_matrix_shape(const json& j, const char* name, size_t& rows, size_t& cols) {
  if (!j.is_array()) return std::string(name) + " must be a matrix (an array of rows), got " + j.type_name();
  if (j.empty()) return std::string(name) + " is an empty matrix";
  if (!j[0].is_array())
    return std::string(name) + " must be a matrix (an array of rows), not a single vector: write [[...]]";
  if (j.size() > static_cast<size_t>(kMaxDim)) return limit_error(name, j.size(), "rows");
  rows = j.size();
  cols = j[0].size();
  if (cols == 0) return std::string(name) + " is an empty matrix (row 0 has no entries)";
  if (cols > static_cast<size_t>(kMaxDim)) return limit_error(name, cols, "columns");
  for (size_t i = 1; i < rows; ++i) {
    if (!j[i].is_array()) return at(name, i) + " must be a row (an array), got " + j[i].type_name();
    if (j[i].size() != cols)
      return std::string(name) + " is ragged: row " + std::to_string(i) + " has " + std::to_string(j[i].size()) +
             " entries, row 0 has " + std::to_string(cols);
  }
  return "";
}

std::string mask_from_json(const json& j, const char* name, MaskMat& out) {
  size_t rows = 0, cols = 0;
  std::string err = check_matrix_shape(j, name, rows, cols);
  if (!err.empty()) return err;
  MaskMat m(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  for (size_t i = 0; i < rows; ++i)
    for (size_t k = 0; k < cols; ++k) {
      bool b = false;
      err = flag_from_json(j[i][k], at(name, i, k), b);
      if (!err.empty()) return err;
      m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k)) = b ? 1 : 0;
    }
  out = std::move(m);
  return "";
}

json mask_to_json(const MaskMat& m) {
  json rows = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    json row = json::array();
    for (Eigen::Index k = 0; k < m.cols(); ++k) row.push_back(m(i, k) ? 1 : 0);
    rows.push_back(std::move(row));
  }
  return rows;
}

const char* mask_kind_name(MaskKind k) { return k == MaskKind::Causal ? "causal" : "none"; }
const char* positional_name(PositionalEncoding p) {
  return p == PositionalEncoding::Sinusoidal ? "sinusoidal" : "none";
}

namespace {
std::string strings_from_json(const json& j, const char* name, std::vector<std::string>& out) {
  if (!j.is_array()) return std::string(name) + " must be an array of strings, got " + j.type_name();
  if (j.size() > kMaxLabels)
    return std::string(name) + " has " + std::to_string(j.size()) + " entries, over the limit of " +
           std::to_string(kMaxLabels);
  std::vector<std::string> v;
  v.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_string()) return at(name, i) + " must be a string, got " + j[i].type_name();
    const auto& s = j[i].get_ref<const std::string&>();
    if (s.size() > kMaxTokenBytes)
      return at(name, i) + " is " + std::to_string(s.size()) + " bytes, over the limit of " +
             std::to_string(kMaxTokenBytes);
    v.push_back(s);
  }
  out = std::move(v);
  return "";
}

std::string enum_error(const char* name, const json& v, const char* allowed) {
  if (!v.is_string()) return std::string(name) + " must be a string (" + allowed + "), got " + v.type_name();
  return "unknown " + std::string(name) + " " + quoted(v.get<std::string>()) + " (expected " + allowed + ")";
}

// One decoder for every enum: its names are listed once, and the message lists them ("a", "b" or "c").
template <typename E>
std::string enum_from_json(const json& v, const char* name, std::initializer_list<std::pair<const char*, E>> names,
                           E& out) {
  const std::string text = v.is_string() ? v.get<std::string>() : "";
  std::string allowed;
  size_t k = 0;
  for (const auto& [word, value] : names) {
    if (v.is_string() && text == word) {
      out = value;
      return "";
    }
    allowed += (k == 0 ? "" : k + 1 == names.size() ? " or " : ", ") + quoted(word);
    ++k;
  }
  return enum_error(name, v, allowed.c_str());
}

}  // namespace

std::string mask_kind_from_json(const json& v, const char* name, MaskKind& out) {
  return enum_from_json(v, name, {{"none", MaskKind::None}, {"causal", MaskKind::Causal}}, out);
}

std::string positional_from_json(const json& v, const char* name, PositionalEncoding& out) {
  return enum_from_json(v, name, {{"none", PositionalEncoding::None}, {"sinusoidal", PositionalEncoding::Sinusoidal}},
                        out);
}

int json_nesting_depth(const std::string& text) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

namespace {

// The bracket depth is checked before the real parse, so a hostile "[[[[…" is refused in O(n)
// without building (or later destroying) a deep tree.
std::string check_depth(const std::string& text) {
  if (json_nesting_depth(text) > kMaxJsonDepth)
    return "JSON nesting is deeper than the limit of " + std::to_string(kMaxJsonDepth) + " levels";
  return "";
}

// nlohmann prefixes "[json.exception.parse_error.101] "; the id means nothing to a user.
std::string strip_exception_id(const std::string& what) {
  if (!what.empty() && what[0] == '[') {
    size_t close = what.find("] ");
    if (close != std::string::npos) return what.substr(close + 2);
  }
  return what;
}

// Non-finite floats are mapped to null explicitly (nlohmann would do it silently); `bad`
// counts the ones that are not expected (-inf is expected only in masked logits).
json matrix_json_counting(const Mat& m, bool neg_inf_ok, size_t& bad) {
  json rows = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    json row = json::array();
    for (Eigen::Index k = 0; k < m.cols(); ++k) {
      const float x = m(i, k);
      if (std::isfinite(x)) {
        row.push_back(static_cast<double>(x));
      } else {
        if (!(neg_inf_ok && std::isinf(x) && x < 0)) ++bad;
        row.push_back(nullptr);
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

json vector_json_counting(const Vec& v, size_t& bad) {
  json a = json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    const float x = v(i);
    if (std::isfinite(x)) {
      a.push_back(static_cast<double>(x));
    } else {
      ++bad;
      a.push_back(nullptr);
    }
  }
  return a;
}

json finite_or_null(double x, size_t& bad) {
  if (std::isfinite(x)) return x;
  ++bad;
  return nullptr;
}

json head_json(const HeadResult& h, size_t& bad) {
  json j = json::object();
  j["Q"] = matrix_json_counting(h.Q, false, bad);
  j["K"] = matrix_json_counting(h.K, false, bad);
  j["V"] = matrix_json_counting(h.V, false, bad);
  j["scores"] = matrix_json_counting(h.scores, false, bad);
  j["logits"] = matrix_json_counting(h.logits, true, bad);
  j["weights"] = matrix_json_counting(h.weights, false, bad);
  j["output"] = matrix_json_counting(h.output, false, bad);
  j["entropy"] = vector_json_counting(h.entropy, bad);
  j["max_weight"] = vector_json_counting(h.max_weight, bad);
  j["jacobian_norm"] = vector_json_counting(h.jacobian_norm, bad);
  json masked = json::array();
  for (size_t i = 0; i < h.row_fully_masked.size(); ++i)
    if (h.row_fully_masked[i]) masked.push_back(i);
  j["fully_masked_rows"] = std::move(masked);
  return j;
}

json histogram_json(const Histogram& h, size_t& bad) {
  return json{{"lo", finite_or_null(h.lo, bad)}, {"hi", finite_or_null(h.hi, bad)}, {"counts", h.counts}};
}

}  // namespace

const std::vector<ScenarioKeyInfo>& scenario_key_table() {
  static const std::vector<ScenarioKeyInfo> table = {{"X", true},
                                                     {"W_q", true},
                                                     {"W_k", true},
                                                     {"W_v", true},
                                                     {"W_o", true},
                                                     {"Q", true},
                                                     {"K", true},
                                                     {"V", true},
                                                     {"memory", true},
                                                     {"W_a", true},
                                                     {"U_a", true},
                                                     {"v_a", false},
                                                     {"score", false},
                                                     {"scale", false},
                                                     {"temperature", false},
                                                     {"mask", false},
                                                     {"key_padding", false},
                                                     {"mask_cells", false},
                                                     {"heads", false},
                                                     {"positional_encoding", false},
                                                     {"tokens", false},
                                                     {"memory_tokens", false}};
  return table;
}

namespace {

std::string unknown_key_error(const json& j) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool known = false;
    for (const ScenarioKeyInfo& k : scenario_key_table()) known = known || it.key() == k.name;
    if (!known) return "unknown key " + quoted(it.key());
  }
  return "";
}

// Optional fields: absent or null both mean "not given" (the web app may send null).
bool given(const json& j, const char* key) { return j.contains(key) && !j.at(key).is_null(); }

// X, the projections, Q, K, V, memory and the score parameters.
std::string matrices_from_json(const json& j, Scenario& s) {
  struct MatField {
    const char* key;
    std::optional<Mat>* dst;
  };
  const MatField mats[] = {{"X", &s.X},           {"W_q", &s.W_q}, {"W_k", &s.W_k}, {"W_v", &s.W_v},
                           {"W_o", &s.W_o},       {"Q", &s.Q},     {"K", &s.K},     {"V", &s.V},
                           {"memory", &s.memory}, {"W_a", &s.W_a}, {"U_a", &s.U_a}};
  for (const MatField& f : mats) {
    if (!given(j, f.key)) continue;
    Mat m;
    std::string err = matrix_from_json(j.at(f.key), f.key, m);
    if (!err.empty()) return err;
    *f.dst = std::move(m);
  }
  if (given(j, "v_a")) {
    Vec v;
    std::string err = vector_from_json(j.at("v_a"), "v_a", v);
    if (!err.empty()) return err;
    s.v_a = std::move(v);
  }
  return "";
}

std::string score_from_json(const json& v, ScoreKind& out) {
  return enum_from_json(
      v, "score", {{"dot", ScoreKind::Dot}, {"general", ScoreKind::General}, {"additive", ScoreKind::Additive}}, out);
}

std::string scale_from_json(const json& v, bool& out) {
  if (!v.is_boolean()) return std::string("scale must be true or false, got ") + v.type_name();
  out = v.get<bool>();
  return "";
}

std::string temperature_from_json(const json& v, double& out) {
  if (!v.is_number()) return std::string("temperature must be a number, got ") + v.type_name();
  const double t = v.get<double>();
  if (!std::isfinite(t)) return "temperature is not a finite number";
  if (t < 0) return "temperature must be >= 0 (got " + v.dump() + ")";
  out = t;
  return "";
}

std::string heads_from_json(const json& v, int& out) {
  if (!v.is_number()) return std::string("heads must be an integer, got ") + v.type_name();
  const double h = v.get<double>();
  if (!std::isfinite(h) || h != std::floor(h)) return "heads must be an integer (got " + v.dump() + ")";
  if (h < 1) return "heads must be >= 1 (got " + v.dump() + ")";
  if (h > kMaxHeads) return "heads is " + v.dump() + ", over the limit of " + std::to_string(kMaxHeads);
  out = static_cast<int>(h);
  return "";
}

std::string mask_cells_from_json(const json& v, std::optional<MaskMat>& out) {
  MaskMat m;
  std::string err = mask_from_json(v, "mask_cells", m);
  if (!err.empty()) return err;
  out = std::move(m);
  return "";
}

// Every other field, read in this order: the first bad one is the error reported.
std::string settings_from_json(const json& j, Scenario& s) {
  std::string err;
  if (given(j, "score")) err = score_from_json(j.at("score"), s.score);
  if (err.empty() && given(j, "scale")) err = scale_from_json(j.at("scale"), s.scale);
  if (err.empty() && given(j, "temperature")) err = temperature_from_json(j.at("temperature"), s.temperature);
  if (err.empty() && given(j, "mask")) err = mask_kind_from_json(j.at("mask"), "mask", s.mask);
  if (err.empty() && given(j, "key_padding")) err = flags_from_json(j.at("key_padding"), "key_padding", s.key_padding);
  if (err.empty() && given(j, "mask_cells")) err = mask_cells_from_json(j.at("mask_cells"), s.mask_cells);
  if (err.empty() && given(j, "heads")) err = heads_from_json(j.at("heads"), s.heads);
  if (err.empty() && given(j, "positional_encoding"))
    err = positional_from_json(j.at("positional_encoding"), "positional_encoding", s.positional_encoding);
  if (err.empty() && given(j, "tokens")) err = strings_from_json(j.at("tokens"), "tokens", s.tokens);
  if (err.empty() && given(j, "memory_tokens"))
    err = strings_from_json(j.at("memory_tokens"), "memory_tokens", s.memory_tokens);
  return err;
}

std::string scenario_from_json_impl(const json& j, Scenario& out) {
  if (!j.is_object()) return std::string("the scenario must be a JSON object, got ") + j.type_name();
  std::string err = unknown_key_error(j);
  if (!err.empty()) return err;
  Scenario s;
  err = matrices_from_json(j, s);
  if (err.empty()) err = settings_from_json(j, s);
  // Shapes, heads dividing the width, score parameters: one set of rules for every front end.
  if (err.empty()) err = validate(s);
  if (!err.empty()) return err;
  out = std::move(s);
  return "";
}

}  // namespace

std::string matrix_from_json(const json& j, const char* name, Mat& out) {
  try {
    size_t rows = 0, cols = 0;
    std::string err = check_matrix_shape(j, name, rows, cols);
    if (!err.empty()) return err;
    Mat m(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
    for (size_t i = 0; i < rows; ++i)
      for (size_t k = 0; k < cols; ++k) {
        float f = 0;
        err = number_to_float(j[i][k], at(name, i, k), f);
        if (!err.empty()) return err;
        m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k)) = f;
      }
    out = std::move(m);
    return "";
  } catch (const std::exception& e) {
    return std::string(name) + ": " + strip_exception_id(e.what());
  } catch (...) {
    return std::string(name) + ": unknown error";
  }
}

std::string scenario_from_json(const json& j, Scenario& out) {
  try {
    return scenario_from_json_impl(j, out);
  } catch (const std::bad_alloc&) {
    return "out of memory while reading the scenario";
  } catch (const std::exception& e) {
    return strip_exception_id(e.what());
  } catch (...) {
    return "unknown error while reading the scenario";
  }
}

std::string parse_json_text(const std::string& text, size_t max_bytes, const std::string& what, json& out) {
  if (text.size() > max_bytes)
    return what + " is " + std::to_string(text.size()) + " bytes, over the limit of " + std::to_string(max_bytes) +
           " bytes";
  std::string err = check_depth(text);
  if (!err.empty()) return err;
  try {
    out = json::parse(text);
  } catch (const json::parse_error& e) {
    return "malformed JSON: " + strip_exception_id(e.what());
  } catch (const json::out_of_range& e) {
    // Literals beyond double (1e400) are refused by the parser itself.
    return strip_exception_id(e.what()) + " (numbers must fit in a float, |x| <= 3.4e38)";
  } catch (const std::bad_alloc&) {
    return "out of memory while reading " + what;
  } catch (const std::exception& e) {
    return strip_exception_id(e.what());
  }
  return "";
}

std::string parse_scenario(const std::string& text, Scenario& out) {
  json j;
  const std::string err = parse_json_text(text, kMaxJsonBytes, "input", j);
  if (!err.empty()) return err;
  return scenario_from_json(j, out);  // its own guard against anything the decoders throw
}

json matrix_to_json(const Mat& m) {
  try {
    size_t bad = 0;
    return matrix_json_counting(m, false, bad);
  } catch (...) {
    return nullptr;
  }
}

json scenario_to_json(const Scenario& s) {
  try {
    json j = json::object();
    auto put = [&j](const char* key, const std::optional<Mat>& m) {
      if (m) j[key] = matrix_to_json(*m);
    };
    put("X", s.X);
    put("W_q", s.W_q);
    put("W_k", s.W_k);
    put("W_v", s.W_v);
    put("W_o", s.W_o);
    put("Q", s.Q);
    put("K", s.K);
    put("V", s.V);
    put("memory", s.memory);
    j["score"] = s.score == ScoreKind::Dot ? "dot" : s.score == ScoreKind::General ? "general" : "additive";
    put("W_a", s.W_a);
    put("U_a", s.U_a);
    if (s.v_a) {
      size_t bad = 0;
      j["v_a"] = vector_json_counting(*s.v_a, bad);
    }
    j["scale"] = s.scale;
    j["temperature"] = s.temperature;
    j["mask"] = mask_kind_name(s.mask);
    if (!s.key_padding.empty()) {
      json kp = json::array();
      for (bool b : s.key_padding) kp.push_back(b);
      j["key_padding"] = std::move(kp);
    }
    if (s.mask_cells) j["mask_cells"] = mask_to_json(*s.mask_cells);
    j["heads"] = s.heads;
    j["positional_encoding"] = positional_name(s.positional_encoding);
    if (!s.tokens.empty()) j["tokens"] = s.tokens;
    if (!s.memory_tokens.empty()) j["memory_tokens"] = s.memory_tokens;
    return j;
  } catch (const std::exception& e) {
    return json{{"error", strip_exception_id(e.what())}};
  } catch (...) {
    return json{{"error", "unknown error while encoding the scenario"}};
  }
}

json result_to_json(const Result& r) {
  try {
    size_t bad = 0;
    json j = json::object();
    std::vector<bool> fully_masked = r.main.row_fully_masked;
    if (r.heads.empty()) {
      j = head_json(r.main, bad);
      j["d_k"] = finite_or_null(r.d_k, bad);
      j["output"] = matrix_json_counting(r.output, false, bad);
    } else {
      j["d_k"] = finite_or_null(r.d_k, bad);
      j["Q"] = matrix_json_counting(r.main.Q, false, bad);
      j["K"] = matrix_json_counting(r.main.K, false, bad);
      j["V"] = matrix_json_counting(r.main.V, false, bad);
      j["concat"] = matrix_json_counting(r.concat, false, bad);
      j["output"] = matrix_json_counting(r.output, false, bad);
      json heads = json::array();
      for (const HeadResult& h : r.heads) {
        heads.push_back(head_json(h, bad));
        // A row is blocked by the mask, which every head shares; take the union to be safe.
        if (fully_masked.size() < h.row_fully_masked.size()) fully_masked.resize(h.row_fully_masked.size());
        for (size_t i = 0; i < h.row_fully_masked.size(); ++i)
          fully_masked[i] = fully_masked[i] || h.row_fully_masked[i];
      }
      j["heads"] = std::move(heads);
    }
    json masked = json::array();
    for (size_t i = 0; i < fully_masked.size(); ++i)
      if (fully_masked[i]) masked.push_back(i);
    j["fully_masked_rows"] = std::move(masked);
    json warnings = json::array();
    for (const std::string& w : r.warnings) warnings.push_back(w);
    if (bad > 0) warnings.push_back(std::to_string(bad) + " non-finite value(s) in the result were written as null");
    j["warnings"] = std::move(warnings);
    return j;
  } catch (const std::exception& e) {
    return json{{"error", strip_exception_id(e.what())}};
  } catch (...) {
    return json{{"error", "unknown error while encoding the result"}};
  }
}

json variance_to_json(const std::vector<VarianceRow>& rows) {
  try {
    size_t bad = 0;
    json a = json::array();
    for (const VarianceRow& r : rows) {
      a.push_back(json{{"d_k", r.d_k},
                       {"samples", r.samples},
                       {"mean_unscaled", finite_or_null(r.mean_unscaled, bad)},
                       {"var_unscaled", finite_or_null(r.var_unscaled, bad)},
                       {"mean_scaled", finite_or_null(r.mean_scaled, bad)},
                       {"var_scaled", finite_or_null(r.var_scaled, bad)},
                       {"hist_unscaled", histogram_json(r.hist_unscaled, bad)},
                       {"hist_scaled", histogram_json(r.hist_scaled, bad)}});
    }
    return a;
  } catch (const std::exception& e) {
    return json{{"error", strip_exception_id(e.what())}};
  } catch (...) {
    return json{{"error", "unknown error while encoding the variance rows"}};
  }
}

}  // namespace attn
