// glyph_ranges.h — the Unicode ranges the UI font covers; a catalog or lesson text outside them would show boxes.
#pragma once

#include <cstdint>

namespace attn {

struct GlyphRange {
  uint32_t first, last;
};

// The font is DejaVu Sans cut down to these: cmake/AttnplayEmbed.cmake reads this list for pyftsubset, so the
// font and ImGui's atlas cover the same characters. Every glyph is in the page's first download and rasterised at
// start, so only what the texts use and what a teacher's lesson plausibly needs is here: Latin (with Latin-1 and
// Extended-A for learners' names), the Greek letters, the modifier letters the notes use (ᵀ ᵏ ᵗ ᵢ), punctuation,
// super- and subscripts, ℓ, the common arrows, the common mathematical operators (∂ ∑ √ ∞ ≈ ≠ ≤ ≥ ⊂ ⊙ ⋅ …),
// ceiling and floor, a few shapes (■ □ ▲ ▼ ○ ●), check marks and angle brackets. (Whole blocks cost the phone
// 35 KB of its first download for glyphs no text used.)
constexpr GlyphRange kUiGlyphRanges[] = {
    {0x0020, 0x007E}, {0x00A0, 0x017F}, {0x0302, 0x0302}, {0x0391, 0x03A9}, {0x03B1, 0x03C9}, {0x1D40, 0x1D40},
    {0x1D4F, 0x1D4F}, {0x1D57, 0x1D57}, {0x1D62, 0x1D62}, {0x2010, 0x2027}, {0x2030, 0x203A}, {0x2070, 0x209C},
    {0x2113, 0x2113}, {0x2190, 0x2199}, {0x21C4, 0x21C4}, {0x21D0, 0x21D5}, {0x2200, 0x2212}, {0x2219, 0x221E},
    {0x2227, 0x222B}, {0x2248, 0x2248}, {0x2260, 0x2265}, {0x2282, 0x2287}, {0x2299, 0x2299}, {0x22C5, 0x22C5},
    {0x2308, 0x230B}, {0x25A0, 0x25A1}, {0x25B2, 0x25B2}, {0x25BC, 0x25BC}, {0x25CB, 0x25CB}, {0x25CF, 0x25CF},
    {0x2713, 0x2717}, {0x27E8, 0x27E9}};

constexpr bool in_ui_font(uint32_t codepoint) {
  for (const GlyphRange& r : kUiGlyphRanges)
    if (codepoint >= r.first && codepoint <= r.last) return true;
  return false;
}

}  // namespace attn
