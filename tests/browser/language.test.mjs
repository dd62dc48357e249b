// language.test.mjs — Hinglish in the browser: ?lang=hi-Latn opens in Hinglish (state, aria summary,
// <html lang>, widths of drawn labels), the View → Language menu switches by real clicks, the browser's
// Hindi is the default, a bad lang= is reported; screenshots at 1440×900 under test-artifacts/browser/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { api, artifactPath, center, click, decodePng, imageStats, itemRect, launchChromium, openApp, pollUntil,
  setStateOk, siteBuiltTest, startServer, waitForApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

const VIEWPORT = { width: 1440, height: 900 };
const summary = (page) => page.evaluate(() => document.getElementById('a11y-summary').textContent);
const htmlLang = (page) => page.evaluate(() => document.documentElement.lang);

// Waits for the aria summary to contain every one of `parts` (it refreshes after each changed frame).
async function summaryWith(page, parts, what) {
  return pollUntil(() => summary(page), (t) => parts.every((p) => t.includes(p)), { timeout: 5000, what });
}

async function screenshot(page, file) {
  await waitFrames(page, 4);
  const png = await page.screenshot({ type: 'png' });
  fs.writeFileSync(artifactPath('browser', file), png);
  const stats = imageStats(decodePng(png));
  assert.ok(stats.lumaStd > 15 && stats.distinctColors > 200, `${file} is not blank: ${JSON.stringify(stats)}`);
}

