// web_api.h — the C ABI the page's JavaScript (web/site/attnplay-api.js) calls. Strings in and out
// are UTF-8 JSON; returned pointers stay valid until the next call into this API.
#pragma once

#include "platform/frame.h"

namespace attn {
class App;
void bind_web_api(App* app);  // web.cpp registers its App once at start-up
// After each drawn frame: tells the page (Module.attnplayChanged) when the change stamp has moved, so
// its listeners run on changes instead of polling.
void push_web_changes();
// Learn mode's training worker (Module.attnplayTrain): starts it and gives the App its hooks, or, when no
// worker can be had, tells the App why (it then trains in the frame). Once, after bind_web_api.
void bind_web_train(App* app);
// Before each frame: the worker's snapshots since the last one go to the App (learn_adopt).
void poll_web_train();
// Keeps the last frames' phases for attnplay_frame_phases() (the page's benchmark).
void record_frame_phases(const FramePhases& phases);
}  // namespace attn

extern "C" {
const char* attnplay_get_state();
const char* attnplay_set_state(const char* json);  // {"ok":true} or {"ok":false,"error":"…"}
const char* attnplay_get_result();
const char* attnplay_item_rect(const char* label);  // {"x","y","w","h"} in UI units, or null
const char* attnplay_focused();                     // id of the item with keyboard focus ("" = none)
const char* attnplay_summary();                     // plain-text summary for the aria-live region
double attnplay_frames();
double attnplay_frames_painted();
const char* attnplay_frame_phases();  // [{"frame","tick","recompute","panels","render","gl","around"}], last 600 frames
// Sharing and embedding (share.h, embed.h).
const char* attnplay_share_link();                         // page address + "#s=1.…"
const char* attnplay_open_fragment(const char* fragment);  // {"ok"} or {"ok":false,"error"}; defaults on error
const char* attnplay_import_json(const char* text, const char* name);  // a scenario or a state file
const char* attnplay_load_lesson(const char* text, const char* name);  // a teacher's lesson file
const char* attnplay_set_status(const char* message);                  // a non-modal message in the UI
const char* attnplay_status();                                         // that message ("" if none)
// A catalog text ("status.clipboard_refused", …) in the learner's language, {name} and {error} filled in.
const char* attnplay_text(const char* key, const char* name, const char* error);
const char* attnplay_lang();                           // "en" | "hi-Latn": the language the UI and the summary speak
const char* attnplay_embed_info();                     // {"enabled","panels","locked","hidden","origins"}
const char* attnplay_host_protocol();                  // {"events","json_depth","json_bytes"}: message checks
const char* attnplay_take_events();                    // [{"type": "lesson-step" | "answer" | "lesson-complete", …}]
const char* attnplay_load_progress(const char* text);  // {"ok"} or {"ok":false,"error"}
double attnplay_change_stamp();                        // moves whenever the state, result or status changes
const char* attnplay_panel_scroll(const char* title);  // a panel's window and scroll position, or null
// 1 adopted, 0 stale or refused; `probes` (may be empty) the worker's probe views of the same weights
int attnplay_learn_adopt(const char* data, int size, double generation, const char* probes, int probes_size);
const char* attnplay_learn_worker_failed(const char* reason);  // training goes back to the frame
int attnplay_learn_save();           // Learn run's size to keep (0 unchanged, -1 forget the kept one)
const char* attnplay_learn_bytes();  // ...its bytes, valid until the next attnplay_learn_save
const char* attnplay_learn_resume(const char* data,
                                  int size);  // a kept run handed back: {"ok"} or {"ok":false,"error"}
const char* attnplay_watch();  // {"state": small fields, "parts": digests of large ones, "row", "max_weight",
                               // "saturated", "status"}
}
