// a11y-masks.test.mjs — the masks panel's grid in the parallel DOM: a checkbox per query × key cell named by both
// tokens, arrows moving between cells, Space blocking a cell as painting it on the canvas does (its weight becomes 0,
// the row renormalises), and a checkbox per key for its padding.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT, api, keyboard, pollUntil, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();
const en = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'strings', 'en.json'), 'utf8'));

describe('mask grid twins', { timeout: 120000 }, () => {
  let page;
  // The masks-and-heads workspace link opens the panel (no setState): everything after is keys.
  useApp((a) => { page = a.page; }, { path: '/?workspace=masks-heads' });
  const key = async (k) => { await page.keyboard.press(k); await waitFrames(page, 2); };
  const activeId = () => page.evaluate(() => document.activeElement && document.activeElement.id);
  const weights = async () => { const r = await api.getResult(page); return r.heads ? r.heads[0].weights : r.weights; };

  it('blocks and frees a cell and pads a key by keys alone', async () => {
    await page.waitForSelector('#a11y-mask-0-0', { state: 'attached' });
    await keyboard(page).toSection('a11y-controls');
    for (let i = 0; i < 60 && (await activeId()) !== 'a11y-mask-0-0'; i++) await key('Tab');
    assert.equal(await activeId(), 'a11y-mask-0-0', 'Tab reaches the grid\'s first cell');
    const r = await api.getResult(page);
    const name = (i, j) => en['a11y.mask_cell'].replace('{query}', r.tokens[i]).replace('{key}', r.key_tokens[j]);
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), name(0, 0));
    await key('ArrowDown');
    await key('ArrowRight');
    assert.equal(await activeId(), 'a11y-mask-1-1', 'arrows move between cells');
    assert.ok((await weights())[1][1] > 0);
    await key('Space');
    const blocked = await pollUntil(weights, (w) => w[1][1] === 0, { what: 'query 2 blocked from key 2' });
    assert.ok(Math.abs(blocked[1].reduce((a, b) => a + b, 0) - 1) < 1e-5, 'the row renormalises');
    await pollUntil(() => page.evaluate(() => document.getElementById('a11y-mask-1-1').checked), Boolean, { what: 'ticked' });
    assert.equal(await activeId(), 'a11y-mask-1-1', 'the focus stays on the cell');
    await key('Space');
    await pollUntil(weights, (w) => w[1][1] > 0, { what: 'the cell freed again' });

    for (let i = 0; i < 80 && (await activeId()) !== 'a11y-mask-pad-1'; i++) await key('Tab');
    assert.equal(await activeId(), 'a11y-mask-pad-1');
    await key('Space');
    await pollUntil(weights, (w) => w.every((row) => row[1] === 0), { what: 'key 2 padded in every row' });
    assert.deepEqual((await api.getState(page)).key_padding.slice(0, 2), [false, true]);
  });
});
