// web_component.test.mjs — <attention-playground> (web/site/attention-playground.js) on the example course
// page examples/component.html, served under a strict CSP header from one origin with the playground on
// another: attributes reach the frame (state through setState without a reload, embed parameters by a
// reload that keeps the state), a learner's real drag of d_k in the frame becomes a DOM event on the host,
// methods answer, forged messages and refused states are handled.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launchChromium, pollUntil, siteBuiltTest, startServer } from './helpers.mjs';

siteBuiltTest();

const framesDrawn = (frame) => frame.evaluate(() => window.attnplay.frames());
async function waitFrames(frame, n) {
  await frame.evaluate((n) => new Promise((resolve) => {
    const target = window.attnplay.frames() + n;
    const tick = () => (window.attnplay.frames() >= target ? resolve() : requestAnimationFrame(tick));
    requestAnimationFrame(tick);
  }), n);
}

describe('<attention-playground>', { timeout: 175000 }, () => {
  let playground, host, browser, context, page;
  const violations = [];
  const heard = () => page.evaluate(() => window.course.heard);
  const frameOf = async (id) => (await page.$(`#${id}`)).evaluateHandle((el) => el.frame).then((h) => h.asElement().contentFrame());
  const frameState = (frame) => frame.evaluate(() => window.attnplay.getState());

  before(async () => {
    playground = await startServer();
    const csp = `default-src 'self'; script-src 'self'; style-src 'self'; frame-src ${playground.origin}; ` +
      "object-src 'none'; base-uri 'none'";
    host = await startServer({ csp });  // another port: another origin, strict CSP on the course page
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 900, height: 2000 } });  // all three frames in view
    await context.exposeFunction('__reportViolation', (v) => violations.push(v));
    await context.addInitScript(() => document.addEventListener('securitypolicyviolation',
      (e) => window.__reportViolation(`${location.origin}: ${e.violatedDirective} ${e.blockedURI}`)));
    page = await context.newPage();
    await page.goto(`${host.origin}/examples/component.html?playground=${encodeURIComponent(playground.origin + '/index.html')}`);
    await pollUntil(heard, (h) => h.filter((e) => e.type === 'ready').length === 3, { timeout: 120000, what: 'three ready events' });
  });
  after(async () => {
    await browser?.close();
    await host?.stop();
    await playground?.stop();
  });

  it('opens each frame on the other origin with the attributes as embed parameters and state', async () => {
    const frame = await frameOf('play-saturation');
    assert.equal(new URL(frame.url()).origin, playground.origin);
    assert.notEqual(playground.origin, host.origin);
    const info = await frame.evaluate(() => window.attnplay.embedInfo());
    assert.deepEqual(info.panels, ['controls', 'saturation']);
    assert.deepEqual(info.locked, ['preset', 'sentence', 'seed']);
    assert.deepEqual(info.hidden, ['theme', 'text_scale']);
    assert.deepEqual(info.origins, [host.origin], 'the frame obeys exactly the host page');
    assert.equal((await frameState(frame)).preset, 'saturation');
    assert.equal((await frameState(await frameOf('play-example'))).preset, 'sdpa-example-1');
    // The element's own API gives the same state and the core's result.
    const viaElement = await page.evaluate(async () => {
      const el = document.getElementById('play-example');
      return { state: await el.getState(), result: await el.result };
    });
    assert.equal(viaElement.state.preset, 'sdpa-example-1');
    assert.equal(viaElement.result.weights[0].length, 2);
    assert.ok(Math.abs(viaElement.result.weights[0][0] - 0.7311) < 1e-4, `weights ${viaElement.result.weights[0]}`);
  });

  it('a state attribute changes the frame through setState, without reloading it', async () => {
    const frame = await frameOf('play-example');
    await frame.evaluate(() => { window.__sameDocument = true; });
    await page.selectOption('#example-preset', 'self-attn-example-1');  // the page sets preset=…
    await pollUntil(() => frameState(frame), (s) => s.preset === 'self-attn-example-1', { timeout: 10000, what: 'the new preset' });
    assert.equal(await frame.evaluate(() => window.__sameDocument), true, 'the frame was not reloaded');
    const ev = await pollUntil(heard, (h) => h.some((e) => e.frame === 'example' && e.type === 'change' && e.detail.values.preset === 'self-attn-example-1'),
      { timeout: 10000, what: 'a change event for the preset' });
    assert.ok(ev);
    await page.evaluate(() => document.getElementById('play-saturation').setAttribute('d-k', '64'));
    const sat = await frameOf('play-saturation');
    await pollUntil(() => frameState(sat), (s) => s.d_k === 64, { timeout: 10000, what: 'd_k = 64 from the attribute' });
  });

  it('a learner dragging d_k in the frame is a change event on the host page', async () => {
    const frame = await frameOf('play-saturation');
    const before = (await frameState(frame)).d_k;
    const seen = (await heard()).length;
    const box = await (await frame.frameElement()).boundingBox();
    const r = await pollUntil(() => frame.evaluate(() => window.attnplay.ui.itemRect('d_k')), (x) => x && x.w > 0, { what: 'the d_k slider' });
    const y = box.y + r.y + r.h / 2, x0 = box.x + r.x + r.w * 0.5, x1 = box.x + r.x + r.w * 0.95;
    await page.mouse.move(x0, y);
    await waitFrames(frame, 1);
    await page.mouse.down();
    await waitFrames(frame, 2);
    for (let i = 1; i <= 10; i++) {
      await page.mouse.move(x0 + ((x1 - x0) * i) / 10, y);
      await waitFrames(frame, 1);
    }
    await page.mouse.up();
    await waitFrames(frame, 2);
    const after = (await frameState(frame)).d_k;
    assert.ok(after > before, `dragging right raises d_k (${before} → ${after})`);
    const events = await pollUntil(async () => (await heard()).slice(seen),
      (h) => h.some((e) => e.frame === 'saturation' && e.type === 'change' && e.detail.values.d_k === after),
      { timeout: 10000, what: `a change event with d_k = ${after}` });
    const change = events.find((e) => e.type === 'change' && e.detail.values.d_k === after);
    assert.ok(change.detail.changed.includes('d_k'));
    assert.match(await page.textContent('#feedback-saturation'), new RegExp(`d_k to ${after}`));
  });

  it('an embed attribute reloads the frame with the new layout and the same state', async () => {
    const el = '#play-saturation';
    const frame = await frameOf('play-saturation');
    const before = await frameState(frame);
    await frame.evaluate(() => { window.__sameDocument = true; });
    const readies = (await heard()).filter((e) => e.type === 'ready').length;
    await page.evaluate((sel) => document.querySelector(sel).setAttribute('panels', 'controls,heatmap'), el);
    await pollUntil(heard, (h) => h.filter((e) => e.type === 'ready').length === readies + 1, { timeout: 60000, what: 'ready after the reload' });
    const reloaded = await frameOf('play-saturation');
    assert.equal(await reloaded.evaluate(() => window.__sameDocument === undefined), true, 'a new document');
    assert.deepEqual((await reloaded.evaluate(() => window.attnplay.embedInfo())).panels, ['controls', 'heatmap']);
    const after = await frameState(reloaded);
    for (const k of ['preset', 'd_k', 'scale', 'temperature']) assert.deepEqual(after[k], before[k], k);
    assert.ok(await framesDrawn(reloaded) >= 2);
  });

  it('methods: setState answers ok or the page\'s reason; a refused attribute is an error event', async () => {
    const r = await page.evaluate(async () => {
      const el = document.getElementById('play-example');
      return { good: await el.setState({ scale: false }), bad: await el.setState({ temperature: -1 }), state: await el.getState() };
    });
    assert.deepEqual(r.good, { ok: true });
    assert.equal(r.bad.ok, false);
    assert.match(r.bad.error, /temperature/);
    assert.equal(r.state.scale, false);
    const seen = (await heard()).length;
    await page.evaluate(() => document.getElementById('play-example').setAttribute('preset', 'no-such-preset'));
    const errors = await pollUntil(async () => (await heard()).slice(seen).filter((e) => e.type === 'error'), (e) => e.length > 0,
      { timeout: 10000, what: 'an error event' });
    assert.match(errors[0].detail.error, /no-such-preset/);
    assert.match(await page.textContent('#feedback-example'), /no-such-preset/);
  });

  it('loadLesson answers {ok, result} or {ok: false, error} with the page\'s reason', async () => {
    const r = await page.evaluate(async () => {
      const el = document.getElementById('play-example');
      const lesson = { id: 'component-lesson', title: { en: 'Component lesson' },
        steps: [{ text: { en: 'Look at the heatmap.' }, panels: ['controls', 'heatmap'] }] };
      const bad = JSON.parse(JSON.stringify(lesson));
      bad.steps[0].panels = ['no-such-panel'];
      return { good: await el.loadLesson(lesson), bad: await el.loadLesson(bad, 'bad.json') };
    });
    assert.equal(r.good.ok, true);
    assert.equal(r.good.result.id, 'component-lesson');
    assert.equal(r.bad.ok, false);
    assert.match(r.bad.error, /no-such-panel/);
  });

  it('an element made by script with a preset the page does not know: error event, then ready on the defaults', async () => {
    const got = await page.evaluate((src) => new Promise((resolve) => {
      const el = document.createElement('attention-playground');
      const events = [];
      for (const t of ['error', 'ready']) el.addEventListener(t, (ev) => {
        events.push({ type: t, detail: ev.detail });
        if (t === 'ready') el.getState().then((s) => resolve({ events, preset: s.preset, src: el.frame.src }));
      });
      el.id = 'made-by-script';
      el.setAttribute('src', src);
      el.setAttribute('preset', 'why-sqrt-dk-not-yet');
      el.setAttribute('panels', 'heatmap');
      document.querySelector('main').appendChild(el);
      el.scrollIntoView();  // browsers do not animate cross-origin frames out of view
    }), playground.origin + '/index.html');
    assert.deepEqual(got.events.map((e) => e.type), ['error', 'ready']);
    assert.match(got.events[0].detail.error, /why-sqrt-dk-not-yet/);
    assert.equal(got.preset, 'default');
    const query = new URL(got.src).searchParams;
    assert.equal(query.get('panels'), 'heatmap');
    assert.equal(query.get('origins'), host.origin);
    await page.evaluate(() => document.getElementById('made-by-script').remove());
  });

  it('an element in a hidden container waits, and starts once it is shown', async () => {
    await page.evaluate((src) => {
      const box = document.createElement('div');
      box.id = 'hidden-box';
      box.style.display = 'none';  // like a closed tab of a course page
      const el = document.createElement('attention-playground');
      el.id = 'in-hidden-box';
      el.setAttribute('src', src);
      el.setAttribute('preset', 'softmax-article');
      el.setAttribute('panels', 'heatmap');
      window.__hiddenEvents = [];
      for (const t of ['ready', 'error']) el.addEventListener(t, () => window.__hiddenEvents.push(t));
      box.appendChild(el);
      document.querySelector('main').appendChild(box);
    }, playground.origin + '/index.html');
    const frame = await pollUntil(async () => {
      const h = await page.$('#in-hidden-box');
      const f = h && (await h.evaluateHandle((el) => el.frame)).asElement();
      return f && (await f.contentFrame());
    }, (f) => f && f.url().startsWith(playground.origin), { what: 'the hidden element\'s frame' });
    await frame.waitForFunction(() => document.getElementById('loading-text'), null, { timeout: 30000 });
    await new Promise((r) => setTimeout(r, 3000));
    const hidden = await frame.evaluate(() => ({ fatal: document.getElementById('fatal').hidden ? '' : document.getElementById('fatal').textContent,
      frames: window.attnplay.frames() }));
    assert.deepEqual(hidden, { fatal: '', frames: 0 }, 'not started, and not failed, while hidden');
    await page.evaluate(() => { const b = document.getElementById('hidden-box'); b.style.display = 'block'; b.scrollIntoView(); });
    await pollUntil(() => page.evaluate(() => window.__hiddenEvents), (e) => e.includes('ready'), { timeout: 60000, what: 'ready once shown' });
    assert.deepEqual(await page.evaluate(() => window.__hiddenEvents), ['ready']);
    assert.equal((await frame.evaluate(() => window.attnplay.getState())).preset, 'softmax-article');
    await page.evaluate(() => document.getElementById('hidden-box').remove());
  });

  it('messages from anything but its own frame are ignored', async () => {
    const seen = (await heard()).length;
    // The host page's own window posting a look-alike event: right shape, wrong source and origin.
    await page.evaluate(() => window.postMessage({ attnplay: 1, event: 'change', changed: ['d_k'], values: { d_k: 3 } }, '*'));
    await new Promise((r) => setTimeout(r, 500));
    const forged = (await heard()).slice(seen).filter((e) => e.type === 'change' && e.detail.values && e.detail.values.d_k === 3);
    assert.deepEqual(forged, []);
    // Events from a frame reach only the element that owns it.
    const example = await frameOf('play-example');
    await example.evaluate(() => window.attnplay.setState({ temperature: 2 }));
    const events = await pollUntil(async () => (await heard()).slice(seen), (h) => h.some((e) => e.type === 'change' && e.detail.values.temperature === 2),
      { timeout: 10000, what: 'the example frame\'s change event' });
    assert.ok(events.filter((e) => e.detail.values && e.detail.values.temperature === 2).every((e) => e.frame === 'example'));
  });

  it('event names the element does not know are forwarded as DOM events of that name', async () => {
    const example = await frameOf('play-example');
    const waiting = page.evaluate(() => new Promise((resolve) => {
      document.getElementById('play-example').addEventListener('hint-shown', (ev) => resolve(ev.detail), { once: true });
      setTimeout(() => resolve('none'), 5000);
    }));
    await example.evaluate((host) => window.parent.postMessage({ attnplay: 1, event: 'hint-shown', hint: 3 }, host), host.origin);
    assert.deepEqual(await waiting, { hint: 3 });
  });

  it('lesson, step and lang attributes: a lesson in Hinglish; a real click on Next is a lesson-step event on the host', async () => {
    const frame = await frameOf('play-lesson');
    await (await frame.frameElement()).scrollIntoViewIfNeeded();
    let s = await frameState(frame);
    assert.deepEqual(s.lesson, { id: 'why-sqrt-dk', step: 1 });
    assert.equal(s.lang, 'hi-Latn');
    assert.equal(await page.$eval('#play-lesson', (el) => el.frame.getAttribute('lang')), 'hi-Latn');
    await frame.evaluate(() => { window.__sameDocument = true; });
    const seen = (await heard()).length;
    // The learner clicks Next inside the frame.
    const box = await (await frame.frameElement()).boundingBox();
    const r = await pollUntil(() => frame.evaluate(() => window.attnplay.ui.itemRect('lesson:next')), (x) => x && x.w > 0, { what: 'Next' });
    await page.mouse.move(box.x + r.x + r.w / 2, box.y + r.y + r.h / 2);
    await waitFrames(frame, 1);
    await page.mouse.down();
    await waitFrames(frame, 1);
    await page.mouse.up();
    await waitFrames(frame, 2);
    const events = await pollUntil(async () => (await heard()).slice(seen), (e) => e.some((x) => x.frame === 'lesson' && x.type === 'lesson-step'),
      { timeout: 10000, what: 'a lesson-step DOM event' });
    const step = events.find((x) => x.type === 'lesson-step').detail;
    assert.equal(step.lesson, 'why-sqrt-dk');
    assert.equal(step.step, 2);
    assert.match(await page.textContent('#feedback-lesson'), /Step 2 of/);
    // The host sends the learner back to step 1 through the attribute: setState, no reload.
    await page.evaluate(() => document.getElementById('play-lesson').setAttribute('step', '1'));
    s = await pollUntil(() => frameState(frame), (v) => v.lesson && v.lesson.step === 1, { timeout: 10000, what: 'step 1 again' });
    assert.equal(await frame.evaluate(() => window.__sameDocument), true);
    assert.deepEqual((await heard()).slice(seen).filter((x) => x.frame === 'lesson' && x.type === 'error'), []);
  });

  it('works under the strict CSP: no violation on the host page or in the frames', () => {
    assert.deepEqual(violations, []);
  });
});
