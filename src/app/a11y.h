// a11y.h — the page's parallel DOM in words: what a screen reader or keyboard learner gets instead of the canvas.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace attn {

class App;

// Every open panel, in the registry's order, with the controls it drew last frame that edit one state key
// (id, kind, label in the learner's language, value, range or options, locked); the open lesson step as text
// (question, choices, hint, feedback, explanation, whether Next/Back go), or the lesson picker while none is open;
// the worksheet's exercise chooser and cells with their checks, Learn mode's settings and buttons, the embedding
// points and the mask grid while their panels are open; the selected row's weights. Built
// from the control and panel registries, the state schema and the catalogs; nothing here is listed twice.
nlohmann::json a11y_description(const App& app);

// An action asked for by the page's own controls: {"do": "next" | "back" | "choice" | "number" | "exit" |
// "restart", "value": …} on the open lesson; {"do": "start", "value": lesson id}, {"do": "reset_progress"};
// {"do": "cell", "stage": id, "row": i, "col": j, "value": text} (0-based) types a worksheet cell;
// {"do": "learn", "id": "learn:…", "value": …} edits Learn mode as its panel does; {"do": "mask_cell", "row", "col",
// "value": bool} and {"do": "mask_pad", "col", "value": bool} block a cell or pad a key; {"do": "point", "row": i,
// "axis": "x" | "y", "value": number} moves token i's point on the embeddings plane as dragging it does.
// "" when done, else why not (shown in the live region).
std::string a11y_act(App& app, const nlohmann::json& action);

}  // namespace attn
