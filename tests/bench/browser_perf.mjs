// browser_perf.mjs — the page's performance figures, measured and printed (a benchmark, not a test:
// nothing here passes or fails on timing, so it is not part of CTest): time from navigation to ready,
// gzipped download size, and frame times (requestAnimationFrame deltas) idle and while the d_k slider
// is dragged with 1024 tokens. Written to test-artifacts/bench/browser.json.
//
//   node tests/bench/browser_perf.mjs            (after building the web preset; SITE_DIR=… for another site)
//
// It exits non-zero only when it could not measure (no site, no Chromium, the drag did not move d_k).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { SITE_DIR, api, artifactPath, assertSiteBuilt, drag, itemRect, launchChromium, openApp, setStateOk,
  startServer, waitFrames } from '../browser/helpers.mjs';

const figures = { when: new Date().toISOString(), environment: 'headless Chromium, SwiftShader WebGL2, viewport 1280×800, DPR 1',
  cpus: os.cpus().length, load_average_at_start: os.loadavg().map((x) => +x.toFixed(2)) };

function summarise(deltas) {
  const d = [...deltas].sort((a, b) => a - b);
  if (!d.length) return { frames: 0 };
  const q = (p) => d[Math.min(d.length - 1, Math.floor(p * d.length))];
  const mean = d.reduce((s, x) => s + x, 0) / d.length;
  return { frames: d.length, mean_ms: +mean.toFixed(1), median_ms: +q(0.5).toFixed(1), p95_ms: +q(0.95).toFixed(1),
    max_ms: +d[d.length - 1].toFixed(1), fps: +(1000 / mean).toFixed(1) };
}

// Installed before any page script: times every requestAnimationFrame callback (the app's main
// loop runs in one), so the app's own CPU time per frame can be told apart from the frame interval,
// which on this machine is dominated by SwiftShader and the compositor. The probe below uses the
// untimed original.
function timeRafCallbacks() {
  const raw = window.requestAnimationFrame.bind(window);
  window.__rawRAF = raw;
  window.__cbMs = [];
  window.requestAnimationFrame = (cb) => raw((t) => {
    const t0 = performance.now();
    try { cb(t); } finally { window.__cbMs.push(performance.now() - t0); }
  });
}

// Records requestAnimationFrame timestamps (frame intervals) in the page until stopped.
const startRafProbe = (page) => page.evaluate(() => {
  window.__rafProbe = { t: [], on: true };
  window.__cbMs.length = 0;
  const tick = (t) => { if (!window.__rafProbe.on) return; window.__rafProbe.t.push(t); window.__rawRAF(tick); };
  window.__rawRAF(tick);
});
const stopRafProbe = (page) => page.evaluate(() => {
  window.__rafProbe.on = false;
  const t = window.__rafProbe.t;
  // Callbacks under 0.5 ms are the tests' own frame waits, not the app's frame.
  return { deltas: t.slice(1).map((v, i) => v - t[i]), appMs: window.__cbMs.filter((x) => x >= 0.5) };
});
const frameFigures = ({ deltas, appMs }) => {
  const { fps, ...app } = summarise(appMs);  // a rate of callback durations means nothing: drop it
  return { ...summarise(deltas), app_cpu_per_frame: app };
};

// What the app's frames since frame `from` spent their time on (attnplay.ui.framePhases()): per phase, the median
// and p95 in ms, and the median of the whole frame body.
function phaseFigures(rows, from) {
  const kept = rows.filter((r) => r.frame >= from);
  const q = (v, p) => { const s = [...v].sort((a, b) => a - b); return s.length ? +s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(2) : 0; };
  const out = { frames: kept.length };
  for (const k of ['tick', 'recompute', 'panels', 'render', 'gl', 'around'])
    out[k] = { median_ms: q(kept.map((r) => r[k]), 0.5), p95_ms: q(kept.map((r) => r[k]), 0.95) };
  out.whole = { median_ms: q(kept.map((r) => r.tick + r.panels + r.render + r.gl + r.around), 0.5),
    p95_ms: q(kept.map((r) => r.tick + r.panels + r.render + r.gl + r.around), 0.95) };
  return out;
}

function downloadSize() {
  const files = {};
  let raw = 0, gz = 0;
  // What the page downloads to run: the module (both halves of a split build), its loader, the API and the
  // parallel DOM (plus the embed helper and the LMS adapter, which a page in a frame or in an LMS loads).
  const shipped = ['attnplay.wasm', 'attnplay.js', 'attnplay-api.js'];
  for (const f of ['attnplay.deferred.wasm', 'attnplay-a11y.js', 'attnplay-embed.js', 'attnplay-lms.js'])
    if (fs.existsSync(path.join(SITE_DIR, f))) shipped.push(f);
  // Learn mode's training worker (loaded at the first Play).
  for (const f of ['attnplay-train-worker.js', 'attnplay-train.js', 'attnplay-train.wasm'])
    if (fs.existsSync(path.join(SITE_DIR, f))) shipped.push(f);
  for (const f of shipped) {
    const buf = fs.readFileSync(path.join(SITE_DIR, f));
    const g = zlib.gzipSync(buf, { level: 9 }).length;
    files[f] = { bytes: buf.length, gzip_bytes: g };
    raw += buf.length;
    gz += g;
  }
  return { files, total_bytes: raw, total_gzip_bytes: gz };
}

