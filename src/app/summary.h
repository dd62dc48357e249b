// summary.h — what is on screen, as one short plain-text paragraph (screen readers, aria-live).
#pragma once

#include <string>

#include "app/saturation.h"  // kSaturatedMaxWeight, row_saturation

namespace attn {
class Playground;
std::string screen_summary(const Playground& pg);
}  // namespace attn
