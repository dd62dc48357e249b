// a11y-learn.test.mjs — Learn mode's settings and buttons in the parallel DOM: a native select, sliders and buttons
// named from the catalog, operated by keys alone (task, d_k, Play/Pause, Step), and the run's progress in words.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT, api, keyboard, pollUntil, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();
const en = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'strings', 'en.json'), 'utf8'));

describe('Learn mode twins', { timeout: 150000 }, () => {
  let app;
  // The Learn workspace link opens the panel (no setState): everything after is keys.
  useApp((a) => { app = a; }, { path: '/?workspace=learn' });
  const key = async (k) => { await app.page.keyboard.press(k); await waitFrames(app.page, 2); };
  const activeId = () => app.page.evaluate(() => document.activeElement && document.activeElement.id);
  const learn = async () => (await api.getState(app.page)).learn;
  const text = (id) => app.page.evaluate((i) => document.getElementById(i)?.textContent, id);

  // wcag: 2.2.2 — Learn mode's training, the one thing that moves on its own, is paused and played by keys
  it('sets the task and d_k, plays, pauses and steps by keys alone', async () => {
    const { page } = app;
    await page.waitForSelector('#a11y-learn-task');
    await keyboard(page).toSection('a11y-controls');
    for (let i = 0; i < 20 && (await activeId()) !== 'a11y-learn-task'; i++) await key('Tab');
    assert.equal(await activeId(), 'a11y-learn-task', 'Tab reaches the task');
    const label = await page.evaluate(() => document.querySelector('label[for="a11y-learn-task"]').textContent);
    assert.equal(label, en['learn.task']);
    const before = await learn();
    const options = await page.evaluate(() => [...document.querySelectorAll('#a11y-learn-task option')].map((o) => o.value));
    assert.ok(options.length === 5 && options.includes(before.settings.task), JSON.stringify(options));
    await key('ArrowDown');
    const task = options[options.indexOf(before.settings.task) + 1];
    await pollUntil(learn, (l) => l.settings.task === task, { what: `the task ${task} by ArrowDown` });

    await key('Tab');
    assert.equal(await activeId(), 'a11y-learn-d_k');
    const dk = (await learn()).settings.d_k;
    for (let i = 0; i < 3; i++) await key('ArrowRight');
    await pollUntil(learn, (l) => l.settings.d_k === dk + 3, { what: 'd_k + 3 by arrows' });
    assert.equal(await activeId(), 'a11y-learn-d_k', 'the focus stays on the slider');

    for (let i = 0; i < 10 && (await activeId()) !== 'a11y-learn-play'; i++) await key('Tab');
    assert.equal(await text('a11y-learn-play'), en['learn.play']);
    await key('Enter');
    await pollUntil(learn, (l) => l.playing, { what: 'playing after Enter on Play' });
    await pollUntil(() => text('a11y-learn-play'), (t) => t === en['learn.pause'], { what: 'the button says Pause' });
    assert.equal(await activeId(), 'a11y-learn-play');
    await key('Space');
    await pollUntil(learn, (l) => !l.playing, { what: 'paused after Space on Pause' });
    const steps = (await api.getResult(page)).learn.steps;
    await key('Tab');
    assert.equal(await activeId(), 'a11y-learn-step');
    await key('Enter');
    await pollUntil(async () => (await api.getResult(page)).learn.steps, (n) => n === steps + 1, { what: 'one step more' });
    const planned = (await learn()).settings.steps;
    await pollUntil(() => text('a11y-learn-status'),
      (t) => t && t.startsWith(en['learn.steps'].replace('{steps}', steps + 1).replace('{planned}', planned)),
      { what: 'the steps said in words' });
  });
});
