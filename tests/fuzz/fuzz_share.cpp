// fuzz_share.cpp — libFuzzer target for every decoder a URL, file or message reaches: the share
// fragment (base64url + inflate + state JSON), the state JSON itself, imports and the embed query.
// Whatever a decoder accepts must survive encode → decode unchanged (checked here, aborts if not).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/exchange/embed.h"
#include "app/exchange/share.h"
#include "app/state/state_json.h"
#include "core/share_codec.h"

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_share: %s\n%s\n", what, detail.c_str());
  std::abort();
}

// decode → encode → decode gives the same state JSON, but for the Share window: a link never
// carries the window it was made in (share.h), so the state is compared with that window closed.
void check_identity(attn::State s) {
  s.panels.share = false;
  const std::string first = attn::state_to_json(s).dump();
  const std::string fragment = attn::share_fragment(s);
  attn::State back;
  const std::string err = attn::decode_share_fragment("#" + fragment, back);
  if (!err.empty()) fail("an accepted state does not decode from its own link", err + "\n" + first);
  const std::string second = attn::state_to_json(back).dump();
  if (first != second) fail("encode∘decode is not the identity", first + "\n---\n" + second);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string in(reinterpret_cast<const char*>(data), size);

  // 1. The bytes as a fragment from the address bar.
  attn::State s;
  if (attn::decode_share_fragment(in, s).empty()) check_identity(s);

  // 2. The bytes as the JSON inside a link (wrapped in a valid envelope, so the state decoder is
  //    reached without the fuzzer having to learn deflate and base64).
  attn::State t;
  if (attn::decode_share_fragment(attn::share_encode(in), t).empty()) check_identity(t);

  // 3. The bytes as a dropped or picked file (scenario or full state), applied to the defaults.
  attn::State u;
  std::string kind;
  if (attn::import_document(in, attn::default_state(), u, kind).empty()) check_identity(u);

  // 4. The bytes as a partial state from setState / postMessage.
  attn::State v = attn::default_state();
  if (attn::apply_state_text(v, in).empty()) check_identity(v);

  // 5. The bytes as the page's query string: whatever is accepted reads back the same.
  attn::EmbedSettings e, e2;
  attn::parse_embed_query(in, e);
  attn::parse_embed_query(attn::embed_query(e), e2);
  if (e.panels != e2.panels || e.locked != e2.locked || e.hidden != e2.hidden || e.origins != e2.origins)
    fail("embed query does not round-trip", in);
  return 0;
}
