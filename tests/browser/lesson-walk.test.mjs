// lesson-walk.test.mjs — a learner walks the why-sqrt-dk lesson by real clicks inside an embedded frame:
// a prediction answered wrongly then rightly, a numeric prediction, a "do" task done by dragging the real
// d_k slider, Finish. The course page around it receives lesson-step, answer and lesson-complete events.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { artifactPath, launchChromium, pollUntil, siteBuiltTest, startServer } from './helpers.mjs';

siteBuiltTest();

function hostPage(src, playgroundOrigin) {
  return `<!doctype html><html><body style="margin:0">
<iframe id="pg" src="${src}" style="position:absolute;left:10px;top:20px;width:1200px;height:820px;border:0"></iframe>
<script>
  window.events = [];
  const frame = document.getElementById('pg');
  window.addEventListener('message', (ev) => {
    if (ev.origin !== ${JSON.stringify(playgroundOrigin)} || !ev.data || ev.data.attnplay !== 1) return;
    if (ev.data.event === 'ready') frame.contentWindow.postMessage({attnplay: 1, id: 1, cmd: 'subscribe'}, ${JSON.stringify(playgroundOrigin)});
    if (ev.data.id === 1) window.subscribed = ev.data.ok;
    if (ev.data.event && ev.data.event !== 'change') window.events.push(ev.data);
  });
</script></body></html>`;
}

