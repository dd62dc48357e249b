// a11y-points.test.mjs — the embeddings plane's points in the parallel DOM: per token two number fields named
// "cat: x (dimension 3)" for its coordinates on the plane's axes. Arrow keys and a typed number with Enter move the
// point as dragging it does (getState's embedding, getResult's weights); a drag on the canvas shows in the fields;
// an embed's lock makes them aria-disabled and kept, its hide= leaves them out. The worksheet's exercise chooser is a
// native select whose choice, made by keys, changes the worksheet's cells in the DOM.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT, api, keyboard, center, drag, itemRect, openApp, pollUntil, setStateOk, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();
const en = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'strings', 'en.json'), 'utf8'));
const maxDiff = (a, b) => Math.max(...a.flatMap((row, i) => row.map((v, j) => Math.abs(v - b[i][j]))));

describe('embedding point twins', { timeout: 180000 }, () => {
  let app, page;
  useApp((a) => { app = a; page = a.page; });
  const key = async (k) => { await page.keyboard.press(k); await waitFrames(page, 2); };
  const activeId = () => page.evaluate(() => document.activeElement && document.activeElement.id);
  const field = (id) => page.evaluate((i) => {
    const e = document.getElementById(i);
    return e && { value: e.value, label: document.querySelector(`label[for="${i}"]`).textContent,
      valuetext: e.getAttribute('aria-valuetext'), disabled: e.getAttribute('aria-disabled') };
  }, id);
  const toSkipLinks = () => keyboard(page).toSkipLinks();

  // wcag: 2.5.1 — a point dragged on the embedding plane is moved by arrows or a typed number instead
  it('moves a point by arrows and by a typed number, and follows a canvas drag', async () => {
    // The example and the plane's axes are setup; everything after is keys (and one drag on the canvas).
    await setStateOk(page, { preset: 'default', plane_x: 2, plane_y: 5 });
    await page.waitForSelector('#a11y-point-1-x', { state: 'attached' });
    const s0 = await api.getState(page), r0 = await api.getResult(page);
    const token = r0.tokens[1];
    const name = (axis, dim) => en['a11y.point_axis'].replace('{token}', token).replace('{axis}', axis)
      .replace('{dim}', en['a11y.point_dim'].replace('{dim}', String(dim)));
    const fx = await field('a11y-point-1-x');
    assert.equal(fx.label, name('x', 3), 'named by the token, the axis and the dimension counted from 1');
    assert.equal(fx.valuetext, `${name('x', 3)} ${s0.embeddings[1][2].toFixed(3)}`);
    assert.equal((await field('a11y-point-1-y')).label, name('y', 6));

    await toSkipLinks();
    for (let i = 0; i < 6 && (await page.evaluate(() => document.activeElement.getAttribute('href'))) !== '#a11y-controls'; i++)
      await key('Tab');
    await key('Enter');
    for (let i = 0; i < 200 && (await activeId()) !== 'a11y-point-1-x'; i++) await key('Tab');
    assert.equal(await activeId(), 'a11y-point-1-x', 'Tab reaches token 2\'s x field');

    // ArrowUp: x grows by 0.1 (from the value shown, to 3 decimals); only that entry of the embeddings changes.
    await key('ArrowUp');
    const x1 = +s0.embeddings[1][2].toFixed(3) + 0.1;
    const s1 = await pollUntil(() => api.getState(page), (s) => Math.abs(s.embeddings[1][2] - x1) < 1e-4,
      { what: 'x of token 2 up by 0.1' });
    for (let i = 0; i < s0.embeddings.length; i++)
      for (let c = 0; c < s0.embeddings[i].length; c++)
        if (!(i === 1 && c === 2)) assert.equal(s1.embeddings[i][c], s0.embeddings[i][c], `embedding[${i}][${c}] kept`);
    const r1 = await api.getResult(page);
    assert.ok(maxDiff(r0.weights, r1.weights) > 1e-5, 'the weights follow');
    assert.equal(await activeId(), 'a11y-point-1-x', 'the focus stays on the field');

    // Tab to y, type a number, Enter: y is that number, the weights move again.
    await key('Tab');
    assert.equal(await activeId(), 'a11y-point-1-y');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('-1.5');
    await key('Enter');
    await pollUntil(() => api.getState(page), (s) => s.embeddings[1][5] === -1.5, { what: 'y of token 2 typed as -1.5' });
    const r2 = await api.getResult(page);
    assert.ok(maxDiff(r1.weights, r2.weights) > 1e-5, 'the weights follow the typed y');
    await pollUntil(() => field('a11y-point-1-y'), (f) => f.value === '-1.500' && f.valuetext.endsWith(' -1.500'),
      { what: 'the field says -1.500' });

    // A drag on the canvas moves the point; its twin shows where it went.
    await key('Escape');
    await waitFrames(page, 2);
    const p1 = center(await itemRect(page, 'point:1')), plane = center(await itemRect(page, 'embedding plane'));
    const to = { x: p1.x + Math.sign(plane.x - p1.x || 1) * 30, y: p1.y + Math.sign(plane.y - p1.y || 1) * 20 };
    await drag(page, p1, to, { steps: 6 });
    const s3 = await pollUntil(() => api.getState(page), (s) => Math.abs(s.embeddings[1][2] - s1.embeddings[1][2]) > 0.05,
      { what: 'the drag to move token 2' });
    await pollUntil(() => field('a11y-point-1-x'), (f) => f.value === s3.embeddings[1][2].toFixed(3),
      { what: `the twin to show the dragged x ${s3.embeddings[1][2].toFixed(3)}` });
  });

  it('lists the numbered exercises and the notes\' examples; a choice by keys changes the cells', async () => {
    await setStateOk(page, { exercise: 'exercise-3', panels: { worksheet: true } });
    await page.waitForSelector('#a11y-ws-Q-1-1', { state: 'attached' });
    const inputs = () => page.evaluate(() => [...document.querySelectorAll('#a11y-worksheet p')].map((p) => p.textContent).join('|'));
    const rows = () => page.evaluate(() => document.querySelectorAll('#a11y-worksheet input[id^="a11y-ws-Q-"]').length);
    const before = await inputs();
    const options = await page.evaluate(() => [...document.querySelectorAll('#a11y-ws-exercise option')].map((o) => o.textContent));
    assert.ok(options.includes(en['worksheet.exercise_number'].replace('{number}', '3')));
    assert.ok(options.includes(en['worksheet.note.note-cat-sat-mat.title']), 'the note examples by their titles');
    assert.equal(await page.evaluate(() => document.querySelector('label[for="a11y-ws-exercise"]').textContent), en['a11y.exercise_choice']);

    await toSkipLinks();
    for (let i = 0; i < 6 && (await page.evaluate(() => document.activeElement.getAttribute('href'))) !== '#a11y-worksheet'; i++)
      await key('Tab');
    await key('Enter');
    assert.equal(await activeId(), 'a11y-ws-exercise', 'the worksheet\'s skip link lands on the chooser');
    await key('ArrowDown');
    await pollUntil(() => api.getState(page), (s) => s.exercise === 'exercise-4', { what: 'exercise 4 chosen by ArrowDown' });
    await pollUntil(inputs, (t) => t !== before, { what: 'the worksheet\'s inputs in the DOM to change' });
    assert.equal(await activeId(), 'a11y-ws-exercise', 'the focus stays on the chooser');
    // The last option is a note's example, whose sheet has a different shape.
    const n0 = await rows();
    await key('End');
    const last = await page.evaluate(() => document.getElementById('a11y-ws-exercise').value);
    assert.match(last, /^note-/);
    await pollUntil(() => api.getState(page), (s) => s.exercise === last, { what: `${last} chosen by End` });
    await pollUntil(async () => (await inputs()) + (await rows()), (t) => t !== before + n0, { what: 'the note\'s cells' });
  });

  it('honours an embed\'s lock (aria-disabled, kept) and hide= (no fields)', async () => {
    const origin = new URL(page.url()).origin;
    const e = await openApp(app.context.browser(), origin, { path: '/?embed=1&panels=embeddings&lock=embeddings' });
    try {
      await e.page.waitForSelector('#a11y-point-1-x', { state: 'attached' });
      assert.equal(await e.page.evaluate(() => document.getElementById('a11y-point-1-x').getAttribute('aria-disabled')), 'true');
      const before = (await api.getState(e.page)).embeddings;
      await e.page.focus('#a11y-point-1-x');
      for (let i = 0; i < 3; i++) await e.page.keyboard.press('ArrowUp');
      await waitFrames(e.page, 3);
      assert.deepEqual((await api.getState(e.page)).embeddings, before, 'a locked point does not move');
    } finally {
      await e.context.close();
    }
    const h = await openApp(app.context.browser(), origin, { path: '/?embed=1&panels=embeddings,controls&hide=embeddings' });
    try {
      await h.page.waitForSelector('#a11y-controls', { state: 'attached' });
      await waitFrames(h.page, 3);
      assert.equal(await h.page.evaluate(() => document.getElementById('a11y-points')), null, 'hidden: no twins');
    } finally {
      await h.context.close();
    }
  });
});
