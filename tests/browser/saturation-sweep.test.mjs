// saturation-sweep.test.mjs — getResult().sweep is the Saturation panel's "same row as d_k grows"
// curves as data, and each point is what the page itself computes for the state at that d_k: with key
// padding, a causal mask and two heads (head 1's selected row, per-head d_k on the axis).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, setStateOk, siteBuiltTest, useApp } from './helpers.mjs';

siteBuiltTest();

describe('saturation sweep in getResult()', { timeout: 150000 }, () => {
  let page;
  useApp((opened) => ({ page } = opened));

  it('every sampled point equals the page\'s result at that d_k', async () => {
    const base = { preset: 'default', heads: 2, d_k: 64, mask: 'causal', selected_row: 4,
      key_padding: [false, true, false, false, false, false], temperature: 0.7 };
    await setStateOk(page, base);
    const { sweep } = await api.getResult(page);
    assert.ok(sweep && Array.isArray(sweep.d_k), 'getResult() has sweep.d_k');
    assert.equal(sweep.heads, 2);
    assert.equal(sweep.row, 4);
    for (const side of ['scaled', 'unscaled'])
      for (const stat of ['entropy', 'max_weight', 'jacobian_norm'])
        assert.equal(sweep[side][stat].length, sweep.d_k.length, `${side}.${stat} has one value per d_k`);
    assert.ok(sweep.d_k.every((d, i) => i === 0 || d > sweep.d_k[i - 1]), 'increasing d_k');
    assert.ok(sweep.d_k.every((d) => d * 2 <= 1024), 'only states the slider can reach');
    assert.ok(sweep.d_k.includes(32), 'the current per-head d_k (64 / 2) is a point');

    const picks = [0, sweep.d_k.indexOf(32), Math.floor(sweep.d_k.length * 0.75), sweep.d_k.length - 1];
    for (const k of picks) {
      for (const scale of [true, false]) {
        await setStateOk(page, { ...base, d_k: sweep.d_k[k] * 2, scale });
        const r = await api.getResult(page);
        assert.equal(r.d_k, sweep.d_k[k], 'the result scales by the per-head d_k');
        const head = r.heads[0];
        const side = scale ? 'scaled' : 'unscaled';
        for (const stat of ['entropy', 'max_weight', 'jacobian_norm']) {
          const want = head[stat][4], got = sweep[side][stat][k];
          assert.ok(Math.abs(got - want) <= 1e-4 * Math.abs(want) + 2e-5,
            `d_k ${sweep.d_k[k]} per head, ${side} ${stat}: sweep ${got}, computed ${want}`);
        }
      }
    }
    // The sweep does not depend on the slider: the same curve at every d_k.
    await setStateOk(page, { ...base, d_k: 512 });
    assert.deepEqual((await api.getResult(page)).sweep, sweep);
  });

  it('explicit matrices have one d_k: no sweep', async () => {
    await setStateOk(page, { preset: 'cat-sat-mat' });
    assert.equal((await api.getResult(page)).sweep, null);
    await setStateOk(page, { preset: 'default' });
  });
});
