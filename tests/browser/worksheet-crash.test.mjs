// worksheet-crash.test.mjs — the sequence that once stopped the page for good: open Learn mode, open the
// Worksheet, close Learn, then in several empty cells click, Ctrl+A, type a number, Tab. Real mouse and
// keys; the frame loop must keep running, each typed number must land in its cell, and nothing may be logged.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, center, click, itemRect, setStateOk, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

const STAGES = ['Q', 'K', 'V', 'scores', 'scaled', 'weights', 'output'];

describe('worksheet after Learn mode', { timeout: 170000 }, () => {
  let app;
  useApp((a) => { app = a; }, { viewport: { width: 1440, height: 900 } });

  // The first `n` answer cells the worksheet draws (given stages have none).
  async function emptyCells(n) {
    const found = [];
    for (const s of STAGES) {
      for (let i = 1; i <= 3 && found.length < n; i++) {
        const id = `worksheet:${s}:${i},1`;
        if (await api.itemRect(app.page, id)) found.push(id);
      }
      if (found.length >= n) break;
    }
    return found;
  }

  it('typing into cells after Learn was opened and closed keeps the page running', async () => {
    const { page, errors } = app;
    await setStateOk(page, { panels: { learn: true } });
    await waitFrames(page, 10);
    await setStateOk(page, { panels: { worksheet: true } });
    await waitFrames(page, 5);
    await setStateOk(page, { panels: { learn: false } });
    await waitFrames(page, 5);
    const cells = await emptyCells(3);
    assert.ok(cells.length >= 3, `three answer cells are drawn (found ${JSON.stringify(cells)})`);
    const typed = ['1.5', '2', '0.25'];
    for (let k = 0; k < cells.length; k++) {
      await click(page, center(await itemRect(page, cells[k])));
      await page.keyboard.press('Control+A');
      await waitFrames(page, 2);
      await page.keyboard.type(typed[k]);
      // Three frames per character (press, character, release); a stopped frame loop fails here, with its error.
      await waitFrames(page, 3 * typed[k].length + 2, 15000).catch((e) => {
        throw new Error(`${e.message}; page errors: ${JSON.stringify(errors.page).slice(0, 1500)}`);
      });
      await page.keyboard.press('Tab');
      await waitFrames(page, 3);
    }
    const before = await api.frames(page);
    await page.waitForTimeout(500);
    const after = await api.frames(page);
    assert.ok(after > before + 5, `frames keep running after the typing (${before} → ${after})`);
    const st = await api.getState(page);
    assert.equal(st.panels.worksheet, true, 'the worksheet is still open');
    const answers = await page.evaluate(() => window.attnplay.getResult().then((r) => r.worksheet && r.worksheet.answers));
    if (answers) console.log(`worksheet answers: ${JSON.stringify(answers).slice(0, 300)}`);
    assert.deepEqual(errors.page, [], 'no page errors');
    assert.deepEqual(errors.console, [], 'no console errors');
  });
});
