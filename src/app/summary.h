// summary.h — what is on screen, as one short plain-text paragraph (screen readers, aria-live).
#pragma once

#include <string>

namespace attn {
class App;
// A row counts as saturated when its largest weight exceeds this (nearly one-hot).
constexpr float kSaturatedMaxWeight = 0.95f;
std::string screen_summary(const App& app);
}  // namespace attn
