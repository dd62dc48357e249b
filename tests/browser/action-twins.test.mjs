// action-twins.test.mjs — the canvas buttons that change the playground, by keyboard alone through their parallel-DOM
// twins: Re-roll weights, Shuffle tokens, the Masks panel's Clear painted cells and Clear padding, and the
// worksheet's Show me. Each is reached by Tab and pressed with Enter; the state, the canvas's result and the live
// region all show what the canvas button does (one app function behind both: src/app/panel_actions.cpp,
// src/app/worksheet/worksheet.h).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { REPO_ROOT, api, keyboard, pollUntil, setStateOk, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();
const en = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'strings', 'en.json'), 'utf8'));

describe('action button twins', { timeout: 150000 }, () => {
  let page;
  useApp((a) => { page = a.page; });
  const live = () => page.evaluate(() => document.getElementById('a11y-summary').textContent);
  const weights = async () => { const r = await api.getResult(page); return r.heads ? r.heads[0].weights : r.weights; };
  const description = () => page.evaluate(() => window.attnplay.a11y.description());
  let key, activeId, tabTo;
  before(() => ({ key, activeId, tabTo } = keyboard(page)));
  // The live region once it has settled on something new (it speaks 600 ms after the last change).
  const liveAfter = (before, pred = () => true, what = 'the live region') =>
    pollUntil(live, (t) => t && t !== before && pred(t), { what, timeout: 8000 });

  // wcag: 2.1.1 — Re-roll weights by keyboard in the parallel DOM
  // wcag: 4.1.2 — a native button named by the canvas's label
  it('Re-roll weights: Tab to its twin beside the seed, Enter draws new weights', async () => {
    await setStateOk(page, { sentence: 'the cat sat on the mat', seed: 5, panels: { controls: true } });
    await page.waitForSelector('#a11y-controls-reroll', { state: 'attached' });
    const name = await page.evaluate(() => document.getElementById('a11y-controls-reroll').textContent);
    assert.equal(name, en['controls.reroll']);
    assert.equal(await page.evaluate(() => document.getElementById('a11y-controls-reroll').tagName), 'BUTTON');
    await tabTo('a11y-controls', 'a11y-controls-reroll');
    const before = { seed: (await api.getState(page)).seed, weights: await weights(), live: await live() };
    await key('Enter');
    const state = await pollUntil(() => api.getState(page), (s) => s.seed === before.seed + 1, { what: 'seed + 1' });
    assert.equal(state.sentence, 'the cat sat on the mat', 'the tokens stay');
    const after = await pollUntil(weights, (w) => JSON.stringify(w) !== JSON.stringify(before.weights), { what: 'new weights' });
    assert.equal(after.length, before.weights.length);
    const summary = await page.evaluate(() => window.Module.ccall('attnplay_summary', 'string', [], []));
    await liveAfter(before.live, (t) => t.includes(summary), 'the live region saying the new weights');
    assert.equal(await activeId(), 'a11y-controls-reroll', 'the focus stays on the button');
  });

  // wcag: 2.1.1 — Shuffle tokens by keyboard in the parallel DOM
  it('Shuffle tokens: Tab to its twin in the Positional panel, Enter puts the tokens in another order and says the gap', async () => {
    await setStateOk(page, { sentence: 'dog bites man every day', seed: 2, positional_encoding: 'none', panels: { positional: true } });
    await page.waitForSelector('#a11y-positional-shuffle', { state: 'attached' });
    assert.equal(await page.evaluate(() => document.getElementById('a11y-positional-shuffle').textContent), en['positional.shuffle']);
    await tabTo('a11y-controls', 'a11y-positional-shuffle');
    const before = { tokens: (await api.getResult(page)).tokens, live: await live() };
    await key('Enter');
    const state = await pollUntil(() => api.getState(page), (s) => s.sentence !== 'dog bites man every day', { what: 'a shuffled sentence' });
    assert.deepEqual(state.sentence.split(' ').sort(), before.tokens.slice().sort(), 'the same tokens');
    const r = await pollUntil(() => api.getResult(page), (x) => x.tokens.join(' ') === state.sentence, { what: 'the result in the new order' });
    assert.notDeepEqual(r.tokens, before.tokens);
    // The canvas's line under the buttons, in its twin and said once: without positions, the same rows, permuted.
    const status = await pollUntil(() => page.evaluate(() => document.getElementById('a11y-positional-status')?.textContent || ''),
      (t) => t.includes(en['positional.same_rows']), { what: 'the last shuffle\'s gap in the Positional section' });
    assert.ok(status.startsWith(en['positional.last_shuffle_off'].split('{gap}')[0]), status);
    await liveAfter(before.live, (t) => t.includes(status), 'the live region saying the last shuffle');
    assert.equal(await activeId(), 'a11y-positional-shuffle', 'the focus stays on the button');
  });

  // wcag: 2.1.1 — the Masks panel's Clear buttons by keyboard in the parallel DOM
  it('Clear painted cells and Clear padding: Tab to each twin in the Masks panel, Enter clears it', async () => {
    await setStateOk(page, { sentence: 'a b c', seed: 1, mask: 'none', mask_cells: [[0, 1, 0], [0, 0, 1], [0, 0, 0]],
      key_padding: [false, false, true], panels: { masks: true } });
    await page.waitForSelector('#a11y-masks-clear_padding', { state: 'attached' });
    for (const [id, label] of [['a11y-masks-clear_cells', 'masks.clear_cells'], ['a11y-masks-clear_padding', 'masks.clear_padding']])
      assert.equal(await page.evaluate((i) => document.getElementById(i).textContent, id), en[label]);
    await pollUntil(weights, (w) => w[0][1] === 0 && w[1][2] === 0 && w[0][2] === 0, { what: 'painted and padded cells at 0' });

    await tabTo('a11y-controls', 'a11y-masks-clear_cells');
    let before = await live();
    await key('Enter');
    await pollUntil(() => api.getState(page), (s) => s.mask_cells === null, { what: 'no painted cells' });
    let w = await pollUntil(weights, (x) => x[0][1] > 0 && x[1][2] === 0, { what: 'the painted cells free, the padded key still blocked' });
    assert.equal(w[0][2], 0);
    assert.deepEqual((await api.getState(page)).key_padding, [false, false, true]);
    let summary = await page.evaluate(() => window.Module.ccall('attnplay_summary', 'string', [], []));
    await liveAfter(before, (t) => t.includes(summary), 'the live region after Clear painted cells');

    await key('Tab');
    assert.equal(await activeId(), 'a11y-masks-clear_padding', 'Clear padding follows, as on the canvas');
    before = await live();
    await key('Enter');
    await pollUntil(() => api.getState(page), (s) => s.key_padding.every((p) => !p), { what: 'no padding' });
    w = await pollUntil(weights, (x) => x.every((row) => row.every((v) => v > 0)), { what: 'every cell free' });
    summary = await page.evaluate(() => window.Module.ccall('attnplay_summary', 'string', [], []));
    await liveAfter(before, (t) => t.includes(summary), 'the live region after Clear padding');
  });

  // wcag: 2.1.1 — the worksheet's Show me by keyboard in the parallel DOM
  it('Show me: offered under the stage of the cell Tab reached, Enter writes out that cell\'s arithmetic', async () => {
    await setStateOk(page, { exercise: 'exercise-17', panels: { worksheet: true } });
    await page.waitForSelector('#a11y-ws-scores-1-1', { state: 'attached' });
    assert.equal(await page.$('#a11y-worksheet-show-scores'), null, 'no Show me before a cell is picked');
    await tabTo('a11y-worksheet', 'a11y-ws-scores-2-1', { max: 60 });
    await page.waitForSelector('#a11y-worksheet-show-scores', { state: 'attached' });
    assert.equal(await page.evaluate(() => document.getElementById('a11y-worksheet-show-scores').textContent), en['worksheet.show_me']);
    assert.equal(await page.$('#a11y-worksheet-show-Q'), null, 'only under the picked cell\'s stage, as on the canvas');
    assert.equal(await api.itemRect(page, 'worksheet:breakdown'), null, 'nothing written out on the canvas yet');
    // Tab goes on through the stage's cells (each picked in turn, as clicking it on the canvas picks it) to its Show me,
    // which says which cell it will write out: the one left last.
    const cells = await page.evaluate(() => document.querySelectorAll('#a11y-worksheet table')[3].querySelectorAll('input').length);
    let last = '';
    for (let i = 0; i < cells && (await activeId()) !== 'a11y-worksheet-show-scores'; i++) { last = await activeId(); await key('Tab'); }
    assert.equal(await activeId(), 'a11y-worksheet-show-scores', 'Tab goes on from the stage\'s cells to its Show me');
    const [, row, col] = last.match(/^a11y-ws-scores-(\d+)-(\d+)$/);
    const lastLabel = await page.evaluate((i) => document.getElementById(i).getAttribute('aria-label'), last);
    await pollUntil(() => page.evaluate(() => document.getElementById('a11y-worksheet-show-scores-for')?.textContent.trim()),
      (t) => t === lastLabel, { what: 'Show me described by the cell it refers to' });
    const before = await live();
    await key('Enter');
    // The canvas writes the breakdown out under the stage, and the twin shows the same text (the app's one text).
    const shown = await pollUntil(() => page.evaluate(() => document.getElementById('a11y-ws-scores-breakdown')?.textContent || ''),
      Boolean, { what: 'the arithmetic under the scores stage' });
    const d = await description();
    const text = d.worksheet.stages.find((s) => s.id === 'scores').breakdown;
    assert.equal(shown, text.split('\n').map((l) => l.trim()).join(''));
    assert.ok(text.startsWith(`S[${row},${col}] = q_${row}·k_${col}`), `the cell left last, row ${row} column ${col}: ${text}`);
    const rect = await pollUntil(() => api.itemRect(page, 'worksheet:breakdown'), (r) => r && r.h > 0, { what: 'the canvas\'s breakdown' });
    assert.ok(rect.w > 0);
    await liveAfter(before, (t) => t.includes(text.split('\n')[0].trim()), 'the live region saying the arithmetic');
    assert.equal(await activeId(), 'a11y-worksheet-show-scores', 'the focus stays on Show me');
  });
});
