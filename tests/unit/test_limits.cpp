// test_limits.cpp — the two token limits: a scenario's labels go as far as its matrices (kMaxDim),
// the random mode's sentence stops at kMaxTokens.
#include <catch2/catch.hpp>
#include <string>

#include "app/state/state.h"
#include "core/json_codec.h"

using Catch::Matchers::Contains;

namespace {
// One row of X, so only the label list can be over a limit.
nlohmann::json labelled_scenario(int labels) {
  nlohmann::json tokens = nlohmann::json::array();
  for (int i = 0; i < labels; ++i) tokens.push_back("t" + std::to_string(i));
  return {{"X", {{1.0, 0.0}}}, {"tokens", tokens}};
}
}  // namespace

TEST_CASE("a scenario takes one label per row, up to the dimension limit", "[limits]") {
  attn::Scenario sc;
  CHECK(attn::scenario_from_json(labelled_scenario(attn::kMaxDim), sc) == "");
  CHECK(sc.tokens.size() == static_cast<size_t>(attn::kMaxDim));
  const std::string err = attn::scenario_from_json(labelled_scenario(attn::kMaxDim + 1), sc);
  CHECK_THAT(err, Contains("tokens") && Contains(std::to_string(attn::kMaxDim)));
}

TEST_CASE("the random mode's sentence keeps its first kMaxTokens words", "[limits]") {
  std::string sentence;
  for (int i = 0; i < attn::kMaxTokens + 5; ++i) sentence += "w" + std::to_string(i) + " ";
  const auto tokens = attn::split_tokens(sentence);
  REQUIRE(tokens.size() == static_cast<size_t>(attn::kMaxTokens));
  CHECK(tokens.back() == "w" + std::to_string(attn::kMaxTokens - 1));
}
