// unit_helpers.h — helpers several unit-test files share, kept once: the tests build as a few unity files, where
// two files' copies of one helper would collide.
#pragma once

#include <catch2/catch.hpp>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/attention/montecarlo.h"
#include "core/exercise/exercise.h"
#include "core/train/train_trainer.h"

namespace unit {

// A rows×cols matrix of normal draws times `scale`, float32 as the core computes.
inline attn::Mat random_mat(attn::Rng& rng, int rows, int cols, double scale = 1.0) {
  attn::Mat m(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = static_cast<float>(scale * rng.normal());
  return m;
}

// The parallel DOM's record of control `id` among `controls`, or null when it has none.
inline nlohmann::json twin_of(const nlohmann::json& controls, const std::string& id) {
  for (const nlohmann::json& c : controls)
    if (c["id"] == id) return c;
  return nullptr;
}

// Two training histories agree bit for bit.
inline bool same_bits(const std::vector<attn::train::StepRecord>& a, const std::vector<attn::train::StepRecord>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(attn::train::StepRecord)) == 0);
}

// Generated exercise `number`; the test stops, naming it, if it cannot be made.
inline attn::exercise::Exercise generated(int number) {
  attn::exercise::Exercise ex;
  const std::string err = attn::exercise::generate_exercise(number, ex);
  INFO("exercise " << number << ": " << err);
  REQUIRE(err.empty());
  return ex;
}

}  // namespace unit
