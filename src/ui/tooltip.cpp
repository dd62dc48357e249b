// tooltip.cpp — tooltips Escape dismisses (tooltip.h).
#include "ui/tooltip.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <string>

#include "app/app.h"

namespace attn::ui {
namespace {

App* g_app = nullptr;
bool g_dismissed = false;  // Escape hid the tooltips; the pointer moving shows them again
bool g_took_escape = false;

void shown(const char* text) {
  if (g_app) g_app->tooltip = text;
}

}  // namespace

void begin_tooltips(App& app) {
  g_app = &app;
  const ImGuiIO& io = ImGui::GetIO();
  if (io.MouseDelta.x != 0 || io.MouseDelta.y != 0) g_dismissed = false;
  g_took_escape = ImGui::IsKeyPressed(ImGuiKey_Escape, false) && !app.tooltip.empty();
  if (g_took_escape) g_dismissed = true;
  app.tooltip.clear();
}

bool tooltip_took_escape() { return g_took_escape; }

void tooltip(const char* fmt, ...) {
  if (g_dismissed) return;
  va_list args, again;
  va_start(args, fmt);
  va_copy(again, args);
  std::string text(static_cast<size_t>(std::max(0, std::vsnprintf(nullptr, 0, fmt, args))), '\0');
  std::vsnprintf(text.data(), text.size() + 1, fmt, again);
  va_end(again);
  va_end(args);
  ImGui::SetTooltip("%s", text.c_str());
  shown(text.c_str());
}

bool begin_tooltip(const char* text) {
  if (g_dismissed || !ImGui::BeginTooltip()) return false;
  shown(text);
  return true;
}

void end_tooltip() { ImGui::EndTooltip(); }

}  // namespace attn::ui
