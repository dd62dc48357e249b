// embed.h — embed mode: which panels an <iframe> shows, which controls are locked or hidden, and which
// host origins may drive it by postMessage. Parsed (strictly, with limits) from the page's query string.
#pragma once

#include <string>
#include <vector>

#include "app/state/registry.h"
#include "app/state/state.h"

namespace attn {

struct EmbedSettings {
  bool enabled = false;                     // embed=1, or any of panels / lock / hide given
  std::vector<std::string> panels;          // panel ids shown, in layout order (empty = the state's panels)
  std::vector<std::string> locked, hidden;  // control ids
  std::vector<std::string> origins;         // exact origins whose messages are obeyed

  bool is_locked(const std::string& control) const;  // hidden controls count as locked too
  bool is_hidden(const std::string& control) const;
};

constexpr size_t kMaxEmbedQueryBytes = 8192;
constexpr size_t kMaxEmbedListEntries = 32;
constexpr size_t kMaxOriginBytes = 256;

// Reads "?embed=1&panels=heatmap,saturation&lock=d_k&hide=seed&origins=https://a.example,…".
// Unknown parameters are ignored (pages carry tracking parameters); bad values of known ones are
// dropped and reported. Returns "" when everything was understood, else the first problem.
std::string parse_embed_query(const std::string& query, EmbedSettings& out);
// The query (without '?') that parse_embed_query reads back as `e`.
std::string embed_query(const EmbedSettings& e);
// Origin check: http(s)://host[:port] and nothing else. `canonical` gets the form browsers report in
// MessageEvent.origin (lower-case, default port dropped, no trailing slash). "" if valid.
std::string check_origin(const std::string& text, std::string& canonical);

// A comma-separated list of origins (a teacher's text box): each canonical origin is added to `origins`
// (at most kMaxEmbedListEntries); "" if all were valid, else the first problem.
std::string parse_origin_list(const std::string& list, std::vector<std::string>& origins);
// The <iframe> a course page pastes: sandboxed, lazy, with a title for screen readers.
std::string embed_iframe_html(const std::string& url, const std::string& title, int width, int height);

// Locked controls: whatever the learner changed this frame in a locked field is put back.
void revert_locked(State& now, const State& before, const EmbedSettings& e);

}  // namespace attn
