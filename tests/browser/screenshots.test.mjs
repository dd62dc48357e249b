// screenshots.test.mjs — the default view at 1280×800 and 1024×768, saved under
// test-artifacts/browser/ and checked not to be blank (decoded with a small PNG decoder).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { api, artifactPath, decodePng, imageStats, itemRect, launchChromium, openApp, siteBuiltTest, startServer,
  waitForApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

describe('screenshots of the default view', { timeout: 120000 }, () => {
  let server, browser, app;
  before(async () => {
    server = await startServer();
    browser = await launchChromium();
    app = await openApp(browser, server.origin, { viewport: { width: 1280, height: 800 } });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [w, h, file] of [[1280, 800, 'default.png'], [1024, 768, 'default-1024x768.png']]) {
    it(`${w}×${h} → test-artifacts/browser/${file}`, async () => {
      const { page, errors } = app;
      // One page for both sizes: resizing re-runs the app's layout, as a browser window resize would.
      await page.setViewportSize({ width: w, height: h });
      // The layout is placed on the first frames after a size change; wait until it has settled.
      await waitForApp(page, () => true);
      await page.waitForFunction(([w, h]) => {
        const c = document.getElementById('canvas');
        return c.width === w && c.height === h;
      }, [w, h], { timeout: 5000 });
      await waitFrames(page, 2);
      await itemRect(page, 'heatmap');
      await itemRect(page, 'embedding plane');
      await waitFrames(page, 3);
      const png = await page.screenshot({ type: 'png' });
      const out = artifactPath('browser', file);
      fs.writeFileSync(out, png);

      const img = decodePng(png);
      const stats = imageStats(img);
      console.log(`${file}: ${JSON.stringify({ ...stats, lumaStd: +stats.lumaStd.toFixed(1), nonBackgroundShare: +stats.nonBackgroundShare.toFixed(3) })}`);
      assert.equal(img.width, w);
      assert.equal(img.height, h);
      // A blank or single-colour canvas has std ≈ 0, a handful of colours and nothing off the
      // background. The default view has text, a viridis heatmap, plots and tables.
      assert.ok(stats.lumaStd > 15, `luminance varies (std ${stats.lumaStd})`);
      assert.ok(stats.distinctColors > 200, `many colours (${stats.distinctColors})`);
      assert.ok(stats.nonBackgroundShare > 0.1, `more than a tenth of the pixels differ from the background (${stats.nonBackgroundShare})`);

      // The heatmap region is not empty: it has more than one colour of its own.
      const hm = await api.itemRect(page, 'heatmap');
      const crop = await page.screenshot({ type: 'png', clip: { x: hm.x, y: hm.y, width: hm.w, height: hm.h } });
      const hmStats = imageStats(decodePng(crop));
      assert.ok(hmStats.distinctColors > 6 && hmStats.lumaStd > 5, `the heatmap shows cells: ${JSON.stringify(hmStats)}`);

      // The main items are laid out inside the viewport.
      for (const label of ['d_k', 'Preset', 'heatmap', 'embedding plane']) {
        const r = await api.itemRect(page, label);
        assert.ok(r && r.x >= 0 && r.y >= 0 && r.x + r.w <= w + 1 && r.y + r.h <= h + 1, `${label} is inside ${w}×${h}: ${JSON.stringify(r)}`);
      }
      assert.deepEqual(errors.page, []);
    });
  }
});
