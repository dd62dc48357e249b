// pseudo-locale.test.mjs — the page in the pseudo-locale (?lang=en-XA: every catalog text accented, about 40 %
// longer and bracketed) finds English that does not come from the catalogs: the start view and every panel open at
// 1440×900 and 390×844 with touch, every step of every lesson at 1440×900. Every text the parallel DOM shows or says (text,
// aria-label, aria-valuetext, title, placeholder, the live summary) must be pseudo-locale text or data (numbers,
// the sentence's tokens, the lessons' own identifiers); a plain English word is text hard-coded outside the catalogs,
// and what a screen reader would hear in English while the screen is in another language. Screenshots of the busiest
// views go to test-artifacts/browser/pseudo-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { api, artifactPath, decodePng, imageStats, launchChromium, openApp, pollUntil, setStateOk, siteBuiltTest,
  startServer, waitFrames } from './helpers.mjs';

siteBuiltTest();

const manifest = JSON.parse(fs.readFileSync(new URL('../../data/manifest.json', import.meta.url), 'utf8'));
const ALL_PANELS = Object.fromEntries(manifest.panels.map((p) => [p.id, true]));

// Every text a reader meets in the parallel DOM and the live summary, with where it was found.
function readableTexts() {
  const out = [];
  const roots = [document.getElementById('a11y-skip'), document.getElementById('a11y-dom'),
    document.getElementById('a11y-summary'), document.querySelector('title')].filter(Boolean);
  const hidden = (el) => el.closest && el.closest('[hidden]');
  for (const root of roots) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = walker.currentNode; n; n = walker.nextNode()) {
      if (n.nodeType === Node.TEXT_NODE) {
        if (n.textContent.trim() && !hidden(n.parentElement)) out.push({ where: n.parentElement.tagName.toLowerCase() +
          (n.parentElement.id ? '#' + n.parentElement.id : ''), text: n.textContent.trim() });
        continue;
      }
      if (hidden(n)) continue;
      for (const a of ['aria-label', 'aria-valuetext', 'aria-description', 'title', 'placeholder', 'alt'])
        if (n.getAttribute(a)) out.push({ where: `${n.tagName.toLowerCase()}${n.id ? '#' + n.id : ''}[${a}]`, text: n.getAttribute(a) });
      if (n.tagName === 'INPUT' && ['button', 'submit'].includes(n.type) && n.value)
        out.push({ where: `input#${n.id}[value]`, text: n.value });
    }
  }
  return out;
}

// Words of three or more plain ASCII letters outside the pseudo-locale's brackets (which nest: a text quotes
// "[1, 0, 1]"): English no catalog made. Data is allowed: every string the state and the result hold (tokens,
// sentences, labels), the ids the manifest names (panels, controls, state keys and values, lessons: an embed
// code's options name them), and each language's name in itself.
function englishWords(text, data) {
  let outside = text;
  for (let prev = ''; prev !== outside;) prev = outside, outside = outside.replace(/\[[^[\]]*\]/g, ' ');
  return (outside.match(/[A-Za-z]{3,}/g) || []).filter((w) => !data.has(w.toLowerCase()));
}

const MANIFEST_WORDS = (() => {
  const words = new Set();
  const add = (v) => {
    if (typeof v === 'string') (v.toLowerCase().match(/[a-z]{3,}/g) || []).forEach((w) => words.add(w));
    else if (Array.isArray(v)) v.forEach(add);
  };
  for (const p of manifest.panels) add(p.id);
  for (const c of manifest.controls.ids) add(c.id);
  add(manifest.controls.lockable);
  for (const [key, k] of Object.entries(manifest.keys)) add(key), add(k.enum);
  for (const l of manifest.lessons) add(l.id);
  return words;
})();

// Kept across a file's views: the live summary settles 400 ms after a change, so it may still quote the tokens of
// the view before.
const seenData = new Set(MANIFEST_WORDS);
async function dataWords(page) {
  const words = seenData;
  const add = (v) => {
    if (typeof v === 'string') (v.toLowerCase().match(/[a-z]{3,}/g) || []).forEach((w) => words.add(w));
    else if (v && typeof v === 'object') Object.values(v).forEach(add);
  };
  add(await api.getState(page));
  add(await api.getResult(page));
  const d = await page.evaluate(() => JSON.parse(window.Module.ccall('attnplay_a11y_description', 'string', [], [])));
  add(d.menus?.languages?.map((l) => l.title));
  // The worksheet exercise's own tokens label its rows.
  for (const st of d.worksheet?.stages || []) add((st.rows || []).map((r) => r.label || ''));
  return words;
}

