// test_cross_softmax.cpp — the cross-attention example lists, beside each weight, the score e that
// entered the softmax: softmaxing a row of e by hand gives the row's weights, for every score function.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "app/app.h"
#include "app/app_exchange.h"
#include "app/exchange/share.h"
#include "app/state/presets.h"
#include "app/state/state_json.h"

namespace {
std::vector<double> softmax(const std::vector<double>& e) {
  double mx = e[0], z = 0;
  for (double v : e) mx = std::max(mx, v);
  std::vector<double> p;
  for (double v : e) z += std::exp(v - mx);
  for (double v : e) p.push_back(std::exp(v - mx) / z);
  return p;
}
}  // namespace

TEST_CASE("getResult's cross logits softmax to its weights, the dot product's after ÷√d", "[cross]") {
  for (const char* states : {"note", "seeded"}) {
    attn::App app;
    REQUIRE(attn::apply_state_text(app.state, std::string(R"({"cross": {"states": ")") + states + "\"}}").empty());
    app.update();
    const nlohmann::json cross = attn::app_result_json(app)["cross"];
    const double d = static_cast<double>(cross["decoder"][0].size());
    for (const char* kind : {"additive", "general", "dot"}) {
      INFO(states << " " << kind);
      const nlohmann::json& k = cross[kind];
      REQUIRE(k.contains("logits"));
      for (size_t t = 0; t < k["weights"].size(); ++t) {
        const std::vector<double> e = k["logits"][t].get<std::vector<double>>();
        const std::vector<double> p = softmax(e);
        for (size_t j = 0; j < p.size(); ++j) {
          CHECK(k["weights"][t][j].get<double>() == Approx(p[j]).margin(1e-5));
          const double raw = k["scores"][t][j].get<double>();
          CHECK(e[j] == Approx(std::string(kind) == "dot" ? raw / std::sqrt(d) : raw).margin(1e-5));
        }
      }
    }
  }
}

TEST_CASE("the panel's e column is what entered the softmax", "[cross]") {
  const attn::CrossResult c = attn::compute_cross(attn::CrossState{}, 1);
  for (int k = 0; k < attn::kCrossScorings; ++k) {
    const attn::HeadResult& h = c.scored[static_cast<size_t>(k)].main;
    for (Eigen::Index t = 0; t < h.weights.rows(); ++t) {
      std::vector<double> e;
      for (Eigen::Index j = 0; j < h.weights.cols(); ++j) e.push_back(c.softmax_scores(k)(t, j));
      const std::vector<double> p = softmax(e);
      for (Eigen::Index j = 0; j < h.weights.cols(); ++j)
        CHECK(h.weights(t, j) == Approx(p[static_cast<size_t>(j)]).margin(1e-5));
    }
  }
}
