// touch-menus.test.mjs — on a phone (touch, 390×844): the menu bar and its rows are at least 44 CSS px tall, and a
// panel opened from the View menu is brought into view at the top of the column instead of being added below
// the fold.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { api, center, itemRect, pollUntil, setStateOk, siteBuiltTest, touchTap, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

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
});
