// learn.test.mjs — Learn mode in the page: Play pressed by a real click trains both models live in the page's
// Web Worker; the step count and both loss curves equal a run of `attnplay train` with the same settings and
// seed; paused, the count stays and Step adds one step on the page's own thread.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT, artifactPath, center, click, itemRect, pollUntil, setStateOk, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();
const CLI = process.env.ATTNPLAY_CLI || path.join(REPO_ROOT, 'build', 'native', 'attnplay');

describe('Learn mode', { timeout: 175000 }, () => {
  let page;
  useApp((app) => { page = app.page; }, { viewport: { width: 1440, height: 900 } });
  const learn = () => page.evaluate(async () => (await window.attnplay.getResult()).learn);

  it('Play trains A and B live, and the curves match the CLI with the same settings', async () => {
    // A small, quick run: copy task, one layer; the page's defaults otherwise (A ÷√d_k, B unscaled).
    await setStateOk(page, { panels: { learn: true } });
    const st = await page.evaluate(() => window.attnplay.getState());
    assert.ok(st.learn && st.learn.settings, 'the training setup is part of the state');
    const l0 = await learn();
    assert.equal(l0.steps, 0);
    await click(page, center(await itemRect(page, 'learn:play')));
    const moving = await pollUntil(learn, (l) => l.steps >= 30 && l.a.curve.loss.length >= 30 && l.b.curve.loss.length >= 30,
      { timeout: 90000, interval: 200, what: 'both models to train 30 steps' });
    assert.equal(moving.worker, true, `the page trains in its Web Worker (${moving.in_page_reason})`);
    assert.equal(moving.worker_running, true, 'the worker has the running generation');
    await click(page, center(await itemRect(page, 'learn:play')));  // pause
    const paused = await pollUntil(learn, (l) => l.playing === false, { what: 'pause' });
    assert.ok(paused.steps >= moving.steps);
    const a = paused.a.curve.loss, b = paused.b.curve.loss;
    assert.ok(a[a.length - 1] < a[0], `A's loss moved down (${a[0]} → ${a[a.length - 1]})`);
    assert.notDeepEqual(a, b, 'A and B are different models');

    const settingsFile = artifactPath('learn', 'settings.json');
    const outFile = artifactPath('learn', 'cli.json');
    fs.writeFileSync(settingsFile, JSON.stringify(paused.settings));
    execFileSync(CLI, ['train', '--settings', settingsFile, '--steps', String(paused.steps), '--json', outFile], { stdio: 'pipe' });
    const cli = JSON.parse(fs.readFileSync(outFile, 'utf8'));
    assert.equal(cli.steps, paused.steps, 'the same number of steps');
    // Native and WebAssembly builds sum in a different order (Eigen's SIMD vs wasm SIMD128 kernels), so
    // floats agree to rounding, not bit for bit: 1e-4 relative after 30+ Adam steps.
    for (const [which, page_loss] of [[0, a], [1, b]]) {
      const cli_loss = cli.models[which].curves.loss;
      assert.equal(cli_loss.length, page_loss.length);
      for (let i = 0; i < cli_loss.length; i++)
        assert.ok(Math.abs(cli_loss[i] - page_loss[i]) <= 1e-4 * Math.max(1, Math.abs(cli_loss[i])),
          `model ${which ? 'B' : 'A'} step ${i + 1}: page ${page_loss[i]} vs CLI ${cli_loss[i]}`);
    }
  });

  it('paused, the step count stays; Step adds one step on the page itself', async () => {
    const before = await learn();
    assert.equal(before.playing, false);
    assert.equal(before.worker_running, false, 'pausing ended the worker\'s generation');
    await waitFrames(page, 10);
    await new Promise((r) => setTimeout(r, 1000));  // snapshots in flight at the pause must not land
    const still = await learn();
    assert.equal(still.steps, before.steps, 'no step after the pause');
    assert.deepEqual(still.a.curve.loss, before.a.curve.loss);
    await click(page, center(await itemRect(page, 'learn:step')));
    const stepped = await pollUntil(learn, (l) => l.steps > before.steps, { what: 'the Step button' });
    assert.equal(stepped.steps, before.steps + 1);
    assert.equal(stepped.worker_running, false);
  });

  it('a bad setting is refused with a message and the running models stay', async () => {
    const before = await learn();
    const r = await page.evaluate(() => window.attnplay.setState({ learn: { settings: { batch: 0 } } }));
    assert.equal(r.ok, false);
    assert.match(r.error, /batch/);
    const after = await learn();
    assert.equal(after.steps, before.steps);
  });
});
