// helpers.mjs — shared plumbing for the browser tests (not a test file itself): the static server,
// Debian's Chromium through playwright-core, waiting on the app's state instead of sleeping, real
// mouse gestures on ImGui items, a minimal PNG decoder and the artifact folders.
//
// Each *.test.mjs file starts its own server and browser and stops them again, so every file can
// run on its own: `SITE_DIR=build/web PORT=18471 node --test tests/browser/load.test.mjs`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '..', '..');
export const SITE_DIR = path.resolve(process.env.SITE_DIR || path.join(REPO_ROOT, 'build', 'web'));
export const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

// The site must have been built; a missing build is a failure with instructions, never a skip.
export function assertSiteBuilt() {
  const wasm = path.join(SITE_DIR, 'attnplay.wasm');
  if (!fs.existsSync(wasm)) {
    throw new Error(`the web build is missing: ${wasm} does not exist. Build the site first: ` +
      '`cd <repo> && export NODE_PATH=/usr/share/nodejs && cmake --preset web && cmake --build --preset web -j2` ' +
      '(or point SITE_DIR at a built site).');
  }
  for (const f of ['index.html', 'attnplay.js', 'attnplay-api.js']) {
    if (!fs.existsSync(path.join(SITE_DIR, f))) throw new Error(`the web build is incomplete: ${path.join(SITE_DIR, f)} is missing`);
  }
}

