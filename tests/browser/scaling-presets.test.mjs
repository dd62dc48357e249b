// scaling-presets.test.mjs — the "Scale by 1/√d_k" checkbox flips state.scale and multiplies the
// logits by exactly √d_k; every preset is selectable through the Preset combo, and the seed
// examples come out with their (corrected) numbers, recomputed here from first principles.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, assertClose, attention, center, click, itemRect, matmulT, setStateOk, siteBuiltTest, softmax, useApp, waitForApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

// The app computes in float32 (relative error ~1e-7 per operation); the seed notes quote four
// decimals (rounding error ≤ 5e-5). 5e-4 absorbs both with a wide margin yet still catches any
// real slip, e.g. the cat-sat-mat article's +0.01 errors or a softmax of [0.5, 0.18, 0.5].
const TOL = 5e-4;

const PRESETS = ['default', 'sdpa-example-1', 'cat-sat-mat', 'self-attn-example-1', 'distant-dependency', 'bahdanau',
  'softmax-article', 'saturation', 'dog-bites-man'];

describe('scaling checkbox and presets through the UI', { timeout: 150000 }, () => {
  let page;
  useApp((opened) => ({ page } = opened));

  async function clickScaleCheckbox() {
    const cb = await itemRect(page, 'Scale by 1/√d_k');
    await click(page, { x: cb.x + cb.h / 2, y: cb.y + cb.h / 2 });  // the box is the square at the item's left
  }

  it('clicking the checkbox flips scale and rescales the logits by √d_k', async () => {
    await setStateOk(page, { preset: 'default' });
    await setStateOk(page, { d_k: 64 });
    await waitFrames(page, 1);
    const s0 = await api.getState(page);
    const r0 = await api.getResult(page);
    assert.equal(s0.scale, true);
    assert.equal(r0.d_k, 64);
    // The app's numbers for its own Q, K, V agree with softmax(QKᵀ/√d_k)·V done here in double precision.
    const ref = attention(r0.Q, r0.K, r0.V);
    assertClose(r0.logits, ref.logits, 1e-4, 'scaled logits vs first principles');
    assertClose(r0.weights, ref.weights, 1e-5, 'weights vs first principles');
    assertClose(r0.output, ref.output, 1e-4, 'output vs first principles');

    await clickScaleCheckbox();
    const { state: s1, result: r1 } = await waitForApp(page, ({ state }) => state.scale === false,
      { what: 'state.scale to become false after clicking the checkbox', withResult: true });
    assert.equal(s1.d_k, 64, 'd_k untouched');
    // Unscaled logits are the raw scores; scaled ones are scores / √d_k (temperature 1).
    const root = Math.sqrt(r0.d_k);
    for (let i = 0; i < r0.logits.length; i++) {
      for (let j = 0; j < r0.logits[i].length; j++) {
        const a = r0.logits[i][j], b = r1.logits[i][j];
        assert.ok(Math.abs(b - a * root) <= 1e-4 * Math.max(1, Math.abs(b)),
          `logit[${i}][${j}]: unscaled ${b} should be √${r0.d_k} × scaled ${a} = ${a * root}`);
        assert.ok(Math.abs(b - r1.scores[i][j]) <= 1e-4 * Math.max(1, Math.abs(b)), 'unscaled logits equal the raw scores');
      }
    }
    assert.deepEqual(r1.scores, r0.scores, 'the raw scores do not depend on scaling');

    await clickScaleCheckbox();
    const { result: r2 } = await waitForApp(page, ({ state }) => state.scale === true,
      { what: 'state.scale to become true after the second click', withResult: true });
    assertClose(r2.logits, r0.logits, 1e-6, 'logits after toggling back');
  });

  // Opens the Preset combo with a click and clicks the preset's item; waits until it is applied.
  const chosen = new Set();
  async function choosePreset(id) {
    const combo = await itemRect(page, 'Preset');
    await click(page, center(combo));
    const item = await itemRect(page, `preset:${id}`);  // drawn only while the combo's popup is open
    const first = chosen.size === 0;
    if (first) {
      const listed = await page.evaluate((ids) => Promise.all(ids.map((p) => window.attnplay.ui.itemRect('preset:' + p))), PRESETS);
      assert.ok(listed.every((r) => r !== null), `the open combo lists every preset: ${JSON.stringify(listed)}`);
    }
    const vp = page.viewportSize();
    assert.ok(item.y >= 0 && item.y + item.h <= vp.height, `preset:${id} is on screen: ${JSON.stringify(item)}`);
    await click(page, center(item));
    const { state } = await waitForApp(page, ({ state: s }, want) => s.preset === want, { arg: id, what: `preset ${id} to be applied` });
    if (first) {  // the popup closed again
      await waitFrames(page, 1);
      assert.equal(await api.itemRect(page, `preset:${id}`), null, 'the combo closes after choosing');
    }
    chosen.add(id);
    return { state, result: await api.getResult(page) };
  }

  it('sdpa-example-1: weights [0.7311, 0.2689], output [3.6553, 0.8068, 0]', async () => {
    const { state, result } = await choosePreset('sdpa-example-1');
    assert.equal(state.mode, 'explicit');
    const Q = [[1, 0, 1, 0]], K = [[1, 0, 1, 0], [0, 1, 0, 1]], V = [[5, 0, 0], [0, 3, 0]];
    const want = attention(Q, K, V);  // √4 = 2: scores [2, 0] → logits [1, 0]
    assert.equal(result.d_k, 4);
    assertClose(result.scores, want.scores, TOL, 'scores');
    assertClose(result.weights, want.weights, TOL, 'weights');
    assertClose(result.output, want.output, TOL, 'output');
    assertClose(want.weights[0], [0.7311, 0.2689], TOL, 'first-principles weights vs the note');  // the note's numbers
    assertClose(want.output[0], [3.6553, 0.8068, 0], TOL, 'first-principles output vs the note');
  });

  it('cat-sat-mat: the corrected raw scores', async () => {
    const { result } = await choosePreset('cat-sat-mat');
    const X = [[0.1, 0.2, 0.3, 0.4], [0.2, 0.1, 0.4, 0.3], [0.4, 0.3, 0.2, 0.1],
      [0.3, 0.4, 0.1, 0.2], [0.1, 0.2, 0.3, 0.4], [0.2, 0.3, 0.4, 0.1]];  // The cat sat on the mat
    const want = attention(X, X, X);  // W = I: Q = K = V = X, d_k = 4
    assert.equal(result.d_k, 4);
    assertClose(result.scores, want.scores, TOL, 'raw scores X·Xᵀ');
    assertClose(result.weights, want.weights, TOL, 'weights');
    const [The, cat, sat, on] = [0, 1, 2, 3];
    // The article's slips, corrected: cat·The 0.28 (not 0.29), cat·sat 0.22, cat·on 0.20, sat·on 0.28, on·sat 0.28.
    const corrected = [[cat, The, 0.28], [cat, sat, 0.22], [cat, on, 0.20], [sat, on, 0.28], [on, sat, 0.28]];
    for (const [i, j, v] of corrected) {
      assert.ok(Math.abs(want.scores[i][j] - v) <= TOL, `first principles: score[${i}][${j}] = ${want.scores[i][j]} ≈ ${v}`);
      assert.ok(Math.abs(result.scores[i][j] - v) <= TOL, `app: score[${i}][${j}] = ${result.scores[i][j]} ≈ ${v}`);
    }
    assertClose(result.scores[The], [0.30, 0.28, 0.20, 0.22, 0.30, 0.24], TOL, 'The row of raw scores');
  });

  it('distant-dependency: "sat" puts 0.8015 on "cat" five words back, the baseline on "fluffy"', async () => {
    const { state, result } = await choosePreset('distant-dependency');
    assert.equal(state.selected_row, 6, 'the query row is "sat"');
    const X = [[0, 0, 0.2, 0], [1, 1, 0, 0], [0, 0.3, 0, 0], [0, 0, 0, 0.5], [0, 0, 0.5, 0],
      [0, 0, 1, 0], [0, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0.2, 0], [1, 0, 0, 0]];  // [noun, subject, descriptor, verb]
    const Wq = [[0, 0], [0, 0], [0, 0], [3, 3]], Wk = [[1, 0], [0, 1], [0, 0], [0, 0]];
    const mul = (A, W) => A.map((x) => W[0].map((_, c) => x.reduce((acc, v, i) => acc + v * W[i][c], 0)));
    const want = attention(mul(X, Wq), mul(X, Wk), X);  // W_v = I
    assertClose(result.weights, want.weights, TOL, 'weights');
    assert.ok(Math.abs(result.weights[6][1] - 0.8015) < 1e-4, `sat → cat ${result.weights[6][1]}`);
    assert.ok(result.weights[6][5] < 0.02, `sat → fluffy ${result.weights[6][5]}`);
  });

  it('self-attn-example-1: rows 0 and 2 of the weights', async () => {
    const { result } = await choosePreset('self-attn-example-1');
    const Q = [[1, 0], [0, 1], [1, 1]], V = [[2, 0], [0, 2], [2, 1]];
    const want = attention(Q, Q, V);  // K = Q, ÷√2
    assert.equal(result.d_k, 2);
    assertClose(result.weights, want.weights, TOL, 'weights');
    assertClose(result.output, want.output, TOL, 'output');
    assertClose(result.weights[0], [0.4011, 0.1978, 0.4011], TOL, 'row 0 (the note printed [0.5, 0.18, 0.5])');
    assertClose(result.weights[2], [0.2483, 0.2483, 0.5035], TOL, 'row 2 (the note printed [0.23, 0.23, 0.54])');
  });

  it('bahdanau: additive scores [0.3, 2.1, 0.5] → weights [0.1209, 0.7314, 0.1477]', async () => {
    const { result } = await choosePreset('bahdanau');
    // e_i = v_a·tanh(W s₁ + U h_i) with v_a = 3, W = U = 1, s₁ = 0.2 and h_i = atanh(e_i / 3) − 0.2.
    const e = [0.3, 2.1, 0.5].map((ei) => 3 * Math.tanh(0.2 + (Math.atanh(ei / 3) - 0.2)));
    const w = softmax(e);  // scaling off
    assertClose(result.scores[0], e, TOL, 'additive scores');
    assertClose(result.weights[0], w, TOL, 'weights');
    assertClose(result.output[0], w, TOL, 'context vector (V = I)');
    assertClose(w, [0.1209, 0.7314, 0.1477], TOL, 'first principles vs the note');
  });

  it('softmax-article: softmax([0.3, 0.2, 0.5]) = [0.3199, 0.2894, 0.3907]', async () => {
    const { state, result } = await choosePreset('softmax-article');
    assert.equal(state.scale, false);
    const want = softmax(matmulT([[1]], [[0.3], [0.2], [0.5]])[0]);
    assertClose(result.weights[0], want, TOL, 'weights');
    assertClose(want, [0.3199, 0.2894, 0.3907], TOL, 'first principles vs the article (which claimed [0.3, 0.2, 0.5])');
  });

  it('saturation: unscaled d_k = 512 gives a nearly one-hot row', async () => {
    const { state, result } = await choosePreset('saturation');
    assert.equal(state.d_k, 512);
    assert.equal(state.scale, false);
    // What the preset's story promises, on the row it opens on: that row and nearly every other is one-hot.
    const row = state.selected_row;
    assert.ok(result.max_weight[row] > 0.95, `the opening row "${state.tokens[row]}" is saturated (max ${result.max_weight[row]})`);
    const saturated = result.max_weight.filter((w) => w > 0.95).length;
    assert.ok(saturated >= 0.9 * result.max_weight.length, `nearly every row is one-hot (${saturated} of ${result.max_weight.length})`);
    const spread = (v) => { const m = v.reduce((a, b) => a + b, 0) / v.length; return Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / v.length); };
    const spreads = result.logits.map(spread), meanSpread = spreads.reduce((a, b) => a + b, 0) / spreads.length;
    assert.ok(Math.abs(meanSpread - Math.sqrt(512)) < 0.35 * Math.sqrt(512), `logit spread ≈ √512 ≈ 22.6 as the story says (mean ${meanSpread.toFixed(1)})`);
  });

  it('dog-bites-man: random embeddings of three words, no positional encoding', async () => {
    const { state, result } = await choosePreset('dog-bites-man');
    assert.equal(state.mode, 'random');
    assert.deepEqual(state.tokens, ['dog', 'bites', 'man']);
    assert.equal(state.positional_encoding, 'none');
    assert.equal(result.weights.length, 3);
  });

  it('default: back to random embeddings', async () => {
    const { state } = await choosePreset('default');
    assert.equal(state.mode, 'random');
    assert.equal(state.d_k, 64);
    assert.equal(state.scale, true);
    assert.deepEqual(state.tokens, ['The', 'cat', 'sat', 'on', 'the', 'mat']);
    assert.deepEqual([...chosen].sort(), [...PRESETS].sort(), 'every preset was chosen through the UI');
  });
});
