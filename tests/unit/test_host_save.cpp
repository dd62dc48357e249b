// test_host_save.cpp — a save that fails says so: the desktop's file writing reports the reason, and
// App shows the host's outcome instead of a "Saved" of its own.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/app.h"
#include "app/base/host.h"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {
// A directory below a regular file cannot exist, even for root (chmod 000 would not stop root).
const char* kUnwritableDir = "/dev/null/attnplay";

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST_CASE("save_file: an unwritable directory is a failure with the reason", "[host]") {
  const attn::SaveOutcome out = attn::save_file(kUnwritableDir, "attnplay-result.csv", "a,b\n");
  CHECK_FALSE(out.ok);
  // The path as the system writes it (a backslash before the name on Windows).
  CHECK(out.where == (std::filesystem::path("/dev/null/attnplay") / "attnplay-result.csv").string());
  // The reason is the system's (ENOTDIR natively, EACCES in Emscripten's memory file system): the
  // learner must see one after the path, whichever it is.
  CHECK_FALSE(out.reason.empty());
}

TEST_CASE("save_file: a writable directory gets the bytes, and the message says where", "[host]") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "attnplay-save-test";
  std::filesystem::create_directories(dir);
  const std::string bytes = std::string("x,y\n1,2\n") + std::string(1, '\0') + "end";
  const attn::SaveOutcome out = attn::save_file(dir.string(), "attnplay-result.csv", bytes);
  CHECK(out.ok);
  CHECK(out.where == (dir / "attnplay-result.csv").string());
  CHECK(read_all(dir / "attnplay-result.csv") == bytes);
  std::filesystem::remove_all(dir);
}

TEST_CASE("App shows the host's outcome of a download, failure included", "[host]") {
  attn::App app;
  std::string dir = kUnwritableDir;
  app.host.download = [&dir](const std::string& name, const std::string&, const std::string& bytes) {
    return attn::save_file(dir, name, bytes);  // what the desktop does, in its working directory
  };
  app.download("attnplay-result.csv", "text/csv", "a,b\n");
  CHECK_THAT(app.status, StartsWith("Could not write"));
  CHECK_THAT(app.status, !Contains("Saved"));
  app.host.save_png = [](const std::string& name, int, int, const std::vector<uint8_t>&) {
    return attn::SaveOutcome{false, name, "disk full"};
  };
  app.save_png("attnplay-heatmap.png", 1, 1, std::vector<uint8_t>(4, 255));
  CHECK(app.status == "Could not write attnplay-heatmap.png: disk full");
  app.host.download = nullptr;
  app.download("attnplay-state.json", "application/json", "{}");
  CHECK_THAT(app.status, Contains("not available"));
  // In the learner's language: the words come from the catalog, only the path and the system's reason do not.
  app.state.lang = attn::Lang::HiLatn;
  app.save_png("attnplay-heatmap.png", 1, 1, std::vector<uint8_t>(4, 255));
  CHECK(app.status == "attnplay-heatmap.png likha nahi ja saka: disk full");
}
