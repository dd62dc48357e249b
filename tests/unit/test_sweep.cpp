// test_sweep.cpp — the Saturation panel's "same row as d_k grows" curves: every swept point is what
// compute() gives for the same state at that d_k (padding, painted cells, causal mask, heads,
// temperature, positional encoding), for head 1's selected row, scaled and unscaled.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "app/app.h"
#include "app/app_exchange.h"
#include "app/exchange/share.h"
#include "app/state/presets.h"
#include "app/state/state_json.h"
#include "core/attention/attention.h"

namespace {

struct Case {
  const char* name;
  const char* state;  // applied to the default preset
  int row;
};

const attn::HeadResult& head_one(const attn::Result& r) { return r.heads.empty() ? r.main : r.heads.front(); }

// Float rounding only: compute() sums q·k in float over d_k terms, the sweep in double.
void check_point(float swept, float computed, const std::string& what) {
  INFO(what);
  CHECK(swept == Approx(computed).epsilon(1e-4).margin(2e-5));
}

}  // namespace

TEST_CASE("every swept point equals compute() of the same state at that d_k", "[sweep]") {
  const Case cases[] = {
      {"default", "{}", 2},
      {"key padding", R"({"key_padding": [false, true, false, false, true, false]})", 3},
      {"painted cells", R"({"mask_cells": [[0,0,0,0,0,0],[0,0,0,0,0,0],[1,0,0,1,0,0],
                                            [0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0]]})",
       2},
      {"causal, first row", R"({"mask": "causal"})", 0},
      {"causal, later row", R"({"mask": "causal"})", 4},
      {"two heads", R"({"heads": 2, "d_k": 64})", 1},
      {"four heads, causal, padding", R"({"heads": 4, "d_k": 64, "mask": "causal",
                                          "key_padding": [true, false, false, false, false, false]})",
       5},
      {"temperature 0.3", R"({"temperature": 0.3})", 1},
      {"temperature 4, sinusoidal positions", R"({"temperature": 4, "positional_encoding": "sinusoidal"})", 3},
      {"hard attention", R"({"temperature": 0})", 1},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    attn::App app;
    REQUIRE(attn::apply_state_text(app.state, c.state) == "");
    app.state.selected_row = c.row;
    app.update();
    const attn::DkSweep& sw = app.result.sweep;
    REQUIRE(sw.available);
    REQUIRE(sw.row == c.row);
    REQUIRE(sw.heads == app.state.heads);
    REQUIRE(sw.d_k.size() >= 2);
    for (size_t k = 0; k < sw.d_k.size(); ++k) {
      attn::State at = app.state;
      at.d_k = sw.d_k[k] * sw.heads;
      REQUIRE(at.d_k <= attn::kMaxDk);  // a state the slider can reach
      for (int scaled = 0; scaled < 2; ++scaled) {
        at.scale = scaled == 1;
        attn::Result r;
        REQUIRE(attn::compute(attn::build_scenario(at), r) == "");
        const attn::HeadResult& h = head_one(r);
        REQUIRE(r.d_k == sw.d_k[k]);  // the sweep's axis is the per-head d_k compute() scales by
        const std::string at_what = "d_k " + std::to_string(at.d_k) + (scaled ? " scaled" : " unscaled");
        check_point(sw.entropy[scaled][k], h.entropy(c.row), "entropy, " + at_what);
        check_point(sw.max_weight[scaled][k], h.max_weight(c.row), "max weight, " + at_what);
        check_point(sw.jacobian[scaled][k], h.jacobian_norm(c.row), "Jacobian norm, " + at_what);
      }
    }
  }
}

