// test_strings.cpp — the catalogs: every key in both languages, the same live numbers in both, and
// every panel and workspace of the registry named in each.
#include <catch2/catch.hpp>

#include "app/registry.h"
#include "app/strings.h"
#include "app/tiling.h"

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
