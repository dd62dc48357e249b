// share-twins.test.mjs — the Share panel by keyboard alone, through its parallel-DOM twins: each export the canvas
// saves, the link, the import and a course package, with the same files and choices as the canvas's buttons (one
// set of actions behind both: src/app/share_actions.cpp).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { api, click, launchChromium, pollUntil, setStateOk, siteBuiltTest, startServer, waitFrames } from './helpers.mjs';
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

  // wcag: 2.1.1 — the Share panel's exports, link, import and course package by keyboard in the parallel DOM
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
});
