// phone_load.mjs — how fast the page opens on a phone over mobile data (a benchmark, run by hand, not a test).
// The site is served gzip-compressed as a static host would (scripts/serve.py --gzip); headless Chromium
// opens it at 390×844, DPR 3, with touch, and Lighthouse's mobile throttling through CDP: 150 ms latency,
// 1.6 Mbps down, 750 kbps up, CPU 4× slower; the HTTP cache is off, so every load is a cold one. It prints
// the median of the loads of: bytes over the wire (CDP loadingFinished's encodedDataLength), the time to the
// first drawn frame and to `attnplay.ready`, and the same without throttling; then the frame times while a
// finger drags the d_k slider at 6 and at 64 tokens on the throttled phone. Also written to
// test-artifacts/bench/phone_load.json.
//
//   node tests/bench/phone_load.mjs [--runs 3] [--no-drag] [--drags 1]     (SITE_DIR=… for another built site;
//   --drags K: K drags at each token count, each reported, then all their frames pooled)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { SITE_DIR, api, artifactPath, assertSiteBuilt, itemRect, launchChromium, setStateOk, startServer,
  waitFrames } from '../browser/helpers.mjs';

const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf('--runs') + 1]) || 3;
const DRAG = !args.includes('--no-drag');
const DRAGS = args.includes('--drags') ? Math.max(1, Number(args[args.indexOf('--drags') + 1]) || 1) : 1;

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true };
// Lighthouse's "Slow 4G" mobile profile.
const THROTTLE = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8 };
const CPU_SLOWDOWN = 4;

