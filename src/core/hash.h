// hash.h — the one FNV-1a (64-bit) hash: stable word embeddings, change detection, change digests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace attn {

// FNV-1a over bytes fed in any number of pieces: the same bytes give the same value on every
// platform, so it can seed a word's embedding as well as detect that something changed.
class Fnv1a {
 public:
  // The published 64-bit basis is 14695981039346656037; this project has always started from
  // 1469598103934665603 (the same digits, one short). It hashes as well, and a word's seeded
  // embedding — so every share link's numbers — depends on it: keep it.
  static constexpr uint64_t kOffsetBasis = 1469598103934665603ull;
  static constexpr uint64_t kPrime = 1099511628211ull;  // the published 64-bit FNV prime, 2^40 + 2^8 + 0xb3

  void bytes(const void* p, size_t n) {
    const unsigned char* c = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h_ = (h_ ^ c[i]) * kPrime;
  }
  void text(std::string_view s) { bytes(s.data(), s.size()); }
  // A plain value's bytes (ints, floats, enums; not pointers or padded structs).
  template <typename T>
  void pod(const T& v) {
    bytes(&v, sizeof v);
  }
  uint64_t value() const { return h_; }

 private:
  uint64_t h_ = kOffsetBasis;
};

// A fast 64-bit digest of a large buffer, eight bytes at a time (a multiply–xor–shift mix, not FNV):
// for telling whether a frame's draw lists changed, where FNV's byte loop would cost a millisecond.
// Change detection within one process only (words are read in the machine's byte order); not for
// seeding anything.
inline uint64_t digest_words(const void* p, size_t n, uint64_t h = 0x9e3779b97f4a7c15ull) {
  const unsigned char* c = static_cast<const unsigned char*>(p);
  const auto mix = [&h](uint64_t w) {
    h ^= w * 0xff51afd7ed558ccdull;
    h = (h << 29 | h >> 35) * 0xc4ceb9fe1a85ec53ull;
  };
  size_t i = 0;
  for (uint64_t w; i + 8 <= n; i += 8) {
    std::memcpy(&w, c + i, 8);
    mix(w);
  }
  uint64_t tail = 0;
  if (i < n) std::memcpy(&tail, c + i, n - i);
  mix(tail);
  mix(n);  // the length, so buffers that differ only by trailing zeros differ
  return h;
}

inline uint64_t fnv1a(std::string_view s) {
  Fnv1a h;
  h.text(s);
  return h.value();
}

}  // namespace attn
