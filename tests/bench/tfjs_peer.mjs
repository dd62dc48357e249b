#!/usr/bin/env node
// tfjs_peer.mjs — the TensorFlow.js peer of attn_bench: the same attention forward pass
// Z = softmax(Q Kᵀ / √d_k) · V with @tensorflow/tfjs-core + @tensorflow/tfjs-backend-wasm (SIMD
// binary, one thread), on the same inputs, checked against the same double-precision reference,
// timed the same way and written in the same JSON formats (impl "tfjs-wasm").
//
//   node tests/bench/tfjs_peer.mjs [--quick] [--json FILE] [--checks FILE] [--clock wall|cpu]
//                                  [--min-time S] [--min-reps N] [--max-reps N] [--shapes n:d,...]
//                                  [--with-wasm <web-build>/tests/bench/attn_bench_lib.js] [--no-ort]
//                                  [--impl a,b]
//
// --with-wasm also loads the C++ benchmark's WebAssembly implementations (attnplay-wasm, eigen-wasm,
// compute-wasm) into this process and interleaves their repetitions with tfjs's, so the ratios
// between them are same-run ratios in the strictest sense: a change in the machine's load hits all
// of them alike. run_bench.mjs uses it. With it comes simd128-peak: a loop of independent f32x4
// mul + add chains doing the shape's 4·n²·d_k flops (the machine's measured SIMD128 peak; its time is
// what the two products would take at that rate). When onnxruntime-web is installed (npm ci), ort-wasm
// (tests/bench/ort_peer.mjs) joins the turns as well; --no-ort leaves it out.
//
// The peer gets its fast path: in tfjs 4.x the wasm backend hands matMul to XNNPACK only when
// neither operand is transposed, so the scores are tf.matMul(q·α, tf.transpose(k)) rather than
// tf.matMul(q, k, false, true); the scale α = 1/√d_k is applied to q (n·d_k multiplies, not n²).
// The wasm binary is loaded from node_modules by file path (node 20's fetch is not needed).
import { createRequire } from 'node:module';
import path from 'node:path';
import fs from 'node:fs';

import * as tf from '@tensorflow/tfjs-core';
import * as tfwasm from '@tensorflow/tfjs-backend-wasm';

const IMPL = 'tfjs-wasm';
const TOLERANCE = 1e-4; // same as attn_bench (kTolerance)

// ---- options (the same as attn_bench) ---------------------------------------------------------------
const opt = { quick: false, json: '', checks: '', cpu: false, withWasm: '', ort: true, impl: null, minTime: 0.5, minReps: 7, maxReps: 1000, shapes: [] };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; ++i) {
  const a = argv[i];
  const value = () => {
    if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
    return argv[++i];
  };
  if (a === '--quick') opt.quick = true;
  else if (a === '--json') opt.json = value();
  else if (a === '--checks') opt.checks = value();
  else if (a === '--clock') opt.cpu = value() === 'cpu';
  else if (a === '--min-time') opt.minTime = Number(value());
  else if (a === '--min-reps') opt.minReps = Math.max(1, parseInt(value(), 10));
  else if (a === '--max-reps') opt.maxReps = Math.max(1, parseInt(value(), 10));
  else if (a === '--shapes')
    opt.shapes = value().split(',').map((s) => s.split(':').map((x) => parseInt(x, 10)));
  else if (a === '--with-wasm') opt.withWasm = value();
  else if (a === '--no-ort') opt.ort = false;
  else if (a === '--impl') opt.impl = value().split(',');
  else if (a === '--no-extras') {} // accepted for symmetry with attn_bench
  else {
    console.error(`unknown option ${a}`);
    process.exit(2);
  }
}
if (opt.quick) {
  opt.minTime = 0;
  opt.minReps = opt.maxReps = 2;
}
if (opt.shapes.length === 0) {
  opt.shapes = opt.quick
    ? [[16, 64], [64, 64], [256, 64], [64, 4], [64, 16], [64, 256]]
    : [[16, 64], [64, 64], [256, 64], [512, 64], [1024, 64], [2048, 64], [512, 4], [512, 16], [512, 256], [512, 1024]];
}

const now = opt.cpu
  ? () => { const u = process.cpuUsage(); return (u.user + u.system) * 1e-6; }
  : () => performance.now() * 1e-3;

