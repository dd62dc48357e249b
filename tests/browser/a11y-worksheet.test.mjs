// a11y-worksheet.test.mjs — the worksheet in the parallel DOM: reached by its skip link, each asked cell a labelled
// decimal field ("row 1, column 1, Q = X·W_Q"); typed text goes into the same cell the canvas writes on Enter or when
// the field is left (getResult().worksheet.answers), and the cell's check and the sheet's summary are said in words.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT, api, keyboard, pollUntil, setStateOk, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();
const en = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'strings', 'en.json'), 'utf8'));

// "X = [1.0, -1.0; 0.5, 2.0]" → [[1, -1], [0.5, 2]]
const parseMatrix = (line) => line.slice(line.indexOf('[') + 1, line.lastIndexOf(']')).split(';').map((r) => r.split(',').map(Number));

describe('worksheet twins', { timeout: 120000 }, () => {
  let page;
  useApp((app) => { page = app.page; });
  const key = async (k) => { await page.keyboard.press(k); await waitFrames(page, 2); };
  const activeId = () => page.evaluate(() => document.activeElement && document.activeElement.id);
  // Each stage's typed cells, row by row in one list.
  const answers = async () => ((await api.getResult(page)).worksheet || {}).answers || {};
  const cell = (id) => page.evaluate((i) => {
    const e = document.getElementById(i);
    const note = e && e.getAttribute('aria-describedby');
    return e && { value: e.value, label: e.getAttribute('aria-label'), inputmode: e.getAttribute('inputmode'),
      invalid: e.getAttribute('aria-invalid'), check: note ? document.getElementById(note).textContent.trim() : '' };
  }, id);
  const summary = () => page.evaluate(() => document.getElementById('a11y-worksheet-summary').textContent);

  // wcag: 3.3.1 — a wrong cell and one that is not a number are said in words and marked aria-invalid
  // wcag: 3.3.2 — each asked cell is a field labelled by its row, column and stage
  // wcag: 3.3.3 — a decimal comma is answered with the fix ("use a point", the number written right)
  it('types a wrong, a malformed and a right cell by keys alone and says each check', async () => {
    // Opening the panel on an exercise is setup (a teacher's link does the same); everything after is keys.
    await setStateOk(page, { exercise: 'exercise-17', panels: { worksheet: true } });
    await page.waitForSelector('#a11y-ws-Q-1-1');
    const d = await page.evaluate(() => window.attnplay.a11y.description());
    const [X, Wq] = [parseMatrix(d.worksheet.inputs[0]), parseMatrix(d.worksheet.inputs[1])];
    const q11 = X[0].reduce((s, x, k) => s + x * Wq[k][0], 0);
    const q12 = X[0].reduce((s, x, k) => s + x * Wq[k][1], 0);

    // Esc leaves the canvas for the skip links; the worksheet's link takes the focus to its chooser, Tab to its first cell.
    await keyboard(page).toSection('a11y-worksheet');
    assert.equal(await activeId(), 'a11y-ws-exercise', 'the exercise chooser comes first, as in the panel');
    await key('Tab');
    assert.equal(await activeId(), 'a11y-ws-Q-1-1', 'then the first asked cell');
    const first = await cell('a11y-ws-Q-1-1');
    assert.equal(first.label, en['a11y.cell'].replace('{row}', '1').replace('{col}', '1').replace('{stage}', en['worksheet.stage.Q']));
    assert.equal(first.inputmode, 'decimal');

    // A wrong number, handed over by Enter: the same cell as the canvas's, "wrong" beside it, counted as a mistake.
    await page.keyboard.type(String(q11 + 3));
    await key('Enter');
    await pollUntil(answers, (a) => a.Q && a.Q[0] === String(q11 + 3), { what: 'the wrong Q₁₁ in the worksheet' });
    const wrong = await pollUntil(() => cell('a11y-ws-Q-1-1'), (c) => c.check === en['a11y.cell.wrong'], { what: 'said wrong' });
    assert.equal(wrong.invalid, 'true');
    assert.equal(await activeId(), 'a11y-ws-Q-1-1', 'the focus stays on the cell as the sheet is rebuilt');
    assert.match(await summary(), /mistakes: 1$/);

    // Text being typed survives a rebuild that something else causes, until it is handed over.
    await page.keyboard.press('Control+A');
    await page.keyboard.type(String(q11));
    await setStateOk(page, { temperature: 1.5 });
    await waitFrames(page, 5);
    assert.equal((await cell('a11y-ws-Q-1-1')).value, String(q11), 'the typed text is kept');
    assert.equal((await answers()).Q[0], String(q11 + 3), 'and not handed over before Enter or Tab');

    // The right number, handed over by leaving the field with Tab: "right", and the focus is on the next cell.
    await key('Tab');
    await pollUntil(() => cell('a11y-ws-Q-1-1'), (c) => c.check === en['a11y.cell.correct'], { what: 'said right' });
    assert.equal((await answers()).Q[0], String(q11));
    assert.equal(await activeId(), 'a11y-ws-Q-1-2');
    assert.match(await summary(), /mistakes: 0$/);

    // A decimal comma is not a number here: the reason, in words.
    await page.keyboard.type(String(q12).replace('.', ',') + (Number.isInteger(q12) ? ',5' : ''));
    await key('Enter');
    const bad = await pollUntil(() => cell('a11y-ws-Q-1-2'), (c) => c.check.length > 0, { what: 'a check for 1,5' });
    assert.match(bad.check, /point for decimals/, bad.check);
    assert.equal(bad.invalid, 'true');
    await setStateOk(page, { temperature: 1 });
  });

  it('follows the canvas: a cell typed there shows in its twin', async () => {
    // The canvas's field: focus it by clicking (the canvas is the mouse learner's way), type, press Enter.
    const r = await api.itemRect(page, 'worksheet:Q:2,1');
    await page.mouse.click(r.x + r.w / 2, r.y + r.h / 2);
    await waitFrames(page, 2);
    await page.keyboard.type('7');
    await page.keyboard.press('Enter');
    await pollUntil(() => cell('a11y-ws-Q-2-1'), (c) => c && c.value === '7' && c.check.length > 0, { what: 'the canvas\'s 7 in the twin' });
  });
});
