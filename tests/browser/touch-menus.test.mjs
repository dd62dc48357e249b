// touch-menus.test.mjs — on a phone (touch, 390×844): the menu bar and its rows are at least 44 CSS px tall, a
// panel opened from the View menu is brought into view at the top of the column instead of being added below
// the fold, and the Lessons menu's rows (long titles among them) stay on the screen and start their lesson.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { REPO_ROOT, api, center, decodePng, itemRect, pollUntil, setStateOk, siteBuiltTest, touchTap, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();
const LESSONS = path.join(REPO_ROOT, 'data', 'lessons');
const lessonIds = fs.readdirSync(LESSONS).sort().map((f) => JSON.parse(fs.readFileSync(path.join(LESSONS, f), 'utf8')).id);

describe('menus on a phone', { timeout: 180000 }, () => {
  let page;
  useApp((app) => { page = app.page; }, { viewport: { width: 390, height: 844 },
    device: { hasTouch: true, isMobile: true, deviceScaleFactor: 2 } });
  before(async () => {
    await setStateOk(page, { preset: 'default', lesson: null });
    await waitFrames(page, 4);
  });

  it('rows a finger can hit, and a panel opened from View comes into view', async () => {
    const bar = await itemRect(page, 'menu:view');
    assert.ok(bar.h >= 43, `the View menu's title is ${bar.h} px tall`);
    await touchTap(page, center(bar));
    const row = await itemRect(page, 'menu:view:numerics');
    const next = await itemRect(page, 'menu:view:cross');
    console.log(`menu bar ${JSON.stringify(bar)}; rows ${JSON.stringify(row)} → ${JSON.stringify(next)}`);
    assert.ok(next.y - row.y >= 43, `rows are ${next.y - row.y} px apart`);
    assert.equal((await api.getState(page)).panels.numerics, false);
    await touchTap(page, center(row));
    await pollUntil(() => api.getState(page), (s) => s.panels.numerics === true, { what: 'the Numerics panel to open' });
    const header = await pollUntil(() => api.itemRect(page, 'header:numerics'), (r) => r && r.y >= 0 && r.y < 300,
      { what: 'the Numerics panel brought to the top of the column' });
    console.log(`Numerics header at ${JSON.stringify(header)}`);
  });

  it('keeps every row of the Lessons menu on the screen, and a row starts its lesson', async () => {
    await touchTap(page, center(await itemRect(page, 'menu:lessons')));
    const width = await page.evaluate(() => window.innerWidth);
    const rows = [];
    for (const id of lessonIds) rows.push({ id, r: await itemRect(page, 'menu:lessons:' + id) });
    for (const { id, r } of rows) {
      assert.ok(r.x >= 0 && r.x + r.w <= width + 0.5, `the row of "${id}" spans ${r.x}..${r.x + r.w} on a ${width} px screen`);
      // The row's last 10 px (its tick's column; no lesson is open), inside the popup's edge lines, hold no text: a
      // title too long for the screen would run through them to the popup's clipped edge.
      const { rgba } = decodePng(await page.screenshot({ type: 'png', scale: 'css',
        clip: { x: r.x + r.w - 11, y: r.y + 8, width: 10, height: r.h - 16 } }));
      let spread = 0;
      for (let i = 0; i < rgba.length; i += 4)
        for (let c = 0; c < 3; c++) spread = Math.max(spread, Math.abs(rgba[i + c] - rgba[c]));
      assert.ok(spread < 48, `the title of "${id}" reaches the row's right edge (colour spread ${spread})`);
    }
    const last = rows[rows.length - 1];
    await touchTap(page, center(last.r));
    await pollUntil(() => api.getState(page), (s) => s.lesson && s.lesson.id === last.id, { what: `the lesson "${last.id}" to start` });
    await setStateOk(page, { lesson: null });
  });
});
