// state_json.cpp — strict decoding of partial states: unknown keys, wrong types and out-of-range
// values are errors, and nothing is applied unless everything is valid.
#include "app/state/state_json.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <initializer_list>
#include <iterator>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "app/content/lesson_file.h"
#include "app/state/exercise_key.h"
#include "app/state/presets.h"
#include "core/attention/attention.h"
#include "core/hash.h"
#include "core/json_codec.h"
#include "core/train/train_settings.h"

namespace attn {

using nlohmann::json;

namespace {

json panels_json(const PanelVisibility& p) {
  json j = json::object();
  for (const PanelInfo& info : panel_table()) j[info.key] = p[info.id];
  return j;
}

std::string get_int(const json& v, const char* key, int lo, int hi, int& out) {
  if (!v.is_number_integer() && !(v.is_number_float() && std::floor(v.get<double>()) == v.get<double>()))
    return std::string(key) + " must be an integer";
  const double d = v.get<double>();
  if (!(d >= lo && d <= hi))
    return std::string(key) + " must be between " + std::to_string(lo) + " and " + std::to_string(hi);
  out = static_cast<int>(d);
  return "";
}

// Shortest readable form of a bound for messages ("1e+06", "0.5"), not to_string's "0.500000".
std::string fmt(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", d);
  return buf;
}

std::string get_num(const json& v, const char* key, double lo, double hi, double& out) {
  if (!v.is_number()) return std::string(key) + " must be a number";
  const double d = v.get<double>();
  if (!std::isfinite(d) || d < lo || d > hi)
    return std::string(key) + " must be a finite number between " + fmt(lo) + " and " + fmt(hi);
  out = d;
  return "";
}

std::string get_bool(const json& v, const char* key, bool& out) {
  if (!v.is_boolean()) return std::string(key) + " must be true or false";
  out = v.get<bool>();
  return "";
}

// [SECTION] the key table ----------------------------------------------------------------------
// What one setState call changed beyond the field itself: the embeddings follow the tokens, the seed
// and the width, so they are re-synchronised once after every key has been read.
struct Pending {
  const json& partial;
  bool sentence_changed = false, seed_changed = false, width_changed = false, embeddings_cleared = false;
};

// A part of a key's row that is called (its encoder, decoder, schema, copy, hash): a function pointer and the
// lambda's captures (a name, a member pointer, bounds, a names table) kept as bytes. std::function would add a
// vtable of seven functions and a type name per lambda to the code every page runs at start (the module's first
// half, docs/performance.md); this adds one small function.
template <class Sig>
class RowFn;
template <class R, class... A>
class RowFn<R(A...)> {
 public:
  RowFn() = default;
  RowFn(std::nullptr_t) {}  // implicit: a row without this part, as `nullptr` reads in the table
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, RowFn>>>
  RowFn(F f) {  // implicit: the table's lambdas convert as they did to std::function
    static_assert(
        std::is_trivially_copyable_v<F> && sizeof(F) <= sizeof(captures_) && alignof(F) <= alignof(std::max_align_t),
        "a row's lambda captures only names, member pointers, numbers and tables");
    new (captures_) F(f);
    call_ = [](const void* c, A... a) -> R { return (*static_cast<const F*>(c))(std::forward<A>(a)...); };
  }
  R operator()(A... a) const { return call_(captures_, std::forward<A>(a)...); }
  explicit operator bool() const { return call_ != nullptr; }

 private:
  alignas(std::max_align_t) unsigned char captures_[32] = {};
  R (*call_)(const void*, A...) = nullptr;
};

// One row per state key: what kind of field it is, how getState() writes it, how setState() reads it
// (nullptr: read-only echo), what values it takes (the schema), and, for the large ones, a digest for the
// change stamp that stands in for hashing its JSON. The builders below (integer, number, flag, choice) make a
// whole row from the State member; the methods after them add what only the key itself knows.
struct StateKey {
  const char* key;
  StateKind kind;
  RowFn<json(const State& s)> encode;
  RowFn<std::string(const json& v, State& s, Pending& p)> decode;
  RowFn<json()> schema;
  uint64_t (*digest)(const State& s) = nullptr;
  // Every kind but Example and Echo: copies the field from `from` (what a preset keeps). A direct copy, not
  // encode → decode: a state in the middle of a change (a lesson at step 0) need not read back.
  RowFn<void(State& to, const State& from)> copy = nullptr;
  // A partial state that sets this key away from its default (with what it needs beside it): the schema's
  // "sample", from which the encoders' tests take one state per key.
  json sample_state = nullptr;
  // The field's value fed to a hash (a builder's member; set by hand for the others that need it), and whether
  // the random mode's d_k sweep reads it: the playground recomputes the sweep when any such field changes.
  RowFn<void(const State& s, ValueHasher& h)> hash_field = nullptr;
  bool sweep_input = false;
  // Where a page's first value comes from when it is not the State default (the browser's preferences).
  const char* default_from = nullptr;
  // What a change of this key makes setState do once every key is read (see Pending); set before it is decoded.
  bool Pending::*marked = nullptr;

