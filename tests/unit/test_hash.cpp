// test_hash.cpp — the one FNV-1a: the FNV-1a recurrence with the project's basis and the FNV prime,
// fed in pieces like the whole.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "core/hash.h"

namespace {
// The FNV-1a definition, step by step: for each byte, xor it in, then multiply by the prime (mod 2^64).
uint64_t fnv1a_reference(const std::string& s, uint64_t basis) {
  uint64_t h = basis;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}
}  // namespace

TEST_CASE("FNV-1a: the published prime, and the basis every seeded embedding depends on", "[hash]") {
  STATIC_REQUIRE(attn::Fnv1a::kPrime == 0x100000001b3ull);
  // Changing the basis would change every word's embedding and so the numbers of every shared link.
  STATIC_REQUIRE(attn::Fnv1a::kOffsetBasis == 1469598103934665603ull);
  for (const std::string& s : std::vector<std::string>{"", "a", "foobar", "The", "étudiant", std::string(300, 'x')})
    CHECK(attn::fnv1a(s) == fnv1a_reference(s, attn::Fnv1a::kOffsetBasis));
  // The recurrence itself, checked on the published basis against the reference test vectors.
  CHECK(fnv1a_reference("", 0xcbf29ce484222325ull) == 0xcbf29ce484222325ull);
  CHECK(fnv1a_reference("a", 0xcbf29ce484222325ull) == 0xaf63dc4c8601ec8cull);
  CHECK(fnv1a_reference("foobar", 0xcbf29ce484222325ull) == 0x85944171f73967e8ull);
}

TEST_CASE("FNV-1a fed in pieces equals the whole", "[hash]") {
  attn::Fnv1a h;
  h.text("foo");
  h.bytes("bar", 3);
  CHECK(h.value() == attn::fnv1a("foobar"));
  attn::Fnv1a a, b;
  a.pod(uint32_t{1});
  b.pod(uint32_t{2});
  CHECK(a.value() != b.value());
}

TEST_CASE("digest_words tells buffers apart by every byte and by length", "[hash]") {
  // The page skips painting a frame whose draw lists digest to the last painted one's, so any change
  // of a vertex byte, and a buffer that only grew by zeros, must change the digest.
  std::vector<unsigned char> buf(1003);
  for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<unsigned char>(i * 7 + 3);
  const uint64_t base = attn::digest_words(buf.data(), buf.size());
  CHECK(attn::digest_words(buf.data(), buf.size()) == base);
  for (size_t i = 0; i < buf.size(); ++i) {
    buf[i] ^= 1;
    INFO("byte " << i);
    CHECK(attn::digest_words(buf.data(), buf.size()) != base);
    buf[i] ^= 1;
  }
  std::vector<unsigned char> zeros(16, 0), more_zeros(17, 0);
  CHECK(attn::digest_words(zeros.data(), zeros.size()) != attn::digest_words(more_zeros.data(), more_zeros.size()));
  // Chained digests depend on the seed they continue from.
  CHECK(attn::digest_words(buf.data(), 8, 1) != attn::digest_words(buf.data(), 8, 2));
}
