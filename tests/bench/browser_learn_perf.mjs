// browser_learn_perf.mjs — Learn mode's training speed in the page while it keeps drawing (a benchmark, not a
// test: nothing passes or fails on timing, so it is not part of CTest). Headless Chromium (SwiftShader WebGL2,
// 1280×800, fresh profile) opens the built page, opens the Learn panel with the reference configuration
// (L = 1, h = 4, d_model = 64, d_k = d_v = 16, n = 16, batch 32, vocabulary 16, induction, A ÷√d_k vs B
// unscaled) and measures, for each phase, over --seconds (default 10):
//   paused         the Learn panel open, not training: the page's own frame rate
//   speed 4        playing at the default speed (at most 4 steps per frame)
//   speed 50       the speed slider's maximum
//   speed 200      the API's maximum (setState learn.speed)
// training steps per second (getResult().learn.steps), frames per second (requestAnimationFrame), frames
// painted per second (attnplay.framesPainted(): the page skips painting a frame that would look like the last
// one, so this is how often the picture changed), steps per frame, the app's own time per frame (its requestAnimationFrame callback), and the CPU time of Chromium's
// processes (/proc: the renderer, which runs the page and the wasm, and all of Chromium with SwiftShader's GPU
// process, where SwiftShader draws in software), so steps per second of renderer CPU time too.
// Where the steps run: the page trains in a Web Worker (getResult().learn.worker, web/site/attnplay-train-worker.js),
// a thread of the renderer process, so its CPU time counts as the renderer's. Each drawn frame allows the worker
// learn.speed more steps (at most learn.speed steps per drawn frame, on average), the worker trains in slices of
// 25 ms and posts a snapshot about every 100 ms, and the page adopts the snapshots at the start of a frame. A
// phase whose steps per frame stay below its speed is limited by the worker's own speed, not by the allowance.
// Without a worker (learn.worker false: no Worker, or its script failed), each frame trains up to learn.speed
// steps itself and stops early once the slice has used 0.8 × the frame budget (App::frame_budget_ms = 10 in the
// page, so 8 ms; the check runs after each step, so a slice can pass it by one step).
//
//   node tests/bench/browser_learn_perf.mjs [--seconds S] [--heavy]   (after building the web preset; SITE_DIR=… for another site)
//
// Writes test-artifacts/bench/browser_learn.json. Exits non-zero only when it could not measure.
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { artifactPath, assertSiteBuilt, launchChromium, openApp, setStateOk, startServer, waitFrames } from '../browser/helpers.mjs';

const argv = process.argv.slice(2);
const argAt = argv.indexOf('--seconds');
const seconds = argAt >= 0 ? Math.max(1, Number(argv[argAt + 1])) : 10;
// --heavy: the heaviest settings the page accepts (a share link can carry them) instead of the reference.
const heavy = argv.includes('--heavy');
const FRAME_BUDGET_MS = 10;  // src/platform/web.cpp: app.frame_budget_ms
const SLICE_MS = 0.8 * FRAME_BUDGET_MS;  // src/app/app.cpp: learn_tick(*this, frame_budget_ms * 0.8)
const REFERENCE = { task: 'induction', layers: 1, heads: 4, d_model: 64, d_k: 16, d_v: 16, seq_len: 16, vocab: 16,
  batch: 32, seed: 1, steps: 1000000, vary: 'scale', b: false };
const HEAVIEST = { task: 'induction', layers: 2, heads: 16, d_model: 256, d_k: 64, d_v: 64, d_mlp: 1024, seq_len: 64,
  vocab: 64, batch: 32, seed: 1, steps: 1000000, vary: 'scale', b: false };
const SETTINGS = heavy ? HEAVIEST : REFERENCE;

// How long the API takes to answer while a phase runs: from node (evaluate's round trip, which waits for the page's
// main thread, so a long frame shows here) and inside the page (the call itself), getResult and setState alike.
async function apiLatency(page, calls = 12) {
  const round = [], inPage = [];
  for (let k = 0; k < calls; ++k) {
    const t0 = performance.now();
    const own = await page.evaluate(async (k) => {
      const t = performance.now();
      await window.attnplay.getResult();
      await window.attnplay.setState({ selected_row: k % 4 });
      return performance.now() - t;
    }, k);
    round.push(performance.now() - t0);
    inPage.push(own);
    await new Promise((r) => setTimeout(r, 50));
  }
  const q = (v, p) => +quantile(v, p).toFixed(1);
  return { calls, round_trip_ms: { median: q(round, 0.5), max: q(round, 1) }, in_page_ms: { median: q(inPage, 0.5), max: q(inPage, 1) } };
}

