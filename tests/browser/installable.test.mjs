// installable.test.mjs — the page is an installable app: its web app manifest parses, Chromium finds no
// installability error (Page.getInstallabilityErrors, a persistent profile as an installing browser has), the icons
// it names are served, and the app's start URL opens with the network cut once the service worker has the site.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { SITE_DIR, decodePng, pollUntil, siteBuiltTest, startServer } from './helpers.mjs';

siteBuiltTest();

describe('installable app', { timeout: 150000 }, () => {
  let server, profile, context;
  before(async () => {
    server = await startServer();
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'attnplay-profile-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1280, height: 800 },
      args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-gpu', '--no-first-run'],
    });
  });
  after(async () => {
    await context?.close();
    await server?.stop();
    if (profile) fs.rmSync(profile, { recursive: true, force: true });
  });

  it('has a manifest Chromium accepts, icons drawn from the favicon, and starts offline from its start URL', async () => {
    const page = await context.newPage();
    await page.goto(server.origin + '/', { waitUntil: 'load' });
    await page.evaluate(() => window.attnplay.ready);
    await pollUntil(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state),
      (s) => s === 'activated', { what: 'the service worker', timeout: 30000 });
    const cdp = await context.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    assert.deepEqual(manifest.errors, [], 'the manifest parses');
    const parsed = JSON.parse(manifest.data);
    assert.equal(parsed.name, 'Attention Playground');
    const errors = await pollUntil(() => cdp.send('Page.getInstallabilityErrors').then((r) => r.installabilityErrors),
      (e) => e.length === 0, { what: 'no installability errors', timeout: 15000 });
    assert.deepEqual(errors, []);
    for (const icon of parsed.icons.filter((i) => i.type === 'image/png')) {
      const png = decodePng(fs.readFileSync(path.join(SITE_DIR, icon.src)));
      assert.equal(`${png.width}x${png.height}`, icon.sizes, `${icon.src} is ${icon.sizes}`);
      // The favicon's background colour (#440154) at the icon's centre-top, between its squares.
      const at = (4 * (Math.floor(png.height * 0.09) * png.width + Math.floor(png.width / 2)));
      assert.deepEqual([...png.rgba.slice(at, at + 3)], [0x44, 0x01, 0x54], `${icon.src} is drawn from the favicon`);
    }
    // The installed app opens at its start URL: with the network cut, from the service worker's copy.
    await context.setOffline(true);
    const offline = await context.newPage();
    await offline.goto(new URL(parsed.start_url, server.origin + '/').href, { waitUntil: 'load' });
    await offline.waitForFunction(() => window.attnplay && window.attnplay.frames() > 2, null, { timeout: 60000 });
    assert.ok(await offline.evaluate(() => window.attnplay.ready.then(() => true)));
    await context.setOffline(false);
  });
});