// ---- inputs: bit for bit those of attn_bench ----------------------------------------------------------
function mulberry32(seed) {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeInputs(n, d) {
  const rng = mulberry32((0x2545f491 ^ (n * 7919 + d)) >>> 0);
  const halfWidth = Math.sqrt(3);
  const mats = [new Float32Array(n * d), new Float32Array(n * d), new Float32Array(n * d)];
  let hash = 2166136261;
  for (const m of mats) {
    for (let i = 0; i < m.length; ++i) m[i] = (2 * rng() - 1) * halfWidth; // rounds to float like the C++ cast
    const bits = new Uint32Array(m.buffer);
    for (let i = 0; i < bits.length; ++i)
      for (let b = 0; b < 4; ++b) hash = Math.imul(hash ^ ((bits[i] >>> (8 * b)) & 0xff), 16777619) >>> 0;
  }
  return { Q: mats[0], K: mats[1], V: mats[2], hash };
}

function sampleRows(n) {
  const rows = [];
  const step = Math.max(1, Math.floor(n / 32));
  for (let i = 0; i < n; i += step) rows.push(i);
  if (rows[rows.length - 1] !== n - 1) rows.push(n - 1);
  return rows;
}

function referenceRow({ Q, K, V }, n, d, i) {
  const alpha = 1 / Math.sqrt(d);
  const s = new Float64Array(n);
  let mx = -Infinity;
  for (let j = 0; j < n; ++j) {
    let acc = 0;
    for (let t = 0; t < d; ++t) acc += Q[i * d + t] * K[j * d + t];
    s[j] = acc * alpha;
    mx = Math.max(mx, s[j]);
  }
  let sum = 0;
  for (let j = 0; j < n; ++j) sum += (s[j] = Math.exp(s[j] - mx));
  const z = new Float64Array(d);
  for (let j = 0; j < n; ++j) for (let t = 0; t < d; ++t) z[t] += (s[j] / sum) * V[j * d + t];
  return z;
}

// ---- the peer --------------------------------------------------------------------------------------------
const require = createRequire(import.meta.url);
const wasmDir = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + path.sep;
tfwasm.setWasmPaths(wasmDir);
tfwasm.setThreadsCount(1);
if (!(await tf.setBackend('wasm'))) throw new Error('cannot initialise the tfjs wasm backend');
await tf.ready();
const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
if (!simd) throw new Error('tfjs wasm backend without SIMD: the comparison would be unfair to it');

function attention(q, k, v, alpha) {
  return tf.tidy(() => tf.matMul(tf.softmax(tf.matMul(tf.mul(q, alpha), tf.transpose(k))), v));
}

// An implementation: setup(n, d, inputs) before a shape, run() once, output() → Float32Array, teardown().
const tfjsImpl = {
  name: IMPL,
  setup(n, d, inp) {
    this.q = tf.tensor2d(inp.Q, [n, d]);
    this.k = tf.tensor2d(inp.K, [n, d]);
    this.v = tf.tensor2d(inp.V, [n, d]);
    this.alpha = tf.scalar(1 / Math.sqrt(d));
  },
  run() { attention(this.q, this.k, this.v, this.alpha).dispose(); }, // the wasm backend runs synchronously
  output() {
    const z = attention(this.q, this.k, this.v, this.alpha);
    const out = z.dataSync().slice();
    z.dispose();
    return out;
  },
  teardown() { tf.dispose([this.q, this.k, this.v, this.alpha]); },
};

// --with-wasm: attn_bench_lib.js (the C++ benchmark's WebAssembly implementations behind a C API) in
// this same process; its inputs come from the same generator, which the hash comparison confirms.
const impls = [];
let lib = null;
if (opt.withWasm) {
  const wasmFile = opt.withWasm.replace(/\.js$/, '.wasm');
  lib = await require(path.resolve(opt.withWasm))({ wasmBinary: fs.readFileSync(wasmFile) });
  for (let k = 0; k < lib._bench_impl_count(); ++k) {
    const name = lib.UTF8ToString(lib._bench_impl_name(k));
    if (opt.impl && !opt.impl.includes(name)) continue;
    impls.push({
      name,
      setup(n, d) { this.size = n * d; }, // the module's inputs are drawn once per shape, below
      run() { lib._bench_run(k); },
      output() {
        lib._bench_run(k);
        const ptr = lib._bench_output(k) >> 2;
        return lib.HEAPF32.slice(ptr, ptr + this.size);
      },
      teardown() {},
    });
  }
  if (!opt.impl || opt.impl.includes('simd128-peak'))
    impls.push({
      name: 'simd128-peak',
      noOutput: true, // times the shape's flop count; nothing to check
      setup(n, d) { this.iterations = Math.max(1, Math.round((4 * n * n * d) / lib._bench_simd_peak_flops())); },
      run() { lib._bench_simd_peak(this.iterations); },
      teardown() {},
    });
}
if (!opt.impl || opt.impl.includes(IMPL)) impls.push(tfjsImpl);
let ortVersion = '';
if (opt.ort && (!opt.impl || opt.impl.includes('ort-wasm'))) {
  let hasOrt = true;
  try { require.resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm'); } catch { hasOrt = false; }
  if (hasOrt) {
    const { makeOrtPeer } = await import('./ort_peer.mjs');
    const ortImpl = await makeOrtPeer();
    ortVersion = ortImpl.version;
    impls.push(ortImpl);
  }
}

function median(v) {
  const s = [...v].sort((a, b) => a - b);
  const k = s.length >> 1;
  return s.length % 2 ? s[k] : 0.5 * (s[k - 1] + s[k]);
}

console.log(`attention forward pass softmax(QK^T/sqrt(d_k))V, tfjs ${tf.version_core} wasm backend ` +
            `(SIMD, ${tfwasm.getThreadsCount()} thread)${ortVersion ? `, onnxruntime-web ${ortVersion} (wasm, SIMD, 1 thread)` : ''}` +
            `${opt.withWasm ? ' interleaved with attn_bench_lib' : ''}, ` +
            `${opt.cpu ? 'CPU' : 'wall'} clock, median of >= ${opt.minReps} reps` +
            (opt.quick ? ' (quick mode: timings are not meaningful)' : ''));
console.log(`${'impl'.padEnd(20)} ${'n'.padStart(5)} ${'d_k'.padStart(5)} ${'median ms'.padStart(11)} ` +
            `${'GFLOP/s'.padStart(9)} ${'reps'.padStart(5)} ${'max|err|'.padStart(10)}`);
const rows = [];
let ok = true;
for (const [n, d] of opt.shapes) {
  const inp = makeInputs(n, d);
  const refs = sampleRows(n).map((i) => [i, referenceRow(inp, n, d, i)]);
  if (lib && (lib._bench_setup(n, d) >>> 0) !== inp.hash) throw new Error(`attn_bench_lib drew other inputs at n=${n} d_k=${d}`);
  // Agreement before timing: every output against the double-precision reference on sampled rows.
  const checked = [];
  let shapeOk = true;
  for (const im of impls) {
    await im.setup(n, d, inp);
    if (im.noOutput) {
      checked.push(null);
      continue;
    }
    const Z = await im.output();
    let err = 0, checksum = 0, absSum = 0;
    for (const [i, ref] of refs)
      for (let t = 0; t < d; ++t) {
        const e = Math.abs(Z[i * d + t] - ref[t]);
        err = Number.isNaN(e) ? Infinity : Math.max(err, e);
      }
    for (let i = 0; i < Z.length; ++i) { checksum += Z[i]; absSum += Math.abs(Z[i]); }
    if (!(Z.length === n * d && err <= TOLERANCE)) {
      console.error(`DISAGREE: ${im.name} at n=${n} d_k=${d}: max |Z - Z_ref| = ${err} > ${TOLERANCE}`);
      shapeOk = false;
    }
    checked.push({ err, checksum, absSum });
  }
  if (shapeOk) {
    // Warm-up: at least 0.2 s or two runs each (V8 tiers wasm up from Liftoff to TurboFan). ORT's run() returns a
    // Promise (its API is asynchronous, though the wasm work inside is synchronous): it is awaited inside the
    // timed interval, the others' plain returns are not awaited at all.
    for (const im of impls) {
      const w0 = now();
      for (let rep = 0; rep < 2 || (!opt.quick && now() - w0 < 0.2); ++rep) {
        const r = im.run();
        if (r) await r;
      }
    }
    // Timed repetitions, the implementations taking turns.
    const times = impls.map(() => []);
    const spent = impls.map(() => 0);
    for (let more = true; more;) {
      more = false;
      for (const [j, im] of impls.entries()) {
        const reps = times[j].length;
        if (reps >= opt.maxReps || (reps >= opt.minReps && spent[j] >= opt.minTime)) continue;
        more = true;
        const t0 = now();
        const r = im.run();
        if (r) await r;
        const dt = now() - t0;
        times[j].push(dt);
        spent[j] += dt;
      }
    }
    impls.forEach((im, j) => {
      const med = median(times[j]);
      const { err, checksum, absSum } = checked[j] ?? { err: 0, checksum: null, absSum: null };
      const row = { impl: im.name, n, d_k: d, median_ms: med * 1e3, gflops: med > 0 ? (4 * n * n * d) / med * 1e-9 : 0,
                    reps: times[j].length, input_hash: inp.hash, max_abs_err: err, checksum, abs_sum: absSum };
      rows.push(row);
      console.log(`${im.name.padEnd(20)} ${String(n).padStart(5)} ${String(d).padStart(5)} ` +
                  `${row.median_ms.toFixed(4).padStart(11)} ${row.gflops.toFixed(2).padStart(9)} ` +
                  `${String(row.reps).padStart(5)} ${err.toExponential(2).padStart(10)}`);
    });
  } else {
    ok = false;
  }
  for (const im of impls) await im.teardown();
}

const pick = (r, keys) => Object.fromEntries(keys.map((key) => [key, r[key]]));
if (opt.json)
  fs.writeFileSync(opt.json, JSON.stringify(rows.map((r) => pick(r, ['impl', 'n', 'd_k', 'median_ms', 'gflops'])), null, 1) + '\n');
if (opt.checks)
  fs.writeFileSync(opt.checks, JSON.stringify(rows.filter((r) => r.checksum !== null).map((r) => pick(r, ['impl', 'n', 'd_k', 'input_hash', 'max_abs_err', 'checksum', 'abs_sum'])), null, 1) + '\n');
if (!ok) {
  console.error(`outputs disagree (tolerance ${TOLERANCE}): no timings for those shapes`);
  process.exit(1);
}
