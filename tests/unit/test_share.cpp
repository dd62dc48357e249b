// test_share.cpp — share links (codec, exact state round trips, hostile fragments), imports, CSV export,
// embed query parsing and locked controls.
#include <catch2/catch.hpp>

#include <string>

#include "app/app.h"
#include "app/exchange/embed.h"
#include "app/exchange/share.h"
#include "app/state/presets.h"
#include "app/state/state_json.h"
#include "core/share_codec.h"

using attn::State;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using nlohmann::json;

namespace {
std::string state_text(const State& s) { return attn::state_to_json(s).dump(); }

State round_trip(const State& s) {
  State out;
  const std::string f = attn::share_fragment(s);
  REQUIRE_THAT(f, StartsWith("s=1."));
  const std::string err = attn::decode_share_fragment("#" + f, out);
  REQUIRE(err.empty());
  return out;
}

std::string payload_json(const std::string& fragment) {
  std::string text;
  REQUIRE(attn::share_decode(fragment, text).empty());
  return text;
}
}  // namespace

TEST_CASE("base64url round-trips every length and rejects foreign characters", "[share]") {
  std::string bytes;
  for (int n = 0; n < 40; ++n) {
    std::string back;
    const std::string enc = attn::base64url_encode(bytes);
    REQUIRE(enc.find_first_of("+/=") == std::string::npos);
    REQUIRE(attn::base64url_decode(enc, back).empty());
    REQUIRE(back == bytes);
    bytes += static_cast<char>((n * 97 + 13) & 0xFF);
  }
  std::string out;
  CHECK(attn::base64url_decode("YWJj", out).empty());
  CHECK(out == "abc");
  CHECK(attn::base64url_decode("YWJjZA==", out).empty());
  CHECK(out == "abcd");
  CHECK_FALSE(attn::base64url_decode("YW+j", out).empty());
  CHECK_FALSE(attn::base64url_decode("Y", out).empty());
  CHECK_FALSE(attn::base64url_decode("YW<img>", out).empty());
}

TEST_CASE("inflate is bounded, and truncated or trailing data is refused", "[share]") {
  const std::string zeros(10u << 20, '\0');
  std::string packed, out;
  REQUIRE(attn::deflate_raw(zeros, packed));
  CHECK(packed.size() < 20000);
  CHECK_THAT(attn::inflate_raw(packed, attn::kMaxShareInflatedBytes, out), Contains("MiB"));
  CHECK(attn::inflate_raw(packed, 11u << 20, out).empty());
  CHECK(out == zeros);
  const std::string text = "{\"d_k\": 512, \"scale\": false, \"sentence\": \"a b c d a b c d a b c d\"}";
  REQUIRE(attn::deflate_raw(text, packed));
  CHECK_FALSE(attn::inflate_raw(packed.substr(0, packed.size() / 2), 1000, out).empty());
  CHECK_FALSE(attn::inflate_raw(packed + "xx", 1000, out).empty());
  CHECK_FALSE(attn::inflate_raw("\xff\xff\xff\xff", 1000, out).empty());
}

TEST_CASE("share envelope: marker, version, limits", "[share]") {
  std::string text;
  const std::string small = attn::share_encode("{}");
  std::string bytes;
  REQUIRE(attn::base64url_decode(small.substr(4), bytes).empty());
  CHECK(bytes == "j{}");
  std::string big = "{\"sentence\": \"";
  for (int i = 0; i < 200; ++i) big += "the cat sat on the mat ";
  big += "\"}";
  const std::string packed = attn::share_encode(big);
  REQUIRE(attn::base64url_decode(packed.substr(4), bytes).empty());
  CHECK(bytes[0] == 'z');
  CHECK(packed.size() < big.size() / 4);
  REQUIRE(attn::share_decode("https://x.example/attnplay/?embed=1#" + packed, text).empty());
  CHECK(text == big);

  for (const char* bad : {"", "#", "#s", "#s=", "#s=1", "#s=1.", "#s=2.ajE", "#s=x.ajE", "#q=1.ajE", "#s=1.a",
                          "#s=1.<img src=x onerror=alert(1)>", "#s=1.cXh4"})
    CHECK_FALSE(attn::share_decode(bad, text).empty());
  CHECK_THAT(attn::share_decode("#s=7.abcd", text), Contains("newer version"));
  const std::string huge = "#s=1." + std::string(attn::kMaxShareFragmentBytes + 10, 'A');
  CHECK_THAT(attn::share_decode(huge, text), Contains("longer than"));
  // A zip bomb: 5 MiB of spaces deflates to a few KiB but must not inflate past the bound.
  std::string bomb;
  REQUIRE(attn::deflate_raw(std::string(5u << 20, ' '), bomb));
  CHECK_THAT(attn::share_decode("s=1." + attn::base64url_encode("z" + bomb), text), Contains("MiB"));
}

