// test_strings.cpp — the catalogs: every key in both languages, the same live numbers in both, every
// panel, workspace and preset named in each, and every character drawable by the UI font.
#include <catch2/catch.hpp>

#include "app/base/glyph_ranges.h"
#include "app/base/strings.h"
#include "app/lesson/lesson.h"
#include "app/state/presets.h"
#include "app/state/registry.h"
#include "app/state/tiling.h"

using namespace attn;

TEST_CASE("both catalogs parse and hold the same keys with the same placeholders", "[strings]") {
  for (Lang l : languages()) {
    INFO(lang_code(l));
    CHECK(catalog_error(l).empty());
    CHECK(catalog_keys(l).size() > 10);
  }
  const std::vector<std::string> en = catalog_keys(Lang::En), hi = catalog_keys(Lang::HiLatn);
  for (const std::string& k : en) {
    INFO("missing in hi-Latn: " << k);
    CHECK(has_string(Lang::HiLatn, k));
    if (has_string(Lang::HiLatn, k))
      CHECK(placeholders(tr(Lang::En, k.c_str())) == placeholders(tr(Lang::HiLatn, k.c_str())));
  }
  for (const std::string& k : hi) {
    INFO("missing in en: " << k);
    CHECK(has_string(Lang::En, k));
  }
}

TEST_CASE("every panel, workspace and language has a name in each catalog", "[strings]") {
  for (Lang l : languages())
    for (const std::string& key : [] {
           std::vector<std::string> keys;
           for (const PanelInfo& p : panel_table()) keys.push_back(std::string("panel.") + p.key);
           for (const Workspace& w : workspaces()) keys.push_back(std::string("workspace.") + w.key);
           for (Lang other : languages()) keys.push_back(std::string("lang.") + lang_code(other));
           return keys;
         }()) {
      INFO(lang_code(l) << " " << key);
      CHECK(has_string(l, key));
    }
}

TEST_CASE("placeholders are filled and languages are chosen from codes and preferences", "[strings]") {
  CHECK(tr_format(Lang::En, "menu.computing", {{"percent", "42"}}) == "computing… 42%");
  CHECK(std::string(tr(Lang::En, "no.such.key")) == "no.such.key");  // visible, never a crash
  CHECK(placeholders("a {w} b {n_rows} {not a name}") == std::vector<std::string>{"n_rows", "w"});
  Lang l = Lang::En;
  CHECK(lang_from_code("hi-Latn", l));
  CHECK(l == Lang::HiLatn);
  CHECK(lang_from_code("EN", l));
  CHECK(l == Lang::En);
  CHECK_FALSE(lang_from_code("fr", l));
  CHECK(lang_from_preferences("hi-IN,en;q=0.8") == Lang::HiLatn);
  CHECK(lang_from_preferences("en-GB,hi;q=0.5") == Lang::En);
  CHECK(lang_from_preferences("") == Lang::En);
}

TEST_CASE("every preset's title, source, story and slips are in both catalogs, and translated", "[strings]") {
  for (const Preset& p : presets()) {
    INFO(p.id);
    for (const std::string* key : {&p.title, &p.source, &p.story, &p.slips}) {
      if (key == &p.slips && key->empty()) continue;  // the note's arithmetic is right
      INFO(*key);
      CHECK(*key == "preset." + p.id + "." +
                        (key == &p.title    ? "title"
                         : key == &p.source ? "source"
                         : key == &p.story  ? "story"
                                            : "slips"));
      for (Lang l : languages()) CHECK(has_string(l, *key));
    }
    // The prose is translated, not the English copied over (formulas and titles may well be the same).
    auto prose = [&](Lang l) {
      return std::string(tr(l, p.story.c_str())) + (p.slips.empty() ? "" : tr(l, p.slips.c_str()));
    };
    CHECK(prose(Lang::En) != prose(Lang::HiLatn));
  }
}

TEST_CASE("every character of every catalog text is in the UI font", "[strings]") {
  CHECK(code_points("a√ᵀ✓") == std::vector<uint32_t>{0x61, 0x221A, 0x1D40, 0x2713});
  CHECK_FALSE(in_ui_font(0x0915));  // Devanagari क: the notes' stray letters would show as boxes
  for (Lang l : languages())
    for (const std::string& key : catalog_keys(l)) {
      for (uint32_t cp : code_points(tr(l, key.c_str()))) {
        if (cp == '\n') continue;
        INFO(lang_code(l) << " " << key << ": U+" << std::hex << cp);
        CHECK(in_ui_font(cp));
      }
    }
}

TEST_CASE("a fetched catalog is refused when it is not a catalog, and the one in use stays") {
  const std::string before = tr(Lang::HiLatn, "lang.hi-Latn");
  CHECK_FALSE(install_catalog("hi-Latn", "not json").empty());
  CHECK_FALSE(install_catalog("hi-Latn", "{}").empty());
  CHECK_FALSE(install_catalog("hi-Latn", "{\"a\": 1}").empty());
  CHECK_FALSE(install_catalog("fr", "{\"a\": \"b\"}").empty());             // no such language
  CHECK_FALSE(install_catalog("hi-Latn.extra", "{\"a\": \"b\"}").empty());  // no such part
  CHECK_FALSE(install_catalog("../en", "{\"a\": \"b\"}").empty());
  CHECK(catalog_present(Lang::HiLatn));
  CHECK(tr(Lang::HiLatn, "lang.hi-Latn") == before);
  const unsigned generation = catalog_generation();
  CHECK(install_catalog("hi-Latn", "{\"a\": \"b\"}").empty());  // already here: kept, not replaced
  CHECK(install_catalog("en.lessons", "{\"a\": \"b\"}").empty());
  CHECK(catalog_generation() == generation);
  CHECK(tr(Lang::HiLatn, "lang.hi-Latn") == before);
  CHECK(std::string(tr(Lang::En, "a")) == "a");
}

TEST_CASE("once every part is installed, each lesson's texts are there in both languages and nothing is missing") {
  // Natively the catalogs are whole; the wasm tests install the parts a web build fetches, as the page does.
  CHECK(lesson_texts_present());
  for (Lang l : languages()) {
    CHECK(missing_catalog(l, true).empty());
    for (const Lesson& lesson : lessons())
      for (const LessonStep& step : lesson.steps) {
        INFO(lang_code(l) << " " << lesson.id);
        CHECK(has_string(l, step.text));
      }
  }
}
