// share_csp.test.mjs — under the strict policy (script-src 'self' 'wasm-unsafe-eval'; object-src 'none';
// base-uri 'none', sent by scripts/serve.py --csp) the page, a share link, the Share panel's exports and
// an embedded playground run with zero CSP violations and no console errors, and request nothing but
// their own files. attnplay.js has no eval or new Function.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SITE_DIR, api, click, launchChromium, pollUntil, setStateOk, siteBuiltTest, startServer, waitFrames } from './helpers.mjs';
import { clickForDownload, openAt, openSharePanel, plainFragment, probe } from './share_helpers.mjs';

siteBuiltTest();

const CSP = "script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'none'";

// Every request is one of the server's own files (or a blob:/data: URL made in the page).
function ownRequestsOnly(requests, origins) {
  const foreign = requests.filter((u) => !u.startsWith('blob:') && !u.startsWith('data:') && !origins.some((o) => u.startsWith(o + '/')));
  assert.deepEqual(foreign, [], 'no requests beyond the site\'s own files');
}

describe('strict CSP', { timeout: 175000 }, () => {
  let server, host, browser;
  before(async () => {
    server = await startServer({ csp: CSP });
    host = await startServer({ csp: CSP });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await host?.stop();
    await server?.stop();
  });

  it('the generated attnplay.js has no eval or new Function', () => {
    const js = fs.readFileSync(path.join(SITE_DIR, 'attnplay.js'), 'utf8');
    assert.doesNotMatch(js, /\beval\s*\(/);
    assert.doesNotMatch(js, /new\s+Function\s*\(/);
    for (const f of ['index.html', 'examples/course.html'])
      assert.doesNotMatch(fs.readFileSync(path.join(SITE_DIR, f), 'utf8'), /<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+\s*=/i, `${f}: no inline scripts or handlers`);
  });

  it('a share link, the Share panel and its exports run without violations', async () => {
    const app = await openAt(browser, server.origin + '/#' + plainFragment({ d_k: 256, scale: false }),
      { permissions: ['clipboard-read', 'clipboard-write'] });
    try {
      const { page } = app;
      assert.equal((await api.getState(page)).d_k, 256);
      await openSharePanel(page);
      await waitFrames(page, 2);
      await clickForDownload(page, 'PNG of the canvas', click);
      await clickForDownload(page, 'PNG of the heatmap', click);
      await clickForDownload(page, 'CSV of every matrix', click);
      await clickForDownload(page, 'State JSON', click);
      const url = await page.evaluate(() => window.attnplay.shareURL());
      await page.evaluate((h) => { location.hash = h; }, url.slice(url.indexOf('#')));
      await page.evaluate(() => {
        const dt = new DataTransfer();
        dt.items.add(new File(['{"X": [[1, 2], [3, 4]]}'], 'x.json', { type: 'application/json' }));
        window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      });
      await pollUntil(() => api.getState(page), (s) => s.mode === 'explicit', { what: 'the import' });
      await setStateOk(page, { preset: 'saturation' });
      await waitFrames(page, 5);
      assert.deepEqual((await probe(page)).violations, [], 'no CSP violations');
      assert.deepEqual(app.errors.console, [], 'no console errors');
      assert.deepEqual(app.errors.page, []);
      ownRequestsOnly(app.errors.requests, [server.origin]);
    } finally {
      await app.context.close();
    }
  });

  it('an embedded playground in a course page (both under the policy) runs without violations', async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 1000 } });
    const page = await context.newPage();
    const consoleErrors = [], requests = [];
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    page.on('request', (r) => requests.push(r.url()));
    await page.addInitScript(() => {  // runs in every frame
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    try {
      await page.goto(`${host.origin}/examples/course.html?playground=${encodeURIComponent(server.origin + '/index.html')}`);
      await pollUntil(() => page.textContent('#log'), (t) => t.includes('[saturation] subscribed') && t.includes('[example] subscribed'),
        { timeout: 90000, what: 'both playgrounds to answer' });
      await page.evaluate(() => window.course.send('saturation', 'setState', { state: { d_k: 32 } }));
      await pollUntil(() => page.textContent('#log'), (t) => t.includes('changed: d_k'), { what: 'a change event' });
      for (const f of page.frames()) assert.deepEqual(await f.evaluate(() => window.__violations), [], `no violations in ${f.url().slice(0, 60)}`);
      assert.deepEqual(consoleErrors, []);
      ownRequestsOnly(requests, [server.origin, host.origin]);
    } finally {
      await context.close();
    }
  });
});
