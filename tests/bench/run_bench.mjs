#!/usr/bin/env node
// run_bench.mjs — runs every attention benchmark in one go and prints the combined table with ratios.
//
//   node tests/bench/run_bench.mjs [--quick] [--no-build] [--rounds R] [--aggregate median|min]
//                                  [--clock wall|cpu] [--min-time S]
//                                  [--shapes n:d,...] [--json FILE] [--markdown FILE]
//                                  [--native-build DIR] [--web-build DIR] [--from-json FILE]
//
// Programs (each checks its outputs against a double-precision reference before timing):
//   <native-build>/tests/bench/attn_bench        attnplay-native, eigen-native, compute-native
//   <native-build>/tests/bench/attn_bench_march  eigen-native-march (Eigen, -march=native)
//   tests/bench/tfjs_peer.mjs --with-wasm <web-build>/tests/bench/attn_bench_lib.js
//        tfjs-wasm (TensorFlow.js wasm backend, SIMD, 1 thread), ort-wasm (onnxruntime-web, wasm execution
//        provider, SIMD, 1 thread; when installed) and attnplay-wasm, eigen-wasm, compute-wasm (the C++
//        benchmark's WebAssembly build) in one node process, interleaved, with simd128-peak: the shape's
//        flops as independent f32x4 mul + add chains, the measured SIMD128 peak of the same turns
//   <web-build>/tests/bench/attn_bench.js --extras-only   the variance lab's Monte Carlo rate
// The driver then checks across processes that all programs saw the same inputs (hash of their bits)
// and computed the same outputs (checksums within 1e-5 of Σ|Z|), and prints median times, GFLOP/s
// (4·n²·d_k flops) and the same-run ratios. Programs take turns shape by shape; with --rounds R the
// whole sequence runs R times and each figure is the median (or, with --aggregate min, the least
// disturbed) of the rounds' medians.
// Nothing here fails on timing. --from-json FILE prints the tables of an earlier run's --json file (no build, no run).
//
// Build trees (configured and built here unless --no-build): native = build/bench (preset "bench":
// Release, ATTNPLAY_NATIVE_ARCH=ON), web = build/bench-web (Emscripten, Release, no app).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const opt = {
  quick: false, build: true, rounds: 1, aggregate: 'median', clock: 'wall', minTime: null, shapes: null, json: '', markdown: '',
  fromJson: '', nativeBuild: path.join(root, 'build', 'bench'), webBuild: path.join(root, 'build', 'bench-web'),
};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; ++i) {
  const a = argv[i];
  const value = () => {
    if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
    return argv[++i];
  };
  if (a === '--quick') opt.quick = true;
  else if (a === '--no-build') opt.build = false;
  else if (a === '--rounds') opt.rounds = Math.max(1, parseInt(value(), 10));
  else if (a === '--aggregate') opt.aggregate = value() === 'min' ? 'min' : 'median';
  else if (a === '--clock') opt.clock = value();
  else if (a === '--min-time') opt.minTime = value();
  else if (a === '--shapes') opt.shapes = value();
  else if (a === '--json') opt.json = path.resolve(value());
  else if (a === '--markdown') opt.markdown = path.resolve(value());
  else if (a === '--native-build') opt.nativeBuild = path.resolve(value());
  else if (a === '--web-build') opt.webBuild = path.resolve(value());
  else if (a === '--from-json') opt.fromJson = path.resolve(value());
  else if (a === '--help' || a === '-h') {
    const lines = fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1);
    console.log(lines.slice(0, lines.findIndex((l) => !l.startsWith('//'))).join('\n'));
    process.exit(0);
  } else {
    console.error(`unknown option ${a}`);
    process.exit(2);
  }
}

