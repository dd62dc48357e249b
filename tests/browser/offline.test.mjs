// offline.test.mjs — a learner who opened the playground once can open it again with no network (a bus, a
// tunnel): the service worker kept every file of the site. Load, go offline (the browser context's network is
// cut), reload: the app starts and computes. Back online, the network answers again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, pollUntil, setStateOk, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

const ready = (page) => page.waitForFunction(() => window.__attnplayProbe && (window.__attnplayProbe.readyAt !== null ||
  window.__attnplayProbe.readyError !== null), null, { timeout: 60000, polling: 50 })
  .then(() => page.evaluate(() => window.__attnplayProbe.readyError));

describe('offline after the first visit', { timeout: 180000 }, () => {
  let app;
  useApp((a) => { app = a; }, { viewport: { width: 390, height: 844 }, device: { hasTouch: true, isMobile: true } });

  it('reloads and computes with the network cut, and takes the network again once it is back', async () => {
    const { page, context } = app;
    // The worker installs (caching the site's files) and takes control of the page.
    await pollUntil(() => page.evaluate(async () => {
      const r = await navigator.serviceWorker.getRegistration();
      return r && r.active ? r.active.state : null;
    }), (s) => s === 'activated', { what: 'the service worker to be active', timeout: 30000 });
    const kept = await page.evaluate(async () => (await (await caches.open('attnplay-site-1')).keys()).map((r) => new URL(r.url).pathname));
    console.log(`kept: ${kept.join(' ')}`);
    for (const f of ['/attnplay.js', '/attnplay.wasm', '/index.html', '/attnplay-train.wasm'])
      assert.ok(kept.includes(f), `${f} is kept`);

    await context.setOffline(true);
    const failed = await page.evaluate(() => fetch('favicon.svg?' + Date.now(), { cache: 'no-store' }).then(() => false, () => true))
      .catch(() => true);
    await page.reload({ waitUntil: 'load' });
    assert.equal(await ready(page), null, 'the app started offline');
    await setStateOk(page, { preset: 'default', d_k: 16 });
    await waitFrames(page, 3);
    const r = await api.getResult(page);
    assert.equal(r.weights.length, 6, 'six rows of weights computed offline');
    for (const row of r.weights) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-4);
    console.log(`offline: a fetch that bypasses the worker ${failed ? 'failed' : 'did not fail'}; the page started and computed`);

    await context.setOffline(false);
    await page.reload({ waitUntil: 'load' });
    assert.equal(await ready(page), null, 'the app started online again');
    const fresh = await page.evaluate(() => fetch('favicon.svg?' + Date.now(), { cache: 'no-store' }).then((r) => r.ok, () => false));
    assert.ok(fresh, 'online, a file the cache never held comes from the network');
  });
});