describe('English and Hinglish', { timeout: 180000 }, () => {
  let server, browser, app;
  before(async () => {
    server = await startServer();
    browser = await launchChromium();
    app = await openApp(browser, server.origin, { viewport: VIEWPORT, path: '/?lang=hi-Latn', locale: 'en-US' });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  // wcag: 3.1.1 — <html lang> is the learner's language: hi-Latn for a Hinglish page, en after switching to English
  // wcag: 3.1.2 — one language at a time: a Hinglish page's summary has no English left in it
  it('?lang=hi-Latn opens in Hinglish: the state, the aria summary and <html lang>', async () => {
    const { page } = app;
    const s = await api.getState(page);
    assert.equal(s.lang, 'hi-Latn');
    const r = await api.getResult(page);
    const mw = r.max_weight[s.selected_row].toFixed(3);
    const text = await summaryWith(page, ['ka attention:', `sabse bada weight ${mw}`], 'the Hinglish summary');
    assert.doesNotMatch(text, /attends:|largest weight/, `no English left in the summary: ${text}`);
    assert.equal(await htmlLang(page), 'hi-Latn');
    await screenshot(page, 'hinglish-1440x900.png');
  });

  it('the View → Language menu switches to English and back, by real clicks', async () => {
    const { page } = app;
    const scaleHinglish = await itemRect(page, 'Scale by 1/√d_k');  // the checkbox and its label
    await click(page, center(await itemRect(page, 'menu:language')));
    await click(page, center(await itemRect(page, 'menu:language:en')));
    await waitForApp(page, (v) => v.state.lang === 'en', { what: 'lang to become en' });
    await summaryWith(page, ['attends:', 'largest weight'], 'the English summary');
    assert.equal(await htmlLang(page), 'en');
    await waitFrames(page, 2);
    // The label is drawn in the other language: "Scale by 1/√d_k" is narrower than "1/√d_k se scale karo".
    const scaleEnglish = await itemRect(page, 'Scale by 1/√d_k');
    assert.ok(scaleEnglish.w < scaleHinglish.w - 10,
      `the checkbox label changed width (${scaleHinglish.w} in Hinglish → ${scaleEnglish.w} in English)`);

    await click(page, center(await itemRect(page, 'menu:language')));
    await click(page, center(await itemRect(page, 'menu:language:hi-Latn')));
    await waitForApp(page, (v) => v.state.lang === 'hi-Latn', { what: 'lang to become hi-Latn again' });
    await summaryWith(page, ['ka attention:'], 'the Hinglish summary again');
    assert.equal(await htmlLang(page), 'hi-Latn');
  });

  it('presets keep the language and their texts are Hinglish', async () => {
    const { page } = app;
    await setStateOk(page, { preset: 'self-attn-example-1' });
    const s = await api.getState(page);
    assert.equal(s.lang, 'hi-Latn');
    await screenshot(page, 'hinglish-preset-1440x900.png');
    await setStateOk(page, { panels: { masks: true, heads: true, positional: true, numerics: true, cross: true, share: true } });
    await setStateOk(page, { preset: 'default' });
    await screenshot(page, 'hinglish-all-panels-1440x900.png');
    assert.deepEqual(app.errors.page, []);
  });

  it("the browser's Hindi is the default, and a bad lang= is reported", async () => {
    const hindi = await openApp(browser, server.origin, { viewport: VIEWPORT, locale: 'hi-IN' });
    try {
      assert.equal((await api.getState(hindi.page)).lang, 'hi-Latn');
      assert.deepEqual(await hindi.page.evaluate(() => navigator.languages), ['hi-IN']);
    } finally {
      await hindi.context.close();
    }
    const english = await openApp(browser, server.origin, { viewport: VIEWPORT, locale: 'hi-IN', path: '/?lang=en' });
    try {
      assert.equal((await api.getState(english.page)).lang, 'en', 'lang= wins over the browser');
    } finally {
      await english.context.close();
    }
    const bad = await openApp(browser, server.origin, { viewport: VIEWPORT, locale: 'en-US', path: '/?lang=klingon' });
    try {
      assert.equal((await api.getState(bad.page)).lang, 'en');
      const w = await bad.page.evaluate(() => window.attnplay.watch());
      assert.match(w.status, /lang must be one of en, hi-Latn/);
    } finally {
      await bad.context.close();
    }
  });

  it('an English page downloads only the English lesson texts; switching by real clicks fetches Hinglish once', async () => {
    const fetched = [];
    const english = await openApp(browser, server.origin, { viewport: VIEWPORT, locale: 'en-US',
      onPage: (p) => p.on('request', (r) => { if (r.url().includes('/strings/')) fetched.push(new URL(r.url()).pathname); }) });
    try {
      const { page } = english;
      await waitFrames(page, 30);
      // The lessons' own texts and closed panels' follow the first view (they are not in the module): English's.
      await pollUntil(() => fetched.length, (n) => n >= 2, { what: 'the other parts fetched after the first view' });
      await waitFrames(page, 10);
      assert.deepEqual(fetched, ['/strings/en.lessons.json', '/strings/en.panels.json'], 'nothing but English at first');
      const scaleEnglish = await itemRect(page, 'Scale by 1/√d_k');
      await click(page, center(await itemRect(page, 'menu:language')));
      await click(page, center(await itemRect(page, 'menu:language:hi-Latn')));
      await summaryWith(page, ['ka attention:'], 'the Hinglish summary once the texts arrived');
      await waitFrames(page, 2);
      const scaleHinglish = await itemRect(page, 'Scale by 1/√d_k');
      assert.ok(scaleHinglish.w > scaleEnglish.w + 10, `the label is drawn in Hinglish (${scaleEnglish.w} → ${scaleHinglish.w})`);
      await click(page, center(await itemRect(page, 'menu:language')));
      await click(page, center(await itemRect(page, 'menu:language:en')));
      await summaryWith(page, ['attends:'], 'English again');
      await click(page, center(await itemRect(page, 'menu:language')));
      await click(page, center(await itemRect(page, 'menu:language:hi-Latn')));
      await summaryWith(page, ['ka attention:'], 'Hinglish again');
      await pollUntil(() => fetched.length, (n) => n >= 5, { what: 'the Hinglish parts after the Hinglish texts' });
      await waitFrames(page, 10);
      assert.deepEqual(fetched, ['/strings/en.lessons.json', '/strings/en.panels.json', '/strings/hi-Latn.json',
        '/strings/hi-Latn.lessons.json', '/strings/hi-Latn.panels.json'], 'each fetched once');
      assert.deepEqual(english.errors.page, []);
    } finally {
      await english.context.close();
    }
  });

  it('a link into a lesson fetches its texts before the step needs them, and shows them in Hinglish', async () => {
    const lesson = await openApp(browser, server.origin, { viewport: VIEWPORT, path: '/?lesson=softmax&lang=hi-Latn' });
    try {
      const { page } = lesson;
      const hinglish = JSON.parse(fs.readFileSync(new URL('../../data/strings/hi-Latn.json', import.meta.url), 'utf8'));
      // Step 1's text as the catalog words it (up to its first live value); "loading" and English go before it.
      const want = hinglish['lesson.softmax.1'].split('{')[0].trim();
      assert.ok(want.length > 20);
      await pollUntil(() => page.evaluate(() => {
        const sec = document.getElementById('a11y-lesson');
        return sec ? sec.querySelectorAll('p')[1].textContent : '';
      }), (t) => t.startsWith(want), { what: `step 1 in Hinglish ("${want.slice(0, 40)}…")`, timeout: 15000 });
      assert.deepEqual(lesson.errors.page, []);
    } finally {
      await lesson.context.close();
    }
  });
});