TEST_CASE("the default state round-trips exactly, with a short link", "[share]") {
  const State s = attn::default_state();
  const std::string f = attn::share_fragment(s);
  INFO(f);
  CHECK(f.size() < 100);
  const json j = json::parse(payload_json(f));
  CHECK(j == json{{"preset", "default"}, {"version", 1}});  // everything else is the defaults
  CHECK(state_text(round_trip(s)) == state_text(s));
}

TEST_CASE("fields equal to the preset's are left out, and changing one back to the default still travels", "[share]") {
  State s = attn::default_state();
  REQUIRE(attn::apply_preset(s, "saturation"));  // d_k 512, unscaled, a longer sentence
  REQUIRE(attn::apply_state_text(s, R"({"d_k": 64, "temperature": 0.5})").empty());
  const json j = json::parse(payload_json(attn::share_fragment(s)));
  CHECK(j.at("d_k") == 64);  // the default's value, but not the preset's: it must be written
  CHECK(j.at("temperature") == 0.5);
  CHECK_FALSE(j.contains("scale"));     // as the preset has it
  CHECK_FALSE(j.contains("sentence"));  // as the preset has it
  CHECK_FALSE(j.contains("embeddings"));
  CHECK(state_text(round_trip(s)) == state_text(s));
}

TEST_CASE("every preset round-trips exactly", "[share]") {
  for (const attn::Preset& p : attn::presets()) {
    INFO(p.id);
    State s = attn::default_state();
    REQUIRE(attn::apply_preset(s, p.id));
    CHECK(state_text(round_trip(s)) == state_text(s));
  }
}

TEST_CASE("a non-default random state round-trips exactly, edited embeddings included", "[share]") {
  State s = attn::default_state();
  REQUIRE(
      attn::apply_state_text(s, R"({"sentence": "to be or not to be", "d_k": 300, "d_model": 6, "seed": 77, "d_v": 9,
      "scale": false, "temperature": 0.37, "mask": "causal", "heads": 3, "key_padding": [false,false,true,false,false,false],
      "positional_encoding": "sinusoidal", "selected_row": 4, "theme": "light", "text_scale": 1.25,
      "panels": {"variance": false, "share": true}})")
          .empty());
  s.embeddings(2, 3) = 0.1234567f;
  s.embeddings(0, 0) = -3.3e-7f;
  const std::string f = attn::share_fragment(s);
  CHECK(json::parse(payload_json(f)).contains("embeddings"));
  const State back = round_trip(s);
  State sent = s;
  sent.panels.share = false;  // the Share window the link was made in stays with the sender
  CHECK(state_text(back) == state_text(sent));
  CHECK(back.embeddings(2, 3) == 0.1234567f);
  CHECK_FALSE(back.panels.share);
  CHECK_FALSE(back.panels.variance);
}

TEST_CASE("an explicit scenario with empty embeddings round-trips", "[share]") {
  State s = attn::default_state();
  REQUIRE(attn::apply_state_text(s, R"({"scenario": {"Q": [[1, 2]], "K": [[1, 0], [0, 1]], "V": [[3], [4]],
      "tokens": ["<img src=x onerror=alert(1)>"]}, "temperature": 0.5})")
              .empty());
  s.embeddings.resize(0, 0);
  CHECK(state_text(round_trip(s)) == state_text(s));
}

