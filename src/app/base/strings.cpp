// strings.cpp — catalogs parsed once from the embedded data/strings/*.json.
#include "app/base/strings.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "app/base/data.h"
#include "core/exercise/worked_example.h"

namespace attn {

namespace {
// A language's texts: one file, or (a web build) a main part and parts fetched later (scripts/split_catalog.mjs):
// the lessons' own texts, the texts of panels a page opens closed. The main part names them under "_parts".
struct Catalog {
  std::map<std::string, std::string> text;
  std::string error;
  std::vector<std::string> parts;  // "en.lessons", "en.panels": the files with the rest of the texts
};

Catalog parse_catalog(const std::string& path, const char* begin, const char* end) {
  Catalog c;
  const nlohmann::json j = nlohmann::json::parse(begin, end, nullptr, false);
  if (!j.is_object()) {
    c.error = path + " is not a JSON object";
    return c;
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "_parts" && it.value().is_array())
      for (const auto& part : it.value())
        if (part.is_string()) c.parts.push_back(part.get<std::string>());
    if (it.key().empty() || it.key()[0] == '_') continue;  // "_comment" keys are notes for translators
    if (!it.value().is_string()) {
      c.error = path + ": \"" + it.key() + "\" is not a string";
      continue;
    }
    c.text[it.key()] = it.value().get<std::string>();
  }
  return c;
}

std::string catalog_path(const std::string& name) { return "strings/" + name + ".json"; }

// The parts a catalog can have besides its main part ("en" + ".lessons").
constexpr const char* kCatalogParts[] = {"lessons", "panels"};

struct LoadedCatalog {
  Catalog catalog;
  bool present = false;                // the main part
  std::vector<std::string> pending;    // parts the main part names that are not here yet
  std::vector<std::string> installed;  // parts here (one may arrive before its main part)
};

LoadedCatalog load(Lang lang) {
  LoadedCatalog l;
  const std::string path = catalog_path(lang_code(lang));
  if (const DataFile* f = find_data_file(path)) {
    l.catalog = parse_catalog(path, f->data, f->data + f->size);
    l.present = true;
    for (const std::string& name : l.catalog.parts) {
      if (const DataFile* part = find_data_file(catalog_path(name))) {
        Catalog c = parse_catalog(part->path, part->data, part->data + part->size);
        l.catalog.text.merge(c.text);
        l.installed.push_back(name);
      } else {
        l.pending.push_back(name);
      }
    }
  } else {
    l.catalog.error = path + " is not compiled in and was not installed";
  }
  return l;
}

LoadedCatalog& loaded(Lang lang) {
  static LoadedCatalog en = load(Lang::En), hi = load(Lang::HiLatn);
  return lang == Lang::HiLatn ? hi : en;
}

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

unsigned& generation() {
  static unsigned g = 0;
  return g;
}

const Catalog& catalog(Lang lang) { return loaded(lang).catalog; }

// Texts a loaded lesson carries inline, by their generated keys; a missing language is "" (the other is shown).
std::map<std::string, ExtraText>& extra_texts() {
  static std::map<std::string, ExtraText> texts;
  return texts;
}

const char* extra_text(Lang lang, const char* key) {
  const auto& texts = extra_texts();
  const auto it = texts.find(key);
  if (it == texts.end()) return nullptr;
  const std::string& wanted = lang == Lang::HiLatn ? it->second.hi_latn : it->second.en;
  return (wanted.empty() ? (lang == Lang::HiLatn ? it->second.en : it->second.hi_latn) : wanted).c_str();
}
}  // namespace

void set_extra_texts(const std::string& prefix, const std::map<std::string, ExtraText>& texts) {
  auto& all = extra_texts();
  for (auto it = all.lower_bound(prefix); it != all.end() && it->first.rfind(prefix, 0) == 0;) it = all.erase(it);
  for (const auto& [key, text] : texts) all[key] = text;
}

const char* lang_code(Lang l) { return l == Lang::HiLatn ? "hi-Latn" : "en"; }

const std::vector<Lang>& languages() {
  static const std::vector<Lang> all = {Lang::En, Lang::HiLatn};
  return all;
}

bool lang_from_code(const std::string& code, Lang& out) {
  std::string c;
  for (char ch : code) c += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (c == "en" || c.rfind("en-", 0) == 0) {
    out = Lang::En;
    return true;
  }
  if (c == "hi-latn" || c == "hi") {
    out = Lang::HiLatn;
    return true;
  }
  return false;
}

Lang lang_from_preferences(const std::string& accept_language) {
  // The first listed language decides; "hi", "hi-IN", "hi-Latn" all ask for Hindi.
  std::string first = accept_language.substr(0, accept_language.find(','));
  first = first.substr(0, first.find(';'));
  std::string c;
  for (char ch : first)
    if (!std::isspace(static_cast<unsigned char>(ch)))
      c += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return (c == "hi" || c.rfind("hi-", 0) == 0) ? Lang::HiLatn : Lang::En;
}

