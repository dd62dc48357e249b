// test_state_widths.cpp — getState's d_model, d_k and d_v are the widths the state computes with:
// an explicit example reports its matrices' widths, and setState of them reads back as it was.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "app/state/presets.h"
#include "app/state/state.h"
#include "app/state/state_json.h"
#include "core/attention/attention.h"

using Catch::Matchers::Contains;

TEST_CASE("getState reports the d_k, d_v (and d_model) that every preset computes with", "[state]") {
  for (const attn::Preset& p : attn::presets()) {
    INFO("preset " << p.id);
    attn::State s;
    REQUIRE(attn::apply_preset(s, p.id));
    const attn::Scenario sc = attn::build_scenario(s);
    attn::Result r;
    REQUIRE(attn::compute(sc, r).empty());
    const nlohmann::json j = attn::state_to_json(s);
    CHECK(j["d_k"] == r.main.Q.cols());  // the full query/key width (heads split it)
    CHECK(j["d_v"] == r.main.V.cols());
    if (sc.X) CHECK(j["d_model"] == sc.X->cols());
  }
}

TEST_CASE("in explicit mode the widths are the matrices': echoes pass, other values are refused", "[state]") {
  attn::State s;
  REQUIRE(attn::apply_preset(s, "cat-sat-mat"));  // X is 6×4, used directly: d_k = d_v = 4
  const nlohmann::json before = attn::state_to_json(s);
  REQUIRE(before["d_k"] == 4);
  CHECK(attn::apply_state_text(s, R"({"d_k": 4, "d_model": 4, "d_v": 4})") == "");
  CHECK(attn::state_to_json(s) == before);
  const std::string err = attn::apply_state_text(s, R"({"d_k": 256})");
  CHECK_THAT(err, Contains("d_k is 4"));
  CHECK(attn::state_to_json(s) == before);  // nothing applied
  // Switching to random mode in the same call makes d_k a setting again.
  REQUIRE(attn::apply_state_text(s, R"({"preset": "default", "d_k": 256})") == "");
  CHECK(attn::state_to_json(s)["d_k"] == 256);
  REQUIRE(
      attn::apply_state_text(s, R"({"preset": "cat-sat-mat", "mode": "random", "embeddings": [], "d_k": 32})").empty());
  CHECK(attn::state_to_json(s)["d_k"] == 32);
}

TEST_CASE("an imported scenario wider than the slider still reads back from getState", "[state]") {
  attn::State s;
  REQUIRE(attn::apply_preset(s, "default"));
  nlohmann::json q = nlohmann::json::array(), k = nlohmann::json::array();
  q.push_back(std::vector<double>(2000, 0.01));
  k.push_back(std::vector<double>(2000, 0.02));
  k.push_back(std::vector<double>(2000, -0.01));
  const nlohmann::json scenario = {{"Q", q}, {"K", k}, {"V", {{1.0}, {2.0}}}};
  REQUIRE(attn::apply_state_json(s, {{"scenario", scenario}}) == "");
  const nlohmann::json j = attn::state_to_json(s);
  CHECK(j["d_k"] == 2000);  // beyond the random mode's 1024: the matrices decide
  CHECK(j["d_v"] == 1);
  attn::State back;
  REQUIRE(attn::apply_state_text(back, j.dump()) == "");
  CHECK(attn::state_to_json(back) == j);
}

TEST_CASE("a seeded projection drawn again is the same draw, and each seed, letter and width has its own", "[state]") {
  // More draws than are kept, each differing from another in one field, asked for in three orders: a kept draw
  // handed to the wrong request would repeat another key's matrix or change between the passes.
  struct Key {
    uint64_t seed;
    char which;
    int d_model, width;
  };
  std::vector<Key> keys;
  for (uint64_t seed : {987654321ull, 987654322ull})
    for (char which : {'q', 'k', 'v'})
      for (int width : {3, 5}) keys.push_back({seed, which, 4, width});
  keys.push_back({987654321ull, 'q', 6, 3});
  keys.push_back({987654321ull, 'o', 6, 6});
  std::vector<attn::Mat> first;
  for (const Key& k : keys) first.push_back(attn::random_projection(k.seed, k.which, k.d_model, k.width));
  for (size_t a = 0; a < keys.size(); ++a) {
    CHECK(first[a].rows() == keys[a].d_model);
    CHECK(first[a].cols() == keys[a].width);
    for (size_t b = 0; b < a; ++b)
      if (first[a].rows() == first[b].rows() && first[a].cols() == first[b].cols()) CHECK(first[a] != first[b]);
  }
  const std::vector<size_t> orders[] = {{13, 0, 7, 2, 12, 5, 9, 1, 11, 3, 10, 4, 8, 6}, {0, 0, 1, 1, 13, 13, 0}};
  for (int pass = 0; pass < 3; ++pass)
    for (size_t i : pass < 2 ? orders[pass] : std::vector<size_t>{13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}) {
      INFO("pass " << pass << ", key " << i);
      CHECK(attn::random_projection(keys[i].seed, keys[i].which, keys[i].d_model, keys[i].width) == first[i]);
    }
}
