// test_catalogs.cpp — a language is a catalog: a translator's catalog joins the Language menu, the state, links,
// the browser's preference and teachers' lessons, with English for every text it lacks; the pseudo-locale is
// English made longer and accented on every surface, reachable by its tag and never listed.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "app/a11y.h"
#include "app/app.h"
#include "app/base/strings.h"
#include "app/exchange/query_state.h"
#include "app/exchange/share.h"
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_run.h"
#include "app/lesson/lesson_text.h"
#include "app/state/presets.h"
#include "app/state/state_json.h"

using namespace attn;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {
bool has_language(const std::string& tag) {
  for (const Lang l : languages())
    if (lang_code(l) == tag) return true;
  return false;
}
}  // namespace

TEST_CASE("the pseudo-locale is English, accented, longer and bracketed, on every text; never in the menu",
          "[language][pseudo]") {
  Lang pseudo = Lang::En;
  REQUIRE(lang_from_code("en-XA", pseudo));
  CHECK(pseudo != Lang::En);
  CHECK_FALSE(has_language("en-XA"));
  const std::string english = tr(Lang::En, "menu.language"), shown = tr(pseudo, "menu.language");
  CHECK(shown == pseudo_text(english));
  CHECK(shown.front() == '[');
  CHECK(shown.size() > english.size() * 14 / 10);
  CHECK(tr(pseudo, "menu.language") == tr(pseudo, "menu.language"));  // made once: the same pointer each frame
  // Placeholders are kept, so live numbers still fill in.
  const std::string filled = tr_format(pseudo, "controls.d_k.fixed", {{"d_k", "400"}});
  CHECK_THAT(filled, Contains("400"));
  CHECK_THAT(filled, !Contains("{d_k}"));
  // A browser that asks for it gets English: it is for finding cut and hard-coded text, not for learners.
  CHECK(lang_from_preferences("en-XA,hi;q=0.5") == Lang::HiLatn);
  State s;
  CHECK(apply_query_state(s, "?lang=en-XA").empty());
  CHECK(s.lang == pseudo);
  // The whole page is in it: the summary, the menus' twin, a lesson step.
  App app;
  app.state.lang = pseudo;
  REQUIRE(start_lesson(app, "why-sqrt-dk", 1) == "");
  app.update();
  const StepTexts step = render_step(app);
  CHECK(step.text.front() == '[');
  CHECK(step.title.front() == '[');
  const json menus = a11y_description(app)["menus"];
  CHECK(menus["view"].get<std::string>().front() == '[');
  CHECK(menus["languages"].size() == languages().size());
}

// Hidden ([.]): a catalog added here stays for the rest of the run, so this runs as its own test
// (tests/CMakeLists.txt).
TEST_CASE("a translator's catalog is a language: menu, state, link, preference, lessons, English for the rest",
          "[.added-catalog]") {
  REQUIRE(languages().size() == 2);
  CHECK_FALSE(add_catalog("../de", R"({"a": "b"})").empty());
  CHECK_FALSE(add_catalog("de", "not json").empty());
  CHECK_FALSE(add_catalog("de", "{}").empty());
  CHECK_FALSE(add_catalog("hi-latn", R"({"a": "b"})").empty());  // the page has it already
  CHECK(languages().size() == 2);
  const unsigned generation = catalog_generation();
  REQUIRE(add_catalog("de", R"({"_comment": "a translator's note", "lang.de": "Deutsch", "menu.language": "Sprache",
                                "lesson.ui.next": "Weiter"})") == "");
  CHECK(catalog_generation() != generation);  // the page's words changed: every surface redraws
  REQUIRE(has_language("de"));
  Lang de = Lang::En;
  REQUIRE(lang_from_code("de", de));
  CHECK(language_name(de) == "Deutsch");
  CHECK(std::string(tr(de, "menu.language")) == "Sprache");
  CHECK(std::string(tr(de, "menu.view")) == tr(Lang::En, "menu.view"));  // English for what it lacks
  CHECK(std::string(tr(de, "_comment")) == "_comment");                  // notes are not texts

  // The browser's preference, the address, a state file and a link.
  Lang l = Lang::En;
  CHECK((lang_from_code("DE-at", l) && l == de));
  CHECK(lang_from_preferences("fr-FR,de-AT;q=0.8,en;q=0.5") == de);
  CHECK(lang_from_preferences("fr-FR") == Lang::En);
  Lang chosen = Lang::HiLatn;  // an LMS's cmi5 languagePreference goes through the same rule
  CHECK((preferred_language("fr-FR, de-AT", chosen) && chosen == de));
  CHECK_FALSE(preferred_language("fr-FR,en-XA", chosen));  // names none: the page keeps its own choice
  CHECK(chosen == de);
  State s = default_state();
  CHECK(apply_query_state(s, "?lang=de").empty());
  CHECK(s.lang == de);
  CHECK(state_to_json(s)["lang"] == "de");
  CHECK(state_schema()["lang"]["enum"].dump().find("\"de\"") != std::string::npos);
  App app;
  REQUIRE(app.open_fragment("#" + share_fragment(s)));
  CHECK(app.state.lang == de);

  // The menus (canvas and twin) list it by its own name; the twin chooses it.
  app.state.lang = Lang::En;
  const json langs = a11y_description(app)["menus"]["languages"];
  REQUIRE(langs.size() == 3);
  CHECK(langs[2] == json({{"code", "de"}, {"title", "Deutsch"}}));
  CHECK(a11y_act(app, {{"do", "language"}, {"value", "de"}}) == "");
  CHECK(app.state.lang == de);

  // A teacher's lesson may carry German texts; a language the page lacks is refused, naming those it has.
  json lesson = json::parse(R"({"id": "auf-deutsch", "title": {"en": "In German", "de": "Auf Deutsch"},
    "steps": [{"text": {"en": "Look.", "hi-Latn": "Dekho.", "de": "Schau."}},
              {"text": {"en": "Only English."}}]})");
  REQUIRE(open_lesson_file(app, lesson.dump(), "auf-deutsch.json") == "");
  CHECK(render_step(app).text == "Schau.");
  CHECK(render_step(app).title == "Auf Deutsch");
  app.state.lang = Lang::HiLatn;
  CHECK(render_step(app).title == "In German");  // no Hinglish title: English
  lesson["id"] = "en-francais";
  lesson["steps"][1]["text"]["fr"] = "Seulement.";
  Lesson refused;
  CHECK_THAT(check_lesson_text(lesson.dump(), refused),
             Contains("unknown language \"fr\" (the page has en, hi-Latn, "));
}

TEST_CASE("a lesson text the canvas cannot draw is refused, naming its characters", "[language][lessons]") {
  const json lesson = json::parse(R"({"id": "devanagari", "title": {"en": "Scripts"},
    "steps": [{"text": {"en": "Look.", "hi-Latn": "देखो, dekho."}}]})");
  Lesson l;
  const std::string err = check_lesson_text(lesson.dump(), l);
  CHECK_THAT(err, Contains("text.hi-Latn: the page cannot draw U+0926 U+0947 U+0916 U+094B"));
  CHECK_THAT(err, Contains("not Devanagari"));
  CHECK(undrawable_characters("Ŧéñšöř √d_k ≈ 0.5 ✓") == "");
  CHECK(undrawable_characters("a 🙂 b 🙂") == "U+1F642");
}
