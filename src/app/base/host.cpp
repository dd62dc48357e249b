// host.cpp — the file writing behind the desktop's downloads, with the reason when it fails.
#include "app/base/host.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace attn {

SaveOutcome save_file(const std::string& dir, const std::string& name, const std::string& bytes) {
  const std::string path = (std::filesystem::path(dir) / name).string();
  errno = 0;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  bool ok = f != nullptr && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  int error = ok ? 0 : errno;
  if (f && std::fclose(f) != 0 && ok) {  // a full disk may only show when the buffer is flushed
    ok = false;
    error = errno;
  }
  if (ok) return {true, path, ""};
  if (f) std::remove(path.c_str());  // no half-written file left behind
  return {false, path, error ? std::strerror(error) : ""};
}

}  // namespace attn