const char* tr(Lang lang, const char* key) {
  if (const char* extra = extra_text(lang, key)) return extra;
  const Catalog& c = catalog(lang);
  auto it = c.text.find(key);
  if (it != c.text.end()) return it->second.c_str();
  if (lang != Lang::En) return tr(Lang::En, key);
  // A text in a part still on its way (a web page's first second): an ellipsis, not the key, until it is here.
  if (!loaded(Lang::En).pending.empty()) return "…";
  return key;
}

namespace {
// The notes' worked examples carry no English of their own: the core words them from the English catalog
// (the CLI and the JSON API print it; the app words them again in the learner's language).
[[maybe_unused]] const bool kExampleWords =
    (exercise::set_example_words([](const std::string& key) { return std::string(tr(Lang::En, key.c_str())); }), true);
}  // namespace

bool has_string(Lang lang, const std::string& key) {
  return extra_texts().count(key) > 0 || catalog(lang).text.count(key) > 0;
}

std::string tr_format(Lang lang, const char* key, StringArgs args) {
  std::string s = tr(lang, key);
  for (const auto& [name, value] : args) {
    const std::string token = std::string("{") + name + "}";
    for (size_t at = s.find(token); at != std::string::npos; at = s.find(token, at + value.size()))
      s.replace(at, token.size(), value);
  }
  return s;
}

// Messages quote file names and the like: printable, short, no control characters.
std::string printable(const std::string& s, size_t max) {
  std::string out;
  for (unsigned char c : s) {
    if (out.size() >= max) {
      out += "…";
      break;
    }
    out += (c >= 0x20 && c != 0x7f) ? static_cast<char>(c) : '?';
  }
  return out;
}

std::vector<std::string> catalog_keys(Lang lang) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : catalog(lang).text) keys.push_back(k);
  return keys;
}

std::vector<uint32_t> code_points(const std::string& text) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    const int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > text.size()) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    uint32_t cp = len == 1 ? b : b & (0x7F >> len);
    for (int k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    out.push_back(cp);
    i += static_cast<size_t>(len);
  }
  return out;
}

std::vector<std::string> placeholders(const std::string& text) {
  std::vector<std::string> out;
  for (size_t a = text.find('{'); a != std::string::npos; a = text.find('{', a + 1)) {
    const size_t b = text.find('}', a);
    if (b == std::string::npos) break;
    const std::string name = text.substr(a + 1, b - a - 1);
    const bool ident = !name.empty() && std::all_of(name.begin(), name.end(), [](char ch) {
      return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
    });
    if (ident) out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string catalog_error(Lang lang) { return catalog(lang).error; }

bool catalog_present(Lang lang) { return loaded(lang).present; }

bool lesson_texts_present() { return !has(loaded(Lang::En).pending, "en.lessons"); }

std::string missing_catalog(Lang shown, bool with_parts) {
  if (!loaded(shown).present) return lang_code(shown);
  if (!with_parts) return "";
  // English first: it is shown wherever the other language has no text yet.
  for (Lang l : {Lang::En, shown})
    if (loaded(l).present && !loaded(l).pending.empty()) return loaded(l).pending.front();
  return "";
}

std::string install_catalog(const std::string& name, const std::string& json) {
  const size_t dot = name.find('.');
  const std::string code = name.substr(0, dot), part = dot == std::string::npos ? "" : name.substr(dot + 1);
  Lang lang = kDefaultLang;
  const bool known_part = part.empty() || std::any_of(std::begin(kCatalogParts), std::end(kCatalogParts),
                                                      [&](const char* p) { return part == p; });
  if (!lang_from_code(code, lang) || lang_code(lang) != code || !known_part)
    return "no catalog is called \"" + printable(name, 40) + "\"";
  Catalog c = parse_catalog(catalog_path(name), json.data(), json.data() + json.size());
  if (!c.error.empty()) return c.error;
  if (c.text.empty()) return catalog_path(name) + " has no texts";
  LoadedCatalog& l = loaded(lang);
  // Once each: the texts handed out by tr() point into the catalog, and a frame may still hold them.
  // (A catalog compiled in whole has every part's texts already.)
  if (part.empty() ? l.present : has(l.installed, name) || (l.present && l.catalog.parts.empty())) return "";
  if (part.empty()) {
    c.text.merge(l.catalog.text);  // parts installed before the main part stay (not its "missing" error)
    l.catalog = std::move(c);
    l.present = true;
    l.pending.clear();
    for (const std::string& p : l.catalog.parts)
      if (!has(l.installed, p)) l.pending.push_back(p);
  } else {
    if (l.present && !has(l.pending, name)) return catalog_path(name) + " is not a part of this catalog";
    l.catalog.text.merge(c.text);
    l.installed.push_back(name);
    l.pending.erase(std::remove(l.pending.begin(), l.pending.end(), name), l.pending.end());
  }
  ++generation();
  return "";
}

unsigned catalog_generation() { return generation(); }

std::string format_fixed(double v, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string learner_index(int zero_based) { return std::to_string(zero_based + 1); }

}  // namespace attn
