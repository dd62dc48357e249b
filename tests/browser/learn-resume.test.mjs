// learn-resume.test.mjs — a Learn run in progress survives a reload: the page keeps the trainer's state in
// IndexedDB while it trains, and the reloaded page resumes at the kept step and says so in the status line.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT, center, click, itemRect, pollUntil, setStateOk, siteBuiltTest, useApp } from './helpers.mjs';

siteBuiltTest();
const words = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'strings', 'en.json'), 'utf8'));

describe('a Learn run survives a reload', { timeout: 170000 }, () => {
  let app;
  useApp((a) => { app = a; }, { viewport: { width: 1440, height: 900 } });
  const learn = () => app.page.evaluate(async () => (await window.attnplay.getResult()).learn);

  it('trains, reloads, and goes on from the kept step', async () => {
    const { page } = app;
    await setStateOk(page, { panels: { learn: true } });
    await click(page, center(await itemRect(page, 'learn:play')));
    await pollUntil(learn, (l) => l && l.steps >= 40, { what: '40 training steps', timeout: 60000 });
    await click(page, center(await itemRect(page, 'learn:play')));  // pause
    const paused = await pollUntil(learn, (l) => l.playing === false, { what: 'pause' });
    await page.waitForTimeout(3600);  // the page keeps the run every 3 s
    await page.reload({ waitUntil: 'load' });
    await page.waitForFunction(() => window.attnplay && window.attnplay.frames() > 2, null, { timeout: 60000 });
    const back = await pollUntil(() => learn().catch(() => null), (l) => l && l.steps === paused.steps,
      { what: `the run back at step ${paused.steps}`, timeout: 15000 });
    assert.equal(back.a.curve.loss.length, paused.a.curve.loss.length, 'the loss curve is back in full');
    const said = words['learn.resumed'].replace('{steps}', String(paused.steps));
    // The live region speaks once the page has settled (600 ms after the last change).
    const summary = await pollUntil(() => page.evaluate(() => document.getElementById('a11y-summary').textContent),
      (t) => t.includes(said), { what: 'the status in the live region', timeout: 5000 }).catch(() =>
      page.evaluate(() => document.getElementById('a11y-summary').textContent));
    assert.ok(summary.includes(said), `the status says "${said}" (summary: ${summary.slice(-200)})`);
    assert.deepEqual(app.errors.page, []);
  });
});
