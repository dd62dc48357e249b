// assets.h — files compiled into the binary (font, shaders); see cmake/EmbedScript.cmake.
#pragma once

#include <cstddef>

namespace attn {
struct Asset {
  const unsigned char* data;
  size_t size;
};
// {nullptr, 0} when there is no asset of that name.
Asset find_asset(const char* name);
}  // namespace attn