  StateKey sample(json value, json beside = json::object()) && {
    beside[key] = std::move(value);
    sample_state = std::move(beside);
    return std::move(*this);
  }
  StateKey hashed(RowFn<void(const State& s, ValueHasher& h)> hash) && {
    hash_field = std::move(hash);
    return std::move(*this);
  }
  StateKey starts_from(const char* where) && {
    default_from = where;
    return std::move(*this);
  }
  StateKey recomputes_sweep() && {
    sweep_input = true;
    return std::move(*this);
  }
  // getState() reports the width the state computes with (the matrices' in explicit mode), not the member.
  StateKey reported_as(int Widths::*width) && {
    encode = [width](const State& s) -> json { return computed_widths(s).*width; };
    return std::move(*this);
  }
  // A change of this key re-seeds the embeddings after every key has been read (see Pending).
  StateKey marks(bool Pending::*flag) && {
    marked = flag;
    return std::move(*this);
  }
};

// Names of the enumerated keys, read by the decoder, the encoder and the schema alike.
constexpr std::pair<const char*, InputMode> kModes[] = {{"random", InputMode::Random},
                                                        {"explicit", InputMode::Explicit}};
constexpr std::pair<const char*, Projections> kProjections[] = {{"seeded", Projections::Seeded},
                                                                {"identity", Projections::Identity}};
constexpr std::pair<const char*, MaskKind> kMasks[] = {{"none", MaskKind::None}, {"causal", MaskKind::Causal}};
constexpr std::pair<const char*, PositionalEncoding> kPositional[] = {{"none", PositionalEncoding::None},
                                                                      {"sinusoidal", PositionalEncoding::Sinusoidal}};
constexpr std::pair<const char*, bool> kThemes[] = {{"dark", true}, {"light", false}};
constexpr std::pair<const char*, bool> kHeatmapScales[] = {{"absolute", false}, {"row", true}};
constexpr std::pair<const char*, CrossStates> kCrossStates[] = {{"note", CrossStates::NoteExample},
                                                                {"seeded", CrossStates::Seeded}};

template <typename E, size_t N>
std::string get_enum(const json& v, const char* key, const std::pair<const char*, E> (&names)[N], E& out) {
  std::string allowed;
  for (const auto& [name, value] : names) {
    if (v.is_string() && v.get<std::string>() == name) {
      out = value;
      return "";
    }
    allowed += (allowed.empty() ? "\"" : " or \"") + std::string(name) + "\"";
  }
  return std::string(key) + " must be " + allowed;
}

std::string decode_sentence(const json& v, State& s, Pending& p) {
  if (!v.is_string()) return "sentence must be a string";
  if (v.get<std::string>().size() > kMaxSentenceBytes)
    return "sentence is longer than " + std::to_string(kMaxSentenceBytes) + " bytes";
  s.sentence = v.get<std::string>();
  p.sentence_changed = true;
  return split_tokens(s.sentence).empty() ? "sentence must contain at least one token" : "";
}

std::string decode_seed(const json& v, State& s, Pending& p) {
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
    return "seed must be a non-negative integer";
  s.seed = v.get<uint64_t>();
  p.seed_changed = true;
  return "";
}

std::string decode_embeddings(const json& v, State& s, Pending& p) {
  if (v.is_array() && v.empty()) {  // what getState() shows for an explicit preset: seed them anew
    s.embeddings.resize(0, 0);
    p.embeddings_cleared = true;
    return "";
  }
  Mat m;
  std::string err = matrix_from_json(v, "embeddings", m);
  if (err.empty()) s.embeddings = m;
  return err;
}

std::string decode_mask_cells(const json& v, State& s, Pending&) {
  // null or [] = no painted mask; else rows of 0/1 (or booleans), checked against n×n after all keys.
  if (v.is_null() || (v.is_array() && v.empty())) {
    s.mask_cells.reset();
    return "";
  }
  if (!v.is_array() || !v[0].is_array()) return "mask_cells must be an array of arrays of 0/1 or booleans";
  MaskMat m;
  std::string err = mask_from_json(v, "mask_cells", m);
  if (err.empty()) s.mask_cells = std::move(m);
  return err;
}

std::string decode_panels(const json& v, State& s, Pending&) {
  if (!v.is_object()) return "panels must be an object of booleans";
  for (auto it = v.begin(); it != v.end(); ++it) {
    bool* slot = panel_flag(s.panels, it.key());
    if (!slot) return "unknown panel \"" + it.key() + "\"";
    std::string err = get_bool(it.value(), ("panels." + it.key()).c_str(), *slot);
    if (!err.empty()) return err;
  }
  return "";
}

std::string decode_cross(const json& v, State& s, Pending&) {
  if (!v.is_object()) return "cross must be an object {\"states\": \"note\" | \"seeded\", \"step\": 0…3}";
  for (auto it = v.begin(); it != v.end(); ++it) {
    std::string err;
    if (it.key() == "states")
      err = get_enum(it.value(), "cross.states", kCrossStates, s.cross.states);
    else if (it.key() == "step")
      err = get_int(it.value(), "cross.step", 0, 3, s.cross.step);  // I, am, a, student
    else
      err = "unknown cross key \"" + it.key() + "\"";
    if (!err.empty()) return err;
  }
  return "";
}

std::string decode_scenario(const json& v, State& s, Pending& p) {
  Scenario sc;
  std::string err = scenario_from_json(v, sc);
  if (!err.empty()) return err;
  // A scenario switches to explicit mode and brings its scale and temperature, unless the same
  // object says otherwise (getState() output carries all three, and must read back as it was).
  s.explicit_scenario = sc;
  if (!p.partial.contains("mode")) s.mode = InputMode::Explicit;
  if (!p.partial.contains("scale")) s.scale = sc.scale;
  if (!p.partial.contains("temperature")) s.temperature = sc.temperature;
  if (!p.partial.contains("preset")) s.preset.clear();  // a scenario of one's own is no preset
  return "";
}

std::string decode_lesson(const json& v, State& s, Pending&) {
  if (v.is_null()) {  // free play
    s.lesson = LessonRef{};
    return "";
  }
  if (!v.is_object() || !v.contains("id") || !v["id"].is_string())
    return "lesson must be null or {\"id\": \"<lesson>\", \"step\": 1…}";
  const Lesson* l = find_lesson(v["id"].get<std::string>());
  if (!l) return "unknown lesson \"" + v["id"].get<std::string>().substr(0, 64) + "\"";
  int step = 1;
  if (v.contains("step")) {
    std::string err = get_int(v["step"], "lesson.step", 1, static_cast<int>(l->steps.size()), step);
    if (!err.empty()) return err;
  }
  for (auto it = v.begin(); it != v.end(); ++it)
    if (it.key() != "id" && it.key() != "step") return "unknown lesson key \"" + it.key().substr(0, 64) + "\"";
  s.lesson = LessonRef{l->id, step};
  return "";
}

template <typename E, size_t N>
const char* name_of(const std::pair<const char*, E> (&names)[N], E value) {
  for (const auto& [name, v] : names)
    if (v == value) return name;
  return names[0].first;
}
template <typename E, size_t N>
json enum_schema(const std::pair<const char*, E> (&names)[N]) {
  json e = json::array();
  for (const auto& n : names) e.push_back(n.first);
  return {{"enum", e}};
}
json integer_schema(long long lo, long long hi) { return {{"type", "integer"}, {"minimum", lo}, {"maximum", hi}}; }
json number_schema(double lo, double hi) { return {{"type", "number"}, {"minimum", lo}, {"maximum", hi}}; }
json boolean_schema() { return {{"type", "boolean"}}; }
json described(const char* type, const char* what) { return {{"type", type}, {"description", what}}; }

// [SECTION] row builders ------------------------------------------------------------------------
// Each makes the whole row of a key that is one State member: encoder, decoder (with the messages setState has
// always given), schema, the field's hash, and the copy a preset makes of every kind but Example.
template <typename T>
StateKey member_row(const char* key, StateKind kind, T State::*field) {
  StateKey k{key, kind, nullptr, nullptr, nullptr};
  k.encode = [field](const State& s) -> json { return s.*field; };
  k.hash_field = [field](const State& s, ValueHasher& h) { h.pod(s.*field); };
  if (k.kind != StateKind::Example && k.kind != StateKind::Echo)
    k.copy = [field](State& to, const State& from) { to.*field = from.*field; };
  return k;
}

StateKey integer(const char* key, int State::*field, int lo, int hi, StateKind kind) {
  StateKey k = member_row(key, kind, field);
  k.decode = [key, field, lo, hi](const json& v, State& s, Pending&) { return get_int(v, key, lo, hi, s.*field); };
  k.schema = [lo, hi] { return integer_schema(lo, hi); };
  return k;
}

// A double or float member; its bounds are doubles, as the messages print them.
template <typename T>
StateKey number(const char* key, T State::*field, double lo, double hi, StateKind kind) {
  StateKey k = member_row(key, kind, field);
  k.decode = [key, field, lo, hi](const json& v, State& s, Pending&) {
    double d = 0;
    std::string err = get_num(v, key, lo, hi, d);
    if (err.empty()) s.*field = static_cast<T>(d);
    return err;
  };
  k.schema = [lo, hi] { return number_schema(lo, hi); };
  return k;
}

StateKey flag(const char* key, bool State::*field, StateKind kind) {
  StateKey k = member_row(key, kind, field);
  k.decode = [key, field](const json& v, State& s, Pending&) { return get_bool(v, key, s.*field); };
  k.schema = boolean_schema;
  return k;
}

// A member that takes one of the names of a `k…` table (an enum, or a bool such as theme's dark/light).
template <typename E, size_t N>
StateKey choice(const char* key, E State::*field, const std::pair<const char*, E> (&names)[N], StateKind kind) {
  StateKey k = member_row(key, kind, field);
  const auto* table = &names;
  k.encode = [field, table](const State& s) -> json { return name_of(*table, s.*field); };
  k.decode = [key, field, table](const json& v, State& s, Pending&) { return get_enum(v, key, *table, s.*field); };
  k.schema = [table] { return enum_schema(*table); };
  return k;
}

// The state key "learn": {"settings": <training settings>, "playing", "speed"}.
json learn_state_json(const State& s) {
  return {
      {"settings", train::settings_to_json(s.learn_settings)}, {"playing", s.learn_playing}, {"speed", s.learn_speed}};
}

std::string learn_state_from_json(const json& j, State& out) {
  if (!j.is_object()) return "learn must be an object {settings, playing, speed}";
  train::TrainSettings settings = out.learn_settings;
  bool playing = out.learn_playing;
  int speed = out.learn_speed;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "settings") {
      train::TrainSettings ts = settings;
      std::string err = train::settings_from_json(it.value(), ts);
      if (err.empty()) err = train::validate(ts);
      if (!err.empty()) return "learn.settings: " + err;
      settings = ts;
    } else if (it.key() == "playing") {
      if (!it.value().is_boolean()) return "learn.playing must be true or false";
      playing = it.value().get<bool>();
    } else if (it.key() == "speed") {
      if (!it.value().is_number_integer() || it.value().get<int>() < 1 || it.value().get<int>() > 200)
        return "learn.speed must be an integer between 1 and 200";
      speed = it.value().get<int>();
    } else {
      return "unknown learn key \"" + it.key().substr(0, 64) + "\"";
    }
  }
  out.learn_settings = settings;
  out.learn_playing = playing;
  out.learn_speed = speed;
  return "";
}

