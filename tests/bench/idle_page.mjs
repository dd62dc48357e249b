// idle_page.mjs — what a page left open costs, and how fast it answers when the learner comes back.
// Opens the page at 1440×900 in headless Chromium and, once it is ready and untouched, measures for --seconds:
// the machine's busy cores (from /proc/stat, so run it on an otherwise idle machine: the load average is printed)
// and the app's frames per second. Then, --presses times each, from an idle page and from an awake one: the time
// from a key press reaching the page to the end of the app's next frame (in the page, on performance.now()).
// A benchmark, not part of CTest: `node tests/bench/idle_page.mjs [--seconds 10] [--presses 5]`; writes
// test-artifacts/bench/idle.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ARTIFACTS, launchChromium, openApp, startServer } from '../browser/helpers.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SECONDS = arg('seconds', 10);
const PRESSES = arg('presses', 5);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function cpuJiffies() {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { busy: f[0] + f[1] + f[2] + f[5] + f[6], at: Date.now() };
}

// Busy cores and app frames per second over `seconds` of no input.
async function idleCost(page, seconds) {
  const f0 = await page.evaluate(() => window.attnplay.frames());
  const a = cpuJiffies();
  await sleep(seconds * 1000);
  const b = cpuJiffies();
  const f1 = await page.evaluate(() => window.attnplay.frames());
  const s = (b.at - a.at) / 1000;
  return { busyCores: (b.busy - a.busy) / 100 / s, framesPerSecond: (f1 - f0) / s };
}

// Milliseconds from a key press reaching the page to the end of the app's next frame.
async function pressToFrame(page) {
  await page.evaluate(() => {
    window.pressTiming = new Promise((resolve) => {
      window.addEventListener('keydown', () => {
        const t0 = performance.now(), f0 = window.attnplay.frames();
        const poll = () => (window.attnplay.frames() > f0 ? resolve(performance.now() - t0) : setTimeout(poll, 1));
        poll();
      }, { once: true, capture: true });
    });
  });
  await page.keyboard.press('Shift');
  return page.evaluate(() => window.pressTiming);
}

const median = (xs) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)];

const server = await startServer();
const browser = await launchChromium();
try {
  const { page } = await openApp(browser, server.origin, { viewport: { width: 1440, height: 900 } });
  await sleep(2000);  // settled: the first view's slices are done and nothing has been touched
  const idle = await idleCost(page, SECONDS);
  const fromIdle = [], fromAwake = [];
  for (let i = 0; i < PRESSES; i++) {
    await sleep(1500);  // idle again
    fromIdle.push(await pressToFrame(page));
    await page.mouse.move(200 + i, 200);  // awake: input in the last half second
    fromAwake.push(await pressToFrame(page));
  }
  const out = {
    loadAverage: os.loadavg()[0], seconds: SECONDS, idle,
    pressToFrameMs: { fromIdle: median(fromIdle), fromAwake: median(fromAwake), all: { fromIdle, fromAwake } },
  };
  console.log(`idle page (${SECONDS} s, load average ${out.loadAverage.toFixed(2)}): ${idle.busyCores.toFixed(2)} busy cores, ` +
    `${idle.framesPerSecond.toFixed(1)} app frames/s`);
  console.log(`key press → end of the next frame, median of ${PRESSES}: from idle ${out.pressToFrameMs.fromIdle.toFixed(1)} ms, ` +
    `awake ${out.pressToFrameMs.fromAwake.toFixed(1)} ms`);
  fs.mkdirSync(path.join(ARTIFACTS, 'bench'), { recursive: true });
  fs.writeFileSync(path.join(ARTIFACTS, 'bench', 'idle.json'), JSON.stringify(out, null, 2));
} finally {
  await browser.close();
  server.stop();
}
