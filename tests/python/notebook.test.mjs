// notebook.test.mjs — a real notebook with two attnplay.show() outputs, executed headless by
// `jupyter nbconvert --to html --execute`, then opened from file:// in headless Chromium with the network
// blocked: each frame's window.attnplay must show its own state and numbers, and the two must not
// disturb each other. Needs build/web, the CLI (ATTNPLAY_CLI) and Debian's jupyter-nbconvert,
// python3-ipykernel, python3-numpy, python3-torch. Run: ctest -R python_notebook --output-on-failure
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { ARTIFACTS, REPO_ROOT, SITE_DIR, assertClose, assertSiteBuilt, attention, decodePng, imageStats, launchChromium } from '../browser/helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const OUT_DIR = path.join(ARTIFACTS, 'notebook');
const NOTEBOOK = 'two_playgrounds.ipynb';
const HTML = path.join(OUT_DIR, 'two_playgrounds.html');
const JUPYTER = fs.existsSync('/usr/bin/jupyter') ? '/usr/bin/jupyter' : 'jupyter';

let browser, context, page, fileURL;
const requests = [];
let frames = [];
let expected;

// Runs fn in a frame once per animation frame until it returns something truthy.
async function frameWaitFor(frame, fn, arg, timeout = 60000, what = 'condition') {
  const deadline = Date.now() + timeout;
  for (;;) {
    const v = await frame.evaluate(fn, arg).catch((e) => ({ __error: String(e) }));
    if (v && !v.__error) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const frameFrames = (frame, n) => frame.evaluate((n) => new Promise((resolve) => {
  const target = window.attnplay.frames() + n;
  const tick = () => (window.attnplay.frames() >= target ? resolve(true) : requestAnimationFrame(tick));
  requestAnimationFrame(tick);
}), n);

// A real drag inside a frame: the item's rectangle is in the frame's CSS pixels, the mouse in the page's.
async function dragInFrame(frame, label, fraction) {
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

before(async () => {
  assertSiteBuilt();
  fs.mkdirSync(OUT_DIR, { recursive: true });
  for (const f of ['expected.json', 'two_playgrounds.html']) fs.rmSync(path.join(OUT_DIR, f), { force: true });
  fs.copyFileSync(path.join(here, NOTEBOOK), path.join(OUT_DIR, NOTEBOOK));
  const env = Object.assign({}, process.env, {
    PYTHONPATH: path.join(REPO_ROOT, 'python') + (process.env.PYTHONPATH ? ':' + process.env.PYTHONPATH : ''),
    ATTNPLAY_WEB: SITE_DIR,
  });
  const run = spawnSync(JUPYTER, ['nbconvert', '--to', 'html', '--execute', '--ExecutePreprocessor.timeout=600',
    '--output', 'two_playgrounds.html', NOTEBOOK], { cwd: OUT_DIR, env, encoding: 'utf8', timeout: 900000 });
  if (run.status !== 0) throw new Error(`jupyter nbconvert failed (${run.status ?? run.error}):\n${run.stderr}`);
  expected = JSON.parse(fs.readFileSync(path.join(OUT_DIR, 'expected.json'), 'utf8'));

  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1100, height: 1700 }, deviceScaleFactor: 1, offline: true });
  fileURL = pathToFileURL(HTML).href;
  // Nothing but the notebook file itself may load; the exporter's own CDN scripts fail, as offline.
  await context.route('**/*', (route) => (route.request().url() === fileURL ? route.continue() : route.abort()));
  context.on('request', (r) => requests.push({ url: r.url(), main: r.frame() === page?.mainFrame() }));
  // Every frame records CSP violations from its first script on (init scripts are not subject to CSP).
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  page = await context.newPage();
  await page.goto(fileURL, { waitUntil: 'load' });
  const handles = await page.$$('iframe[data-attnplay-view]');
  frames = await Promise.all(handles.map((h) => h.contentFrame()));
  for (const f of frames) {
    await (await f.frameElement()).scrollIntoViewIfNeeded();
    await frameWaitFor(f, () => window.attnplay && window.attnplay.ready.then(() => true), null, 90000, 'attnplay.ready');
  }
});

