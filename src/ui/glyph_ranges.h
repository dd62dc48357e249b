// glyph_ranges.h — the Unicode ranges the UI font covers; a catalog text outside them would show boxes.
#pragma once

#include <cstdint>

namespace attn::ui {

struct GlyphRange {
  uint32_t first, last;
};

// The font is DejaVu Sans cut down to these (cmake/AttnplayEmbed.cmake lists the same ranges for
// pyftsubset): Latin, Greek, phonetic sub/superscripts, punctuation and letterlike symbols, arrows,
// mathematical operators, technical symbols, geometric shapes, check marks.
constexpr GlyphRange kUiGlyphRanges[] = {{0x0020, 0x007E}, {0x00A0, 0x017F}, {0x0370, 0x03FF},
                                         {0x1D00, 0x1DBF}, {0x2000, 0x214F}, {0x2190, 0x22FF},
                                         {0x2300, 0x23FF}, {0x25A0, 0x25FF}, {0x2713, 0x2717}};

constexpr bool in_ui_font(uint32_t codepoint) {
  for (const GlyphRange& r : kUiGlyphRanges)
    if (codepoint >= r.first && codepoint <= r.last) return true;
  return false;
}

}  // namespace attn::ui
