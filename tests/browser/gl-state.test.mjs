// gl-state.test.mjs — the page answers ImGui's per-frame reads of WebGL state (viewport, scissor box, blend)
// from a shadow of the calls that set them (web.cpp, web_shadow_gl_state): Chromium answers each real read with
// a round trip to the GPU process. A wrong answer would make the renderer "restore" a wrong state (and then agree
// with it: so the values are compared before every draw call, where a missed setter shows); a real read per frame
// would bring the round trips back. Through a drag, a resize and a theme switch, every shadowed value equals the
// context's own at every draw call, the last frame's viewport is the whole canvas, and no frame read them for real.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { center, drag, itemRect, setStateOk, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

// VIEWPORT, SCISSOR_BOX, BLEND_SRC_RGB, BLEND_DST_RGB, BLEND_SRC_ALPHA, BLEND_DST_ALPHA, BLEND_EQUATION_RGB/ALPHA.
const SHADOWED = [0x0BA2, 0x0C10, 0x80C9, 0x80C8, 0x80CB, 0x80CA, 0x8009, 0x883D];

// Runs before the page's scripts: counts the reads that reach the context, keeps the context's own getter, and
// while __glCheck is set compares the page's answers with the context's before every draw call.
function countRealReads() {
  const pnames = [0x0BA2, 0x0C10, 0x80C9, 0x80C8, 0x80CB, 0x80CA, 0x8009, 0x883D];
  const proto = WebGL2RenderingContext.prototype;
  const real = proto.getParameter, draw = proto.drawElements;
  const show = (v) => (ArrayBuffer.isView(v) ? Array.from(v).join(',') : String(v));
  Object.assign(window, { __glReal: real, __glReads: {}, __glCheck: false, __glChecked: 0, __glWrong: [] });
  proto.getParameter = function (p) {
    window.__glReads[p] = (window.__glReads[p] || 0) + 1;
    return real.call(this, p);
  };
  proto.drawElements = function (...args) {
    if (window.__glCheck) {
      window.__glChecked++;
      for (const p of pnames) {
        const reads = window.__glReads[p] || 0;
        const page = show(this.getParameter(p)), truth = show(real.call(this, p));
        window.__glReads[p] = reads;  // a check is not a frame's read
        if (page !== truth && window.__glWrong.length < 10) window.__glWrong.push(`0x${p.toString(16)}: ${page} vs ${truth}`);
      }
    }
    return draw.apply(this, args);
  };
}

async function compareWithContext(page) {
  return page.evaluate((pnames) => {
    const gl = document.getElementById('canvas').getContext('webgl2');
    return pnames.map((p) => {
      const shadow = gl.getParameter(p), truth = window.__glReal.call(gl, p);
      const show = (v) => (ArrayBuffer.isView(v) ? Array.from(v) : v);
      return { pname: '0x' + p.toString(16), shadow: show(shadow), truth: show(truth) };
    });
  }, SHADOWED);
}

async function realReadsSince(page, start) {
  return page.evaluate(({ pnames, start }) => {
    const out = {};
    for (const p of pnames) out['0x' + p.toString(16)] = (window.__glReads[p] || 0) - (start[p] || 0);
    return out;
  }, { pnames: SHADOWED, start });
}

describe('WebGL state reads answered by the page', { timeout: 150000 }, () => {
  let app;
  useApp((a) => { app = a; }, { initScript: countRealReads });

  it('a drag, a resize and a theme switch read no shadowed state from the context, and the shadow is right', async () => {
    const { page } = app;
    await setStateOk(page, { d_k: 4, theme: 'dark' });
    await waitFrames(page, 2);
    const start = await page.evaluate(() => ({ ...window.__glReads }));
    const framesBefore = await page.evaluate(() => window.Module._attnplay_frames());
    await page.evaluate(() => { window.__glCheck = true; });

    const r = await itemRect(page, 'd_k');
    const y = center(r).y;
    await drag(page, { x: r.x + 0.1 * r.w, y }, { x: r.x + 0.8 * r.w, y }, { steps: 8 });
    const dk = await page.evaluate(() => window.attnplay.getState().then((s) => s.d_k));
    assert.ok(dk > 4, `the drag moved d_k (now ${dk})`);
    for (const row of await compareWithContext(page)) assert.deepEqual(row.shadow, row.truth, `after the drag: ${row.pname}`);

    await page.setViewportSize({ width: 1000, height: 700 });  // the canvas and the viewport change size
    await waitFrames(page, 4);
    await setStateOk(page, { theme: 'light' });
    await waitFrames(page, 3);
    for (const row of await compareWithContext(page)) assert.deepEqual(row.shadow, row.truth, `after the resize: ${row.pname}`);
    const viewport = (await compareWithContext(page))[0].truth;
    const size = await page.evaluate(() => [document.getElementById('canvas').width, document.getElementById('canvas').height]);
    assert.deepEqual(viewport.slice(2), size, 'the last frame drew over the whole resized canvas');

    const check = await page.evaluate(() => { window.__glCheck = false; return { n: window.__glChecked, wrong: window.__glWrong }; });
    assert.deepEqual(check.wrong, [], 'the page answered as the context would at every draw call');
    assert.ok(check.n >= 50, `draw calls compared: ${check.n}`);
    const frames = (await page.evaluate(() => window.Module._attnplay_frames())) - framesBefore;
    assert.ok(frames >= 15, `the interaction drew frames (${frames})`);
    const reads = await realReadsSince(page, start);
    // (The comparisons above read the truth with the context's own getter, which the count does not see.)
    for (const [pname, n] of Object.entries(reads)) assert.equal(n, 0, `real reads of ${pname} in ${frames} frames`);
  });
});
