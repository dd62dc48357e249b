// beyond-clicks.test.mjs — the "beyond one head" panels driven by real clicks, checked through
// getResult(): the cross-attention panel's decoder step and states (the note's 73% on "suis" and
// ≈ 0.85 on "étudiant"; additive and dot scores recomputed here from the states), the Shuffle
// button (same rows permuted without positional encoding, changed rows with it) and the heads
// trade-off table (a click on a row switches h); the heatmap's row scale (a click brightens a long,
// flat heatmap without touching the weights).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, center, click, decodePng, itemRect, pollUntil, setStateOk, siteBuiltTest, softmax, useApp, waitForApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

const maxAbsDiff = (A, B) => Math.max(...A.map((r, i) => Math.max(...r.map((v, j) => Math.abs(v - B[i][j])))));

describe('beyond one head, by clicks', { timeout: 170000 }, () => {
  let page;
  useApp((opened) => ({ page } = opened));

  it('cross-attention: stepping the decoder and the note\'s numbers', async () => {
    await setStateOk(page, { preset: 'bahdanau' });  // opens the Cross-attention panel at t = 2 ("am")
    assert.equal((await api.getState(page)).panels.cross, true);
    let r = (await api.getResult(page)).cross;
    assert.equal(r.step, 1);
    assert.deepEqual(r.source, ['Je', 'suis', 'étudiant']);
    // t = 2: the note's scores and weights (1.350 + 8.166 + 1.649 = 11.165; 73% on "suis").
    r.additive.scores[1].forEach((e, j) => assert.ok(Math.abs(e - [0.3, 2.1, 0.5][j]) < 1e-5, `e_2${j + 1} = ${e}`));
    softmax([0.3, 2.1, 0.5]).forEach((w, j) => assert.ok(Math.abs(r.additive.weights[1][j] - w) < 1e-5));
    assert.ok(Math.abs(r.additive.weights[1][1] - 0.7314) < 1e-4);
    // Additive and scaled-dot scores from the states, computed here (W_a = −I, U_a = 3I, v_a = 4·1).
    const S = r.decoder, H = r.encoder, d = S[0].length;
    const additive = S.map((s) => H.map((h) => s.reduce((acc, _, a) => acc + 4 * Math.tanh(-s[a] + 3 * h[a]), 0)));
    const dot = S.map((s) => H.map((h) => s.reduce((acc, v, a) => acc + v * h[a], 0)));
    assert.ok(maxAbsDiff(r.additive.scores, additive) < 1e-5, 'additive scores match v_aᵀ tanh(W_a s + U_a h)');
    assert.ok(maxAbsDiff(r.dot.scores, dot) < 1e-5, 'dot scores match s·h');
    const dotWeights = dot.map((row) => softmax(row.map((x) => x / Math.sqrt(d))));
    assert.ok(maxAbsDiff(r.dot.weights, dotWeights) < 1e-5, 'dot weights are softmax(s·h/√d)');
    // Click the right end of the step slider: t = 4, generating "student", ≈ 0.85 on "étudiant".
    const slider = await itemRect(page, 'Decoder step');
    await click(page, { x: slider.x + slider.w - 3, y: slider.y + slider.h / 2 });
    const { state } = await waitForApp(page, ({ state: st }) => st.cross.step === 3, { what: 'the decoder step to reach 3' });
    assert.equal(state.cross.step, 3);
    r = (await api.getResult(page)).cross;
    assert.equal(r.target[3], 'student');
    console.log(`t = 4 ("student"): weights ${r.additive.weights[3].map((w) => w.toFixed(4)).join(', ')}`);
    assert.ok(Math.abs(r.additive.weights[3][2] - 0.85) < 0.01, `α₄₃ ≈ 0.85 (${r.additive.weights[3][2]})`);
    // The "Seeded random states" radio swaps the states; the three scorings still compute.
    await click(page, center(await itemRect(page, 'cross:seeded')));
    await waitForApp(page, ({ state: st }) => st.cross.states === 'seeded', { what: 'seeded cross states' });
    r = (await api.getResult(page)).cross;
    assert.equal(r.decoder[0].length, 4);
    for (const k of ['additive', 'general', 'dot'])
      for (const row of r[k].weights) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5, `${k} rows sum to 1`);
    await setStateOk(page, { cross: { states: 'note', step: 1 }, panels: { cross: false } });
  });

  it('Shuffle tokens: the same rows permuted without positional encoding, changed rows with it', async () => {
    const shuffleGap = async (pe) => {
      await setStateOk(page, { preset: 'dog-bites-man', sentence: 'a dog bites one man today', positional_encoding: pe,
                               panels: { positional: true } });
      const s0 = await api.getState(page), y0 = (await api.getResult(page)).output;
      await click(page, center(await itemRect(page, 'Shuffle tokens')));
      const { state: s1 } = await waitForApp(page, ({ state: st }, old) => st.sentence !== old, { arg: s0.sentence, what: 'the shuffle' });
      const y1 = (await pollUntil(() => api.getResult(page), (v) => v.tokens.join(' ') === s1.sentence, { what: 'the shuffled result' })).output;
      // Row i of the shuffled sentence came from the old row whose embedding it carries.
      const perm = s1.embeddings.map((e) => s0.embeddings.findIndex((f) => f.every((v, c) => v === e[c])));
      assert.ok(perm.every((p) => p >= 0), 'every shuffled row is an old row');
      assert.deepEqual([...perm].sort((a, b) => a - b), perm.map((_, i) => i), 'a permutation');
      return Math.max(...y1.map((row, i) => Math.max(...row.map((v, c) => Math.abs(v - y0[perm[i]][c])))));
    };
    const off = await shuffleGap('none');
    const on = await shuffleGap('sinusoidal');
    console.log(`after Shuffle: max |Y(shuffled)_i − Y(before)_π(i)| without PE ${off}, with PE ${on}`);
    assert.ok(off < 1e-5, `permutation-equivariant without PE (${off})`);
    assert.ok(on > 1e-2, `not equivariant with PE (${on})`);
    await setStateOk(page, { preset: 'default', panels: { positional: false } });
  });

  it('heatmap row scale: a click shows the pattern of long, flat rows; the weights stay', async () => {
    const sentence = Array.from({ length: 300 }, (_, i) => `t${i}`).join(' ');
    await setStateOk(page, { preset: 'default', sentence, d_k: 4, heatmap_scale: 'absolute' });
    const meanLuma = async () => {
      await waitFrames(page, 3);
      const hm = await api.itemRect(page, 'heatmap');
      const { width, height, rgba } = decodePng(await page.screenshot({ type: 'png', clip: { x: hm.x, y: hm.y, width: hm.w, height: hm.h } }));
      let sum = 0;
      for (let i = 0; i < width * height; i++) sum += 0.2126 * rgba[4 * i] + 0.7152 * rgba[4 * i + 1] + 0.0722 * rgba[4 * i + 2];
      return sum / (width * height);
    };
    const before = await meanLuma();
    const w0 = (await api.getResult(page)).weights;
    await click(page, center(await itemRect(page, 'Row scale')));
    await waitForApp(page, ({ state: st }) => st.heatmap_scale === 'row', { what: 'the row scale after the click' });
    const after = await meanLuma();
    console.log(`heatmap mean luminance at n = 300: absolute ${before.toFixed(1)}, row scale ${after.toFixed(1)}`);
    assert.ok(after > before * 1.5, `brighter with the row scale (${before} → ${after})`);
    assert.deepEqual((await api.getResult(page)).weights, w0, 'the weights themselves are unchanged');
    await setStateOk(page, { preset: 'default', heatmap_scale: 'absolute' });
  });

  it('heads trade-off table: one row per h, a click switches h', async () => {
    await setStateOk(page, { preset: 'default', panels: { heads: true } });
    const opts = await pollUntil(async () => (await api.getResult(page)).heads_options, (o) => o.length > 0, { what: 'the trade-off table' });
    assert.deepEqual(opts.map((o) => o.heads), [1, 2, 4, 8]);
    assert.deepEqual(opts.map((o) => o.d_head), [64, 32, 16, 8]);
    await click(page, center(await itemRect(page, 'heads-option:4')));
    await waitForApp(page, ({ state: st }) => st.heads === 4, { what: 'h = 4 after the click' });
    const r = await api.getResult(page);
    assert.equal(r.heads.length, 4);
    const o4 = r.heads_options.find((o) => o.heads === 4);
    const ent = r.heads.flatMap((h) => h.entropy);
    const mean = ent.reduce((a, b) => a + b, 0) / ent.length;
    assert.ok(Math.abs(mean - o4.mean_entropy) < 1e-4, `the h = 4 row's mean entropy ${o4.mean_entropy} is the heads' (${mean})`);
    await setStateOk(page, { preset: 'default', panels: { heads: false } });
  });
});
