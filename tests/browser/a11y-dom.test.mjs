// a11y-dom.test.mjs — the canvas's parallel DOM (attnplay-a11y.js) is what a screen reader and a keyboard get:
// native controls named in the learner's language with values (Chromium's accessibility tree), kept in step
// with the app both ways, a lesson prediction answered by keys alone (wrong, then right, said in words), the
// selected row's weights as a table with headers that match getResult(), the canvas ring on the control whose
// DOM twin has focus, and no axe-core violations at WCAG 2.1 A/AA.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT, api, artifactPath, decodePng, keyboard, openApp, pollUntil, setStateOk, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();
const AXE = path.join(REPO_ROOT, 'node_modules', 'axe-core', 'axe.min.js');
const lessonFile = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'lessons',
  fs.readdirSync(path.join(REPO_ROOT, 'data', 'lessons')).sort()[0]), 'utf8'));
const en = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'strings', 'en.json'), 'utf8'));
const predictStep = lessonFile.steps.findIndex((s) => s.task && s.task.kind === 'predict' && s.task.choices);

describe('parallel DOM', { timeout: 120000 }, () => {
  let app;
  // bypassCSP: the page's CSP admits only its own scripts; axe-core is injected by the test.
  useApp((a) => { app = a; }, { viewport: { width: 1440, height: 900 }, device: { bypassCSP: true } });
  const desc = () => app.page.evaluate(() => window.attnplay.a11y.description());
  const dom = (sel) => app.page.evaluate((s) => { const e = document.querySelector(s); return e && { value: e.value, text: e.textContent, valuetext: e.getAttribute('aria-valuetext'), disabled: e.getAttribute('aria-disabled') }; }, sel);

  // wcag: 2.4.2 — the document's title names the page and what it is about
  it('has a title and one h1 naming the page, and every section below it an h2', async () => {
    const { page } = app;
    const h = await page.evaluate(() => ({ h1: [...document.querySelectorAll('h1')].map((e) => e.textContent),
      sections: [...document.querySelectorAll('#a11y-dom section > h2, #a11y-dom section > h1')].map((e) => e.tagName) }));
    assert.deepEqual(h.h1, ['Attention Playground']);
    assert.ok(h.sections.length > 0 && h.sections.every((t) => t === 'H2'), JSON.stringify(h.sections));
    assert.equal(await page.title(), 'Attention Playground — why attention divides by √d_k');
  });

  // wcag: 2.4.1 2.4.4 — skip links past the canvas, each saying in words the part it leads to, which exists
  it('has skip links that say where they go, each to a part of the page that is there', async () => {
    const links = await app.page.evaluate(() => [...document.querySelectorAll('#a11y-skip a')]
      .map((a) => [a.getAttribute('href'), a.textContent, Boolean(document.querySelector(a.getAttribute('href')))]));
    const words = { '#a11y-lessons': en['a11y.skip_lessons'], '#a11y-lesson': en['a11y.skip_lesson'],
      '#a11y-controls': en['a11y.skip_controls'], '#a11y-results': en['a11y.skip_results'],
      '#a11y-menus': en['a11y.skip_menus'] };
    assert.ok(links.length >= 3, JSON.stringify(links));
    for (const [href, text, there] of links) {
      assert.equal(text, words[href], `the link to ${href} says where it goes`);
      assert.ok(there, `${href} is on the page`);
    }
    assert.ok(await app.page.evaluate(() => Boolean(document.querySelector('#a11y-skip a').compareDocumentPosition(
      document.getElementById('canvas')) & Node.DOCUMENT_POSITION_FOLLOWING)), 'the skip links come before the canvas');
  });

  // wcag: 1.3.2 — the twins' sections in the panels' registry order, after the lessons and before the results
  it('has one section per open panel with controls, in the registry order, named from the catalog', async () => {
    const d = await desc();
    const titles = await app.page.evaluate(() => [...document.querySelectorAll('#a11y-controls section')].map((s) => s.getAttribute('aria-label')));
    assert.deepEqual(titles, d.panels.filter((p) => p.controls.length).map((p) => p.title));
    assert.ok(titles.length >= 1, 'the Controls panel at least');
    const order = await app.page.evaluate(() => ['a11y-lessons', 'a11y-controls', 'a11y-results']
      .map((id) => document.getElementById(id))
      .every((e, i, all) => e && (i === 0 || all[i - 1].compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING)));
    assert.ok(order, 'the lessons, then the controls, then the results, in reading order');
    const dk = d.panels.flatMap((p) => p.controls).find((c) => c.id === 'd_k');
    assert.ok(dk && dk.kind === 'range' && dk.min === 1 && dk.max === 1024, JSON.stringify(dk));
    const input = await dom('#a11y-d_k');
    assert.equal(+input.value, (await api.getState(app.page)).d_k);
    assert.match(input.valuetext, /d_k \d+, scaling on/);
  });

  it('does no work while nothing changes: the description is not re-read and the DOM is not rebuilt', async () => {
    const { page } = app;
    await waitFrames(page, 10);
    await page.evaluate(() => {
      window.__a11yCalls = 0;
      const d = window.attnplay.a11y.description;
      window.attnplay.a11y.description = (...a) => { window.__a11yCalls++; return d(...a); };
      window.__a11yMutations = 0;
      new MutationObserver((m) => { window.__a11yMutations += m.length; })
        .observe(document.getElementById('a11y-dom'), { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await waitFrames(page, 60);
    const idle = await page.evaluate(() => [window.__a11yCalls, window.__a11yMutations]);
    assert.deepEqual(idle, [0, 0], 'description calls and DOM mutations over 60 idle frames');
    await setStateOk(page, { temperature: 2 });  // one change: one re-read, the DOM follows
    await pollUntil(() => page.evaluate(() => window.__a11yCalls), (n) => n >= 1, { what: 'a re-read after a change' });
    await setStateOk(page, { temperature: 1 });
  });

  it('follows the canvas: a state change updates the DOM twin', async () => {
    await setStateOk(app.page, { d_k: 256, scale: false });
    await pollUntil(() => dom('#a11y-d_k'), (x) => x && x.value === '256' && /scaling off/.test(x.valuetext), { what: 'd_k 256 in the DOM' });
    assert.equal(await app.page.evaluate(() => document.getElementById('a11y-scale').checked), false);
    await setStateOk(app.page, { preset: 'default' });
  });

  it('rebuilds only what a change touched: a reader on another control keeps its place and its focus', async () => {
    const { page } = app;
    await page.focus('#a11y-temperature');
    await page.evaluate(() => {
      const mark = (sel) => { document.querySelector(sel).a11yMark = sel; };
      ['#a11y-temperature', '#a11y-controls h2', '#a11y-lessons', '#a11y-d_k'].forEach(mark);
      window.__blurs = 0;
      document.getElementById('a11y-temperature').addEventListener('blur', () => { window.__blurs++; });
      window.__added = 0;
      new MutationObserver((m) => { for (const r of m) window.__added += r.addedNodes.length; })
        .observe(document.getElementById('a11y-dom'), { subtree: true, childList: true });
    });
    const before = (await api.getState(page)).d_k;
    await setStateOk(page, { d_k: before === 64 ? 32 : 64 });
    await pollUntil(() => dom('#a11y-d_k'), (x) => x && +x.value === (before === 64 ? 32 : 64), { what: 'the new d_k in the DOM' });
    const kept = await page.evaluate(() => ({
      marks: ['#a11y-temperature', '#a11y-controls h2', '#a11y-lessons', '#a11y-d_k'].map((s) => document.querySelector(s).a11yMark || null),
      active: document.activeElement.id, activeKept: document.activeElement.a11yMark === '#a11y-temperature',
      blurs: window.__blurs, added: window.__added, total: document.querySelectorAll('#a11y-dom *').length,
    }));
    assert.deepEqual(kept.marks, ['#a11y-temperature', '#a11y-controls h2', '#a11y-lessons', null],
      'the temperature slider, the panel titles and the lesson list are the same nodes; d_k\'s twin is new');
    assert.equal(kept.active, 'a11y-temperature');
    assert.ok(kept.activeKept && kept.blurs === 0, `the focused slider was never blurred (${kept.blurs} blurs)`);
    assert.ok(kept.added > 0 && kept.added < kept.total / 4, `${kept.added} nodes added of ${kept.total}`);
    await setStateOk(page, { d_k: before });
  });

  // wcag: 3.2.2 — a value changed by keys updates the model in place: same document and page address, the focus stays
  it('moves d_k by arrow keys on the range and reads the same weights as getResult', async () => {
    const { page } = app;
    const where = () => page.evaluate(() => location.pathname + location.search);  // the fragment carries the state
    const url = await where();
    await page.evaluate(() => { window.__sameDocument = true; });
    await page.focus('#a11y-d_k');
    const before = (await api.getState(page)).d_k;
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    const s = await pollUntil(() => api.getState(page), (x) => x.d_k === before + 5, { what: 'd_k + 5 by keys' });
    await pollUntil(() => dom('#a11y-d_k'), (x) => x && +x.value === s.d_k, { what: 'DOM value follows' });
    assert.equal(await page.evaluate(() => document.activeElement.id), 'a11y-d_k', 'focus stays on the slider while it updates');
    assert.ok(await page.evaluate(() => window.__sameDocument === true) && (await where()) === url, 'no navigation');
    const r = await api.getResult(page);
    const table = await page.evaluate(() => [...document.querySelectorAll('#a11y-results table tr')].slice(1)
      .map((tr) => [tr.querySelector('th[scope=row]').textContent, +tr.querySelector('td').textContent]));
    const row = (r.heads ? r.heads[0].weights : r.weights)[s.selected_row];
    assert.deepEqual(table.map((t) => t[0]), r.key_tokens, 'row headers are the key tokens');
    table.forEach(([, w], i) => assert.ok(Math.abs(w - row[i]) < 6e-4, `weight ${i}: ${w} vs ${row[i]}`));
    assert.equal(await page.evaluate(() => document.querySelectorAll('#a11y-results th[scope=col]').length), 2);
  });

  // wcag: 1.1.1 — the Saturation panel's curves read as a table with the numbers getResult's sweep gives
  it('reads the Saturation panel\'s curves as a table: the sweep\'s numbers, the current d_k marked as d_k moves', async () => {
    const { page } = app;
    await setStateOk(page, { preset: 'default', d_k: 64, panels: { saturation: true } });
    const sweepTable = () => page.evaluate(() => [...document.querySelectorAll('#a11y-sweep table tr')].slice(1)
      .map((tr) => [tr.querySelector('th[scope=row]').textContent, ...[...tr.querySelectorAll('td')].map((td) => +td.textContent)]));
    const rows = await pollUntil(sweepTable, (t) => t.some((r) => r[0] === '64 (now)'), { what: 'the sweep table at d_k 64' });
    const sw = (await api.getResult(page)).sweep;
    assert.deepEqual(rows.map((r) => parseInt(r[0], 10)), sw.d_k, 'a row per d_k of the sweep');
    rows.forEach(([, mu, ms, eu, es], i) => {
      const want = [sw.unscaled.max_weight[i], sw.scaled.max_weight[i], sw.unscaled.entropy[i], sw.scaled.entropy[i]];
      [mu, ms, eu, es].forEach((v, k) => assert.ok(Math.abs(v - want[k]) < 6e-5, `d_k ${sw.d_k[i]}, column ${k + 1}: ${v} vs ${want[k]}`));
    });
    assert.equal(await page.evaluate(() => document.querySelectorAll('#a11y-sweep th[scope=col]').length), 5);
    const to = sw.d_k.find((d) => d > 64);
    await setStateOk(page, { d_k: to });
    await pollUntil(sweepTable, (t) => t.filter((r) => / \(now\)$/.test(r[0])).map((r) => r[0]).join() === `${to} (now)`,
      { what: `the mark on d_k ${to} alone` });
    await setStateOk(page, { panels: { saturation: false } });
    await pollUntil(() => page.evaluate(() => !document.getElementById('a11y-sweep')), (gone) => gone, { what: 'no table once the panel closes' });
  });

  // wcag: 1.1.1 — the Variance lab's readouts read as the panel's table, each value with its theory
  it('reads the Variance lab\'s readouts as a table, each value with its theory, following d_k', async () => {
    const { page } = app;
    const readouts = () => page.evaluate(() => [...document.querySelectorAll('#a11y-variance table tr')].slice(1)
      .map((tr) => [...tr.children].map((c) => c.textContent)));
    for (const d_k of [16, 64]) {
      await setStateOk(page, { preset: 'default', d_k, panels: { variance: true } });
      const rows = await pollUntil(readouts, (t) => t.length === 4 && t[1][1].endsWith(`(theory: ${d_k})`),
        { what: `the readouts at d_k ${d_k}`, timeout: 15000 });
      const variance = parseFloat(rows[1][1]);
      assert.ok(Math.abs(variance / d_k - 1) < 0.1, `measured variance ${variance} near d_k = ${d_k}`);
      assert.match(rows[1][2], /^[\d.]+ \(theory: 1\)$/);
      assert.equal(rows[3][1], `${Math.sqrt(variance).toFixed(4)} (theory: ${Math.sqrt(d_k).toFixed(4)})`);
    }
    await setStateOk(page, { panels: { variance: false } });
    await pollUntil(() => page.evaluate(() => !document.getElementById('a11y-variance')), (gone) => gone, { what: 'no table once the panel closes' });
  });

  it('offers the examples as a native select named in the learner\'s language, applied by arrow keys', async () => {
    const { page } = app;
    await setStateOk(page, { preset: 'default' });
    await pollUntil(() => page.evaluate(() => { const s = document.getElementById('a11y-preset'); return s && s.value; }), (v) => v === 'default', { what: 'the preset twin' });
    const options = await page.evaluate(() => [...document.querySelectorAll('#a11y-preset option')].map((o) => [o.value, o.textContent]));
    assert.ok(options.length >= 3, JSON.stringify(options));
    assert.ok(options.every(([v, t]) => t && t !== v), `options show titles, not ids: ${JSON.stringify(options)}`);
    await page.focus('#a11y-preset');
    await page.keyboard.press('ArrowDown');
    const next = options[options.findIndex(([v]) => v === 'default') + 1][0];
    await pollUntil(() => api.getState(page), (st) => st.preset === next, { what: `the preset ${next} applied by ArrowDown` });
    await setStateOk(page, { preset: 'default' });
  });

  // wcag: 3.2.1 — focusing a twin rings its control and changes nothing else (state, focus, document)
  // wcag: 2.4.7 — the canvas draws its amber ring around the control whose DOM twin has focus
  it('rings the control on the canvas whose DOM twin has focus (screenshot at 1440×900)', async () => {
    const { page } = app;
    await waitFrames(page, 3);
    const before = await api.getState(page);
    await page.evaluate(() => { window.__sameDocument = true; });
    await page.focus('#a11y-scale');
    await waitFrames(page, 3);
    assert.deepEqual(await api.getState(page), before, 'focus alone changed no state');
    assert.ok(await page.evaluate(() => window.__sameDocument && document.activeElement.id === 'a11y-scale'), 'same page, focus kept');
    const r = await page.evaluate(() => window.attnplay.ui.itemRect('scale'));
    assert.ok(r && r.w > 0);
    const png = await page.screenshot();
    fs.mkdirSync(path.dirname(artifactPath('a11y', 'dom-focus-ring.png')), { recursive: true });
    fs.writeFileSync(artifactPath('a11y', 'dom-focus-ring.png'), png);
    const img = decodePng(png);
    const amber = (x, y) => { const i = (Math.round(y) * img.width + Math.round(x)) * 4; const [R, G, B] = img.rgba.slice(i, i + 3); return R > 220 && G > 140 && G < 210 && B < 60; };
    let hits = 0;  // the ring's left edge, 3 px wide, about 2–4 px outside the control
    for (let y = r.y; y < r.y + r.h; y++) for (let dx = -5; dx <= -1; dx++) if (amber(r.x + dx, y)) hits++;
    assert.ok(hits >= r.h / 2, `amber ring pixels left of the Scale checkbox: ${hits}`);
    await page.focus('#a11y-d_k');
    await page.evaluate(() => document.activeElement.blur());
  });

  // wcag: 2.4.7 — a twin with no control of its own on the canvas ("Show the whole weight matrix") shows its focus
  // over the canvas, ringed in amber; a twin the canvas rings does not
  it('shows the focus of a twin the canvas cannot ring over the canvas, and hides it when the canvas rings the focus', async () => {
    const { page } = app;
    const k = keyboard(page);
    const shown = () => page.evaluate(() => {
      const n = document.getElementById('a11y-focus-shown'), r = n.getBoundingClientRect();
      return { hidden: n.hidden, text: n.textContent, x: r.x, y: r.y, w: r.width, h: r.height };
    });
    await k.tabTo('a11y-results', 'a11y-whole-matrix');
    const s = await pollUntil(shown, (x) => !x.hidden, { what: 'the focus of "Show the whole weight matrix" shown' });
    assert.equal(s.text, en['a11y.whole_matrix']);
    assert.ok(s.w > 100 && s.h > 20 && s.x >= 0 && s.y >= 0 && s.x + s.w <= 1440 && s.y + s.h <= 900, JSON.stringify(s));
    const png = await page.screenshot();
    fs.writeFileSync(artifactPath('a11y', 'dom-focus-shown.png'), png);
    const img = decodePng(png);
    const amber = (x, y) => { const i = (Math.round(y) * img.width + Math.round(x)) * 4; const [R, G, B] = img.rgba.slice(i, i + 3); return R > 220 && G > 140 && G < 210 && B < 60; };
    let hits = 0;  // the left border, 3 px wide, down the box
    for (let y = s.y + 4; y < s.y + s.h - 4; y++) if (amber(s.x + 1, y)) hits++;
    assert.ok(hits >= (s.h - 8) / 2, `amber ring pixels on the shown focus's left edge: ${hits}`);
    // Shift+Tab goes back to a twin the canvas draws and rings: the page shows nothing of its own.
    await k.tabToId('a11y-d_k', { back: true });
    await pollUntil(shown, (x) => x.hidden, { what: 'nothing shown while the canvas rings the focused control' });
    await page.evaluate(() => document.activeElement.blur());
    assert.equal((await shown()).hidden, true);
  });

  // wcag: 2.4.7 — a control far down its panel is scrolled into view on the canvas when its twin takes the focus
  it('scrolls the canvas to the control whose twin takes the focus (the last lesson, Reset progress) and rings it there', async () => {
    const { page } = app;
    await setStateOk(page, { panels: { lesson: true } });
    await waitFrames(page, 3);
    const items = (await desc()).lessons.items;
    const inView = async (id) => {
      const [r, p] = await page.evaluate((i) => Promise.all([window.attnplay.ui.itemRect(i), window.attnplay.ui.itemRect('panel:lesson')]), id);
      return r && p && r.y >= p.y && r.y + r.h <= p.y + p.h;
    };
    const last = items[items.length - 1].id;
    assert.equal(await inView(`lesson:start:${last}`), false, 'the last lesson starts below the list\'s view (else this checks nothing)');
    for (const [twin, id] of [[`a11y-lesson-start-${last}`, `lesson:start:${last}`], ['a11y-lesson-reset-progress', 'lesson:reset-progress']]) {
      await page.focus('#' + twin);
      await pollUntil(() => inView(id), (v) => v, { what: `${id} scrolled into the panel's view` });
      await waitFrames(page, 2);
      const r = await page.evaluate((i) => window.attnplay.ui.itemRect(i), id);
      const img = decodePng(await page.screenshot());
      const amber = (x, y) => { const i = (Math.round(y) * img.width + Math.round(x)) * 4; const [R, G, B] = img.rgba.slice(i, i + 3); return R > 220 && G > 140 && G < 210 && B < 60; };
      let hits = 0;
      for (let y = r.y; y < r.y + r.h; y++) for (let dx = -5; dx <= -1; dx++) if (amber(r.x + dx, y)) hits++;
      assert.ok(hits >= r.h / 2, `amber ring pixels left of ${id}: ${hits}`);
    }
    await page.evaluate(() => document.activeElement.blur());
  });

  // wcag: 4.1.2 — every slider, checkbox, select and field in Chromium's accessibility tree has a name and a value
  // wcag: 3.3.2 — every control twin carries a label
  // wcag: 3.1.2 — the parallel DOM carries the learner's language (lang), and its names change with it
  it('gives every control a role, a name in the current language and a value (accessibility tree)', async () => {
    const { page } = app;
    const names = async () => {
      const cdp = await page.context().newCDPSession(page);
      const { nodes } = await cdp.send('Accessibility.getFullAXTree');
      await cdp.detach();
      return nodes.filter((n) => !n.ignored && ['slider', 'checkbox', 'combobox', 'textbox'].includes(n.role && n.role.value));
    };
    const en = await names();
    assert.ok(en.length >= 4, `controls in the tree: ${en.length}`);
    for (const n of en) {
      assert.ok(n.name && n.name.value, `${n.role.value} has a name`);
      if (n.role.value !== 'textbox') assert.ok(n.value || (n.properties || []).some((p) => p.name === 'checked'), `${n.name.value} has a value`);
    }
    await setStateOk(page, { lang: 'hi-Latn' });
    const d = await desc();
    await pollUntil(() => page.evaluate(() => document.getElementById('a11y-dom').getAttribute('lang')), (l) => l === 'hi-Latn', { what: 'lang' });
    // The Hinglish texts are fetched when the page first shows Hinglish: the names follow once they are installed.
    const renamed = (hi) => hi.filter((n, i) => en[i] && n.name && n.name.value !== en[i].name.value);
    const hi = await pollUntil(names, (h) => renamed(h).length >= 1, { timeout: 15000, interval: 200,
      what: 'control names in Hinglish' });
    assert.ok(renamed(hi).length >= 1, 'some control names change with the language');
    assert.equal(d.lang, 'hi-Latn');
    await setStateOk(page, { lang: 'en' });
  });

  it('says Learn mode\'s curves in words, announced once the run settles', async () => {
    const { page } = app;
    await setStateOk(page, { panels: { learn: true }, learn: { settings: { task: 'copy', layers: 1, seed: 3, steps: 40 }, playing: true, speed: 2 } });
    const result = () => page.evaluate(async () => (await window.attnplay.getResult()).learn);
    const done = await pollUntil(result, (l) => l.steps >= 40 || l.stopped, { timeout: 60000, interval: 200, what: 'the 40-step run to end' });
    const text = await pollUntil(() => page.evaluate(() => document.getElementById('a11y-learn')?.textContent),
      (t) => t && t.includes(String(done.steps)), { what: 'the outcome in words' });
    // The same numbers as getResult(): the step each model reached 90 % at, or its last accuracy.
    for (const w of [done.a, done.b]) {
      const want = w.steps_to_90 >= 0 ? `step ${w.steps_to_90}` : `${Math.round(100 * w.accuracy)} %`;
      assert.ok(text.includes(want), `"${text}" says ${want}`);
    }
    // Said first, with the settled summary after it (the live region's one message).
    const live = await pollUntil(() => page.evaluate(() => document.getElementById('a11y-summary').textContent), (t) => t.startsWith(text), { what: 'the outcome in the live region' });
    assert.ok(live.startsWith(text));
    await setStateOk(page, { panels: { learn: false } });
  });

  // wcag: 2.1.1 — a lesson opened and answered by keys alone from the canvas, through the skip links and the picker
  // wcag: 2.4.3 — Enter on a lesson puts the reader on it, Next on the new step's text, Free play on the picker
  // wcag: 3.3.3 — a wrong choice gets its own feedback, saying the misconception in words
  it('opens a lesson from the lesson picker and answers it by keyboard alone: wrong, then right, said in words', async () => {
    const { page } = app;
    assert.equal(predictStep, 0, 'the first lesson opens on a multiple-choice prediction');
    const task = lessonFile.steps[predictStep].task;
    const steps = lessonFile.steps.length;
    const key = async (k) => { await page.keyboard.press(k); await waitFrames(page, 2); };
    const activeId = () => page.evaluate(() => document.activeElement && document.activeElement.id);
    const where = () => page.evaluate(() => {
      const a = document.activeElement;
      if (document.getElementById('a11y-skip').contains(a)) return 'skip:' + a.getAttribute('href');
      return a === document.getElementById('canvas') ? 'canvas' : 'page';
    });
    // From the canvas: Esc leaves it for the skip links (Shift-Tab walks out of it if Esc had something to cancel).
    await keyboard(page).toSkipLinks();
    for (let i = 0; i < 4 && (await where()) !== 'skip:#a11y-lessons'; i++) await key('Shift+Tab');
    assert.equal(await where(), 'skip:#a11y-lessons', 'a skip link leads to the lessons while none is open');
    await key('Enter');
    const button = `a11y-lesson-start-${lessonFile.id}`;
    for (let i = 0; i < 20 && (await activeId()) !== button; i++) await key('Tab');
    assert.equal(await activeId(), button, 'Tab reaches the first lesson\'s button in the picker');
    const title = await page.evaluate((id) => document.getElementById(id).textContent, button);
    assert.equal(title, '1. ' + en[lessonFile.title], 'named by its number and translated title');
    await key('Enter');
    await pollUntil(activeId, (id) => id === 'a11y-lesson', { what: 'the focus on the opened lesson' });
    assert.deepEqual((await api.getState(page)).lesson, { id: lessonFile.id, step: 1 }, 'Enter opened it at step 1');
    // Tab from the lesson's heading reaches its choices; arrows move between them, Space answers.
    for (let i = 0; i < 10 && !/^a11y-choice-/.test(await activeId()); i++) await key('Tab');
    const choiceAt = async () => +(await activeId()).replace('a11y-choice-', '');
    const choose = async (want) => {
      for (let i = 0; i < 8 && (await choiceAt()) !== want; i++) await key((await choiceAt()) < want ? 'ArrowDown' : 'ArrowUp');
      assert.equal(await choiceAt(), want);
      await key('Space');
    };
    const wrong = task.answer === 0 ? 1 : 0;
    await choose(wrong);
    const v1 = await pollUntil(() => dom('#a11y-verdict'), (x) => x, { what: 'a verdict' });
    assert.equal(v1.text, `✗ ${en['lesson.ui.try_again']} ${en[task.feedback[wrong]]}`, 'the wrong choice\'s own feedback, in words');
    assert.equal((await api.getResult(page)).lesson.attempts, 1);
    assert.equal(await activeId(), `a11y-choice-${wrong}`, 'the focus stays on the choice');
    await choose(task.answer);
    const v2 = await pollUntil(() => dom('#a11y-verdict'), (x) => x && /^✓ /.test(x.text), { what: 'a right verdict' });
    assert.equal(v2.text, `✓ ${en['lesson.ui.right']}`);
    assert.ok(await dom('#a11y-explain'), 'the explanation is text');
    const r = (await api.getResult(page)).lesson;
    assert.deepEqual([r.attempts, r.correct, r.step], [2, true, 1], 'two answers, the last right');
    for (let i = 0; i < 10 && (await activeId()) !== 'a11y-lesson-next'; i++) await key('Tab');
    assert.equal(await activeId(), 'a11y-lesson-next');
    await key('Enter');
    await pollUntil(() => api.getState(page), (st) => st.lesson && st.lesson.step === 2, { what: 'step 2 by Enter on Next' });
    await pollUntil(() => page.evaluate(() => document.querySelector('#a11y-lesson p').textContent),
      (t) => t === en['lesson.ui.step_of'].replace('{step}', '2').replace('{steps}', steps), { what: 'Step 2 of N said' });
    // The reader is taken to the new step's text (the very words the canvas shows), not left on a dimmed Next.
    await pollUntil(activeId, (id) => id === 'a11y-lesson-text', { what: 'the focus on step 2\'s text' });
    const said = await page.evaluate(() => document.activeElement.textContent);
    assert.equal(said, (await page.evaluate(() => window.attnplay.a11y.description())).lesson.text);
    assert.ok(!/\{[a-z_0-9]+\}/.test(said), `no template: ${said}`);
    // Free play brings the picker back, saying how far the learner got; Enter there goes on from that step.
    for (let i = 0; i < 10 && (await activeId()) !== 'a11y-lesson-exit'; i++) await key('Tab');
    await key('Enter');
    await pollUntil(activeId, (id) => id === 'a11y-lessons', { what: 'the focus on the lesson picker' });
    assert.equal((await api.getState(page)).lesson, null, 'back in free play');
    const status = await page.evaluate((id) => document.getElementById(id + '-status').textContent.trim(), button);
    assert.equal(status, en['lesson.ui.reached'].replace('{step}', '2').replace('{steps}', steps));
    await key('Tab');
    assert.equal(await activeId(), button);
    await key('Enter');
    await pollUntil(() => api.getState(page), (st) => st.lesson && st.lesson.step === 2, { what: 'the lesson again at step 2' });
    // The skip link to the results (shown on focus) takes the focus into them.
    await page.focus('#a11y-skip a[href="#a11y-results"]');
    const linkBox = await page.evaluate(() => document.activeElement.getBoundingClientRect().top);
    assert.ok(linkBox >= 0, `the focused skip link is on screen (top ${linkBox})`);
    await page.keyboard.press('Enter');
    assert.ok(await page.evaluate(() => document.activeElement.closest('#a11y-results') !== null), 'focus in the results');
    const live = await pollUntil(() => page.evaluate(() => document.getElementById('a11y-summary').textContent), (t) => t.length > 0, { what: 'live region' });
    assert.ok(live.length > 0);
  });

  // wcag: 2.4.3 — Back puts the reader on the step's text; Finish on a lesson's last step puts them on its results
  it('Back puts the reader on the step\'s text, Finish on the last step on the lesson\'s results', async () => {
    const { page } = app;
    const activeId = () => page.evaluate(() => document.activeElement && document.activeElement.id);
    await setStateOk(page, { lesson: { id: lessonFile.id, step: 2 } });
    await page.waitForSelector('#a11y-lesson-back:not([aria-disabled])');
    await page.focus('#a11y-lesson-back');
    await page.keyboard.press('Enter');
    await pollUntil(() => api.getState(page), (st) => st.lesson && st.lesson.step === 1, { what: 'step 1 by Back' });
    await pollUntil(activeId, (id) => id === 'a11y-lesson-text', { what: 'the focus on step 1\'s text' });
    await setStateOk(page, { lesson: { id: lessonFile.id, step: lessonFile.steps.length } });
    await page.waitForSelector('#a11y-lesson-next:not([aria-disabled])');
    await page.focus('#a11y-lesson-next');
    await page.keyboard.press('Enter');
    await pollUntil(activeId, (id) => id === 'a11y-lesson-results', { what: 'the focus on the results' });
    assert.equal((await api.getState(page)).lesson, null, 'the lesson is finished');
  });

  // wcag: 3.2.3 — skip links and sections keep one relative order in free play, in a lesson, with the worksheet
  it('keeps the skip links and the sections in one order as the page changes', async () => {
    const { page } = app;
    const seen = async () => page.evaluate(() => ({
      skip: [...document.querySelectorAll('#a11y-skip a')]
        .map((a) => a.getAttribute('href').replace(/^#a11y-lessons?(-results)?$/, 'lesson')),
      sections: [...document.querySelectorAll('#a11y-dom > *')].map((e) => e.id).filter(Boolean) }));
    const orders = [];
    const states = [{ lesson: null }, { lesson: { id: lessonFile.id, step: 1 } }, { lesson: null, panels: { worksheet: true } }];
    for (const set of states) {
      await setStateOk(page, set);
      await waitFrames(page, 4);
      orders.push(await seen());
    }
    await setStateOk(page, { panels: { worksheet: false } });
    const relative = (a, b) => a.filter((x) => b.includes(x));
    for (const o of orders.slice(1))
      for (const key of ['skip', 'sections'])
        assert.deepEqual(relative(o[key], orders[0][key]), relative(orders[0][key], o[key]), `${key}: ${JSON.stringify(orders)}`);
    assert.ok(orders.every((o) => o.skip[0] === 'lesson' && o.skip.includes('#a11y-controls')), JSON.stringify(orders));
  });

  // wcag: 2.4.3 — a reader on a skip link stays on it when the links change (a panel opens or closes behind them)
  it('keeps the focus on a skip link while the links change around it', async () => {
    const { page } = app;
    const onLink = () => page.evaluate(() => document.activeElement && document.activeElement.getAttribute('href'));
    await page.focus('#a11y-skip a[href="#a11y-menus"]');
    for (const open of [true, false]) {
      await setStateOk(page, { panels: { worksheet: open } });
      await pollUntil(() => page.evaluate(() => Boolean(document.querySelector('#a11y-skip a[href="#a11y-worksheet"]'))),
        (has) => has === open, { what: `the worksheet's skip link ${open ? 'added' : 'removed'}` });
      assert.equal(await onLink(), '#a11y-menus', 'the focus stays on the menus\' skip link');
    }
  });

  it('opens the Worksheet and Learn, and changes the language, by keyboard alone through the menus\' twin', async () => {
    const { page } = app;
    const key = async (k) => { await page.keyboard.press(k); await waitFrames(page, 2); };
    const activeId = () => page.evaluate(() => document.activeElement && document.activeElement.id);
    await page.focus('#a11y-skip a[href="#a11y-menus"]');
    await key('Enter');
    for (const [panel, section] of [['worksheet', 'a11y-worksheet'], ['learn', 'a11y-learn-play']]) {
      const box = `a11y-view-${panel}`;
      for (let i = 0; i < 30 && (await activeId()) !== box; i++) await key('Tab');
      assert.equal(await activeId(), box, `Tab reaches the ${panel} checkbox`);
      const named = await page.evaluate((id) => document.querySelector(`label[for="${id}"]`).textContent, box);
      assert.equal(named, en['panel.' + panel], 'named by the panel\'s title');
      await key('Space');
      await pollUntil(() => api.getState(page), (st) => st.panels[panel] === true, { what: `the ${panel} panel open` });
      await pollUntil(() => page.evaluate((id) => Boolean(document.getElementById(id)), section), Boolean,
        { what: `the ${panel}'s twins in the DOM` });
      assert.equal(await activeId(), box, 'the focus stays on the checkbox');
      assert.equal(await page.evaluate((id) => document.getElementById(id).checked, box), true);
    }
    for (let i = 0; i < 30 && (await activeId()) !== 'a11y-menu-language'; i++) await key('Tab');
    assert.equal(await activeId(), 'a11y-menu-language');
    await page.selectOption('#a11y-menu-language', 'hi-Latn');
    await pollUntil(() => api.getState(page), (st) => st.lang === 'hi-Latn', { what: 'Hinglish chosen' });
    await setStateOk(page, { lang: 'en', panels: { worksheet: false, learn: false } });
  });

  // wcag: 1.4.10 — at 320 CSS px no horizontal page scroll, and a focused skip link fits
  it('fits 320 CSS px without horizontal page scroll, skip links included', async () => {
    const origin = new URL(app.page.url()).origin;
    const narrow = await openApp(app.context.browser(), origin, { viewport: { width: 320, height: 640 } });
    try {
      await narrow.page.focus('#a11y-skip a');  // a skip link shown on focus must fit too
      const box = await narrow.page.evaluate(() => document.activeElement.getBoundingClientRect().right);
      assert.ok(box <= 320, `skip link right edge ${box}`);
      const w = await narrow.page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, body: document.body.scrollWidth }));
      fs.writeFileSync(artifactPath('a11y', 'width-320.png'), await narrow.page.screenshot());
      assert.ok(w.scroll <= 320 && w.body <= 320, JSON.stringify(w));
    } finally {
      await narrow.context.close();
    }
  });

  // wcag: 1.3.4 — a phone upright or on its side draws the controls, no sideways scroll; no orientation lock
  it('works on a phone held either way, and locks no orientation', async () => {
    const origin = new URL(app.page.url()).origin;
    for (const viewport of [{ width: 390, height: 844 }, { width: 844, height: 390 }]) {
      const phone = await openApp(app.context.browser(), origin, { viewport, device: { hasTouch: true, isMobile: true } });
      try {
        const r = await pollUntil(() => api.itemRect(phone.page, 'd_k'), (x) => x && x.w > 0,
          { what: `d_k drawn at ${viewport.width}×${viewport.height}` });
        assert.ok(r.x >= 0 && r.x + r.w <= viewport.width, `d_k within the width: ${JSON.stringify(r)}`);
        const w = await phone.page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(w <= viewport.width, `no sideways scroll at ${viewport.width}×${viewport.height}: ${w}`);
        await setStateOk(phone.page, { d_k: 100 });
        assert.equal((await api.getState(phone.page)).d_k, 100);
      } finally {
        await phone.context.close();
      }
    }
    const manifest = await app.page.evaluate(() => fetch('manifest.webmanifest').then((r) => r.json()));
    assert.equal(manifest.orientation, undefined, 'the manifest locks no orientation');
  });

  // wcag: 2.5.2 — a press on a checkbox released off it does nothing; pressed and released on it, it toggles
  it('acts on release over a control: a press dragged off the checkbox is cancelled', async () => {
    const { page } = app;
    await setStateOk(page, { preset: 'default' });
    const r = await api.itemRect(page, 'scale');
    const scale = (await api.getState(page)).scale;
    await page.mouse.move(r.x + r.h / 2, r.y + r.h / 2);
    await page.mouse.down();
    await waitFrames(page, 2);
    await page.mouse.move(r.x + r.h / 2, r.y + r.h * 6, { steps: 4 });
    await waitFrames(page, 2);
    await page.mouse.up();
    await waitFrames(page, 3);
    assert.equal((await api.getState(page)).scale, scale, 'released off the checkbox: nothing happened');
    await page.mouse.move(r.x + r.h / 2, r.y + r.h / 2);
    await page.mouse.down();
    await waitFrames(page, 2);
    assert.equal((await api.getState(page)).scale, scale, 'nothing on the press itself');
    await page.mouse.up();
    await pollUntil(() => api.getState(page), (st) => st.scale === !scale, { what: 'the toggle on release' });
    await setStateOk(page, { scale });
  });

  it('honours an embed\'s locks and hidden controls (aria-disabled, absent)', async () => {
    const origin = new URL(app.page.url()).origin;
    const e = await openApp(app.context.browser(), origin, { path: '/?embed=1&panels=controls,heatmap&lock=d_k&hide=temperature' });
    try {
      await e.page.waitForSelector('#a11y-d_k');
      const before = (await api.getState(e.page)).d_k;
      assert.equal(await e.page.evaluate(() => document.getElementById('a11y-d_k').getAttribute('aria-disabled')), 'true');
      assert.equal(await e.page.evaluate(() => document.getElementById('a11y-temperature')), null, 'hidden: no twin');
      assert.ok(await e.page.evaluate(() => document.getElementById('a11y-scale') !== null), 'an unlocked control is there');
      await e.page.focus('#a11y-d_k');
      for (let i = 0; i < 3; i++) await e.page.keyboard.press('ArrowRight');
      await waitFrames(e.page, 3);
      assert.equal((await api.getState(e.page)).d_k, before, 'a locked d_k does not move');
      assert.equal(+(await e.page.evaluate(() => document.getElementById('a11y-d_k').value)), before, 'its twin shows the kept value');
    } finally {
      await e.context.close();
    }
  });

  // wcag: 4.1.1 — axe-core finds no A/AA violation and no id is used twice (free play, a lesson step, every twin)
  it('has no axe-core violations at WCAG 2.1 A and AA (free play and a lesson step)', async () => {
    const { page } = app;
    await page.addScriptTag({ path: AXE });
    const run = () => page.evaluate(async () => {
      const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
      const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
      return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
        .concat(ids.filter((id, i) => ids.indexOf(id) !== i).map((id) => `duplicate id: ${id}`));
    });
    assert.deepEqual(await run(), [], 'lesson step');
    await setStateOk(page, { lesson: null });
    await waitFrames(page, 3);
    assert.deepEqual(await run(), [], 'free play');
    // The lesson picker (free play), the worksheet's chooser and cells, Learn mode's controls, the mask grid and the
    // embedding points (of the random-embeddings example).
    await setStateOk(page, { preset: 'default', panels: { worksheet: true, learn: true, masks: true, embeddings: true } });
    await page.waitForSelector('#a11y-mask-0-0', { state: 'attached' });
    await page.waitForSelector('#a11y-point-0-x', { state: 'attached' });
    await page.waitForSelector('#a11y-ws-exercise', { state: 'attached' });
    await page.waitForSelector('#a11y-ws-Q-1-1', { state: 'attached' });
    assert.ok(await page.evaluate(() => document.getElementById('a11y-lessons') && document.getElementById('a11y-learn-play')));
    assert.deepEqual(await run(), [], 'worksheet, Learn mode, masks and embeddings open');
    await setStateOk(page, { panels: { worksheet: false, learn: false, masks: false } });
    // An embedding page (the course example): its own markup around the playground's iframe.
    const origin = new URL(page.url()).origin;
    const host = await page.context().newPage();
    try {
      await host.goto(origin + '/examples/course.html', { waitUntil: 'load' });
      await host.addScriptTag({ path: AXE });
      const v = await host.evaluate(async () => (await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }))
        .violations.map((x) => `${x.id}: ${x.nodes.map((n) => n.target.join(' ')).join(', ')}`));
      assert.deepEqual(v, [], 'examples/course.html');
    } finally {
      await host.close();
    }
  });
});
