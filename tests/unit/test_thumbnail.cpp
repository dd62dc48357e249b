// test_thumbnail.cpp — the small pictures of attention weights (Heads panel, Learn's probe heads) keep a pattern one
// token wide when they pool 64 tokens into 32 cells.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "app/playground/thumbnail.h"

TEST_CASE("a previous-token head pooled from 64 tokens to 32 cells still shows its diagonal", "[thumbnail]") {
  attn::Mat w = attn::Mat::Zero(64, 64);
  w(0, 0) = 1;
  for (int i = 1; i < 64; ++i) w(i, i - 1) = 1;  // every token looks at the one before
  const attn::Thumbnail t = attn::pool_thumbnail(w, 32, true);
  REQUIRE(t.rows == 32);
  REQUIRE(t.cols == 32);
  int lit = 0;
  for (int a = 0; a < 32; ++a) {
    CHECK(t.cells[static_cast<size_t>(a) * 32 + static_cast<size_t>(a)] == 1.0f);  // rows 2a, 2a+1 hit this block
    for (int b = 0; b < 32; ++b) lit += t.cells[static_cast<size_t>(a) * 32 + static_cast<size_t>(b)] > 0;
  }
  CHECK(lit == 32 + 31);  // the diagonal, and row 2a's weight on column 2a − 1 in the block to its left
  CHECK(t.range == 1.0f);
}

TEST_CASE("thumbnails keep small matrices as they are, signs by magnitude, and say where a value is not finite",
          "[thumbnail]") {
  attn::Mat m(3, 4);
  m << 0.1f, -0.5f, 0.2f, 0.0f,  //
      0.3f, 0.0f, 0.0f, 0.9f,    //
      0.0f, 0.0f, 0.0f, 0.0f;
  const attn::Thumbnail same = attn::pool_thumbnail(m, 32, false);
  REQUIRE(same.rows == 3);
  REQUIRE(same.cols == 4);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) CHECK(same.cells[static_cast<size_t>(i) * 4 + static_cast<size_t>(j)] == m(i, j));
  CHECK(same.range == 0.9f);

  const attn::Thumbnail two = attn::pool_thumbnail(m, 2, false);  // signed: the value of largest magnitude
  CHECK(two.cells[0] == -0.5f);  // rows 0–1 (of 3: row i goes to i·2/3), columns 0–1
  CHECK(two.cells[1] == 0.9f);
  m(2, 0) = std::numeric_limits<float>::quiet_NaN();
  const attn::Thumbnail bad = attn::pool_thumbnail(m, 2, true);
  CHECK(std::isnan(bad.cells[2]));  // the block with the NaN is shown as not finite, not as its neighbours
  CHECK(bad.cells[3] == 0.0f);
  CHECK(attn::pool_thumbnail(attn::Mat(0, 0), 32, true).cells.empty());
}
