// state_json.h — the State as JSON: getState/setState of the web API, share links and exports.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/state/state.h"

namespace attn {

constexpr int kStateVersion = 1;

// What a state field is. The key table in state_json.cpp gives each key one kind, and the kind decides
// what a preset replaces (Example) and what it keeps (everything else); Echo keys are written, never read.
enum class StateKind { Echo, Example, Display, Lesson, Learn, Worksheet };

// The full state: the CLI's scenario schema under "scenario" plus the UI settings at top level.
nlohmann::json state_to_json(const State& s);

// Applies a partial state. Every key is checked; on any error `s` is left unchanged and the
// reason is returned ("" on success). A "preset" key is applied first, then the other keys.
std::string apply_state_json(State& s, const nlohmann::json& partial);
std::string apply_state_text(State& s, const std::string& text);

// Every key with its kind, the values it takes, its default and a sample, a partial state setting it away from it
// ({"d_k": {"kind": "example", "type": "integer", "minimum": 1, …, "sample": {"d_k": 37}}, …}): what `attnplay
// schema` prints and the Python package checks its keys against.
const nlohmann::json& state_schema();
// A digest of every key that setState reads (the large ones through their own digests): equal digests, equal
// states as far as any reader of getState() can tell.
uint64_t state_digest(const State& s);
// Feeds `h` every field whose key's row says the random mode's d_k sweep reads it (the playground's sweep cache).
void hash_sweep_inputs(const State& s, ValueHasher& h);
// Copies every field that is not an Example's from `old` into `s` (a preset's new example keeps the learner's
// language, panels, lesson, worksheet and Learn run).
void keep_learner_fields(State& s, const State& old);
// A locked control named by its state key: sets `key` of `now` back to its value in `before` when the two differ,
// through the key's own row (so a width, a sentence or a mode brings what depends on it back too). False if
// `key` is no key setState reads.
bool revert_state_key(State& now, const State& before, const std::string& key);
bool is_settable_key(const std::string& key);
// Keys that a preset should keep but whose table row says not how (a test holds this empty).
std::vector<std::string> state_keys_without_copy();

}  // namespace attn
