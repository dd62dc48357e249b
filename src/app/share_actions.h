// share_actions.h — what the Share panel does, declared once for its canvas buttons and their parallel-DOM twins:
// copy the link, save the exports, import a file, make a course package. Each says its outcome in the status line.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/exchange/package_choice.h"
#include "app/state/registry.h"

namespace attn {

class App;

// A file the Share panel saves; `available` says whether this host can save it now.
struct ShareExport {
  std::string control;   // its control id ("share:csv", "share:svg:attnplay-heatmap.svg")
  const char* label;     // its catalog key
  ControlId id;          // the control of ATTN_CONTROLS ...
  const char* svg_name;  // ... or, when set, this index of the share_svg family
};
// In the panel's order: the PNGs of the canvas and of the heatmap, the three SVG figures, the CSV, the result and
// state JSON.
const std::vector<ShareExport>& share_exports();
bool share_export_available(const App& app, const std::string& control);
// Saves the export named by its control id; "" or why not.
std::string share_save(App& app, const std::string& control);
// Copies the link to this exact state (and says how long it is); returns the link.
std::string share_copy_link(App& app);

// A lesson as a package an LMS imports, as app.package_choice says (package_choice.h).
const char* package_kind_name(PackageKind k);  // "1.2", "2004", "cmi5" (the host's word)
// The lessons the next package takes, in the catalog's order: the chosen ones, or the open lesson, or the first.
std::vector<std::string> package_lessons(const App& app);
// Adds a lesson to the package's choice or takes it out; false if there is no such lesson.
bool choose_package_lesson(App& app, const std::string& id, bool in);
std::string make_package(App& app);  // "" or why not

// The Share panel's twins for the parallel DOM (a11y.h): buttons and selects acting through share_action.
nlohmann::json share_controls_json(const App& app);
// {"do": "share", "id": <control id>, "value"?}: the twin of that control; "" or why not.
std::string share_action(App& app, const nlohmann::json& action);

}  // namespace attn
