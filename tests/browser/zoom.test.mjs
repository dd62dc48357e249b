// zoom.test.mjs — at 200 % and 400 % browser zoom (the CSS viewport of a 1440×900 screen halved and quartered, at
// device pixel ratio 2 and 4) the heatmap keeps a number in every cell and a readable name on every row: a short
// panel scrolls instead of shrinking the map to a thumbnail.
// wcag: 1.4.4 — at 200 % and 400 % zoom the heatmap's cells keep room for their weights (no thumbnail)
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { siteBuiltTest, startServer, launchChromium, openApp, itemRect, waitFrames, artifactPath, api, center, click, pollUntil } from './helpers.mjs';

// "0.00" in the UI font at its default size is about 27 CSS px wide; a cell must hold it with a little margin.
const NUMBER_CELL_PX = 26;
const ZOOMS = [
  { name: 'zoom200', viewport: { width: 720, height: 450 }, scale: 2, path: '/' },
  { name: 'zoom200-lesson', viewport: { width: 720, height: 450 }, scale: 2, path: '/?lesson=why-sqrt-dk' },
  { name: 'zoom400-lesson', viewport: { width: 360, height: 225 }, scale: 4, path: '/?lesson=why-sqrt-dk' },
];

describe('browser zoom', { skip: siteBuiltTest(), timeout: 240000 }, () => {
  let server, browser;
  before(async () => { server = await startServer(); browser = await launchChromium(); });
  after(async () => { await browser?.close(); await server?.stop(); });

  // wcag: 1.4.4 — at 400 % zoom (320 × 256 CSS px) a lesson's question, every choice and Next are reached by scrolling the lesson
  it('zoom400: a lesson\'s question, its choices and Next are reached by scrolling the docked lesson, and answered', async () => {
    const viewport = { width: 320, height: 256 };
    const { context, page } = await openApp(browser, server.origin,
      { viewport, device: { deviceScaleFactor: 4 }, path: '/?lesson=why-sqrt-dk&step=2' });
    try {
      await waitFrames(page, 3);
      const onScreen = (r) => r && r.y >= 0 && r.y + r.h <= viewport.height && r.x >= 0 && r.x + r.w <= viewport.width;
      const sheet = await itemRect(page, 'lesson:sheet');
      assert.ok(viewport.height - sheet.y >= viewport.height / 2, `the lesson has room to be read (it starts at y ${sheet.y})`);
      // Scrolls the lesson with the wheel over its text until `id` is wholly on screen; its rect then.
      async function reach(id) {
        for (let i = 0; i < 30; i++) {
          const r = await api.itemRect(page, id);
          if (onScreen(r)) return r;
          await page.mouse.move(viewport.width / 2, viewport.height - 20);
          await page.mouse.wheel(0, r && r.y < 0 ? -100 : 100);  // a notch
          await waitFrames(page, 2);
        }
        assert.fail(`${id} never came on screen: ${JSON.stringify(await api.itemRect(page, id))}`);
      }
      for (const id of ['lesson:choice:0', 'lesson:choice:1', 'lesson:choice:2', 'lesson:next', 'lesson:choice:0']) await reach(id);
      fs.writeFileSync(artifactPath('zoom', 'zoom400-question.png'), await page.screenshot());
      await click(page, center(await reach('lesson:choice:2')));  // "up": right, and the step reveals d_k = 400
      await pollUntil(() => api.getState(page), (st) => st.d_k === 400, { what: 'the right answer taken and revealed' });
    } finally {
      await context.close();
    }
  });

  for (const z of ZOOMS) {
    it(`${z.name}: every heatmap cell has room for its weight`, async () => {
      const { context, page } = await openApp(browser, server.origin,
        { viewport: z.viewport, device: { deviceScaleFactor: z.scale }, path: z.path });
      try {
        await waitFrames(page, 3);
        const n = (await api.getState(page)).tokens.length;
        const grid = await itemRect(page, 'heatmap:grid');
        fs.writeFileSync(artifactPath('zoom', `${z.name}.png`), await page.screenshot());
        assert.ok(grid.w / n >= NUMBER_CELL_PX && grid.h / n >= NUMBER_CELL_PX,
          `cells of ${(grid.w / n).toFixed(1)} × ${(grid.h / n).toFixed(1)} CSS px for ${n} tokens (need ${NUMBER_CELL_PX})`);
      } finally {
        await context.close();
      }
    });
  }
});
