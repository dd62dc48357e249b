// data.h — files from data/ (string catalogs, lessons) compiled into the binary; see cmake/EmbedData.cmake.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/data_file.h"

namespace attn {

const DataFile* data_files_begin();
const DataFile* data_files_end();
// The files a web build fetches instead of compiling in (CMakeLists.txt: FETCHED_DATA); only the wasm tests
// compile them in (tests/web/fetched_catalogs.cpp).
const DataFile* fetched_data_files_begin();
const DataFile* fetched_data_files_end();

// The file at `path`, or nullptr.
inline const DataFile* find_data_file(std::string_view path) {
  for (const DataFile* f = data_files_begin(); f != data_files_end(); ++f)
    if (path == f->path) return f;
  return nullptr;
}
// Every file in `folder` ("lessons"), in name order.
inline std::vector<const DataFile*> data_files_in(std::string_view folder) {
  std::vector<const DataFile*> out;
  for (const DataFile* f = data_files_begin(); f != data_files_end(); ++f) {
    const std::string_view p = f->path;
    if (p.size() > folder.size() && p.substr(0, folder.size()) == folder && p[folder.size()] == '/') out.push_back(f);
  }
  return out;
}

}  // namespace attn
