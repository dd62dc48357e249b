// share_xss.test.mjs — hostile text in every string field of a share fragment, an imported JSON file (and
// its file name), and postMessage commands shows up as literal text and executes nothing: no dialog,
// no payload callback, no element created from it, in the playground or in the host page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, launchChromium, pollUntil, siteBuiltTest, startServer, waitFrames } from './helpers.mjs';
import { XSS, openAt, plainFragment, probe, watch } from './share_helpers.mjs';

siteBuiltTest();

// Nothing the payloads could have made: no <img>/<svg>/<iframe>, no inline <script>, no javascript: link.
const injected = (page) => page.evaluate(() => ({
  elements: document.querySelectorAll('img, svg, iframe, object, embed').length,
  inlineScripts: Array.from(document.scripts).filter((s) => !s.src).length,
  jsLinks: Array.from(document.querySelectorAll('a[href]')).filter((a) => /^javascript:/i.test(a.getAttribute('href'))).length,
}));

describe('XSS payloads stay text', { timeout: 175000 }, () => {
  let server, host, browser;
  before(async () => {
    server = await startServer();
    host = await startServer();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await host?.stop();
    await server?.stop();
  });

  async function assertClean(app, what) {
    assert.deepEqual(app.errors.dialogs, [], `${what}: no dialog`);
    assert.deepEqual((await probe(app.page)).pwned, [], `${what}: no payload ran`);
    assert.deepEqual(await injected(app.page), { elements: 0, inlineScripts: 0, jsLinks: 0 }, `${what}: nothing injected`);
    assert.deepEqual(app.errors.page, [], `${what}: no page errors`);
  }

  it('in every string field of a share fragment', async () => {
    const sentence = XSS.join(' ');
    const app = await openAt(browser, server.origin + '/#' + plainFragment({ sentence, preset: '' }));
    try {
      const st = await api.getState(app.page);
      assert.equal(st.sentence, sentence, 'kept verbatim');
      assert.deepEqual(st.tokens.slice(0, 2), ['<img', 'src=x']);
      await waitFrames(app.page, 3);
      const summary = await pollUntil(() => app.page.textContent('#a11y-summary'), (t) => t.includes('<img'),
        { timeout: 3000, what: 'the summary to show the token as text' });
      assert.ok(summary.includes('<img'));
      await assertClean(app, 'sentence');

      // Explicit scenario: tokens and memory tokens; a hostile preset id and enum values (refused, quoted in the message).
      for (const state of [
        { scenario: { Q: [[1, 0]], K: [[1, 0], [0, 1]], V: [[1], [2]], tokens: [XSS[0]], memory_tokens: [XSS[1], XSS[2]] } },
        { preset: XSS[0] },
        { mask: XSS[3] },
        { theme: XSS[1] },
        { mode: XSS[2] },
        { panels: { [XSS[0]]: true } },
        { positional_encoding: XSS[4] },
      ]) {
        await app.page.evaluate((f) => { location.hash = f; }, plainFragment(state));
        await waitFrames(app.page, 3);
        await assertClean(app, JSON.stringify(state).slice(0, 60));
      }
      assert.match((await watch(app.page)).status, /Could not open/);
      assert.ok(!/[<>]/.test(await app.page.title()), 'the title is untouched');
    } finally {
      await app.context.close();
    }
  });

  it('in an imported JSON file and its name', async () => {
    const app = await openAt(browser, server.origin + '/');
    try {
      const scenario = { X: [[1, 0], [0, 1]], tokens: [XSS[0], XSS[2]] };
      const r = await app.page.evaluate((t) => window.attnplay.importJSON(t, '<img src=x onerror=pwn(7)>.json'), JSON.stringify(scenario));
      assert.equal(r.ok, true, JSON.stringify(r));
      assert.match((await watch(app.page)).status, /Imported the scenario from <img src=x onerror=pwn\(7\)>\.json/);
      // Dropped on the page, with a payload in the name and a broken body.
      await app.page.evaluate(() => {
        const dt = new DataTransfer();
        dt.items.add(new File(['{"sentence": "<svg onload=pwn(8)>", "bogus": "<img src=x onerror=pwn(9)>"}'],
          '"><img src=x onerror=pwn(10)>.json', { type: 'application/json' }));
        window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      });
      await pollUntil(() => watch(app.page), (w) => /Could not import/.test(w.status), { what: 'the import error', timeout: 5000 });
      assert.match((await watch(app.page)).status, /bogus/);
      await waitFrames(app.page, 3);
      await assertClean(app, 'import');
    } finally {
      await app.context.close();
    }
  });

  it('in postMessage commands, and in the events the host page shows', async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 1000 } });
    const page = await context.newPage();
    const dialogs = [];
    page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
    // Payloads call pwn(); in the host page and (below) in the frame it must never run.
    await page.addInitScript(() => { window.__pwned = []; window.pwn = (t) => window.__pwned.push(t); });
    try {
      await page.goto(`${host.origin}/examples/course.html?playground=${encodeURIComponent(server.origin + '/index.html')}`);
      await pollUntil(() => page.textContent('#log'), (t) => t.includes('[saturation] subscribed'), { timeout: 60000, what: 'subscribe' });
      const frame = page.frames().find((f) => f.url().includes('panels=controls'));
      const sentence = XSS.join(' ');
      // The sentence is locked for the learner in this frame; the host may still set it.
      const r = await page.evaluate((s) => window.course.send('saturation', 'setState', { state: { sentence: s } }), sentence);
      assert.equal(r.ok, true, JSON.stringify(r));
      assert.equal((await frame.evaluate(() => window.attnplay.getState())).sentence, sentence);
      await pollUntil(() => page.textContent('#log'), (t) => t.includes('<img src=x onerror=\\"pwn(1)\\">'),
        { timeout: 5000, what: 'the change event, shown as text in the host page' });
      const bad = await page.evaluate((x) => window.course.send('saturation', 'setState', { state: { [x]: x } }), XSS[0]);
      assert.equal(bad.ok, false);
      assert.match(bad.error, /unknown state key/);
      const badId = await page.evaluate((x) => new Promise((resolve) => {
        const el = document.getElementById('play-saturation');
        const on = (ev) => { if (ev.source === el.contentWindow && ev.data && ev.data.id === x) resolve(ev.data); };
        window.addEventListener('message', on);
        el.contentWindow.postMessage({ attnplay: 1, id: x, cmd: x }, new URL(el.src).origin);
        setTimeout(() => resolve(null), 3000);
      }), XSS[1]);
      assert.equal(badId.ok, false);
      assert.equal(badId.error, 'unknown command');
      await frame.evaluate(() => new Promise((r) => setTimeout(r, 300)));
      assert.deepEqual(dialogs, []);
      assert.deepEqual(await page.evaluate(() => window.__pwned), []);
      assert.equal(await page.evaluate(() => document.querySelectorAll('main img, main svg, main script').length), 0);
      assert.equal(await frame.evaluate(() => document.querySelectorAll('img, svg').length), 0);
      // The live summary is written once the change has settled (600 ms after it): wait for it, then read it.
      const summary = await pollUntil(() => frame.textContent('#a11y-summary'), (s) => s.includes('<img'),
        { timeout: 5000, what: 'the frame to show the token as text in its summary' });
      assert.ok(summary.includes('<img'), 'the frame shows the token as text');
    } finally {
      await context.close();
    }
  });
});
