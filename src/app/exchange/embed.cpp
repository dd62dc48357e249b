// embed.cpp — the embed query string: strict lists of known ids, canonical origins, size limits.
#include "app/exchange/embed.h"

#include <algorithm>
#include <cctype>

#include "app/exchange/svg_export.h"

namespace attn {

namespace {
bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// application/x-www-form-urlencoded decoding; malformed escapes are kept literally (then fail validation).
std::string percent_decode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() && hex_digit(s[i + 1]) >= 0 && hex_digit(s[i + 2]) >= 0) {
      out += static_cast<char>(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t k = s.find(sep, start);
    out.push_back(s.substr(start, k == std::string::npos ? std::string::npos : k - start));
    if (k == std::string::npos) break;
    start = k + 1;
  }
  return out;
}

// Shown in messages: printable ASCII only, short.
std::string quoted(const std::string& s) {
  std::string out;
  for (char c : s.substr(0, 40)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  return "\"" + out + (s.size() > 40 ? "…" : "") + "\"";
}

// Reads a comma list of known ids into `out` (deduplicated, in order); unknown ids are reported.
void read_ids(const std::string& value, const std::vector<std::string>& known, const char* what,
              std::vector<std::string>& out, std::string& err) {
  for (const std::string& raw : split(value, ',')) {
    const std::string id = trim(raw);
    if (id.empty()) continue;
    if (!contains(known, id)) {
      if (err.empty()) err = std::string("unknown ") + what + " " + quoted(id);
      continue;
    }
    if (out.size() >= kMaxEmbedListEntries) {
      if (err.empty()) err = std::string("too many ") + what + "s";
      break;
    }
    if (!contains(out, id)) out.push_back(id);
  }
}
}  // namespace

bool EmbedSettings::is_locked(const std::string& control) const {
  return contains(locked, control) || contains(hidden, control);
}
bool EmbedSettings::is_hidden(const std::string& control) const { return contains(hidden, control); }

std::string check_origin(const std::string& text, std::string& canonical) {
  if (text.size() > kMaxOriginBytes) return "origin is longer than " + std::to_string(kMaxOriginBytes) + " bytes";
  std::string s;
  for (char c : text) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!s.empty() && s.back() == '/') s.pop_back();
  std::string scheme;
  if (s.compare(0, 7, "http://") == 0)
    scheme = "http";
  else if (s.compare(0, 8, "https://") == 0)
    scheme = "https";
  else
    return "origin " + quoted(text) + " must start with http:// or https://";
  std::string rest = s.substr(scheme.size() + 3), host, port;
  bool has_port = false;
  if (!rest.empty() && rest[0] == '[') {  // IPv6 literal
    const size_t close = rest.find(']');
    if (close == std::string::npos) return "origin " + quoted(text) + " has an unclosed [";
    host = rest.substr(0, close + 1);
    for (size_t i = 1; i < close; ++i)
      if (!std::isxdigit(static_cast<unsigned char>(host[i])) && host[i] != ':' && host[i] != '.')
        return "origin " + quoted(text) + " has a malformed IPv6 address";
    rest = rest.substr(close + 1);
    if (!rest.empty() && rest[0] != ':') return "origin " + quoted(text) + " must be scheme://host[:port] only";
    has_port = !rest.empty();
    if (has_port) port = rest.substr(1);
  } else {
    const size_t colon = rest.find(':');
    host = rest.substr(0, colon);
    has_port = colon != std::string::npos;
    if (has_port) port = rest.substr(colon + 1);
    if (host.empty()) return "origin " + quoted(text) + " has no host";
    for (char c : host)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.')
        return "origin " + quoted(text) + " must be scheme://host[:port] only";
    if (host.front() == '.' || host.back() == '.' || host.find("..") != std::string::npos)
      return "origin " + quoted(text) + " has a malformed host";
  }
  if (has_port) {
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos)
      return "origin " + quoted(text) + " has a malformed port";
    const long p = std::stol(port);
    if (p < 1 || p > 65535) return "origin " + quoted(text) + " has a port outside 1…65535";
    port = std::to_string(p);  // drops leading zeros, like the browser
    if ((scheme == "http" && p == 80) || (scheme == "https" && p == 443)) port.clear();
  }
  canonical = scheme + "://" + host + (port.empty() ? "" : ":" + port);
  return "";
}

