// share_actions.h — what the Share panel does, declared once for its canvas buttons and their parallel-DOM twins:
// copy the link, save the exports, import a file, make a course package, build the embed code. Each says its outcome
// in the status line.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/exchange/embed_choice.h"
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

// The embed code of this state as app.embed_choice says (embed_choice.h): the canvas's "Copy embed code" and its
// twin copy the same text.
struct EmbedCode {
  std::string error;          // why there is no code yet (no panel chosen, the origins invalid); "" = there is one
  std::string origins_error;  // the typed origins' first problem ("" = none)
  std::string url, title, html;
};
EmbedCode embed_code(const App& app);
// The same without building the code (its share link costs milliseconds at n = 1024): `error` and `origins_error`.
EmbedCode embed_code_problems(const App& app);
// The panels an embed may show, in the registry's order (every panel but the Share panel itself).
const std::vector<std::string>& embed_panel_ids();
// Ticks a panel to show (ControlFamily::share_show) or a control to lock or hide in or out; false if there is no
// such panel or control.
bool choose_embed_item(App& app, ControlFamily family, const std::string& id, bool in);
bool embed_item_chosen(const App& app, ControlFamily family, const std::string& id);
void set_embed_origins(App& app, const std::string& list);
void set_embed_size(App& app, int width, int height);  // clamped to kEmbedMin… and kEmbedMax…
std::string copy_embed_code(App& app);                 // copies embed_code(app) and keeps it to show; "" or why not

// The Share panel's twins for the parallel DOM (a11y.h): buttons and selects acting through share_action.
nlohmann::json share_controls_json(const App& app);
// {"do": "share", "id": <control id>, "value"?}: the twin of that control; "" or why not.
std::string share_action(App& app, const nlohmann::json& action);

}  // namespace attn
