// share.cpp — share links (state ⇄ "s=1.…"), imports and the CSV export. Decoding always starts from the
// defaults, so a link reproduces the same numbers whatever the reader's page was showing before.
#include "app/exchange/share.h"

#include <cmath>
#include <cstdio>

#include "app/state/presets.h"
#include "app/state/state_json.h"
#include "core/json_codec.h"
#include "core/share_codec.h"

namespace attn {

using nlohmann::json;

namespace {
Mat seeded_embeddings(const State& s) {
  State t;
  t.seed = s.seed;
  t.sentence = s.sentence;
  t.d_model = s.d_model;
  t.embeddings.resize(0, 0);
  sync_embeddings(t, {});
  return t.embeddings;
}

bool same(const Mat& a, const Mat& b) { return a.rows() == b.rows() && a.cols() == b.cols() && a == b; }

std::string csv_number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "masked" : "inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// RFC 4180 quoting, and no cell that a spreadsheet would evaluate (=, +, -, @, tab, CR first).
std::string csv_text(const std::string& s) {
  std::string t = s;
  if (!t.empty() && (t[0] == '=' || t[0] == '+' || t[0] == '-' || t[0] == '@' || t[0] == '\t' || t[0] == '\r'))
    t = "'" + t;
  if (t.find_first_of(",\"\n\r") == std::string::npos) return t;
  std::string q = "\"";
  for (char c : t) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string label(const std::vector<std::string>& labels, Eigen::Index i, const char* prefix) {
  return i < static_cast<Eigen::Index>(labels.size()) ? labels[static_cast<size_t>(i)] : prefix + std::to_string(i + 1);
}

void csv_block(std::string& out, const std::string& name, const Mat& m, const std::vector<std::string>& rows,
               const std::vector<std::string>& cols, const char* col_prefix) {
  if (m.size() == 0) return;
  out += csv_text(name);
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    out += "," + csv_text(cols.empty() ? col_prefix + std::to_string(j + 1) : label(cols, j, col_prefix));
  out += "\n";
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    out += csv_text(label(rows, i, "row "));
    for (Eigen::Index j = 0; j < m.cols(); ++j) out += "," + csv_number(m(i, j));
    out += "\n";
  }
  out += "\n";
}

void csv_head(std::string& out, const std::string& prefix, const HeadResult& h, const std::vector<std::string>& rl,
              const std::vector<std::string>& cl) {
  const std::vector<std::string> none;
  csv_block(out, prefix + "Q", h.Q, rl, none, "d");
  csv_block(out, prefix + "K", h.K, cl, none, "d");
  csv_block(out, prefix + "V", h.V, cl, none, "d");
  csv_block(out, prefix + "scores", h.scores, rl, cl, "k");
  csv_block(out, prefix + "logits", h.logits, rl, cl, "k");
  csv_block(out, prefix + "weights", h.weights, rl, cl, "k");
  csv_block(out, prefix + "output", h.output, rl, none, "d");
  if (h.entropy.size() == 0) return;
  out += csv_text(prefix + "row statistics") + ",entropy,max_weight,jacobian_norm\n";
  for (Eigen::Index i = 0; i < h.entropy.size(); ++i) {
    out += csv_text(label(rl, i, "row "));
    out += "," + csv_number(h.entropy(i));
    out += "," + (i < h.max_weight.size() ? csv_number(h.max_weight(i)) : std::string());
    out += "," + (i < h.jacobian_norm.size() ? csv_number(h.jacobian_norm(i)) : std::string());
    out += "\n";
  }
  out += "\n";
}
}  // namespace

namespace {
// Everything but what follows from the rest (see share.h).
json full_share_json(const State& s) {
  json j = state_to_json(s);
  j.erase("tokens");
  j["panels"]["share"] = false;  // the window the link was made in is the sender's, not what they share
  if (s.mode == InputMode::Random) j.erase("scenario");
  if (s.embeddings.size() == 0)
    j["embeddings"] = nullptr;
  else if (same(s.embeddings, seeded_embeddings(s)))
    j.erase("embeddings");
  return j;
}
}  // namespace

json share_state_json(const State& s) {
  json j = full_share_json(s);
  // Decoding starts from the defaults with the preset applied first, so fields equal to that baseline
  // can be left out: the default state's link carries little more than its preset's name.
  State base = default_state();
  if (!s.preset.empty()) apply_preset(base, s.preset);
  const json b = full_share_json(base);
  for (auto it = b.begin(); it != b.end(); ++it) {
    const std::string& k = it.key();
    if (k == "version" || k == "preset" || k == "embeddings") continue;  // always explicit (absent embeddings = seeded)
    const auto mine = j.find(k);
    if (mine != j.end() && *mine == it.value()) j.erase(mine);
  }
  return j;
}

std::string share_fragment(const State& s) {
  try {
    return share_encode(share_state_json(s).dump());
  } catch (const std::exception&) {  // only invalid UTF-8 in a string could make dump() throw
    return share_encode(share_state_json(s).dump(-1, ' ', false, json::error_handler_t::replace));
  }
}

std::string state_from_share_json(const json& j, State& out) {
  if (!j.is_object()) return "the state must be a JSON object";
  try {
    json k = j;
    bool empty_embeddings = false, given_embeddings = false;
    if (k.contains("embeddings")) {
      const json& e = k["embeddings"];
      if (e.is_null() || (e.is_array() && e.empty())) {
        empty_embeddings = true;
        k.erase("embeddings");
      } else {
        given_embeddings = true;
      }
    }
    // A full getState() document echoes the random scenario; applying it would switch to explicit mode.
    if (k.contains("mode") && k["mode"] == "random") k.erase("scenario");
    State s = default_state();
    const std::string err = apply_state_json(s, k);
    if (!err.empty()) return err;
    // apply_state_json applies a non-empty preset; "" (custom) must also replace the defaults' "default".
    if (k.contains("preset") && k["preset"].is_string() && k["preset"].get<std::string>().empty()) s.preset.clear();
    if (empty_embeddings) {
      if (s.mode == InputMode::Random) return "embeddings must not be empty in random mode";
      s.embeddings.resize(0, 0);
    } else if (!given_embeddings) {
      s.embeddings = seeded_embeddings(s);
    }
    out = std::move(s);
    return "";
  } catch (const std::exception& e) {
    return std::string("the state could not be applied: ") + e.what();
  }
}

bool is_share_fragment(const std::string& fragment) {
  return fragment.rfind("s=", 0) == 0 || fragment.find("#s=") != std::string::npos;
}

std::string decode_share_fragment(const std::string& fragment, State& out) {
  std::string text;
  std::string err = share_decode(fragment, text);
  if (!err.empty()) return err;
  json j;
  err = parse_json_text(text, kMaxShareInflatedBytes, "the shared state", j);
  if (!err.empty()) return err;
  return state_from_share_json(j, out);
}

std::string import_document(const std::string& text, const State& current, State& out, std::string& kind) {
  json j;
  std::string err = parse_json_text(text, kMaxJsonBytes, "the file", j);
  if (!err.empty()) return err;
  if (!j.is_object()) return "the file must hold a JSON object (a scenario or a state)";
  try {
    if (j.contains("X") || j.contains("Q")) {
      kind = "scenario";
      State s = current;
      err = apply_state_json(s, json{{"scenario", j}});
      if (!err.empty()) return err;
      s.preset.clear();
      out = std::move(s);
      return "";
    }
  } catch (const std::exception& e) {
    return std::string("the scenario could not be applied: ") + e.what();
  }
  kind = "state";
  return state_from_share_json(j, out);
}

std::string result_csv(const AppResult& r) {
  const Result& c = r.core;
  std::string out;
  const std::vector<std::string>& rl = r.row_labels;
  const std::vector<std::string>& cl = r.col_labels;
  const std::vector<std::string> none;
  if (c.X_effective.size() > 0) csv_block(out, "X (after positional encoding)", c.X_effective, rl, none, "d");
  csv_head(out, "", c.main, rl, cl);
  for (size_t h = 0; h < c.heads.size(); ++h) csv_head(out, "head " + std::to_string(h + 1) + " ", c.heads[h], rl, cl);
  if (c.concat.size() > 0) csv_block(out, "concat", c.concat, rl, none, "d");
  if (c.output.size() > 0) csv_block(out, "final output", c.output, rl, none, "d");
  return out;
}

}  // namespace attn
