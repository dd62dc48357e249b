// strings.h — the string catalogs: every text a learner reads, in English, Hinglish (Roman script) and any
// language a catalog is written for. Catalogs are data/strings/<tag>.json (flat "key": "text" objects), compiled
// into the binary; English is the fallback for every text another catalog lacks. Live numbers are placeholders:
// "Max weight {w}" is filled by tr_format(lang, key, {{"w", "0.88"}}).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace attn {

// A language the page has: English and Hinglish are named (the code treats them specially: Hindi's browser tags
// ask for Hinglish, a Hinglish register guide exists); every further catalog found gets the next number, and the
// pseudo-locale (kPseudoLocale) comes last.
enum class Lang : uint8_t { En = 0, HiLatn = 1 };
constexpr Lang kDefaultLang = Lang::En;
// The pseudo-locale's tag: English accented, about 40 % longer and bracketed ("[Ŧéɱþéřåţûřé ~~~]"), made from the
// English catalog as it is read, never listed in the Language menu; ?lang=en-XA finds hard-coded English and cut
// text on every surface (tests/browser/pseudo-locale.test.mjs).
constexpr const char* kPseudoLocale = "en-XA";

const char* lang_code(Lang l);  // "en" | "hi-Latn" | the catalog's tag
// Accepts a tag the page has, case-insensitively, or one that narrows it ("de-AT" → "de", "en-GB" → "en"), and
// "hi" (Hindi) for Hinglish.
bool lang_from_code(const std::string& code, Lang& out);
// The languages a learner can choose (the Language menu, the start view), English first: every catalog the build
// has, not the pseudo-locale.
const std::vector<Lang>& languages();
// Every language a state may name: languages() and the pseudo-locale.
std::vector<Lang> all_languages();
// The tags all_languages() has, for messages: "en, hi-Latn, en-XA".
std::string lang_codes_list();
// A language's name in itself ("English", "Hinglish", "Deutsch"): its catalog's "lang.<tag>" text, else the tag.
std::string language_name(Lang l);
// The first language of a preference list the page has ("hi-IN,en;q=0.8" → HiLatn), as a browser's
// navigator.languages or an LMS's cmi5 languagePreference gives it; false when it names none.
bool preferred_language(const std::string& preferences, Lang& out);
// The same, else English.
Lang lang_from_preferences(const std::string& accept_language);
// Adds a language from a translator's whole catalog (a file not compiled in: `attnplay gui --catalog FILE`); its
// tag must be new. "" or why it was refused.
std::string add_catalog(const std::string& tag, const std::string& json);

// The text of `key` in `lang`; a key missing in that language falls back to English, a key missing
// everywhere returns the key itself (visible in the UI, and caught by the catalog test).
const char* tr(Lang lang, const char* key);
bool has_string(Lang lang, const std::string& key);

// A text a teacher's lesson file writes inline ({"en": …, "hi-Latn": …, "de": …}) instead of naming a catalog key,
// by language tag. Languages may be missing: English is shown for them, else the first text there is.
struct ExtraText {
  std::map<std::string, std::string> by_tag;
  const std::string& in(Lang lang) const;
};
// Replaces every extra text whose key starts with `prefix` by `texts` (a reloaded lesson's own texts);
// tr() and has_string() find them as if they were catalog keys.
void set_extra_texts(const std::string& prefix, const std::map<std::string, ExtraText>& texts);

using StringArgs = std::initializer_list<std::pair<const char*, std::string>>;
// tr() with {name} placeholders replaced; unknown placeholders stay as written.
std::string tr_format(Lang lang, const char* key, StringArgs args);

// One pseudo-locale text: letters accented, about 40 % longer, bracketed; placeholders and newlines kept.
std::string pseudo_text(const std::string& english);

// Messages quote file names and the like: printable, short (at most `max` bytes and "…"), no control characters.
std::string printable(const std::string& s, size_t max = 80);
// Every key of a catalog, and the placeholders a text uses ("{w}" → "w"), for the catalog test.
std::vector<std::string> catalog_keys(Lang lang);
std::vector<std::string> placeholders(const std::string& text);
// The code points of a UTF-8 text; a malformed byte comes out as U+FFFD (which no font range holds), so a check
// of what the canvas can draw reports it.
std::vector<uint32_t> code_points(const std::string& text);
// The characters of a text the canvas's font cannot draw, as "U+0915 U+0916" (each once, in order), or "": the
// canvas would show boxes for them (Devanagari, Arabic, CJK, …; app/base/glyph_ranges.h lists what it draws).
std::string undrawable_characters(const std::string& text);
// A number with exactly `decimals` decimals ("%.*f"), as the summary and the slip texts write them.
std::string format_fixed(double v, int decimals);
// A number as the panels show it: `decimals` decimals, never "-0.0000" (it reads as a sign error to a learner
// comparing with the notes), and `fallback` for NaN or infinity. The canvas and the parallel DOM both write it.
std::string format_shown(double v, int decimals = 4, const char* fallback = "—");
// An index as the learner reads it: counted from 1, as the notes count (h₁, q_1·k_2, row 1).
std::string learner_index(int zero_based);
// "" if the catalog file parsed; else why (shown by the catalog test).
std::string catalog_error(Lang lang);

// The page's module compiles in English only, without the lessons' own texts and those of panels a page opens
// closed, and fetches the rest when it is first used (web/site/attnplay-api.js): another language's catalog, and
// each catalog's parts (scripts/split_catalog.mjs). Until a language is installed its texts fall back to English;
// until a part is, its texts are "…".
bool catalog_present(Lang lang);
// Whether the lessons' own texts (lesson.<id>.*) are here, in English at least; a lesson waits for them.
bool lesson_texts_present();
// The catalog file the page should fetch next for a page showing `shown`, by name ("hi-Latn", "en.lessons"), or
// "": the shown language's main part first, then (with_parts) the other parts, English's first.
std::string missing_catalog(Lang shown, bool with_parts);
// Installs the catalog file `name` ("hi-Latn", "hi-Latn.panels") from its JSON text: "" or why it was refused
// (the texts in use stay).
std::string install_catalog(const std::string& name, const std::string& json);
// Moves whenever a catalog is installed (the app's change stamp includes it: the page's words changed).
unsigned catalog_generation();

}  // namespace attn
