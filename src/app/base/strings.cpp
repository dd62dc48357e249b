// strings.cpp — catalogs parsed once from the embedded data/strings/*.json.
#include "app/base/strings.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/base/data.h"
#include "app/base/glyph_ranges.h"
#include "core/exercise/worked_example.h"

namespace attn {

namespace {
// A language's texts: one file, or (a web build) a main part and parts fetched later (scripts/split_catalog.mjs):
// the lessons' own texts, the texts of panels a page opens closed. The main part names them under "_parts".
struct Catalog {
  std::map<std::string, std::string> text;
  std::string error;
  std::vector<std::string> parts;  // "en.lessons", "en.panels": the files with the rest of the texts
  std::vector<std::pair<std::string, std::string>> languages;  // English's "_languages": the build's other catalogs
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
    if (it.key() == "_languages" && it.value().is_object())
      for (auto lang = it.value().begin(); lang != it.value().end(); ++lang)
        if (lang.value().is_string()) c.languages.emplace_back(lang.key(), lang.value().get<std::string>());
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

LoadedCatalog load(const std::string& tag) {
  LoadedCatalog l;
  const std::string path = catalog_path(tag);
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

// One language the page has. Entries are never removed or moved: tr() hands out pointers into them.
struct Language {
  std::string tag, name;  // name: in itself, as the build's list or the catalog says ("" = ask the catalog)
  bool pseudo = false;
  LoadedCatalog loaded;
  std::map<std::string, std::string> pseudo_texts;  // the pseudo-locale's texts by their English text
};

std::string lower(const std::string& s) {
  std::string out;
  for (char ch : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

// A catalog's tag: a language subtag and optional script or region subtags ("de", "pt-BR", "sr-Latn"), so a tag
// is also a safe file name.
bool plausible_tag(const std::string& tag) {
  if (tag.empty() || tag.size() > 20 || !std::isalpha(static_cast<unsigned char>(tag[0])) || tag.back() == '-')
    return false;
  return std::all_of(tag.begin(), tag.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-'; });
}

// English and Hinglish, then the other catalogs the build has — compiled in (a desktop build), or named by the
// English catalog's "_languages" (a web build fetches them: scripts/split_catalog.mjs) — by tag, then the
// pseudo-locale.
std::vector<std::unique_ptr<Language>> make_registry() {
  std::vector<std::unique_ptr<Language>> all;
  auto add = [&](const std::string& tag, const std::string& name) {
    for (const auto& l : all)
      if (lower(l->tag) == lower(tag)) return;
    auto l = std::make_unique<Language>();
    l->tag = tag, l->name = name, l->loaded = load(tag);
    all.push_back(std::move(l));
  };
  add("en", ""), add("hi-Latn", "");
  std::map<std::string, std::string> others(all[0]->loaded.catalog.languages.begin(),
                                            all[0]->loaded.catalog.languages.end());
  for (const DataFile* f : data_files_in("strings")) {
    const std::string file = std::string(f->path).substr(8);  // "strings/"
    const std::string tag = file.size() > 5 ? file.substr(0, file.size() - 5) : "";
    if (file.size() > 5 && file.substr(file.size() - 5) == ".json" && plausible_tag(tag) && !others.count(tag))
      others[tag] = "";
  }
  for (const auto& [tag, name] : others)
    if (plausible_tag(tag) && lower(tag) != lower(kPseudoLocale)) add(tag, name);
  auto pseudo = std::make_unique<Language>();
  pseudo->tag = kPseudoLocale, pseudo->pseudo = true, pseudo->loaded.present = true;
  all.push_back(std::move(pseudo));
  return all;
}

std::vector<std::unique_ptr<Language>>& registry() {
  static std::vector<std::unique_ptr<Language>> all = make_registry();
  return all;
}

Language& language(Lang lang) {
  auto& all = registry();
  const size_t i = static_cast<size_t>(lang);
  return *all[i < all.size() ? i : 0];
}

LoadedCatalog& loaded(Lang lang) { return language(lang).loaded; }

bool is_pseudo(Lang lang) { return language(lang).pseudo; }

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

unsigned& generation() {
  static unsigned g = 0;
  return g;
}

const Catalog& catalog(Lang lang) { return loaded(lang).catalog; }

// Texts a loaded lesson carries inline, by their generated keys (ExtraText::in picks the language shown).
std::map<std::string, ExtraText>& extra_texts() {
  static std::map<std::string, ExtraText> texts;
  return texts;
}

const char* extra_text(Lang lang, const char* key) {
  const auto& texts = extra_texts();
  const auto it = texts.find(key);
  return it == texts.end() ? nullptr : it->second.in(lang).c_str();
}
}  // namespace

const std::string& ExtraText::in(Lang lang) const {
  static const std::string none;
  for (const char* tag : {lang_code(lang), "en"}) {
    const auto it = by_tag.find(tag);
    if (it != by_tag.end() && !it->second.empty()) return it->second;
  }
  for (const auto& [tag, text] : by_tag)
    if (!text.empty()) return text;
  return none;
}

void set_extra_texts(const std::string& prefix, const std::map<std::string, ExtraText>& texts) {
  auto& all = extra_texts();
  for (auto it = all.lower_bound(prefix); it != all.end() && it->first.rfind(prefix, 0) == 0;) it = all.erase(it);
  for (const auto& [key, text] : texts) all[key] = text;
}

const char* lang_code(Lang l) { return language(l).tag.c_str(); }

const std::vector<Lang>& languages() {
  static std::vector<Lang> listed;
  static size_t seen = 0;  // the registry's size when `listed` was made (add_catalog grows it)
  if (seen != registry().size()) {
    listed.clear();
    for (size_t i = 0; i < registry().size(); ++i)
      if (!registry()[i]->pseudo) listed.push_back(static_cast<Lang>(i));
    seen = registry().size();
  }
  return listed;
}

std::vector<Lang> all_languages() {
  std::vector<Lang> out;
  for (size_t i = 0; i < registry().size(); ++i) out.push_back(static_cast<Lang>(i));
  return out;
}

std::string lang_codes_list() {
  std::string s;
  for (const Lang l : all_languages()) s += (s.empty() ? "" : ", ") + std::string(lang_code(l));
  return s;
}

std::string language_name(Lang l) {
  const Language& lang = language(l);
  if (lang.pseudo) return pseudo_text("English");
  const std::string key = "lang." + lang.tag;
  const auto own = lang.loaded.catalog.text.find(key);
  if (own != lang.loaded.catalog.text.end()) return own->second;
  if (!lang.name.empty()) return lang.name;
  return has_string(Lang::En, key) ? tr(Lang::En, key.c_str()) : lang.tag;
}

bool lang_from_code(const std::string& code, Lang& out) {
  const std::string c = lower(code);
  const std::vector<Lang> all = all_languages();
  // The tag itself, then a tag it narrows ("de-AT" → "de"); Hindi is read in Hinglish.
  for (const Lang l : all)
    if (c == lower(lang_code(l))) return out = l, true;
  for (const Lang l : all) {
    const std::string tag = lower(lang_code(l));
    if (c.size() > tag.size() && c.compare(0, tag.size(), tag) == 0 && c[tag.size()] == '-' && !is_pseudo(l))
      return out = l, true;
  }
  if (c == "hi" || c.rfind("hi-", 0) == 0) return out = Lang::HiLatn, true;
  return false;
}

bool preferred_language(const std::string& preferences, Lang& out) {
  // The first listed language the page has decides ("de-AT,de;q=0.9,en;q=0.8"); "hi", "hi-IN" ask for Hinglish.
  size_t at = 0;
  while (at <= preferences.size()) {
    const size_t comma = std::min(preferences.find(',', at), preferences.size());
    std::string item = preferences.substr(at, comma - at);
    item = item.substr(0, item.find(';'));
    std::string c;
    for (char ch : item)
      if (!std::isspace(static_cast<unsigned char>(ch))) c += ch;
    Lang l = kDefaultLang;
    if (!c.empty() && lang_from_code(c, l) && !is_pseudo(l)) {
      out = l;
      return true;
    }
    at = comma + 1;
  }
  return false;
}

Lang lang_from_preferences(const std::string& accept_language) {
  Lang l = kDefaultLang;
  return preferred_language(accept_language, l) ? l : kDefaultLang;
}

std::string add_catalog(const std::string& tag, const std::string& json) {
  if (!plausible_tag(tag)) return "\"" + printable(tag, 24) + "\" is not a language tag such as \"de\" or \"pt-BR\"";
  for (const Lang l : all_languages())
    if (lower(lang_code(l)) == lower(tag)) return "a catalog for \"" + tag + "\" is already built in";
  if (registry().size() >= 250) return "too many catalogs";
  Catalog c = parse_catalog(catalog_path(tag), json.data(), json.data() + json.size());
  if (!c.error.empty()) return c.error;
  if (c.text.empty()) return catalog_path(tag) + " has no texts";
  auto lang = std::make_unique<Language>();
  lang->tag = tag, lang->loaded.catalog = std::move(c), lang->loaded.present = true;
  registry().push_back(std::move(lang));  // at the end: the numbers states hold stay theirs
  ++generation();
  return "";
}

const char* tr(Lang lang, const char* key) {
  if (is_pseudo(lang)) {
    // Made from the English text as it is now (a part still on its way gives "…", a lesson's text its own).
    const std::string english = tr(Lang::En, key);
    if (english == "…" || english == key) return tr(Lang::En, key);
    auto& made = language(lang).pseudo_texts;
    auto it = made.find(english);
    if (it == made.end()) it = made.emplace(english, pseudo_text(english)).first;
    return it->second.c_str();
  }
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
  if (is_pseudo(lang)) return has_string(Lang::En, key);
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

std::string undrawable_characters(const std::string& text) {
  std::vector<uint32_t> seen;
  std::string list;
  for (const uint32_t cp : code_points(text)) {
    if (cp == '\n' || in_ui_font(cp) || std::find(seen.begin(), seen.end(), cp) != seen.end()) continue;
    seen.push_back(cp);
    char buf[16];
    std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(cp));
    list += (list.empty() ? "" : " ") + std::string(buf);
  }
  return list;
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

std::string pseudo_text(const std::string& english) {
  static const std::map<char, const char*> accented = {
      {'a', "å"}, {'c', "ç"}, {'e', "é"}, {'i', "î"}, {'n', "ñ"}, {'o', "ö"}, {'u', "û"}, {'y', "ý"}, {'A', "Å"},
      {'C', "Ç"}, {'E', "É"}, {'I', "Î"}, {'N', "Ñ"}, {'O', "Ö"}, {'U', "Û"}, {'Y', "Ý"}, {'D', "Ð"}, {'d', "ð"}};
  std::string out = "[";
  int depth = 0, letters = 0;  // letters: the characters outside placeholders
  for (char c : english) {
    if (c == '{') ++depth;
    const auto a = accented.find(c);
    out += depth == 0 && a != accented.end() ? a->second : std::string(1, c);
    letters += depth == 0 && (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;  // characters, not bytes
    if (c == '}' && depth > 0) --depth;
  }
  // The padding in words of at most six, as a longer translation's words are: a long text can still wrap.
  for (int pad = letters * 2 / 5; pad > 0; pad -= 6)
    out += " " + std::string(static_cast<size_t>(std::min(pad, 6)), '~');
  return out + "]";
}

std::string format_fixed(double v, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string format_shown(double v, int decimals, const char* fallback) {
  if (!std::isfinite(v)) return fallback;
  const std::string s = format_fixed(v, decimals);
  return s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos ? s.substr(1) : s;
}

std::string learner_index(int zero_based) { return std::to_string(zero_based + 1); }

}  // namespace attn