// Digests of the large fields, for the change stamp (their JSON would cost milliseconds a frame at n = 1024).
uint64_t digest_embeddings(const State& s) {
  const uint64_t dims[] = {static_cast<uint64_t>(s.embeddings.rows()), static_cast<uint64_t>(s.embeddings.cols())};
  return digest_words(s.embeddings.data(), sizeof(float) * static_cast<size_t>(s.embeddings.size()),
                      digest_words(dims, sizeof dims));
}
uint64_t digest_mask_cells(const State& s) {
  if (!s.mask_cells) return 0;
  const uint64_t dims[] = {static_cast<uint64_t>(s.mask_cells->rows()), static_cast<uint64_t>(s.mask_cells->cols())};
  return digest_words(s.mask_cells->data(), static_cast<size_t>(s.mask_cells->size()), digest_words(dims, sizeof dims));
}
// In random mode getState's scenario is made from the keys above alone (each input of build_scenario is a key),
// so only an explicit scenario adds to the digest; building the random one would draw and hash its projections
// three times a frame.
uint64_t digest_scenario(const State& s) {
  return s.mode == InputMode::Explicit ? scenario_fingerprint(s.explicit_scenario) : 0;
}

// The hand-written rows are the keys no builder fits: a value that brings others along (sentence, seed, scenario),
// a matrix, or an object of its own.
// clang-format off
const std::vector<StateKey>& state_keys() {
  using K = StateKind;
  static const std::vector<StateKey> keys = {
    {"version", K::Echo, [](const State&) -> json { return kStateVersion; }, nullptr,
     [] { return integer_schema(kStateVersion, kStateVersion); }},
    choice("mode", &State::mode, kModes, K::Example)
        .sample("explicit", json::parse(R"({"scenario": {"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [2]]}})")),
    StateKey{"sentence", K::Example, [](const State& s) -> json { return s.sentence; }, decode_sentence,
     [] { return json{{"type", "string"}, {"maxLength", kMaxSentenceBytes}, {"description", "tokens split at spaces"}}; }}
        .sample("the cat sat"),
    {"tokens", K::Echo, [](const State& s) -> json { return split_tokens(s.sentence); }, nullptr,
     [] { return described("array", "the sentence's tokens (read only)"); }},
    integer("d_model", &State::d_model, kMinDModel, kMaxDModel, K::Example).reported_as(&Widths::d_model)
        .marks(&Pending::width_changed).sample(6),
    integer("d_k", &State::d_k, kMinDk, kMaxDk, K::Example).reported_as(&Widths::d_k).sample(37),
    // d_v recomputes the sweep: whether the heads divide it decides whether there is one.
    integer("d_v", &State::d_v, kMinDv, kMaxDModel, K::Example).reported_as(&Widths::d_v).sample(5).recomputes_sweep(),
    StateKey{"seed", K::Example, [](const State& s) -> json { return s.seed; }, decode_seed,
     [] { return json{{"type", "integer"}, {"minimum", 0}}; }}
        .hashed([](const State& s, ValueHasher& h) { h.pod(s.seed); }).sample(42).recomputes_sweep(),
    choice("projections", &State::projections, kProjections, K::Example).sample("identity"),
    StateKey{"embeddings", K::Example, [](const State& s) -> json { return matrix_to_json(s.embeddings); }, decode_embeddings,
     [] { return described("array", "tokens × d_model numbers; [] = the seeded ones"); }, digest_embeddings}
        .hashed([](const State& s, ValueHasher& h) { h.mat(s.embeddings); })
        .sample(json::parse("[[1, 2], [3, -4.5]]"), {{"sentence", "a b"}, {"d_model", 2}}).recomputes_sweep(),
    flag("scale", &State::scale, K::Example).sample(false),
    number("temperature", &State::temperature, 0.0, kMaxTemperature, K::Example).sample(0.5).recomputes_sweep(),
    choice("mask", &State::mask, kMasks, K::Example).sample("causal").recomputes_sweep(),
    StateKey{"key_padding", K::Example, [](const State& s) -> json { return s.key_padding; },
     [](const json& v, State& s, Pending&) { return flags_from_json(v, "key_padding", s.key_padding); },
     [] { return described("array", "one boolean per token; [] = none"); }}
        .hashed([](const State& s, ValueHasher& h) { for (bool b : s.key_padding) h.pod(b); h.pod(s.key_padding.size()); })
        .sample({false, true, false}, {{"sentence", "a b c"}}).recomputes_sweep(),
    StateKey{"mask_cells", K::Example, [](const State& s) -> json { return s.mask_cells ? mask_to_json(*s.mask_cells) : json(nullptr); },
     decode_mask_cells, [] { return described("array", "tokens × tokens of 0/1 (1 = blocked), or null"); }, digest_mask_cells}
        .hashed([](const State& s, ValueHasher& h) {
          h.pod(s.mask_cells.has_value());
          if (s.mask_cells) h.bytes(s.mask_cells->data(), static_cast<size_t>(s.mask_cells->size())); })
        .sample(json::parse("[[0, 1], [0, 0]]"), {{"sentence", "a b"}}).recomputes_sweep(),
    integer("heads", &State::heads, 1, kMaxHeads, K::Example).sample(2).recomputes_sweep(),
    choice("positional_encoding", &State::positional_encoding, kPositional, K::Example).sample("sinusoidal").recomputes_sweep(),
    StateKey{"preset", K::Example, [](const State& s) -> json { return s.preset; }, nullptr,  // applied before every other key
     [] { return described("string", "a preset's id, applied before the other keys; \"\" = none"); }}
        .sample("saturation"),
    integer("selected_row", &State::selected_row, 0, kMaxDim - 1, K::Example).sample(1),
    integer("plane_x", &State::plane_x, 0, kMaxDModel - 1, K::Example).sample(2, {{"d_model", 4}}),
    integer("plane_y", &State::plane_y, 0, kMaxDModel - 1, K::Example).sample(3, {{"d_model", 4}}),
    choice("theme", &State::dark_theme, kThemes, K::Display)
        .sample("light")
        .starts_from("the browser's colour scheme"),
    number("text_scale", &State::text_scale, kMinTextScale, kMaxTextScale, K::Display).sample(1.25),
    StateKey{"lang", K::Display, [](const State& s) -> json { return lang_code(s.lang); },
     [](const json& v, State& s, Pending&) -> std::string {
       if (v.is_string() && lang_from_code(v.get<std::string>(), s.lang)) return "";
       return "lang must be one of " + lang_codes_list(); },
     [] { json e = json::array(); for (Lang l : all_languages()) e.push_back(lang_code(l)); return json{{"enum", e}}; },
     nullptr, [](State& t, const State& f) { t.lang = f.lang; }}
        .sample("hi-Latn")
        .starts_from("the first of the browser's languages the page has (Hindi gives hi-Latn)"),
    choice("heatmap_scale", &State::heatmap_row_scale, kHeatmapScales, K::Display).sample("row"),
    number("numerics_multiplier", &State::numerics_multiplier, kMinLogitMultiplier, kMaxLogitMultiplier, K::Display)
        .sample(12.5),
    StateKey{"panels", K::Display, [](const State& s) -> json { return panels_json(s.panels); }, decode_panels,
     [] { json p = json::object(); for (const PanelInfo& i : panel_table()) p[i.key] = boolean_schema();
          return json{{"type", "object"}, {"properties", p}}; },
     nullptr, [](State& t, const State& f) { t.panels = f.panels; }}
        .sample({{"masks", true}, {"explain", false}}),
    StateKey{"cross", K::Example, [](const State& s) -> json {
       return json{{"states", name_of(kCrossStates, s.cross.states)}, {"step", s.cross.step}}; },
     decode_cross,
     [] { return json{{"type", "object"}, {"properties", {{"states", enum_schema(kCrossStates)}, {"step", integer_schema(0, 3)}}}}; }}
        .sample({{"states", "seeded"}, {"step", 2}}),
    StateKey{"scenario", K::Example, [](const State& s) -> json { return scenario_to_json(build_scenario(s)); }, decode_scenario,
     [] { return described("object", "the CLI's scenario; setting it switches to explicit mode"); }, digest_scenario}
        .sample(json::parse(R"({"Q": [[2, 0]], "K": [[1, 0], [0, 1]], "V": [[1], [3]]})")),
    StateKey{"exercise", K::Worksheet, [](const State& s) -> json { return s.exercise; },
     [](const json& v, State& s, Pending&) -> std::string {
       if (!v.is_string() || v.get<std::string>().size() > 64) return "exercise must be \"exercise-<number>\" or a note example id";
       const std::string err = exercise_key_error(v.get<std::string>());
       if (!err.empty()) return "exercise: " + err;
       s.exercise = v.get<std::string>();
       return ""; },
     [] { return json{{"type", "string"}, {"maxLength", 64}, {"description", "\"exercise-<number>\" or a note example's id"}}; },
     nullptr, [](State& t, const State& f) { t.exercise = f.exercise; }}
        .sample("exercise-17"),
    StateKey{"learn", K::Learn, [](const State& s) -> json { return learn_state_json(s); },
     [](const json& v, State& s, Pending&) { return learn_state_from_json(v, s); },
     [] { return described("object", "Learn mode: {settings, playing, speed}"); }, nullptr,
     [](State& t, const State& f) { t.learn_settings = f.learn_settings; t.learn_playing = f.learn_playing; t.learn_speed = f.learn_speed; }}
        .sample(json::parse(R"({"speed": 7, "settings": {"seed": 9}})")),
    StateKey{"lesson", K::Lesson, [](const State& s) -> json {
       return s.lesson.id.empty() ? json(nullptr) : json{{"id", s.lesson.id}, {"step", s.lesson.step}}; },
     decode_lesson,
     [] { json ids = json::array(); for (const LessonEntry& l : builtin_lesson_entries()) ids.push_back(l.id);
          return json{{"type", {"object", "null"}}, {"properties", {{"id", {{"enum", ids}}}, {"step", integer_schema(1, 64)}}}}; },
     nullptr, [](State& t, const State& f) { t.lesson = f.lesson; }}
        .sample({{"id", "softmax"}, {"step", 2}}),
  };
  return keys;
}
// clang-format on

