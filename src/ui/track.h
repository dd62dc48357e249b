// track.h — remember where labelled items were drawn this frame (window.attnplay.ui.itemRect).
#pragma once

#include <map>
#include <string>

#include "app/app.h"

namespace attn::ui {
void bind_item_rects(std::map<std::string, ItemRect>* rects);  // the shell binds its App's map each frame
void track(const std::string& label);  // call right after the item; records ImGui's last item rect
void track_rect(const std::string& label, float x, float y, float w, float h);
}  // namespace attn::ui
