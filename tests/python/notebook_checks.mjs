// notebook_checks.mjs — what both notebook tests check in the two attnplay.show() frames of
// two_playgrounds.ipynb (not a test file itself): each frame's own scenario and numbers, drawn pixels,
// independence under a real drag and setState, no request and no CSP violation from inside the frames.
import assert from 'node:assert/strict';
import { assertClose, attention, decodePng, imageStats } from '../browser/helpers.mjs';

// Polls fn in a frame until it returns something truthy.
export async function frameWaitFor(frame, fn, arg, timeout = 60000, what = 'condition') {
  const deadline = Date.now() + timeout;
  for (;;) {
    const v = await frame.evaluate(fn, arg).catch((e) => ({ __error: String(e) }));
    if (v && !v.__error) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// Waits until the frame's app has drawn n more frames (ImGui reads input at the start of a frame).
export const frameFrames = (frame, n) => frame.evaluate((n) => new Promise((resolve) => {
  const target = window.attnplay.frames() + n;
  const tick = () => (window.attnplay.frames() >= target ? resolve(true) : requestAnimationFrame(tick));
  requestAnimationFrame(tick);
}), n);

// Every frame of the context records CSP violations from its first script on (init scripts are not
// subject to CSP); call before the page is opened.
export async function recordViolations(context) {
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}

// The show() frames of the page in document order, each scrolled into view and ready.
export async function readyFrames(page, count, timeout = 90000) {
  const deadline = Date.now() + timeout;
  let handles = [];
  while ((handles = await page.$$('iframe[data-attnplay-view]')).length < count) {
    if (Date.now() > deadline) throw new Error(`found ${handles.length} playground frame(s), expected ${count}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const frames = await Promise.all(handles.map((h) => h.contentFrame()));
  for (const f of frames) {
    await (await f.frameElement()).scrollIntoViewIfNeeded();
    const r = await frameWaitFor(f, () => {
      const fatal = document.getElementById('fatal');
      if (fatal && !fatal.hidden) return { fatal: fatal.textContent };  // no use waiting
      return window.attnplay && window.attnplay.ready.then(() => ({ ready: true }));
    }, null, timeout, 'attnplay.ready');
    if (r.fatal) throw new Error(`a playground stopped: ${r.fatal}`);
  }
  return frames;
}

// A real drag inside a frame: the item's rectangle is in the frame's CSS pixels, the mouse in the page's.
async function dragInFrame(page, frame, label, fraction) {
  await (await frame.frameElement()).scrollIntoViewIfNeeded();
  const box = await (await frame.frameElement()).boundingBox();
  const r = await frameWaitFor(frame, (l) => window.attnplay.ui.itemRect(l), label, 10000, `itemRect(${label})`);
  const y = box.y + r.y + r.h / 2;
  const from = { x: box.x + r.x + r.w * 0.25, y };
  const to = { x: box.x + r.x + r.w * fraction, y };
  await page.mouse.move(from.x, from.y);
  await frameFrames(frame, 1);
  await page.mouse.down();
  await frameFrames(frame, 2);
  for (let i = 1; i <= 8; i++) {
    await page.mouse.move(from.x + ((to.x - from.x) * i) / 8, y);
    await frameFrames(frame, 1);
  }
  await page.mouse.up();
  await frameFrames(frame, 2);
}

// Frame 1: X·W projections of our own (weights equal compute()'s and first principles');
// frame 2: a captured torch.nn.MultiheadAttention (every head equals PyTorch's attn_output_weights).
export async function checkOwnStates(frames, expected) {
  assert.equal(frames.length, 2);
  // Where the frames are shown, the note about untrusted notebooks is not.
  const page = frames[0].page();
  const notes = await page.$$eval('.attnplay-untrusted', (els) => els.map((e) => e.getBoundingClientRect().height));
  assert.deepEqual(notes, [0, 0], 'the untrusted-notebook notes stay hidden');
  const [first, second] = await Promise.all(frames.map((f) => f.evaluate(async () => ({
    state: await window.attnplay.getState(), result: await window.attnplay.getResult(), embed: await window.attnplay.embedInfo(),
  }))));
  const e1 = expected[0];
  assert.deepEqual(first.state.scenario.tokens, e1.tokens);
  assert.equal(first.state.selected_row, e1.selected_row);
  assert.deepEqual(first.embed.panels, ['controls', 'heatmap']);
  assertClose(first.result.weights, e1.weights, 1e-7, 'frame 1 weights vs attnplay.compute()');
  const f32 = (m) => m.map((r) => r.map((v) => Math.fround(v)));
  const mul = (A, B) => A.map((a) => B[0].map((_, j) => a.reduce((s, v, k) => s + v * B[k][j], 0)));
  const X = f32(e1.X);
  const ref = attention(mul(X, f32(e1.W_q)), mul(X, f32(e1.W_k)), mul(X, f32(e1.W_v)));
  assertClose(first.result.weights, ref.weights, 1e-5, 'frame 1 weights vs first principles');
  const e2 = expected[1];
  assert.deepEqual(second.state.scenario.tokens, e2.tokens);
  assert.equal(second.state.selected_row, e2.selected_row);
  assert.equal(second.result.heads.length, 2);
  second.result.heads.forEach((h, i) => assertClose(h.weights, e2.heads[i], 1e-5, `frame 2 head ${i} vs PyTorch`));
  assert.deepEqual(second.embed.panels, ['controls', 'heatmap', 'pipeline']);
}

// Neither output is blank: each frame's pixels hold the drawn panels, not an empty box.
export async function checkDrawn(frames) {
  for (const [i, f] of frames.entries()) {
    await (await f.frameElement()).scrollIntoViewIfNeeded();
    await frameFrames(f, 2);
    const stats = imageStats(decodePng(await (await f.frameElement()).screenshot()));
    assert.ok(stats.nonBackgroundShare > 0.05 && stats.distinctColors > 30, `frame ${i + 1} looks blank: ${JSON.stringify(stats)}`);
  }
}

// A learner's drag in frame 2 and a setState in frame 1 each change only their own frame.
export async function checkIndependent(page, frames) {
  const [one, two] = frames;
  const before1 = await one.evaluate(async () => ({ state: await window.attnplay.getState(), result: await window.attnplay.getResult() }));
  const before2 = (await two.evaluate(() => window.attnplay.getState())).temperature;
  await dragInFrame(page, two, 'Temperature', 0.9);
  const t2 = await frameWaitFor(two, async (t) => {
    const s = await window.attnplay.getState();
    return s.temperature !== t ? s.temperature : null;
  }, before2, 10000, 'the dragged temperature in frame 2');
  assert.ok(t2 > before2, `dragging right raises the temperature (${before2} → ${t2})`);
  const after1 = await one.evaluate(async () => ({ state: await window.attnplay.getState(), result: await window.attnplay.getResult() }));
  assert.equal(after1.state.temperature, before1.state.temperature, 'frame 1 is untouched by the drag in frame 2');
  assert.deepEqual(after1.result.weights, before1.result.weights);

  const r = await one.evaluate(() => window.attnplay.setState({ temperature: 0.5 }));
  assert.deepEqual(r, { ok: true });
  const [s1, s2] = await Promise.all(frames.map((f) => f.evaluate(() => window.attnplay.getState())));
  assert.equal(s1.temperature, 0.5);
  assert.equal(s2.temperature, t2, 'frame 2 keeps its own temperature');
}

// Inside the frames: no request was made (requests: [{url, main}] from context.on('request')), no CSP
// violation, no fatal message.
export async function checkOffline(frames, requests) {
  const fromFrames = requests.filter((r) => !r.main && !r.url.startsWith('about:') && !r.url.startsWith('data:'));
  assert.deepEqual(fromFrames, [], 'requests from inside the playgrounds');
  for (const f of frames) {
    const v = await f.evaluate(() => ({ violations: window.__violations, fatal: document.getElementById('fatal').hidden }));
    assert.deepEqual(v.violations, []);
    assert.equal(v.fatal, true, 'no fatal message in the frame');
  }
}
