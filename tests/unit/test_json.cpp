// test_json.cpp — the JSON codec: exact round trips, one test per class of bad input, null-for-masked output.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <limits>
#include <string>

#include "core/attention/attention.h"
#include "core/json_codec.h"

using attn::MaskMat;
using attn::Mat;
using attn::Scenario;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using nlohmann::json;

namespace {

Mat mat(int r, int c, float seed) {
  Mat m(r, c);
  for (int i = 0; i < r; ++i)
    for (int k = 0; k < c; ++k) m(i, k) = std::sin(seed + 1.37f * static_cast<float>(i * c + k)) / 3.0f;
  return m;
}

// Optional matrices must match in presence and bit-for-bit in value.
void require_same(const std::optional<Mat>& a, const std::optional<Mat>& b, const char* name) {
  INFO(name);
  REQUIRE(a.has_value() == b.has_value());
  if (!a) return;
  REQUIRE(a->rows() == b->rows());
  REQUIRE(a->cols() == b->cols());
  for (Eigen::Index i = 0; i < a->size(); ++i) REQUIRE(a->data()[i] == b->data()[i]);
}

void require_same(const Scenario& a, const Scenario& b) {
  require_same(a.X, b.X, "X");
  require_same(a.W_q, b.W_q, "W_q");
  require_same(a.W_k, b.W_k, "W_k");
  require_same(a.W_v, b.W_v, "W_v");
  require_same(a.W_o, b.W_o, "W_o");
  require_same(a.Q, b.Q, "Q");
  require_same(a.K, b.K, "K");
  require_same(a.V, b.V, "V");
  require_same(a.memory, b.memory, "memory");
  require_same(a.W_a, b.W_a, "W_a");
  require_same(a.U_a, b.U_a, "U_a");
  REQUIRE(a.v_a.has_value() == b.v_a.has_value());
  if (a.v_a) REQUIRE(*a.v_a == *b.v_a);
  REQUIRE(a.score == b.score);
  REQUIRE(a.scale == b.scale);
  REQUIRE(a.temperature == b.temperature);
  REQUIRE(a.mask == b.mask);
  REQUIRE(a.key_padding == b.key_padding);
  REQUIRE(a.mask_cells.has_value() == b.mask_cells.has_value());
  if (a.mask_cells) REQUIRE(*a.mask_cells == *b.mask_cells);
  REQUIRE(a.heads == b.heads);
  REQUIRE(a.positional_encoding == b.positional_encoding);
  REQUIRE(a.tokens == b.tokens);
  REQUIRE(a.memory_tokens == b.memory_tokens);
}

// Serialises, prints, re-parses through the text entry point and checks nothing changed.
void round_trip(const Scenario& s) {
  REQUIRE(attn::validate(s) == "");
  const std::string text = attn::scenario_to_json(s).dump();
  Scenario back;
  const std::string err = attn::parse_scenario(text, back);
  INFO(text);
  REQUIRE(err == "");
  require_same(s, back);
}

std::string parse_error(const std::string& text) {
  Scenario s;
  return attn::parse_scenario(text, s);
}

const char* kSeed = R"({"Q": [[1,0,1,0]], "K": [[1,0,1,0],[0,1,0,1]], "V": [[5,0,0],[0,3,0]]})";

std::string nested(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

}  // namespace

TEST_CASE("json: a self-attention scenario round-trips exactly", "[json]") {
  Scenario s;
  s.X = mat(3, 4, 0.1f);
  (*s.X)(0, 0) = FLT_MAX;  // the largest float survives the double detour
  (*s.X)(0, 1) = -FLT_MAX;
  (*s.X)(1, 0) = std::numeric_limits<float>::denorm_min();
  (*s.X)(1, 1) = 1.0f / 3.0f;
  s.W_q = mat(4, 4, 1.0f);
  s.W_k = mat(4, 4, 2.0f);
  s.W_v = mat(4, 4, 3.0f);
  s.W_o = mat(4, 4, 4.0f);
  s.score = attn::ScoreKind::General;
  s.W_a = mat(4, 4, 5.0f);
  s.scale = false;
  s.temperature = 0.7;
  s.mask = attn::MaskKind::Causal;
  s.key_padding = {false, true, false};
  MaskMat cells = MaskMat::Zero(3, 3);
  cells(2, 0) = 1;
  s.mask_cells = cells;
  s.positional_encoding = attn::PositionalEncoding::Sinusoidal;
  s.tokens = {"the", "cat", "\xce\xb1\xce\xb2 \"quoted\""};
  round_trip(s);
}

TEST_CASE("json: direct Q/K/V with multiple heads round-trips", "[json]") {
  Scenario s;
  s.Q = mat(2, 4, 0.3f);
  s.K = mat(3, 4, 0.6f);
  s.V = mat(3, 6, 0.9f);
  s.heads = 2;
  s.temperature = 0;
  round_trip(s);
}

TEST_CASE("json: defaults apply to absent keys, null means absent", "[json]") {
  Scenario s;
  REQUIRE(attn::parse_scenario(R"({"Q": [[1,0,1,0]], "K": [[1,0,1,0],[0,1,0,1]], "V": [[5,0,0],[0,3,0]], "W_o": null})",
                               s) == "");
  REQUIRE(s.scale);
  REQUIRE(s.temperature == 1.0);
  REQUIRE(s.heads == 1);
  REQUIRE(s.score == attn::ScoreKind::Dot);
  REQUIRE(s.mask == attn::MaskKind::None);
  REQUIRE_FALSE(s.W_o.has_value());
  REQUIRE(s.Q->rows() == 1);
  REQUIRE(s.K->rows() == 2);
}

TEST_CASE("json: every class of bad input is one clear reason", "[json][errors]") {
  SECTION("malformed JSON") { REQUIRE_THAT(parse_error(R"({"Q": [[1,0]})"), StartsWith("malformed JSON")); }
  SECTION("empty input") { REQUIRE_THAT(parse_error(""), StartsWith("malformed JSON")); }
  SECTION("NaN and Infinity literals") {
    REQUIRE_THAT(parse_error(R"({"Q": [[NaN]], "K": [[1]], "V": [[1]]})"), StartsWith("malformed JSON"));
    REQUIRE_THAT(parse_error(R"({"Q": [[Infinity]], "K": [[1]], "V": [[1]]})"), StartsWith("malformed JSON"));
  }
  SECTION("number beyond float") {
    REQUIRE(parse_error(R"({"X": [[1, 2, 1e39]]})") == "X[0][2] overflows float (|x| > 3.4e38)");
    REQUIRE_THAT(parse_error(R"({"X": [[-1e39]]})"), Contains("X[0][0] overflows float"));
  }
  SECTION("number beyond double") { REQUIRE_THAT(parse_error(R"({"X": [[1e400]]})"), Contains("overflow")); }
  SECTION("not an object") { REQUIRE_THAT(parse_error("[1, 2]"), Contains("JSON object")); }
  SECTION("unknown key") { REQUIRE(parse_error(R"({"Q": [[1]], "tempreature": 2})") == "unknown key \"tempreature\""); }
  SECTION("vector instead of matrix") {
    REQUIRE_THAT(parse_error(R"({"Q": [1, 0, 1]})"), Contains("not a single vector"));
  }
  SECTION("ragged rows") {
    REQUIRE(parse_error(R"({"K": [[1, 2], [3]]})") == "K is ragged: row 1 has 1 entries, row 0 has 2");
  }
  SECTION("empty matrix") {
    REQUIRE_THAT(parse_error(R"({"V": []})"), Contains("V is an empty matrix"));
    REQUIRE_THAT(parse_error(R"({"V": [[]]})"), Contains("V is an empty matrix"));
  }
  SECTION("wrong types") {
    REQUIRE(parse_error(R"({"Q": [[1, "2"]]})") == "Q[0][1] must be a number, got string");
    REQUIRE_THAT(parse_error(R"({"Q": [[true]]})"), Contains("Q[0][0] must be a number"));
    REQUIRE_THAT(parse_error(R"({"Q": "abc"})"), Contains("Q must be a matrix"));
    REQUIRE_THAT(parse_error(R"({"scale": 1})"), Contains("scale must be true or false"));
    REQUIRE_THAT(parse_error(R"({"temperature": "hot"})"), Contains("temperature must be a number"));
    REQUIRE_THAT(parse_error(R"({"tokens": [1]})"), Contains("tokens[0] must be a string"));
    REQUIRE_THAT(parse_error(R"({"key_padding": [2]})"), Contains("key_padding[0] must be true/false"));
    REQUIRE_THAT(parse_error(R"({"mask_cells": [[0, 5]]})"), Contains("mask_cells[0][1]"));
  }
  SECTION("unknown enum values") {
    REQUIRE(parse_error(R"({"score": "cosine"})") ==
            "unknown score \"cosine\" (expected \"dot\", \"general\" or \"additive\")");
    REQUIRE_THAT(parse_error(R"({"mask": "future"})"), Contains("unknown mask \"future\""));
    REQUIRE_THAT(parse_error(R"({"positional_encoding": "rope"})"), Contains("unknown positional_encoding"));
    REQUIRE_THAT(parse_error(R"({"score": 3})"), Contains("score must be a string"));
  }
  SECTION("negative temperature") {
    REQUIRE_THAT(parse_error(R"({"temperature": -1})"), Contains("temperature must be >= 0"));
  }
  SECTION("bad head counts") {
    REQUIRE_THAT(parse_error(R"({"heads": 0})"), Contains("heads must be >= 1"));
    REQUIRE_THAT(parse_error(R"({"heads": 1.5})"), Contains("heads must be an integer"));
    REQUIRE_THAT(parse_error(R"({"heads": 100000})"), Contains("over the limit"));
  }
  SECTION("dimensions over the limit") {
    std::string rows = "[0]";
    for (int i = 0; i < attn::kMaxDim; ++i) rows += ",[0]";
    REQUIRE_THAT(parse_error("{\"X\": [" + rows + "]}"), Contains("X has 4097 rows, over the limit of 4096"));
    std::string cols = "0";
    for (int i = 0; i < attn::kMaxDim; ++i) cols += ",0";
    REQUIRE_THAT(parse_error("{\"X\": [[" + cols + "]]}"), Contains("X has 4097 columns, over the limit of 4096"));
  }
  SECTION("labels over the limits") {
    REQUIRE_THAT(parse_error("{\"tokens\": [\"" + std::string(257, 'a') + "\"]}"), Contains("over the limit of 256"));
    std::string many = "\"a\"";
    for (int i = 0; i < 4096; ++i) many += ",\"a\"";
    REQUIRE_THAT(parse_error("{\"tokens\": [" + many + "]}"), Contains("over the limit of 4096"));
  }
  SECTION("nesting too deep, even absurdly deep") {
    REQUIRE_THAT(parse_error("{\"Q\": " + nested(attn::kMaxJsonDepth) + "}"), Contains("nesting is deeper"));
    REQUIRE_THAT(parse_error(nested(100000)), Contains("nesting is deeper"));
    // Brackets inside strings are not nesting.
    REQUIRE_THAT(parse_error("{\"tokens\": [\"" + std::string(200, '[') + "\"]}"), !Contains("nesting"));
  }
  SECTION("input over the byte limit") {
    REQUIRE_THAT(parse_error(std::string(attn::kMaxJsonBytes + 1, ' ')), Contains("over the limit"));
  }
  SECTION("semantic errors come from validate()") {
    // Mismatched widths of Q and K.
    REQUIRE(parse_error(R"({"Q": [[1,0,1]], "K": [[1,0,1,0]], "V": [[5]]})") != "");
    // Padding of the wrong length.
    REQUIRE(parse_error(R"({"Q": [[1,0]], "K": [[1,0],[0,1]], "V": [[1],[2]], "key_padding": [true]})") != "");
    // Heads that don't divide the width.
    REQUIRE(parse_error(R"({"Q": [[1,0,1]], "K": [[1,0,1]], "V": [[1,2,3]], "heads": 2})") != "");
    // General score without W_a.
    REQUIRE(parse_error(R"({"Q": [[1,0]], "K": [[1,0]], "V": [[1]], "score": "general"})") != "");
  }
}

TEST_CASE("json: a failed parse leaves the output untouched", "[json]") {
  Scenario s;
  s.heads = 7;
  REQUIRE(attn::parse_scenario(R"({"heads": 2, "bogus": 1})", s) != "");
  REQUIRE(s.heads == 7);
}

TEST_CASE("json: matrix_from_json names the field and position", "[json]") {
  Mat m;
  REQUIRE(attn::matrix_from_json(json::parse("[[1,2],[3,4]]"), "W", m) == "");
  REQUIRE(m(1, 0) == 3.0f);
  REQUIRE(attn::matrix_from_json(json::parse("[[1,2],[3,null]]"), "W", m) == "W[1][1] must be a number, got null");
  REQUIRE(m(1, 1) == 4.0f);
}

TEST_CASE("json: masked logits are null and non-finite numbers never appear", "[json]") {
  attn::Result r;
  r.d_k = 2;
  r.main.Q = Mat::Ones(2, 2);
  r.main.K = Mat::Ones(2, 2);
  r.main.V = Mat::Ones(2, 1);
  r.main.scores = Mat::Ones(2, 2);
  r.main.logits = Mat::Zero(2, 2);
  r.main.logits(0, 1) = -std::numeric_limits<float>::infinity();
  r.main.weights = Mat::Zero(2, 2);
  r.main.weights(1, 0) = std::numeric_limits<float>::quiet_NaN();  // must not leak as NaN
  r.main.output = Mat::Ones(2, 1);
  r.main.entropy = attn::Vec::Zero(2);
  r.main.max_weight = attn::Vec::Ones(2);
  r.main.jacobian_norm = attn::Vec::Zero(2);
  r.main.row_fully_masked = {false, true};
  r.output = Mat::Ones(2, 1);
  r.warnings = {"note"};

  const json j = attn::result_to_json(r);
  REQUIRE(j["logits"][0][1].is_null());
  REQUIRE(j["logits"][0][0] == 0.0);
  REQUIRE(j["weights"][1][0].is_null());
  REQUIRE(j["fully_masked_rows"] == json::array({1}));
  REQUIRE(j["warnings"].size() == 2);  // the given one plus the non-finite notice
  REQUIRE_THAT(j["warnings"][1].get<std::string>(), Contains("non-finite"));
  REQUIRE_FALSE(j.contains("heads"));
  const std::string text = j.dump();
  REQUIRE_THAT(text, !Contains("NaN") && !Contains("nan") && !Contains("inf"));
}

TEST_CASE("json: computed seed example and causal mask", "[json][compute]") {
  Scenario s;
  REQUIRE(attn::parse_scenario(kSeed, s) == "");
  attn::Result r;
  REQUIRE(attn::compute(s, r) == "");
  const json j = attn::result_to_json(r);
  REQUIRE(j["d_k"] == 4.0);
  REQUIRE(j["output"][0][0].get<double>() == Approx(3.655).margin(1e-3));
  REQUIRE(j["output"][0][1].get<double>() == Approx(0.807).margin(1e-3));
  REQUIRE(j["output"][0][2].get<double>() == Approx(0.0).margin(1e-6));
  REQUIRE(j["weights"][0][0].get<double>() == Approx(0.7311).margin(1e-4));
  REQUIRE(j["warnings"].is_array());

  Scenario c;
  REQUIRE(attn::parse_scenario(R"({"Q": [[1,0],[0,1]], "K": [[1,0],[0,1]], "V": [[1],[2]], "mask": "causal"})", c) ==
          "");
  attn::Result rc;
  REQUIRE(attn::compute(c, rc) == "");
  const json jc = attn::result_to_json(rc);
  REQUIRE(jc["logits"][0][1].is_null());
  REQUIRE(jc["logits"][1][0].is_number());
  REQUIRE(jc["weights"][0][1] == 0.0);
  REQUIRE_THAT(jc.dump(), !Contains("NaN") && !Contains("nan") && !Contains("inf"));
}

TEST_CASE("json: multi-head results carry per-head detail", "[json][compute]") {
  Scenario s;
  REQUIRE(attn::parse_scenario(
              R"({"Q": [[1,0,1,0],[0,1,0,1]], "K": [[1,0,1,0],[0,1,0,1]], "V": [[1,2,3,4],[5,6,7,8]], "heads": 2})",
              s) == "");
  attn::Result r;
  REQUIRE(attn::compute(s, r) == "");
  const json j = attn::result_to_json(r);
  REQUIRE(j["heads"].size() == 2);
  REQUIRE(j["heads"][0]["weights"].size() == 2);
  REQUIRE(j["heads"][0]["output"][0].size() == 2);
  REQUIRE(j["concat"][0].size() == 4);
  REQUIRE(j["output"][0].size() == 4);
  REQUIRE(j["Q"][0].size() == 4);
}

TEST_CASE("json: variance rows encode every field", "[json]") {
  attn::VarianceRow row;
  row.d_k = 16;
  row.samples = 100;
  row.var_unscaled = 16.2;
  row.var_scaled = 1.01;
  row.hist_scaled = {-4, 4, {1, 2, 3}};
  const json j = attn::variance_to_json({row});
  REQUIRE(j.size() == 1);
  REQUIRE(j[0]["d_k"] == 16);
  REQUIRE(j[0]["var_scaled"] == 1.01);
  REQUIRE(j[0]["hist_scaled"]["counts"] == json::array({1, 2, 3}));
  REQUIRE(j[0]["hist_scaled"]["lo"] == -4.0);
  for (const char* k : {"samples", "mean_unscaled", "var_unscaled", "mean_scaled", "hist_unscaled"})
    REQUIRE(j[0].contains(k));
}
