// share-twins.test.mjs — the Share panel by keyboard alone, through its parallel-DOM twins: each export the canvas
// saves, the link, the import, a course package and the embed code, with the same files, choices and code as the
// canvas's buttons (one set of actions behind both: src/app/share_actions.cpp).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { api, center, click, decodePng, imageStats, launchChromium, pollUntil, setStateOk, siteBuiltTest, startServer, waitFrames } from './helpers.mjs';
import { clickForDownload, openAt, openSharePanel, watch } from './share_helpers.mjs';

siteBuiltTest();

describe('the Share panel\'s twins', { timeout: 175000 }, () => {
  let server, browser, app, page;
  before(async () => {
    server = await startServer();
    browser = await launchChromium();
    app = await openAt(browser, server.origin + '/', { permissions: ['clipboard-read', 'clipboard-write'] });
    page = app.page;
    await setStateOk(page, { d_k: 40, scale: false, sentence: 'one two three', seed: 4 });
    await openSharePanel(page);
    await waitFrames(page, 3);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
  const twin = (id) => page.locator('#a11y-' + id.replace(/[^A-Za-z0-9_-]/g, '-'));
  // A twin reached by Tab from the one before it would be pressed with Enter: focus it, then Enter.
  async function pressTwin(id) {
    await twin(id).focus();
    await page.keyboard.press('Enter');
  }
  async function twinDownload(id) {
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30000 }), pressTwin(id)]);
    return { name: download.suggestedFilename(), bytes: fs.readFileSync(await download.path()) };
  }

  // wcag: 2.1.1 — the Share panel's exports, link, import, course package and embed code by keyboard in the parallel DOM
  it('every export the canvas offers has a twin button in the Share section, named as on the canvas', async () => {
    const names = await page.evaluate(() => [...document.querySelectorAll('#a11y-dom button[id^="a11y-share-"]')].map((b) => [b.id, b.textContent]));
    const ids = names.map(([id]) => id);
    for (const id of ['share-copy_link', 'share-png_canvas', 'share-png_heatmap', 'share-svg-attnplay-heatmap-svg', 'share-svg-attnplay-saturation-svg',
      'share-svg-attnplay-variance-svg', 'share-csv', 'share-result_json', 'share-state_json', 'share-import_json', 'share-lms_download'])
      assert.ok(ids.includes('a11y-' + id), `a twin for ${id}: ${JSON.stringify(names)}`);
    for (const [, text] of names) assert.ok(text && !/[{}]|share\./.test(text), `a catalog label: ${text}`);
  });

  it('the CSV, result JSON, state JSON, SVG and heatmap PNG twins save the files the canvas buttons save, byte for byte', async () => {
    for (const [id, label, name] of [['share:csv', 'CSV of every matrix', 'attnplay-result.csv'],
      ['share:result_json', 'Result JSON', 'attnplay-result.json'], ['share:state_json', 'State JSON', 'attnplay-state.json'],
      ['share:svg:attnplay-heatmap.svg', 'share:svg:attnplay-heatmap.svg', 'attnplay-heatmap.svg'],
      ['share:png_heatmap', 'share:png_heatmap', 'attnplay-heatmap.png']]) {
      const fromTwin = await twinDownload(id);
      const fromCanvas = await clickForDownload(page, label, click);
      assert.equal(fromTwin.name, name);
      assert.equal(fromCanvas.name, name);
      assert.ok(fromTwin.bytes.length > 20, `${name} has content`);
      assert.ok(fromTwin.bytes.equals(fs.readFileSync(fromCanvas.path)), `${name}: the twin's file is the canvas button's`);
    }
    const saved = JSON.parse((await twinDownload('share:state_json')).bytes.toString('utf8'));
    assert.deepEqual(saved, await api.getState(page), 'the state file is getState()');
  });

  it('the link twin copies the share link and says so in the status line', async () => {
    await pressTwin('share:copy_link');
    const status = await pollUntil(() => watch(page), (w) => /Link copied/.test(w.status), { what: 'the status', timeout: 5000 });
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, await page.evaluate(() => window.attnplay.shareURL()));
    assert.match(status.status, new RegExp(`\\(${copied.length} characters\\)`));
  });

  it('the import twin opens the file picker, and the picked state is applied', async () => {
    const file = (await twinDownload('share:state_json'));
    const path = '/tmp/attnplay-share-twin-state.json';
    fs.writeFileSync(path, file.bytes);
    await setStateOk(page, { d_k: 9 });
    const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 30000 }), pressTwin('share:import_json')]);
    await chooser.setFiles(path);
    await pollUntil(() => api.getState(page), (s) => s.d_k === 40, { what: 'the imported d_k', timeout: 5000 });
    fs.rmSync(path, { force: true });
  });

  it('a course package of several lessons from the twins, the same choice the canvas popup shows and changes', async () => {
    const first = (await page.evaluate(() => [...document.querySelectorAll('#a11y-dom input[id^="a11y-share-package-"]')].map((c) => [c.id, c.checked])));
    assert.equal(first.length, 14, 'a checkbox per lesson');
    assert.deepEqual(first.filter(([, on]) => on).map(([id]) => id), ['a11y-share-package-why-attention'], 'no lesson open: the first is ticked');
    // Space on a focused checkbox, as a keyboard learner ticks it (the twins sit under the canvas: no pointer).
    for (const id of ['softmax', 'entropy', 'why-attention']) {
      await twin('share:package:' + id).focus();
      await page.keyboard.press('Space');
      await waitFrames(page, 2);
    }
    await twin('share:lms_kind').selectOption('cmi5');
    await pollUntil(() => page.evaluate(() => [...document.querySelectorAll('#a11y-dom input[id^="a11y-share-package-"]:checked')].map((c) => c.id)),
      (v) => v.join() === 'a11y-share-package-softmax,a11y-share-package-entropy', { what: 'the ticked lessons kept', timeout: 5000 });
    const pkg = await twinDownload('share:lms_download');
    assert.equal(pkg.name, 'attnplay-softmax-cmi5.zip');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnplay-twin-pkg-'));
    fs.writeFileSync(path.join(dir, 'p.zip'), pkg.bytes);
    execFileSync('unzip', ['-q', path.join(dir, 'p.zip'), '-d', path.join(dir, 'x')]);
    const course = fs.readFileSync(path.join(dir, 'x', 'cmi5.xml'), 'utf8');
    assert.deepEqual([...course.matchAll(/<url>index.html\?lesson=([^<]+)<\/url>/g)].map((m) => m[1]), ['softmax', 'entropy'], 'one AU per ticked lesson');
    fs.rmSync(dir, { recursive: true, force: true });
    // The canvas's popup shows the same ticks; a tick there shows in the twins.
    const open = await api.itemRect(page, 'share:lms_package');
    await click(page, { x: open.x + open.w / 2, y: open.y + open.h / 2 });
    const box = await pollUntil(() => api.itemRect(page, 'share:package:qkv'), (r) => r && r.w > 0, { what: 'the popup\'s lessons' });
    await click(page, { x: box.x + 10, y: box.y + box.h / 2 });
    await pollUntil(() => page.evaluate(() => document.getElementById('a11y-share-package-qkv').checked), (on) => on,
      { what: 'the canvas tick in the twin', timeout: 5000 });
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }),
      (async () => {
        const make = await pollUntil(() => api.itemRect(page, 'share:lms_download'), (r) => r && r.w > 0, { what: 'the popup' });
        await click(page, { x: make.x + make.w / 2, y: make.y + make.h / 2 });
      })()]);
    assert.equal(download.suggestedFilename(), 'attnplay-qkv-cmi5.zip', 'the canvas popup made the package of the same choice (qkv first in the catalog)');
  });
  // The embed options' twins: a checkbox per panel to show and per control to lock or hide (each group a fieldset
  // named by the canvas's heading), the origins, the size and "Copy embed code", by keyboard alone.
  const checked = (prefix) => page.evaluate((p) => [...document.querySelectorAll(`#a11y-dom input[id^="${p}"]:checked`)]
    .map((c) => c.id.slice(p.length)), prefix);
  async function space(id) {
    await twin(id).focus();
    await page.keyboard.press('Space');
    await waitFrames(page, 2);
  }
  // Types into a focused field as a learner does (what was there selected first), handed over with Enter.
  async function typeInto(id, text) {
    await twin(id).focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    await waitFrames(page, 2);
  }
  const attr = (id, name) => twin(id).getAttribute(name);
  // The tick of a canvas checkbox, read off its square: a tick mark is drawn in it, an empty box is one colour.
  async function canvasTicked(id) {
    const r = await api.itemRect(page, id);
    assert.ok(r && r.w > 0, `the canvas draws ${id}`);
    const png = await page.screenshot({ clip: { x: r.x + 3, y: r.y + 3, width: r.h - 6, height: r.h - 6 } });
    return imageStats(decodePng(png)).lumaStd > 20;
  }

  // wcag: 4.1.2 — the embed options' twins: fieldsets named by their headings, an invalid field and a disabled button saying why
  it('the embed options by keyboard in the twins: the canvas shows the same choice and its button copies the same code', async () => {
    const legends = await page.evaluate(() => ['share-show', 'share-lock', 'share-hide'].map((g) =>
      document.querySelector(`#a11y-dom fieldset#a11y-${g} > legend`)?.textContent));
    assert.deepEqual(legends, ['Panels to show', 'Controls the learner cannot change', 'Controls to hide']);
    assert.deepEqual(await checked('a11y-share-show-'), ['heatmap', 'saturation'], 'the canvas\'s default choice');
    assert.deepEqual(await checked('a11y-share-lock-'), ['d_k']);
    assert.equal(await twin('share:show:heatmap').evaluate((c) => c.labels[0].textContent), 'Attention heatmap (heatmap)');
    assert.equal(await twin('share:show:share').count(), 0, 'the Share window is not one to embed');
    assert.equal(await twin('share:embed_code').count(), 0, 'no code before the first copy');
    for (const id of ['share:show:saturation', 'share:show:controls', 'share:show:variance', 'share:lock:scale', 'share:hide:temperature'])
      await space(id);
    assert.deepEqual(await checked('a11y-share-show-'), ['controls', 'heatmap', 'variance']);
    assert.deepEqual(await checked('a11y-share-lock-'), ['d_k', 'scale']);
    assert.deepEqual(await checked('a11y-share-hide-'), ['temperature']);

    // Origins that are no origins: the field says why, and the button is disabled and says why too.
    await typeInto('share:origins', 'ftp://course.example');
    await pollUntil(() => attr('share:origins', 'aria-invalid'), (v) => v === 'true', { what: 'the origins marked invalid' });
    const error = await page.locator('#' + await attr('share:origins', 'aria-describedby')).textContent();
    assert.match(error, /must start with http:\/\/ or https:\/\//);
    assert.equal(await attr('share:copy_embed', 'aria-disabled'), 'true');
    const why = await page.locator('#' + await attr('share:copy_embed', 'aria-describedby')).textContent();
    assert.equal(why, 'Fix the host origins first.');
    await page.evaluate(() => navigator.clipboard.writeText('nothing yet'));
    await pressTwin('share:copy_embed');
    await waitFrames(page, 2);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'nothing yet', 'a disabled button copies nothing');
    await typeInto('share:origins', 'https://course.example, http://127.0.0.1:8097');
    await pollUntil(() => attr('share:copy_embed', 'aria-disabled'), (v) => v === null, { what: 'the button enabled' });
    assert.equal(await attr('share:origins', 'aria-invalid'), null);

    // The size, clamped as on the canvas.
    await typeInto('share:embed_width', '50');
    await pollUntil(() => twin('share:embed_width').inputValue(), (v) => v === '200', { what: 'the width clamped to 200' });
    await typeInto('share:embed_width', '20');  // clamped to the 200 it already is: still shown as kept
    assert.equal(await twin('share:embed_width').inputValue(), '200');
    await typeInto('share:embed_height', '99999');
    await pollUntil(() => twin('share:embed_height').inputValue(), (v) => v === '4000', { what: 'the height clamped to 4000' });
    await typeInto('share:embed_width', '800');
    await typeInto('share:embed_height', '480');
    await pollUntil(() => Promise.all([twin('share:embed_width').inputValue(), twin('share:embed_height').inputValue()]),
      (v) => v.join() === '800,480', { what: 'the size kept' });

    await pressTwin('share:copy_embed');
    const code = await pollUntil(() => page.evaluate(() => navigator.clipboard.readText()), (t) => t.startsWith('<iframe'),
      { what: 'the code copied' });
    assert.match(code, /^<iframe src="[^"]+" title="Attention Playground: [^"]+" width="800" height="480" sandbox="allow-scripts allow-same-origin" allow="clipboard-write" loading="lazy"><\/iframe>$/);
    const shown = await pollUntil(() => twin('share:embed_code').count(), (n) => n === 1, { what: 'the code shown' });
    assert.equal(shown, 1);
    assert.equal(await twin('share:embed_code').inputValue(), code, 'the code shown read-only in the page');
    assert.equal(await twin('share:embed_code').evaluate((t) => t.readOnly), true);

    // The canvas's options are the same choice: its ticks, its fields, and its button copies the same code.
    const options = await api.itemRect(page, 'share:embed_options');
    await click(page, center(options));
    await pollUntil(() => api.itemRect(page, 'share:copy_embed'), (r) => r && r.w > 0, { what: 'the canvas\'s embed options' });
    await waitFrames(page, 2);
    for (const [id, on] of [['share:show:controls', true], ['share:show:variance', true], ['share:show:saturation', false],
      ['share:show:pipeline', false], ['share:lock:scale', true], ['share:lock:seed', false], ['share:hide:temperature', true]])
      assert.equal(await canvasTicked(id), on, `the canvas's ${id} is ${on ? '' : 'not '}ticked`);
    await page.evaluate(() => navigator.clipboard.writeText('nothing yet'));
    await click(page, center(await api.itemRect(page, 'share:copy_embed')));
    const fromCanvas = await pollUntil(() => page.evaluate(() => navigator.clipboard.readText()), (t) => t !== 'nothing yet',
      { what: 'the canvas button\'s code' });
    assert.equal(fromCanvas, code, 'the canvas button copies the code the twin copied');
    // A tick on the canvas shows in its twin.
    await click(page, center(await api.itemRect(page, 'share:hide:seed')));
    await pollUntil(() => checked('a11y-share-hide-'), (v) => v.join() === 'temperature,seed', { what: 'the canvas tick in the twin' });
    await space('share:hide:seed');
    assert.deepEqual(await checked('a11y-share-hide-'), ['temperature']);

    // The code's link opens exactly the chosen panels, with the locks honoured.
    const url = new URL(code.match(/src="([^"]+)"/)[1].replace(/&amp;/g, '&').replace(/&quot;/g, '"'));
    assert.equal(url.origin + url.pathname, server.origin + '/');
    const embedded = await openAt(browser, url.href, { viewport: { width: 800, height: 480 } });
    try {
      const ep = embedded.page;
      await waitFrames(ep, 3);
      assert.deepEqual(await ep.evaluate(() => window.attnplay.embedInfo()), { enabled: true, panels: ['controls', 'heatmap', 'variance'],
        locked: ['d_k', 'scale'], hidden: ['temperature'], origins: ['https://course.example', 'http://127.0.0.1:8097'] });
      const drawn = (title) => ep.evaluate((t) => window.attnplay.ui.panelScroll(t), title);
      for (const [title, on] of [['Controls', true], ['Attention heatmap', true], ['Variance lab', true], ['Saturation', false],
        ['Pipeline', false], ['Embeddings', false], ['Explanation', false], ['Share', false]])
        assert.equal(!!(await drawn(title)), on, `${title} ${on ? 'shown' : 'not shown'}`);
      assert.equal(await api.itemRect(ep, 'temperature'), null, 'the hidden control is not drawn');
      const before = await api.getState(ep);
      assert.equal(before.d_k, 40);
      // A locked control's twin says so, and keys change nothing.
      const dk = ep.locator('#a11y-d_k');
      assert.equal(await dk.getAttribute('aria-disabled'), 'true');
      await dk.focus();
      await ep.keyboard.press('ArrowRight');
      await ep.keyboard.press('End');
      await ep.locator('#a11y-scale').focus();
      await ep.keyboard.press('Space');
      await waitFrames(ep, 3);
      const after = await api.getState(ep);
      assert.deepEqual([after.d_k, after.scale], [before.d_k, before.scale], 'd_k and scale stay locked');
    } finally {
      await embedded.context.close();
    }
  });
});
