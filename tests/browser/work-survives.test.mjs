// work-survives.test.mjs — the learner's open panels, where they had scrolled to, the worksheet's typed cells
// and an unfinished lesson answer come back after a reload; a share link opens the panels the sender had
// open (the Worksheet and Learn panels included), but not the Share window the link was made in.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, launchChromium, pollUntil, setStateOk, siteBuiltTest, startServer, waitFrames } from './helpers.mjs';
import { openAt } from './share_helpers.mjs';

siteBuiltTest();
const viewport = { width: 1440, height: 900 };
const panelScroll = (page, title) => page.evaluate((t) => window.attnplay.ui.panelScroll(t), title);

describe('work survives a reload and a share', { timeout: 170000 }, () => {
  let server, browser;
  before(async () => { server = await startServer(); browser = await launchChromium(); });
  after(async () => { await browser?.close(); await server?.stop(); });

  it('a reload brings back the open panels and the scroll of a long panel', async () => {
    const { context, page } = await openAt(browser, server.origin + '/', { viewport });
    try {
      await setStateOk(page, { panels: { worksheet: true, learn: true, numerics: true, variance: false } });
      await waitFrames(page, 4);
      const title = 'Explanation';
      const before = await pollUntil(() => panelScroll(page, title), (r) => r && r.scrollMaxY > 40,
        { what: `the ${title} panel drawn with something to scroll` });
      await page.mouse.move(before.x + before.w / 2, before.y + before.h / 2);
      await page.mouse.wheel(0, 240);
      const scrolled = await pollUntil(() => panelScroll(page, title), (r) => r.scrollY > 20, { what: 'the panel scrolled' });
      const panels = (await api.getState(page)).panels;
      await page.waitForTimeout(600);  // the page keeps its state after each settled change
      await page.reload({ waitUntil: 'load' });
      await page.waitForFunction(() => window.attnplay && window.attnplay.frames() > 2, null, { timeout: 60000 });
      await page.evaluate(() => window.attnplay.ready);
      assert.deepEqual((await api.getState(page)).panels, panels, 'the same panels are open');
      const back = await pollUntil(() => panelScroll(page, title), (r) => r && Math.abs(r.scrollY - scrolled.scrollY) <= 2,
        { what: `the ${title} panel back at scrollY ${scrolled.scrollY}` });
      assert.ok(back.scrollY > 20);
    } finally {
      await context.close();
    }
  });

  it('a page opened again before anything was changed offers nothing to continue', async () => {
    const { context, page } = await openAt(browser, server.origin + '/', { viewport });
    try {
      await page.waitForTimeout(600);  // the page keeps its state once it is ready
      assert.ok(await page.evaluate(() => Object.keys(localStorage).some((k) => k.startsWith('attnplay:state:'))), 'a state kept');
      await page.goto('about:blank');  // opened again from its address (a reload would keep the state's fragment)
      await page.goto(server.origin + '/', { waitUntil: 'load' });
      await page.waitForFunction(() => window.attnplay && window.attnplay.frames() > 2, null, { timeout: 60000 });
      await page.evaluate(() => window.attnplay.ready);
      await waitFrames(page, 2);
      assert.equal(await page.evaluate(() => document.getElementById('continue').hidden), true, 'no "Continue where you left off?"');
      assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.id), 'canvas');
    } finally {
      await context.close();
    }
  });

  // wcag: 2.4.3 — the "Continue where you left off?" offer comes before the canvas and takes the focus
  it('a fragment that is not the app\'s (#top, a skip link) neither resets the state nor loses the kept one', async () => {
    const { context, page } = await openAt(browser, server.origin + '/', { viewport });
    try {
      await setStateOk(page, { d_k: 7 });
      await page.waitForTimeout(600);  // kept
      await page.evaluate(() => { location.hash = '#top'; });
      await waitFrames(page, 4);
      assert.equal((await api.getState(page)).d_k, 7, '#top while working changes nothing');
      await page.goto('about:blank');  // a new load (a goto that changes only the fragment would not be one)
      await page.goto(server.origin + '/#top', { waitUntil: 'load' });
      await page.waitForFunction(() => window.attnplay && window.attnplay.frames() > 2, null, { timeout: 60000 });
      await page.evaluate(() => window.attnplay.ready);
      assert.equal(await page.evaluate(() => document.getElementById('continue').hidden), false, 'opened at #top: offered to continue');
      // The offer holds the focus (a screen reader hears it first) and comes before the canvas in the Tab order;
      // Enter takes it.
      assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.id), 'continue-yes',
        'the focus is on "Continue"');
      assert.ok(await page.evaluate(() => Boolean(document.getElementById('continue').compareDocumentPosition(
        document.getElementById('canvas')) & Node.DOCUMENT_POSITION_FOLLOWING)), 'the offer precedes the canvas');
      await page.keyboard.press('Enter');
      await pollUntil(() => api.getState(page), (st) => st.d_k === 7, { what: 'the kept d_k back after Enter' });
      const summary = await page.evaluate(() => document.getElementById('a11y-summary')?.textContent || '');
      assert.doesNotMatch(summary, /link/i, 'no "link could not be opened"');
    } finally {
      await context.close();
    }
  });

  it('two tabs of the page each keep their lesson answers: neither erases the other\'s', async () => {
    const context = await browser.newContext({ viewport });
    try {
      const open = async (lesson, step) => {
        const page = await context.newPage();
        await page.goto(server.origin + '/', { waitUntil: 'load' });
        await page.evaluate(() => window.attnplay.ready);
        await setStateOk(page, { lesson: { id: lesson, step } });
        return page;
      };
      const one = await open('softmax', 2), two = await open('why-attention', 1);
      assert.equal((await two.evaluate(() => window.attnplay.a11y.act({ do: 'choice', value: 1 }))).ok, true);
      await two.waitForTimeout(300);
      assert.equal((await one.evaluate(() => window.attnplay.a11y.act({ do: 'number', value: '0.7311' }))).ok, true);
      await one.waitForTimeout(600);  // the last writer is tab one
      const three = await open('why-attention', 1);
      const l = await pollUntil(() => three.evaluate(async () => (await window.attnplay.getResult()).lesson), (x) => x && x.step === 1,
        { what: 'why-attention in a third tab' });
      assert.equal(l.answered, true, 'tab two\'s answer survived tab one\'s save');
      await setStateOk(three, { lesson: { id: 'softmax', step: 2 } });
      assert.equal((await three.evaluate(async () => (await window.attnplay.getResult()).lesson)).answered, true, 'and tab one\'s');
    } finally {
      await context.close();
    }
  });

  it('storage that refuses (full) is said: the learner knows the work is not kept', async () => {
    const context = await browser.newContext({ viewport });
    try {
      await context.addInitScript(() => {
        Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); };
      });
      const page = await context.newPage();
      await page.goto(server.origin + '/', { waitUntil: 'load' });
      await page.evaluate(() => window.attnplay.ready);
      await setStateOk(page, { d_k: 9 });
      const text = await pollUntil(() => page.evaluate(() => document.getElementById('a11y-summary').textContent),
        (t) => /does not keep your work/.test(t), { what: 'the status line', timeout: 5000 });
      assert.match(text, /its storage is full/);
    } finally {
      await context.close();
    }
  });

  it('a share link opens the sender\'s panels, Worksheet and Learn included, without the Share window', async () => {
    const { context, page } = await openAt(browser, server.origin + '/', { viewport });
    let other;
    try {
      await setStateOk(page, { panels: { worksheet: true, learn: true, share: true, heatmap: false } });
      const sent = (await api.getState(page)).panels;
      const url = await page.evaluate(() => window.attnplay.shareURL());
      other = await openAt(browser, url, { viewport });
      const got = (await api.getState(other.page)).panels;
      assert.deepEqual(got, { ...sent, share: false }, 'the same panels but Share');
      assert.equal(await panelScroll(other.page, 'Share'), null, 'no Share window drawn');
      assert.deepEqual(other.errors.page, []);
    } finally {
      await other?.context.close();
      await context.close();
    }
  });
});

