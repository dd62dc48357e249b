// json_codec.h — the scenario and result as JSON (the CLI's format, shared with the web API).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/attention/montecarlo.h"
#include "core/attention/scenario.h"

namespace attn {

// Limits for every decoder: input bytes and nesting depth.
constexpr size_t kMaxJsonBytes = 64u << 20;
constexpr int kMaxJsonDepth = 16;
// The deepest bracket nesting outside strings, counted in O(n) before any recursive parse, so
// hostile nesting is refused without building a deep tree.
int json_nesting_depth(const std::string& text);
// The one way untrusted text becomes JSON: at most `max_bytes` ("<what> is N bytes, over the limit of M
// bytes"), nesting checked first, then "malformed JSON: …" with the parser's reason. "" on success.
std::string parse_json_text(const std::string& text, size_t max_bytes, const std::string& what, nlohmann::json& out);

// Parses text into a scenario. Returns "" on success, else one clear reason
// (malformed JSON, non-finite or overflowing numbers, ragged/empty matrices, unknown enum
// values, sizes over the limits, nesting too deep, wrong types). `out` is untouched on error.
std::string parse_scenario(const std::string& text, Scenario& out);
std::string scenario_from_json(const nlohmann::json& j, Scenario& out);
nlohmann::json scenario_to_json(const Scenario& s);
// Every key a scenario may carry, in the codec's order; `matrix` marks the ones whose matrices make a
// scenario of one's own (the rest qualify one). The manifest lists them for the Python package.
struct ScenarioKeyInfo {
  const char* name;
  bool matrix;
};
const std::vector<ScenarioKeyInfo>& scenario_key_table();

// The result: masked logits become null; non-finite numbers never appear.
nlohmann::json result_to_json(const Result& r);
nlohmann::json variance_to_json(const std::vector<VarianceRow>& rows);

nlohmann::json matrix_to_json(const Mat& m);
// Reads a rectangular numeric matrix; "" on success.
std::string matrix_from_json(const nlohmann::json& j, const char* name, Mat& out);

// Decoders shared by the scenario and the app state (one wording for every caller); "" on success.
std::string flags_from_json(const nlohmann::json& j, const char* name, std::vector<bool>& out);
std::string mask_from_json(const nlohmann::json& j, const char* name, MaskMat& out);
nlohmann::json mask_to_json(const MaskMat& m);  // rows of 0/1
std::string mask_kind_from_json(const nlohmann::json& v, const char* name, MaskKind& out);
std::string positional_from_json(const nlohmann::json& v, const char* name, PositionalEncoding& out);
const char* mask_kind_name(MaskKind k);             // "none" | "causal"
const char* positional_name(PositionalEncoding p);  // "none" | "sinusoidal"

}  // namespace attn
