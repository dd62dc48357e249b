// tfjs_train_peer.mjs — the TensorFlow.js peer of Learn mode's training (src/core/train/train_model.cpp): the same
// attention-only transformer, loss, clipping and Adam, trained as models A (÷√d_k) and B (no scaling) on one
// shared batch per step, on @tensorflow/tfjs-core with the wasm backend (SIMD binary, one thread).
//
// Imported by train_bench.mjs; on its own it checks itself and prints a rate:
//   node tests/bench/tfjs_train_peer.mjs [--steps N] [--gradients explicit|stock] [--embedding onehot|gather]
//
// What one step computes, for each of A and B, as ours does (R = batch·n rows):
//   x₀ = E[token] + P[position];  u = x₀ / √(mean x₀² + 1e-6)  (RMS, no gain)
//   per head: Q = u W_q, K = u W_k, V = u W_v;  A = softmax(α Q Kᵀ + causal mask);  x₁ = x₀ + concat(A V) W_o
//   logits = rms(x₁) W_u + b_u;  loss = mean cross-entropy over the scored positions
//   gradients (tf.variableGrads), global-norm clipping to 1, Adam (lr 1e-3, β 0.9/0.999, ε 1e-8).
// The batch (the induction task's rule) is drawn in JavaScript each step, as ours draws it in C++.
// Where tfjs differs — each choice is tfjs's faster way (both ways are selectable and measured):
// - `embedding: 'onehot'` (the default) looks tokens up as one-hot(tokens) · E, a product ours does not
//   compute (+2·R·V·d_model flops forward and as many backward per model: 3.5 % more at the reference
//   configuration), because tfjs-wasm's GatherV2 takes about ten times as long as that product;
//   `'gather'` is tf.gather with a scatter-add gradient (tf.scatterND via tf.customGrad: tfjs's own
//   gradient of gather needs UnsortedSegmentSum, which the wasm backend lacks) and matches ours exactly;
// - `gradients: 'explicit'` (the default) gives every matMul a custom gradient that transposes its
//   operand first: in tfjs 4.x the wasm backend runs matMul through XNNPACK only when neither operand
//   is transposed, and tfjs's stock gradient asks for transposed operands (`'stock'` keeps it);
// - ours also computes, every step, each attention row's entropy and Jacobian norm, the attention
//   logits' gradient norm, the accuracy and finiteness checks; the peer computes only the loss.
import { createRequire, register } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as tf from '@tensorflow/tfjs-core';
import * as tfwasm from '@tensorflow/tfjs-backend-wasm';

export const REFERENCE = { layers: 1, heads: 4, d_model: 64, d_k: 16, d_v: 16, seq_len: 16, vocab: 16, batch: 32 };

