// query_state.h — state named in a page's query string: lesson=why-sqrt-dk&step=3, workspace=masks-heads,
// lang=hi-Latn. Teachers link to a lesson step, a layout or a language this way, also in embed mode.
#pragma once

#include <string>

#include "app/state/state.h"

namespace attn {
// Applies the parameters it knows (others are ignored: pages carry tracking parameters). Returns "" or
// the first problem; a bad value leaves that part of the state as it was.
std::string apply_query_state(State& s, const std::string& query);
}  // namespace attn