// Registers a first test that fails with build instructions when the site is missing, so a missing
// build shows up as a named failure (the suite's `before` then fails too and cancels the rest).
export function siteBuiltTest() {
  test(`the web build is present in ${SITE_DIR}`, () => assertSiteBuilt());
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

function anyFreePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// The port CTest chose for this file (PORT), or any free one if that is taken or unset.
async function choosePort() {
  const wanted = Number(process.env.PORT);
  if (Number.isInteger(wanted) && wanted > 0 && (await portIsFree(wanted))) return wanted;
  return anyFreePort();
}

// scripts/serve.py on 127.0.0.1; resolves once it answers. stop() ends exactly this process.
// `dir` serves another folder (a course page written by a test) instead of the site.
// `gzip` sends the page's files gzip-compressed, as a static host does.
export async function startServer({ csp, dir, gzip = false } = {}) {
  assertSiteBuilt();
  const port = await choosePort();
  const args = [path.join(REPO_ROOT, 'scripts', 'serve.py'), '--port', String(port), '--dir', dir || SITE_DIR];
  if (csp) args.push('--csp', csp);
  if (gzip) args.push('--gzip');
  const proc = spawn('python3', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let exited = null;
  proc.stderr.on('data', (d) => { stderr += d; });
  const exitPromise = new Promise((resolve) => proc.once('exit', (code, signal) => { exited = { code, signal }; resolve(); }));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10000;
  for (;;) {
    if (exited) throw new Error(`serve.py exited early (${JSON.stringify(exited)}): ${stderr}`);
    try {
      const r = await fetch(origin + '/');
      await r.arrayBuffer();
      if (r.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      proc.kill('SIGTERM');
      throw new Error(`serve.py did not answer on ${origin} within 10 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    origin,
    port,
    async stop() {
      if (!exited) {
        proc.kill('SIGTERM');
        await Promise.race([exitPromise, new Promise((r) => setTimeout(r, 3000))]);
        if (!exited) proc.kill('SIGKILL');
      }
    },
  };
}

// Debian's Chromium with SwiftShader WebGL (no GPU on the test machine). playwright-core gives a
// fresh user-data-dir per launch; nothing is downloaded.
// Every context prefers a dark colour scheme unless a test asks otherwise: the page follows prefers-color-scheme
// when no theme is set, Playwright's default is 'light', and the tests were written against the dark theme.
// `args`: more Chromium flags (e.g. --host-resolver-rules, to reach the local servers under other host names).
export async function launchChromium({ args = [] } = {}) {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install chromium)`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-gpu',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...args],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async ({ firstVisit = false, ...options } = {}) => {
    const context = await newContext({ colorScheme: 'dark', ...options });
    if (!firstVisit) await context.addInitScript(markVisited);
    return context;
  };
  return browser;
}

// A learner's first visit opens with the start view (src/app/start_view.h); the tests were written against the page a
// returning learner sees, so every context is a browser that has left a start view of the site before, as the page
// itself remembers it (attnplay-api.js, VISITED). A test of the first visit asks for a context with `firstVisit: true`.
export const VISITED_KEY = 'attnplay:visited';
function markVisited() {
  try { window.localStorage.setItem('attnplay:visited', '1'); } catch (e) { /* an opaque origin has no storage */ }
}

// Runs before any page script: when the HTML has been parsed (attnplay-api.js has run, attnplay.js
// is still loading, so the app cannot be ready), call every API method once and remember whether it
// rejected; and note the moment `ready` resolves (performance.now() counts from navigation start).
function probeBeforeReady() {
  window.__attnplayProbe = { settledBeforeProbe: null, early: {}, readyAt: null, readyError: null };
  // The probe runs as soon as attnplay-api.js has defined window.attnplay (the module is then at best being
  // compiled), not at DOMContentLoaded: the page starts its module early, and a fast load may be ready before
  // the document is parsed. With no window.attnplay by DOMContentLoaded, the probe reports it missing.
  const define = Object.defineProperty;
  let probed = false;
  const probeOnce = (fn) => () => { if (!probed) { probed = true; Object.defineProperty = define; fn(); } };
  const runProbe = probeOnce(() => {
    const probe = window.__attnplayProbe;
    const api = window.attnplay;
    if (!api) { probe.early.missing = true; return; }
    let settled = false;
    api.ready.then(() => { settled = true; probe.readyAt = performance.now(); },
      (e) => { settled = true; probe.readyError = String(e && e.message || e); });
    const calls = {
      getState: () => api.getState(),
      setState: () => api.setState({ d_k: 8 }),
      getResult: () => api.getResult(),
      itemRect: () => api.ui.itemRect('d_k'),
    };
    for (const [name, fn] of Object.entries(calls)) {
      probe.early[name] = 'pending';
      let p;
      try { p = fn(); } catch (e) { probe.early[name] = 'threw synchronously: ' + e.message; continue; }
      Promise.resolve(p).then((v) => { probe.early[name] = 'resolved: ' + JSON.stringify(v); },
        (e) => { probe.early[name] = 'rejected: ' + (e && e.message); });
    }
    probe.framesAtProbe = api.frames();
    // A then-callback on an already-resolved promise runs after this task, so check in a microtask.
    queueMicrotask(() => { probe.settledBeforeProbe = settled; });
  });
  Object.defineProperty = function (target, key, descriptor) {
    const result = define.call(Object, target, key, descriptor);
    if (target === window && key === 'attnplay') queueMicrotask(runProbe);
    return result;
  };
  document.addEventListener('DOMContentLoaded', runProbe, { once: true });
}

// Opens the app in a fresh context, collects console errors and page errors, waits for ready and then (unless
// `waitForTexts` is false) for the texts that follow the first view.
// `path` is what follows the origin ('/?lang=hi-Latn'); `locale` sets the browser's language; `device` adds
// context options, e.g. a phone: { hasTouch: true, isMobile: true, deviceScaleFactor: 3 }; `onPage(page)` runs
// before the page opens (to watch its requests from the first); `firstVisit` opens it as a browser that has never been
// here (the start view shows).
export async function openApp(browser, origin, { viewport = { width: 1280, height: 800 }, readyTimeout = 60000, initScript = null,
  path: pagePath = '/', locale = undefined, device = {}, onPage = null, waitForTexts = true, firstVisit = false } = {}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, ...(locale ? { locale } : {}), ...device,
    firstVisit });
  const page = await context.newPage();
  if (onPage) onPage(page);
  const errors = { console: [], page: [], dialogs: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') errors.console.push(`${m.text()} (${m.location().url || 'no url'})`);
  });
  page.on('pageerror', (e) => errors.page.push(String(e && e.stack || e)));
  page.on('dialog', (d) => { errors.dialogs.push(`${d.type()}: ${d.message()}`); d.dismiss().catch(() => {}); });
  await page.addInitScript(probeBeforeReady);
  if (initScript) await page.addInitScript(initScript);
  await page.goto(origin + pagePath, { waitUntil: 'load' });
  try {
    await page.waitForFunction(() => window.__attnplayProbe && (window.__attnplayProbe.readyAt !== null ||
      window.__attnplayProbe.readyError !== null), null, { timeout: readyTimeout, polling: 50 });
  } catch (e) {
    const fatal = await page.evaluate(() => document.getElementById('fatal')?.textContent).catch(() => null);
    throw new Error(`attnplay.ready did not settle within ${readyTimeout} ms (fatal message: ${JSON.stringify(fatal)}; ` +
      `console errors: ${JSON.stringify(errors.console)}; page errors: ${JSON.stringify(errors.page)})`);
  }
  const probe = await page.evaluate(() => window.__attnplayProbe);
  if (probe.readyError !== null) {
    throw new Error(`attnplay.ready rejected: ${probe.readyError} (console errors: ${JSON.stringify(errors.console)})`);
  }
  // The texts of lessons and closed panels follow the first view (attnplay-api.js); a test that opens a panel at
  // once would otherwise act on a layout that moves when they arrive. Not an assertion: a test of a failed
  // fetch goes on without them.
  if (waitForTexts) {
    await page.waitForFunction(() => !window.Module.ccall('attnplay_catalog_missing', 'string', ['number'], [1]),
      null, { timeout: 15000, polling: 50 }).catch(() => {});
  }
  return { context, page, errors, readyMs: probe.readyAt, probe };
}

// Polls fn() until pred(value) holds; fails with what it was waiting for and the last value seen.
export async function pollUntil(fn, pred, { timeout = 5000, interval = 40, what = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    last = await fn();
    if (pred(last)) return last;
    if (Date.now() > deadline) {
      const shown = JSON.stringify(last, (k, v) => (k === 'scenario' || k === 'embeddings' ? '…' : v));
      throw new Error(`timed out after ${timeout} ms waiting for ${what}; last value: ${String(shown).slice(0, 600)}`);
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}

// The app's API, evaluated in the page.
export const api = {
  getState: (page) => page.evaluate(() => window.attnplay.getState()),
  setState: (page, partial) => page.evaluate((p) => window.attnplay.setState(p), partial),
  getResult: (page) => page.evaluate(() => window.attnplay.getResult()),
  itemRect: (page, label) => page.evaluate((l) => window.attnplay.ui.itemRect(l), label),
  frames: (page) => page.evaluate(() => window.attnplay.frames()),
  panelScroll: (page, title) => page.evaluate((t) => window.attnplay.ui.panelScroll(t), title),
};

// setState that must succeed.
export async function setStateOk(page, partial) {
  const r = await api.setState(page, partial);
  if (!r || r.ok !== true) throw new Error(`setState(${JSON.stringify(partial).slice(0, 200)}) failed: ${JSON.stringify(r)}`);
  return r;
}

// Waits until the app has drawn n more frames (ImGui reads input at the start of a frame). The
// waiting happens inside the page, on requestAnimationFrame: one round trip instead of a poll.
export async function waitFrames(page, n = 1, timeout = 15000) {
  const r = await page.evaluate(({ n, timeout }) => new Promise((resolve) => {
    const target = window.attnplay.frames() + n, t0 = performance.now();
    const tick = () => {
      const f = window.attnplay.frames();
      if (f >= target) resolve({ ok: true, f });
      else if (performance.now() - t0 > timeout) resolve({ ok: false, f, target });
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }), { n, timeout });
  if (!r.ok) throw new Error(`timed out after ${timeout} ms waiting for ${n} new frame(s) (frame ${r.f}, wanted ${r.target})`);
  return r.f;
}

// Polls inside the page, once per animation frame, until pred({state, result}) is truthy; returns
// {state, result} (result only with withResult: true). pred is plain JavaScript source run in the page (it must not close over
// anything; pass data through `arg`, seen as the predicate's second parameter).
export async function waitForApp(page, pred, { arg = null, timeout = 5000, what = 'the app state', withResult = false } = {}) {
  const expr = `(async () => {
    const pred = ${pred.toString()};
    const arg = ${JSON.stringify(arg)};
    const t0 = performance.now();
    for (;;) {
      const v = { state: await window.attnplay.getState(), result: ${withResult ? 'await window.attnplay.getResult()' : 'null'} };
      let ok = false, err = null;
      try { ok = !!pred(v, arg); } catch (e) { err = String(e); }
      if (ok) return { ok: true, v };
      if (performance.now() - t0 > ${Number(timeout)}) return { ok: false, v, err };
      await new Promise((r) => requestAnimationFrame(r));
    }
  })()`;
  const r = await page.evaluate(expr);
  if (!r.ok) {
    const shown = JSON.stringify(r.v.state, (k, v) => (k === 'scenario' || k === 'embeddings' ? '…' : v));
    throw new Error(`timed out after ${timeout} ms waiting for ${what}${r.err ? ` (predicate threw ${r.err})` : ''}; ` +
      `last state: ${shown.slice(0, 500)}`);
  }
  return r.v;
}

// The rectangle of a tracked ImGui item, waiting for it to be drawn.
// The item's rectangle once it has been drawn at the same place in two frames in a row: a panel that
// has just opened is drawn once where ImGui puts new windows, then where the tiling places it.
export async function itemRect(page, label, timeout = 5000) {
  const same = (a, b) => a && b && a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;
  let last = null;
  return pollUntil(async () => {
    const r = await api.itemRect(page, label);
    const stable = r !== null && r.w > 0 && r.h > 0 && same(r, last);
    last = r;
    if (!stable) await waitFrames(page, 1);
    return stable ? r : null;
  }, (r) => r !== null, { timeout, what: `ui.itemRect(${JSON.stringify(label)}) to be drawn in place` });
}

export const center = (r) => ({ x: r.x + r.w / 2, y: r.y + r.h / 2 });

// A real click: move (hover on the next frame), press, release, each seen by its own frame.
export async function click(page, { x, y }) {
  await page.mouse.move(x, y);
  await waitFrames(page, 1);
  await page.mouse.down();
  await waitFrames(page, 1);
  await page.mouse.up();
  await waitFrames(page, 1);
}

// A real drag in `steps` mouse moves, each followed by a frame; onStep(i) may sample the state.
export async function drag(page, from, to, { steps = 10, onStep } = {}) {
  await page.mouse.move(from.x, from.y);
  await waitFrames(page, 1);
  await page.mouse.down();
  await waitFrames(page, 2);
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(from.x + ((to.x - from.x) * i) / steps, from.y + ((to.y - from.y) * i) / steps);
    await waitFrames(page, 1);
    if (onStep) await onStep(i);
  }
  await page.mouse.up();
  await waitFrames(page, 2);
}

// Types into the focused ImGui text field. ImGui's input queue takes a key's press, its character and
// its release in separate frames, so this returns once the app has drawn three frames per character
// since typing began: the field (and the layout that depends on it) is then up to date.
export async function typeText(page, text) {
  const start = await api.frames(page);
  await page.keyboard.type(text);
  const target = start + 3 * [...text].length + 2;
  const now = await api.frames(page);
  if (now < target) await waitFrames(page, target - now, 120000);
}

// Touch gestures as a phone sends them, through the DevTools protocol: touchStart, `steps` touchMoves
// (each followed by a frame) and touchEnd. `fingers` > 1 puts the others `spread` px to the right of
// the first; they all move together.
// A thumb's flick: down at `from`, up by `step` CSS px `moves` times a frame apart, lifted while still moving.
export async function touchFlickUp(page, from, { moves = 4, step = 35 } = {}) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ ...from, id: 1 }] });
    await waitFrames(page, 2);
    for (let i = 1; i <= moves; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from.x, y: from.y - step * i, id: 1 }] });
      if (i < moves) await waitFrames(page, 1);
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  } finally {
    await cdp.detach();
  }
}

