// a11y-prefs.test.mjs — the system's accessibility preferences: prefers-color-scheme picks the theme when the learner
// has set none (a link's theme wins), and prefers-reduced-motion stops the glide after a swipe and the loading bar's
// animation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, decodePng, itemRect, launchChromium, openApp, setStateOk, siteBuiltTest, startServer, waitFrames, touchFlickUp } from './helpers.mjs';

siteBuiltTest();

describe('system preferences', { timeout: 120000 }, () => {
  let server, browser;
  before(async () => { server = await startServer(); browser = await launchChromium(); });
  after(async () => { await browser?.close(); await server?.stop(); });

  // The mean brightness of the panels' area (0–255): a light theme paints light panels.
  async function brightness(page) {
    await waitFrames(page, 3);
    const { rgba } = decodePng(await page.screenshot({ type: 'png' }));
    let sum = 0;
    for (let i = 0; i < rgba.length; i += 4) sum += 0.2126 * rgba[i] + 0.7152 * rgba[i + 1] + 0.0722 * rgba[i + 2];
    return sum / (rgba.length / 4);
  }

  for (const scheme of ['light', 'dark']) {
    it(`a ${scheme} system colour scheme chooses the ${scheme} theme when none is set`, async () => {
      const app = await openApp(browser, server.origin, { device: { colorScheme: scheme } });
      try {
        assert.equal((await api.getState(app.page)).theme, scheme);
        const mean = await brightness(app.page);
        assert.ok(scheme === 'light' ? mean > 150 : mean < 100, `mean brightness ${mean} for ${scheme}`);
      } finally {
        await app.context.close();
      }
    });
  }

  it('a theme the link carries wins over the system colour scheme', async () => {
    const maker = await openApp(browser, server.origin, { device: { colorScheme: 'dark' } });
    let link;
    try {
      await setStateOk(maker.page, { theme: 'light' });
      link = await maker.page.evaluate(() => window.attnplay.shareURL());
    } finally {
      await maker.context.close();
    }
    const app = await openApp(browser, server.origin, { path: link.slice(link.indexOf('/', 8)), device: { colorScheme: 'dark' } });
    try {
      assert.equal((await api.getState(app.page)).theme, 'light');
    } finally {
      await app.context.close();
    }
  });

  // A flick on a phone, lifted while moving: with reduced motion the content stops where the finger left it.
  it('prefers-reduced-motion: a swipe does not glide on after the lift, and the loading bar does not animate', async () => {
    const viewport = { width: 390, height: 844 };
    const run = async (reducedMotion) => {
      const app = await openApp(browser, server.origin, { viewport, device: { hasTouch: true, isMobile: true, deviceScaleFactor: 1, reducedMotion } });
      try {
        const { page } = app;
        await setStateOk(page, { preset: 'default', temperature: 1 });
        await waitFrames(page, 4);
        const r0 = await itemRect(page, 'temperature');
        const from = { x: Math.round(r0.x + 20), y: Math.round(r0.y + r0.h / 2) };
        await touchFlickUp(page, from);  // up by 140 px in a few quick moves, lifted while moving
        const atLift = await api.itemRect(page, 'temperature');
        await waitFrames(page, 12);
        const later = await api.itemRect(page, 'temperature');
        const transition = await page.evaluate(() => getComputedStyle(document.getElementById('loading-fill')).transitionDuration);
        return { r0, atLift, later, transition };
      } finally {
        await app.context.close();
      }
    };
    const still = await run('reduce');
    assert.ok(still.r0.y - still.atLift.y >= 100, `the content followed the finger (${still.r0.y} → ${still.atLift.y})`);
    assert.ok(still.later && Math.abs(still.later.y - still.atLift.y) <= 2, `no glide: ${still.atLift.y} → ${still.later?.y}`);
    assert.equal(still.transition, '0s');
    const moving = await run('no-preference');  // the same flick glides on without the preference
    assert.ok(moving.later === null || moving.later.y < moving.atLift.y - 2, `it glides: ${moving.atLift.y} → ${moving.later?.y}`);
    assert.notEqual(moving.transition, '0s');
  });
});
