// idle-page.test.mjs — a page nobody touches slows its frame loop down (src/platform/web.cpp), and wakes for
// input and for calls: the learner's first key press, a drag and an API call are answered as before, and what
// changes without input still reaches the screen. tests/bench/idle_page.mjs measures what idling saves.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, center, itemRect, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe('an idle page', { timeout: 120000 }, () => {
  let page;
  useApp((app) => { page = app.page; }, { viewport: { width: 1280, height: 800 } });
  const frames = () => page.evaluate(() => window.attnplay.frames());
  // App frames per second over `ms`, while `during` runs (nothing: an untouched page).
  async function frameRate(ms, during = async () => sleep(ms)) {
    const f0 = await frames(), t0 = Date.now();
    await during();
    return (await frames() - f0) / ((Date.now() - t0) / 1000);
  }

  it('runs its frame a few times a second once untouched, and every animation frame again while the mouse moves', async () => {
    // The page's start (the Variance lab's Monte Carlo, the d_k sweep's band, the module's second half) runs every
    // frame until it is done: seconds longer on a loaded machine. It must then idle, and stay idle.
    let settled = Infinity;
    for (let tries = 0; tries < 15 && settled > 20; tries++) settled = await frameRate(1000);
    assert.ok(settled <= 20, `untouched, the page settles to idle within 15 s (last second ${settled.toFixed(1)} frames/s)`);
    const idle = await frameRate(2000);
    const moving = await frameRate(1000, async () => {
      for (let i = 0; i < 20; i++) {
        await page.mouse.move(300 + 5 * i, 300);
        await sleep(50);
      }
    });
    console.log(`app frames/s: untouched ${idle.toFixed(1)}, mouse moving ${moving.toFixed(1)}`);
    assert.ok(idle <= 20, `untouched, the page idles (${idle.toFixed(1)} frames/s; 15 expected, 60 before)`);
    assert.ok(moving >= 1.5 * idle, `moving the mouse wakes it (${moving.toFixed(1)} frames/s vs ${idle.toFixed(1)} idle)`);
  });

  it('answers a key press, a call and a drag that come while it idles', async () => {
    await page.focus('#canvas');
    await sleep(1500);
    const before = (await api.getState(page)).d_k;
    // A key press: Tab moves the canvas's focus to a control in the next frames.
    const focused0 = await page.evaluate(() => window.attnplay.ui.focused());
    await page.keyboard.press('Tab');
    await waitFrames(page, 2);
    assert.notEqual(await page.evaluate(() => window.attnplay.ui.focused()), focused0, 'Tab moved the focus');
    // A call: the new d_k is computed and drawn.
    await sleep(1500);
    const painted0 = await page.evaluate(() => window.attnplay.framesPainted());
    const target = before === 128 ? 256 : 128;
    assert.equal((await api.setState(page, { d_k: target })).ok, true);
    await waitFrames(page, 3);
    assert.equal((await api.getState(page)).d_k, target);
    assert.ok(await page.evaluate(() => window.attnplay.framesPainted()) > painted0, 'the canvas was drawn again');
    // A drag on the d_k slider, started from an idle page, moves it.
    await sleep(1500);
    const slider = center(await itemRect(page, 'd_k'));
    await page.mouse.move(slider.x, slider.y);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(slider.x - 12 * i, slider.y);
    await page.mouse.up();
    await waitFrames(page, 2);
    assert.ok((await api.getState(page)).d_k < target, `dragging left lowered d_k (${target} → ${(await api.getState(page)).d_k})`);
  });
});
