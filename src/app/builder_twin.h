// builder_twin.h — the lesson builder in the parallel DOM: the builder panel's content as a list of items (headings,
// notes, fields, buttons, choices) that attnplay-a11y.js renders as native HTML in the canvas's order, and the
// actions its items send, each through the canvas panel's own function (builder_actions.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace attn {

class App;

// null while the builder panel is closed. Each item: {"kind": heading|note|button|text|number|checkbox|select|radio|
// group, "id": the canvas control's id, "label", "value", "options", "items" (a group's), "act": the action to send
// (a field adds its "value"), "disabled" and "reason", "pressed", "then": the control to focus after acting}.
nlohmann::json builder_twin_json(const App& app);
// {"do": "builder", "what": …, "step": i (from 0), …}: "" or why not.
std::string builder_act(App& app, const nlohmann::json& action);

}  // namespace attn