after(async () => {
  await browser?.close();
});

test('the executed notebook holds two playgrounds and no script of its own around them', () => {
  const text = fs.readFileSync(HTML, 'utf8');
  assert.equal((text.match(/<iframe [^>]*data-attnplay-view=/g) || []).length, 2);
  assert.equal(frames.length, 2);
  const ids = [...text.matchAll(/<iframe [^>]*data-attnplay-view="([0-9a-f]+)"/g)].map((m) => m[1]);
  assert.notEqual(ids[0], ids[1]);
});

test('each playground shows its own scenario, with the core\'s and PyTorch\'s numbers', async () => {
  const [first, second] = await Promise.all(frames.map((f) => f.evaluate(async () => ({
    state: await window.attnplay.getState(), result: await window.attnplay.getResult(), embed: await window.attnplay.embedInfo(),
  }))));
  // 1: X·W projections of our own; the page's weights equal compute()'s and first principles'.
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
  // 2: the captured MultiheadAttention; every head's weights equal PyTorch's attn_output_weights.
  const e2 = expected[1];
  assert.deepEqual(second.state.scenario.tokens, e2.tokens);
  assert.equal(second.state.selected_row, e2.selected_row);
  assert.equal(second.result.heads.length, 2);
  second.result.heads.forEach((h, i) => assertClose(h.weights, e2.heads[i], 1e-5, `frame 2 head ${i} vs PyTorch`));
  assert.deepEqual(second.embed.panels, ['controls', 'heatmap', 'pipeline']);
});

test('screenshot of the executed notebook as it opened', async () => {
  for (const f of frames) await frameFrames(f, 2);
  await page.evaluate(() => window.scrollTo(0, 0));
  const file = path.join(OUT_DIR, 'notebook.png');
  await page.screenshot({ path: file, fullPage: true });
  // Neither output is blank: each frame's pixels hold the drawn panels, not an empty box.
  for (const [i, f] of frames.entries()) {
    const stats = imageStats(decodePng(await (await f.frameElement()).screenshot()));
    assert.ok(stats.nonBackgroundShare > 0.05 && stats.distinctColors > 30,
      `frame ${i + 1} looks blank: ${JSON.stringify(stats)}`);
  }
});

test('a drag in one playground and setState in the other change only that one', async () => {
  const [one, two] = frames;
  const before1 = await one.evaluate(() => window.attnplay.getResult());
  await dragInFrame(two, 'Temperature', 0.9);
  const t2 = await frameWaitFor(two, async () => {
    const s = await window.attnplay.getState();
    return s.temperature !== 1 ? s.temperature : null;
  }, null, 10000, 'the dragged temperature in frame 2');
  assert.ok(t2 > 1, `dragging right raises the temperature (got ${t2})`);
  const after1 = await one.evaluate(async () => ({ state: await window.attnplay.getState(), result: await window.attnplay.getResult() }));
  assert.equal(after1.state.temperature, 1, 'frame 1 is untouched by the drag in frame 2');
  assert.deepEqual(after1.result.weights, before1.weights);

  const r = await one.evaluate(() => window.attnplay.setState({ temperature: 0.5 }));
  assert.deepEqual(r, { ok: true });
  const [s1, s2] = await Promise.all(frames.map((f) => f.evaluate(() => window.attnplay.getState())));
  assert.equal(s1.temperature, 0.5);
  assert.equal(s2.temperature, t2, 'frame 2 keeps its own temperature');
});

test('with the network blocked, the playgrounds made no request and no CSP complaint', async () => {
  const fromFrames = requests.filter((r) => !r.main && !r.url.startsWith('about:'));
  assert.deepEqual(fromFrames, [], 'requests from inside the playgrounds');
  const outside = requests.filter((r) => r.main && r.url !== fileURL).map((r) => r.url);
  console.log(`# the exporter's page itself asked for ${outside.length} blocked address(es): ${outside.join(', ')}`);
  for (const f of frames) {
    const v = await f.evaluate(() => ({ violations: window.__violations, fatal: document.getElementById('fatal').hidden }));
    assert.deepEqual(v.violations, []);
    assert.equal(v.fatal, true, 'no fatal message in the frame');
  }
});
