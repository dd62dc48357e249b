// zip_writer.h — a minimal ZIP archive writer (deflated or stored entries, no ZIP64) for course packages.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

class ZipWriter {
 public:
  // Adds a file; `path` uses '/' and is stored as given. Deflates it when that makes it smaller.
  void add(const std::string& path, const std::string& bytes);
  // The whole archive: local entries, central directory, end record. Empty with `error` set when it
  // would need ZIP64 (over 4 GiB or 65535 entries), which no course package comes near.
  std::string finish(std::string& error) const;

 private:
  struct Entry {
    std::string path;
    uint32_t crc = 0, size = 0, packed_size = 0, offset = 0;
    uint16_t method = 0;  // 0 stored, 8 deflated
  };
  std::vector<Entry> entries_;
  std::string body_;  // local headers and data, in order
  bool too_large_ = false;
};

}  // namespace attn
