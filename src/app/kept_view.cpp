// kept_view.cpp — see kept_view.h.
#include "app/kept_view.h"

#include <cmath>

#include "app/app.h"
#include "app/lesson/lesson_run.h"

namespace attn {

using nlohmann::json;

float kept_scroll(const App& app, const std::string& panel) {
  const json& view = app.progress.value("view", json::object());
  const json& scroll = view.is_object() ? view.value("scroll", json::object()) : json::object();
  const json& y = scroll.is_object() ? scroll.value(panel, json()) : json();
  return y.is_number() && std::isfinite(y.get<double>()) && y.get<double>() > 0 ? y.get<float>() : 0.0f;
}

void keep_scroll(App& app, const std::string& panel, float y) {
  if (!std::isfinite(y) || std::fabs(y - kept_scroll(app, panel)) < 1.0f) return;
  json& view = app.progress["view"];
  if (!view.is_object()) view = json::object();
  json& scroll = view["scroll"];
  if (!scroll.is_object()) scroll = json::object();
  scroll[panel] = std::round(y);
  save_progress(app);
}

}  // namespace attn
