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
import { ARTIFACTS, REPO_ROOT, SITE_DIR, assertSiteBuilt, launchChromium } from '../browser/helpers.mjs';
import { checkDrawn, checkIndependent, checkOffline, checkOwnStates, readyFrames, recordViolations } from './notebook_checks.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const OUT_DIR = path.join(ARTIFACTS, 'notebook');
const NOTEBOOK = 'two_playgrounds.ipynb';
const HTML = path.join(OUT_DIR, 'two_playgrounds.html');
const JUPYTER = fs.existsSync('/usr/bin/jupyter') ? '/usr/bin/jupyter' : 'jupyter';

let browser, page, fileURL, frames, expected;
const requests = [];

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
  const context = await browser.newContext({ viewport: { width: 1100, height: 1700 }, deviceScaleFactor: 1, offline: true });
  fileURL = pathToFileURL(HTML).href;
  // Nothing but the notebook file itself may load; the exporter's own script references fail, as offline.
  await context.route('**/*', (route) => (route.request().url() === fileURL ? route.continue() : route.abort()));
  context.on('request', (r) => requests.push({ url: r.url(), main: r.frame() === page?.mainFrame() }));
  await recordViolations(context);
  page = await context.newPage();
  await page.goto(fileURL, { waitUntil: 'load' });
  frames = await readyFrames(page, 2);
});

after(async () => {
  await browser?.close();
});

test('the executed notebook holds two playgrounds and no script of its own around them', () => {
  const text = fs.readFileSync(HTML, 'utf8');
  const ids = [...text.matchAll(/<iframe [^>]*data-attnplay-view="([0-9a-f]+)"/g)].map((m) => m[1]);
  assert.equal(ids.length, 2);
  assert.notEqual(ids[0], ids[1]);
  assert.equal(frames.length, 2);
});

test('each playground shows its own scenario, with the core\'s and PyTorch\'s numbers', () => checkOwnStates(frames, expected));

test('screenshot of the executed notebook as it opened; neither view is blank', async () => {
  await checkDrawn(frames);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(OUT_DIR, 'notebook.png'), fullPage: true });
});

test('a drag in one playground and setState in the other change only that one', () => checkIndependent(page, frames));

test('with the network blocked, the playgrounds made no request and no CSP complaint', async () => {
  await checkOffline(frames, requests);
  const outside = requests.filter((r) => r.main && r.url !== fileURL).map((r) => r.url);
  console.log(`# the exporter's page itself asked for ${outside.length} blocked address(es): ${outside.join(', ')}`);
});

test('a saved view whose state is too large for a share link opens offline with that state', async () => {
  // 3 × 128×128 numbers: the fragment would pass the page's 256 KiB, so the state travels in the document.
  const file = path.join(OUT_DIR, 'large_view.html');
  const script = `
import numpy as np, attnplay, sys
r = np.random.default_rng(3)
Q, K, V = (r.standard_normal((128, 128)) for _ in range(3))
v = attnplay.view(Q=Q, K=K, V=V, selected_row=100, panels="heatmap")
assert v.fragment == "", "expected the in-document state"
v.save(sys.argv[1])
w = attnplay.compute({"Q": Q, "K": K, "V": V})["weights"]
print(repr(float(w[100].max())), int(w[100].argmax()))`;
  const env = Object.assign({}, process.env, { PYTHONPATH: path.join(REPO_ROOT, 'python'), ATTNPLAY_WEB: SITE_DIR });
  const run = spawnSync('/usr/bin/python3', ['-c', script, file], { env, encoding: 'utf8', timeout: 300000 });
  assert.equal(run.status, 0, run.stderr);
  const [maxWeight, argmax] = run.stdout.trim().split(' ').map(Number);
  const context = await browser.newContext({ viewport: { width: 900, height: 700 }, offline: true });
  try {
    const url = pathToFileURL(file).href;
    await context.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()));
    const p = await context.newPage();
    await p.goto(url);
    await p.waitForFunction(() => window.attnplay && window.attnplay.frames() >= 2, null, { timeout: 90000 });
    const got = await p.evaluate(async () => {
      await window.attnplay.ready;
      const s = await window.attnplay.getState(), r = await window.attnplay.getResult();
      return { mode: s.mode, row: s.selected_row, rows: r.weights.length, cols: r.weights[0].length, w100: r.weights[100],
        status: document.getElementById('a11y-summary').textContent };
    });
    assert.equal(got.mode, 'explicit');
    assert.equal(got.row, 100);
    assert.deepEqual([got.rows, got.cols], [128, 128]);
    assert.ok(Math.abs(Math.max(...got.w100) - maxWeight) < 1e-6, `max weight ${Math.max(...got.w100)} vs ${maxWeight}`);
    assert.equal(got.w100.indexOf(Math.max(...got.w100)), argmax);
    assert.doesNotMatch(got.status, /Could not open/);
  } finally {
    await context.close();
  }
});