async function findings(page, label) {
  await waitFrames(page, 3);
  await pollUntil(() => page.evaluate(() => !window.Module.ccall('attnplay_catalog_missing', 'string', ['number'], [1])),
    (done) => done, { timeout: 15000, what: 'every catalog part' });
  await waitFrames(page, 3);
  const data = await dataWords(page);
  const found = [];
  for (const { where, text } of await page.evaluate(readableTexts)) {
    const words = englishWords(text, data);
    if (words.length) found.push(`${label} ${where}: ${JSON.stringify(text.slice(0, 120))} → ${words.slice(0, 5).join(' ')}`);
  }
  return found;
}

async function screenshot(page, file) {
  await waitFrames(page, 4);
  const png = await page.screenshot({ type: 'png' });
  fs.writeFileSync(artifactPath('browser', file), png);
  const stats = imageStats(decodePng(png));
  assert.ok(stats.lumaStd > 15, `${file} is not blank: ${JSON.stringify(stats)}`);
}

const LAYOUTS = [
  { name: '1440x900', viewport: { width: 1440, height: 900 }, device: {} },
  { name: '390x844', viewport: { width: 390, height: 844 }, device: { hasTouch: true, isMobile: true } },
];

for (const layout of LAYOUTS) {
  describe(`the pseudo-locale at ${layout.name}`, { timeout: 600000 }, () => {
    let server, browser, app;
    before(async () => {
      server = await startServer();
      browser = await launchChromium();
      app = await openApp(browser, server.origin, { viewport: layout.viewport, device: layout.device,
        path: '/?lang=en-XA', firstVisit: true });
    });
    after(async () => {
      await browser?.close();
      await server?.stop();
    });

    // wcag: 3.1.1 — <html lang> is the catalog's tag (en-XA)
    // wcag: 2.4.2 — the page's title comes from the catalog, in the page's language
    it('the start view and the document speak the pseudo-locale', async () => {
      const { page } = app;
      assert.equal((await api.getState(page)).lang, 'en-XA');
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'en-XA');
      const found = await findings(page, 'start view');
      await screenshot(page, `pseudo-start-${layout.name}.png`);
      assert.deepEqual(found, [], `English outside the catalogs:\n${found.join('\n')}`);
    });

    it('every panel open: no English outside the catalogs', async () => {
      const { page } = app;
      await page.focus('#a11y-start-explore');  // leave the start view as a learner does, by its twin
      await page.keyboard.press('Enter');
      await pollUntil(() => page.evaluate(() => !document.getElementById('a11y-start-explore')), Boolean,
        { what: 'the start view to close' });
      await setStateOk(page, { panels: ALL_PANELS });
      const found = await findings(page, 'every panel');
      await screenshot(page, `pseudo-panels-${layout.name}.png`);
      assert.deepEqual(found, [], `English outside the catalogs:\n${found.join('\n')}`);
    });

    // wcag: 3.1.2 — every text a reader meets is in the page's language, lesson by lesson, step by step
    // (Once, at the desktop size: the steps' texts are the same at every size; the phone's own layout is the
    // start view's and the panels' runs above.)
    it('every step of every lesson: no English outside the catalogs', { skip: layout !== LAYOUTS[0] }, async () => {
      const { page } = app;
      const found = [];
      for (const lesson of manifest.lessons) {
        const id = lesson.id || lesson;
        for (let step = 1; step <= (lesson.steps || 1); ++step) {
          await setStateOk(page, { lesson: { id, step } });
          found.push(...await findings(page, `${id} step ${step}`));
        }
      }
      await screenshot(page, `pseudo-lesson-${layout.name}.png`);
      assert.deepEqual(found, [], `English outside the catalogs:\n${found.join('\n')}`);
    });
  });
}
