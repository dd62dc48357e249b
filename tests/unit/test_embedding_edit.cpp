// test_embedding_edit.cpp — moving a token's point on the embeddings plane: exactly its two coordinates on the
// plane's axes change, the row is selected, and bad tokens or coordinates change nothing.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "app/state/embedding_edit.h"

TEST_CASE("move_embedding_point edits the plane's two coordinates of one token", "[embeddings]") {
  attn::State s;
  s.embeddings = attn::Mat::Zero(3, 4);
  s.plane_x = 2;
  s.plane_y = 0;
  s.selected_row = 0;
  REQUIRE(attn::move_embedding_point(s, 1, 0.5, -1.25));
  CHECK(s.embeddings(1, 2) == 0.5f);
  CHECK(s.embeddings(1, 0) == -1.25f);
  CHECK(s.embeddings.cwiseAbs().sum() == Approx(1.75));  // nothing else moved
  CHECK(s.selected_row == 1);

  REQUIRE(attn::move_embedding_point(s, 2, 1e9, -1e9));  // clamped to the cell table's range
  CHECK(s.embeddings(2, 2) == attn::kEmbeddingEditMax);
  CHECK(s.embeddings(2, 0) == -attn::kEmbeddingEditMax);

  const attn::Mat before = s.embeddings;
  CHECK_FALSE(attn::move_embedding_point(s, 3, 0, 0));
  CHECK_FALSE(attn::move_embedding_point(s, -1, 0, 0));
  CHECK_FALSE(attn::move_embedding_point(s, 0, std::numeric_limits<double>::quiet_NaN(), 0));
  s.plane_y = 4;
  CHECK_FALSE(attn::move_embedding_point(s, 0, 0, 0));
  CHECK(s.embeddings == before);
  CHECK(s.selected_row == 2);
}
