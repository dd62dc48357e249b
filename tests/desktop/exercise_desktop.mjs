#!/usr/bin/env node
// exercise_desktop.mjs — the UI exerciser's sequences (tests/browser/exerciser.mjs) on the desktop window:
// each sequence of commands becomes an input script (`attnplay gui --input`), run in a fresh process; the
// binary is meant to be the AddressSanitizer + UBSan build, under Xvfb (run this under xvfb-run). A run fails
// when the process does not finish the script with status 0 (a sanitizer report aborts it), prints a report,
// or hangs. fast-check shrinks a failure to a short sequence and prints it with the seed and path to replay.
//   node exercise_desktop.mjs ATTNPLAY [--runs 3] [--commands 30] [--seed S] [--path P] [--minutes M]
// --minutes M keeps running batches of --runs sequences, each batch with a new seed, for M minutes (the long run).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { commandArbitraries } from '../browser/exerciser.mjs';

const [binary, ...rest] = process.argv.slice(2);
const args = Object.fromEntries(rest.reduce((acc, a, i, all) => {
  if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1] && !all[i + 1].startsWith('--') ? all[i + 1] : 'true']);
  return acc;
}, []));
if (!binary || !fs.existsSync(binary)) {
  console.error('usage: exercise_desktop.mjs ATTNPLAY [--runs N] [--commands N] [--seed S] [--path P] [--minutes M]');
  process.exit(2);
}
const viewport = { width: 1440, height: 900 };
const runs = Number(args.runs || 3), maxCommands = Number(args.commands || 30);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'attnplay-desktop-exercise-'));
const totals = { sequences: 0, commands: 0, steps: 0, frames: 0 };
// The sequences drive the page a returning learner sees: kept progress, so no start view (src/app/start_view.h).
fs.mkdirSync(path.join(work, 'config', 'attnplay'), { recursive: true });
fs.writeFileSync(path.join(work, 'config', 'attnplay', 'progress.json'), '{}');

// One sequence in a fresh process with its own config folder (no window settings or progress carried over).
function runScript(steps) {
  const file = path.join(work, 'input.json');
  fs.writeFileSync(file, JSON.stringify(steps));
  const env = { ...process.env, XDG_CONFIG_HOME: path.join(work, 'config'), ASAN_OPTIONS: 'detect_leaks=0:abort_on_error=0',
    UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1' };
  return new Promise((resolve) => {
    const child = spawn(binary, ['gui', '--input', file, '--size', `${viewport.width}x${viewport.height}`], { env });
    let out = '', err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 180000);
    child.on('close', (code, signal) => { clearTimeout(timer); resolve({ code, signal, out, err }); });
  });
}

const property = fc.asyncProperty(fc.commands(commandArbitraries(viewport.width, viewport.height), { maxCommands, size: 'max' }),
  async (cmds) => {
    const list = [...cmds].map((c) => c.cmd || c);  // fast-check hands its commands wrapped
    const steps = list.flatMap((c) => c.steps());
    const r = await runScript(steps);
    totals.sequences++;
    totals.commands += list.length;
    totals.steps += steps.length;
    const done = /input script: (\d+) steps in (\d+) frames/.exec(r.out);
    if (done) totals.frames += Number(done[2]);
    const report = /(ERROR: AddressSanitizer[^\n]*|runtime error:[^\n]*)/.exec(r.err);
    if (r.code !== 0 || !done || report) {
      throw new Error(`the desktop window ${r.signal ? `was killed (${r.signal}, a hang?)` : `exited ${r.code}`}` +
        `${report ? `: ${report[1]}` : ''}\n${r.err.slice(-3000)}`);
    }
  });

async function batch(seed, pathArg) {
  const details = await fc.check(property, { numRuns: runs, seed, path: pathArg, endOnFailure: false, includeErrorInReport: true });
  if (details.failed) console.log(`FAILURE (seed ${seed}):\n${fc.defaultReportMessage(details)}`);
  return !details.failed;
}

let ok = true;
const t0 = Date.now();
if (args.minutes) {
  let failures = 0;
  for (let b = 0; Date.now() - t0 < Number(args.minutes) * 60000; b++) {
    const seed = (Date.now() ^ (b * 2654435761)) >>> 0;
    if (!(await batch(seed))) failures++;
    console.log(`after ${((Date.now() - t0) / 60000).toFixed(1)} min: ${totals.sequences} sequences, ${totals.commands} commands, ` +
      `${totals.steps} input steps, ${totals.frames} frames, ${failures} failing batches`);
  }
  ok = failures === 0;
} else {
  ok = await batch(Number(args.seed || 20261203), args.path);
}
console.log(`desktop exerciser: ${totals.sequences} sequences, ${totals.commands} commands, ${totals.steps} input steps, ` +
  `${totals.frames} frames in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
fs.rmSync(work, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
