// teacher-lesson.test.mjs — a teacher's own lesson file (texts inline in English and Hinglish, 3 steps, one
// prediction) opens in the page by the Import file picker, by dropping the file, by ?lesson-url= and by a
// course page's postMessage; its prediction is answered by real clicks (a wrong choice keeps the state, the
// right one reveals). A malformed lesson gets its one message while the app keeps running with the lesson
// and state it had.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT, launchChromium, pollUntil, siteBuiltTest, startServer } from './helpers.mjs';

siteBuiltTest();

const EXAMPLE = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'examples', 'my-lesson.json'), 'utf8'));
const lessonText = (id) => JSON.stringify({ ...EXAMPLE, id });
const broken = () => {
  const l = structuredClone(EXAMPLE);
  l.id = 'broken-lesson';
  l.steps[1].task.answer = 5;
  return JSON.stringify(l);
};
const BROKEN_MESSAGE = 'step 2 ("predict"): task.answer 5 is out of range: choices are counted 0 to 1';

// Opens the page in `page` (routes already set) and waits until it is ready.
async function openPage(page, url) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => window.attnplay && window.attnplay.frames() >= 2, null, { timeout: 60000, polling: 100 });
  await page.evaluate(() => window.attnplay.ready);
  return errors;
}

// Real clicks on tracked controls of the page (or of a frame at offset `off` inside `page`).
function clicker(page, target = page, off = { x: 0, y: 0 }) {
  const frames = () => target.evaluate(() => window.attnplay.frames());
  const settle = async (n = 2) => { const f0 = await frames(); await pollUntil(frames, (f) => f >= f0 + n, { what: 'frames', timeout: 10000 }); };
  const rect = async (id) => {
    let last = null;
    return pollUntil(async () => {
      const r = await target.evaluate((i) => window.attnplay.ui.itemRect(i), id);
      const still = r && r.w > 0 && last && r.x === last.x && r.y === last.y && r.w === last.w && r.h === last.h;
      last = r;
      if (!still) await settle(1);
      return still ? r : null;
    }, Boolean, { what: `item ${id} to stand still`, timeout: 10000 });
  };
  return async (id) => {
    const r = await rect(id);
    await page.mouse.move(off.x + r.x + r.w / 2, off.y + r.y + r.h / 2);
    await settle(1);
    await page.mouse.down();
    await settle(1);
    await page.mouse.up();
    await settle(2);
  };
}

// Step 1 → Next → the prediction: "Down" (wrong: d_k stays 4), then "Up" (right: the reveal sets d_k = 400).
async function answerByClicks(page, target, lessonId, off) {
  const state = () => target.evaluate(() => window.attnplay.getState());
  const click = clicker(page, target, off);
  await pollUntil(state, (s) => s.lesson && s.lesson.id === lessonId && s.lesson.step === 1, { what: `${lessonId} at step 1`, timeout: 15000 });
  await click('lesson:next');
  await pollUntil(state, (s) => s.lesson.step === 2, { what: 'step 2' });
  await click('lesson:choice:1');
  await pollUntil(() => target.evaluate(() => window.attnplay.ui.itemRect('lesson:feedback')), Boolean, { what: 'the wrong choice\'s feedback' });
  assert.equal((await state()).d_k, 4, 'a wrong answer reveals nothing');
  await click('lesson:choice:0');
  await pollUntil(state, (s) => s.d_k === 400, { what: 'the reveal (d_k = 400)' });
  await pollUntil(() => target.evaluate(() => window.attnplay.ui.itemRect('lesson:explain')), Boolean, { what: 'the explanation' });
  await click('lesson:next');
  await pollUntil(state, (s) => s.lesson.step === 3, { what: 'step 3' });
}