const char* kind_name(StateKind k) {
  switch (k) {
    case StateKind::Echo:
      return "echo";
    case StateKind::Example:
      return "example";
    case StateKind::Display:
      return "display";
    case StateKind::Lesson:
      return "lesson";
    case StateKind::Learn:
      return "learn";
    case StateKind::Worksheet:
      return "worksheet";
  }
  return "";
}

const StateKey* find_key(const std::string& key) {
  for (const StateKey& k : state_keys())
    if (key == k.key) return &k;
  return nullptr;
}

// After every key: embeddings, padding and painted cells made to fit the (possibly new) tokens.
std::string fit_random_state(State& s, const Pending& p, const std::vector<std::string>& before) {
  const int n = static_cast<int>(split_tokens(s.sentence).size());
  if (p.partial.contains("embeddings") && !p.embeddings_cleared) {
    if (s.embeddings.rows() != n || s.embeddings.cols() != s.d_model)
      return "embeddings must be " + std::to_string(n) + "×" + std::to_string(s.d_model) + " (tokens × d_model)";
  } else if (p.sentence_changed || p.seed_changed || p.width_changed || p.embeddings_cleared ||
             s.embeddings.size() == 0) {  // a fresh State has none yet: it gets the seeded ones
    const bool fresh = p.seed_changed || p.width_changed || p.embeddings_cleared;
    if (fresh) s.embeddings.resize(0, 0);
    sync_embeddings(s, fresh ? std::vector<std::string>{} : before);
  }
  if (s.plane_x >= s.d_model || s.plane_y >= s.d_model) return "plane_x and plane_y must be below d_model";
  if (!p.partial.contains("key_padding") && s.key_padding.size() != static_cast<size_t>(n))
    s.key_padding.clear();  // the sentence changed length: the old padding no longer fits
  if (!s.key_padding.empty() && s.key_padding.size() != static_cast<size_t>(n))
    return "key_padding must have one entry per token";
  if (s.mask_cells && (s.mask_cells->rows() != n || s.mask_cells->cols() != n)) {
    if (p.partial.contains("mask_cells"))
      return "mask_cells must be " + std::to_string(n) + "×" + std::to_string(n) + " (tokens × tokens)";
    s.mask_cells.reset();  // the sentence changed length: a painted mask no longer fits
  }
  return "";
}
}  // namespace

