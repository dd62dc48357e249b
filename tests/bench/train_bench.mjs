#!/usr/bin/env node
// train_bench.mjs — Learn mode's training speed against TensorFlow.js, in one node process, and natively.
//
//   node tests/bench/train_bench.mjs [--rounds R] [--seconds S] [--peers G/E,…]
//                                    [--web-build DIR] [--native-build DIR] [--no-native] [--json FILE]
//
// The reference configuration (L = 1, h = 4, d_model = 64, d_k = d_v = 16, n = 16, batch 32, vocabulary 16,
// induction task, Adam, clipping at 1): one step = a fresh batch, forward and backward of models A (÷√d_k)
// and B (no scaling), one Adam update of each.
//   attnplay-wasm  <web-build>/tests/bench/attn_bench_train.js loaded as a module (the Trainer itself)
//   tfjs-wasm      tfjs_train_peer.mjs: the same model in TensorFlow.js, wasm backend, SIMD, 1 thread;
//                  --peers picks its variants, gradients/embedding (default explicit/onehot,explicit/gather:
//                  tfjs's faster matMul gradients, with the one-hot and with the gather embedding; stock/…
//                  adds tfjs's stock matMul gradient), each timed as a contestant of its own
// take turns, S seconds each (default 3), for R rounds (default 5), the first one alternating; the same
// clocks time both (wall: performance.now(); CPU: process.cpuUsage(), the whole process, so background
// threads count for both). Each round prints steps/s of each and the ratio ours ÷ tfjs; then the medians.
// Natively (unless --no-native): <native-build>/tests/bench/attn_bench_train and `attnplay train` with the
// same configuration, 3 runs each, median (CPU time of the CLI from the shell's `times`).
// A benchmark: it prints figures, it never fails on them (only when it cannot measure).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { REFERENCE, TfjsPair, initTfjsWasm, lossWithWeights, stepFlops } from './tfjs_train_peer.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const opt = { rounds: 5, seconds: 3, peers: 'explicit/onehot,explicit/gather', native: true, json: '',
  webBuild: path.join(root, 'build', 'web-build'), nativeBuild: path.join(root, 'build', 'native') };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; ++i) {
  const a = argv[i];
  const value = () => {
    if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
    return argv[++i];
  };
  if (a === '--rounds') opt.rounds = Math.max(1, parseInt(value(), 10));
  else if (a === '--seconds') opt.seconds = Math.max(0.2, Number(value()));
  else if (a === '--peers') opt.peers = value();
  else if (a === '--web-build') opt.webBuild = path.resolve(value());
  else if (a === '--native-build') opt.nativeBuild = path.resolve(value());
  else if (a === '--no-native') opt.native = false;
  else if (a === '--json') opt.json = path.resolve(value());
  else if (a === '--help' || a === '-h') {
    const lines = fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1);
    console.log(lines.slice(0, lines.findIndex((l) => !l.startsWith('//'))).join('\n'));
    process.exit(0);
  } else {
    console.error(`unknown option ${a}`);
    process.exit(2);
  }
}
const peers = opt.peers.split(',').map((p) => p.split('/'));
if (!peers.every(([g, e]) => ['explicit', 'stock'].includes(g) && ['onehot', 'gather'].includes(e))) {
  console.error('--peers takes gradients/embedding pairs: explicit|stock / onehot|gather, comma-separated');
  process.exit(2);
}

const median = (v) => { const s = [...v].sort((a, b) => a - b); const k = s.length >> 1; return s.length % 2 ? s[k] : 0.5 * (s[k - 1] + s[k]); };
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(', ');
const cpuSeconds = () => { const u = process.cpuUsage(); return (u.user + u.system) * 1e-6; };
const FLOPS = stepFlops(REFERENCE);

// ---- the contestants: step(k) runs k steps of both models ---------------------------------------------
async function loadOurs() {
  const js = path.join(opt.webBuild, 'tests', 'bench', 'attn_bench_train.js');
  if (!fs.existsSync(js))
    throw new Error(`${js} is missing: build it with \`cmake --preset web && cmake --build build/web-build --target attn_bench_train\``);
  const require = createRequire(import.meta.url);
  const m = await require(js)({ noInitialRun: true, wasmBinary: fs.readFileSync(js.replace(/\.js$/, '.wasm')) });
  if (m.UTF8ToString(m._bench_train_config_name(0)) !== 'reference' || m._bench_train_reset(0) !== 0)
    throw new Error('attn_bench_train: cannot start the reference configuration');
  // Agreement before timing: the peer, given ours' initial weights, computes ours' losses on ours' probe batch.
  const probe = JSON.parse(m.UTF8ToString(m._bench_train_probe_json()));
  const last = probe.tensors[probe.tensors.length - 1];
  const params = [0, 1].map((w) => { const p = m._bench_train_parameters(w) >> 2; return m.HEAPF32.slice(p, p + last.offset + last.rows * last.cols); });
  const theirs = lossWithWeights(REFERENCE, probe, params);
  const err = Math.max(...theirs.map((x, w) => Math.abs(x - probe.loss[w]) / Math.abs(probe.loss[w])));
  console.log(`agreement: with ours' initial weights on ours' probe batch (${probe.batch}×${probe.seq_len}) the tfjs model's loss is ` +
              `A ${theirs[0].toFixed(6)}, B ${theirs[1].toFixed(6)}; ours A ${probe.loss[0].toFixed(6)}, B ${probe.loss[1].toFixed(6)} ` +
              `(largest relative difference ${err.toExponential(1)}, tolerance 1e-4)`);
  if (!(err <= 1e-4)) throw new Error('the tfjs model does not compute the function ours trains: no timings');
  return { name: 'attnplay-wasm', flops: FLOPS, step: (k) => m._bench_train_steps(k), losses: () => [m._bench_train_loss(0), m._bench_train_loss(1)],
    steps: () => Number(m._bench_train_steps_done()) };
}

