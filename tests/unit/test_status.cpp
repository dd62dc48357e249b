// test_status.cpp — what the Share panel and the menu bar show stays current: the link box follows
// the state, and a message clears itself a while after it last changed.
#include <catch2/catch.hpp>
#include <string>

#include "app/app.h"
#include "app/exchange/share.h"

TEST_CASE("the shown share link follows the state", "[status][share]") {
  attn::App app;
  const std::string first = app.current_share_link(100.0);
  CHECK(first == app.share_link());
  app.state.d_k = 300;  // a change of what is computed shows at once
  app.update();
  CHECK(app.current_share_link(100.01) == app.share_link());
  CHECK(app.current_share_link(100.01) != first);
  app.state.dark_theme = !app.state.dark_theme;  // display only: within kLinkRefreshSeconds
  const std::string after_theme = app.share_link();
  CHECK(app.current_share_link(100.01 + attn::App::kLinkRefreshSeconds) == after_theme);
  // Decoding the shown link gives the current state back.
  attn::State decoded;
  REQUIRE(attn::decode_share_fragment(after_theme, decoded).empty());
  CHECK(decoded.d_k == 300);
  CHECK(decoded.dark_theme == app.state.dark_theme);
}

TEST_CASE("a status message clears itself kStatusSeconds after it last changed", "[status]") {
  attn::App app;
  app.status = "Embed code copied.";
  app.age_status(50.0);  // first seen
  app.age_status(50.0 + attn::App::kStatusSeconds * 0.9);
  CHECK(app.status == "Embed code copied.");
  app.age_status(50.0 + attn::App::kStatusSeconds);
  CHECK(app.status.empty());
  // A new message starts its own time; an unchanged one keeps its start.
  app.status = "Link copied (48 characters).";
  app.age_status(70.0);
  app.status = "Saved attnplay-result.csv.";
  app.age_status(75.0);
  app.age_status(75.0 + attn::App::kStatusSeconds - 0.5);
  CHECK(app.status == "Saved attnplay-result.csv.");
  app.age_status(75.0 + attn::App::kStatusSeconds + 0.5);
  CHECK(app.status.empty());
}

TEST_CASE("frames age the status with the clock", "[status]") {
  attn::App app;
  app.status = "Embed code copied.";
  app.tick();
  CHECK(app.status == "Embed code copied.");  // just set: shown
}
