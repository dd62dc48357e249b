// warnings.h — the result's out-of-range warnings in the learner's language.
#pragma once

#include <string>
#include <vector>

#include "app/base/strings.h"

namespace attn {

struct AppResult;

// The same warnings, in the same order, as core's compute() puts in Result::warnings (English, for
// the CLI and the JSON API), worded from the same fields of the result, so core needs no catalog.
std::vector<std::string> result_warnings(const AppResult& r, double temperature, Lang lang);

}  // namespace attn