// [SECTION] schema, digest, what presets keep --------------------------------------------------
namespace {
json make_state_schema() {
  json out = json::object();
  const State defaults = default_state();
  for (const StateKey& k : state_keys()) {
    json entry = k.schema();
    entry["kind"] = kind_name(k.kind);
    if (k.kind == StateKind::Echo) entry["read_only"] = true;
    if (!k.sample_state.is_null()) entry["sample"] = k.sample_state;
    // A one-value key's default, as getState() writes it at the start (objects and matrices have samples).
    const json value = k.encode(defaults);
    if (k.kind != StateKind::Echo && !value.is_structured()) entry["default"] = value;
    if (k.default_from) entry["default_from"] = k.default_from;
    if (k.sweep_input) entry["recomputes_sweep"] = true;
    out[k.key] = std::move(entry);
  }
  return out;
}
}  // namespace

// Made once (the parallel DOM's description reads it after every change), and again only if a translator's
// catalog added a language (`lang` lists them); languages() is a kept list, so the check allocates nothing.
const json& state_schema() {
  static json schema;
  static size_t languages_seen = 0;
  if (languages_seen != languages().size()) schema = make_state_schema(), languages_seen = languages().size();
  return schema;
}

uint64_t state_digest(const State& s) {
  Fnv1a h;
  for (const StateKey& k : state_keys()) {
    if (k.kind == StateKind::Echo) continue;
    h.text(k.key);
    if (k.digest) {
      h.pod(k.digest(s));
    } else {
      h.text(k.encode(s).dump(-1, ' ', false, json::error_handler_t::replace));
    }
  }
  return h.value();
}

