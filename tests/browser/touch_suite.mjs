// touch_suite.mjs — touch only, device pixel ratio 3 (not a test file itself: touch-phone.test.mjs and
// touch-tablet.test.mjs run it at 390×844 and 768×1024, each within its own time limit): a finger
// drags the d_k slider and an embedding point, a tap sets d_k and toggles the scaling checkbox, two
// fingers scroll the Explanation panel.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, center, itemRect, launchChromium, openApp, pollUntil, setStateOk, siteBuiltTest, startServer, touchDrag,
  touchTap, waitForApp, waitFrames, touchFlickUp } from './helpers.mjs';

const DEVICE = { hasTouch: true, isMobile: true, deviceScaleFactor: 3 };

export function touchSuite(viewport) {
  siteBuiltTest();
  describe(`touch at ${viewport.width}×${viewport.height}`, { timeout: 450000 }, () => {
    let server, browser, page;
    before(async () => {
      server = await startServer();
      browser = await launchChromium();
      ({ page } = await openApp(browser, server.origin, { viewport, device: DEVICE }));
      const env = await page.evaluate(() => ({ dpr: window.devicePixelRatio, touch: navigator.maxTouchPoints,
        w: innerWidth, h: innerHeight, canvas: [document.getElementById('canvas').width, document.getElementById('canvas').height] }));
      console.log(`page: ${JSON.stringify(env)}`);
      assert.equal(env.dpr, 3, 'device pixel ratio 3');
      assert.ok(env.touch > 0, 'a touch screen');
      await setStateOk(page, { preset: 'default' });
    });
    after(async () => {
      await browser?.close();
      await server?.stop();
    });

    // Inside the viewport, where a finger can be.
    const onScreen = (p) => ({ x: Math.min(Math.max(p.x, 1), viewport.width - 2), y: Math.min(Math.max(p.y, 1), viewport.height - 2) });
    // As a learner does on a phone, where the panels stack below the fold: two fingers scroll the page
    // until the item stands near the top. The fingers go down the left margin (x = 2), over the stack
    // itself rather than over a panel that would scroll instead.
    async function bringIntoView(id) {
      let lastY = null;
      for (let i = 0; i < 30; i++) {
        const r = await itemRect(page, id);
        const onPage = r.y >= 40 && r.y + Math.min(r.h, 100) <= viewport.height - 10;
        if (onPage && (r.y <= 160 || r.y === lastY)) return r;  // near the top, or as far as the stack goes
        lastY = r.y;
        const rise = Math.max(-300, Math.min(300, r.y - 80));
        const y0 = rise > 0 ? viewport.height - 60 : 120;
        await touchDrag(page, { x: 2, y: y0 }, { x: 2, y: y0 - rise }, { fingers: 2, spread: 4, steps: 6 });
      }
      throw new Error(`could not scroll ${id} into view`);
    }

    it('a one-finger drag along the d_k slider raises d_k, following the finger', async () => {
      await setStateOk(page, { d_k: 4 });
      await waitFrames(page, 2);
      const r = await itemRect(page, 'd_k');  // frame + label; the frame starts at r.x
      assert.ok(r.x >= 0 && r.x + 20 < viewport.width, `the slider is on screen: ${JSON.stringify(r)}`);
      const from = onScreen({ x: r.x + 3, y: r.y + r.h / 2 });
      const to = onScreen({ x: r.x + r.w + 20, y: from.y });
      const seen = [];
      await touchDrag(page, from, to, { steps: 6, onStep: async () => seen.push((await api.getState(page)).d_k) });
      const { state } = await waitForApp(page, ({ state: st }) => st.d_k > 4, { what: 'd_k to rise after the touch drag' });
      console.log(`${viewport.width}×${viewport.height}: touch drag ${JSON.stringify(from)} → ${JSON.stringify(to)} on ` +
        `${JSON.stringify(r)}: d_k 4 → ${state.d_k} (seen: ${seen.join(', ')})`);
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], `d_k never falls while the finger moves right: ${seen}`);
      assert.ok(new Set(seen).size >= 3, `d_k followed the finger through intermediate values: ${seen}`);
    });

    // On a phone the panels stack in one scrolling column; a tablet tiles them, where the Controls panel has
    // little to scroll.
    it('a vertical swipe that starts on a slider scrolls instead, leaves the value alone, and glides on',
       { skip: viewport.width >= 700 ? 'panels tile side by side at this width' : false }, async () => {
      await setStateOk(page, { preset: 'default', temperature: 1 });
      await waitFrames(page, 4);
      const s0 = await api.getState(page);
      const r0 = await itemRect(page, 'temperature');
      assert.ok(r0.y > 150 && r0.y < viewport.height - 100, `the Temperature slider is on screen: ${JSON.stringify(r0)}`);
      const from = { x: Math.round(r0.x + 20), y: Math.round(r0.y + r0.h / 2) };
      await touchFlickUp(page, from);  // up by 140 px in a few quick moves, lifted while moving
      const atLift = await api.itemRect(page, 'temperature');  // now, while it may still be moving
      await waitFrames(page, 12);
      const later = await api.itemRect(page, 'temperature');  // null: glided on out of its panel's view
      const s1 = await api.getState(page);
      console.log(`${viewport.width}×${viewport.height}: swipe up 140 px from ${JSON.stringify(from)}: slider y ${r0.y} → ` +
        `${atLift.y} at the lift → ${later?.y ?? 'out of view'} after 12 frames; temperature ${s0.temperature} → ${s1.temperature}`);
      assert.equal(s1.temperature, s0.temperature, 'the slider under the finger kept its value');
      assert.equal(s1.d_k, s0.d_k);
      assert.ok(r0.y - atLift.y >= 100, `the content followed the finger up (${r0.y} → ${atLift.y})`);
      assert.ok(later === null || later.y < atLift.y - 2, `it glided on after the lift (${atLift.y} → ${later?.y})`);
      // Back to the top for the tests after this one: two fingers (which never glide), over the column and then
      // over the Controls panel.
      for (const x of [2, 60])
        await touchDrag(page, { x, y: 120 }, { x, y: viewport.height - 40 }, { fingers: 2, spread: 4, steps: 6 });
      await waitFrames(page, 4);
    });

    it('a tap far along the d_k slider sets a large d_k at once', async () => {
      await setStateOk(page, { d_k: 4 });
      await waitFrames(page, 2);
      const r = await itemRect(page, 'd_k');
      // 70 % of frame + label is inside the frame, well past its middle (the label "d_k" is short).
      const at = onScreen({ x: r.x + 0.7 * r.w, y: r.y + r.h / 2 });
      await touchTap(page, at);
      const { state } = await waitForApp(page, ({ state: st }) => st.d_k > 64, { what: 'the tap to set d_k above 64' });
      console.log(`${viewport.width}×${viewport.height}: tap at ${JSON.stringify(at)} on ${JSON.stringify(r)}: d_k 4 → ${state.d_k}`);
    });

    it('a tap toggles the scaling checkbox, and a second tap toggles it back', async () => {
      await setStateOk(page, { scale: true });
      await waitFrames(page, 2);
      const cb = await itemRect(page, 'Scale by 1/√d_k');
      const box = { x: cb.x + cb.h / 2, y: cb.y + cb.h / 2 };  // the square at the item's left
      await touchTap(page, box);
      await waitForApp(page, ({ state }) => state.scale === false, { what: 'the tap to turn scaling off' });
      await touchTap(page, box);
      await waitForApp(page, ({ state }) => state.scale === true, { what: 'a second tap to turn scaling back on' });
    });

    it('a one-finger drag moves an embedding point and the weights follow', async () => {
      await setStateOk(page, { preset: 'default' });
      await waitFrames(page, 2);
      const s0 = await api.getState(page);
      const r0 = await api.getResult(page);
      const { plane_x: px, plane_y: py } = s0;
      await bringIntoView('embedding plane');
      const p1 = await itemRect(page, 'point:1');
      const plane = await itemRect(page, 'embedding plane');
      const from = center(p1), mid = center(plane);
      // Towards the middle of the plane, by at most a third of its size, so the finger stays inside it.
      const dx = Math.sign(mid.x - from.x || 1) * Math.min(35, plane.w / 3);
      const dy = Math.sign(mid.y - from.y || 1) * Math.min(25, plane.h / 3);
      const to = { x: from.x + dx, y: from.y + dy };
      await touchDrag(page, from, to, { steps: 5 });
      const { state: s1 } = await waitForApp(page, ({ state }, a) => state.embeddings[1][a.px] !== a.x0 ||
        state.embeddings[1][a.py] !== a.y0, { arg: { px, py, x0: s0.embeddings[1][px], y0: s0.embeddings[1][py] },
        what: 'token 1\'s embedding to change after the touch drag' });
      const r1 = await api.getResult(page);
      const e0 = s0.embeddings[1], e1 = s1.embeddings[1];
      console.log(`${viewport.width}×${viewport.height}: plane ${JSON.stringify(plane)}, point 1 dragged by (${dx}, ${dy}): ` +
        `(${e0[px].toFixed(3)}, ${e0[py].toFixed(3)}) → (${e1[px].toFixed(3)}, ${e1[py].toFixed(3)})`);
      assert.ok(Math.sign(e1[px] - e0[px]) === Math.sign(dx), `x followed the finger: ${e0[px]} → ${e1[px]}`);
      assert.ok(Math.sign(e1[py] - e0[py]) === -Math.sign(dy), `y followed the finger (screen y grows downwards): ${e0[py]} → ${e1[py]}`);
      const diff = Math.max(...r0.weights[1].map((v, j) => Math.abs(v - r1.weights[1][j])));
      assert.ok(diff > 1e-4, `row 1 of the weights changed (max |Δ| ${diff})`);
    });

    it('a two-finger drag upwards scrolls the Explanation panel down, following the fingers', async () => {
      const dkBefore = (await api.getState(page)).d_k;
      if (viewport.width < 700) await bringIntoView('header:explain');  // a section of the phone's stack
      const before = await pollUntil(() => api.panelScroll(page, 'Explanation'), (s) => s !== null,
        { what: 'the Explanation panel to be drawn' });
      assert.ok(before.scrollMaxY - before.scrollY > 90, `the panel has room to scroll: ${JSON.stringify(before)}`);
      const spread = Math.min(40, before.w / 3);
      const from = { x: before.x + before.w / 2 - spread / 2, y: before.y + before.h * 0.7 };
      const rise = Math.min(60, before.h * 0.4);
      await touchDrag(page, from, { x: from.x, y: from.y - rise }, { fingers: 2, spread, steps: 5 });
      await waitFrames(page, 3);
      const afterDrag = await api.panelScroll(page, 'Explanation');
      const moved = afterDrag.scrollY - before.scrollY;
      console.log(`${viewport.width}×${viewport.height}: two fingers up by ${rise} px over ${JSON.stringify(before)}: ` +
        `scrollY ${before.scrollY} → ${afterDrag.scrollY}`);
      assert.ok(moved > 0.5 * rise && moved < 1.5 * rise, `the text followed the fingers (moved ${moved} px for ${rise} px)`);
      const s = await api.getState(page);
      assert.equal(s.d_k, dkBefore, 'scrolling changed no control');
    });

    it('two fingers over a panel scrolled to its end go on to scroll the stack, not stop', async () => {
      if (viewport.width >= 700) return;  // the tiled layout has no stack around its panels
      const top = await bringIntoView('header:explain');
      let p = await api.panelScroll(page, 'Explanation');
      const over = { x: p.x + p.w / 2 - 10, y: p.y + p.h * 0.75 };
      // Up to the end of the panel's text, with the fingers over the text all the time.
      for (let i = 0; i < 40 && p.scrollMaxY - p.scrollY > 0.5; i++) {
        await touchDrag(page, over, { x: over.x, y: over.y - 150 }, { fingers: 2, spread: 20, steps: 5 });
        await waitFrames(page, 2);
        p = await api.panelScroll(page, 'Explanation');
      }
      assert.ok(p.scrollMaxY - p.scrollY <= 0.5, `the Explanation reached its end: ${JSON.stringify(p)}`);
      const headerBefore = await itemRect(page, 'header:explain');
      const at = await api.panelScroll(page, 'Explanation');
      const from = { x: at.x + at.w / 2 - 10, y: Math.min(at.y + at.h * 0.75, viewport.height - 20) };
      await touchDrag(page, from, { x: from.x, y: from.y - 100 }, { fingers: 2, spread: 20, steps: 5 });
      await waitFrames(page, 3);
      const headerAfter = await itemRect(page, 'header:explain');
      console.log(`phone: header of the Explanation at y ${top.y} → ${headerBefore.y} → ${headerAfter.y} after the panel's end`);
      assert.ok(headerBefore.y - headerAfter.y > 50, `the stack scrolled on (${headerBefore.y} → ${headerAfter.y})`);
    });
  });
}
