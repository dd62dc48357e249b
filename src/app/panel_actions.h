// panel_actions.h — the canvas's buttons that change the playground, declared once for the buttons and their
// parallel-DOM twins: Re-roll weights (Controls), Shuffle tokens (Positional), Clear painted cells and Clear padding
// (Masks). A twin shows while the canvas drew its button last frame, greyed with why while the button is.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "app/base/strings.h"
#include "app/state/registry.h"

namespace attn {

class App;

// The button's twin ({"id", "kind": "button", "label", "act": "button"}, with "disabled" and "reason" while its
// control is locked), or null when `id` is no such button or the canvas did not draw it.
nlohmann::json action_twin(const App& app, ControlId id);
// A press of the twin {"do": "button", "id"}: the button's own action. "" when done, else why not.
std::string button_action(App& app, const std::string& id);
// The last shuffle's gap in words, as the Positional panel says it ("" before the first shuffle is measured).
std::string last_shuffle_text(const App& app);
// Why a control is greyed: the open lesson step keeps it, or the page embedding the playground does ("" if neither).
std::string lock_reason(const App& app, const std::string& id);

}  // namespace attn