async function dragFigures(page) {
  const words = Array.from({ length: 1024 }, (_, i) => `w${i}`);
  await setStateOk(page, { sentence: words.join(' '), d_k: 4, scale: true });
  const s = await api.getState(page);
  if (s.tokens.length !== 1024) throw new Error(`expected 1024 tokens, the page has ${s.tokens.length}`);
  await waitFrames(page, 2);

  await startRafProbe(page);
  await waitFrames(page, 10);
  figures.idle_1024_tokens = frameFigures(await stopRafProbe(page));

  const r = await itemRect(page, 'd_k');
  const y = r.y + r.h / 2;
  const f0 = await api.frames(page);
  const t0 = Date.now();
  await startRafProbe(page);
  await drag(page, { x: r.x + 0.1 * r.w, y }, { x: r.x + 0.85 * r.w, y }, { steps: 8 });
  const probe = await stopRafProbe(page);
  const endState = await api.getState(page);
  figures.drag_d_k_1024_tokens = { ...frameFigures(probe), app_frames: (await api.frames(page)) - f0,
    wall_ms: Date.now() - t0, d_k_after: endState.d_k, mouse_steps: 8,
    phases: phaseFigures(await page.evaluate(() => window.attnplay.ui.framePhases()), f0) };
  if (!(endState.d_k > 4)) throw new Error(`the drag did not move d_k (still ${endState.d_k}): nothing was measured`);
}

function report() {
  const out = artifactPath('bench', 'browser.json');
  const kb = (b) => (b / 1024).toFixed(1) + ' KiB';
  const rows = [
    ['navigation → ready', `${figures.ready_ms} ms`],
    ...Object.entries(figures.download?.files ?? {}).map(([f, v]) => [`${f} (gzip)`, `${kb(v.gzip_bytes)} (raw ${kb(v.bytes)})`]),
    ['total download (gzip)', kb(figures.download?.total_gzip_bytes ?? 0)],
  ];
  const labels = { idle_6_tokens: 'frames, idle, 6 tokens', idle_1024_tokens: 'frames, idle, 1024 tokens',
    drag_d_k_1024_tokens: 'frames, dragging d_k, 1024 tokens' };
  for (const [key, label] of Object.entries(labels)) {
    const f = figures[key];
    if (!f) continue;
    rows.push([label, `interval median ${f.median_ms} ms, p95 ${f.p95_ms} ms, max ${f.max_ms} ms, ${f.fps} fps (${f.frames} frames)`]);
    const a = f.app_cpu_per_frame;
    rows.push(['  of which the app\'s own frame', `median ${a.median_ms} ms, p95 ${a.p95_ms} ms, max ${a.max_ms} ms (${a.frames} frames)`]);
    if (f.phases) {
      const ph = f.phases;
      rows.push(['  the frame body by phase (median / p95 ms)', ['tick', 'recompute', 'panels', 'render', 'gl', 'around', 'whole']
        .map((k) => `${k} ${ph[k].median_ms}/${ph[k].p95_ms}`).join(', ') + ` (${ph.frames} frames)`]);
    }
  }
  rows.push(['load average (1 min) at start / end', `${figures.load_average_at_start[0]} / ${os.loadavg()[0].toFixed(2)} on ${figures.cpus} CPUs`]);
  figures.load_average_at_end = os.loadavg().map((x) => +x.toFixed(2));
  fs.writeFileSync(out, JSON.stringify(figures, null, 2) + '\n');
  const w = Math.max(...rows.map((r) => r[0].length));
  console.log(['', 'Browser performance (written to ' + path.relative(process.cwd(), out) + ')',
    ...rows.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`)].join('\n'));
}

async function main() {
  assertSiteBuilt();
  figures.download = downloadSize();
  const server = await startServer();
  const browser = await launchChromium();
  try {
    const app = await openApp(browser, server.origin, { initScript: timeRafCallbacks });
    figures.ready_ms = Math.round(app.readyMs);
    await startRafProbe(app.page);
    await waitFrames(app.page, 12);
    figures.idle_6_tokens = frameFigures(await stopRafProbe(app.page));
    await dragFigures(app.page);
  } finally {
    await browser.close();
    await server.stop();
  }
  report();
}

main().catch((e) => {
  console.error('browser_perf: ' + (e && e.stack || e));
  process.exitCode = 1;
});
