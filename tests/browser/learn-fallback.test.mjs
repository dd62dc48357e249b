// learn-fallback.test.mjs — Learn mode without its Web Worker: when the worker's script does not load, or the
// browser has no Worker at all, the page trains in the frame as before and says why (getResult().learn).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pollUntil, setStateOk, siteBuiltTest, useApp } from './helpers.mjs';

siteBuiltTest();
const SMALL = { task: 'copy', layers: 1, seed: 3 };

async function trainsInFrame(page, reason) {
  const learn = () => page.evaluate(async () => (await window.attnplay.getResult()).learn);
  await setStateOk(page, { panels: { learn: true }, learn: { settings: SMALL, playing: true, speed: 2 } });
  const l = await pollUntil(learn, (x) => x.worker === false && x.steps >= 6,
    { timeout: 60000, interval: 200, what: 'training in the frame after the worker failed' });
  assert.match(l.in_page_reason, reason);
  assert.equal(l.worker_running, false);
  const later = await pollUntil(learn, (x) => x.steps > l.steps, { timeout: 30000, interval: 200, what: 'more steps' });
  assert.ok(later.a.curve.loss.every(Number.isFinite), 'finite curves');
}

describe('Learn mode when the worker script fails to load', { timeout: 175000 }, () => {
  let page;
  // Every Worker the page creates asks for a script that is not there (a 404, reported as an error event).
  useApp((app) => { page = app.page; }, {
    initScript: () => {
      const RealWorker = window.Worker;
      window.Worker = function MissingWorker() { return new RealWorker('no-such-worker.js'); };
    },
  });
  it('trains in the frame and says why', () => trainsInFrame(page, /training worker failed/));
});

describe('Learn mode in a browser without Web Workers', { timeout: 175000 }, () => {
  let page;
  useApp((app) => { page = app.page; }, { initScript: () => { delete window.Worker; } });
  it('trains in the frame and says why', () => trainsInFrame(page, /no Web Workers/));
});
