// test_beyond.cpp — "beyond one head": painted masks through the state JSON, W_O for several heads,
// and permutation equivariance without positional encoding (the "dog bites man" preset).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "app/app.h"
#include "app/state/presets.h"
#include "app/state/state_json.h"
#include "core/attention/attention.h"

using attn::State;
using Catch::Matchers::Contains;

TEST_CASE("mask_cells: strict decoding, renormalised rows, round trip", "[beyond]") {
  State s;
  REQUIRE(attn::apply_preset(s, "default"));  // 6 tokens
  CHECK_THAT(attn::apply_state_text(s, R"({"mask_cells": [[0,1],[1,0]]})"), Contains("6×6"));
  CHECK_THAT(attn::apply_state_text(s, R"({"mask_cells": [[0,2,0,0,0,0]]})"), Contains("0, 1, true or false"));
  CHECK_THAT(attn::apply_state_text(s, R"({"mask_cells": "x"})"), Contains("array of arrays"));
  CHECK_FALSE(s.mask_cells.has_value());
  const std::string cells = R"({"mask_cells": [[0,0,0,0,0,0],[0,0,0,0,0,0],[0,true,0,0,0,0],[0,0,0,0,0,0],
      [0,0,0,0,0,0],[1,1,1,1,1,1]]})";
  REQUIRE(attn::apply_state_text(s, cells).empty());
  REQUIRE(s.mask_cells.has_value());
  attn::Result r;
  REQUIRE(attn::compute(attn::build_scenario(s), r).empty());
  CHECK(r.main.weights(2, 1) == 0.0f);
  CHECK(std::fabs(r.main.weights.row(2).sum() - 1.0f) < 1e-5f);
  CHECK(r.main.row_fully_masked[5]);
  CHECK(r.main.weights.row(5).sum() == 0.0f);
  CHECK(r.main.weights.allFinite());
  State back;
  REQUIRE(attn::apply_state_json(back, attn::state_to_json(s)).empty());
  REQUIRE(back.mask_cells.has_value());
  CHECK(*back.mask_cells == *s.mask_cells);
  // A sentence of another length drops the painted mask instead of failing.
  REQUIRE(attn::apply_state_text(s, R"({"sentence": "a b c"})").empty());
  CHECK_FALSE(s.mask_cells.has_value());
  REQUIRE(attn::apply_state_text(s, R"({"mask_cells": null})").empty());
}

TEST_CASE("several heads are mixed by a seeded W_O", "[beyond]") {
  State s;
  REQUIRE(attn::apply_preset(s, "default"));
  REQUIRE(attn::apply_state_text(s, R"({"heads": 4, "panels": {"heads": true, "masks": true}})").empty());
  const attn::Scenario sc = attn::build_scenario(s);
  REQUIRE(sc.W_o.has_value());
  CHECK(sc.W_o->rows() == s.d_v);
  attn::Result r;
  REQUIRE(attn::compute(sc, r).empty());
  CHECK(r.heads.size() == 4);
  CHECK(r.d_k == s.d_k / 4);
  CHECK(r.output.isApprox(r.concat * *sc.W_o));
  CHECK(attn::state_to_json(s)["panels"]["heads"] == true);
}

TEST_CASE("without positional encoding, reversing the sentence reverses the output rows", "[beyond]") {
  auto output = [](const char* sentence, const char* pe) {
    State s;
    REQUIRE(attn::apply_preset(s, "dog-bites-man"));
    REQUIRE(attn::apply_state_text(
                s, std::string(R"({"sentence": ")") + sentence + R"(", "positional_encoding": ")" + pe + "\"}")
                .empty());
    attn::Result r;
    REQUIRE(attn::compute(attn::build_scenario(s), r).empty());
    return r.output;
  };
  const attn::Mat a = output("dog bites man", "none"), b = output("man bites dog", "none");
  const attn::Mat c = output("dog bites man", "sinusoidal"), d = output("man bites dog", "sinusoidal");
  CHECK((b - a.colwise().reverse()).cwiseAbs().maxCoeff() < 1e-5f);
  CHECK((d - c.colwise().reverse()).cwiseAbs().maxCoeff() > 1e-2f);
}