// Runs before any page script: the moments of the first drawn frame and of `ready`, from navigation start.
function markFirstFrameAndReady() {
  window.__load = { firstFrameAt: null, readyAt: null, readyError: null };
  // attnplay.frames() says 0 until ready; the module's own counter counts from the first frame.
  const drawn = () => { try { return window.Module._attnplay_frames() >= 1; } catch (e) { return false; } };
  const poll = () => {
    if (window.__load.firstFrameAt === null && drawn()) window.__load.firstFrameAt = performance.now();
    if (window.__load.firstFrameAt === null) requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
  document.addEventListener('DOMContentLoaded', () => {
    window.attnplay.ready.then(() => { window.__load.readyAt = performance.now(); },
      (e) => { window.__load.readyError = String(e && e.message || e); });
  }, { once: true });
}

async function throttle(cdp, on) {
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (on) {
    await cdp.send('Network.emulateNetworkConditions', THROTTLE);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  }
}

// One cold load in a fresh context; resolves with the page still open (for the drag) and its figures.
async function coldLoad(browser, origin, throttled) {
  const context = await browser.newContext({ ...PHONE, serviceWorkers: 'block' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.addInitScript(markFirstFrameAndReady);
  const cdp = await context.newCDPSession(page);
  await throttle(cdp, throttled);
  const urls = new Map(), files = {};
  let readyYet = false;
  cdp.on('Network.responseReceived', (e) => urls.set(e.requestId, new URL(e.response.url).pathname));
  cdp.on('Network.loadingFinished', (e) => {
    const name = urls.get(e.requestId) || '?';
    const f = (files[name] ??= { bytes: 0, before_ready: true });
    f.bytes += e.encodedDataLength;
    if (readyYet) f.before_ready = false;
  });
  await page.goto(origin + '/', { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__load && (window.__load.readyAt !== null || window.__load.readyError !== null),
    null, { timeout: 180000, polling: 100 });
  readyYet = true;
  const marks = await page.evaluate(() => window.__load);
  if (marks.readyError) throw new Error(`ready rejected: ${marks.readyError}`);
  await page.waitForTimeout(1500);  // whatever the page fetches right after ready
  const sum = (pred) => Object.values(files).filter(pred).reduce((s, f) => s + f.bytes, 0);
  return { page, context, cdp, errors, figures: { first_frame_ms: Math.round(marks.firstFrameAt),
    ready_ms: Math.round(marks.readyAt), bytes_before_ready: sum((f) => f.before_ready), bytes_total: sum(() => true), files } };
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

// Frame intervals (requestAnimationFrame timestamps) while one finger drags the d_k slider across.
async function dragFrameTimes(page, cdp, tokens) {
  const words = Array.from({ length: tokens }, (_, i) => `w${i}`);
  await setStateOk(page, { sentence: words.join(' '), d_k: 4 });
  const n = (await api.getState(page)).tokens.length;
  if (n !== tokens) throw new Error(`expected ${tokens} tokens, the page has ${n}`);
  await page.evaluate(() => {
    const el = document.getElementById('canvas');
    el.scrollIntoView();
  });
  const r = await itemRect(page, 'd_k');
  const y = r.y + r.h / 2;
  const from = { x: r.x + 0.1 * r.w, y }, to = { x: r.x + 0.9 * r.w, y };
  await page.evaluate(() => {
    window.__drag = { t: [], on: true };
    const tick = (t) => { if (!window.__drag.on) return; window.__drag.t.push(t); requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
  const steps = 30;
  const touch = (type, p) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: p ? [{ x: p.x, y: p.y, id: 1 }] : [] });
  const frameCount = () => page.evaluate(() => window.__drag.t.length);
  const touchedAt = await frameCount();
  await touch('touchStart', from);
  await waitFrames(page, 2);
  for (let i = 1; i <= steps; i++) {
    await touch('touchMove', { x: from.x + ((to.x - from.x) * i) / steps, y });
    await waitFrames(page, 1);
  }
  const releasedAt = await frameCount();
  await touch('touchEnd');
  await waitFrames(page, 3);
  const t = await page.evaluate(() => { window.__drag.on = false; return window.__drag.t; });
  const intervals = t.slice(1).map((v, i) => v - t[i]);
  // Where each frame over 100 ms fell: the finger's first frames, its moves, or the release (the page's change
  // listeners run then), so a slow frame can be traced to its cause.
  const phase = (i) => (i + 1 <= touchedAt ? 'before the touch' : i + 1 <= touchedAt + 2 ? 'touch start'
    : i + 1 <= releasedAt ? 'moving' : 'release');
  const long_frames = intervals.map((ms, i) => ({ ms: +ms.toFixed(1), phase: phase(i) })).filter((f) => f.ms > 100);
  const dk = (await api.getState(page)).d_k;
  if (!(dk > 4)) throw new Error(`the drag did not move d_k (still ${dk}) at ${tokens} tokens: nothing was measured`);
  return { ...frameFigures(intervals, long_frames), tokens, d_k_after: dk, intervals };
}

function frameFigures(intervals, long_frames) {
  const d = intervals.slice().sort((a, b) => a - b);
  const q = (p) => +d[Math.min(d.length - 1, Math.floor(p * d.length))].toFixed(1);
  return { frames: d.length, median_ms: q(0.5), p95_ms: q(0.95), max_ms: +d[d.length - 1].toFixed(1),
    over_100ms: d.filter((x) => x > 100).length, long_frames };
}

function siteSizes() {
  const out = {};
  for (const f of fs.readdirSync(SITE_DIR)) {
    const p = path.join(SITE_DIR, f);
    if (!fs.statSync(p).isFile()) continue;
    const buf = fs.readFileSync(p);
    out[f] = { bytes: buf.length, gzip_bytes: zlib.gzipSync(buf, { level: 9 }).length };
  }
  return out;
}

async function profile(browser, origin, throttled) {
  const runs = [];
  let last = null;
  for (let i = 0; i < RUNS; i++) {
    if (last) await last.context.close();
    last = await coldLoad(browser, origin, throttled);
    if (last.errors.length) throw new Error(`page errors: ${last.errors.join('; ')}`);
    runs.push(last.figures);
    console.log(`  ${throttled ? 'phone, throttled' : 'phone, unthrottled'} run ${i + 1}: first frame ${last.figures.first_frame_ms} ms, ` +
      `ready ${last.figures.ready_ms} ms, ${(last.figures.bytes_before_ready / 1024).toFixed(1)} KiB before ready`);
  }
  const summary = { runs, median_first_frame_ms: median(runs.map((r) => r.first_frame_ms)),
    median_ready_ms: median(runs.map((r) => r.ready_ms)), median_bytes_before_ready: median(runs.map((r) => r.bytes_before_ready)),
    median_bytes_total: median(runs.map((r) => r.bytes_total)), files_last_run: runs[runs.length - 1].files };
  return { summary, last };
}

async function main() {
  assertSiteBuilt();
  const figures = { when: new Date().toISOString(), site: SITE_DIR, runs: RUNS, cpus: os.cpus().length,
    load_average_at_start: os.loadavg().map((x) => +x.toFixed(2)), throttle: { ...THROTTLE, cpu_slowdown: CPU_SLOWDOWN },
    site_files: siteSizes() };
  const server = await startServer({ gzip: true });
  const browser = await launchChromium();
  try {
    const fast = await profile(browser, server.origin, false);
    figures.unthrottled = fast.summary;
    await fast.last.context.close();
    const slow = await profile(browser, server.origin, true);
    figures.throttled = slow.summary;
    if (DRAG) {
      figures.drag_d_k = [];
      for (let k = 0; k < DRAGS; k++)
        for (const n of [6, 64]) figures.drag_d_k.push({ ...await dragFrameTimes(slow.last.page, slow.last.cdp, n), drag: k + 1 });
      if (DRAGS > 1) {
        figures.drag_d_k_pooled = [6, 64].map((n) => {
          const mine = figures.drag_d_k.filter((d) => d.tokens === n);
          return { tokens: n, drags: mine.length, ...frameFigures(mine.flatMap((d) => d.intervals), mine.flatMap((d) => d.long_frames)) };
        });
      }
    }
    await slow.last.context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
  figures.load_average_at_end = os.loadavg().map((x) => +x.toFixed(2));
  const out = artifactPath('bench', 'phone_load.json');
  fs.writeFileSync(out, JSON.stringify(figures, null, 2) + '\n');
  const kb = (b) => (b / 1024).toFixed(1) + ' KiB';
  const rows = [];
  for (const f of ['attnplay.wasm', 'attnplay.js', 'attnplay-api.js', 'index.html', 'style.css', 'attnplay-train.wasm']) {
    const s = figures.site_files[f];
    if (s) rows.push([`${f}`, `${kb(s.gzip_bytes)} gzip -9 (raw ${kb(s.bytes)})`]);
  }
  for (const [key, label] of [['throttled', 'phone, Slow 4G + CPU ×4'], ['unthrottled', 'phone, no throttling']]) {
    const s = figures[key];
    rows.push([`${label}: first view over the wire`, `${kb(s.median_bytes_before_ready)} before ready, ${kb(s.median_bytes_total)} in all`]);
    rows.push([`${label}: first frame / ready`, `${s.median_first_frame_ms} ms / ${s.median_ready_ms} ms (median of ${RUNS})`]);
  }
  for (const d of [...figures.drag_d_k ?? [], ...figures.drag_d_k_pooled ?? []]) {
    const which = d.drags ? `all ${d.drags} drags` : DRAGS > 1 ? `drag ${d.drag}` : '';
    rows.push([`dragging d_k, ${d.tokens} tokens (throttled)${which ? ', ' + which : ''}`, `frame median ${d.median_ms} ms, p95 ${d.p95_ms} ms, max ${d.max_ms} ms, ` +
      `${d.over_100ms} of ${d.frames} frames over 100 ms` +
      (d.long_frames.length ? ` (${d.long_frames.map((f) => `${Math.round(f.ms)} ms ${f.phase}`).join(', ')})` : '')]);
  }
  rows.push(['load average (1 min) at start / end', `${figures.load_average_at_start[0]} / ${figures.load_average_at_end[0]} on ${figures.cpus} CPUs`]);
  const w = Math.max(...rows.map((r) => r[0].length));
  console.log(['', `Phone load (written to ${path.relative(process.cwd(), out)})`, ...rows.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`)].join('\n'));
  const wire = figures.throttled.files_last_run;
  console.log('  over the wire, last throttled run: ' + Object.entries(wire).map(([f, v]) => `${f} ${kb(v.bytes)}`).join(', '));
}

main().catch((e) => { console.error(e); process.exit(1); });