describe('a lesson walked by real clicks', { timeout: 175000 }, () => {
  let playground, host, hostDir, browser;
  before(async () => {
    playground = await startServer();
    // The course page is a real file on a second origin (a document fulfilled by page.route cannot
    // load a cross-origin frame in this Chromium).
    hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnplay-course-'));
    host = await startServer({ dir: hostDir });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await host?.stop();
    await playground?.stop();
    if (hostDir) fs.rmSync(hostDir, { recursive: true, force: true });
  });

  // wcag: 3.3.2 — the number answer's field is described by its question (aria-describedby)
  it('predict wrong then right, a numeric answer, a slider drag, completion, and the host hears each', async () => {
    const context = await browser.newContext({ viewport: { width: 1240, height: 860 } });
    const page = await context.newPage();
    const src = `${playground.origin}/index.html?embed=1&lesson=why-sqrt-dk&step=1&origins=${encodeURIComponent(host.origin)}`;
    fs.writeFileSync(path.join(hostDir, 'lesson-host.html'), hostPage(src, playground.origin));
    await page.goto(`${host.origin}/lesson-host.html`);
    const frame = await pollUntil(async () => page.frames().find((f) => f.url().includes('lesson=why-sqrt-dk')), Boolean,
      { what: 'the playground frame', timeout: 10000 });
    await frame.waitForFunction(() => window.attnplay && window.attnplay.frames() >= 2, null, { timeout: 60000, polling: 100 });
    await pollUntil(() => page.evaluate(() => window.subscribed), (v) => v === true, { timeout: 30000, what: 'the host subscribed' });
    const off = await page.evaluate(() => { const r = document.getElementById('pg').getBoundingClientRect(); return { x: r.left, y: r.top }; });
    const frames = () => frame.evaluate(() => window.attnplay.frames());
    const settle = async (n = 2) => { const f0 = await frames(); await pollUntil(frames, (f) => f >= f0 + n, { what: 'frames' }); };
    // Where the item is once it stands still for a frame: a reveal re-lays out the lesson panel.
    const rect = async (id) => {
      let last = null;
      return pollUntil(async () => {
        const r = await frame.evaluate((i) => window.attnplay.ui.itemRect(i), id);
        const still = r && r.w > 0 && last && r.x === last.x && r.y === last.y && r.w === last.w && r.h === last.h;
        last = r;
        if (!still) await settle(1);
        return still ? r : null;
      }, Boolean, { what: `item ${id} to stand still`, timeout: 8000 });
    };
    const clickItem = async (id) => {
      const r = await rect(id);
      await page.mouse.move(off.x + r.x + r.w / 2, off.y + r.y + r.h / 2);
      await settle(1);
      await page.mouse.down();
      await settle(1);
      await page.mouse.up();
      await settle(2);
    };
    const state = () => frame.evaluate(() => window.attnplay.getState());
    const events = () => page.evaluate(() => window.events);

    let s = await state();
    assert.deepEqual(s.lesson, { id: 'why-sqrt-dk', step: 1 }, 'the link opened the lesson at step 1');
    assert.equal(s.d_k, 4);
    await clickItem('lesson:next');
    s = await pollUntil(state, (v) => v.lesson.step === 2, { what: 'step 2' });

    await clickItem('lesson:choice:1');  // "down": wrong
    await pollUntil(events, (e) => e.some((x) => x.event === 'answer' && x.correct === false), { what: 'a wrong answer event' });
    assert.equal((await state()).d_k, 4, 'nothing is revealed after a wrong answer');
    await clickItem('lesson:next');  // must not advance
    assert.equal((await state()).lesson.step, 2, 'Next waits for a right answer');
    await clickItem('lesson:choice:2');  // "up": right (the choices are "stays", "down", "up")
    s = await pollUntil(state, (v) => v.d_k === 400, { what: 'the reveal (d_k = 400)' });
    const answers = (await events()).filter((x) => x.event === 'answer');
    assert.deepEqual(answers.map((a) => [a.question, a.correct]), [['unscaled-max-weight-400', false], ['unscaled-max-weight-400', true]]);

    await clickItem('lesson:next');
    await pollUntil(state, (v) => v.lesson.step === 3, { what: 'step 3' });
    // The parallel DOM's answer field is described by its question (a screen reader says what is asked).
    const field = await pollUntil(() => frame.evaluate(() => {
      const input = document.getElementById('a11y-number');
      const by = input && document.getElementById(input.getAttribute('aria-describedby'));
      return by && by.textContent;
    }), Boolean, { what: 'the answer field described by its question' });
    assert.match(field, /Var\(q·k\)/);
    await clickItem('lesson:number');
    await page.keyboard.type('64');
    await settle(2);
    await clickItem('lesson:check');
    await pollUntil(events, (e) => e.some((x) => x.event === 'answer' && x.question === 'var-qk-64' && x.correct), { what: 'the numeric answer' });

    await clickItem('lesson:next');
    await pollUntil(state, (v) => v.lesson.step === 4 && v.d_k === 4 && v.scale === false, { what: 'step 4' });
    const slider = await rect('d_k');
    await page.mouse.move(off.x + slider.x + 4, off.y + slider.y + slider.h / 2);
    await settle(1);
    await page.mouse.down();
    await settle(1);
    for (let i = 1; i <= 10; i++) {
      await page.mouse.move(off.x + slider.x + (slider.w - 2) * i / 10, off.y + slider.y + slider.h / 2);
      await settle(1);
    }
    await page.mouse.up();
    await settle(3);
    s = await state();
    assert.ok(s.d_k > 100, `the drag moved d_k (now ${s.d_k})`);
    assert.equal(s.scale, false, 'scaling stays off: the step locks it');
    await pollUntil(events, (e) => e.some((x) => x.event === 'answer' && x.question === 'drag-until-saturated' && x.correct),
      { what: 'the do task done' });

    await clickItem('lesson:next');
    await pollUntil(state, (v) => v.lesson.step === 5, { what: 'step 5' });
    await clickItem('lesson:next');  // Finish
    await pollUntil(events, (e) => e.some((x) => x.event === 'lesson-complete'), { what: 'lesson-complete' });
    const all = await events();
    const steps = all.filter((x) => x.event === 'lesson-step').map((x) => x.step);
    assert.deepEqual(steps.slice(-4), [2, 3, 4, 5], `lesson-step events in order: ${JSON.stringify(steps)}`);
    const complete = all.find((x) => x.event === 'lesson-complete');
    assert.equal(complete.lesson, 'why-sqrt-dk');
    // Two predictions, the first right only at the second try: the score the host hears is 1 of 2.
    assert.deepEqual([complete.questions, complete.right_first], [2, 1], 'the score travels with lesson-complete');
    assert.equal((await state()).lesson, null, 'back in free play');

    // The results: on the canvas (the lesson panel) and in the parallel DOM, the same words.
    assert.ok((await rect('lesson:results')).w > 0, 'the results are drawn on the canvas');
    const dom = await pollUntil(() => frame.evaluate(() => {
      const sec = document.getElementById('a11y-lesson-results');
      return sec && { score: sec.querySelector('#a11y-lesson-score').textContent, rows: [...sec.querySelectorAll('li')].map((li) => li.textContent) };
    }), Boolean, { what: 'the results in the parallel DOM' });
    assert.match(dom.score, /Right at the first try: 1 of 2 predictions \(50 %\)/);
    assert.equal(dom.rows.length, 2);
    assert.match(dom.rows[0], /Right at the second try/);
    assert.match(dom.rows[1], /You answered: 64.*Right at the first try/);
    await page.screenshot({ path: artifactPath('lesson-results', 'results-embed.png') });
    // Review step 2 from the canvas: it opens as it was left (d_k 400 revealed), and no new answer reaches the host.
    const answersBefore = (await events()).filter((x) => x.event === 'answer').length;
    await clickItem('lesson:review:2');
    await pollUntil(state, (v) => v.lesson && v.lesson.step === 2 && v.d_k === 400, { what: 'step 2 reviewed as left' });
    await clickItem('lesson:choice:1');
    await settle(3);
    assert.equal((await events()).filter((x) => x.event === 'answer').length, answersBefore, 'a reviewed step takes no new answer');
    await context.close();
  });
});
