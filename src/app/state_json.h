// state_json.h — the State as JSON: getState/setState of the web API, share links and exports.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "app/state.h"

namespace attn {

constexpr int kStateVersion = 1;

// The full state: the CLI's scenario schema under "scenario" plus the UI settings at top level.
nlohmann::json state_to_json(const State& s);

// Applies a partial state. Every key is checked; on any error `s` is left unchanged and the
// reason is returned ("" on success). A "preset" key is applied first, then the other keys.
std::string apply_state_json(State& s, const nlohmann::json& partial);
std::string apply_state_text(State& s, const std::string& text);

}  // namespace attn