void hash_sweep_inputs(const State& s, ValueHasher& h) {
  for (const StateKey& k : state_keys())
    if (k.sweep_input) k.hash_field(s, h);
}

void keep_learner_fields(State& s, const State& old) {
  for (const StateKey& k : state_keys())
    if (k.copy) k.copy(s, old);
}

std::vector<std::string> state_keys_without_copy() {
  std::vector<std::string> out;
  for (const StateKey& k : state_keys())
    if (k.kind != StateKind::Echo && k.kind != StateKind::Example && !k.copy) out.push_back(k.key);
  return out;
}

// [SECTION] getState / setState ---------------------------------------------------------------
json state_to_json(const State& s) {
  json j = json::object();
  for (const StateKey& k : state_keys()) j[k.key] = k.encode(s);
  return j;
}

namespace {
std::string apply_state_keys(State& live, const json& partial);

// In explicit mode getState reports the matrices' widths (computed_widths): as setState keys they are
// echoes that must agree, not settings.
const char* const kWidthKeys[] = {"d_model", "d_k", "d_v"};

// Whether applying `partial` leaves the state in explicit mode (a bad value is reported later).
bool ends_explicit(const State& live, const json& partial) {
  if (partial.contains("mode")) return partial["mode"] == "explicit";
  if (partial.contains("scenario")) return true;
  const auto preset = partial.find("preset");
  if (preset != partial.end() && preset->is_string() && !preset->get<std::string>().empty()) {
    State fresh;
    return apply_preset(fresh, preset->get<std::string>()) && fresh.mode == InputMode::Explicit;
  }
  return live.mode == InputMode::Explicit;
}

// The widths checked against the matrices'; the random mode's own settings stay as they were.
std::string apply_with_fixed_widths(State& live, const json& partial) {
  json rest = partial;
  for (const char* k : kWidthKeys) rest.erase(k);
  State s = live;
  std::string err = apply_state_keys(s, rest);
  if (!err.empty()) return err;
  if (s.mode != InputMode::Explicit) return apply_state_keys(live, partial);
  const Widths w = computed_widths(s);
  const int fixed[] = {w.d_model, w.d_k, w.d_v};
  for (size_t i = 0; i < 3; ++i) {
    const char* k = kWidthKeys[i];
    if (!partial.contains(k)) continue;
    const json& v = partial[k];
    if (!v.is_number() || v.get<double>() != fixed[i])
      return std::string(k) + " is " + std::to_string(fixed[i]) +
             ", fixed by the example's matrices; set \"mode\": \"random\" to choose it";
  }
  live = std::move(s);
  return "";
}
}  // namespace