std::string parse_embed_query(const std::string& query_in, EmbedSettings& out) {
  EmbedSettings e;
  std::string err;
  if (query_in.size() > kMaxEmbedQueryBytes) {
    out = e;
    return "the page address is longer than " + std::to_string(kMaxEmbedQueryBytes) + " bytes; embed settings ignored";
  }
  std::string query = query_in;
  const size_t hash = query.find('#');
  if (hash != std::string::npos) query.resize(hash);
  if (!query.empty() && query[0] == '?') query.erase(0, 1);
  for (const std::string& pair : split(query, '&')) {
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    const std::string key = percent_decode(pair.substr(0, eq));
    const std::string value = eq == std::string::npos ? "" : percent_decode(pair.substr(eq + 1));
    if (key == "embed") {
      if (value == "1" || value == "true" || value.empty())
        e.enabled = true;
      else if (value != "0" && value != "false" && err.empty())
        err = "embed must be 1 or 0";
    } else if (key == "panels") {
      e.enabled = true;
      read_ids(value, panel_ids(), "panel", e.panels, err);
    } else if (key == "lock") {
      e.enabled = true;
      read_ids(value, control_ids(), "control", e.locked, err);
    } else if (key == "hide") {
      e.enabled = true;
      read_ids(value, control_ids(), "control", e.hidden, err);
    } else if (key == "origins") {
      for (const std::string& raw : split(value, ',')) {
        const std::string o = trim(raw);
        if (o.empty()) continue;
        std::string canonical;
        const std::string oe = check_origin(o, canonical);
        if (!oe.empty()) {
          if (err.empty()) err = oe;
          continue;
        }
        if (e.origins.size() >= kMaxEmbedListEntries) {
          if (err.empty()) err = "too many origins";
          break;
        }
        if (!contains(e.origins, canonical)) e.origins.push_back(canonical);
      }
    }
  }
  out = std::move(e);
  return err;
}

std::string embed_query(const EmbedSettings& e) {
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
    return s;
  };
  std::string q = "embed=1";
  if (!e.panels.empty()) q += "&panels=" + join(e.panels);
  if (!e.locked.empty()) q += "&lock=" + join(e.locked);
  if (!e.hidden.empty()) q += "&hide=" + join(e.hidden);
  if (!e.origins.empty()) q += "&origins=" + join(e.origins);  // origins hold only [a-z0-9.:/[\]-]
  return q;
}

std::string parse_origin_list(const std::string& list, std::vector<std::string>& origins) {
  std::string first_error;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = std::min(list.find(',', start), list.size());
    std::string o = list.substr(start, comma - start);
    o.erase(0, o.find_first_not_of(" \t"));
    o.erase(o.find_last_not_of(" \t") + 1);
    if (!o.empty()) {
      std::string canonical;
      const std::string err = check_origin(o, canonical);
      if (err.empty() && origins.size() < kMaxEmbedListEntries)
        origins.push_back(canonical);
      else if (first_error.empty())
        first_error = err;
    }
    start = comma + 1;
  }
  return first_error;
}

std::string embed_iframe_html(const std::string& url, const std::string& title, int width, int height) {
  return "<iframe src=\"" + escape_markup(url) + "\" title=\"" + escape_markup(title) + "\" width=\"" +
         std::to_string(width) + "\" height=\"" + std::to_string(height) +
         "\" sandbox=\"allow-scripts allow-same-origin\" allow=\"clipboard-write\" loading=\"lazy\"></iframe>";
}

void revert_locked(State& now, const State& before, const EmbedSettings& e) {
  if (!e.enabled) return;
  for (const ControlInfo& c : control_table())
    if (e.is_locked(c.id)) c.undo(now, before);
}

}  // namespace attn
