// offline.test.mjs — a learner who opened the playground once can open it again with no network (a bus, a
// tunnel): the service worker kept every file of the site. Load, go offline (the browser context's network is
// cut), reload: the app starts and computes. Back online, the network answers again.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { SITE_DIR, api, pollUntil, setStateOk, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

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
    const kept = await page.evaluate(async () => {
      const name = (await caches.keys()).find((k) => k.startsWith('attnplay-site-'));
      return name ? (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname) : [];
    });
    console.log(`kept: ${kept.join(' ')}`);
    // Both halves of a split module and the Hinglish texts, which the page fetches after its first view.
    const second = fs.existsSync(path.join(SITE_DIR, 'attnplay.deferred.wasm')) ? ['/attnplay.deferred.wasm'] : [];
    for (const f of ['/attnplay.js', '/attnplay.wasm', '/index.html', '/attnplay-train.wasm', '/strings/hi-Latn.json',
      '/strings/en.lessons.json', '/strings/en.panels.json', '/strings/hi-Latn.lessons.json', '/strings/hi-Latn.panels.json',
      ...second])
      assert.ok(kept.includes(f), `${f} is kept`);
    const warnings = [];
    page.on('console', (m) => { if (m.type() === 'warning' && /attnplay/.test(m.text())) warnings.push(m.text()); });

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
    // The texts of the other language and the module's second half come from the kept copy too.
    await setStateOk(page, { lang: 'hi-Latn' });
    await pollUntil(() => page.evaluate(() => document.getElementById('a11y-summary').textContent),
      (t) => /ka attention:/.test(t), { what: 'the Hinglish summary offline', timeout: 15000 });
    assert.deepEqual(warnings, [], 'nothing the page needed was missing offline');
    console.log(`offline: a fetch that bypasses the worker ${failed ? 'failed' : 'did not fail'}; the page started and computed`);

    await context.setOffline(false);
    await page.reload({ waitUntil: 'load' });
    assert.equal(await ready(page), null, 'the app started online again');
    const fresh = await page.evaluate(() => fetch('favicon.svg?' + Date.now(), { cache: 'no-store' }).then((r) => r.ok, () => false));
    assert.ok(fresh, 'online, a file the cache never held comes from the network');
  });
});
