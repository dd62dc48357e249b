// share_embed.test.mjs — embed mode from URL parameters: only the listed panels, tiled over whatever size
// the frame has; no menu bar; locked controls are drawn but do not move; hidden controls are not drawn;
// bad parameters are ignored with a message. Saves a screenshot of panels=heatmap,saturation at 640×400.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  api, artifactPath, center, click, decodePng, drag, imageStats, itemRect, launchChromium, setStateOk, siteBuiltTest, startServer,
  typeText, waitFrames,
} from './helpers.mjs';
import { openAt, openSharePanel, watch } from './share_helpers.mjs';

siteBuiltTest();

describe('embed mode', { timeout: 170000 }, () => {
  let server, browser;
  before(async () => {
    server = await startServer();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('panels=heatmap,saturation shows just those, fills 640×400, no menu bar', async () => {
    const { page, context, errors } = await openAt(browser, server.origin + '/?embed=1&panels=heatmap,saturation',
      { viewport: { width: 640, height: 400 } });
    try {
      await waitFrames(page, 3);
      const heat = await itemRect(page, 'heatmap');
      assert.ok(heat.x < 320, 'heatmap on the left half');
      assert.equal(await api.itemRect(page, 'd_k'), null, 'no Controls panel');
      assert.equal(await api.itemRect(page, 'Share…'), null, 'no menu bar');
      const info = await page.evaluate(() => window.attnplay.embedInfo());
      assert.deepEqual(info.panels, ['heatmap', 'saturation']);
      const png = await page.screenshot({ path: artifactPath('browser', 'share-embed-640x400.png') });
      const stats = imageStats(decodePng(png));
      assert.ok(stats.nonBackgroundShare > 0.3, `the frame is filled: ${JSON.stringify(stats)}`);
      const scroll = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]);
      assert.deepEqual(scroll, [640, 400], 'no page scrollbars');
      // Resizing the frame re-tiles the panels.
      await page.setViewportSize({ width: 420, height: 700 });
      await waitFrames(page, 3);
      const heat2 = await itemRect(page, 'heatmap');
      assert.ok(heat2.y < 350 && heat2.w <= 420, `stacked in a tall frame: ${JSON.stringify(heat2)}`);
      assert.deepEqual(errors.console, []);
      assert.deepEqual(errors.page, []);
    } finally {
      await context.close();
    }
  });

  it('a lesson step in an embed: a listed panel that shows the answer waits for it, the step\'s own panels show, and the page is told', async () => {
    // "Why divide by √d_k" step 2 asks how the largest weight moves with d_k; the Saturation panel's sweep shows it.
    const { page, context, errors } = await openAt(browser,
      server.origin + '/?embed=1&panels=controls,saturation&lesson=why-sqrt-dk&step=2', { viewport: { width: 1000, height: 700 } });
    try {
      const events = [];
      await page.exposeFunction('noteEvent', (e) => events.push(e));
      await page.evaluate(() => window.attnplay.onEvent((e) => window.noteEvent(e)));
      await waitFrames(page, 4);
      const drawn = (title) => page.evaluate((t) => window.attnplay.ui.panelScroll(t), title);
      assert.equal(await drawn('Saturation'), null, 'the Saturation panel waits for the answer');
      assert.ok(await drawn('Lessons'), 'the lesson is shown');
      assert.ok(await drawn('Attention heatmap'), 'and the panel the step opens');
      assert.equal((await page.evaluate(() => window.attnplay.a11y.act({ do: 'choice', value: 2 }))).ok, true);
      await waitFrames(page, 4);
      assert.ok(await drawn('Saturation'), 'answered: the listed panel is back');
      const told = events.filter((e) => e.type === 'embed-panels');
      assert.ok(told.length >= 1, 'the page hears it');
      assert.deepEqual(told[told.length - 1].withheld, []);
      assert.deepEqual(errors.page, []);
    } finally {
      await context.close();
    }
  });

  it('lock=d_k,scale draws them but the learner cannot change them; hide=seed,sentence hides them', async () => {
    const { page, context } = await openAt(browser,
      server.origin + '/?panels=controls,heatmap&lock=d_k,scale&hide=seed,sentence,theme');
    try {
      await waitFrames(page, 3);
      for (const label of ['Seed', 'Sentence', 'Dark theme', 'Re-roll weights'])
        assert.equal(await api.itemRect(page, label), null, `${label} hidden`);
      const temp = await itemRect(page, 'Temperature');
      assert.ok(temp.w > 0, 'unlocked controls still drawn');
      const dk = await itemRect(page, 'd_k');
      const before = (await api.getState(page)).d_k;
      await drag(page, { x: dk.x + 4, y: dk.y + dk.h / 2 }, { x: dk.x + dk.w - 4, y: dk.y + dk.h / 2 }, { steps: 6 });
      assert.equal((await api.getState(page)).d_k, before, 'a drag on the locked d_k slider changes nothing');
      const scale = await itemRect(page, 'Scale by 1/√d_k');
      const s0 = (await api.getState(page)).scale;
      await page.mouse.click(scale.x + 8, scale.y + scale.h / 2);
      await waitFrames(page, 3);
      assert.equal((await api.getState(page)).scale, s0, 'the locked checkbox does not toggle');
      // An unlocked control still works.
      const t0 = (await api.getState(page)).temperature;
      await drag(page, { x: temp.x + temp.w * 0.5, y: temp.y + temp.h / 2 }, { x: temp.x + temp.w * 0.9, y: temp.y + temp.h / 2 }, { steps: 4 });
      assert.notEqual((await api.getState(page)).temperature, t0, 'temperature moved');
      // The host (API / postMessage) may still change locked fields.
      const r = await api.setState(page, { d_k: 128 });
      assert.equal(r.ok, true);
      await waitFrames(page, 2);
      assert.equal((await api.getState(page)).d_k, 128);
    } finally {
      await context.close();
    }
  });

  it('locking embeddings freezes the embedding editor', async () => {
    const { page, context } = await openAt(browser, server.origin + '/?panels=embeddings&lock=embeddings');
    try {
      await waitFrames(page, 3);
      const before = (await api.getState(page)).embeddings;
      const point = center(await itemRect(page, 'point:1'));
      await drag(page, point, { x: point.x + 60, y: point.y + 30 }, { steps: 5 });
      const cell = center(await itemRect(page, 'embedding 0,0'));
      await drag(page, cell, { x: cell.x + 80, y: cell.y }, { steps: 5 });
      assert.deepEqual((await api.getState(page)).embeddings, before);
    } finally {
      await context.close();
    }
  });

  it('unknown panels, controls and bad origins are ignored with a message', async () => {
    const { page, context, errors } = await openAt(browser, server.origin +
      '/?panels=heatmap,%3Cimg%20src%3Dx%3E&lock=nope&origins=javascript:alert(1),https://ok.example');
    try {
      const info = await page.evaluate(() => window.attnplay.embedInfo());
      assert.deepEqual(info.panels, ['heatmap']);
      assert.deepEqual(info.locked, []);
      assert.deepEqual(info.origins, ['https://ok.example']);
      assert.match((await watch(page)).status, /Embed settings: unknown panel/);
      assert.deepEqual(errors.dialogs, []);
    } finally {
      await context.close();
    }
  });

  it('"Copy embed code" builds an <iframe> snippet whose link opens in that embed mode', async () => {
    const { page, context } = await openAt(browser, server.origin + '/', { permissions: ['clipboard-read', 'clipboard-write'] });
    try {
      await setStateOk(page, { preset: 'saturation' });
      await openSharePanel(page);
      await click(page, center(await itemRect(page, 'Embed options')));
      await click(page, center(await itemRect(page, 'lock:scale')));  // d_k is locked by default; add scale
      await click(page, center(await itemRect(page, 'Embed origins')));
      await typeText(page, 'https://course.example, http://127.0.0.1:8097');
      await click(page, center(await itemRect(page, 'Copy embed code')));
      await waitFrames(page, 2);
      const snippet = await page.evaluate(() => navigator.clipboard.readText());
      const m = snippet.match(/^<iframe src="([^"]+)" title="([^"]+)" width="640" height="400" sandbox="allow-scripts allow-same-origin" allow="clipboard-write" loading="lazy"><\/iframe>$/);
      assert.ok(m, snippet);
      assert.match(m[2], /^Attention Playground: Saturation demo/);
      const url = new URL(m[1].replace(/&amp;/g, '&').replace(/&quot;/g, '"'));
      assert.equal(url.origin + url.pathname, server.origin + '/');
      assert.equal(url.searchParams.get('panels'), 'heatmap,saturation');
      assert.equal(url.searchParams.get('lock'), 'd_k,scale');
      assert.equal(url.searchParams.get('origins'), 'https://course.example,http://127.0.0.1:8097');
      const embedded = await openAt(browser, url.href, { viewport: { width: 640, height: 400 } });
      try {
        const info = await embedded.page.evaluate(() => window.attnplay.embedInfo());
        assert.deepEqual(info, { enabled: true, panels: ['heatmap', 'saturation'], locked: ['d_k', 'scale'], hidden: [],
          origins: ['https://course.example', 'http://127.0.0.1:8097'] });
        assert.equal((await api.getState(embedded.page)).preset, 'saturation');
        assert.equal((await api.getState(embedded.page)).d_k, 512);
      } finally {
        await embedded.context.close();
      }
    } finally {
      await context.close();
    }
  });

  it('without embed parameters the full layout and menu bar are back', async () => {
    const { page, context } = await openAt(browser, server.origin + '/');
    try {
      const info = await page.evaluate(() => window.attnplay.embedInfo());
      assert.equal(info.enabled, false);
      assert.ok((await itemRect(page, 'Share…')).y < 40);
      assert.ok((await itemRect(page, 'd_k')).w > 0);
    } finally {
      await context.close();
    }
  });
});
