// learn-heavy-text.test.mjs — at the heaviest Learn settings the page accepts (2 layers, 16 heads, d_model 256, …) the
// Learn panel's window draws more than 65,536 vertices; WebGL cannot split a draw list there, and with 16-bit indices
// its text was drawn over itself, doubled and smeared. The panel's opening paragraph, the same words at any settings,
// must look the same at the heaviest settings as at the default ones (pixels of the canvas, 1440×900).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, decodePng, setStateOk, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

const HEAVY = { layers: 2, heads: 16, d_model: 256, d_k: 64, d_v: 64, d_mlp: 1024, mlp: true, batch: 32, seq_len: 64, vocab: 64 };

describe('Learn panel text at the heaviest settings', { timeout: 120000 }, () => {
  let page;
  useApp((app) => { page = app.page; }, { viewport: { width: 1440, height: 900 } });

  async function introPixels() {
    await waitFrames(page, 6);
    const r = await page.evaluate(() => window.attnplay.ui.panelScroll('learn'));
    assert.ok(r, 'the Learn panel is drawn');
    const png = decodePng(await page.screenshot({ type: 'png' }));
    // The panel's opening paragraph: below its title bar, four lines of text.
    const x0 = Math.round(r.x + 8), x1 = Math.round(r.x + r.w - 24), y0 = Math.round(r.y + 28), y1 = Math.round(y0 + 4 * r.lineHeight);
    const out = [];
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) {
      const i = (y * png.width + x) * 4;
      out.push(png.rgba[i] + png.rgba[i + 1] + png.rgba[i + 2]);
    }
    return out;
  }

  it('draws the opening paragraph exactly as at the default settings', async () => {
    await setStateOk(page, { panels: { learn: true } });
    const plain = await introPixels();
    await setStateOk(page, { learn: { settings: HEAVY, playing: false } });
    const heavy = await introPixels();
    let differ = 0;
    for (let i = 0; i < plain.length; i++) differ += Math.abs(plain[i] - heavy[i]) > 60 ? 1 : 0;
    console.log(`${differ} of ${plain.length} pixels of the paragraph differ at the heaviest settings`);
    assert.ok(differ < plain.length * 0.002, `the paragraph is redrawn over itself (${differ} pixels differ)`);
  });
});
