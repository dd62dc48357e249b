// test_language.cpp — the learner's language end to end: lang= in the address and the browser's
// preference, links and presets that keep it, the screen-reader summary, warnings and status lines.
#include <catch2/catch.hpp>

#include "app/app.h"
#include "app/describe/summary.h"
#include "app/describe/warnings.h"
#include "app/exchange/query_state.h"
#include "app/exchange/share.h"
#include "app/state/presets.h"
#include "app/state/state_json.h"
#include "core/share_codec.h"

using namespace attn;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

TEST_CASE("lang= in the page address picks the language and bad values are reported", "[language]") {
  State s;
  CHECK(apply_query_state(s, "?lang=hi-Latn").empty());
  CHECK(s.lang == Lang::HiLatn);
  CHECK(apply_query_state(s, "?lesson=why-sqrt-dk&step=2&lang=en&utm_source=x").empty());
  CHECK(s.lang == Lang::En);
  CHECK(s.lesson.step == 2);  // the other parameters still count
  CHECK_THAT(apply_query_state(s, "?lang=fr"), Contains("lang must be one of en, hi-Latn, en-XA"));
  CHECK(s.lang == Lang::En);  // a bad value leaves the language as it was
  CHECK_FALSE(apply_query_state(s, "?lang=").empty());
  CHECK_FALSE(apply_query_state(s, "?lang=hi%2DLatn<b>").empty());
  s.lang = Lang::HiLatn;
  CHECK(apply_query_state(s, "?workspace=numerics").empty());
  CHECK(s.lang == Lang::HiLatn);  // no lang= leaves it alone
}

TEST_CASE("the page starts in the browser's language where it asks for Hindi, lang= has the last word", "[language]") {
  // The order the page applies them in (platform/web.cpp): browser, shared link, query string.
  auto start = [](const std::string& browser, const State* link, const std::string& query) {
    App app;
    app.state.lang = lang_from_preferences(browser);
    if (link) REQUIRE(app.open_fragment("#" + share_fragment(*link)));
    apply_query_state(app.state, query);
    return app.state.lang;
  };
  State english = default_state(), hinglish = default_state();
  hinglish.lang = Lang::HiLatn;
  CHECK(start("hi-IN,hi,en-US,en", nullptr, "") == Lang::HiLatn);
  CHECK(start("en-US,hi", nullptr, "") == Lang::En);
  CHECK(start("hi-IN,hi", &english, "") == Lang::HiLatn);  // a link in English does not force English
  CHECK(start("en-US", &hinglish, "") == Lang::HiLatn);    // a link in Hinglish opens in Hinglish
  CHECK(start("hi-IN", &hinglish, "?lang=en") == Lang::En);
  CHECK(start("en-US", &english, "?lang=hi-Latn") == Lang::HiLatn);
}

TEST_CASE("presets, English links and files keep the learner's language; a Hinglish link switches", "[language]") {
  App app;
  app.state.lang = Lang::HiLatn;
  REQUIRE(apply_preset(app.state, "saturation"));
  CHECK(app.state.lang == Lang::HiLatn);
  REQUIRE(apply_state_text(app.state, R"({"preset": "default"})").empty());
  CHECK(app.state.lang == Lang::HiLatn);

  State english = default_state();
  english.d_k = 16;
  CHECK(app.open_fragment("#" + share_fragment(english)));
  CHECK(app.state.d_k == 16);
  CHECK(app.state.lang == Lang::HiLatn);

  State hinglish = default_state();
  hinglish.lang = Lang::HiLatn;
  app.state.lang = Lang::En;
  CHECK(app.open_fragment("#" + share_fragment(hinglish)));
  CHECK(app.state.lang == Lang::HiLatn);
}

TEST_CASE("status lines are in the learner's language", "[language]") {
  App app;
  app.state.lang = Lang::HiLatn;
  CHECK_FALSE(app.open_fragment("#" + share_encode("[1,2]")));
  CHECK(app.state.lang == Lang::HiLatn);  // the defaults it falls back to keep the language
  CHECK_THAT(app.status, StartsWith("Shared link nahi khul saka: "));
  CHECK(app.import_text(R"({"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]]})", "ex.json").empty());
  CHECK(app.status == "ex.json se scenario import ho gaya.");
  app.state.lang = Lang::En;
  CHECK_FALSE(app.import_text("{", "broken.json").empty());
  CHECK_THAT(app.status, StartsWith("Could not import broken.json: "));
}

TEST_CASE("the screen-reader summary speaks English or Hinglish with the same numbers", "[language]") {
  App app;
  app.update();
  const std::string en = screen_summary(app);
  // The English wording the page's aria-live test and screen-reader users rely on.
  CHECK_THAT(en,
             StartsWith("d_k = 64, scaling on (divide by square root of d_k), temperature 1.00. Query The attends: "));
  CHECK_THAT(en, Contains("largest weight") && Contains("Not saturated."));
  app.state.lang = Lang::HiLatn;
  const std::string hi = screen_summary(app);
  CHECK_THAT(hi, StartsWith("d_k = 64, scaling on (d_k ke square root se divide), temperature 1.00. Query The ka "
                            "attention: "));
  CHECK_THAT(hi, Contains("sabse bada weight") && Contains("Saturated nahi hai."));
  // Every number of the English summary is in the Hinglish one, in the same order.
  auto numbers = [](const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s + " ") {
      if ((c >= '0' && c <= '9') || (c == '.' && !cur.empty()))
        cur += c;
      else if (!cur.empty()) {
        while (!cur.empty() && cur.back() == '.') cur.pop_back();
        out.push_back(cur);
        cur.clear();
      }
    }
    return out;
  };
  CHECK(numbers(hi) == numbers(en));
}

TEST_CASE("warnings shown to the learner match core's, one for one, in either language", "[language]") {
  App app;
  app.state.key_padding.assign(6, true);  // every key of "The cat sat on the mat" padded: every row masked
  app.state.temperature = 1e-40;          // and, on a second run, logits beyond the float range
  for (int run = 0; run < 2; ++run) {
    app.update();
    INFO(run);
    REQUIRE(app.result.error.empty());
    const std::vector<std::string>& core = app.result.core.warnings;
    REQUIRE_FALSE(core.empty());
    const std::vector<std::string> en = result_warnings(app.result, app.state.temperature, Lang::En);
    const std::vector<std::string> hi = result_warnings(app.result, app.state.temperature, Lang::HiLatn);
    CHECK(en.size() == core.size());
    CHECK(hi.size() == core.size());
    for (size_t k = 0; k < std::min(en.size(), hi.size()); ++k) CHECK(en[k] != hi[k]);
    app.state.key_padding.clear();
  }
  CHECK_THAT(result_warnings(app.result, app.state.temperature, Lang::HiLatn).front(), Contains("temperature 1e-40"));
  app.state.temperature = 1.0;
  app.update();
  CHECK(result_warnings(app.result, 1.0, Lang::En).empty());
  CHECK(app.result.core.warnings.empty());
}
