// hash.h — the one FNV-1a (64-bit) hash: stable word embeddings, change detection, change digests.
#pragma once

#include <cstddef>
#include <cstdint>
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

inline uint64_t fnv1a(std::string_view s) {
  Fnv1a h;
  h.text(s);
  return h.value();
}

}  // namespace attn