describe('a teacher\'s lesson', { timeout: 170000 }, () => {
  let server, host, hostDir, browser;
  before(async () => {
    server = await startServer();
    hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnplay-teacher-'));
    host = await startServer({ dir: hostDir });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await host?.stop();
    await server?.stop();
    if (hostDir) fs.rmSync(hostDir, { recursive: true, force: true });
  });

  it('opens from the Import file picker and from a dropped file; its prediction answers by clicks', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    try {
      const errors = await openPage(page, `${server.origin}/index.html`);
      await page.setInputFiles('#import-file', { name: 'my-lesson.json', mimeType: 'application/json', buffer: Buffer.from(lessonText('picked-lesson')) });
      await pollUntil(() => page.evaluate(() => window.attnplay.watch()), (w) => /Bigger d_k, peakier weights/.test(w.status),
        { what: 'the status line naming the opened lesson', timeout: 15000 });
      await answerByClicks(page, page, 'picked-lesson');

      await page.evaluate((text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'dropped.json', { type: 'application/json' }));
        window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, lessonText('dropped-lesson'));
      await pollUntil(() => page.evaluate(() => window.attnplay.getState()), (s) => s.lesson && s.lesson.id === 'dropped-lesson',
        { what: 'the dropped lesson open', timeout: 10000 });

      // Malformed: the one message, and the lesson and state as they were.
      const before = await page.evaluate(() => window.attnplay.getState());
      const r = await page.evaluate((text) => window.attnplay.loadLesson(text, 'broken.json'), broken());
      assert.equal(r.ok, false);
      assert.equal(r.error, BROKEN_MESSAGE);
      const after = await page.evaluate(() => window.attnplay.getState());
      assert.deepEqual(after.lesson, before.lesson, 'the open lesson is kept');
      assert.equal(after.d_k, before.d_k);
      assert.match((await page.evaluate(() => window.attnplay.watch())).status, /Could not open the lesson broken\.json: step 2/);
      const syntax = await page.evaluate(() => window.attnplay.loadLesson('{\n  "id": "x",\n  "steps": [}', 'syntax.json'));
      assert.equal(syntax.error, 'JSON syntax error at line 3, column 13');
      const f0 = await page.evaluate(() => window.attnplay.frames());
      await pollUntil(() => page.evaluate(() => window.attnplay.frames()), (f) => f > f0 + 2, { what: 'frames after a refusal' });
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it('opens from ?lesson-url= (same origin); a failed fetch says why', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
    await context.route(`${server.origin}/teacher/my-lesson.json`, (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: lessonText('url-lesson') }));
    const page = await context.newPage();
    try {
      const errors = await openPage(page, `${server.origin}/index.html?lesson-url=${encodeURIComponent('/teacher/my-lesson.json')}`);
      await answerByClicks(page, page, 'url-lesson');
      const missing = await page.evaluate(() => window.attnplay.loadLessonURL('/teacher/missing.json'));
      assert.equal(missing.ok, false);
      assert.match(missing.error, /Could not fetch the lesson \/teacher\/missing\.json: HTTP 404/);
      const foreign = await page.evaluate(() => window.attnplay.loadLessonURL('http://example.invalid/lesson.json'));
      assert.match(foreign.error, /not listed in lesson-origins/);
      assert.equal((await page.evaluate(() => window.attnplay.getState())).lesson.id, 'url-lesson', 'the open lesson stays');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it('opens from a course page\'s postMessage; a malformed one is answered with its message', async () => {
    const context = await browser.newContext({ viewport: { width: 1300, height: 880 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    try {
      const src = `${server.origin}/index.html?embed=1&origins=${encodeURIComponent(host.origin)}`;
      fs.writeFileSync(path.join(hostDir, 'course.html'), `<!doctype html><html><body style="margin:0">
<iframe id="pg" src="${src}" style="position:absolute;left:10px;top:20px;width:1240px;height:840px;border:0"></iframe>
<script>
  window.replies = {};
  window.addEventListener('message', (ev) => { if (ev.data && ev.data.attnplay === 1 && ev.data.id) window.replies[ev.data.id] = ev.data; });
  window.send = (msg) => document.getElementById('pg').contentWindow.postMessage(Object.assign({ attnplay: 1 }, msg), ${JSON.stringify(server.origin)});
</script></body></html>`);
      await page.goto(`${host.origin}/course.html`);
      const frame = await pollUntil(async () => page.frames().find((f) => f.url().includes('embed=1')), Boolean, { what: 'the frame', timeout: 10000 });
      await frame.waitForFunction(() => window.attnplay && window.attnplay.frames() >= 2, null, { timeout: 60000, polling: 100 });
      await frame.evaluate(() => window.attnplay.ready);
      const reply = (id) => pollUntil(() => page.evaluate((i) => window.replies[i], id), Boolean, { what: `reply ${id}`, timeout: 10000 });
      await page.evaluate((lesson) => window.send({ id: 1, cmd: 'loadLesson', lesson }), JSON.parse(lessonText('posted-lesson')));
      const ok = await reply(1);
      assert.equal(ok.ok, true, JSON.stringify(ok));
      assert.deepEqual(ok.result, { id: 'posted-lesson', steps: 3, warnings: [] });
      const off = await page.evaluate(() => { const r = document.getElementById('pg').getBoundingClientRect(); return { x: r.left, y: r.top }; });
      await answerByClicks(page, frame, 'posted-lesson', off);

      await page.evaluate((text) => window.send({ id: 2, cmd: 'loadLesson', lesson: text, name: 'broken.json' }), broken());
      const bad = await reply(2);
      assert.deepEqual(bad, { attnplay: 1, id: 2, ok: false, error: BROKEN_MESSAGE });
      await page.evaluate(() => window.send({ id: 3, cmd: 'loadLesson' }));
      assert.match((await reply(3)).error, /loadLesson needs "lesson"/);
      await page.evaluate(() => window.send({ id: 4, cmd: 'getState' }));
      const st = (await reply(4)).result;
      assert.deepEqual(st.lesson, { id: 'posted-lesson', step: 3 }, 'the app still answers, with the lesson it had');
    } finally {
      await context.close();
    }
  });
});