export async function touchDrag(page, from, to, { steps = 10, fingers = 1, spread = 40, onStep } = {}) {
  const cdp = await page.context().newCDPSession(page);
  const points = (p) => Array.from({ length: fingers }, (_, k) => ({ x: p.x + k * spread, y: p.y, id: k + 1 }));
  try {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(from) });
    await waitFrames(page, 2);
    for (let i = 1; i <= steps; i++) {
      const p = { x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps };
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: points(p) });
      await waitFrames(page, 1);
      if (onStep) await onStep(i);
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await waitFrames(page, 3);
  } finally {
    await cdp.detach();
  }
}

// A quick tap: touchstart and touchend sent back to back, usually within one frame of the app.
export async function touchTap(page, { x, y }) {
  await page.touchscreen.tap(x, y);
  await waitFrames(page, 4);
}

export function artifactPath(...parts) {
  const p = path.join(ARTIFACTS, ...parts);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  return p;
}

// Minimal PNG decoder (8-bit greyscale/RGB/RGBA, non-interlaced: what Chromium writes) → RGBA.
export function decodePng(buf) {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  for (let i = 0; i < 8; i++) if (buf[i] !== sig[i]) throw new Error('not a PNG');
  let off = 8, width = 0, height = 0, depth = 0, colorType = 0, interlace = 0;
  const idat = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0); height = data.readUInt32BE(4);
      depth = data[8]; colorType = data[9]; interlace = data[12];
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    off += 12 + len;
  }
  const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[colorType];
  if (depth !== 8 || !channels || interlace !== 0) throw new Error(`unsupported PNG: depth ${depth}, color type ${colorType}, interlace ${interlace}`);
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const cur = Buffer.alloc(stride), prev = Buffer.alloc(stride);
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? cur[i - channels] : 0, b = prev[i], c = i >= channels ? prev[i - channels] : 0;
      let v = line[i];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (filter !== 0) throw new Error(`bad PNG filter ${filter}`);
      cur[i] = v & 255;
    }
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4, s = x * channels;
      if (channels >= 3) { rgba[o] = cur[s]; rgba[o + 1] = cur[s + 1]; rgba[o + 2] = cur[s + 2]; }
      else { rgba[o] = rgba[o + 1] = rgba[o + 2] = cur[s]; }
      rgba[o + 3] = channels === 4 ? cur[s + 3] : channels === 2 ? cur[s + 1] : 255;
    }
    cur.copy(prev);
  }
  return { width, height, rgba };
}