function tfjsContestant(gradients, embedding) {
  const pair = new TfjsPair(REFERENCE, { gradients, embedding });
  return { name: `tfjs-wasm ${gradients}/${embedding}`, flops: stepFlops(REFERENCE, embedding === 'onehot'),
    step: (k) => pair.step(k), losses: () => pair.lastLoss, steps: () => pair.steps };
}

// Steps in chunks of 5 until `seconds` of wall time: the chunk (≈ 0.1 s) keeps the clock reads rare.
function turn(c, seconds) {
  const w0 = performance.now(), c0 = cpuSeconds();
  let steps = 0;
  while (performance.now() - w0 < seconds * 1e3) {
    const ran = c.step(5);
    if (ran !== 5) throw new Error(`${c.name} stopped training after ${c.steps()} steps`);
    steps += ran;
  }
  const wall = (performance.now() - w0) * 1e-3, cpu = cpuSeconds() - c0;
  return { steps, wall, cpu, wallRate: steps / wall, cpuRate: steps / cpu };
}

// ---- native: the benchmark binary and the CLI -------------------------------------------------------------
function runNative() {
  const bench = path.join(opt.nativeBuild, 'tests', 'bench', 'attn_bench_train');
  const cli = path.join(opt.nativeBuild, 'attnplay');
  const out = { bench: [], cli: [] };
  for (const f of [bench, cli]) if (!fs.existsSync(f)) throw new Error(`${f} is missing: build it (cmake --build build/native --target attn_bench_train attnplay) or pass --no-native`);
  const steps = 1000;
  const cliArgs = ['train', '--task', 'induction', '--layers', '1', '--heads', '4', '--d-model', '64', '--d-k', '16',
    '--d-v', '16', '--seq-len', '16', '--vocab', '16', '--batch', '32', '--seed', '1', '--steps', String(steps)];
  for (let r = 0; r < 3; ++r) {
    const b = spawnSync(bench, ['--steps', String(steps)], { encoding: 'utf8' });
    const m = /^reference\s+(\d+)\s+([\d.]+)\s+([\d.]+)/m.exec(b.stdout || '');
    if (b.status !== 0 || !m) throw new Error(`attn_bench_train failed: ${b.stderr || b.stdout}`);
    out.bench.push({ cpuRate: Number(m[2]), wallRate: Number(m[3]) });
    // bash's `times` prints the children's user and system time on its second line.
    const c = spawnSync('bash', ['-c', '"$0" "$@" >/dev/null; s=$?; times; exit $s', cli, ...cliArgs], { encoding: 'utf8' });
    const done = /done: (\d+) steps in ([\d.]+) s \(([\d.]+) steps\/s\)/.exec(c.stderr || '');
    const t = (c.stdout || '').trim().split('\n')[1]?.match(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/);
    if (c.status !== 0 || !done || !t) throw new Error(`attnplay train failed: ${c.stderr}`);
    const cpu = 60 * Number(t[1]) + Number(t[2]) + 60 * Number(t[3]) + Number(t[4]);
    out.cli.push({ wallRate: Number(done[3]), cpuRate: Number(done[1]) / cpu });
  }
  return { steps, bench: out.bench, cli: out.cli };
}

// ---- main ---------------------------------------------------------------------------------------------------
const tfInfo = await initTfjsWasm();
const contestants = [await loadOurs(), ...peers.map(([g, e]) => tfjsContestant(g, e))];
const loadBefore = load();
console.log(`training steps of models A and B together, reference configuration ` +
            `(L=1 h=4 d_model=64 d_k=16 n=16 batch=32 vocab=16), ${(FLOPS / 1e6).toFixed(1)} MFLOP of matrix products per step`);
console.log(`tfjs ${tfInfo.version} wasm backend (SIMD, ${tfInfo.threads} thread); node ${process.version}; ` +
            `${os.cpus().length} CPUs (${os.cpus()[0].model}); load average before: ${loadBefore}`);
