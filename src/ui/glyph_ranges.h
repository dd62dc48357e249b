// glyph_ranges.h — the Unicode ranges the UI font covers; a catalog text outside them would show boxes.
#pragma once

#include <cstdint>

namespace attn::ui {

struct GlyphRange {
  uint32_t first, last;
};

// The font is DejaVu Sans cut down to these (cmake/AttnplayEmbed.cmake lists the same ranges for
// pyftsubset): Latin, Greek, the phonetic block's modifier letters (ᵀ, ᵏ, ᵢ), punctuation, super- and
// subscripts, letterlike symbols, arrows, mathematical operators, ceiling and floor, geometric shapes,
// check marks. Every glyph is in the page's first download and rasterised at start, so blocks the texts
// do not use (the rest of the phonetic and technical blocks, spacing and invisible characters) are left out.
constexpr GlyphRange kUiGlyphRanges[] = {{0x0020, 0x007E}, {0x00A0, 0x017F}, {0x0370, 0x03FF}, {0x1D2C, 0x1D6A},
                                         {0x2010, 0x205E}, {0x2070, 0x209C}, {0x2100, 0x214F}, {0x2190, 0x21FF},
                                         {0x2200, 0x22FF}, {0x2308, 0x230B}, {0x25A0, 0x25FF}, {0x2713, 0x2717}};

constexpr bool in_ui_font(uint32_t codepoint) {
  for (const GlyphRange& r : kUiGlyphRanges)
    if (codepoint >= r.first && codepoint <= r.last) return true;
  return false;
}

}  // namespace attn::ui
