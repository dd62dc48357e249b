// test_study.cpp — the scaling study the Learn panel shows: its rows come from the results files, the reversal it
// offers is a row of them, and the one click reruns that configuration and shows what the study says (B first).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "app/a11y.h"
#include "app/app.h"
#include "app/learn/learn.h"
#include "app/learn/study.h"
#include "core/train/train_trainer.h"

using namespace attn;
using nlohmann::json;

TEST_CASE("the study's rows, with their figures, reach the page", "[study]") {
  const auto& rows = study_rows();
  REQUIRE(rows.size() == 18);  // data/study-results: 16 configurations of "scaling", 2 of "scaling-256"
  for (const StudyRow& r : rows) {
    CHECK(r.a.seeds == 10);
    CHECK(r.paired > 0);
    CHECK_FALSE(r.ratio_median.empty());
  }
  const auto table = study_table(Lang::En);
  REQUIRE(table.size() == rows.size() + 1);
  CHECK(table[1][0] == "induction, d_k 16, small, Adam");
  CHECK(table[1][1] == "121 [119–177] · lr 0.003");
  CHECK(table[1][3] == "0.82 (0.67–1.52)");
  CHECK(table[1][4] == "3/10");
}

TEST_CASE("the reversal is the study's small-init row where B was faster at one shared rate", "[study]") {
  const StudyRow* r = reversal_row();
  REQUIRE(r);
  CHECK(r->task == "induction");
  CHECK(r->d_k == 16);
  CHECK(r->init == "small");
  CHECK(r->a.lr == r->b.lr);
  const std::string text = reversal_text(Lang::En);
  CHECK(text.find("7 of 10 seeds") != std::string::npos);  // from the row: 10 paired, B slower in 3
  CHECK(text.find("0.82") != std::string::npos);
  CHECK(text.find('{') == std::string::npos);
  CHECK(reversal_text(Lang::HiLatn).find('{') == std::string::npos);
}

TEST_CASE("one click runs the reversal as the study ran it, and B reaches 90 % first", "[study][train]") {
  App app;
  app.state.panels.learn = true;
  REQUIRE(a11y_act(app, {{"do", "learn"}, {"id", "learn:reversal"}}) == "");
  const train::TrainSettings& st = app.state.learn_settings;
  CHECK(app.state.learn_playing);
  CHECK(st.model.init == train::InitKind::Small);
  CHECK(st.model.d_k == 16);
  CHECK(st.model.layers == 2);
  CHECK(st.model.heads == 2);
  CHECK(st.model.d_v == 32);
  CHECK(st.optim.kind == train::OptimizerKind::Adam);
  CHECK(st.optim.learning_rate == 0.003);
  CHECK(st.vary == train::Difference::Scale);
  CHECK_FALSE(st.b_scale);
  CHECK(st.seed == kReversalSeed);
  // The study's run: the same settings, until both reach 90 % or the study's 500 steps end.
  train::Trainer t;
  REQUIRE(t.reset(st) == "");
  long a = -1, b = -1;
  while (t.steps_done() < st.steps && (a < 0 || b < 0) && !t.stopped()) {
    t.step(10);
    a = train::steps_to_accuracy(t.curve(0), 0.9, train::kAccuracyWindow);
    b = train::steps_to_accuracy(t.curve(1), 0.9, train::kAccuracyWindow);
  }
  INFO("A at " << a << ", B at " << b);
  WARN("the reversal, seed " << kReversalSeed << ": A (÷√d_k) reached 90 % at step " << a << ", B (no scaling) at "
                             << b);
  REQUIRE(b > 0);
  CHECK((a < 0 || b < a));
  // The parallel DOM carries the same table and the same button.
  const json d = a11y_description(app);
  REQUIRE(d["study"].is_object());
  CHECK(d["study"]["table"].size() == study_rows().size() + 1);
  CHECK(d["study"]["reversal"] == reversal_text(Lang::En));
}
