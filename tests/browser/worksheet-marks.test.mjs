// worksheet-marks.test.mjs — a checked worksheet cell says right, wrong or not a number by a mark drawn in it (✓ ✗ ?),
// not by its fill colour alone (WCAG 1.4.1), and its text is black or white, whichever reads on the fill (the light
// theme drew black on dark red, 2.5:1). Read from the canvas's pixels at 1440×900 in both themes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, decodePng, setStateOk, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

describe('worksheet cells carry their check as a mark', { timeout: 120000 }, () => {
  let page;
  useApp((app) => { page = app.page; }, { viewport: { width: 1440, height: 900 } });

  // wcag: 1.4.1 — a checked worksheet cell says wrong by a ✗ drawn in it, not by its fill colour alone
  for (const theme of ['light', 'dark']) {
    it(`${theme} theme: a wrong cell shows ✗ in ink that reads on its fill; an empty cell shows nothing`, async () => {
      await setStateOk(page, { theme, panels: { worksheet: true } });
      // A wrong number in Q's first cell (the notes' example: nothing here is 12345); the cell beside it stays empty.
      const r = await page.evaluate(() => window.attnplay.a11y.act({ do: 'cell', stage: 'Q', row: 0, col: 0, value: '12345' }));
      assert.equal(r.ok, true, JSON.stringify(r));
      await waitFrames(page, 4);
      const wrong = await api.itemRect(page, 'worksheet:Q:1,1'), empty = await api.itemRect(page, 'worksheet:Q:1,2');
      assert.ok(wrong && empty, 'both cells drawn');
      const png = decodePng(await page.screenshot({ type: 'png' }));
      // The right end of a cell, where the mark goes, inside the frame's 1 px edge: pixels far from the fill are the
      // mark's ink.
      const inkIn = (rect) => {
        const px = (x, y) => { const i = (Math.round(y) * png.width + Math.round(x)) * 4; return [png.rgba[i], png.rgba[i + 1], png.rgba[i + 2]]; };
        const fill = px(rect.x + rect.w - 4, rect.y + 4);
        let ink = 0, light = 0;
        for (let y = rect.y + 4; y < rect.y + rect.h - 4; y++)
          for (let x = rect.x + rect.w - 16; x < rect.x + rect.w - 4; x++) {
            const p = px(x, y), d = Math.abs(p[0] - fill[0]) + Math.abs(p[1] - fill[1]) + Math.abs(p[2] - fill[2]);
            if (d > 200) { ink++; light += p[0] + p[1] + p[2] > 600 ? 1 : 0; }
          }
        return { fill, ink, light };
      };
      const w = inkIn(wrong), e = inkIn(empty);
      console.log(`${theme}: wrong cell fill ${w.fill} with ${w.ink} ink pixels (${w.light} white); empty cell ${e.ink}`);
      assert.ok(w.ink >= 8, `a mark in the wrong cell (${w.ink} pixels of ink)`);
      assert.ok(w.light >= w.ink * 0.6, 'the mark is white on the dark red fill, in either theme');
      assert.ok(e.ink < 3, `nothing in an empty cell (${e.ink})`);
    });
  }
});
