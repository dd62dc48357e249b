// embedding-drag.test.mjs — drag token 1's point in the embedding plane with real mouse events:
// exactly its (plane_x, plane_y) coordinates change, and the attention weights follow.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, center, drag, itemRect, setStateOk, siteBuiltTest, useApp, waitForApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

describe('embedding plane drag', { timeout: 120000 }, () => {
  let page;
  useApp((opened) => ({ page } = opened));

  it('moves token 1 in the plane and changes the weights', async () => {
    await setStateOk(page, { preset: 'default' });
    await setStateOk(page, { plane_x: 2, plane_y: 5 });  // not the default axes, so the mapping is really used
    const s0 = await api.getState(page);
    const r0 = await api.getResult(page);
    const { plane_x: px, plane_y: py } = s0;
    assert.deepEqual([px, py], [2, 5]);

    await waitFrames(page, 2);  // item rectangles are those of the last drawn frame: draw the new axes first
    const p1 = await itemRect(page, 'point:1');
    const plane = await itemRect(page, 'embedding plane');
    const from = center(p1);
    // Move towards the middle of the plane, far enough to matter but staying inside it.
    const mid = center(plane);
    const to = { x: from.x + Math.sign(mid.x - from.x || 1) * 35, y: from.y + Math.sign(mid.y - from.y || 1) * 25 };
    assert.ok(to.x > plane.x && to.x < plane.x + plane.w && to.y > plane.y && to.y < plane.y + plane.h,
      `drag target ${JSON.stringify(to)} inside the plane ${JSON.stringify(plane)}`);

    await drag(page, from, to, { steps: 6 });
    const { state: s1 } = await waitForApp(page, ({ state }, a) => state.embeddings[1][a.px] !== a.x0 ||
      state.embeddings[1][a.py] !== a.y0, { arg: { px, py, x0: s0.embeddings[1][px], y0: s0.embeddings[1][py] },
      what: 'token 1\'s embedding to change after the drag' });
    const r1 = await api.getResult(page);

    const e0 = s0.embeddings, e1 = s1.embeddings;
    console.log(`token 1 dims (${px}, ${py}): (${e0[1][px].toFixed(3)}, ${e0[1][py].toFixed(3)}) → ` +
      `(${e1[1][px].toFixed(3)}, ${e1[1][py].toFixed(3)}); selected row ${s0.selected_row} → ${s1.selected_row}`);
    assert.equal(e1.length, e0.length);
    for (let i = 0; i < e0.length; i++) {
      for (let c = 0; c < e0[i].length; c++) {
        const changed = e1[i][c] !== e0[i][c];
        const shouldChange = i === 1 && (c === px || c === py);
        if (!shouldChange) assert.equal(changed, false, `embedding[${i}][${c}] must not change (${e0[i][c]} → ${e1[i][c]})`);
      }
    }
    // Right is +x and up is +y in the plane: the point moved the way the mouse did.
    assert.ok(Math.abs(e1[1][px] - e0[1][px]) > 0.05 && Math.sign(e1[1][px] - e0[1][px]) === Math.sign(to.x - from.x),
      `x coordinate followed the mouse: ${e0[1][px]} → ${e1[1][px]}`);
    assert.ok(Math.abs(e1[1][py] - e0[1][py]) > 0.05 && Math.sign(e1[1][py] - e0[1][py]) === -Math.sign(to.y - from.y),
      `y coordinate followed the mouse (screen y grows downwards): ${e0[1][py]} → ${e1[1][py]}`);
    // Grabbing a point selects its row.
    assert.equal(s1.selected_row, 1);

    // Token 1's embedding feeds its query and its key, so row 1 and column 1 of the weights change.
    const diff = (a, b) => Math.max(...a.flatMap((row, i) => row.map((v, j) => Math.abs(v - b[i][j]))));
    assert.ok(diff(r0.weights, r1.weights) > 1e-4, `weights changed (max |Δ| ${diff(r0.weights, r1.weights)})`);
    assert.ok(Math.max(...r0.weights[1].map((v, j) => Math.abs(v - r1.weights[1][j]))) > 1e-4, 'row 1 of the weights changed');
  });
});
