// ui-exerciser.test.mjs — a short seeded slice of the UI exerciser (exerciser.mjs): random sequences of clicks,
// drags, wheel, keys, typing, touch taps and setState calls on the page at 1440×900 with a touch screen;
// after every command the frame loop must run and nothing may be logged as an error. A failure prints the
// shrunk sequence and the seed and path that replay it (node scripts/exercise_ui.mjs --seed S --path P).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { exercise } from './exerciser.mjs';
import { launchChromium, openApp, siteBuiltTest, startServer } from './helpers.mjs';

siteBuiltTest();
const viewport = { width: 1440, height: 900 };
const SEED = Number(process.env.EXERCISER_SEED || 20261202);

describe('UI exerciser (short seeded run)', { timeout: 175000 }, () => {
  let server, browser;
  before(async () => { server = await startServer(); browser = await launchChromium(); });
  after(async () => { await browser?.close(); await server?.stop(); });

  it(`4 sequences of up to 40 commands (seed ${SEED}) leave the page running and the console clean`, async () => {
    const open = async () => {
      const app = await openApp(browser, server.origin, { viewport, device: { hasTouch: true } });
      return { ...app, close: () => app.context.close() };
    };
    const { details, stats, report } = await exercise({ open, viewport, numRuns: 4, maxCommands: 40, seed: SEED, timeLimitMs: 120000,
      path: process.env.EXERCISER_PATH || undefined });
    console.log(`exerciser: ${stats.runs} sequences, ${stats.commands} commands, seed ${SEED}`);
    assert.ok(!details.failed, report);
    assert.ok(stats.commands >= 10, `commands were sent (${stats.commands})`);
  });
});
