// phone-steps.test.mjs — on a phone (390×844 CSS px, touch), every step of every lesson shows at once, without the
// learner scrolling: its question's input (each choice, or the number box and its Check button) in the lesson
// sheet, and the header of the panel the step outlines above the sheet; held on its side (844×390), each step's
// question input and Back/Next.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { siteBuiltTest, startServer, launchChromium, openApp, setStateOk, waitFrames, artifactPath, REPO_ROOT } from './helpers.mjs';

const VIEWPORT = { width: 390, height: 844 };
const DEVICE = { deviceScaleFactor: 1, hasTouch: true, isMobile: true };
const LESSONS = fs.readdirSync(path.join(REPO_ROOT, 'data', 'lessons')).filter((f) => f.endsWith('.json')).sort()
  .map((f) => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'lessons', f), 'utf8')));

describe('a lesson step on a phone', { skip: siteBuiltTest(), timeout: 420000 }, () => {
  let server, browser, page;
  before(async () => {
    server = await startServer();
    browser = await launchChromium();
    ({ page } = await openApp(browser, server.origin, { viewport: VIEWPORT, device: DEVICE }));
  });
  after(async () => { await browser?.close(); await server?.stop(); });

  // The rects the app drew this frame (null: not drawn).
  const rects = (ids) => page.evaluate(async (list) => Object.fromEntries(
    await Promise.all(list.map(async (id) => [id, await window.attnplay.ui.itemRect(id)]))), ids);

  it('shows the question\'s input and the outlined panel together, at every step of every lesson', async () => {
    const problems = [];
    let steps = 0, questions = 0;
    for (const lesson of LESSONS) {
      for (let n = 1; n <= lesson.steps.length; n++) {
        const step = lesson.steps[n - 1];
        await setStateOk(page, { lesson: { id: lesson.id, step: n } });
        await waitFrames(page, 8);  // the column brings the outlined panel up over a few frames
        steps++;
        const inputs = step.task?.kind === 'predict'
          ? (step.task.choices ? step.task.choices.map((_, i) => `lesson:choice:${i}`) : ['lesson:number', 'lesson:check'])
          : [];
        const header = step.highlight ? [`header:${step.highlight}`] : [];
        const r = await rects(['lesson:sheet', ...inputs, ...header]);
        const sheet = r['lesson:sheet'];
        const where = `${lesson.id} step ${n}`;
        if (!sheet) { problems.push(`${where}: no lesson sheet`); continue; }
        const sheetTop = sheet.y, sheetBody = sheet.y + sheet.h;
        if (inputs.length) questions++;
        for (const id of inputs) {
          const b = r[id];
          if (!b) problems.push(`${where}: ${id} not drawn`);
          else if (b.y < sheetBody || b.y + b.h > VIEWPORT.height)
            problems.push(`${where}: ${id} at y ${Math.round(b.y)}–${Math.round(b.y + b.h)}, outside the sheet's ${Math.round(sheetBody)}–${VIEWPORT.height}`);
        }
        for (const id of header) {
          const b = r[id];
          if (!b) problems.push(`${where}: ${id} not drawn`);
          else if (b.y < 0 || b.y + b.h > sheetTop)
            problems.push(`${where}: ${id} at y ${Math.round(b.y)}–${Math.round(b.y + b.h)}, not above the sheet (${Math.round(sheetTop)})`);
        }
        if (problems.length && problems.length <= 3 && problems.at(-1).startsWith(where))
          fs.writeFileSync(artifactPath('phone-steps', `${lesson.id}-${n}.png`), await page.screenshot());
      }
    }
    console.log(`${steps} steps (${questions} with a question) in ${LESSONS.length} lessons; ${problems.length} problems`);
    assert.deepEqual(problems, [], `steps whose question or outlined panel is off screen:\n${problems.join('\n')}`);
  });

  // Held on its side (844 × 390) the lesson takes a column of its own beside the panels: every step's question
  // input and Back/Next lie wholly on screen, with no scrolling, as the learner arrives at the step.
  it('on its side, shows every step\'s question input and Back/Next without scrolling', async () => {
    const side = { width: VIEWPORT.height, height: VIEWPORT.width };
    const { context, page: turned } = await openApp(browser, server.origin, { viewport: side, device: DEVICE });
    const problems = [];
    let steps = 0;
    try {
      for (const lesson of LESSONS) {
        for (let n = 1; n <= lesson.steps.length; n++) {
          const step = lesson.steps[n - 1];
          await setStateOk(turned, { lesson: { id: lesson.id, step: n } });
          await waitFrames(turned, 4);
          steps++;
          const ids = ['lesson:back', 'lesson:next', ...(step.task?.kind === 'predict'
            ? (step.task.choices ? step.task.choices.map((_, i) => `lesson:choice:${i}`) : ['lesson:number', 'lesson:check'])
            : [])];
          const r = await turned.evaluate(async (list) => Object.fromEntries(
            await Promise.all(list.map(async (id) => [id, await window.attnplay.ui.itemRect(id)]))), ids);
          for (const id of ids) {
            const b = r[id];
            if (!b) problems.push(`${lesson.id} step ${n}: ${id} not drawn`);
            else if (b.y < 0 || b.x < 0 || b.y + b.h > side.height || b.x + b.w > side.width)
              problems.push(`${lesson.id} step ${n}: ${id} at ${JSON.stringify(b)}, off the ${side.width}×${side.height} screen`);
          }
        }
      }
      fs.writeFileSync(artifactPath('phone-steps', 'landscape-last-step.png'), await turned.screenshot());
    } finally {
      await context.close();
    }
    console.log(`on its side: ${steps} steps; ${problems.length} problems`);
    assert.deepEqual(problems, [], problems.join('\n'));
  });
});