// Installed before any page script: times every requestAnimationFrame callback, so the app's own time per
// frame (its main loop runs in one) is told apart from the frame interval; the probe uses the untimed original.
function timeRafCallbacks() {
  const raw = window.requestAnimationFrame.bind(window);
  window.__rawRAF = raw;
  window.__cbMs = [];
  window.requestAnimationFrame = (cb) => raw((t) => {
    const t0 = performance.now();
    try { cb(t); } finally { window.__cbMs.push(performance.now() - t0); }
  });
}

// One phase, measured inside the page: steps and app frames at both ends, rAF timestamps in between.
const measureInPage = (page, ms) => page.evaluate(async (ms) => {
  const steps = async () => (await window.attnplay.getResult()).learn.steps;
  const s0 = await steps(), f0 = window.attnplay.frames(), p0 = window.attnplay.framesPainted();
  window.__cbMs.length = 0;
  const stamps = [];
  const t0 = performance.now();
  await new Promise((resolve) => {
    const tick = (t) => { stamps.push(t); if (performance.now() - t0 < ms) window.__rawRAF(tick); else resolve(); };
    window.__rawRAF(tick);
  });
  const elapsed = performance.now() - t0;
  const s1 = await steps(), f1 = window.attnplay.frames(), p1 = window.attnplay.framesPainted();
  const worker = (await window.attnplay.getResult()).learn.worker;
  return { worker, steps: s1 - s0, appFrames: f1 - f0, paintedFrames: p1 - p0, elapsedMs: elapsed, intervals: stamps.slice(1).map((v, i) => v - stamps[i]),
    appMs: window.__cbMs.filter((x) => x >= 0.5) };  // shorter callbacks are the probe's own
}, ms);

const quantile = (v, p) => { const s = [...v].sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : 0; };
const mean = (v) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : 0);

// CPU seconds (user + system) of Chromium's processes (the browser this node process started and all under
// it), by kind: {renderer, gpu, all}.
function chromiumCpu() {
  const ticks = 100;  // USER_HZ on Linux
  const procs = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');  // fields from the 3rd (state) on
      const cmd = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8');
      procs.push({ pid: +d, ppid: +f[1], cpu: (+f[11] + +f[12]) / ticks, renderer: cmd.includes('--type=renderer'),
        gpu: cmd.includes('--type=gpu-process'),
        chromium: cmd.split('\0')[0].includes('chrom') });
    } catch { /* the process ended meanwhile */ }
  }
  const inTree = new Set(procs.filter((p) => p.ppid === process.pid && p.chromium).map((p) => p.pid));
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs) if (!inTree.has(p.pid) && inTree.has(p.ppid)) { inTree.add(p.pid); grew = true; }
  }
  const mine = procs.filter((p) => inTree.has(p.pid));
  const sum = (v) => v.reduce((a, p) => a + p.cpu, 0);
  return { renderer: sum(mine.filter((p) => p.renderer)), gpu: sum(mine.filter((p) => p.gpu)), all: sum(mine) };
}

// The machine's CPU time so far from /proc/stat (Linux; null elsewhere): all of it and the part a
// virtual machine's host took for itself ("steal"), so a phase can say how much of the two CPUs
// the guest really had.
function machineCpu() {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { total: f.reduce((a, b) => a + b, 0), steal: f[7] || 0 };
  } catch (e) {
    return null;
  }
}

async function phase(page, name, learn) {
  await setStateOk(page, { learn });
  await waitFrames(page, 30);  // settle: the first frames after a change relayout
  const c0 = chromiumCpu();
  const m0 = machineCpu();
  const r = await measureInPage(page, seconds * 1e3);
  const c1 = chromiumCpu();
  const m1 = machineCpu();
  const s = r.elapsedMs / 1e3;
  const renderer = c1.renderer - c0.renderer;
  const out = {
    phase: name, speed: learn.speed ?? null, playing: learn.playing, seconds: +s.toFixed(2), steps: r.steps,
    steps_per_s: +(r.steps / s).toFixed(1), fps: +(r.intervals.length / s).toFixed(1),
    painted_per_s: +(r.paintedFrames / s).toFixed(1),
    frame_interval_ms: { median: +quantile(r.intervals, 0.5).toFixed(1), p95: +quantile(r.intervals, 0.95).toFixed(1) },
    app_frames: r.appFrames, steps_per_app_frame: +(r.steps / Math.max(1, r.appFrames)).toFixed(2),
    app_ms_per_frame: { mean: +mean(r.appMs).toFixed(2), median: +quantile(r.appMs, 0.5).toFixed(2), p95: +quantile(r.appMs, 0.95).toFixed(2) },
    renderer_cpu_per_s: +(renderer / s).toFixed(2), gpu_process_cpu_per_s: +((c1.gpu - c0.gpu) / s).toFixed(2),
    chromium_cpu_per_s: +((c1.all - c0.all) / s).toFixed(2),
    steps_per_renderer_cpu_s: renderer > 0 ? +(r.steps / renderer).toFixed(1) : null,
    load_average: +os.loadavg()[0].toFixed(2),
    cpu_steal_share: m0 && m1 && m1.total > m0.total ? +((m1.steal - m0.steal) / (m1.total - m0.total)).toFixed(3) : null,
  };
  out.worker = r.worker;
  out.api = await apiLatency(page);
  if (learn.playing) out.budget_limited = out.steps_per_app_frame < learn.speed - 0.05;
  return out;
}

