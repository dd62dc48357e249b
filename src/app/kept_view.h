// kept_view.h — where the learner had scrolled each panel to, kept with the progress (local storage on the
// page, the config folder on the desktop) so a reload opens the panels where they were.
#pragma once

#include <string>

namespace attn {
class App;

// The kept vertical scroll of a panel (its registry key, or "stack" for the phone's column); 0 when none.
float kept_scroll(const App& app, const std::string& panel);
// The panel's scroll now: kept, and the progress saved, when it moved by a pixel or more.
void keep_scroll(App& app, const std::string& panel, float y);

}  // namespace attn
