// fetched_catalogs.cpp — the wasm tests' stand-in for the page's catalog fetch: the catalogs a web build does not
// compile in are installed through install_catalog() before any test runs, as web/site/attnplay-api.js does.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/base/data.h"
#include "app/base/strings.h"

namespace {
bool install_fetched() {
  for (const attn::DataFile* f = attn::fetched_data_files_begin(); f != attn::fetched_data_files_end(); ++f) {
    const std::string path = f->path;  // "strings/hi-Latn.lessons.json"
    const std::string name = path.substr(path.find('/') + 1, path.rfind(".json") - path.find('/') - 1);
    const std::string error = attn::install_catalog(name, std::string(f->data, f->size));
    if (!error.empty()) {
      std::fprintf(stderr, "could not install %s: %s\n", f->path, error.c_str());
      std::exit(1);
    }
  }
  return true;
}
[[maybe_unused]] const bool kInstalled = install_fetched();
}  // namespace
