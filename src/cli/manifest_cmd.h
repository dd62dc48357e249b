// manifest_cmd.h — `attnplay manifest`: the app's panels, controls, state keys, lessons, limits and events as one JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace attn::cli {

// Bumped when a reader of data/manifest.json would misread the new shape (a field renamed, moved or retyped).
constexpr int kManifestFormat = 1;

// The whole manifest; deterministic (registry, table and file order), so its committed copy can be compared.
nlohmann::json manifest_json();

// Runs the command with the arguments after "manifest": 0, or 2 (usage) with the reason in `error`.
int run_manifest(const std::vector<std::string>& args, std::string& error);

// The line of `attnplay --help` that describes the command.
extern const char kManifestUsage[];

}  // namespace attn::cli
