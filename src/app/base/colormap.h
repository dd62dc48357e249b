// colormap.h — the heatmap's colour scale, declared once for every surface that paints weights: the canvas (ui/), the
// SVG and PNG exports (app/), and, in GLSL, shaders/heatmap.frag.glsl (whose coefficients colour-vision.test.mjs
// reads).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace attn {

struct Rgb {
  float r, g, b;  // sRGB, 0…1
};

// Viridis (a polynomial fit of matplotlib's): the heatmap's colours, read by lightness under colour-vision
// deficiencies. The shader computes the same polynomial.
inline Rgb viridis(float t) {
  t = std::clamp(std::isfinite(t) ? t : 0.0f, 0.0f, 1.0f);
  const float c[7][3] = {{0.2777273f, 0.0054073f, 0.3340998f},   {0.1050930f, 1.4046135f, 1.3845902f},
                         {-0.3308618f, 0.2148476f, 0.0950952f},  {-4.6342305f, -5.7991010f, -19.3324410f},
                         {6.2282699f, 14.1799334f, 56.6905526f}, {4.7763850f, -13.7451454f, -65.3530326f},
                         {-5.4354559f, 4.6458526f, 26.3124352f}};
  float rgb[3];
  for (int k = 0; k < 3; ++k) {
    float v = c[6][k];
    for (int i = 5; i >= 0; --i) v = c[i][k] + t * v;
    rgb[k] = std::clamp(v, 0.0f, 1.0f);
  }
  return {rgb[0], rgb[1], rgb[2]};
}

// One channel as a byte, rounded as ImGui rounds the canvas's colours: the SVG's and the PNG's pixels match it.
inline uint8_t colour_byte(float v) { return static_cast<uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); }

}  // namespace attn