TEST_CASE("hostile share JSON is refused and App falls back to the defaults with a message", "[share]") {
  attn::App app;
  REQUIRE(attn::apply_state_text(app.state, R"({"d_k": 7})").empty());
  for (const std::string& inner : {std::string("[1,2]"), std::string("{\"d_k\": 5000}"), std::string("{\"nope\": 1}"),
                                   std::string(40, '[') + std::string(40, ']'), std::string("{\"d_k\": ")}) {
    INFO(inner);
    CHECK_FALSE(app.open_fragment("#" + attn::share_encode(inner)));
    CHECK_FALSE(app.status.empty());
    CHECK(state_text(app.state) == state_text(attn::default_state()));
  }
  CHECK(app.open_fragment("#" + attn::share_encode("{\"d_k\": 5}")));
  CHECK(app.state.d_k == 5);
  CHECK(app.status.empty());
}

TEST_CASE("a fragment that is not the app's (#top, a skip link's target) leaves the learner's state alone", "[share]") {
  attn::App app;
  REQUIRE(attn::apply_state_text(app.state, R"({"d_k": 7})").empty());
  for (const char* fragment : {"#top", "#a11y-lesson", "#", "top", "#S=1.x"}) {
    INFO(fragment);
    CHECK_FALSE(app.open_fragment(fragment));
    CHECK(app.state.d_k == 7);
    CHECK(app.status.empty());
  }
  CHECK(attn::is_share_fragment("#s=1.abc"));
  CHECK(attn::is_share_fragment("https://example.org/index.html#s=1.abc"));
  CHECK_FALSE(attn::is_share_fragment("#top"));
}

TEST_CASE("share_link is the page address plus the fragment", "[share]") {
  attn::App app;
  app.host.page_url = [] { return std::string("http://127.0.0.1:8096/index.html"); };
  CHECK(app.share_link() == "http://127.0.0.1:8096/index.html#" + attn::share_fragment(app.state));
}

TEST_CASE("import: CLI scenarios and full states", "[share]") {
  attn::App app;
  CHECK(app.import_text(R"({"Q": [[1, 0, 1, 0]], "K": [[1, 0, 1, 0], [0, 1, 0, 1]], "V": [[5, 0, 0], [0, 3, 0]]})",
                        "ex.json")
            .empty());
  CHECK(app.state.mode == attn::InputMode::Explicit);
  CHECK(app.state.preset.empty());
  CHECK_THAT(app.status, Contains("scenario"));
  CHECK(std::abs(app.result.core.main.weights(0, 0) - 0.7311f) < 1e-4f);

  // A getState() document of a random-mode state stays in random mode.
  State s = attn::default_state();
  REQUIRE(attn::apply_state_text(s, R"({"d_k": 512, "scale": false})").empty());
  s.embeddings(1, 1) = 2.5f;
  CHECK(app.import_text(attn::state_to_json(s).dump(2), "state.json").empty());
  CHECK(state_text(app.state) == state_text(s));
  // And of an explicit preset (whose embeddings are empty).
  State e = attn::default_state();
  REQUIRE(attn::apply_preset(e, "bahdanau"));
  CHECK(app.import_text(attn::state_to_json(e).dump(), "bahdanau.json").empty());
  CHECK(state_text(app.state) == state_text(e));

  const std::string before = state_text(app.state);
  CHECK_FALSE(app.import_text("not json", "x.json").empty());
  CHECK_FALSE(app.import_text(std::string(100, '[') + std::string(100, ']'), "deep.json").empty());
  CHECK_FALSE(app.import_text(R"({"X": [[1, 2], [3]]})", "ragged.json").empty());
  CHECK_FALSE(app.import_text("\"<img src=x onerror=alert(1)>\"", "\n\x01<b>.json").empty());
  CHECK(state_text(app.state) == before);
  CHECK(app.status.find('\n') == std::string::npos);
}

