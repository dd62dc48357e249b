// share_link.test.mjs — the whole state round-trips through the URL fragment: a non-default state (edited
// embeddings included) opens with exactly the same numbers; "Copy link" copies what shareURL() returns;
// hashchange loads a new state; garbled, truncated, oversized or hostile fragments fall back to the
// defaults with a visible message and never crash.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  api, click, center, itemRect, launchChromium, pollUntil, setStateOk, siteBuiltTest, startServer, waitFrames,
} from './helpers.mjs';
import { comparable, openAt, openSharePanel, plainFragment, probe, watch } from './share_helpers.mjs';

siteBuiltTest();

describe('share link', { timeout: 170000 }, () => {
  let server, browser, first, defaults;
  before(async () => {
    server = await startServer();
    browser = await launchChromium();
    first = await openAt(browser, server.origin + '/', { permissions: ['clipboard-read', 'clipboard-write'] });
    defaults = await api.getState(first.page);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('reproduces a non-default state exactly, numbers included', async () => {
    const { page } = first;
    await setStateOk(page, {
      sentence: 'the quick brown fox jumps', d_k: 300, d_model: 6, d_v: 9, seed: 4242, scale: false,
      temperature: 0.37, mask: 'causal', heads: 3, key_padding: [false, false, true, false, false],
      positional_encoding: 'sinusoidal', selected_row: 3, theme: 'light', text_scale: 1.25,
      panels: { variance: false, explain: false, share: true },
    });
    const st = await api.getState(page);
    st.embeddings[1][2] = 0.123456789;  // an edited embedding must travel in the link
    st.embeddings[4][0] = -7.25e-5;
    await setStateOk(page, { embeddings: st.embeddings });
    const want = await api.getState(page);
    const wantResult = await api.getResult(page);
    const url = await page.evaluate(() => window.attnplay.shareURL());
    assert.match(url, new RegExp('^' + server.origin.replace(/[.]/g, '\\.') + '/#s=1\\.[A-Za-z0-9_-]+$'));

    const other = await openAt(browser, url);
    try {
      const got = await api.getState(other.page);
      assert.deepEqual(comparable(got), comparable(want), 'the same state');
      assert.deepEqual(await api.getResult(other.page), wantResult, 'the same numbers, bit for bit');
      assert.equal((await watch(other.page)).status, '', 'no message');
      assert.deepEqual(other.errors.console, []);
      assert.deepEqual(other.errors.page, []);
    } finally {
      await other.context.close();
    }
  });

  it('"Copy link" copies the same link shareURL() returns', async () => {
    const { page } = first;
    const rect = await openSharePanel(page);
    await click(page, center(rect));
    await waitFrames(page, 2);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, await page.evaluate(() => window.attnplay.shareURL()));
    assert.match((await watch(page)).status, /Link copied/);
  });

  it('the default state makes a short link; long states are deflated', async () => {
    const other = await openAt(browser, server.origin + '/');
    try {
      const url = await other.page.evaluate(() => window.attnplay.shareURL());
      const fragment = url.slice(url.indexOf('#') + 1);
      console.log(`default share link: ${url.length} characters (fragment ${fragment.length})`);
      assert.ok(fragment.length < 100, `fragment is ${fragment.length} characters`);
      assert.equal(Buffer.from(fragment.slice(4), 'base64url').toString('utf8'), 'j{"preset":"default","version":1}');
      const long = await first.page.evaluate(() => window.attnplay.shareURL());  // edited embeddings and more
      const bytes = Buffer.from(long.slice(long.indexOf('#') + 5), 'base64url');
      assert.equal(String.fromCharCode(bytes[0]), 'z', 'deflated when that is shorter');
    } finally {
      await other.context.close();
    }
  });

  it('a hash change loads the new state', async () => {
    const { page } = first;
    await page.evaluate((f) => { location.hash = f; }, plainFragment({ d_k: 17, temperature: 2 }));
    await waitFrames(page, 3);
    const st = await api.getState(page);
    assert.equal(st.d_k, 17);
    assert.equal(st.temperature, 2);
    assert.equal(st.sentence, defaults.sentence, 'everything else from the defaults');
  });

  const bad = [
    ['garbled base64', '#s=1.!!!not*base64'],
    ['unknown version', '#s=9.' + Buffer.from('j{}').toString('base64url')],
    ['no version', '#s=' + Buffer.from('j{}').toString('base64url')],
    ['truncated deflate', null],  // filled in below from a real link
    ['oversized (300 KiB)', '#s=1.' + 'A'.repeat(300 * 1024)],
    ['zip bomb', null],
    ['not an object', '#' + plainFragment([1, 2, 3])],
    ['d_k out of range', '#' + plainFragment({ d_k: 100000 })],
    ['unknown key', '#' + plainFragment({ d_k: 8, evil: '<img src=x onerror="pwn(1)">' })],
    ['nested 10000 deep', '#s=1.' + Buffer.from('j' + '['.repeat(10000) + ']'.repeat(10000)).toString('base64url')],
    ['invalid JSON', '#' + 's=1.' + Buffer.from('j{"d_k": ').toString('base64url')],
  ];

  async function badFragment(label) {
    const [, fragment] = bad.find(([l]) => l === label);
    if (label === 'truncated deflate') {
      const url = await first.page.evaluate(() => window.attnplay.shareURL());
      return url.slice(url.indexOf('#'), url.indexOf('#') + 60);
    }
    if (label === 'zip bomb') {
      const zlib = await import('node:zlib');
      const bomb = zlib.deflateRawSync(Buffer.alloc(8 << 20, 32), { level: 9 });
      return '#s=1.' + Buffer.concat([Buffer.from('z'), bomb]).toString('base64url');
    }
    return fragment;
  }

  async function assertFellBack(app, label) {
    const st = await api.getState(app.page);
    assert.deepEqual(comparable(st), comparable(defaults), `${label}: the defaults`);
    const w = await watch(app.page);
    assert.match(w.status, /Could not open the shared link/, label);
    assert.ok(w.status.length < 400, `${label}: a short message`);
    const before = await api.frames(app.page);
    await waitFrames(app.page, 3);
    assert.ok((await api.frames(app.page)) > before, `${label}: still drawing`);
    assert.deepEqual(app.errors.page, [], label);
    assert.deepEqual(app.errors.dialogs, [], label);
    assert.deepEqual((await probe(app.page)).pwned, [], label);
  }

  // Opening the page with a bad link (a fresh load each: the slow path, so a few representative ones).
  for (const label of ['garbled base64', 'zip bomb', 'oversized (300 KiB)']) {
    it(`opening a link with a ${label} fragment shows the defaults and a message`, async () => {
      const other = await openAt(browser, server.origin + '/' + (await badFragment(label)));
      try {
        await assertFellBack(other, label);
      } finally {
        await other.context.close();
      }
    });
  }

  // Following a bad link in an open page (hashchange): every kind.
  it('following any bad link in an open page falls back to the defaults with a message', async () => {
    const app = await openAt(browser, server.origin + '/');
    try {
      for (const [label] of bad) {
        await setStateOk(app.page, { d_k: 7, scale: false });
        const f = await badFragment(label);
        await app.page.evaluate((h) => { location.hash = h; }, f);
        await pollUntil(() => api.getState(app.page), (st) => st.d_k !== 7, { what: `${label}: the fallback`, timeout: 5000 });
        await assertFellBack(app, label);
      }
    } finally {
      await app.context.close();
    }
  });

  // wcag: 2.2.1 — the status line's message is also said in the live region, where it does not expire
  // wcag: 3.3.1 — a link that cannot be opened is described in words, in the status line and the live region
  it('the message is shown in the menu bar, not in a modal', async () => {
    const other = await openAt(browser, server.origin + '/#s=1.garbage');
    try {
      const menu = await itemRect(other.page, 'Share…');  // the menu bar is there, with its Share entry
      assert.ok(menu.y < 40);
      assert.match((await watch(other.page)).status, /Could not open/);
      // Screen readers hear it too (the aria-live summary carries the message).
      await pollUntil(() => other.page.textContent('#a11y-summary'), (t) => t.includes('Could not open the shared link'),
        { timeout: 3000, what: 'the message in the aria-live summary' });
      // Controls still respond: nothing blocks input.
      await setStateOk(other.page, { d_k: 9 });
      assert.equal((await api.getState(other.page)).d_k, 9);
    } finally {
      await other.context.close();
    }
  });
});
