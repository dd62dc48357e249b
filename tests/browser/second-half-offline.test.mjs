// second-half-offline.test.mjs — the connection drops on a first visit before the module's second half
// (attnplay.deferred.wasm, which the page fetches after its first view) arrived, and the learner opens a lesson,
// whose code is in that half: through the API and by a click. The frame loop keeps going, the API answers
// {ok: false, error} with the catalog's "needs a connection once" (never a throw), the page says so, and once the
// second half can be had again the lesson opens. No service worker: a first visit has none yet.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT, SITE_DIR, api, center, click, itemRect, pollUntil, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

const SAID = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'strings', 'en.json'), 'utf8'))['status.needs_connection'];
const LESSON = 'why-attention';
let blocked = true;

// Calls an API method in the page and reports a synchronous throw as such.
const tryApi = (page, method, arg) => page.evaluate(({ method, arg }) => {
  try {
    return Promise.resolve(window.attnplay[method](arg)).then((value) => ({ value }), (e) => ({ rejected: String(e) }));
  } catch (e) {
    return { threw: String(e) };
  }
}, { method, arg });

describe('the module\'s second half missing', { timeout: 170000 }, () => {
  let app;
  useApp((a) => { app = a; }, {
    device: { serviceWorkers: 'block' },
    onPage: (page) => page.route('**/attnplay.deferred.wasm', (route) => (blocked ? route.abort('internetdisconnected') : route.continue())),
  });

  it('keeps frames coming, answers {ok: false} in the learner\'s words, and opens the lesson once it can', async () => {
    const { page } = app;
    assert.ok(fs.existsSync(path.join(SITE_DIR, 'attnplay.deferred.wasm')), 'the site\'s module is split');
    assert.ok(!(await api.getState(page)).lesson, 'no lesson open');

    const opened = await tryApi(page, 'setState', { lesson: { id: LESSON, step: 1 } });
    assert.deepEqual(opened, { value: { ok: false, error: SAID } }, 'setState answers {ok: false, error}');
    const result = await tryApi(page, 'getResult');
    assert.ok(result.value && (Array.isArray(result.value.weights) || result.value.error === SAID),
      `getResult answers a result or {ok: false, error}, never a throw: ${JSON.stringify(result).slice(0, 200)}`);
    await waitFrames(page, 10);
    assert.equal(await page.locator('#notice').textContent(), SAID, 'the page says it');
    assert.ok(await page.locator('#notice').isVisible());

    // By a click on the lesson's button: the frame that runs it is cut short, the next ones are drawn.
    const framesBefore = await api.frames(page);
    await click(page, center(await itemRect(page, `lesson:start:${LESSON}`)));
    await waitFrames(page, 20);
    assert.ok(await api.frames(page) >= framesBefore + 20, 'frames keep coming after the click');
    assert.ok(!(await api.getState(page)).lesson, 'the lesson did not half-open');
    assert.equal(await page.locator('#notice').getAttribute('role'), 'status', 'said to a screen reader too');

    // The connection is back: the second half is fetched again, and the learner's next try opens the lesson.
    blocked = false;
    const done = await pollUntil(() => tryApi(page, 'setState', { lesson: { id: LESSON, step: 1 } }),
      (r) => r.value && r.value.ok === true, { what: 'the lesson to open', timeout: 20000, interval: 500 });
    assert.deepEqual(done, { value: { ok: true } });
    await waitFrames(page, 3);
    assert.equal((await api.getState(page)).lesson.id, LESSON, 'the lesson is open');
    assert.ok(await page.locator('#notice').isHidden(), 'the notice is gone');
    assert.deepEqual(app.errors.page, [], 'no uncaught error in the page');
  });
});
