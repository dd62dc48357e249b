// paint.test.mjs — the page paints a frame only when it would look different from the last one painted:
// an idle page keeps running frames (input is read, the API answers) but leaves the canvas alone, and
// every change the learner makes — a state change, a hover, a heatmap whose colours alone change — is
// painted at once. (With a software GL every painted frame costs tens of milliseconds of CPU time.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { center, itemRect, pollUntil, setStateOk, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

const counts = (page) => page.evaluate(() => ({ frames: window.attnplay.frames(), painted: window.attnplay.framesPainted() }));
// The page as the learner sees it (the compositor's copy of the canvas).
const shot = (page) => page.screenshot({ type: 'png' });

describe('painting only what changed', { timeout: 150000 }, () => {
  let page;
  useApp((opened) => ({ page } = opened), { viewport: { width: 1280, height: 800 } });

  // wcag: 2.3.1 — at rest nothing is painted: the picture stays the same frame after frame
  it('an idle page runs frames without painting, and still shows the same picture', async () => {
    await setStateOk(page, { preset: 'default' });
    await waitFrames(page, 20);
    const before = await shot(page);
    const c0 = await counts(page);
    await waitFrames(page, 40);
    const c1 = await counts(page);
    assert.ok(c1.frames - c0.frames >= 40, 'frames keep running');
    assert.equal(c1.painted, c0.painted, 'no frame painted while nothing changed');
    assert.ok(before.equals(await shot(page)), 'the canvas still shows the last painted frame');
  });

  it('a state change is painted within a frame or two, and the picture changes', async () => {
    const before = await shot(page);
    const c0 = await counts(page);
    await setStateOk(page, { d_k: 300 });
    await waitFrames(page, 3);
    const c1 = await counts(page);
    assert.ok(c1.painted > c0.painted, `painted ${c1.painted - c0.painted} frames after d_k changed`);
    assert.ok(!before.equals(await shot(page)), 'the new d_k is on screen');
  });

  it('hovering a heatmap cell paints its tooltip', async () => {
    const cell = await itemRect(page, 'heatmap');
    const c0 = await counts(page);
    await page.mouse.move(cell.x + cell.w * 0.3, cell.y + cell.h * 0.3);
    await pollUntil(() => counts(page), (c) => c.painted > c0.painted, { what: 'a painted frame after the hover' });
    await page.mouse.move(2, 790);  // away again, off every panel
    await waitFrames(page, 10);
  });

  it('a heatmap whose colours alone change is painted (its texture is part of the picture)', async () => {
    // Only the heatmap, with cells too small for numbers: a new temperature changes the texture's
    // colours and nothing in the draw lists.
    const words = Array.from({ length: 160 }, (_, i) => `w${i % 37}`).join(' ');
    await setStateOk(page, { preset: 'default', sentence: words, panels: { heatmap: true, controls: false, saturation: false,
      variance: false, pipeline: false, explain: false, embeddings: false, lesson: false }, temperature: 1 });
    await page.mouse.move(2, 790);
    await waitFrames(page, 20);
    const before = await shot(page);
    const c0 = await counts(page);
    await setStateOk(page, { temperature: 0.5 });
    await waitFrames(page, 5);
    const c1 = await counts(page);
    assert.ok(c1.painted > c0.painted, 'painted after the temperature changed');
    assert.ok(!before.equals(await shot(page)), 'the heatmap shows the new temperature');
  });
});
