// heads_masks.test.mjs — "beyond one head": clicking a cell of the Masks panel's grid blocks it and
// its row renormalises; without positional encoding reversing the sentence reverses the output rows
// (permutation equivariance) and with it they change; additive and dot scores match a JS computation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, click, pollUntil, setStateOk, siteBuiltTest, useApp, waitForApp } from './helpers.mjs';

siteBuiltTest();

const maxAbsDiff = (A, B) => Math.max(...A.map((r, i) => Math.max(...r.map((v, j) => Math.abs(v - B[i][j])))));

describe('masks, permutation equivariance, score functions', { timeout: 150000 }, () => {
  let page;
  useApp((opened) => ({ page } = opened));

  it('clicking a mask cell blocks it and the row renormalises', async () => {
    await setStateOk(page, { preset: 'default', panels: { masks: true } });
    const before = await api.getResult(page);
    assert.ok(before.weights[2][1] > 0, 'cell (2,1) has weight before the click');
    const r = await pollUntil(() => api.itemRect(page, 'mask:2,1'), (v) => v && v.w > 0, { what: 'the mask grid cell (2,1)' });
    await click(page, { x: r.x + r.w / 2, y: r.y + r.h / 2 });
    const { state } = await waitForApp(page, ({ state: st }) => Array.isArray(st.mask_cells) && st.mask_cells[2][1] === 1,
      { what: 'the click to paint mask cell (2,1)' });
    const painted = state.mask_cells.flat().reduce((a, b) => a + b, 0);
    assert.equal(painted, 1, 'exactly one cell is painted');
    const res = await pollUntil(() => api.getResult(page), (v) => v.weights[2][1] === 0, { what: 'weight (2,1) to become 0' });
    for (const [i, row] of res.weights.entries()) {
      const sum = row.reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) < 1e-5, `row ${i} sums to 1 (${sum})`);
    }
    // The rest of row 2 is the old row without key 1, renormalised.
    const rest = before.weights[2].map((w, j) => (j === 1 ? 0 : w));
    const z = rest.reduce((a, b) => a + b, 0);
    for (let j = 0; j < rest.length; j++) assert.ok(Math.abs(res.weights[2][j] - rest[j] / z) < 1e-5, `row 2, key ${j} renormalised`);
    // Every key of a row masked: "no keys", zero weights, never NaN.
    await setStateOk(page, { mask_cells: before.weights.map((row, i) => row.map(() => (i === 0 ? 1 : 0))) });
    const none = await api.getResult(page);
    assert.deepEqual(none.weights[0], none.weights[0].map(() => 0));
    assert.ok(none.fully_masked_rows.includes(0));
    await setStateOk(page, { mask_cells: null, panels: { masks: false } });
  });

  it('a preset\'s own scenario (1 query × 3 keys) takes painted cells too', async () => {
    await setStateOk(page, { preset: 'bahdanau', panels: { masks: true, cross: false } });
    const r = await pollUntil(() => api.itemRect(page, 'mask:0,1'), (v) => v && v.w > 0, { what: 'the mask grid cell (0,1)' });
    await click(page, { x: r.x + r.w / 2, y: r.y + r.h / 2 });
    const res = await pollUntil(() => api.getResult(page), (v) => v.weights[0][1] === 0, { what: '"suis" to be masked' });
    // Without "suis" the step renormalises over "Je" and "étudiant": e^0.3 and e^0.5 only.
    const z = Math.exp(0.3) + Math.exp(0.5);
    console.log(`"am" without "suis": ${res.weights[0].map((w) => w.toFixed(4)).join(', ')}`);
    assert.ok(Math.abs(res.weights[0][0] - Math.exp(0.3) / z) < 1e-5);
    assert.ok(Math.abs(res.weights[0][2] - Math.exp(0.5) / z) < 1e-5);
    const st = await api.getState(page);
    assert.deepEqual(st.scenario.mask_cells, [[0, 1, 0]], 'the scenario carries the painted cell');
    await setStateOk(page, { preset: 'default', panels: { masks: false } });
  });

  it('without positional encoding, reversing the sentence reverses the output rows; with it, not', async () => {
    const gap = async (pe) => {
      await setStateOk(page, { preset: 'dog-bites-man', positional_encoding: pe });
      const a = (await api.getResult(page)).output;
      await setStateOk(page, { sentence: 'man bites dog' });
      const b = (await api.getResult(page)).output;
      return maxAbsDiff(b, [...a].reverse());
    };
    const off = await gap('none');
    const on = await gap('sinusoidal');
    console.log(`max |Y(man bites dog) − reversed Y(dog bites man)|: without PE ${off}, with PE ${on}`);
    assert.ok(off < 1e-5, `equivariant without PE (${off})`);
    assert.ok(on > 1e-2, `not equivariant with PE (${on})`);
  });

  it('additive (Bahdanau) and dot-product scores match a JS computation on the same states', async () => {
    const Q = [[0.5, -1.0], [0.2, 0.3]];
    const K = [[1.0, 0.0], [0.3, -0.7], [-0.4, 0.9]];
    const V = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
    const W_a = [[0.7, -0.2, 0.1], [0.4, 0.5, -0.3]];
    const U_a = [[-0.6, 0.2, 0.9], [0.1, -0.8, 0.3]];
    const v_a = [1.5, -0.5, 0.8];
    const mul = (x, W) => W[0].map((_, c) => x.reduce((s, v, i) => s + v * W[i][c], 0));
    const additive = Q.map((q) => K.map((k) => {
      const a = mul(q, W_a), b = mul(k, U_a);
      return v_a.reduce((s, v, t) => s + v * Math.tanh(a[t] + b[t]), 0);
    }));
    const dot = Q.map((q) => K.map((k) => q.reduce((s, v, i) => s + v * k[i], 0)));
    await setStateOk(page, { scenario: { Q, K, V, score: 'additive', W_a, U_a, v_a, scale: false } });
    const ra = await api.getResult(page);
    await setStateOk(page, { scenario: { Q, K, V, score: 'dot', scale: true } });
    const rd = await api.getResult(page);
    assert.ok(maxAbsDiff(ra.scores, additive) < 1e-5, `additive scores ${JSON.stringify(ra.scores)} vs ${JSON.stringify(additive)}`);
    assert.ok(maxAbsDiff(rd.scores, dot) < 1e-5, `dot scores ${JSON.stringify(rd.scores)} vs ${JSON.stringify(dot)}`);
    const scaled = dot.map((r) => r.map((v) => v / Math.sqrt(2)));
    assert.ok(maxAbsDiff(rd.logits, scaled) < 1e-5, 'dot logits are scaled by 1/√d_k');
    await setStateOk(page, { preset: 'default' });
  });
});