function run(cmd, args, extraEnv = {}, echo = true) {
  if (echo) console.log(`$ ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...extraEnv },
                                   encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.stdout && echo) process.stdout.write(r.stdout);
  if (r.status !== 0) {
    if (r.stdout && !echo) process.stdout.write(r.stdout);
    console.error(`FAILED (exit ${r.status ?? r.signal}): ${cmd} ${args.join(' ')}`);
    process.exit(1);
  }
  return r.stdout;
}

// ---- build --------------------------------------------------------------------------------------------
const emscriptenEnv = { NODE_PATH: '/usr/share/nodejs' };
if (opt.build && !opt.fromJson) {
  const jobs = String(Math.max(1, Math.min(os.cpus().length, 2)));
  if (!fs.existsSync(path.join(opt.nativeBuild, 'CMakeCache.txt'))) {
    if (opt.nativeBuild === path.join(root, 'build', 'bench')) run('cmake', ['--preset', 'bench', '-S', root]);
    else run('cmake', ['-S', root, '-B', opt.nativeBuild, '-DCMAKE_BUILD_TYPE=Release', '-DATTNPLAY_APP=OFF']);
  }
  run('cmake', ['--build', opt.nativeBuild, '--target', 'attn_bench', 'attn_bench_march', '-j', jobs]);
  if (!fs.existsSync(path.join(opt.webBuild, 'CMakeCache.txt')))
    run('cmake', ['-S', root, '-B', opt.webBuild, '-DCMAKE_BUILD_TYPE=Release', '-DATTNPLAY_APP=OFF',
                  '-DCMAKE_TOOLCHAIN_FILE=/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake'], emscriptenEnv);
  run('cmake', ['--build', opt.webBuild, '--target', 'attn_bench', 'attn_bench_lib', '-j', jobs], emscriptenEnv);
}

// ---- run ----------------------------------------------------------------------------------------------
const common = ['--clock', opt.clock];
if (opt.quick) common.push('--quick');
if (opt.minTime !== null) common.push('--min-time', opt.minTime);
const webBench = path.join(opt.webBuild, 'tests', 'bench');
const programs = [
  { name: 'native', cmd: path.join(opt.nativeBuild, 'tests', 'bench', 'attn_bench'), pre: [] },
  { name: 'native-march', cmd: path.join(opt.nativeBuild, 'tests', 'bench', 'attn_bench_march'), pre: [] },
  // attnplay-wasm, eigen-wasm, compute-wasm, simd128-peak, tfjs-wasm and ort-wasm in one node process,
  // repetitions interleaved.
  { name: 'wasm+tfjs', cmd: 'node', pre: [path.join(here, 'tfjs_peer.mjs'), '--with-wasm', path.join(webBench, 'attn_bench_lib.js')] },
];
// The standalone WebAssembly benchmark, for the Monte Carlo rate.
const wasmBench = { name: 'wasm', cmd: 'node', pre: ['--no-experimental-fetch', path.join(webBench, 'attn_bench.js')] };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-bench-'));
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(', ');
const loadBefore = load();
console.log(`load average before: ${loadBefore} (${os.cpus().length} CPUs: ${os.cpus()[0].model})`);
const timings = new Map(); // key impl|n|d → [median_ms per round]
const checks = [];
const order = [];
const extras = [];
// Shape by shape, program after program: the machine's load drifts over minutes (other builds on the
// same two cores), so alternating at this grain exposes every program to about the same conditions.
const shapeList = (opt.shapes ?? (opt.quick ? '16:64,64:64,256:64,64:4,64:16,64:256'
  : '16:64,64:64,256:64,512:64,1024:64,2048:64,512:4,512:16,512:256,512:1024')).split(',');
let seq = 0;
const verbose = opt.rounds * shapeList.length <= 12;
for (let round = 0; round < (opt.fromJson ? 0 : opt.rounds); ++round) {
  for (const shape of shapeList) {
    for (const p of programs) {
      const json = path.join(tmp, `${seq}.json`), chk = path.join(tmp, `${seq}.checks.json`);
      ++seq;
      const out = run(p.cmd, [...p.pre, ...common, '--shapes', shape, '--no-extras', '--json', json, '--checks', chk], {}, verbose);
      for (const r of JSON.parse(fs.readFileSync(json, 'utf8'))) {
        const key = `${r.impl}|${r.n}|${r.d_k}`;
        if (!timings.has(key)) { timings.set(key, []); order.push(r); }
        timings.get(key).push(r.median_ms);
      }
      if (round === 0) checks.push(...JSON.parse(fs.readFileSync(chk, 'utf8')));
      if (!verbose) process.stdout.write(out.split('\n').filter((l) => /^\S+-(wasm|native|peak)/.test(l)).map((l) => `${l}\n`).join(''));
    }
  }
}
// The variance lab's Monte Carlo rate (native and wasm core).
if (!opt.quick && !opt.fromJson)
  for (const p of [programs[0], wasmBench]) {
    const out = run(p.cmd, [...p.pre, '--extras-only']);
    for (const line of out.split('\n')) if (line.startsWith('variance_experiment')) extras.push(`${p.name}: ${line}`);
  }
const loadAfter = load();
fs.rmSync(tmp, { recursive: true, force: true });

// ---- agreement across processes --------------------------------------------------------------------------
const median = (v) => { const s = [...v].sort((a, b) => a - b); const k = s.length >> 1; return s.length % 2 ? s[k] : 0.5 * (s[k - 1] + s[k]); };
let agree = true;
const byShape = new Map();
for (const c of checks) {
  const key = `${c.n}|${c.d_k}`;
  if (!byShape.has(key)) byShape.set(key, []);
  byShape.get(key).push(c);
}
let worstErr = 0;
for (const [key, cs] of byShape) {
  const ref = cs[0];
  for (const c of cs) {
    worstErr = Math.max(worstErr, c.max_abs_err);
    if (c.input_hash !== ref.input_hash) {
      console.error(`DISAGREE: ${c.impl} saw different inputs at n|d_k = ${key}`);
      agree = false;
    }
    if (Math.abs(c.checksum - ref.checksum) > 1e-5 * ref.abs_sum + 1e-6) {
      console.error(`DISAGREE: ${c.impl} ΣZ = ${c.checksum} vs ${ref.impl} ${ref.checksum} at n|d_k = ${key}`);
      agree = false;
    }
  }
}
if (!agree) process.exit(1);
if (!opt.fromJson) console.log(`\nagreement: ${checks.length} outputs over ${byShape.size} shapes, identical inputs; every output within ` +
            `${worstErr.toExponential(1)} of the double-precision reference (tolerance 1e-4), checksums within 1e-5·Σ|Z|`);

// ---- table ------------------------------------------------------------------------------------------------
const rows = opt.fromJson ? JSON.parse(fs.readFileSync(opt.fromJson, 'utf8')) : order.map((r) => {
  const per = timings.get(`${r.impl}|${r.n}|${r.d_k}`);
  const ms = opt.aggregate === 'min' ? Math.min(...per) : median(per);
  return { impl: r.impl, n: r.n, d_k: r.d_k, median_ms: ms, gflops: (4 * r.n * r.n * r.d_k) / (ms * 1e-3) * 1e-9 };
});
const get = (impl, n, d) => rows.find((r) => r.impl === impl && r.n === n && r.d_k === d);
const shapes = [];
for (const r of rows) if (!shapes.some(([n, d]) => n === r.n && d === r.d_k)) shapes.push([r.n, r.d_k]);
const cell = (r) => (r ? `${r.median_ms < 10 ? r.median_ms.toFixed(3) : r.median_ms.toFixed(1)} (${r.gflops.toFixed(1)})` : '–');
// Same-run ratio: the row's time of `other` ÷ its time of attnplay-wasm (both aggregated over the same rounds,
// in one process for the wasm implementations and tfjs), so every "vs" cell is the ratio of the times printed in
// its row (tests/source/perf_tables.py holds docs/performance.md to that).
function ratio(other, ours) {
  if (!other || !ours) return null;
  return other.median_ms / ours.median_ms;
}
const speedup = (other, ours) => { const x = ratio(other, ours); return x === null ? '–' : `${x.toFixed(2)}×`; };
const present = (cols) => cols.filter((c) => rows.some((r) => r.impl === c));
// The faster of the other libraries in WebAssembly (the row of the smaller time).
const PEERS = ['tfjs-wasm', 'ort-wasm'];
const bestPeer = (n, d) => PEERS.map((p) => get(p, n, d)).filter(Boolean)
  .reduce((b, r) => (!b || r.median_ms < b.median_ms ? r : b), null);
// Share of the measured SIMD128 peak: the peak's time for the row's flops ÷ ours (= our GFLOP/s ÷ the peak's).
function peakShare(n, d) {
  const x = ratio(get('simd128-peak', n, d), get('attnplay-wasm', n, d));
  return x === null ? '–' : `${Math.round(100 * x)} %`;
}
function markdown(cols, withRatios) {
  const header = ['n', 'd_k', ...cols];
  const vs = withRatios ? present(['eigen-wasm', 'tfjs-wasm', 'ort-wasm']) : [];
  const withPeers = withRatios && present(PEERS).length > 0, withPeak = withRatios && present(['simd128-peak']).length > 0;
  header.push(...vs.map((c) => `vs ${c}`));
  if (withPeers) header.push('vs best peer');
  if (withRatios) header.push('vs eigen-native-march');
  if (withPeak) header.push('share of peak');
  const lines = [header, header.map(() => '---:')];
  for (const [n, d] of shapes) {
    const ours = get('attnplay-wasm', n, d);
    const line = [String(n), String(d), ...cols.map((c) => cell(get(c, n, d)))];
    line.push(...vs.map((c) => speedup(get(c, n, d), ours)));
    if (withPeers) line.push(speedup(bestPeer(n, d), ours));
    if (withRatios) line.push(speedup(get('eigen-native-march', n, d), ours));
    if (withPeak) line.push(peakShare(n, d));
    lines.push(line);
  }
  return lines.map((l) => `| ${l.join(' | ')} |`).join('\n');
}
const mainTable = markdown(present(['attnplay-wasm', 'eigen-wasm', 'tfjs-wasm', 'ort-wasm', 'eigen-native-march',
                                    'simd128-peak']), true);
const otherTable = markdown(present(['compute-wasm', 'attnplay-native', 'eigen-native', 'compute-native']), false);
const clockNote = `${opt.clock} clock, median of ≥ ${opt.quick ? 2 : 7} repetitions${opt.rounds > 1 ? `, ${opt.aggregate === 'min' ? 'best' : 'median'} of ${opt.rounds} rounds` : ''}`;
const legend = 'cells: median ms (GFLOP/s, 4·n²·d_k flops); "vs X" = time of X ÷ time of attnplay-wasm in the same row ' +
  '(> 1: attnplay-wasm is faster); "best peer" = the faster of tfjs-wasm and ort-wasm; simd128-peak = the time of ' +
  'the row\'s flops at the measured SIMD128 peak, "share of peak" = its time ÷ ours';
console.log(`\nattention forward pass softmax(QKᵀ/√d_k)·V, single thread, ${clockNote}`);
console.log(`load average: ${loadBefore} before, ${loadAfter} after; ${legend}\n`);
console.log(mainTable + '\n\n' + otherTable);

// ---- targets ------------------------------------------------------------------------------------------------
const summary = [];
const t512 = get('attnplay-wasm', 512, 64), e512 = get('eigen-wasm', 512, 64);
if (t512 && e512) {
  const x = ratio(e512, t512);
  summary.push(`attnplay-wasm vs eigen-wasm at n = 512, d_k = 64: ${x.toFixed(2)}× (target ≥ 2×: ${x >= 2 ? 'met' : 'NOT met'})`);
}
const tf = shapes.filter(([n, d]) => n >= 64 && d === 64).map(([n, d]) => [n, d, get('tfjs-wasm', n, d), get('attnplay-wasm', n, d)])
  .filter(([, , a, b]) => a && b);
if (tf.length) {
  const worst = tf.reduce((w, x) => (ratio(x[2], x[3]) < ratio(w[2], w[3]) ? x : w));
  const x = ratio(worst[2], worst[3]);
  const slower = tf.filter(([, , a, b]) => ratio(a, b) <= 1).map(([n, d]) => `n=${n},d_k=${d}`);
  summary.push(`attnplay-wasm vs tfjs-wasm at n ≥ 64, d_k = 64: worst ${x.toFixed(2)}× at n = ${worst[0]}, d_k = ${worst[1]} ` +
               `(target > 1× everywhere: ${slower.length ? `NOT met at ${slower.join(' ')}` : 'met'})`);
}
const tfd = shapes.filter(([n, d]) => n === 512 && d !== 64)
  .map(([n, d]) => [d, get('tfjs-wasm', n, d), get('attnplay-wasm', n, d)]).filter(([, a, b]) => a && b);
if (tfd.length)
  summary.push(`attnplay-wasm vs tfjs-wasm at n = 512 over d_k: ` +
               tfd.map(([d, a, b]) => `${ratio(a, b).toFixed(2)}× at d_k = ${d}`).join(', '));
const best = shapes.map(([n, d]) => [n, d, bestPeer(n, d), get('attnplay-wasm', n, d)]).filter(([, , a, b]) => a && b);
if (best.length) {
  const short = best.filter(([, , a, b]) => ratio(a, b) < 1.5).map(([n, d, a, b]) => `${n}×${d} (${ratio(a, b).toFixed(2)}×)`);
  summary.push(`attnplay-wasm vs the best peer (faster of ${present(PEERS).join(', ')}): ` +
               best.map(([n, d, a, b]) => `${ratio(a, b).toFixed(2)}× at ${n}×${d}`).join(', ') +
               ` (target ≥ 1.5× everywhere: ${short.length ? `NOT met at ${short.join(', ')}` : 'met'})`);
}
for (const [n, limit] of [[512, 16], [1024, 33]]) {
  const c = get('compute-wasm', n, 64);
  if (c) summary.push(`compute-wasm (whole attn::compute) at n = ${n}, d_k = 64: ${c.median_ms.toFixed(2)} ms (target < ${limit} ms: ${c.median_ms < limit ? 'met' : 'NOT met'})`);
}
for (const e of extras) summary.push(e + (e.startsWith('wasm') ? ' (target ≥ 1 million/s in wasm)' : ''));
console.log('\n' + summary.join('\n'));

if (opt.json) fs.writeFileSync(opt.json, JSON.stringify(rows, null, 1) + '\n');
if (opt.markdown)
  fs.writeFileSync(opt.markdown, `${mainTable}\n\n${otherTable}\n\n${clockNote}; load average ${loadBefore} before, ` +
                   `${loadAfter} after; ${legend}.\n\n` +
                   summary.map((s) => `- ${s}`).join('\n') + '\n');