TEST_CASE("CSV export holds every matrix and defuses formulas", "[share]") {
  attn::App app;
  REQUIRE(
      attn::apply_state_text(app.state, R"({"sentence": "=HYPERLINK(1) cat, \"x\"", "heads": 2, "d_k": 8})").empty());
  app.update();
  const std::string csv = attn::result_csv(app.result);
  for (const char* block : {"\nQ,", "\nK,", "\nV,", "head 1 scores,", "head 1 logits,", "head 2 weights,", "\nconcat,",
                            "\nfinal output,", "row statistics,entropy,max_weight,jacobian_norm"})
    CHECK_THAT(csv, Contains(block));
  CHECK_THAT(csv, Contains("'=HYPERLINK(1)"));
  CHECK_THAT(csv, Contains("\"cat,\""));
  CHECK_THAT(csv, Contains("\"\"\"x\"\"\""));
  CHECK(csv.find("\n=") == std::string::npos);
}

TEST_CASE("embed query: panels, locks, hidden controls and origins", "[embed]") {
  attn::EmbedSettings e;
  CHECK(attn::parse_embed_query("?panels=heatmap,saturation&lock=d_k,scale&hide=seed&origins=https://Course.Example,"
                                "http://127.0.0.1:8097/,https://a.example:443&utm_source=x",
                                e)
            .empty());
  CHECK(e.enabled);
  CHECK(e.panels == std::vector<std::string>{"heatmap", "saturation"});
  CHECK(e.is_locked("d_k"));
  CHECK(e.is_locked("seed"));  // hidden implies locked
  CHECK(e.is_hidden("seed"));
  CHECK_FALSE(e.is_locked("temperature"));
  CHECK(e.origins == std::vector<std::string>{"https://course.example", "http://127.0.0.1:8097", "https://a.example"});
  attn::EmbedSettings back;
  CHECK(attn::parse_embed_query(attn::embed_query(e), back).empty());
  CHECK(back.panels == e.panels);
  CHECK(back.locked == e.locked);
  CHECK(back.hidden == e.hidden);
  CHECK(back.origins == e.origins);

  CHECK(attn::parse_embed_query("panels=heatmap%2Csaturation", e).empty());
  CHECK(e.panels.size() == 2);
  CHECK_THAT(attn::parse_embed_query("panels=heatmap,<script>&lock=d_k", e), Contains("unknown panel"));
  CHECK(e.panels == std::vector<std::string>{"heatmap"});
  CHECK(e.locked == std::vector<std::string>{"d_k"});
  std::string c;
  for (const char* bad : {"javascript:alert(1)", "https://a.example/path", "https://", "http://a..b", "http://a:99999",
                          "https://a.example:x", "*", "null", "https://a b.example", "data:text/html,x"})
    CHECK_FALSE(attn::check_origin(bad, c).empty());
  CHECK(attn::check_origin("http://[::1]:8080", c).empty());
  CHECK(c == "http://[::1]:8080");
  CHECK_FALSE(attn::parse_embed_query(std::string(attn::kMaxEmbedQueryBytes + 1, 'a'), e).empty());
  CHECK_FALSE(e.enabled);
  CHECK(attn::parse_embed_query("", e).empty());
  CHECK_FALSE(e.enabled);
}

TEST_CASE("locked controls: the learner's change is put back", "[embed]") {
  attn::EmbedSettings e;
  REQUIRE(attn::parse_embed_query("lock=d_k,scale&hide=sentence", e).empty());
  const State before = attn::default_state();
  State now = before;
  now.d_k = 999;
  now.scale = false;
  now.temperature = 2;
  now.sentence = "a b";
  attn::revert_locked(now, before, e);
  CHECK(now.d_k == before.d_k);
  CHECK(now.scale == before.scale);
  CHECK(now.sentence == before.sentence);
  CHECK(now.temperature == 2);
}
