// test_masked.cpp — one predicate says which cells the mask removed: −∞ logits, never an overflowed +∞.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/attention/attention.h"

TEST_CASE("is_masked_logit: −∞ only", "[mask]") {
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(attn::is_masked_logit(-inf));
  CHECK_FALSE(attn::is_masked_logit(inf));
  CHECK_FALSE(attn::is_masked_logit(0.0f));
  CHECK_FALSE(attn::is_masked_logit(std::numeric_limits<float>::lowest()));
  CHECK_FALSE(attn::is_masked_logit(std::nanf("")));
}

TEST_CASE("an overflowed +∞ score wins its row and is not masked; a padded key is", "[mask]") {
  attn::Scenario sc;
  sc.Q = attn::Mat::Constant(1, 2, 1e30f);
  attn::Mat K(3, 2);
  K << 1e30f, 1e30f, 1, 1, 0, 0;
  sc.K = K;
  sc.V = attn::Mat::Identity(3, 3);
  sc.key_padding = {false, false, true};
  attn::Result r;
  REQUIRE(attn::compute(sc, r).empty());
  const attn::HeadResult& h = r.main;
  REQUIRE(h.logits(0, 0) == std::numeric_limits<float>::infinity());
  CHECK_FALSE(attn::is_masked_logit(h.logits(0, 0)));
  CHECK(h.weights(0, 0) == 1.0f);  // what a "masked (weight 0)" label would contradict
  CHECK_FALSE(attn::is_masked_logit(h.logits(0, 1)));
  CHECK(attn::is_masked_logit(h.logits(0, 2)));
  CHECK(h.weights(0, 2) == 0.0f);
}