std::string apply_state_json(State& live, const json& partial) {
  if (!partial.is_object()) return "state must be a JSON object";
  const bool widths_given =
      std::any_of(std::begin(kWidthKeys), std::end(kWidthKeys), [&](const char* k) { return partial.contains(k); });
  if (widths_given && ends_explicit(live, partial)) return apply_with_fixed_widths(live, partial);
  return apply_state_keys(live, partial);
}

namespace {
std::string apply_state_keys(State& live, const json& partial) {
  State s = live;
  if (partial.contains("preset")) {
    const json& p = partial["preset"];
    if (!p.is_string()) return "preset must be a string";
    if (!p.get<std::string>().empty() && !apply_preset(s, p.get<std::string>()))
      return "unknown preset \"" + p.get<std::string>() + "\"";
  }
  const std::vector<std::string> before = split_tokens(s.sentence);
  Pending pending{partial};
  for (auto it = partial.begin(); it != partial.end(); ++it) {
    const StateKey* key = find_key(it.key());
    if (!key) return "unknown state key \"" + it.key() + "\"";
    if (!key->decode) continue;  // preset (applied above) and read-only echoes of getState()
    if (key->marked) pending.*(key->marked) = true;
    std::string err = key->decode(it.value(), s, pending);
    if (!err.empty()) return err;
  }
  if (s.mode == InputMode::Random) {
    std::string err = fit_random_state(s, pending, before);
    if (!err.empty()) return err;
  }
  const Scenario built = build_scenario(s);
  const std::string err = validate(built);
  if (!err.empty()) return err;
  const int rows = built.Q ? static_cast<int>(built.Q->rows()) : (built.X ? static_cast<int>(built.X->rows()) : 0);
  if (partial.contains("selected_row") && s.selected_row >= rows)
    return "selected_row must be below the number of query rows (" + std::to_string(rows) + ")";
  if (s.selected_row >= rows) s.selected_row = 0;  // e.g. a shorter sentence or another preset
  live = std::move(s);
  return "";
}
}  // namespace

std::string apply_state_text(State& s, const std::string& text) {
  json j;
  const std::string err = parse_json_text(text, kMaxJsonBytes, "the state", j);
  if (!err.empty()) return err;
  try {
    return apply_state_json(s, j);
  } catch (const std::exception& e) {
    return std::string("state could not be applied: ") + e.what();
  }
}

bool is_settable_key(const std::string& key) {
  const StateKey* k = find_key(key);
  return k && k->decode;
}

bool revert_state_key(State& now, const State& before, const std::string& key) {
  const StateKey* k = find_key(key);
  if (!k || !k->decode) return false;
  json was = k->encode(before);
  if (k->encode(now) != was) {
    json partial = json::object();
    partial[key] = std::move(was);
    if (!apply_state_json(now, partial).empty()) now = before;  // cannot happen for a value `before` held
  }
  return true;
}

}  // namespace attn
