// load.test.mjs — the page loads cleanly: no console or page errors, a real WebGL2 context, API calls
// before `ready` reject, the module is downloaded once (the page's preload is the request its loader takes),
// and the time from navigation to ready is recorded.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { api, artifactPath, launchChromium, openApp, siteBuiltTest, startServer } from './helpers.mjs';

siteBuiltTest();

// The same policy as the page's <meta> CSP, sent as a header too: a violation would surface as a
// console error, and the header is how a real deployment would send it.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'none'; " +
  "style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'";

describe('page load', { timeout: 120000 }, () => {
  let server, browser, app;
  const requests = [], warnings = [];
  before(async () => {
    server = await startServer({ csp: CSP });
    browser = await launchChromium();
    app = await openApp(browser, server.origin, { onPage: (page) => {
      page.on('request', (r) => requests.push({ path: new URL(r.url()).pathname, type: r.resourceType() }));
      page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
    } });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('reaches ready and records the time it took', async () => {
    assert.ok(app.readyMs > 0, 'ready time recorded');
    console.log(`navigation → attnplay.ready: ${app.readyMs.toFixed(0)} ms`);
    const file = artifactPath('browser', 'load.json');
    fs.writeFileSync(file, JSON.stringify({ ready_ms: Math.round(app.readyMs) }, null, 2) + '\n');
  });

  it('runs on a WebGL2 context (no context is a failure, not a skip)', async () => {
    const gl = await app.page.evaluate(() => {
      const canvas = document.getElementById('canvas');
      const ctx = canvas.getContext('webgl2');  // returns the app's own context if it is WebGL2, else null
      return {
        isWebGL2: ctx instanceof WebGL2RenderingContext,
        // Emscripten's GL layer keeps the context it created in GLctx; it must be the same one.
        sameAsEmscripten: typeof GLctx !== 'undefined' && GLctx === ctx,
        lost: ctx ? ctx.isContextLost() : null,
        version: ctx ? ctx.getParameter(ctx.VERSION) : null,
        drawingBuffer: ctx ? [ctx.drawingBufferWidth, ctx.drawingBufferHeight] : null,
        fatalShown: !document.getElementById('fatal').hidden,
      };
    });
    assert.equal(gl.isWebGL2, true, `canvas.getContext('webgl2') must return the app's WebGL2 context: ${JSON.stringify(gl)}`);
    assert.equal(gl.sameAsEmscripten, true, `GLctx is the canvas's WebGL2 context: ${JSON.stringify(gl)}`);
    assert.equal(gl.lost, false);
    assert.match(gl.version, /^WebGL 2\.0/);
    assert.deepEqual(gl.drawingBuffer, [1280, 800], 'drawing buffer follows the 1280×800 CSS size at DPR 1');
    assert.equal(gl.fatalShown, false, 'no fatal message');
    assert.ok((await api.frames(app.page)) >= 2, 'frames are being drawn');
  });

  it('downloads the module and its script once each, starting from the page itself', async () => {
    const count = (p) => requests.filter((r) => r.path === p).length;
    assert.equal(count('/attnplay.wasm'), 1, `attnplay.wasm requested once: ${JSON.stringify(requests)}`);
    assert.equal(count('/attnplay.js'), 1, `attnplay.js requested once: ${JSON.stringify(requests)}`);
    // The preload is issued while the document is parsed, before attnplay-api.js (which takes it) has run.
    const order = requests.map((r) => r.path);
    assert.ok(order.indexOf('/attnplay.wasm') < order.indexOf('/attnplay-api.js'),
      `the module is requested before the loader script: ${order.join(', ')}`);
    assert.deepEqual(warnings.filter((w) => /preload/i.test(w)), [], 'no preload left unused or unmatched');
  });

  it('rejects API calls made before ready', async () => {
    const { probe } = app;
    assert.ok(!probe.early.missing, 'window.attnplay exists as soon as attnplay-api.js has run');
    assert.equal(probe.settledBeforeProbe, false, 'ready had not settled when the early calls were made');
    assert.equal(probe.framesAtProbe, 0, 'frames() is 0 before ready');
    for (const name of ['getState', 'setState', 'getResult', 'itemRect']) {
      assert.match(String(probe.early[name]), /^rejected: .*not ready/, `${name} before ready must reject: ${probe.early[name]}`);
    }
    // The early setState({d_k: 8}) was refused, so the default d_k (64) is still there.
    assert.equal((await api.getState(app.page)).d_k, 64);
  });

  it('has no console errors and no page errors', async () => {
    // Let a few more frames and one round of the accessible summary (every 500 ms) run first.
    await app.page.waitForFunction(() => document.getElementById('a11y-summary').textContent.length > 0, null, { timeout: 5000 });
    assert.deepEqual(app.errors.page, [], 'uncaught exceptions in the page');
    assert.deepEqual(app.errors.console, [], 'console.error messages (including failed loads)');
    assert.deepEqual(app.errors.dialogs, []);
  });
});
