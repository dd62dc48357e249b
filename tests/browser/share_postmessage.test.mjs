// share_postmessage.test.mjs — the postMessage API between a course page on one origin and playgrounds
// on another (two local servers): allow-listed hosts set state and receive change and saturation events
// (also when the learner drags d_k inside the frame); malformed commands get an error reply; a host
// that is not on the allow-list is ignored entirely.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SITE_DIR, launchChromium, pollUntil, siteBuiltTest, startServer } from './helpers.mjs';

siteBuiltTest();

// Waits until the playground in `frame` is ready, then evaluates fn there.
async function inFrame(frame, fn, arg) {
  await frame.waitForFunction(() => window.attnplay && window.attnplay.frames() >= 2, null, { timeout: 60000, polling: 100 });
  return frame.evaluate(fn, arg);
}

// Posts a raw message from the course page to a playground frame and waits for the reply with that id.
function rawSend(page, frameId, message, timeout = 3000) {
  return page.evaluate(({ frameId, message, timeout }) => new Promise((resolve) => {
    const el = document.getElementById(frameId);
    const target = new URL(el.src).origin;
    const onMessage = (ev) => {
      if (ev.source === el.contentWindow && ev.data && ev.data.id === message.id) {
        window.removeEventListener('message', onMessage);
        resolve({ reply: ev.data, origin: ev.origin });
      }
    };
    window.addEventListener('message', onMessage);
    el.contentWindow.postMessage(message, target);
    setTimeout(() => { window.removeEventListener('message', onMessage); resolve({ reply: null }); }, timeout);
  }), { frameId, message, timeout });
}

const logText = (page) => page.evaluate(() => document.getElementById('log').textContent);

