// lock.h — embed mode inside panels: controls the embedding page locked (drawn disabled) or hidden.
// Control ids are those of app/embed.h (d_k, scale, temperature, …).
#pragma once

#include "app/embed.h"

namespace attn::ui {
void bind_embed(const EmbedSettings* embed);  // the shell binds its App's settings each frame
bool hidden(const char* control);             // true: don't draw the control at all
bool locked(const char* control);             // true: draw it disabled

// Everything drawn while this lives is disabled if `control` is locked.
class LockScope {
 public:
  explicit LockScope(const char* control);
  ~LockScope();
  LockScope(const LockScope&) = delete;
  LockScope& operator=(const LockScope&) = delete;

 private:
  bool disabled_;
};
}  // namespace attn::ui