for (const c of contestants) turn(c, 1);  // warm-up: V8 tiers the wasm up, tfjs compiles its kernels
const w = Math.max(...contestants.map((c) => c.name.length));
const line = (round, name, steps, cpu, wall, ratio) => console.log(`${String(round).padEnd(6)} ${name.padEnd(w)} ${String(steps).padStart(6)} ` +
  `${cpu.toFixed(1).padStart(11)} ${wall.toFixed(1).padStart(12)}${ratio ? ` ${ratio.cpu.toFixed(2).padStart(11)}× ${ratio.wall.toFixed(2).padStart(6)}×` : ''}`);
console.log(`\nsteps/s by CPU time and wall clock, ${opt.seconds} s turns; ratio = attnplay-wasm's rate ÷ the peer's in the same round`);
console.log(`${'round'.padEnd(6)} ${'impl'.padEnd(w)} ${'steps'.padStart(6)} ${'steps/s cpu'.padStart(11)} ${'steps/s wall'.padStart(12)} ` +
            `${'ratio cpu'.padStart(12)} ${'wall'.padStart(7)}`);
const rounds = [];
for (let r = 0; r < opt.rounds; ++r) {
  const order = r % 2 ? [...contestants].reverse() : contestants;
  const res = new Map();
  for (const c of order) res.set(c.name, turn(c, opt.seconds));
  const ours = res.get(contestants[0].name);
  const round = { load: os.loadavg()[0], results: {}, ratios: {} };
  for (const c of contestants) {
    const x = res.get(c.name);
    round.results[c.name] = x;
    if (c !== contestants[0]) round.ratios[c.name] = { cpu: ours.cpuRate / x.cpuRate, wall: ours.wallRate / x.wallRate };
    line(r + 1, c.name, x.steps, x.cpuRate, x.wallRate, round.ratios[c.name]);
  }
  rounds.push(round);
}
const med = contestants.map((c) => ({ name: c.name, cpuRate: median(rounds.map((r) => r.results[c.name].cpuRate)),
  wallRate: median(rounds.map((r) => r.results[c.name].wallRate)),
  ratio: c === contestants[0] ? null : { cpu: median(rounds.map((r) => r.ratios[c.name].cpu)), wall: median(rounds.map((r) => r.ratios[c.name].wall)) } }));
for (const m of med) line('median', m.name, '', m.cpuRate, m.wallRate, m.ratio);
const loadAfterWasm = load();
console.log(`load average after: ${loadAfterWasm}`);
for (const [i, m] of med.entries())
  console.log(`${m.name.padEnd(w)}  ${(m.cpuRate * contestants[i].flops / 1e9).toFixed(2)} GFLOP/s per CPU second ` +
              `(${(contestants[i].flops / 1e6).toFixed(1)} MFLOP/step); after ${contestants[i].steps()} steps, loss A ` +
              contestants[i].losses().map((x) => x.toFixed(3)).join(', B '));

let native = null;
if (opt.native) {
  native = runNative();
  const m = (k, f) => median(native[k].map((x) => x[f]));
  console.log(`\nnative (${native.steps} steps, median of 3 runs, load average ${load()}):`);
  console.log(`  attn_bench_train  ${m('bench', 'cpuRate').toFixed(1)} steps/s CPU, ${m('bench', 'wallRate').toFixed(1)} wall`);
  console.log(`  attnplay train    ${m('cli', 'cpuRate').toFixed(1)} steps/s CPU, ${m('cli', 'wallRate').toFixed(1)} wall (its own "done" line)`);
  native.median = { bench: { cpuRate: m('bench', 'cpuRate'), wallRate: m('bench', 'wallRate') },
    cli: { cpuRate: m('cli', 'cpuRate'), wallRate: m('cli', 'wallRate') } };
}

console.log('\ntargets (the page\'s own figure, while it draws, comes from browser_learn_perf.mjs):');
console.log(`  attnplay-wasm under node ≥ 30 steps/s: ${med[0].cpuRate.toFixed(1)} CPU, ${med[0].wallRate.toFixed(1)} wall`);
for (const x of med.slice(1))
  console.log(`  faster than ${x.name}: ${x.ratio.cpu.toFixed(2)}× CPU, ${x.ratio.wall.toFixed(2)}× wall (${x.ratio.cpu > 1 && x.ratio.wall > 1 ? 'met' : 'NOT met'})`);
if (native) console.log(`  native CLI ≥ 60 steps/s: ${native.median.cli.wallRate.toFixed(1)} wall (${native.median.cli.wallRate >= 60 ? 'met' : 'NOT met'})`);
if (opt.json)
  fs.writeFileSync(opt.json, JSON.stringify({ when: new Date().toISOString(), config: REFERENCE, flops_per_step: FLOPS,
    tfjs: tfInfo, load_before: loadBefore, load_after: loadAfterWasm, seconds_per_turn: opt.seconds, rounds, median: med, native }, null, 1) + '\n');
