#!/usr/bin/env node
// exercise_ui.mjs — the long run of the UI exerciser (tests/browser/exerciser.mjs) on a built site: batches
// of random input sequences, each batch with its own seed, until --minutes have passed. Prints the events
// sent, the sequences run and every failure with the seed and path that replay it, then exits 1 if any.
//   node scripts/exercise_ui.mjs [--site build/web] [--minutes 30] [--width 1440 --height 900] [--touch]
//   node scripts/exercise_ui.mjs --seed S --path P       # replay one failure, shrunk
import path from 'node:path';
import { exercise } from '../tests/browser/exerciser.mjs';

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1] && !all[i + 1].startsWith('--') ? all[i + 1] : 'true']);
  return acc;
}, []));
if (args.site) process.env.SITE_DIR = path.resolve(args.site);
const { launchChromium, openApp, startServer } = await import('../tests/browser/helpers.mjs');

const viewport = { width: Number(args.width || 1440), height: Number(args.height || 900) };
const device = args.touch ? { hasTouch: true, isMobile: true } : { hasTouch: true };
const minutes = Number(args.minutes || 30);
const server = await startServer();
const browser = await launchChromium();
const open = async () => {
  const app = await openApp(browser, server.origin, { viewport, device });
  return { ...app, close: () => app.context.close() };
};
const totals = { batches: 0, runs: 0, commands: 0, failures: [] };
const deadline = Date.now() + minutes * 60000;
try {
  if (args.seed) {
    const { details, stats, report } = await exercise({ open, viewport, numRuns: 1, maxCommands: 60, seed: Number(args.seed), path: args.path });
    console.log(`replay: ${stats.commands} commands; ${details.failed ? 'FAILED\n' + report : 'passed'}`);
    process.exitCode = details.failed ? 1 : 0;
  } else {
    while (Date.now() < deadline) {
      const seed = (Date.now() ^ (totals.batches * 2654435761)) >>> 0;
      const { details, stats, report } = await exercise({ open, viewport, numRuns: 10, maxCommands: 60, seed,
        timeLimitMs: Math.max(60000, deadline - Date.now()) });
      totals.batches++;
      totals.runs += stats.runs;
      totals.commands += stats.commands;
      if (details.failed) {
        totals.failures.push({ seed, report });
        console.log(`FAILURE (seed ${seed}):\n${report}`);
      }
      console.log(`after ${((minutes * 60000 - (deadline - Date.now())) / 60000).toFixed(1)} min: ${totals.batches} batches, ` +
        `${totals.runs} sequences, ${totals.commands} commands, ${totals.failures.length} failures`);
    }
    console.log(`exerciser long run: ${minutes} min at ${viewport.width}×${viewport.height}, ${totals.runs} sequences, ` +
      `${totals.commands} commands (each a real input or a setState), ${totals.failures.length} failures`);
    process.exitCode = totals.failures.length ? 1 : 0;
  }
} finally {
  await browser.close();
  await server.stop();
}