describe('postMessage API', { timeout: 175000 }, () => {
  let playground, host, browser;
  before(async () => {
    playground = await startServer();
    host = await startServer();  // a second port: a different origin serving the course page
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await host?.stop();
    await playground?.stop();
  });

  it('a deployed example page frames no other site: ?playground= of another host is ignored, and said so', async () => {
    // Host names that are not this machine's (course.test, elsewhere.test), resolved to the local servers.
    const named = await launchChromium({ args: ['--host-resolver-rules=MAP *.test 127.0.0.1'] });
    try {
      for (const example of ['course', 'component']) {
        const page = await (await named.newContext()).newPage();
        const elsewhere = `http://elsewhere.test:${playground.port}/index.html`;
        await page.goto(`http://course.test:${host.port}/examples/${example}.html?playground=${encodeURIComponent(elsewhere)}`);
        const srcs = await pollUntil(() => page.evaluate(() => [...document.querySelectorAll('iframe, attention-playground')]
          .map((f) => f.src || f.getAttribute('src') || '')), (l) => l.length > 0, { what: `${example}'s playgrounds` });
        for (const src of srcs) assert.doesNotMatch(src, /elsewhere\.test/, `${example}: ${src}`);
        assert.match(await logText(page), /playground=.* was ignored/, `${example} says why`);
        await page.context().close();
      }
      // On this machine another local port is still allowed (the other tests here embed one cross-origin).
      const page = await (await named.newContext()).newPage();
      await page.goto(`${host.origin}/examples/course.html?playground=${encodeURIComponent(playground.origin + '/index.html')}`);
      const src = await pollUntil(() => page.evaluate(() => document.querySelector('iframe')?.src || ''), (x) => !!x, { what: 'the frame' });
      assert.ok(src.startsWith(playground.origin), src);
      await page.context().close();
    } finally {
      await named.close();
    }
  });

  it('replies only to the sender\'s exact origin (never "*")', () => {
    const src = fs.readFileSync(path.join(SITE_DIR, 'attnplay-embed.js'), 'utf8');
    assert.doesNotMatch(src, /postMessage\([^)]*['"]\*['"]/);
  });

  it('an allow-listed host sets state and hears changes and saturation', async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 1000 } });
    const page = await context.newPage();
    const dialogs = [];
    page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
    try {
      await page.goto(`${host.origin}/examples/course.html?playground=${encodeURIComponent(playground.origin + '/index.html')}`);
      const frame = await pollUntil(async () => page.frames().find((f) => f.url().includes('panels=controls')), Boolean,
        { what: 'the saturation playground frame', timeout: 10000 });
      await inFrame(frame, () => window.attnplay.ready);
      await pollUntil(() => logText(page), (t) => t.includes('[saturation] subscribed'), { timeout: 30000, what: 'subscribe reply' });
      await pollUntil(() => logText(page), (t) => t.includes('[example] subscribed'), { timeout: 30000, what: 'subscribe reply' });
      const st0 = await inFrame(frame, () => window.attnplay.getState());
      assert.equal(st0.preset, 'saturation', 'the course page chose this preset through the fragment');
      const info = await inFrame(frame, () => window.attnplay.embedInfo());
      assert.deepEqual(info.origins, [host.origin]);

      // Host → playground.
      const r = await page.evaluate(() => window.course.send('saturation', 'setState', { state: { d_k: 16, scale: false } }));
      assert.deepEqual(r, { attnplay: 1, id: r.id, ok: true });
      assert.equal((await inFrame(frame, () => window.attnplay.getState())).d_k, 16);
      await pollUntil(() => logText(page), (t) => /\[saturation\] changed: d_k/.test(t), { timeout: 5000, what: 'a change event' });

      // Saturation on, then off: events both ways.
      await page.evaluate(() => window.course.send('saturation', 'setState', { state: { d_k: 1024, scale: false, temperature: 0.05 } }));
      await pollUntil(() => logText(page), (t) => t.includes('[saturation] saturated'), { timeout: 5000, what: 'a saturation event' });
      await page.click('#scale-on');
      await pollUntil(() => logText(page), (t) => t.includes('no longer saturated'), { timeout: 5000, what: 'saturation ending' });

      // The learner drags d_k inside the frame: the host hears it.
      const box = await (await frame.frameElement()).boundingBox();
      const dk = await inFrame(frame, () => window.attnplay.ui.itemRect('d_k'));
      const y = box.y + dk.y + dk.h / 2;
      const frames = () => inFrame(frame, () => window.attnplay.frames());
      const settle = async () => { const f0 = await frames(); await pollUntil(frames, (f) => f >= f0 + 2, { what: 'frames in the iframe' }); };
      // The tracked rect is the slider's frame plus its label; press near the frame's low end.
      await page.mouse.move(box.x + dk.x + dk.w * 0.05, y);
      await settle();
      await page.mouse.down();
      await settle();
      for (let i = 1; i <= 6; i++) {
        await page.mouse.move(box.x + dk.x + dk.w * (0.05 + 0.05 * i), y);
        await settle();
      }
      await page.mouse.up();
      await settle();
      const moved = (await inFrame(frame, () => window.attnplay.getState())).d_k;
      assert.notEqual(moved, 1024, 'the drag moved d_k');
      await pollUntil(() => page.textContent('#feedback-saturation'), (t) => t.includes('You moved d_k to ' + moved),
        { timeout: 5000, what: 'the course page to react to the learner' });

      // Malformed commands from an allowed origin: an error reply, nothing applied.
      const bad = [
        { attnplay: 1, id: 101, cmd: 'eval', state: {} },
        { attnplay: 1, id: 102, cmd: 'setState' },
        { attnplay: 1, id: 103, cmd: 'setState', state: [1, 2] },
        { attnplay: 1, id: 104, cmd: 'getState', extra: '<img src=x onerror=alert(1)>' },
        { attnplay: 1, id: 105, cmd: 'setState', state: { d_k: 'a lot' } },
        { attnplay: 1, id: 106, cmd: 'subscribe', events: ['keystrokes'] },
        { attnplay: 1, id: 107, cmd: 'setState', state: { sentence: 'x'.repeat(2 << 20) } },
      ];
      let deep = {};
      for (let i = 0; i < 40; i++) deep = { a: deep };
      bad.push({ attnplay: 1, id: 108, cmd: 'setState', state: deep });
      const before = await inFrame(frame, () => window.attnplay.getState());
      for (const m of bad) {
        const { reply, origin } = await rawSend(page, 'play-saturation', m);
        assert.ok(reply, `a reply to ${JSON.stringify(m).slice(0, 80)}`);
        assert.equal(reply.ok, false, JSON.stringify(reply));
        assert.equal(typeof reply.error, 'string');
        assert.equal(origin, playground.origin);
      }
      assert.deepEqual(await inFrame(frame, () => window.attnplay.getState()), before, 'nothing applied');
      const ok = await rawSend(page, 'play-saturation', { attnplay: 1, id: 'get-1', cmd: 'shareURL' });
      assert.match(ok.reply.result, /#s=1\./);
      assert.deepEqual(dialogs, []);
    } finally {
      await context.close();
    }
  });

  it('a host that is not on the allow-list is ignored', async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 1000 } });
    const page = await context.newPage();
    try {
      // The playgrounds only trust http://127.0.0.1:1, not the page that embeds them.
      await page.goto(`${host.origin}/examples/course.html?allow=${encodeURIComponent('http://127.0.0.1:1')}` +
        `&playground=${encodeURIComponent(playground.origin + '/index.html')}`);
      const frame = await pollUntil(async () => page.frames().find((f) => f.url().includes('panels=controls')), Boolean,
        { what: 'the playground frame', timeout: 10000 });
      await inFrame(frame, () => window.attnplay.ready);
      const before = await inFrame(frame, () => window.attnplay.getState());
      const { reply } = await rawSend(page, 'play-saturation', { attnplay: 1, id: 7, cmd: 'setState', state: { d_k: 3 } }, 2500);
      assert.equal(reply, null, 'no reply at all');
      const { reply: r2 } = await rawSend(page, 'play-saturation', { attnplay: 1, id: 8, cmd: 'getState' }, 1500);
      assert.equal(r2, null);
      assert.deepEqual(await inFrame(frame, () => window.attnplay.getState()), before, 'state unchanged');
      const text = await logText(page);
      assert.doesNotMatch(text, /subscribed|changed/, 'no replies, no events');
    } finally {
      await context.close();
    }
  });
});
