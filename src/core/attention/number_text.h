// number_text.h — a number in messages as `stream << x` writes it (%g), without iostreams in the page's module.
#pragma once

#include <cstdio>
#include <string>

namespace attn {

inline std::string number_str(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

}  // namespace attn