// How much is on the picture: luminance standard deviation, distinct colours (5 bits per channel)
// and the share of pixels that differ clearly from the most common colour (the background).
export function imageStats({ width, height, rgba }) {
  const n = width * height;
  let sum = 0, sum2 = 0;
  const counts = new Map();
  for (let i = 0; i < n; i++) {
    const r = rgba[4 * i], g = rgba[4 * i + 1], b = rgba[4 * i + 2];
    const l = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    sum += l; sum2 += l * l;
    const key = ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  let bgKey = 0, bgCount = -1;
  for (const [k, c] of counts) if (c > bgCount) { bgKey = k; bgCount = c; }
  const br = (bgKey >> 10) << 3, bg = ((bgKey >> 5) & 31) << 3, bb = (bgKey & 31) << 3;
  let differing = 0;
  for (let i = 0; i < n; i++) {
    const d = Math.abs(rgba[4 * i] - br) + Math.abs(rgba[4 * i + 1] - bg) + Math.abs(rgba[4 * i + 2] - bb);
    if (d > 48) differing++;
  }
  const mean = sum / n;
  return { width, height, lumaStd: Math.sqrt(Math.max(0, sum2 / n - mean * mean)), distinctColors: counts.size,
    nonBackgroundShare: differing / n };
}

// Softmax and scaled dot-product attention from first principles, in double precision.
export function softmax(row) {
  const m = Math.max(...row);
  const e = row.map((v) => Math.exp(v - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}
export const matmulT = (A, B) => A.map((a) => B.map((b) => a.reduce((s, v, i) => s + v * b[i], 0)));  // A·Bᵀ
export function attention(Q, K, V, { scale = true, temperature = 1 } = {}) {
  const d_k = Q[0].length;
  const scores = matmulT(Q, K);
  const logits = scores.map((r) => r.map((v) => (scale ? v / Math.sqrt(d_k) : v) / temperature));
  const weights = logits.map(softmax);
  const output = weights.map((w) => V[0].map((_, c) => w.reduce((s, wj, j) => s + wj * V[j][c], 0)));
  return { d_k, scores, logits, weights, output };
}

// |a − b| ≤ tol elementwise over nested arrays, with a message naming the first offender.
export function assertClose(actual, expected, tol, what) {
  const walk = (a, e, at) => {
    if (Array.isArray(e)) {
      if (!Array.isArray(a) || a.length !== e.length) throw new Error(`${what}${at}: expected ${JSON.stringify(e)}, got ${JSON.stringify(a)}`);
      e.forEach((v, i) => walk(a[i], v, `${at}[${i}]`));
    } else if (typeof a !== 'number' || !(Math.abs(a - e) <= tol)) {
      throw new Error(`${what}${at}: expected ${e} ± ${tol}, got ${a} (full: ${JSON.stringify(actual)})`);
    }
  };
  walk(actual, expected, '');
}

// The usual setup of a test file: its own server and Chromium with the app open, closed again after
// the file. `onOpen` receives what openApp() returns once before() has run (tests keep its `page`).
export function useApp(onOpen, options = {}) {
  let server, browser;
  before(async () => {
    server = await startServer();
    browser = await launchChromium();
    onOpen(await openApp(browser, server.origin, options));
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
}

// Keyboard navigation as a reader does it: `key` presses a key and waits two frames; `toSkipLinks()` goes Shift+Tab
// back to the canvas and Esc out of it to the skip links; `toSection(section)` takes the skip link to `section`;
// `tabTo(section, id)` does both and Tabs on to the element `id`; `tabToId(id, { back })` Tabs (or Shift+Tabs) from
// where the focus is to `id`.
export function keyboard(page) {
  const key = async (k) => { await page.keyboard.press(k); await waitFrames(page, 2); };
  const activeId = () => page.evaluate(() => document.activeElement && document.activeElement.id);
  async function tabToId(id, { back = false, max = 120 } = {}) {
    for (let i = 0; i < max && (await activeId()) !== id; i++) await key(back ? 'Shift+Tab' : 'Tab');
    if ((await activeId()) !== id) throw new Error(`${back ? 'Shift+Tab' : 'Tab'} does not reach ${id}; the focus is on ${await activeId()}`);
  }
  async function toSkipLinks() {
    const where = () => page.evaluate(() => document.getElementById('a11y-skip').contains(document.activeElement) ? 'skip'
      : document.activeElement && document.activeElement.id === 'canvas' ? 'canvas' : 'dom');
    for (let i = 0; i < 300 && (await where()) === 'dom'; i++) await key('Shift+Tab');
    // A first Esc hides the tooltip under a resting pointer, if one shows (ui/tooltip.h); the next leaves the canvas.
    for (let i = 0; i < 2 && (await where()) === 'canvas'; i++) await key('Escape');
    if ((await where()) !== 'skip') throw new Error('Esc on the canvas does not go to the skip links');
  }
  async function toSection(section) {
    await toSkipLinks();
    for (let i = 0; i < 8 && (await page.evaluate(() => document.activeElement.getAttribute('href'))) !== '#' + section; i++)
      await key('Tab');
    const on = await page.evaluate(() => document.activeElement.getAttribute('href'));
    if (on !== '#' + section) throw new Error(`no skip link to ${section} (the focus is on ${on})`);
    await key('Enter');
  }
  async function tabTo(section, id, { max = 120 } = {}) {
    await toSection(section);
    await tabToId(id, { max });
  }
  return { key, activeId, toSkipLinks, toSection, tabTo, tabToId };
}
