// heatmap.frag.glsl — attention weight → viridis (perceptually uniform, colourblind-safe).
// Negative values mark masked cells, drawn as a grey hatch so they never read as "weight 0".
uniform sampler2D u_values;
in vec2 v_uv;
out vec4 frag;

// Polynomial fit of matplotlib's viridis (max error < 0.5%), after Inigo Quilez / mattz.
vec3 viridis(float t) {
  const vec3 c0 = vec3(0.2777273272234177, 0.005407344544966578, 0.3340998053353061);
  const vec3 c1 = vec3(0.1050930431085774, 1.404613529898575, 1.384590162594685);
  const vec3 c2 = vec3(-0.3308618287255563, 0.214847559468213, 0.09509516302823659);
  const vec3 c3 = vec3(-4.634230498983486, -5.799100973351585, -19.33244095627987);
  const vec3 c4 = vec3(6.228269936347081, 14.17993336680509, 56.69055260068105);
  const vec3 c5 = vec3(4.776384997670288, -13.74514537774601, -65.35303263337234);
  const vec3 c6 = vec3(-5.435455855934631, 4.645852612178535, 26.3124352495832);
  return c0 + t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * (c5 + t * c6)))));
}

void main() {
  // Texel row y of the value texture lands in row y of the colour texture; ImGui shows row 0 on top.
  ivec2 cell = ivec2(gl_FragCoord.xy);
  float v = texelFetch(u_values, ivec2(cell.x, cell.y), 0).r;
  if (v < 0.0) {
    float hatch = mod(float(cell.x + cell.y), 2.0);
    frag = vec4(vec3(0.35 + 0.1 * hatch), 1.0);
    return;
  }
  frag = vec4(clamp(viridis(clamp(v, 0.0, 1.0)), 0.0, 1.0), 1.0);
}
