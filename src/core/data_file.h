// data_file.h — one file from data/ compiled into the binary by cmake/EmbedData.cmake.
#pragma once

#include <cstddef>

namespace attn {

struct DataFile {
  const char* path;  // "<folder>/<name>", e.g. "strings/en.json", "worked-examples/note-cat-sat-mat.json"
  const char* data;  // NUL-terminated
  size_t size;
};

}  // namespace attn