describe('an unfinished lesson answer', { timeout: 120000 }, () => {
  let server, browser;
  before(async () => { server = await startServer(); browser = await launchChromium(); });
  after(async () => { await browser?.close(); await server?.stop(); });
  const lesson = (page) => page.evaluate(async () => (await window.attnplay.getResult()).lesson);

  it('comes back after a reload, and the next question starts with an empty box', async () => {
    const { context, page } = await openAt(browser, server.origin + '/', { viewport });
    try {
      await setStateOk(page, { lesson: { id: 'softmax', step: 2 } });  // a number question
      const box = await pollUntil(() => page.evaluate(() => window.attnplay.ui.itemRect('lesson:number')), (r) => r,
        { what: 'the answer box' });
      await page.mouse.click(box.x + box.w / 2, box.y + box.h / 2);
      await waitFrames(page, 2);
      for (const ch of '0.7') { await page.keyboard.type(ch); await waitFrames(page, 2); }
      await pollUntil(() => lesson(page), (l) => l.draft === '0.7', { what: 'the typed draft' });
      await page.waitForTimeout(600);
      await page.reload({ waitUntil: 'load' });
      await page.waitForFunction(() => window.attnplay && window.attnplay.frames() > 2, null, { timeout: 60000 });
      await page.evaluate(() => window.attnplay.ready);
      const back = await lesson(page);
      assert.deepEqual([back.id, back.step, back.draft, back.attempts], ['softmax', 2, '0.7', 0], 'the same step, the draft unchecked');

      const box2 = await pollUntil(() => page.evaluate(() => window.attnplay.ui.itemRect('lesson:number')), (r) => r,
        { what: 'the answer box after the reload' });
      await page.mouse.click(box2.x + box2.w / 2, box2.y + box2.h / 2);
      await waitFrames(page, 2);
      await page.keyboard.press('End');
      for (const ch of '311') { await page.keyboard.type(ch); await waitFrames(page, 2); }
      await page.keyboard.press('Enter');  // Enter checks, like the button
      const answered = await pollUntil(() => lesson(page), (l) => l.attempts === 1, { what: 'the answer checked' });
      assert.equal(answered.correct, true, `0.7311 is the weight asked for (draft ${answered.draft})`);
      await setStateOk(page, { lesson: { id: 'softmax', step: 3 } });
      assert.equal((await lesson(page)).draft, '', 'the next question starts empty');

      // The answered step after a reload: answered, its explanation shown, Next allowed, no second first try.
      await setStateOk(page, { lesson: { id: 'softmax', step: 2 } });
      await page.waitForTimeout(600);
      await page.reload({ waitUntil: 'load' });
      await page.waitForFunction(() => window.attnplay && window.attnplay.frames() > 2, null, { timeout: 60000 });
      await page.evaluate(() => window.attnplay.ready);
      const kept = await pollUntil(() => lesson(page), (l) => l && l.step === 2, { what: 'step 2 after the reload' });
      assert.deepEqual([kept.answered, kept.correct, kept.attempts], [true, true, 1], 'the step opens answered');
      const dom = await page.evaluate(() => window.attnplay.a11y.description().then((d) => d.lesson));
      assert.ok(dom.verdict && dom.explain, 'the parallel DOM reads its verdict and explanation');
      const events = [];
      await page.exposeFunction('noteEvent', (e) => events.push(e));
      await page.evaluate(() => window.attnplay.onEvent((e) => window.noteEvent(e)));
      assert.equal((await page.evaluate(() => window.attnplay.a11y.act({ do: 'number', value: '0.5' }))).ok !== undefined, true);
      await waitFrames(page, 3);
      assert.equal((await lesson(page)).attempts, 1, 'no second answer');
      assert.deepEqual(events.filter((e) => e.type === 'answer'), [], 'and no answer event for a course to record');
    } finally {
      await context.close();
    }
  });
});
