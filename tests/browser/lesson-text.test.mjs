// lesson-text.test.mjs — a lesson step says the same on every surface in the states a learner reaches by real input:
// "Why divide by √d_k" step 4, the goal met by dragging d_k and then dragged back (the explanation keeps the goal's
// numbers and the page says they are from then, in the parallel DOM and the live region as on the canvas's item);
// a question's weights are not read out before it is answered; after a wrong pick the choices stay where they were,
// so the second click lands on the choice the learner aimed at.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pollUntil, setStateOk, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

describe('lesson texts on every surface', { timeout: 170000 }, () => {
  let app;
  useApp((a) => { app = a; }, { viewport: { width: 1440, height: 900 } });
  const dom = (sel) => app.page.evaluate((s) => { const e = document.querySelector(s); return e ? e.textContent : null; }, sel);
  const rect = (id) => app.page.evaluate((i) => window.attnplay.ui.itemRect(i), id);
  const lesson = () => app.page.evaluate(async () => (await window.attnplay.getResult()).lesson);

  // Drags the d_k slider to its right end and then back to its left end with the real mouse.
  async function dragDk(toRight) {
    const { page } = app;
    const r = await pollUntil(() => rect('d_k'), (x) => x && x.w > 0, { what: 'the d_k slider' });
    const y = r.y + r.h / 2;
    await page.mouse.move(r.x + r.w / 2, y);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) {
      await page.mouse.move(r.x + r.w / 2 + ((toRight ? 1 : -1) * i * r.w) / 8, y);
      await waitFrames(page, 1);
    }
    await page.mouse.up();
    await waitFrames(page, 3);
  }

  it('a done goal keeps the numbers of its moment and says what changed since, on every surface', async () => {
    const { page } = app;
    await setStateOk(page, { lesson: { id: 'why-sqrt-dk', step: 4 } });
    await waitFrames(page, 3);
    await dragDk(true);
    const done = await pollUntil(lesson, (l) => l && l.goal_met, { what: 'the goal met by the drag' });
    assert.ok(done);
    const explain = await pollUntil(() => dom('#a11y-explain'), Boolean, { what: 'the explanation in the parallel DOM' });
    const atGoal = Number(/largest weight ([0-9.]+)/.exec(explain)[1]);
    assert.ok(atGoal > 0.95, `the explanation quotes the saturated row (${explain})`);
    assert.ok(await rect('lesson:explain'), 'the canvas draws the explanation');
    await dragDk(false);
    const state = await page.evaluate(() => window.attnplay.getState());
    assert.ok(state.d_k < 64, `d_k dragged back down (${state.d_k})`);
    const since = await pollUntil(() => dom('#a11y-explain-since'), Boolean, { what: 'the line saying the numbers are from then' });
    assert.match(since, new RegExp(`d_k \\d+ → ${state.d_k}\\b`));
    assert.equal(await dom('#a11y-explain'), explain, 'the explanation still quotes the moment the goal was met');
    assert.match(await dom('#a11y-verdict'), /^✓ Done\./);
    // The live region says the same words (verdict, then the explanation).
    const live = await pollUntil(() => dom('#a11y-summary'), (t) => t && t.includes(explain), { what: 'the explanation in the live region' });
    assert.ok(!/\{[a-z_0-9]+\}/.test(live), `no template in the live region: ${live}`);
  });

  it('keeps the weights a question asks out of the live summary and the weights table until it is answered', async () => {
    const { page } = app;
    await setStateOk(page, { lesson: { id: 'softmax', step: 2 } });
    await waitFrames(page, 3);
    // The live region speaks the settled state (600 ms after the last change): the new step's summary.
    const before = await pollUntil(() => dom('#a11y-summary'), (t) => t && t.includes('hidden until you answer'),
      { what: 'the summary of the new step' });
    assert.ok(!/\d%/.test(before), `no weight read out before the answer: ${before}`);
    assert.ok(await dom('#a11y-weights-withheld'), 'the weights table says the weights are hidden');
    const q = (await lesson()).questions.find((x) => x.step === 2);
    const answer = q.kind === 'choice' ? { do: 'choice', value: q.correct_response } : { do: 'number', value: String(q.correct_response.number) };
    await page.evaluate((a) => window.attnplay.a11y.act(a), answer);
    await pollUntil(lesson, (x) => x && x.answered, { what: 'the answer' });
    const after = await pollUntil(() => dom('#a11y-summary'), (t) => /\d%/.test(t), { what: 'the weights read out once answered' });
    assert.ok(after);
    assert.equal(await dom('#a11y-weights-withheld'), null);
  });

  it('after a wrong pick the choices stay where they were', async () => {
    const { page } = app;
    await setStateOk(page, { lesson: { id: 'not-explanation', step: 1 } });
    await page.mouse.click(1000, 700);  // the canvas has the focus (the test before answered through the DOM)
    await waitFrames(page, 3);
    const ids = [0, 1, 2, 3].map((i) => `lesson:choice:${i}`);
    const before = [];
    for (const id of ids) before.push(await pollUntil(() => rect(id), (x) => x && x.w > 0, { what: id }));
    const result = await lesson();
    const correct = result.questions.find((q) => q.step === 1).correct_response;
    const wrong = correct === 0 ? 1 : 0;
    await page.mouse.move(before[wrong].x + before[wrong].w / 2, before[wrong].y + before[wrong].h / 2);
    await waitFrames(page, 2);
    await page.mouse.down();
    await waitFrames(page, 2);
    await page.mouse.up();
    await pollUntil(lesson, (x) => x && x.attempts === 1, { what: 'the wrong pick' });
    await waitFrames(page, 4);
    for (let i = 0; i < ids.length; i++) assert.deepEqual(await rect(ids[i]), before[i], `${ids[i]} did not move`);
    assert.ok(await rect('lesson:feedback'), 'the feedback is shown');
  });
});
