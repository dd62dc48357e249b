// state_json.cpp — strict decoding of partial states: unknown keys, wrong types and out-of-range
// values are errors, and nothing is applied unless everything is valid.
#include "app/state_json.h"

#include <cmath>
#include <cstdio>

#include "app/presets.h"
#include "core/attention.h"
#include "core/json_codec.h"

namespace attn {

using nlohmann::json;

namespace {
const char* mode_name(InputMode m) { return m == InputMode::Random ? "random" : "explicit"; }

json panels_json(const PanelVisibility& p) {
  return {{"controls", p.controls}, {"embeddings", p.embeddings}, {"pipeline", p.pipeline},
          {"heatmap", p.heatmap},   {"saturation", p.saturation}, {"variance", p.variance},
          {"explain", p.explain},   {"share", p.share},           {"masks", p.masks},
          {"heads", p.heads},       {"positional", p.positional}, {"numerics", p.numerics},
          {"cross", p.cross}};
}

std::string get_int(const json& v, const char* key, int lo, int hi, int& out) {
  if (!v.is_number_integer() && !(v.is_number_float() && std::floor(v.get<double>()) == v.get<double>()))
    return std::string(key) + " must be an integer";
  const double d = v.get<double>();
  if (!(d >= lo && d <= hi))
    return std::string(key) + " must be between " + std::to_string(lo) + " and " + std::to_string(hi);
  out = static_cast<int>(d);
  return "";
}

// Shortest readable form of a bound for messages ("1e+06", "0.5"), not to_string's "0.500000".
std::string fmt(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", d);
  return buf;
}

std::string get_num(const json& v, const char* key, double lo, double hi, double& out) {
  if (!v.is_number()) return std::string(key) + " must be a number";
  const double d = v.get<double>();
  if (!std::isfinite(d) || d < lo || d > hi)
    return std::string(key) + " must be a finite number between " + fmt(lo) + " and " + fmt(hi);
  out = d;
  return "";
}

std::string get_bool(const json& v, const char* key, bool& out) {
  if (!v.is_boolean()) return std::string(key) + " must be true or false";
  out = v.get<bool>();
  return "";
}
}  // namespace

json state_to_json(const State& s) {
  json j;
  j["version"] = kStateVersion;
  j["mode"] = mode_name(s.mode);
  j["sentence"] = s.sentence;
  j["tokens"] = split_tokens(s.sentence);
  j["d_model"] = s.d_model;
  j["d_k"] = s.d_k;
  j["d_v"] = s.d_v;
  j["seed"] = s.seed;
  j["embeddings"] = matrix_to_json(s.embeddings);
  j["scale"] = s.scale;
  j["temperature"] = s.temperature;
  j["mask"] = s.mask == MaskKind::Causal ? "causal" : "none";
  j["key_padding"] = s.key_padding;
  if (s.mask_cells) {
    json mc = json::array();
    for (Eigen::Index i = 0; i < s.mask_cells->rows(); ++i) {
      json row = json::array();
      for (Eigen::Index c = 0; c < s.mask_cells->cols(); ++c) row.push_back((*s.mask_cells)(i, c) != 0 ? 1 : 0);
      mc.push_back(row);
    }
    j["mask_cells"] = mc;
  } else {
    j["mask_cells"] = nullptr;
  }
  j["heads"] = s.heads;
  j["positional_encoding"] = s.positional_encoding == PositionalEncoding::Sinusoidal ? "sinusoidal" : "none";
  j["preset"] = s.preset;
  j["selected_row"] = s.selected_row;
  j["plane_x"] = s.plane_x;
  j["plane_y"] = s.plane_y;
  j["theme"] = s.dark_theme ? "dark" : "light";
  j["text_scale"] = s.text_scale;
  j["heatmap_scale"] = s.heatmap_row_scale ? "row" : "absolute";
  j["panels"] = panels_json(s.panels);
  j["cross"] = {{"states", s.cross.states == CrossStates::NoteExample ? "note" : "seeded"}, {"step", s.cross.step}};
  j["scenario"] = scenario_to_json(build_scenario(s));
  return j;
}

std::string apply_state_json(State& live, const json& partial) {
  if (!partial.is_object()) return "state must be a JSON object";
  State s = live;
  if (partial.contains("preset")) {
    const json& p = partial["preset"];
    if (!p.is_string()) return "preset must be a string";
    if (!p.get<std::string>().empty() && !apply_preset(s, p.get<std::string>()))
      return "unknown preset \"" + p.get<std::string>() + "\"";
  }
  const std::vector<std::string> before = split_tokens(s.sentence);
  bool sentence_changed = false, seed_changed = false, width_changed = false, embeddings_cleared = false;
  for (auto it = partial.begin(); it != partial.end(); ++it) {
    const std::string& k = it.key();
    const json& v = it.value();
    std::string err;
    int iv = 0;
    double dv = 0;
    if (k == "preset" || k == "version" || k == "tokens") {
      // preset handled above; version and tokens are read-only echoes of getState()
    } else if (k == "mode") {
      if (v == "random")
        s.mode = InputMode::Random;
      else if (v == "explicit")
        s.mode = InputMode::Explicit;
      else
        err = "mode must be \"random\" or \"explicit\"";
    } else if (k == "sentence") {
      if (!v.is_string()) {
        err = "sentence must be a string";
      } else if (v.get<std::string>().size() > 16384) {
        err = "sentence is longer than 16384 bytes";
      } else {
        s.sentence = v.get<std::string>();
        if (split_tokens(s.sentence).empty()) err = "sentence must contain at least one token";
        sentence_changed = true;
      }
    } else if (k == "d_model") {
      err = get_int(v, "d_model", 2, 64, s.d_model);
      width_changed = true;
    } else if (k == "d_k") {
      err = get_int(v, "d_k", kMinDk, kMaxDk, s.d_k);
    } else if (k == "d_v") {
      err = get_int(v, "d_v", 1, 64, s.d_v);
    } else if (k == "seed") {
      if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
        err = "seed must be a non-negative integer";
      else
        s.seed = v.get<uint64_t>();
      seed_changed = true;
    } else if (k == "embeddings") {
      if (v.is_array() && v.empty()) {  // what getState() shows for an explicit preset: seed them anew
        s.embeddings.resize(0, 0);
        embeddings_cleared = true;
      } else {
        Mat m;
        err = matrix_from_json(v, "embeddings", m);
        if (err.empty()) s.embeddings = m;
      }
    } else if (k == "scale") {
      err = get_bool(v, "scale", s.scale);
    } else if (k == "temperature") {
      err = get_num(v, "temperature", 0.0, 1e6, s.temperature);
    } else if (k == "mask") {
      if (v == "none")
        s.mask = MaskKind::None;
      else if (v == "causal")
        s.mask = MaskKind::Causal;
      else
        err = "mask must be \"none\" or \"causal\"";
    } else if (k == "key_padding") {
      if (!v.is_array()) err = "key_padding must be an array of booleans";
      std::vector<bool> kp;
      for (const auto& b : v)
        if (b.is_boolean())
          kp.push_back(b.get<bool>());
        else
          err = "key_padding must be an array of booleans";
      if (err.empty()) s.key_padding = kp;
    } else if (k == "mask_cells") {
      // null or [] = no painted mask; else rows of 0/1 (or booleans), checked against n×n below.
      if (v.is_null() || (v.is_array() && v.empty())) {
        s.mask_cells.reset();
      } else if (!v.is_array() || !v[0].is_array() || v.size() > static_cast<size_t>(kMaxTokens) ||
                 v[0].size() > static_cast<size_t>(kMaxTokens)) {
        err = "mask_cells must be an array of arrays of 0/1 or booleans";
      } else {
        const size_t cols = v[0].size();
        MaskMat mc(static_cast<Eigen::Index>(v.size()), static_cast<Eigen::Index>(cols));
        for (size_t i = 0; err.empty() && i < v.size(); ++i) {
          if (!v[i].is_array() || v[i].size() != cols) {
            err = "mask_cells rows must all have the same length";
            break;
          }
          for (size_t c = 0; c < cols; ++c) {
            const json& e = v[i][c];
            if (e.is_boolean())
              mc(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c)) = e.get<bool>() ? 1 : 0;
            else if (e.is_number_integer() && (e.get<int64_t>() == 0 || e.get<int64_t>() == 1))
              mc(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c)) = static_cast<uint8_t>(e.get<int64_t>());
            else {
              err = "mask_cells entries must be 0, 1, true or false";
              break;
            }
          }
        }
        if (err.empty()) s.mask_cells = mc;
      }
    } else if (k == "heads") {
      err = get_int(v, "heads", 1, kMaxHeads, s.heads);
    } else if (k == "positional_encoding") {
      if (v == "none")
        s.positional_encoding = PositionalEncoding::None;
      else if (v == "sinusoidal")
        s.positional_encoding = PositionalEncoding::Sinusoidal;
      else
        err = "positional_encoding must be \"none\" or \"sinusoidal\"";
    } else if (k == "selected_row") {
      err = get_int(v, "selected_row", 0, kMaxDim - 1, s.selected_row);
    } else if (k == "plane_x") {
      err = get_int(v, "plane_x", 0, 63, s.plane_x);
    } else if (k == "plane_y") {
      err = get_int(v, "plane_y", 0, 63, s.plane_y);
    } else if (k == "theme") {
      if (v == "dark")
        s.dark_theme = true;
      else if (v == "light")
        s.dark_theme = false;
      else
        err = "theme must be \"dark\" or \"light\"";
    } else if (k == "heatmap_scale") {
      if (v == "absolute")
        s.heatmap_row_scale = false;
      else if (v == "row")
        s.heatmap_row_scale = true;
      else
        err = "heatmap_scale must be \"absolute\" or \"row\"";
    } else if (k == "text_scale") {
      err = get_num(v, "text_scale", 0.5, 3.0, dv);
      s.text_scale = static_cast<float>(dv);
    } else if (k == "panels") {
      if (!v.is_object()) err = "panels must be an object of booleans";
      PanelVisibility& p = s.panels;
      for (auto pi = v.begin(); err.empty() && pi != v.end(); ++pi) {
        bool* slot = pi.key() == "controls"     ? &p.controls
                     : pi.key() == "embeddings" ? &p.embeddings
                     : pi.key() == "pipeline"   ? &p.pipeline
                     : pi.key() == "heatmap"    ? &p.heatmap
                     : pi.key() == "saturation" ? &p.saturation
                     : pi.key() == "variance"   ? &p.variance
                     : pi.key() == "explain"    ? &p.explain
                     : pi.key() == "share"      ? &p.share
                     : pi.key() == "masks"      ? &p.masks
                     : pi.key() == "heads"      ? &p.heads
                     : pi.key() == "positional" ? &p.positional
                     : pi.key() == "numerics"   ? &p.numerics
                     : pi.key() == "cross"      ? &p.cross
                                                : nullptr;
        if (!slot)
          err = "unknown panel \"" + pi.key() + "\"";
        else
          err = get_bool(pi.value(), ("panels." + pi.key()).c_str(), *slot);
      }
    } else if (k == "cross") {
      if (!v.is_object()) err = "cross must be an object {\"states\": \"note\" | \"seeded\", \"step\": 0…3}";
      for (auto ci = v.begin(); err.empty() && ci != v.end(); ++ci) {
        if (ci.key() == "states") {
          if (ci.value() == "note")
            s.cross.states = CrossStates::NoteExample;
          else if (ci.value() == "seeded")
            s.cross.states = CrossStates::Seeded;
          else
            err = "cross.states must be \"note\" or \"seeded\"";
        } else if (ci.key() == "step") {
          err = get_int(ci.value(), "cross.step", 0, 3, s.cross.step);  // I, am, a, student
        } else {
          err = "unknown cross key \"" + ci.key() + "\"";
        }
      }
    } else if (k == "scenario") {
      Scenario sc;
      err = scenario_from_json(v, sc);
      if (err.empty()) {
        // A scenario switches to explicit mode and brings its scale and temperature, unless the same
        // object says otherwise (getState() output carries all three, and must read back as it was).
        s.explicit_scenario = sc;
        if (!partial.contains("mode")) s.mode = InputMode::Explicit;
        if (!partial.contains("scale")) s.scale = sc.scale;
        if (!partial.contains("temperature")) s.temperature = sc.temperature;
        if (!partial.contains("preset")) s.preset.clear();  // a scenario of one's own is no preset
      }
    } else {
      err = "unknown state key \"" + k + "\"";
    }
    (void)iv;
    if (!err.empty()) return err;
  }
  if (s.mode == InputMode::Random) {
    if (partial.contains("embeddings") && !embeddings_cleared) {
      const int n = static_cast<int>(split_tokens(s.sentence).size());
      if (s.embeddings.rows() != n || s.embeddings.cols() != s.d_model)
        return "embeddings must be " + std::to_string(n) + "×" + std::to_string(s.d_model) + " (tokens × d_model)";
    } else if (sentence_changed || seed_changed || width_changed || embeddings_cleared) {
      const bool fresh = seed_changed || width_changed || embeddings_cleared;
      if (fresh) s.embeddings.resize(0, 0);
      sync_embeddings(s, fresh ? std::vector<std::string>{} : before);
    }
    if (s.plane_x >= s.d_model || s.plane_y >= s.d_model) return "plane_x and plane_y must be below d_model";
    if (!partial.contains("key_padding") && s.key_padding.size() != split_tokens(s.sentence).size())
      s.key_padding.clear();  // the sentence changed length: the old padding no longer fits
    if (!s.key_padding.empty() && s.key_padding.size() != split_tokens(s.sentence).size())
      return "key_padding must have one entry per token";
    const Eigen::Index n_tok = static_cast<Eigen::Index>(split_tokens(s.sentence).size());
    if (s.mask_cells && (s.mask_cells->rows() != n_tok || s.mask_cells->cols() != n_tok)) {
      if (partial.contains("mask_cells"))
        return "mask_cells must be " + std::to_string(n_tok) + "×" + std::to_string(n_tok) + " (tokens × tokens)";
      s.mask_cells.reset();  // the sentence changed length: a painted mask no longer fits
    }
  }
  const Scenario built = build_scenario(s);
  const std::string err = validate(built);
  if (!err.empty()) return err;
  const int rows = built.Q ? static_cast<int>(built.Q->rows()) : (built.X ? static_cast<int>(built.X->rows()) : 0);
  if (partial.contains("selected_row") && s.selected_row >= rows)
    return "selected_row must be below the number of query rows (" + std::to_string(rows) + ")";
  if (s.selected_row >= rows) s.selected_row = 0;  // e.g. a shorter sentence or another preset
  live = std::move(s);
  return "";
}

std::string apply_state_text(State& s, const std::string& text) {
  if (text.size() > kMaxJsonBytes) return "state is larger than the limit";
  if (json_nesting_depth(text) > kMaxJsonDepth)
    return "state is nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return "state is not valid JSON";
  try {
    return apply_state_json(s, j);
  } catch (const std::exception& e) {
    return std::string("state could not be applied: ") + e.what();
  }
}

}  // namespace attn