// The wasm backend, one thread, SIMD (refused without: the comparison would be unfair to tfjs).
export async function initTfjsWasm() {
  const require = createRequire(import.meta.url);
  const dir = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + path.sep;
  tfwasm.setWasmPaths(dir);
  tfwasm.setThreadsCount(1);
  if (!(await tf.setBackend('wasm'))) throw new Error('cannot initialise the tfjs wasm backend');
  await tf.ready();
  if (!(await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT'))) throw new Error('tfjs wasm backend without SIMD');
  // tfjs-core's node bundle has no gradients (the @tensorflow/tfjs union package adds them); this is
  // tfjs's documented side-effect import for a core-only setup, resolved the way a bundler would.
  register('./tfjs_esm_resolve.mjs', import.meta.url);
  await import('@tensorflow/tfjs-core/dist/register_all_gradients.js');
  return { version: tf.version_core, threads: tfwasm.getThreadsCount() };
}

function mulberry32(seed) {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normals(rng, count, sd) {
  const out = new Float32Array(count);
  for (let i = 0; i < count; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - rng())), phi = 2 * Math.PI * rng();
    out[i] = r * Math.cos(phi) * sd;
    if (i + 1 < count) out[i + 1] = r * Math.sin(phi) * sd;
  }
  return out;
}

// The induction task of src/core/train/train_tasks.cpp: m distinct symbols repeated, m ∈ [max(2, ⌈n/4⌉), n/2];
// every position t ≥ m is scored with the token that followed its earlier occurrence.
function inductionBatch(rng, { batch, seq_len: n, vocab }) {
  const tokens = new Int32Array(batch * n);
  const onehot = new Float32Array(batch * n * vocab);
  let scored = 0;
  const symbols = new Int32Array(vocab);
  const lo = Math.max(2, Math.floor((n + 3) / 4)), hi = n / 2;
  for (let b = 0; b < batch; ++b) {
    const m = lo + Math.floor(rng() * (hi - lo + 1));
    for (let i = 0; i < vocab; ++i) symbols[i] = i;
    for (let i = 0; i < m; ++i) {
      const j = i + Math.floor(rng() * (vocab - i));
      [symbols[i], symbols[j]] = [symbols[j], symbols[i]];
    }
    for (let t = 0; t < n; ++t) {
      tokens[b * n + t] = symbols[t % m];
      if (t >= m) {
        onehot[(b * n + t) * vocab + symbols[(t + 1) % m]] = 1;
        ++scored;
      }
    }
  }
  return { tokens, onehot, scored };
}

// A batch as the tensors the loss reads (inside a tidy): the scored targets one-hot, their count, the tokens.
export function batchTensors(cfg, { tokens, onehot, scored }, embedding) {
  const R = cfg.batch * cfg.seq_len;
  const batch = { onehot: tf.tensor2d(onehot, [R, cfg.vocab]), scored: tf.scalar(scored) };
  if (embedding === 'gather') {
    batch.idx = tf.tensor1d(tokens, 'int32');
    batch.idx2 = tf.tensor2d(tokens, [R, 1], 'int32');
  } else {
    batch.onehotTokens = tf.oneHot(tf.tensor1d(tokens, 'int32'), cfg.vocab);
  }
  return batch;
}

// Both models' loss on ours' probe batch with ours' weights (bench_train_probe_json and the parameter
// arrays): the peer computes the same function when these agree with ours' losses to float rounding.
export function lossWithWeights(cfg, probe, parameters) {
  const R = probe.batch * probe.seq_len;
  const onehot = new Float32Array(R * cfg.vocab);
  let scored = 0;
  probe.targets.forEach((t, r) => { if (t >= 0) { onehot[r * cfg.vocab + t] = 1; ++scored; } });
  const c = { ...cfg, batch: probe.batch, seq_len: probe.seq_len };
  return [0, 1].map((w) => {
    const byName = Object.fromEntries(probe.tensors.map((t) => [t.name, t]));
    const model = new TfjsModel(c, probe.alpha[w], (name, rows, cols) => {
      const t = byName[name];
      if (!t || t.rows !== rows || t.cols !== cols) throw new Error(`ours has no ${rows}×${cols} tensor ${name}`);
      return parameters[w].slice(t.offset, t.offset + rows * cols);
    });
    const loss = tf.tidy(() => model.loss(batchTensors(c, { tokens: Int32Array.from(probe.tokens), onehot, scored }, 'gather'),
      { matMul: tf.matMul, embedding: 'gather' }).dataSync()[0]);
    model.dispose();
    return loss;
  });
}

// matMul whose gradient multiplies by explicitly transposed operands (XNNPACK's fast path in tfjs-wasm).
const swapLast = (rank) => [...Array(rank - 2).keys(), rank - 1, rank - 2];
const matMulExplicit = tf.customGrad((a, b, save) => {
  save([a, b]);
  return {
    value: tf.matMul(a, b),
    gradFunc: (dy, [sa, sb]) => [tf.matMul(dy, tf.transpose(sb, swapLast(sb.rank))),
      tf.matMul(tf.transpose(sa, swapLast(sa.rank)), dy)],
  };
});

// One model: its variables (named and laid out as ours: row-major, one layer) and its loss on a batch.
// values(name, rows, cols, sd) gives each tensor's initial entries (sd: its unit-init standard deviation).
export class TfjsModel {
  constructor(cfg, alpha, values) {
    this.cfg = cfg;
    this.alpha = alpha;
    const { d_model: d, heads: H, d_k: dk, d_v: dv, seq_len: n, vocab: V } = cfg;
    const shapes = { embed: [V, d, Math.sqrt(0.5)], pos: [n, d, Math.sqrt(0.5)], 'L0.W_q': [d, H * dk, 1 / Math.sqrt(d)],
      'L0.W_k': [d, H * dk, 1 / Math.sqrt(d)], 'L0.W_v': [d, H * dv, 1 / Math.sqrt(d)],
      'L0.W_o': [H * dv, d, 1 / Math.sqrt(H * dv)], unembed: [d, V, 1 / Math.sqrt(d)], 'unembed.b': [1, V, 0] };
    this.vars = {};
    for (const [name, [r, c, sd]] of Object.entries(shapes))
      this.vars[name] = tf.variable(tf.tensor2d(values(name, r, c, sd), [r, c]), true, `${name}#${TfjsModel.count++}`);
    const mask = new Float32Array(n * n);
    for (let i = 0; i < n; ++i) for (let j = i + 1; j < n; ++j) mask[i * n + j] = -Infinity;
    this.mask = tf.keep(tf.tensor2d(mask, [n, n]));
    this.alphaScalar = tf.keep(tf.scalar(alpha));
  }

  static count = 0;

  static rms(x) { return tf.mul(x, tf.rsqrt(tf.add(tf.mean(tf.square(x), -1, true), 1e-6))); }

  // Token embeddings, R × d_model: the peer's two ways (see the top of the file).
  embed(batch, embedding, matMul) {
    const E = this.vars.embed;
    if (embedding === 'gather') {
      const { idx, idx2 } = batch;
      return tf.customGrad((e) => ({ value: tf.gather(e, idx), gradFunc: (dy) => tf.scatterND(idx2, dy, e.shape) }))(E);
    }
    if (matMul === tf.matMul) return tf.matMul(batch.onehotTokens, E);
    // Only E's gradient: the one-hot matrix is data.
    const oh = batch.onehotTokens;
    return tf.customGrad((e) => ({ value: tf.matMul(oh, e), gradFunc: (dy) => tf.matMul(tf.transpose(oh), dy) }))(E);
  }

  loss(batch, { matMul, embedding }) {
    const { batch: B, seq_len: n, d_model: d, heads: H, d_k: dk, d_v: dv } = this.cfg;
    const v = this.vars;
    const { onehot, scored } = batch;
    const x0 = tf.reshape(tf.add(tf.reshape(this.embed(batch, embedding, matMul), [B, n, d]), v.pos), [B * n, d]);
    const u = TfjsModel.rms(x0);
    const heads = (w, width, perm) => tf.transpose(tf.reshape(matMul(u, w), [B, n, H, width]), perm);
    let q = heads(v['L0.W_q'], dk, [0, 2, 1, 3]);                    // B H n d_k
    if (this.alpha !== 1) q = tf.mul(q, this.alphaScalar);
    const kT = heads(v['L0.W_k'], dk, [0, 2, 3, 1]);                 // B H d_k n
    const vh = heads(v['L0.W_v'], dv, [0, 2, 1, 3]);                 // B H n d_v
    const att = tf.softmax(tf.add(matMul(q, kT), this.mask));         // B H n n
    const z = tf.reshape(tf.transpose(matMul(att, vh), [0, 2, 1, 3]), [B * n, H * dv]);
    const x1 = tf.add(x0, matMul(z, v['L0.W_o']));
    const logits = tf.add(matMul(TfjsModel.rms(x1), v.unembed), v['unembed.b']);
    return tf.div(tf.neg(tf.sum(tf.mul(onehot, tf.logSoftmax(logits)))), scored);
  }

  dispose() {
    tf.dispose([...Object.values(this.vars), this.mask, this.alphaScalar]);
  }
}

// Models A (α = 1/√d_k) and B (α = 1) from equal initial weights, trained on the same batches.
export class TfjsPair {
  constructor(cfg = REFERENCE, { seed = 1, gradients = 'explicit', embedding = 'onehot', clip = 1.0 } = {}) {
    this.cfg = cfg;
    this.clip = clip;
    this.how = { matMul: gradients === 'stock' ? tf.matMul : matMulExplicit, embedding };
    this.dataRng = mulberry32(seed * 7919 + 17);
    const draws = {};
    const initRng = mulberry32(seed);
    // A and B start from equal draws; biases from zero.
    const init = (name, rows, cols, sd) => (sd ? (draws[name] ??= normals(initRng, rows * cols, sd)) : new Float32Array(rows * cols));
    this.models = [new TfjsModel(cfg, 1 / Math.sqrt(cfg.d_k), init), new TfjsModel(cfg, 1, init)];
    this.optimizers = this.models.map(() => tf.train.adam(1e-3, 0.9, 0.999, 1e-8));
    this.steps = 0;
    this.lastLoss = [NaN, NaN];
  }

  stepModel(w, batch) {
    const model = this.models[w];
    const list = Object.values(model.vars);
    const { value, grads } = tf.variableGrads(() => model.loss(batch, this.how), list);
    const sq = Object.values(grads).map((g) => tf.sum(tf.square(g)));
    const norm = tf.sqrt(tf.addN(sq));
    const factor = tf.minimum(1, tf.div(this.clip, norm));
    const scaled = {};
    for (const [name, g] of Object.entries(grads)) scaled[name] = tf.mul(g, factor);
    this.optimizers[w].applyGradients(scaled);
    this.lastLoss[w] = value.dataSync()[0];  // the curve's point, as ours records every step
  }

  step(count = 1) {
    for (let s = 0; s < count; ++s) {
      const { tokens, onehot, scored } = inductionBatch(this.dataRng, this.cfg);
      tf.tidy(() => {
        const batch = batchTensors(this.cfg, { tokens, onehot, scored }, this.how.embedding);
        for (let w = 0; w < 2; ++w) this.stepModel(w, batch);
      });
      ++this.steps;
    }
    return count;
  }

  dispose() {
    for (const m of this.models) m.dispose();
    for (const o of this.optimizers) o.dispose();
  }
}

// Flops of the matrix products of one step of the pair (forward and backward of both models; elementwise
// work not counted) as ours computes them; `onehotEmbedding` adds the peer's one-hot product.
export function stepFlops({ batch, seq_len: n, d_model: d, heads: H, d_k: dk, d_v: dv, vocab: V }, onehotEmbedding = false) {
  const R = batch * n;
  const forward = R * d * H * (2 * dk + dv) + batch * H * n * n * (dk + dv) + R * H * dv * d + R * d * V;
  const embedding = onehotEmbedding ? 2 * R * V * d : 0;  // forward and E's gradient only
  return 2 * 2 * (3 * forward + embedding);  // 2 flops per multiply-add; backward = 2 × forward; 2 models
}

async function main() {
  const argv = process.argv.slice(2);
  const arg = (name, dflt) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : dflt; };
  const steps = parseInt(arg('--steps', '100'), 10);
  const info = await initTfjsWasm();
  // The embedding's scatter-add must sum repeated tokens, else its gradient would be wrong.
  const sum = tf.scatterND(tf.tensor2d([0, 0, 1], [3, 1], 'int32'), tf.tensor2d([1, 2, 3], [3, 1]), [2, 1]).dataSync();
  if (sum[0] !== 3 || sum[1] !== 3) throw new Error(`tf.scatterND does not add repeated indices: ${sum}`);
  // Every way of computing the gradient trains the same numbers (to float rounding).
  const ways = [['explicit', 'onehot'], ['stock', 'onehot'], ['explicit', 'gather'], ['stock', 'gather']].map(([g, e]) => {
    const p = new TfjsPair(REFERENCE, { gradients: g, embedding: e });
    p.step(3);
    const l = [...p.lastLoss];
    p.dispose();
    return { way: `${g}/${e}`, l };
  });
  for (const w of ways)
    if (w.l.some((x, i) => !(Math.abs(x - ways[0].l[i]) <= 1e-4 * Math.abs(ways[0].l[i]))))
      throw new Error(`${w.way} trains other numbers than ${ways[0].way}: ${w.l} vs ${ways[0].l}`);
  const pair = new TfjsPair(REFERENCE, { gradients: arg('--gradients', 'explicit'), embedding: arg('--embedding', 'onehot') });
  pair.step(3);
  const first = [...pair.lastLoss];
  const tensors = tf.memory().numTensors;
  const t0 = performance.now();
  pair.step(steps);
  const s = (performance.now() - t0) / 1e3;
  if (tf.memory().numTensors !== tensors) throw new Error(`tensors leak: ${tensors} → ${tf.memory().numTensors}`);
  console.log(`tfjs ${info.version} wasm (${info.threads} thread): ${steps} steps in ${s.toFixed(2)} s = ` +
              `${(steps / s).toFixed(1)} steps/s; loss A ${first[0].toFixed(3)} → ${pair.lastLoss[0].toFixed(3)}, ` +
              `B ${first[1].toFixed(3)} → ${pair.lastLoss[1].toFixed(3)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
