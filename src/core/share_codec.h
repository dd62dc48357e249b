// share_codec.h — the versioned, compact text of a share link: "s=1.<base64url(marker + payload)>",
// where the marker is 'z' for raw-deflated JSON or 'j' for plain JSON, whichever is shorter.
#pragma once

#include <cstddef>
#include <string>

namespace attn {

constexpr int kShareFormatVersion = 1;
constexpr size_t kMaxShareFragmentBytes = 256u << 10;  // the fragment as it arrives in the URL
constexpr size_t kMaxShareInflatedBytes = 4u << 20;    // the JSON after inflating (zip-bomb bound)

// Unpadded base64url (RFC 4648 §5).
std::string base64url_encode(const std::string& bytes);
// Strict: only the base64url alphabet, optional '=' padding at the end; "" on success.
std::string base64url_decode(const std::string& text, std::string& out);

// Raw deflate (no zlib header), level 9. Returns false only if zlib fails.
bool deflate_raw(const std::string& in, std::string& out);
// Raw inflate into at most `max_out` bytes: longer output, trailing bytes after the end of the
// stream and truncated streams are errors. "" on success.
std::string inflate_raw(const std::string& in, size_t max_out, std::string& out);

// JSON text → "s=1.…" (deflated when that is shorter).
std::string share_encode(const std::string& json_text);
// Accepts "s=1.…", "#s=1.…" or a whole URL whose fragment is that; yields the JSON text (not yet
// parsed or validated). "" on success, else one clear reason. Enforces the limits above.
std::string share_decode(const std::string& fragment, std::string& json_text);

}  // namespace attn
