// share_codec.cpp — base64url, bounded raw deflate/inflate (zlib) and the "s=1." envelope of share links.
// Every decoder here is fed text from URLs: sizes are checked before work, output is bounded.
#include "core/share_codec.h"

#include <zlib.h>

#include <cstring>

namespace attn {

namespace {
const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int sextet(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}
}  // namespace

std::string base64url_encode(const std::string& bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  const auto b = [&](size_t k) { return static_cast<unsigned>(static_cast<unsigned char>(bytes[k])); };
  for (; i + 3 <= bytes.size(); i += 3) {
    const unsigned v = (b(i) << 16) | (b(i + 1) << 8) | b(i + 2);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  const size_t rest = bytes.size() - i;
  if (rest == 1) {
    const unsigned v = b(i) << 16;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
  } else if (rest == 2) {
    const unsigned v = (b(i) << 16) | (b(i + 1) << 8);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
  }
  return out;
}

std::string base64url_decode(const std::string& text, std::string& out) {
  size_t n = text.size();
  while (n > 0 && text[n - 1] == '=' && text.size() - n < 2) --n;  // tolerate up to two '=' of padding
  if (n % 4 == 1) return "the link is truncated (base64 length is impossible)";
  std::string bytes;
  bytes.reserve(n / 4 * 3 + 2);
  unsigned acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n; ++i) {
    const int v = sextet(static_cast<unsigned char>(text[i]));
    if (v < 0) return "the link contains a character that is not base64url (position " + std::to_string(i) + ")";
    acc = (acc << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes += static_cast<char>((acc >> bits) & 0xFF);
    }
    acc &= 0xFFFF;  // only the low `bits` bits matter
  }
  out = std::move(bytes);
  return "";
}

bool deflate_raw(const std::string& in, std::string& out) {
  z_stream zs;
  std::memset(&zs, 0, sizeof zs);
  if (deflateInit2(&zs, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK) return false;
  std::string buf(deflateBound(&zs, static_cast<uLong>(in.size())) + 16, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(&buf[0]);
  zs.avail_out = static_cast<uInt>(buf.size());
  const int rc = deflate(&zs, Z_FINISH);
  const size_t produced = buf.size() - zs.avail_out;
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) return false;
  buf.resize(produced);
  out = std::move(buf);
  return true;
}

std::string inflate_raw(const std::string& in, size_t max_out, std::string& out) {
  z_stream zs;
  std::memset(&zs, 0, sizeof zs);
  if (inflateInit2(&zs, -15) != Z_OK) return "could not start the decompressor";
  std::string buf;
  char chunk[16384];
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  std::string err;
  for (;;) {
    zs.next_out = reinterpret_cast<Bytef*>(chunk);
    zs.avail_out = sizeof chunk;
    const int rc = inflate(&zs, Z_NO_FLUSH);
    const size_t got = sizeof chunk - zs.avail_out;
    if (buf.size() + got > max_out) {  // checked per chunk, so a bomb never allocates past the bound
      err = "the link expands to more than " + std::to_string(max_out >> 20) + " MiB";
      break;
    }
    buf.append(chunk, got);
    if (rc == Z_STREAM_END) {
      if (zs.avail_in != 0) err = "the link has bytes after the end of its compressed data";
      break;
    }
    if (rc == Z_BUF_ERROR || (rc == Z_OK && zs.avail_in == 0 && got < sizeof chunk)) {
      err = "the link is truncated (compressed data ends early)";
      break;
    }
    if (rc != Z_OK) {
      err = "the link's compressed data is corrupt";
      break;
    }
  }
  inflateEnd(&zs);
  if (!err.empty()) return err;
  out = std::move(buf);
  return "";
}

std::string share_encode(const std::string& json_text) {
  std::string packed;
  std::string payload;
  if (deflate_raw(json_text, packed) && packed.size() < json_text.size())
    payload = "z" + packed;
  else
    payload = "j" + json_text;
  return "s=" + std::to_string(kShareFormatVersion) + "." + base64url_encode(payload);
}

std::string share_decode(const std::string& fragment, std::string& json_text) {
  if (fragment.size() > kMaxShareFragmentBytes + 4096)  // before any copy or scan of a huge string
    return "the link is longer than " + std::to_string(kMaxShareFragmentBytes >> 10) + " KiB";
  std::string f = fragment;
  const size_t hash = f.find('#');
  if (hash != std::string::npos) f = f.substr(hash + 1);
  if (f.size() > kMaxShareFragmentBytes)
    return "the link is longer than " + std::to_string(kMaxShareFragmentBytes >> 10) + " KiB";
  if (f.compare(0, 2, "s=") != 0) return "the link has no shared state (expected #s=1.…)";
  const size_t dot = f.find('.');
  if (dot == std::string::npos) return "the link's state has no version (expected #s=1.…)";
  const std::string version = f.substr(2, dot - 2);
  if (version != std::to_string(kShareFormatVersion)) {
    if (!version.empty() && version.size() < 6 && version.find_first_not_of("0123456789") == std::string::npos)
      return "the link was made by a newer version of the playground (format " + version + ")";
    return "the link's state version is not understood";
  }
  std::string bytes;
  std::string err = base64url_decode(f.substr(dot + 1), bytes);
  if (!err.empty()) return err;
  if (bytes.empty()) return "the link's state is empty";
  const char marker = bytes[0];
  if (marker == 'j') {
    if (bytes.size() - 1 > kMaxShareInflatedBytes) return "the link's state is too large";
    json_text = bytes.substr(1);
    return "";
  }
  if (marker != 'z') return "the link's state has an unknown encoding";
  std::string text;
  err = inflate_raw(bytes.substr(1), kMaxShareInflatedBytes, text);
  if (!err.empty()) return err;
  json_text = std::move(text);
  return "";
}

}  // namespace attn
