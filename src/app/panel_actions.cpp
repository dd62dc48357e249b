// panel_actions.cpp — Re-roll weights, Shuffle tokens and the Masks panel's Clear buttons for the canvas and its
// parallel DOM: one action each, the twin drawn from the same registry entry and catalog label.
#include "app/panel_actions.h"

#include <algorithm>
#include <cstdio>

#include "app/app.h"
#include "app/playground/token_shuffle.h"
#include "app/state/state.h"

namespace attn {
namespace {
using nlohmann::json;

struct ActionButton {
  ControlId id;
  const char* label;  // its catalog key, as the panel draws it
  const char* lock;   // the control whose lock greys it (the panel's LockScope around it)
};
constexpr ActionButton kButtons[] = {
    {ControlId::reroll, "controls.reroll", "seed"},
    {ControlId::positional_shuffle, "positional.shuffle", "sentence"},  // shuffling rewrites the sentence
    {ControlId::masks_clear_cells, "masks.clear_cells", "mask"},
    {ControlId::masks_clear_padding, "masks.clear_padding", "mask"},
};

const ActionButton* find_button(const std::string& id) {
  for (const ActionButton& b : kButtons)
    if (id == control_id(b.id)) return &b;
  return nullptr;
}

// A gap in the permutation test, as "%.3g" writes it (0, 1.2e-07, 0.348): the panel's figure.
std::string gap_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}
}  // namespace

std::string lock_reason(const App& app, const std::string& id) {
  if (std::find(app.lesson_locks.begin(), app.lesson_locks.end(), id) != app.lesson_locks.end())
    return tr(app.state.lang, "a11y.locked_lesson");
  if (app.embed.enabled && app.embed.is_locked(id)) return tr(app.state.lang, "a11y.locked_embed");
  return "";
}

json action_twin(const App& app, ControlId id) {
  const ActionButton* b = find_button(control_id(id));
  if (!b || !app.item_panels.count(control_id(id))) return nullptr;
  json c = {{"id", control_id(id)},
            {"kind", "button"},
            {"label", tr(app.state.lang, b->label)},
            {"locked", false},
            {"act", "button"}};
  const std::string why = lock_reason(app, b->lock);
  if (!why.empty()) c.update({{"disabled", true}, {"reason", why}});
  return c;
}

std::string button_action(App& app, const std::string& id) {
  const ActionButton* b = find_button(id);
  if (!b || !app.item_panels.count(id)) return "no such button";
  if (!lock_reason(app, b->lock).empty()) return "locked";
  State& s = app.state;
  switch (b->id) {
    case ControlId::reroll:
      reroll(s);
      break;
    case ControlId::positional_shuffle:
      shuffle_tokens(s, app.result, app.token_shuffle);
      break;
    case ControlId::masks_clear_cells:
      clear_mask_cells(s);
      break;
    default:
      clear_key_padding(s);
      break;
  }
  return "";
}

std::string last_shuffle_text(const App& app) {
  const TokenShuffle& t = app.token_shuffle;
  if (t.gap < 0) return "";
  const Lang lang = app.state.lang;
  return tr_format(lang, t.with_pe ? "positional.last_shuffle_on" : "positional.last_shuffle_off",
                   {{"gap", gap_text(t.gap)}}) +
         ", " + tr(lang, t.gap < 1e-4 ? "positional.same_rows" : "positional.rows_changed");
}

}  // namespace attn
