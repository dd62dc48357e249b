// strings_cmd.cpp — `attnplay strings check` and `attnplay strings pseudo` (strings_cmd.h).
#include "strings_cmd.h"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/base/glyph_ranges.h"
#include "app/base/strings.h"

namespace attn::cli {

const char kStringsUsage[] =
    "  strings check FILE|TAG              a translated catalog (FILE, or data/strings/TAG.json) against English:\n"
    "                                      missing and extra keys, placeholders, characters the canvas cannot draw\n"
    "  strings pseudo                      the pseudo-locale of the English catalog (accented, 40 % longer)\n";

namespace {

using Json = nlohmann::json;

// Counts of one check, and its lines.
struct Findings {
  int errors = 0, warnings = 0;
  std::ostringstream lines;
  void error(const std::string& key, const std::string& what) {
    ++errors, lines << "error: " << key << ": " << what << "\n";
  }
  void warning(const std::string& key, const std::string& what) {
    ++warnings, lines << "warning: " << key << ": " << what << "\n";
  }
};

std::string joined(const std::set<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "{" : ", {") + n + "}";
  return s.empty() ? "none" : s;
}

void check_text(const std::string& key, const std::string& text, Findings& f) {
  const char* english = tr(Lang::En, key.c_str());
  const auto want = placeholders(english), got = placeholders(text);
  const std::set<std::string> want_set(want.begin(), want.end()), got_set(got.begin(), got.end());
  if (want_set != got_set) f.error(key, "placeholders " + joined(got_set) + " where English has " + joined(want_set));
  const std::string undrawable = undrawable_characters(text);
  if (!undrawable.empty())
    f.error(key, "the canvas's font cannot draw " + undrawable + " (the page's text would show boxes)");
}

int check(const std::string& what, std::ostream& out, std::string& error) {
  const bool is_file =
      what.find('/') != std::string::npos || (what.size() > 5 && what.substr(what.size() - 5) == ".json");
  const std::string path = is_file ? what : "data/strings/" + what + ".json";
  std::ifstream in(path, std::ios::binary);
  if (!in) return error = path + ": cannot read it", 1;
  const Json catalog = Json::parse(in, nullptr, false);
  if (!catalog.is_object()) return error = path + ": not a JSON object of key → text", 1;
  Findings f;
  std::set<std::string> english;
  for (const std::string& key : catalog_keys(Lang::En)) english.insert(key);
  for (const auto& [key, text] : catalog.items()) {
    if (!key.empty() && key[0] == '_') continue;  // a note to translators ("_comment"), not a text
    if (!english.count(key))
      f.error(key, "not a key of the English catalog");
    else if (!text.is_string())
      f.error(key, "not a text");
    else
      check_text(key, text.get<std::string>(), f);
  }
  for (const std::string& key : english)
    if (!catalog.contains(key)) f.warning(key, "missing: English is shown");
  out << f.lines.str() << path << ": " << catalog.size() << " texts for " << english.size() << " English keys, "
      << f.errors << " errors, " << f.warnings << " missing\n";
  if (f.errors) return error = path + ": " + std::to_string(f.errors) + " errors", 1;
  return 0;
}

}  // namespace

int run_strings(const std::vector<std::string>& args, std::ostream& out, std::string& error) {
  if (args.size() == 2 && args[0] == "check") return check(args[1], out, error);
  if (args.size() == 1 && args[0] == "pseudo") {
    Json catalog = Json::object();
    for (const std::string& key : catalog_keys(Lang::En)) catalog[key] = pseudo_text(tr(Lang::En, key.c_str()));
    out << catalog.dump(2) << "\n";
    return 0;
  }
  error = "usage: attnplay strings check FILE|TAG | attnplay strings pseudo";
  return 2;
}

}  // namespace attn::cli