TEST_CASE("the panel's mark, the current per-head d_k, is a swept point showing the current row", "[sweep]") {
  attn::App app;
  REQUIRE(attn::apply_state_text(app.state, R"({"heads": 4, "d_k": 64, "mask": "causal"})") == "");
  app.state.selected_row = 3;
  app.update();
  const attn::DkSweep& sw = app.result.sweep;
  REQUIRE(app.result.core.d_k == 16);
  const auto at = std::find(sw.d_k.begin(), sw.d_k.end(), 16);
  REQUIRE(at != sw.d_k.end());
  const size_t k = static_cast<size_t>(at - sw.d_k.begin());
  const attn::HeadResult& h = app.result.core.heads.front();
  check_point(sw.entropy[1][k], h.entropy(3), "scaled entropy at the mark");
  check_point(sw.max_weight[1][k], h.max_weight(3), "scaled max weight at the mark");
  CHECK(sw.d_k.back() * 4 <= attn::kMaxDk);
}

TEST_CASE("getResult carries the sweep", "[sweep]") {
  attn::App app;
  REQUIRE(attn::apply_state_text(app.state, R"({"heads": 2, "d_k": 32, "selected_row": 4})") == "");
  app.update();
  const nlohmann::json j = attn::app_result_json(app)["sweep"];
  const attn::DkSweep& sw = app.result.sweep;
  REQUIRE(j.is_object());
  CHECK(j["d_k"] == sw.d_k);
  CHECK(j["row"] == 4);
  CHECK(j["heads"] == 2);
  for (const char* side : {"unscaled", "scaled"}) {
    const int k = std::string(side) == "scaled" ? 1 : 0;
    CHECK(j[side]["entropy"] == sw.entropy[k]);
    CHECK(j[side]["max_weight"] == sw.max_weight[k]);
    CHECK(j[side]["jacobian_norm"] == sw.jacobian[k]);
  }
  // Explicit matrices have one d_k: no sweep.
  REQUIRE(attn::apply_state_text(app.state, R"({"preset": "cat-sat-mat"})") == "");
  app.update();
  CHECK(attn::app_result_json(app)["sweep"].is_null());
}

TEST_CASE("the band over other draws of W_Q, W_K shows the trend one draw can hide", "[sweep]") {
  attn::App app;
  app.state.selected_row = 1;
  app.update();
  const attn::DkSweep& sw = app.result.sweep;
  REQUIRE(sw.draws >= 8);
  const attn::DkSweep::Band& unscaled = sw.band[1][0];
  const attn::DkSweep::Band& scaled = sw.band[1][1];
  REQUIRE(unscaled.mean.size() == sw.d_k.size());
  for (int m = 0; m < 3; ++m)
    for (int k = 0; k < 2; ++k)
      for (size_t i = 0; i < sw.d_k.size(); ++i) {
        const attn::DkSweep::Band& b = sw.band[m][k];
        INFO("metric " << m << (k ? " scaled" : " unscaled") << " at d_k " << sw.d_k[i]);
        CHECK(b.lo[i] <= b.mean[i] + 1e-6f);
        CHECK(b.mean[i] <= b.hi[i] + 1e-6f);
      }
  // Unscaled, the mean largest weight climbs towards one-hot as d_k grows; scaled, it stays where it began.
  const size_t last = sw.d_k.size() - 1;
  CHECK(unscaled.mean[last] > unscaled.mean[0] + 0.3f);
  CHECK(unscaled.mean[last] > 0.85f);
  CHECK(scaled.mean[last] < unscaled.mean[last] - 0.3f);
  CHECK(std::fabs(scaled.mean[last] - scaled.mean[2]) < 0.2f);
  // The mean over draws moves less from one d_k to the next than the one draw the slider shows.
  float own_jump = 0, mean_jump = 0;
  for (size_t i = 1; i < sw.d_k.size(); ++i) {
    own_jump = std::max(own_jump, std::fabs(sw.max_weight[0][i] - sw.max_weight[0][i - 1]));
    mean_jump = std::max(mean_jump, std::fabs(unscaled.mean[i] - unscaled.mean[i - 1]));
  }
  CHECK(mean_jump < own_jump);
  const nlohmann::json j = attn::app_result_json(app)["sweep"];
  CHECK(j["draws"] == sw.draws);
  CHECK(j["unscaled"]["band"]["max_weight"]["mean"].size() == sw.d_k.size());
}
