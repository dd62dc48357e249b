// lesson-reveal.test.mjs — every prediction answered rightly by real input (a click on the right choice, or
// the number typed into the box and Enter) applies its step's reveal, locked controls included: the text
// that follows a right answer quotes the revealed state, so a reveal undone by the step's locks would make
// the explanation talk about numbers that are not on screen.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT, api, pollUntil, setStateOk, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();
const lessonsDir = path.join(REPO_ROOT, 'data', 'lessons');
const steps = fs.readdirSync(lessonsDir).sort().flatMap((f) => {
  const l = JSON.parse(fs.readFileSync(path.join(lessonsDir, f), 'utf8'));
  return l.steps.map((s, i) => ({ lesson: l.id, step: i + 1, task: s.task || {} }))
    .filter((s) => s.task.kind === 'predict' && s.task.reveal);
});

// Whether `got` shows what `want` set (objects: the keys the reveal names; numbers: as float32).
function shows(got, want) {
  if (Array.isArray(want)) return Array.isArray(got) && got.length === want.length && want.every((w, i) => shows(got[i], w));
  if (want && typeof want === 'object') return Object.keys(want).every((k) => got && shows(got[k], want[k]));
  if (typeof want === 'number') return typeof got === 'number' && Math.abs(got - want) <= 1e-6 * Math.max(1, Math.abs(want));
  return got === want;
}

describe('a right answer applies its reveal', { timeout: 175000 }, () => {
  let app;
  useApp((a) => { app = a; }, { viewport: { width: 1440, height: 900 } });
  const lesson = () => app.page.evaluate(async () => (await window.attnplay.getResult()).lesson);
  const rect = (id) => app.page.evaluate((i) => window.attnplay.ui.itemRect(i), id);

  it(`in every prediction with a reveal (${steps.length} steps)`, async () => {
    const { page } = app;
    const missed = [];
    for (const s of steps) {
      await setStateOk(page, { lesson: { id: s.lesson, step: s.step } });
      await waitFrames(page, 3);
      const target = s.task.choices ? `lesson:choice:${s.task.answer}` : 'lesson:number';
      const r = await pollUntil(() => rect(target), (x) => x && x.w > 0, { what: `${s.lesson} ${s.step}: ${target}` });
      await page.mouse.click(r.x + r.w / 2, r.y + r.h / 2);
      await waitFrames(page, 2);
      if (!s.task.choices) {
        await page.keyboard.type(String(s.task.number));
        await waitFrames(page, 2);
        await page.keyboard.press('Enter');
      }
      const l = await pollUntil(lesson, (x) => x && x.attempts >= 1, { what: `${s.lesson} ${s.step} answered` });
      assert.equal(l.correct, true, `${s.lesson} step ${s.step}: the right answer counts as right`);
      await waitFrames(page, 3);
      const state = await api.getState(page);
      if (!shows(state, s.task.reveal)) missed.push(`${s.lesson} step ${s.step}: reveal ${JSON.stringify(s.task.reveal).slice(0, 120)}`);
    }
    assert.deepEqual(missed, [], 'reveals that did not take effect');
    assert.deepEqual(app.errors.page, []);
  });
});
