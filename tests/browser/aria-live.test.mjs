// aria-live.test.mjs — the screen-reader summary (#a11y-summary, aria-live="polite") states d_k
// and whether the selected row is saturated, and follows setState within 2 s.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, setStateOk, siteBuiltTest, useApp } from './helpers.mjs';

siteBuiltTest();

// The app calls a row saturated when its largest weight exceeds 0.95 (kSaturatedMaxWeight in
// src/app/describe/summary.h). The states below sit far from that line on either side.
const SATURATED = 0.95;

describe('aria-live summary', { timeout: 120000 }, () => {
  let page;
  useApp((opened) => ({ page } = opened));

  const summary = () => page.evaluate(() => document.getElementById('a11y-summary').textContent);

  // Waits (up to 2 s, polling in the page) for the summary to mention every one of `parts`: all of
  // them, because a summary left over from the previous state can already mention some.
  async function summaryWith(parts) {
    try {
      const h = await page.waitForFunction((ps) => {
        const s = document.getElementById('a11y-summary').textContent;
        return ps.every((t) => s.includes(t)) ? s : false;
      }, parts, { timeout: 2000, polling: 50 });
      return await h.jsonValue();
    } catch {
      throw new Error(`#a11y-summary did not mention all of ${JSON.stringify(parts)} within 2 s; it says: ${JSON.stringify(await summary())}`);
    }
  }

  it('is a polite live region outside the canvas', async () => {
    // The page fills the summary in when it becomes ready (openApp awaited that), then refreshes it.
    await page.waitForFunction(() => document.getElementById('a11y-summary').textContent.length > 0, null,
      { timeout: 1000, polling: 50 });
    const attrs = await page.evaluate(() => {
      const el = document.getElementById('a11y-summary');
      return { live: el.getAttribute('aria-live'), tag: el.tagName, text: el.textContent, children: el.children.length };
    });
    assert.equal(attrs.live, 'polite');
    assert.equal(attrs.children, 0, 'plain text');
    assert.ok(attrs.text.length > 0, 'filled in once ready');
  });

  // wcag: 4.1.3 — the summary is a polite live region, written once settled: ten quick changes are one announcement
  it('speaks the settled state: ten quick changes of d_k are one announcement, of the last value', async () => {
    await page.evaluate(() => {
      window.summaryWrites = 0;
      new MutationObserver(() => { window.summaryWrites++; })
        .observe(document.getElementById('a11y-summary'), { childList: true, characterData: true, subtree: true });
    });
    for (let dk = 65; dk <= 74; dk++) {
      await setStateOk(page, { d_k: dk });
      await page.waitForTimeout(40);  // a key's auto-repeat
    }
    await summaryWith(['74']);
    await page.waitForTimeout(800);
    assert.equal(await page.evaluate(() => window.summaryWrites), 1, 'one announcement');
  });

  // Each state: what to set, and what the summary must then say about d_k.
  const states = [
    { name: 'default, scaled', set: { preset: 'default' }, dk: 64 },
    { name: 'd_k 1024 without scaling (saturates)', set: { d_k: 1024, scale: false }, dk: 1024 },
    { name: 'd_k 1024 with scaling (recovers)', set: { d_k: 1024, scale: true }, dk: 1024 },
    { name: 'saturation preset', set: { preset: 'saturation' }, dk: 512 },
    { name: 'saturation preset, scaling on', set: { scale: true }, dk: 512 },
    { name: 'd_k 16, temperature 0.05 (sharper, but two keys nearly tie)', set: { preset: 'default', d_k: 16, temperature: 0.05 }, dk: 16 },
  ];
  const seen = { saturated: 0, notSaturated: 0 };

  for (const st of states) {
    it(`follows setState: ${st.name}`, async () => {
      await setStateOk(page, st.set);
      const [s, r] = await Promise.all([api.getState(page), api.getResult(page)]);
      const mw = r.max_weight[s.selected_row];
      assert.ok(Math.abs(mw - SATURATED) > 0.01, `state chosen away from the saturation line (max weight ${mw})`);
      const saturated = mw > SATURATED;
      const text = await summaryWith([`d_k = ${st.dk},`, `scaling ${s.scale ? 'on' : 'off'}`,
        `largest weight ${mw.toFixed(3)}`]);
      console.log(`${st.name}: max weight ${mw.toFixed(4)} → ${JSON.stringify(text.slice(0, 70) + '…' + text.slice(-60))}`);
      assert.match(text, new RegExp(`scaling ${s.scale ? 'on' : 'off'}`));
      if (saturated) {
        assert.match(text, /(^|\. )Saturated\b/, `max weight ${mw} > ${SATURATED}: the summary says Saturated`);
        assert.doesNotMatch(text, /Not saturated/);
        seen.saturated++;
      } else {
        assert.match(text, /Not saturated/, `max weight ${mw} ≤ ${SATURATED}: the summary says Not saturated`);
        seen.notSaturated++;
      }
      assert.ok(text.includes(`largest weight ${mw.toFixed(3)}`), `the summary reports the largest weight ${mw.toFixed(3)}: ${text}`);
    });
  }

  it('covered both verdicts', () => {
    assert.ok(seen.saturated >= 1 && seen.notSaturated >= 1, JSON.stringify(seen));
  });
});
