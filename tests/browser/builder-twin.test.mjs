// builder-twin.test.mjs — a teacher who uses a keyboard and a screen reader builds a lesson in the lesson builder's
// parallel-DOM twin: opens the builder from the View menu's twin, names the lesson, adds two views as steps, types
// their texts, makes the second a choice question (its choices, which one is right, why the other is wrong), hears the
// checker's verdict, saves the file, previews the lesson as a learner and stops the preview — every step by Tab, arrows,
// typed keys and Enter. The saved file passes `attnplay lesson check`; the canvas's builder panel draws the same draft
// (its steps and the question it edits), the progress keeps it, and after a reload the twin shows it again.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { REPO_ROOT, api, itemRect, keyboard, pollUntil, setStateOk, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();
const en = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'strings', 'en.json'), 'utf8'));
const BIN = path.join(REPO_ROOT, 'build', 'native', 'attnplay');

describe('the lesson builder by keyboard, through its parallel-DOM twin', { timeout: 240000 }, () => {
  let page, kb;
  useApp((a) => { page = a.page; }, { viewport: { width: 1440, height: 900 } });
  before(() => { kb = keyboard(page); });
  const builder = () => page.evaluate(() => window.attnplay.a11y.description().then((d) => d.builder));
  const kept = () => page.evaluate(() => JSON.parse(localStorage.getItem(Object.keys(localStorage).find((k) => /progress/.test(k))) || '{}').builder);
  const live = () => page.evaluate(() => document.getElementById('a11y-summary').textContent);
  const value = (id) => page.evaluate((i) => document.getElementById(i).value, id);
  // Selects what the focused field holds and types over it; Enter hands it over.
  async function typeOver(text, { enter = true } = {}) {
    await page.keyboard.press('Control+A');
    await page.keyboard.type(text);
    if (enter) await kb.key('Enter');
  }
  // The kept draft once step n (from 1) reads `text`.
  const keptText = (n, text) => pollUntil(kept, (b) => b && b.steps && b.steps[n - 1] && b.steps[n - 1].text && b.steps[n - 1].text.en === text,
    { what: `step ${n} kept as "${text}"` });

  // wcag: 2.1.1 — the lesson builder by keyboard alone in the parallel DOM
  // wcag: 4.1.2 — the builder's fields, buttons and radio groups are native controls named by the canvas's labels
  it('builds, checks, saves, previews and stops a two-step lesson with a choice question', async () => {
    await setStateOk(page, { d_k: 8 });
    await kb.tabTo('a11y-menus', 'a11y-view-builder');
    await kb.key('Space');
    await pollUntil(() => api.getState(page), (s) => s.panels.builder, { what: 'the builder open' });

    await kb.tabTo('a11y-builder', 'a11y-builder-id');
    await typeOver('kb-lesson', { enter: false });
    await kb.key('Tab');  // leaving the field hands its text over
    assert.equal(await kb.activeId(), 'a11y-builder-title');
    await typeOver('By keys', { enter: false });
    await kb.tabToId('a11y-builder-add');
    await kb.key('Enter');
    await pollUntil(kb.activeId, (id) => id === 'a11y-builder-step-1-text', { what: "the new step's text taking the focus" });
    await typeOver('Look at the weights at d_k 8.');
    await keptText(1, 'Look at the weights at d_k 8.');
    assert.equal((await kept()).id, 'kb-lesson');

    // The teacher changes the view (the playground's own twins), then adds it as the second step.
    await setStateOk(page, { d_k: 16 });
    await kb.tabTo('a11y-builder', 'a11y-builder-add');
    await kb.key('Enter');
    await pollUntil(kb.activeId, (id) => id === 'a11y-builder-step-2-text', { what: "step 2's text taking the focus" });
    await typeOver('Now d_k 16.');
    await keptText(2, 'Now d_k 16.');
    await kb.tabToId('a11y-builder-step-2-ask-0');  // the radio of the canvas's "builder:step:2:ask:0"
    await kb.key('ArrowRight');  // "Choices": the radio group moves with the arrows
    await pollUntil(kept, (b) => b.steps[1].task && b.steps[1].task.choices, { what: 'step 2 asking with choices' });
    assert.equal(await kb.activeId(), 'a11y-builder-step-2-ask-1', 'the focus stays on the chosen kind');
    await kb.tabToId('a11y-builder-step-2-question');
    await typeOver('Which d_k makes this row flatter?', { enter: false });
    await kb.tabToId('a11y-builder-step-2-choice-1');
    await typeOver('d_k 8', { enter: false });
    await kb.tabToId('a11y-builder-step-2-choice-2');
    await typeOver('d_k 16', { enter: false });
    await kb.tabToId('a11y-builder-step-2-choice-1-right');
    await kb.key('ArrowDown');  // the second choice is the right one
    await pollUntil(() => builder(), (b) => JSON.stringify(b).includes('builder:step:2:choice:1:feedback'), { what: "the first choice asking why it is wrong" });
    await kb.tabToId('a11y-builder-step-2-choice-1-feedback', { back: true });
    await typeOver('Scaling keeps the rows alike.');

    const ready = en['builder.ok'].replace('{n}', '2');
    const b = await pollUntil(builder, (d) => d.verdict === ready, { what: 'the verdict "ready"' });
    const flat = JSON.stringify(b.items);
    assert.ok(flat.includes('"id":"builder:check"'), 'the verdict is in the twin');
    await pollUntil(live, (t) => t.includes(ready), { what: 'the live region saying the verdict', timeout: 8000 });

    // The canvas draws the same draft: both steps, the second being edited with its question.
    await waitFrames(page, 3);
    for (const id of ['builder:step:1', 'builder:step:2', 'builder:step:2:question', 'builder:step:2:choice:2:right'])
      assert.ok(await itemRect(page, id), `the canvas draws ${id}`);

    await kb.tabToId('a11y-builder-save');
    const [download] = await Promise.all([page.waitForEvent('download'), kb.key('Enter')]);
    assert.equal(download.suggestedFilename(), 'kb-lesson.json');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'attnplay-kb-')), 'kb-lesson.json');
    fs.copyFileSync(await download.path(), file);
    execFileSync(BIN, ['lesson', 'check', file], { stdio: 'pipe' });  // throws when the lesson is refused
    const lesson = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal(lesson.steps.length, 2);
    assert.equal(lesson.steps[1].state.d_k, 16);
    assert.deepEqual(lesson.steps[1].task.choices.map((c) => c.en), ['d_k 8', 'd_k 16']);
    assert.equal(lesson.steps[1].task.feedback[0].en, 'Scaling keeps the rows alike.');
    assert.equal(lesson.steps[1].task.answer, 1);
    assert.deepEqual(lesson.steps.map((s) => s.text.en), (await kept()).steps.map((s) => s.text.en), 'the file is the kept draft');

    // Preview: the lesson's own twin takes the focus; Stop gives the builder back with the view as it was.
    await kb.tabToId('a11y-builder-preview', { back: true });
    await kb.key('Enter');
    await pollUntil(() => api.getState(page), (s) => s.lesson && s.lesson.id === 'kb-lesson', { what: 'the preview open' });
    await pollUntil(kb.activeId, (id) => id === 'a11y-lesson-text', { what: "the lesson step's text taking the focus" });
    await kb.tabTo('a11y-builder', 'a11y-builder-stop');
    await kb.key('Enter');
    const back = await pollUntil(() => api.getState(page), (s) => !s.lesson || !s.lesson.id, { what: 'the preview stopped' });
    assert.equal(back.d_k, 16, 'the view is as it was before the preview');
    await pollUntil(kb.activeId, (id) => id === 'a11y-builder-preview', { what: 'the focus back on Preview' });

    // A reload keeps the draft, and the twin shows it.
    await page.reload();
    await page.waitForFunction(() => window.attnplay && window.attnplay.ready);
    await page.evaluate(() => window.attnplay.ready);
    await waitFrames(page, 3);
    if (!(await api.getState(page)).panels.builder) {  // the page opens with the learner's panels: open it again
      await kb.tabTo('a11y-menus', 'a11y-view-builder');
      await kb.key('Space');
    }
    const again = await pollUntil(builder, (d) => d && JSON.stringify(d.items).includes('builder:step:2'), { what: 'the draft after a reload', timeout: 15000 });
    assert.equal(again.verdict, ready);
    assert.equal(await value('a11y-builder-id'), 'kb-lesson');
  });

  // wcag: 2.4.7 — a single box of a step's locks or facts asked, which the canvas draws in a tree it tracks as one,
  // shows its focus over the canvas (its name and whether it is ticked), and follows Space
  it('shows the focus of a lock\'s or a fact\'s box, which the canvas cannot ring, with its state as Space changes it', async () => {
    const shown = () => page.evaluate(() => { const n = document.getElementById('a11y-focus-shown'); return n.hidden ? null : n.textContent; });
    for (const tree of ['locks', 'asks']) {
      await kb.tabTo('a11y-builder', 'a11y-builder-add');
      // The tree of the step being edited (the builder's editor shows the selected step's).
      const onSummary = () => page.evaluate((t) => document.activeElement.tagName === 'SUMMARY' &&
        new RegExp(`^a11y-builder-step-\\d+-${t}$`).test(document.activeElement.parentElement.id), tree);
      for (let i = 0; i < 80 && !(await onSummary()); i++) await kb.key('Tab');
      assert.ok(await onSummary(), `Tab reaches the step's ${tree}`);
      if (!(await page.evaluate(() => document.activeElement.parentElement.open))) await kb.key('Enter');  // opens the tree
      await kb.key('Tab');
      const box = await page.evaluate(() => { const b = document.activeElement; return b.type === 'checkbox' && { id: b.id, label: document.querySelector(`label[for="${b.id}"]`).textContent, checked: b.checked, tree: b.closest('details').id }; });
      assert.ok(box && box.tree.endsWith('-' + tree), `a box of the ${tree} has the focus: ${JSON.stringify(box)}`);
      const mark = (on) => (on ? '\u2611 ' : '\u2610 ') + box.label;
      assert.equal(await pollUntil(shown, (t) => t !== null, { what: `the ${tree} box's focus shown` }), mark(box.checked));
      await kb.key('Space');
      await pollUntil(shown, (t) => t === mark(!box.checked), { what: `the shown ${tree} box following Space` });
      await kb.key('Space');
      await pollUntil(shown, (t) => t === mark(box.checked), { what: 'and back' });
      await kb.tabToId('a11y-builder-add', { back: true });  // the canvas rings Add: the page shows nothing of its own
      await pollUntil(shown, (t) => t === null, { what: 'nothing shown on Add' });
    }
  });

  // wcag: 2.1.1 — moving, deleting and refusing by keyboard
  it('moves and deletes steps, and says why an output is refused while the draft has a problem', async () => {
    await kb.tabTo('a11y-builder', 'a11y-builder-step-2-up');
    await kb.key('Enter');
    await pollUntil(kept, (b) => b.steps[0].text.en === 'Now d_k 16.', { what: 'step 2 moved up' });
    assert.equal((await kept()).steps[0].task.id, 'q1', 'its question keeps its id');
    await kb.tabToId('a11y-builder-add', { back: true });
    await kb.key('Enter');  // a step with no text: the draft is no lesson until it has one
    const b = await pollUntil(builder, (d) => d.verdict !== en['builder.ok'].replace('{n}', '3') && /3\./.test(JSON.stringify(d.items)), { what: 'a third step' });
    const save = JSON.parse(JSON.stringify(b.items)).flatMap(function walk(it) { return [it, ...(it.items || []).flatMap(walk)]; }).find((it) => it.id === 'builder:save');
    assert.equal(save.disabled, true);
    assert.equal(await page.evaluate(() => document.getElementById('a11y-builder-save').getAttribute('aria-disabled')), 'true');
    const why = await page.evaluate(() => document.getElementById(document.getElementById('a11y-builder-save').getAttribute('aria-describedby')).textContent);
    assert.ok(why.startsWith(en['builder.problem'].split('{')[0]), `Save says why it is refused: ${why}`);
    await kb.tabTo('a11y-builder', 'a11y-builder-step-3-delete');
    await kb.key('Enter');
    await pollUntil(kept, (k) => k.steps.length === 2, { what: 'the empty step deleted' });
    await pollUntil(builder, (d) => d.verdict === en['builder.ok'].replace('{n}', '2'), { what: 'ready again' });
  });
});