function report(figures, out) {
  console.log(`\nLearn mode in headless Chromium (${figures.environment}), ${heavy ? 'the heaviest settings' : 'reference configuration'}: ` +
              `${JSON.stringify(figures.settings)}, ${seconds} s per phase`);
  const inWorker = figures.phases.every((p) => p.worker);
  if (inWorker) console.log('training in the Web Worker: each drawn frame allows learn.speed more steps; the frame itself trains none');
  else console.log(`training in the frame (no worker): at most learn.speed steps per frame, stopping after the step that passes ` +
                   `${SLICE_MS} ms (0.8 × the page's ${FRAME_BUDGET_MS} ms frame budget)`);
  const cols = ['phase', 'steps/s', 'fps', 'frames painted/s', 'steps/frame', 'app ms/frame (median, p95)', 'CPU renderer / GPU process / all Chromium',
    'steps per renderer CPU s', 'limited by', 'CPU stolen by the host', 'API getResult+setState ms (round trip median, max; in page median)'];
  console.log(cols.join(' | '));
  for (const p of figures.phases) {
    const limit = !p.playing ? '–' : !p.budget_limited ? `speed ${p.speed}` : p.worker ? 'the worker' : `the ${SLICE_MS} ms slice`;
    console.log([p.phase, p.steps_per_s, p.fps, p.painted_per_s, p.steps_per_app_frame, `${p.app_ms_per_frame.median}, ${p.app_ms_per_frame.p95}`,
      [p.renderer_cpu_per_s, p.gpu_process_cpu_per_s, p.chromium_cpu_per_s].map((x) => `${(100 * x).toFixed(0)} %`).join(' / '),
      p.steps_per_renderer_cpu_s ?? '–', limit,
      p.cpu_steal_share === null ? '–' : `${(100 * p.cpu_steal_share).toFixed(0)} %`,
      `${p.api.round_trip_ms.median}, ${p.api.round_trip_ms.max}; ${p.api.in_page_ms.median}`].join(' | '));
  }
  console.log(`load average (1 min) at start / end: ${figures.load_average_at_start[0]} / ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} CPUs`);
  console.log(`written to ${path.relative(process.cwd(), out)}`);
}

async function main() {
  assertSiteBuilt();
  const figures = { when: new Date().toISOString(), environment: 'SwiftShader WebGL2, viewport 1280×800, DPR 1',
    settings: SETTINGS, seconds_per_phase: seconds, frame_budget_ms: FRAME_BUDGET_MS, slice_ms: SLICE_MS,
    load_average_at_start: os.loadavg().map((x) => +x.toFixed(2)), phases: [] };
  const server = await startServer();
  const browser = await launchChromium();
  try {
    const { page } = await openApp(browser, server.origin, { initScript: timeRafCallbacks });
    if (!(chromiumCpu().renderer > 0)) throw new Error('no Chromium renderer process found under this one: cannot read its CPU time');
    await setStateOk(page, { panels: { learn: true }, learn: { settings: SETTINGS, playing: false, speed: 4 } });
    const st = (await page.evaluate(() => window.attnplay.getState())).learn.settings;
    for (const [k, v] of Object.entries(SETTINGS))
      if (st[k] !== v) throw new Error(`the page did not take learn.settings.${k} = ${v} (has ${st[k]})`);
    figures.phases.push(await phase(page, 'paused', { playing: false }));
    for (const speed of [4, 50, 200]) figures.phases.push(await phase(page, `speed ${speed}`, { playing: true, speed }));
    const learn = (await page.evaluate(() => window.attnplay.getResult())).learn;
    if (learn.stopped || !(learn.steps > 0)) throw new Error(`training did not run: ${JSON.stringify(learn.message)}`);
    figures.final = { steps: learn.steps, loss_a: learn.a.loss, loss_b: learn.b.loss };
  } finally {
    await browser.close();
    await server.stop();
  }
  figures.load_average_at_end = os.loadavg().map((x) => +x.toFixed(2));
  const out = artifactPath('bench', heavy ? 'browser_learn_heavy.json' : 'browser_learn.json');
  fs.writeFileSync(out, JSON.stringify(figures, null, 2) + '\n');
  report(figures, out);
}

main().catch((e) => {
  console.error('browser_learn_perf: ' + (e && e.stack || e));
  process.exitCode = 1;
});
