// registry.cpp — the panel table (from ATTN_PANELS) and the control table with each control's lock revert.
#include "app/state/registry.h"

#include <algorithm>
#include <iterator>

#include "app/state/state.h"
#include "app/state/state_json.h"

namespace attn {

const std::array<PanelInfo, kPanelCount>& panel_table() {
  static const std::array<PanelInfo, kPanelCount> table = {{
#define ATTN_PANEL_INFO(id, open, lock, column, weight, shows) {PanelId::id, #id, open, lock, column, weight, shows},
      ATTN_PANELS(ATTN_PANEL_INFO)
#undef ATTN_PANEL_INFO
  }};
  return table;
}

const PanelInfo& panel_info(PanelId id) { return panel_table()[static_cast<size_t>(id)]; }

namespace {
std::vector<std::string> words(const char* text) {
  std::vector<std::string> out;
  std::string w;
  for (const char* c = text;; ++c) {
    if (*c == ' ' || *c == '\0') {
      if (!w.empty()) out.push_back(w);
      w.clear();
      if (*c == '\0') return out;
    } else {
      w += *c;
    }
  }
}
}  // namespace

bool panel_shows(const PanelInfo& p, const std::string& fact) {
  const std::vector<std::string> shown = words(p.shows);
  return std::find(shown.begin(), shown.end(), fact) != shown.end();
}

const std::vector<std::string>& panel_facts() {
  static const std::vector<std::string> facts = [] {
    std::vector<std::string> all;
    for (const PanelInfo& p : panel_table())
      for (const std::string& f : words(p.shows))
        if (std::find(all.begin(), all.end(), f) == all.end()) all.push_back(f);
    return all;
  }();
  return facts;
}

const PanelInfo* find_panel(const std::string& key) {
  for (const PanelInfo& p : panel_table())
    if (key == p.key) return &p;
  return nullptr;
}

bool& PanelVisibility::operator[](PanelId id) {
  switch (id) {
#define ATTN_PANEL_CASE(id, open, lock, column, weight, shows) \
  case PanelId::id:                                            \
    return this->id;
    ATTN_PANELS(ATTN_PANEL_CASE)
#undef ATTN_PANEL_CASE
  }
  return controls;  // unreachable: every enumerator has a case
}

bool PanelVisibility::operator[](PanelId id) const { return (*const_cast<PanelVisibility*>(this))[id]; }

bool PanelVisibility::operator==(const PanelVisibility& o) const {
  for (const PanelInfo& p : panel_table())
    if ((*this)[p.id] != o[p.id]) return false;
  return true;
}

bool* panel_flag(PanelVisibility& v, const std::string& key) {
  const PanelInfo* p = find_panel(key);
  return p ? &v[p->id] : nullptr;
}

namespace {
// Reverts that touch more than one field: a locked control keeps everything it determines.
void revert_preset(State& now, const State& before) {
  if (now.preset != before.preset || now.mode != before.mode) now = before;
}
void revert_sentence(State& now, const State& before) {
  if (now.sentence == before.sentence) return;
  now.sentence = before.sentence;
  now.embeddings = before.embeddings;
  now.key_padding = before.key_padding;
}
void revert_seed(State& now, const State& before) {
  if (now.seed == before.seed) return;
  now.seed = before.seed;
  now.embeddings = before.embeddings;
}
void revert_embeddings(State& now, const State& before) {
  if (now.embeddings.rows() != before.embeddings.rows() || now.embeddings.cols() != before.embeddings.cols() ||
      now.embeddings != before.embeddings)
    now.embeddings = before.embeddings;
}
void revert_mask(State& now, const State& before) {
  now.mask = before.mask;
  now.key_padding = before.key_padding;
  now.mask_cells = before.mask_cells;
  if (now.mode == InputMode::Explicit && before.mode == InputMode::Explicit) {  // a scenario's own masks
    now.explicit_scenario.mask = before.explicit_scenario.mask;
    now.explicit_scenario.key_padding = before.explicit_scenario.key_padding;
    now.explicit_scenario.mask_cells = before.explicit_scenario.mask_cells;
  }
}
}  // namespace

namespace {
struct ControlName {
  const char* id;
  const char* alias;
};
constexpr ControlName kControlNames[] = {
#define ATTN_CONTROL_NAME(name, id, alias) {id, alias},
    ATTN_CONTROLS(ATTN_CONTROL_NAME)
#undef ATTN_CONTROL_NAME
};
constexpr ControlName kFamilyNames[] = {
#define ATTN_CONTROL_FAMILY_NAME(name, prefix, alias) {prefix, alias},
    ATTN_CONTROL_FAMILIES(ATTN_CONTROL_FAMILY_NAME)
#undef ATTN_CONTROL_FAMILY_NAME
};

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
}  // namespace

const char* control_id(ControlId c) { return kControlNames[static_cast<size_t>(c)].id; }

std::string control_id(ControlFamily f, const std::string& index) {
  return kFamilyNames[static_cast<size_t>(f)].id + index;
}

bool find_control_id(const std::string& id, ControlId& out) {
  const std::string canonical = canonical_control_id(id);
  for (size_t i = 0; i < std::size(kControlNames); ++i)
    if (canonical == kControlNames[i].id) {
      out = static_cast<ControlId>(i);
      return true;
    }
  return false;
}

std::string canonical_control_id(const std::string& id) {
  for (const ControlName& c : kControlNames)
    if (id == c.id || (*c.alias && id == c.alias)) return c.id;
  for (const ControlName& f : kFamilyNames)
    if (*f.alias && starts_with(id, f.alias)) return f.id + id.substr(std::char_traits<char>::length(f.alias));
  return id;
}

const std::vector<ControlInfo>& control_table() {
  // `preset` comes first: reverting it restores the whole state, so later reverts see no change. The others'
  // changes reach past their key: a sentence or seed re-fits the embeddings, masks come in three fields.
  static const std::vector<ControlInfo> table = [] {
    const std::pair<ControlId, void (*)(State&, const State&)> own_reverts[] = {
        {ControlId::preset, revert_preset}, {ControlId::sentence, revert_sentence},
        {ControlId::seed, revert_seed},     {ControlId::embeddings, revert_embeddings},
        {ControlId::mask, revert_mask},
    };
    std::vector<ControlInfo> rows;
    for (size_t i = 0; i < std::size(kControlNames); ++i) {
      const auto which = static_cast<ControlId>(i);
      const ControlName& c = kControlNames[i];
      void (*revert)(State&, const State&) = nullptr;
      for (const auto& [w, r] : own_reverts)
        if (w == which) revert = r;
      if (!revert && !is_settable_key(c.id)) continue;  // not lockable: no state of its own to take back
      rows.push_back({which, c.id, c.alias, revert});
    }
    std::stable_partition(rows.begin(), rows.end(), [](const ControlInfo& r) { return r.which == ControlId::preset; });
    return rows;
  }();
  return table;
}

void ControlInfo::undo(State& now, const State& before) const {
  if (revert)
    revert(now, before);
  else
    revert_state_key(now, before, id);
}

const ControlInfo* find_control(const std::string& id) {
  const std::string canonical = canonical_control_id(id);
  for (const ControlInfo& c : control_table())
    if (canonical == c.id) return &c;
  return nullptr;
}

const std::vector<std::string>& panel_ids() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> v;
    for (const PanelInfo& p : panel_table()) v.emplace_back(p.key);
    return v;
  }();
  return ids;
}

const std::vector<std::string>& control_ids() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> v;
    for (const ControlInfo& c : control_table()) v.emplace_back(c.id);
    return v;
  }();
  return ids;
}

}  // namespace attn
