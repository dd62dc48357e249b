// colour-vision.test.mjs — the colours a learner must tell apart stay apart for colour-blind and low-vision readers.
// The heatmap legend's ramp (the viridis polynomial in shaders/heatmap.frag.glsl, which src/app/base/colormap.h mirrors)
// is simulated for protanopia, deuteranopia and tritanopia (Machado, Oliveira & Fernandes 2009, severity 1): weights
// a tenth apart stay ΔE*ab ≥ MIN_DE apart and get lighter all the way up, so the ramp reads by lightness alone; its
// ends stand ≥ 3:1 against each theme's panel. The themes' text colours (src/ui/theme.h) are ≥ 4.5:1 on their
// panels and the focus ring (src/ui/panel_context.cpp) ≥ 3:1 in both themes. Colours are read from that code,
// not copied here. Needs no browser or build.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from './helpers.mjs';

const read = (p) => fs.readFileSync(path.join(REPO_ROOT, p), 'utf8');
const MIN_DE = 5;  // CIE76: 2.3 is "just noticeable"; 5 and more read as clearly different colours side by side

// c0…c6 of `vec3 viridis(float t)` in the shader.
function viridisFromShader() {
  const src = read('shaders/heatmap.frag.glsl');
  const c = [...src.matchAll(/const vec3 c(\d) = vec3\(([^)]*)\)/g)].map((m) => m[2].split(',').map(Number));
  assert.equal(c.length, 7, 'seven coefficient vectors in the shader');
  return (t) => [0, 1, 2].map((k) => Math.min(1, Math.max(0, c.reduceRight((acc, ci) => ci[k] + t * acc, 0))));
}

// The ThemePalette fields and the two constexpr palettes in theme.h, in declaration order.
function palettes() {
  const src = read('src/ui/theme.h');
  const fields = [...src.match(/struct ThemePalette \{([\s\S]*?)\};/)[1].matchAll(/Rgb ([^;]+);/g)]
    .flatMap((m) => m[1].split(',').map((s) => s.trim()));
  const parse = (name) => {
    const body = src.match(new RegExp(`constexpr ThemePalette ${name}\\{([\\s\\S]*?)\\};`))[1];
    const rgbs = [...body.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1].split(',').map((s) => parseFloat(s)));
    assert.equal(rgbs.length, fields.length, `${name}: one colour per field`);
    return Object.fromEntries(fields.map((f, i) => [f, rgbs[i]]));
  };
  return { dark: parse('kDarkPalette'), light: parse('kLightPalette') };
}

const lin = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const luminance = (rgb) => { const [r, g, b] = rgb.map(lin); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };

const MACHADO = {
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
  none: [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
};
// sRGB → simulated linear RGB → CIE L*a*b* (D65).
function labSeenAs(rgb, m) {
  const l = rgb.map(lin);
  const s = m.map((row) => Math.min(1, Math.max(0, row[0] * l[0] + row[1] * l[1] + row[2] * l[2])));
  const X = 0.4124 * s[0] + 0.3576 * s[1] + 0.1805 * s[2];
  const Y = 0.2126 * s[0] + 0.7152 * s[1] + 0.0722 * s[2];
  const Z = 0.0193 * s[0] + 0.1192 * s[1] + 0.9505 * s[2];
  const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  const [fx, fy, fz] = [f(X / 0.95047), f(Y), f(Z / 1.08883)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}
const deltaE = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

describe('colour vision and contrast', () => {
  const viridis = viridisFromShader();
  const pal = palettes();
  const steps = Array.from({ length: 11 }, (_, i) => viridis(i / 10));

  // wcag: 1.4.1 — the weights' colours read by lightness alone under protanopia, deuteranopia and tritanopia
  for (const [name, m] of Object.entries(MACHADO)) {
    it(`legend steps a tenth apart stay apart and get lighter (${name})`, () => {
      const lab = steps.map((c) => labSeenAs(c, m));
      const gaps = lab.slice(1).map((l, i) => deltaE(l, lab[i]));
      const worst = Math.min(...gaps);
      assert.ok(worst >= MIN_DE, `smallest ΔE between adjacent tenths: ${worst.toFixed(1)} (all: ${gaps.map((g) => g.toFixed(1)).join(' ')})`);
      lab.slice(1).forEach((l, i) => assert.ok(l[0] > lab[i][0], `L* rises from ${i / 10} to ${(i + 1) / 10}: ${lab[i][0].toFixed(1)} → ${l[0].toFixed(1)}`));
    });
  }

  it('the legend ramp stands out from each theme\'s panel (≥ 3:1 at one end at least)', () => {
    for (const [theme, p] of Object.entries(pal)) {
      const best = Math.max(contrast(steps[0], p.window_bg), contrast(steps[10], p.window_bg));
      assert.ok(best >= 3, `${theme}: ${best.toFixed(2)}:1`);
    }
  });

  // wcag: 1.4.3 — every theme text colour is ≥ 4.5:1 on its panel, in both themes
  it('every text colour of both themes is ≥ 4.5:1 on its panel', () => {
    for (const [theme, p] of Object.entries(pal)) {
      for (const [field, rgb] of Object.entries(p)) {
        if (field === 'window_bg') continue;
        const c = contrast(rgb, p.window_bg);
        assert.ok(c >= 4.5, `${theme} ${field}: ${c.toFixed(2)}:1`);
      }
    }
  });

  // wcag: 1.4.11 — the focus ring is ≥ 3:1 against both themes' panels
  it('the keyboard focus ring is ≥ 3:1 against both themes\' panels (its amber or its dark rim)', () => {
    const src = read('src/ui/panel_context.cpp');
    const body = src.match(/void PanelContext::draw_focus_ring[\s\S]*?\n\}/)[0];
    const rings = [...body.matchAll(/IM_COL32\((\d+), (\d+), (\d+), \d+\)/g)].map((m) => [m[1], m[2], m[3]].map((v) => v / 255));
    assert.equal(rings.length, 2, 'a rim and a ring');
    for (const [theme, p] of Object.entries(pal)) {
      const best = Math.max(...rings.map((r) => contrast(r, p.window_bg)));
      assert.ok(best >= 3, `${theme}: ${best.toFixed(2)}:1`);
    }
  });
});
