// wheel.test.mjs — one mouse-wheel notch over the Explanation panel (deltaY +100, "down" in every
// browser) scrolls its text down by a few lines, as the page would, not to the end; a notch up
// scrolls it back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, pollUntil, setStateOk, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

describe('mouse wheel', { timeout: 120000 }, () => {
  let page;
  useApp((opened) => ({ page } = opened), { viewport: { width: 1280, height: 800 } });

  const explanation = () => pollUntil(() => api.panelScroll(page, 'Explanation'), (s) => s !== null,
    { what: 'the Explanation panel to be drawn' });
  // The scroll position once it has stopped changing (ImGui applies a wheel step on the next frame).
  async function settled() {
    let last = await explanation();
    for (;;) {
      await waitFrames(page, 3);
      const now = await explanation();
      if (now.scrollY === last.scrollY) return now;
      last = now;
    }
  }

  it('one notch down scrolls the Explanation panel down by a few lines, not to the end', async () => {
    await setStateOk(page, { preset: 'default' });
    const s0 = await settled();
    console.log(`Explanation panel before the wheel: ${JSON.stringify(s0)}`);
    assert.equal(s0.scrollY, 0, 'the panel starts at the top');
    assert.ok(s0.scrollMaxY > 12 * s0.lineHeight, `more than twelve lines are below the fold (scrollMaxY ${s0.scrollMaxY})`);

    await page.mouse.move(s0.x + s0.w / 2, s0.y + s0.h / 2);
    await waitFrames(page, 2);
    await page.mouse.wheel(0, 100);
    await pollUntil(() => api.panelScroll(page, 'Explanation'), (s) => s.scrollY !== 0, { what: 'the wheel to scroll the panel' });
    const s1 = await settled();
    const lines = s1.scrollY / s0.lineHeight;
    console.log(`one notch down: scrollY 0 → ${s1.scrollY} of ${s1.scrollMaxY} (${lines.toFixed(2)} lines of ${s0.lineHeight} px)`);
    assert.ok(s1.scrollY > 0, `the text moved up, i.e. the panel scrolled down (scrollY ${s1.scrollY})`);
    assert.ok(lines >= 2 && lines <= 6, `one notch is a few lines (${lines.toFixed(2)})`);
    assert.ok(s1.scrollY < s1.scrollMaxY / 2, `one notch is far from the end (${s1.scrollY} of ${s1.scrollMaxY})`);

    await page.mouse.wheel(0, -100);
    await pollUntil(() => api.panelScroll(page, 'Explanation'), (s) => s.scrollY < s1.scrollY, { what: 'a notch up to scroll back' });
    const s2 = await settled();
    assert.equal(s2.scrollY, 0, 'a notch up returns to the top');
  });

  it('another preset opens the Explanation at its top, where its story and the note\'s slips are', async () => {
    await setStateOk(page, { preset: 'default' });
    const s0 = await settled();
    await page.mouse.move(s0.x + s0.w / 2, s0.y + s0.h / 2);
    for (let i = 0; i < 3; i++) await page.mouse.wheel(0, 100);
    const scrolled = await pollUntil(() => api.panelScroll(page, 'Explanation'), (s) => s.scrollY > 2 * s.lineHeight,
      { what: 'the wheel to scroll the panel' });
    await setStateOk(page, { preset: 'cat-sat-mat' });
    const opened = await settled();
    console.log(`scrolled to ${scrolled.scrollY}; after the preset changed: ${opened.scrollY}`);
    assert.equal(opened.scrollY, 0, 'the new example is read from its beginning');
  });
});
