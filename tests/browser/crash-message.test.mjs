// crash-message.test.mjs — if the module dies (a WebAssembly trap inside a frame, which ends the frame loop), the
// page says so in the learner's language with a Reload button, the API refuses politely, and the reload
// brings back the state the learner had. The trap is a real RuntimeError reaching the page uncaught, as a
// trap in a frame does, with the frame loop stopped.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT, api, artifactPath, center, click, itemRect, launchChromium, openApp, pollUntil, setStateOk, siteBuiltTest, startServer, waitFrames } from './helpers.mjs';
import { after, before } from 'node:test';

siteBuiltTest();
const catalog = (lang) => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'strings', `${lang}.json`), 'utf8'));

async function killModule(page) {
  await page.evaluate(() => {
    window.Module.pauseMainLoop();
    setTimeout(() => { throw new WebAssembly.RuntimeError('memory access out of bounds'); }, 0);
  });
}

describe('when the module dies', { timeout: 170000 }, () => {
  let server, browser;
  before(async () => { server = await startServer(); browser = await launchChromium(); });
  after(async () => { await browser?.close(); await server?.stop(); });

  for (const lang of ['en', 'hi-Latn']) {
    it(`says so in ${lang}, with a reload that brings the work back`, async () => {
      const { page, context } = await openApp(browser, server.origin, { viewport: { width: 1440, height: 900 }, path: `/?lang=${lang}` });
      await setStateOk(page, { d_k: 300, panels: { worksheet: true } });
      await waitFrames(page, 3);
      await click(page, center(await itemRect(page, 'worksheet:Q:1,1')));  // a typed cell must come back too
      await page.keyboard.type('1.5');
      await page.keyboard.press('Tab');
      await waitFrames(page, 12);
      const typed = (await api.getResult(page)).worksheet;
      assert.equal(typed.answers.Q[0], '1.5', `the cell took the typing: ${JSON.stringify(typed)}`);
      await page.waitForTimeout(700);  // the state reaches the address bar and storage within 400 ms
      await killModule(page);
      const box = page.locator('#crash');
      await box.waitFor({ state: 'visible', timeout: 5000 });
      const words = catalog(lang);
      assert.equal((await page.locator('#crash-text').textContent()).trim(), words['crash.message']);
      assert.equal((await page.locator('#crash-reload').textContent()).trim(), words['crash.reload']);
      assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.id), 'crash-reload',
        'the Reload button takes the keyboard focus');
      const refused = await page.evaluate(() => window.attnplay.getState().then(() => 'resolved', (e) => e.message));
      assert.match(refused, /stopped/, 'the API says the playground stopped');
      await page.screenshot({ path: artifactPath('crash', `crash-${lang}.png`) });
      await Promise.all([page.waitForEvent('load'), page.locator('#crash-reload').click()]);
      await page.waitForFunction(() => window.attnplay && window.attnplay.frames() > 2, null, { timeout: 60000 });
      const st = await pollUntil(() => api.getState(page).catch(() => null), (s) => s && s.d_k === 300,
        { what: 'd_k = 300 back after the reload', timeout: 10000 });
      assert.equal(st.panels.worksheet, true, 'the open worksheet is back');
      const back = (await api.getResult(page)).worksheet;
      assert.equal(back && back.answers.Q && back.answers.Q[0], '1.5', `the typed cell is back: ${JSON.stringify(back)}`);
      assert.equal(await page.locator('#crash').isVisible(), false, 'the message is gone after the reload');
      await context.close();
    });
  }
});
