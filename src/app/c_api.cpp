// c_api.cpp — the one C-ABI bridge between the page's JavaScript and the App (cf. chips' webapi.c).
#include "app/c_api.h"

#include <string>

#include "app/app.h"
#include "app/state_json.h"
#include "app/summary.h"
#include "core/json_codec.h"

#define ATTNPLAY_EXPORT __attribute__((used, visibility("default")))

namespace attn {
namespace {
App* g_app = nullptr;  // the bridge is process-wide by nature: one page, one App
std::string g_out;

const char* out(std::string s) {
  g_out = std::move(s);
  return g_out.c_str();
}
}  // namespace
void bind_c_api(App* app) { g_app = app; }
}  // namespace attn

using attn::g_app;
using attn::out;

extern "C" {

ATTNPLAY_EXPORT const char* attnplay_get_state() {
  if (!g_app) return out("null");
  return out(attn::state_to_json(g_app->state).dump());
}

ATTNPLAY_EXPORT const char* attnplay_set_state(const char* json) {
  if (!g_app) return out(R"({"ok":false,"error":"not ready"})");
  const std::string err = json ? attn::apply_state_text(g_app->state, json) : "no state given";
  if (!err.empty()) return out(nlohmann::json{{"ok", false}, {"error", err}}.dump());
  g_app->update();
  return out(R"({"ok":true})");
}

ATTNPLAY_EXPORT const char* attnplay_get_result() {
  if (!g_app) return out("null");
  g_app->update();
  nlohmann::json j = attn::result_to_json(g_app->result.core);
  if (!g_app->result.error.empty()) j["error"] = g_app->result.error;
  return out(j.dump());
}

ATTNPLAY_EXPORT const char* attnplay_item_rect(const char* label) {
  if (!g_app || !label) return out("null");
  const auto it = g_app->item_rects.find(label);
  if (it == g_app->item_rects.end()) return out("null");
  const attn::ItemRect& r = it->second;
  return out(nlohmann::json{{"x", r.x}, {"y", r.y}, {"w", r.w}, {"h", r.h}}.dump());
}

ATTNPLAY_EXPORT const char* attnplay_summary() {
  if (!g_app) return out("");
  return out(attn::screen_summary(*g_app));
}

ATTNPLAY_EXPORT double attnplay_frames() { return g_app ? static_cast<double>(g_app->frames) : 0.0; }

}  // extern "C"
