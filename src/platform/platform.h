// platform.h — the seam between the shared app/UI and a target. web.cpp (the page's main loop)
// and desktop.cpp (`attnplay gui`) are the only files that know which target they are.
#pragma once

namespace attn {
// Desktop window: `attnplay gui [STATE.json | #share-fragment] [--screenshot FILE.png --frames N]`.
int run_gui(int argc, char** argv);
}  // namespace attn
