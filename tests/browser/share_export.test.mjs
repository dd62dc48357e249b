// share_export.test.mjs — the Share panel's exports and imports round-trip: state JSON out and back in
// through the file picker gives the same state; result JSON is the API's result; the CSV holds every
// matrix with the same numbers; PNGs of the canvas and of the heatmap decode; a CLI scenario dropped on
// the page is computed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import {
  api, artifactPath, center, click, decodePng, imageStats, itemRect, launchChromium, pollUntil, setStateOk, siteBuiltTest,
  startServer, waitFrames,
} from './helpers.mjs';
import { clickForDownload, comparable, openAt, openSharePanel, watch } from './share_helpers.mjs';

siteBuiltTest();

// CSV blocks: a header row whose first cell names the matrix, then one row per label; blank line between.
function parseCsvBlocks(text) {
  const blocks = {};
  for (const chunk of text.split('\n\n')) {
    const lines = chunk.split('\n').filter(Boolean);
    if (!lines.length) continue;
    const name = lines[0].split(',')[0];
    blocks[name] = lines.slice(1).map((l) => l.split(',').slice(1).map((v) => (v === 'masked' ? null : Number(v))));
  }
  return blocks;
}

describe('export and import', { timeout: 175000 }, () => {
  let server, browser, app, page;
  before(async () => {
    server = await startServer();
    browser = await launchChromium();
    app = await openAt(browser, server.origin + '/');
    page = app.page;
    await setStateOk(page, { d_k: 48, scale: false, temperature: 0.8, mask: 'causal', sentence: 'one two three four', seed: 9 });
    const st = await api.getState(page);
    st.embeddings[2][1] = 1.5;
    await setStateOk(page, { embeddings: st.embeddings });
    await openSharePanel(page);
    await waitFrames(page, 2);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('state JSON → file → "Import JSON…" gives the same state', async () => {
    const want = await api.getState(page);
    const { name, path } = await clickForDownload(page, 'State JSON', click);
    assert.equal(name, 'attnplay-state.json');
    const saved = JSON.parse(fs.readFileSync(path, 'utf8'));
    assert.deepEqual(saved, want, 'the file is getState()');
    fs.copyFileSync(path, artifactPath('browser', 'share-state.json'));

    await setStateOk(page, { d_k: 5, scale: true, sentence: 'something else entirely' });
    await waitFrames(page, 2);
    const button = await itemRect(page, 'Import JSON…');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 30000 }), click(page, center(button))]);
    await chooser.setFiles(path);
    await pollUntil(() => watch(page), (w) => /Imported the state/.test(w.status), { what: 'the import', timeout: 5000 });
    assert.deepEqual(comparable(await api.getState(page)), comparable(want), 'the imported state');
  });

  it('result JSON is the API result; CSV holds every matrix with the same numbers', async () => {
    const result = await api.getResult(page);
    const json = await clickForDownload(page, 'Result JSON', click);
    assert.equal(json.name, 'attnplay-result.json');
    assert.deepEqual(JSON.parse(fs.readFileSync(json.path, 'utf8')), result);

    const csv = await clickForDownload(page, 'CSV of every matrix', click);
    assert.equal(csv.name, 'attnplay-result.csv');
    const text = fs.readFileSync(csv.path, 'utf8');
    fs.writeFileSync(artifactPath('browser', 'share-result.csv'), text);
    const blocks = parseCsvBlocks(text);
    for (const m of ['Q', 'K', 'V', 'scores', 'logits', 'weights', 'output']) assert.ok(blocks[m], `CSV block ${m}`);
    const close = (a, b) => (a === null ? b === null : Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b)));
    for (const m of ['Q', 'weights', 'output']) {
      assert.equal(blocks[m].length, result[m].length, `${m} rows`);
      blocks[m].forEach((row, i) => row.forEach((v, j) => assert.ok(close(v, result[m][i][j]), `${m}[${i}][${j}]: ${v} vs ${result[m][i][j]}`)));
    }
    assert.equal(blocks.logits[0][1], null, 'masked logits are marked, causal mask');
  });

  it('PNG of the canvas and of the heatmap', async () => {
    const canvasPng = await clickForDownload(page, 'PNG of the canvas', click);
    assert.equal(canvasPng.name, 'attnplay-canvas.png');
    const img = decodePng(fs.readFileSync(canvasPng.path));
    assert.deepEqual([img.width, img.height], [1280, 800]);
    const stats = imageStats(img);
    assert.ok(stats.distinctColors > 50 && stats.lumaStd > 10, `a real picture: ${JSON.stringify(stats)}`);
    fs.copyFileSync(canvasPng.path, artifactPath('browser', 'share-canvas.png'));

    const heat = await clickForDownload(page, 'PNG of the heatmap', click);
    assert.equal(heat.name, 'attnplay-heatmap.png');
    const h = decodePng(fs.readFileSync(heat.path));
    assert.equal(h.width, h.height, '4 tokens: a square of 4×4 cells');
    assert.equal(h.width % 4, 0);
    assert.ok(imageStats(h).distinctColors >= 4);
  });

  it('a CLI scenario dropped on the page is computed', async () => {
    const scenario = { Q: [[1, 0, 1, 0]], K: [[1, 0, 1, 0], [0, 1, 0, 1]], V: [[5, 0, 0], [0, 3, 0]] };
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'example.json', { type: 'application/json' }));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, JSON.stringify(scenario));
    await pollUntil(() => watch(page), (w) => /Imported the scenario from example\.json/.test(w.status), { what: 'the drop import' });
    const r = await api.getResult(page);
    assert.ok(Math.abs(r.weights[0][0] - 0.7311) < 1e-4 && Math.abs(r.output[0][0] - 3.6553) < 1e-3, JSON.stringify(r.weights));
    assert.equal((await api.getState(page)).mode, 'explicit');
  });
});
