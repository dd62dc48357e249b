// zoom.test.mjs — at 200 % and 400 % browser zoom (the CSS viewport of a 1440×900 screen halved and quartered, at
// device pixel ratio 2 and 4) the heatmap keeps a number in every cell and a readable name on every row: a short
// panel scrolls instead of shrinking the map to a thumbnail.
// wcag: 1.4.4 — at 200 % and 400 % zoom the heatmap's cells keep room for their weights (no thumbnail)
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { siteBuiltTest, startServer, launchChromium, openApp, itemRect, waitFrames, artifactPath, api } from './helpers.mjs';

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
