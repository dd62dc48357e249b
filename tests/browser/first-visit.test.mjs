// first-visit.test.mjs — a browser that has never been here gets the start view (src/app/start_view.h): one
// sentence on what the page is, "Start the first lesson" and "Explore freely", in its language, on the canvas and in
// the parallel DOM (first, so a screen reader lands on it); each button does what it says, and a reload, a link, a
// lesson link or an embed goes straight to the work. The other tests open the page as a returning learner
// (helpers.mjs, markVisited).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT, VISITED_KEY, api, launchChromium, openApp, pollUntil, siteBuiltTest, startServer, waitFrames } from './helpers.mjs';

siteBuiltTest();
const catalog = (lang) => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'strings', lang + '.json'), 'utf8'));
const en = catalog('en'), hi = catalog('hi-Latn');
const firstLesson = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'lessons',
  fs.readdirSync(path.join(REPO_ROOT, 'data', 'lessons')).sort()[0]), 'utf8')).id;

describe('first visit', { timeout: 240000 }, () => {
  let server, browser;
  before(async () => {
    server = await startServer();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
  const fresh = (options = {}) => openApp(browser, server.origin, { viewport: { width: 1440, height: 900 }, ...options,
    firstVisit: true });
  const text = (page, sel) => page.evaluate((s) => document.querySelector(s)?.textContent ?? null, sel);
  const click = async (page, id) => {
    const r = await api.itemRect(page, id);
    assert.ok(r, `${id} is drawn`);
    await page.mouse.click(r.x + r.w / 2, r.y + r.h / 2);
  };

  // The reference's defaults (data/manifest.json, made from the key table; docs/reference.md shows them) are what a
  // new page starts with; the keys whose default follows the browser follow it.
  it('starts with the defaults the reference lists, the theme and language from the browser', async () => {
    const keys = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'manifest.json'), 'utf8')).keys;
    const listed = Object.entries(keys).filter(([, k]) => 'default' in k);
    assert.ok(listed.length >= 20, `defaults listed for ${listed.length} keys`);
    for (const [locale, colorScheme, browser] of [['en-US', 'dark', { lang: 'en', theme: 'dark' }],
      ['hi-IN', 'light', { lang: 'hi-Latn', theme: 'light' }]]) {
      const { context, page } = await fresh({ locale, device: { colorScheme } });
      try {
        const st = await api.getState(page);
        for (const [key, k] of listed) {
          const want = k.default_from ? browser[key] : k.default;
          assert.deepEqual(st[key], want, `${key} on a new page (${locale}, ${colorScheme}): the reference says ${JSON.stringify(want)}`);
        }
        assert.deepEqual(Object.keys(browser).sort(), listed.filter(([, k]) => k.default_from).map(([key]) => key).sort(),
          'every key whose default follows the browser is checked');
      } finally {
        await context.close();
      }
    }
  });

  it('shows the start view alone, and its twin first in the parallel DOM, in the browser\'s language', async () => {
    for (const [locale, words] of [['en-US', en], ['hi-IN', hi]]) {
      const { context, page, errors } = await fresh({ locale });
      await pollUntil(() => text(page, '#a11y-start-lesson'), (t) => t === words['start.lesson'], { what: `the start view's twin (${locale})` });
      assert.ok(await api.itemRect(page, 'start:lesson'), 'Start the first lesson is on the canvas');
      assert.ok(await api.itemRect(page, 'start:explore'), 'Explore freely is on the canvas');
      assert.equal(await api.itemRect(page, 'd_k'), null, 'no panel is drawn behind it');
      assert.equal(await text(page, '#a11y-start-title'), words['start.title']);
      assert.equal(await text(page, '#a11y-start-sentence'), words['start.sentence']);
      assert.equal(await text(page, '#a11y-start-explore'), words['start.explore']);
      assert.equal(await page.evaluate(() => document.getElementById('a11y-dom').firstElementChild?.id), 'a11y-start');
      assert.deepEqual(errors.page, []);
      await context.close();
    }
  });

  it('the language choice on it switches the page to Hinglish', async () => {
    const { context, page } = await fresh();
    await pollUntil(() => text(page, '#a11y-start-lesson'), (t) => t === en['start.lesson'], { what: 'the start view' });
    await click(page, 'start:language:hi-Latn');
    await pollUntil(() => api.getState(page), (s) => s.lang === 'hi-Latn', { what: 'Hinglish' });
    await pollUntil(() => text(page, '#a11y-start-lesson'), (t) => t === hi['start.lesson'], { what: 'the twin in Hinglish' });
    await context.close();
  });

  it('Start the first lesson opens the first lesson at step 1; a reload goes straight back to it', async () => {
    const { context, page } = await fresh();
    await pollUntil(() => api.itemRect(page, 'start:lesson'), Boolean, { what: 'the start view' });
    await click(page, 'start:lesson');
    const s = await pollUntil(() => api.getState(page), (st) => st.lesson !== null, { what: 'a lesson', timeout: 20000 });
    assert.deepEqual(s.lesson, { id: firstLesson, step: 1 });
    await pollUntil(() => api.itemRect(page, 'lesson:text'), Boolean, { what: 'the lesson step on the canvas' });
    const lesson = await api.itemRect(page, 'lesson:text');
    assert.ok(lesson.x + lesson.w <= 1440 / 2, `the lesson has the left column (${JSON.stringify(lesson)})`);
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), VISITED_KEY), '1', 'the browser remembers the visit');
    await page.waitForTimeout(600);  // the state is kept at most every 400 ms
    await page.reload();
    await page.evaluate(() => window.attnplay.ready);
    await waitFrames(page, 5);
    assert.equal(await api.itemRect(page, 'start:lesson'), null, 'a returning learner does not see the start view');
    await context.close();
  });

  it('Explore freely, through its twin in the parallel DOM, opens the usual panels', async () => {
    const { context, page } = await fresh();
    await pollUntil(() => text(page, '#a11y-start-explore'), Boolean, { what: 'the start view\'s twin' });
    // As a keyboard or screen-reader user takes it: the twin focused, Enter (the canvas lies over the hidden twins).
    await page.focus('#a11y-start-explore');
    await page.keyboard.press('Enter');
    await pollUntil(() => api.itemRect(page, 'd_k'), Boolean, { what: 'the Controls panel' });
    const s = await api.getState(page);
    assert.equal(s.lesson, null);
    for (const p of ['controls', 'heatmap', 'lesson']) assert.equal(s.panels[p], true, p);
    assert.equal(await text(page, '#a11y-start'), null, 'the twin is gone too');
    await context.close();
  });

  it('a lesson link or an embed on a fresh browser goes straight to its work', async () => {
    for (const pagePath of [`/?lesson=${firstLesson}`, '/?embed=1&panels=heatmap,controls']) {
      const { context, page } = await fresh({ path: pagePath });
      await waitFrames(page, 5);
      assert.equal(await api.itemRect(page, 'start:lesson'), null, pagePath);
      assert.equal(await text(page, '#a11y-start'), null, pagePath);
      await context.close();
    }
  });
});
