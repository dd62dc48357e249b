// share.h — the state in a share link (compact JSON → core/share_codec), imports of JSON files, and the
// CSV export of a result (the JSON one, which needs the whole App, is app_exchange.h's).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "app/playground/playground.h"
#include "app/state/presets.h"  // default_state(): what a share link's keys apply onto
#include "app/state/state.h"

namespace attn {

// state_to_json without what follows from the rest: "tokens" always, "scenario" in random mode,
// "embeddings" when they are the seeded ones for (seed, sentence, d_model) (empty embeddings are null),
// and every field equal to the state decoding starts from (the defaults with the same preset applied).
nlohmann::json share_state_json(const State& s);
// share_state_json → "s=1.…" (see share_codec.h).
std::string share_fragment(const State& s);

// Applies a share-state JSON (or a full getState() document) onto default_state(). `out` is untouched
// on error; "" on success.
std::string state_from_share_json(const nlohmann::json& j, State& out);
// Whether a fragment is the app's share state ("s=…", "#s=…" or a URL ending in one): any other ("#top", a skip
// link's "#a11y-lesson") is the page's own and leaves the state alone.
bool is_share_fragment(const std::string& fragment);
// Fragment ("s=1.…", "#s=1.…" or a URL ending in one) → state, with every limit checked.
std::string decode_share_fragment(const std::string& fragment, State& out);

// An imported file: a CLI scenario (has "X" or "Q") is applied to `current` (display settings kept);
// anything else is read as a full state. `kind` says which ("scenario" / "state").
std::string import_document(const std::string& text, const State& current, State& out, std::string& kind);

// Every matrix of the result as CSV blocks (the top-left cell names the matrix); labels that a
// spreadsheet would run as formulas are defused with a leading apostrophe.
std::string result_csv(const AppResult& r);

}  // namespace attn
