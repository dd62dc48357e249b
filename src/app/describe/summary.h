// summary.h — what is on screen, as one short plain-text paragraph (screen readers, aria-live).
#pragma once

#include <string>
#include <vector>

#include "app/playground/saturation.h"  // kSaturatedMaxWeight, row_saturation

namespace attn {
class Playground;
// `withheld`: facts an open lesson question asks (lesson_text.h, withheld_facts): while it is unanswered the summary
// says the row's weights are hidden instead of reading them out ("weights" or "saturation").
std::string screen_summary(const Playground& pg, const std::vector<std::string>& withheld = {});
}  // namespace attn
