// status-expiry.test.mjs — a message in the menu bar ("Link copied", "Embed code copied.") clears
// itself about ten seconds after it appeared instead of staying for good.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { center, click, launchChromium, pollUntil, siteBuiltTest, startServer } from './helpers.mjs';
import { openAt, openSharePanel, watch } from './share_helpers.mjs';

siteBuiltTest();

const STATUS_SECONDS = 10;  // App::kStatusSeconds

describe('status messages expire', { timeout: 120000 }, () => {
  let server, browser, app;
  before(async () => {
    server = await startServer();
    browser = await launchChromium();
    app = await openAt(browser, server.origin + '/', { permissions: ['clipboard-read', 'clipboard-write'] });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  // wcag: 2.2.1 — the one message that goes away by itself stays at least ten seconds before it clears
  it('"Link copied" shows, then clears by itself', async () => {
    const { page } = app;
    await click(page, center(await openSharePanel(page)));
    await pollUntil(() => watch(page), (w) => /Link copied/.test(w.status), { what: 'the "Link copied" message' });
    const shown = Date.now();
    await pollUntil(() => watch(page), (w) => w.status === '',
      { timeout: (STATUS_SECONDS + 20) * 1000, interval: 250, what: 'the message to clear itself' });
    const lasted = (Date.now() - shown) / 1000;
    console.log(`"Link copied" showed for ${lasted.toFixed(1)} s`);
    assert.ok(lasted >= STATUS_SECONDS - 1, `the message stayed long enough to read (${lasted.toFixed(1)} s)`);
    assert.deepEqual(app.errors.page, []);
  });
});
