// zip_writer.cpp — local file headers, raw deflate (zlib, as share links use it) and the central directory.
#include "core/zip_writer.h"

#include <zlib.h>

#include <limits>

#include "core/share_codec.h"

namespace attn {

namespace {
void put16(std::string& out, uint32_t v) {
  out += static_cast<char>(v & 0xFF);
  out += static_cast<char>((v >> 8) & 0xFF);
}
void put32(std::string& out, uint32_t v) {
  put16(out, v & 0xFFFF);
  put16(out, v >> 16);
}
// 1 January 2026, 00:00, in DOS form: every package of the same input is the same bytes.
constexpr uint32_t kDosTime = 0;
constexpr uint32_t kDosDate = ((2026 - 1980) << 9) | (1 << 5) | 1;
constexpr uint32_t kMax32 = std::numeric_limits<uint32_t>::max();
}  // namespace

void ZipWriter::add(const std::string& path, const std::string& bytes) {
  if (bytes.size() >= kMax32 || body_.size() >= kMax32 - bytes.size() - 1024 || entries_.size() >= 0xFFFF) {
    too_large_ = true;
    return;
  }
  Entry e;
  e.path = path;
  e.crc =
      static_cast<uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
  e.size = static_cast<uint32_t>(bytes.size());
  e.offset = static_cast<uint32_t>(body_.size());
  std::string packed;
  const bool deflated = deflate_raw(bytes, packed) && packed.size() < bytes.size();
  e.method = deflated ? 8 : 0;
  const std::string& data = deflated ? packed : bytes;
  e.packed_size = static_cast<uint32_t>(data.size());
  put32(body_, 0x04034b50);
  put16(body_, 20);      // version needed: 2.0
  put16(body_, 0x0800);  // names are UTF-8
  put16(body_, e.method);
  put16(body_, kDosTime);
  put16(body_, kDosDate);
  put32(body_, e.crc);
  put32(body_, e.packed_size);
  put32(body_, e.size);
  put16(body_, static_cast<uint32_t>(path.size()));
  put16(body_, 0);
  body_ += path;
  body_ += data;
  entries_.push_back(std::move(e));
}

std::string ZipWriter::finish(std::string& error) const {
  if (too_large_) {
    error = "the package would be larger than a plain ZIP file holds (4 GiB, 65535 files)";
    return "";
  }
  std::string out = body_, central;
  for (const Entry& e : entries_) {
    put32(central, 0x02014b50);
    put16(central, (3 << 8) | 20);  // made by: Unix, 2.0
    put16(central, 20);
    put16(central, 0x0800);
    put16(central, e.method);
    put16(central, kDosTime);
    put16(central, kDosDate);
    put32(central, e.crc);
    put32(central, e.packed_size);
    put32(central, e.size);
    put16(central, static_cast<uint32_t>(e.path.size()));
    put16(central, 0);               // extra
    put16(central, 0);               // comment
    put16(central, 0);               // disk
    put16(central, 0);               // internal attributes
    put32(central, 0100644u << 16);  // external: a regular file, rw-r--r--
    put32(central, e.offset);
    central += e.path;
  }
  const uint32_t central_offset = static_cast<uint32_t>(out.size());
  out += central;
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, static_cast<uint32_t>(entries_.size()));
  put16(out, static_cast<uint32_t>(entries_.size()));
  put32(out, static_cast<uint32_t>(central.size()));
  put32(out, central_offset);
  put16(out, 0);
  return out;
}

}  // namespace attn
