// lock.cpp — locked controls are drawn with ImGui::BeginDisabled; the shell also puts back any change to
// a locked field (revert_locked), so keyboard navigation or a missed wrapper cannot get around a lock.
#include "ui/lock.h"

#include <imgui.h>

namespace attn::ui {
namespace {
const EmbedSettings* g_embed = nullptr;  // per-frame binding set by the shell
}
void bind_embed(const EmbedSettings* embed) { g_embed = embed; }
bool hidden(const char* control) { return g_embed && g_embed->enabled && g_embed->is_hidden(control); }
bool locked(const char* control) { return g_embed && g_embed->enabled && g_embed->is_locked(control); }

LockScope::LockScope(const char* control) : disabled_(locked(control)) {
  if (disabled_) ImGui::BeginDisabled();
}
LockScope::~LockScope() {
  if (disabled_) ImGui::EndDisabled();
}
}  // namespace attn::ui
