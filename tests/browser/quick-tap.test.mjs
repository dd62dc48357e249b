// quick-tap.test.mjs — on a phone (390×844, touch), a tap whose touchstart and touchend arrive within one frame
// (a quick finger on a slow phone) clicks, like an 80 ms tap does. The frame loop is paused while the two
// touch events are delivered, so both reach the app before its next frame.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { itemRect, setStateOk, siteBuiltTest, useApp, waitForApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

describe('quick taps on a phone', { timeout: 170000 }, () => {
  let app;
  useApp((a) => { app = a; }, { viewport: { width: 390, height: 844 }, device: { hasTouch: true, isMobile: true, deviceScaleFactor: 1 } });

  async function tap(point, { sameFrame }) {
    const { page } = app;
    const cdp = await page.context().newCDPSession(page);
    try {
      if (sameFrame) await page.evaluate(() => window.Module.pauseMainLoop());
      const f0 = await page.evaluate(() => window.attnplay.frames());
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: point.x, y: point.y, id: 1 }] });
      if (!sameFrame) await page.waitForTimeout(80);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      const f1 = await page.evaluate(() => window.attnplay.frames());
      if (sameFrame) {
        assert.equal(f1, f0, 'no frame ran between touchstart and touchend');
        await page.evaluate(() => window.Module.resumeMainLoop());
      } else {
        assert.ok(f1 > f0, `frames ran during the 80 ms tap (${f0} → ${f1})`);
      }
    } finally {
      await cdp.detach();
    }
    await waitFrames(page, 6);
  }

  for (const sameFrame of [false, true]) {
    it(`a ${sameFrame ? 'tap within one frame' : '80 ms tap'} toggles the scaling checkbox, and again back`, async () => {
      const { page } = app;
      await setStateOk(page, { scale: true });
      await waitFrames(page, 3);
      const cb = await itemRect(page, 'scale');
      const box = { x: cb.x + cb.h / 2, y: cb.y + cb.h / 2 };
      await tap(box, { sameFrame });
      await waitForApp(page, ({ state }) => state.scale === false, { what: 'the tap to turn scaling off', timeout: 3000 });
      await tap(box, { sameFrame });
      await waitForApp(page, ({ state }) => state.scale === true, { what: 'the second tap to turn scaling on', timeout: 3000 });
      assert.deepEqual(app.errors.page, []);
    });
  }
});
