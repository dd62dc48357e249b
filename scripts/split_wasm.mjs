// split_wasm.mjs — splits the page's module in two after the link (cmake/AttnplayWeb.cmake runs it):
// attnplay.wasm keeps the functions the first view runs, attnplay.deferred.wasm gets the rest (Learn mode's
// model, the worksheet, the lesson builder, packages, exports, …), which the page fetches once the first half
// has arrived (web/site/attnplay-api.js). Which functions the first view runs is measured, not listed: the link
// (-sSPLIT_MODULE) leaves an instrumented attnplay.wasm and the real one as attnplay.wasm.orig; headless
// Chromium opens the instrumented page on a desktop and on a phone, drags d_k with the mouse and with a finger,
// and the module's own profile says which functions ran; binaryen's wasm-split then splits the real module.
//
//   node scripts/split_wasm.mjs SITE_DIR      (ATTNPLAY_SPLIT_NAMES=1 keeps function names for scripts/wasm_sizes.py;
//   ATTNPLAY_SPLIT_PROFILES=DIR keeps each visit's profile there, to split by hand with fewer visits)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

const site = path.resolve(process.argv[2] || '');
let stepName = '';
function fail(e) {
  console.error(`split_wasm: step "${stepName}" failed: ${e && e.message || e}`);
  process.exit(1);
}
process.on('unhandledRejection', fail);

const orig = path.join(site, 'attnplay.wasm.orig');
const instrumented = path.join(site, 'attnplay.wasm');
const deferred = path.join(site, 'attnplay.deferred.wasm');

// binaryen must accept what the compiler emitted: SIMD and native exceptions, and the globals the two
// halves share.
const FEATURES = ['--enable-simd', '--enable-exception-handling', '--enable-mutable-globals', '--enable-sign-ext',
  '--enable-bulk-memory', '--enable-nontrapping-float-to-int'];

// The ways a page starts that a learner meets at once: a first visit on a desktop and on a phone (with a drag of
// d_k by mouse and by finger), a return visit (the state kept in the browser), a share link, a page in Hinglish
// and an embed. What they run is the first half; anything else waits for the second. A course link into a lesson
// (?lesson=) waits for both halves before it starts (web/site/attnplay-api.js): lessons are not in the first.
// A first visit opens with the start view (src/app/start_view.h): the desktop and phone visits leave it by "Explore
// freely" before the drag, the Hinglish one stays on it.
const VISITS = [
  { name: 'desktop', options: { viewport: { width: 1440, height: 900 }, firstVisit: true }, explore: true, drag: 'mouse',
    reload: true, share: true },
  { name: 'phone', options: { viewport: { width: 390, height: 844 }, firstVisit: true,
    device: { hasTouch: true, isMobile: true, deviceScaleFactor: 3 } }, explore: true, drag: 'touch', reload: true },
  { name: 'hinglish', options: { viewport: { width: 390, height: 844 }, path: '/?lang=hi-Latn', firstVisit: true,
    device: { hasTouch: true, isMobile: true, deviceScaleFactor: 3 } } },
  { name: 'embed', options: { viewport: { width: 800, height: 600 }, path: '/?embed=1&panels=heatmap,controls' } },
];

async function profileOf(page) {
  return page.evaluate(() => {
    const m = window.Module, size = 1 << 20, p = m._malloc(size);
    const n = m.asm.__write_profile(p, size);
    return Array.from(m.HEAPU8.subarray(p, p + n));
  });
}

async function visit(h, browser, origin, v, tmp) {
  const files = [];
  const save = async (page, what) => {
    const file = path.join(tmp, `${v.name}-${what}.profile`);
    fs.writeFileSync(file, Buffer.from(await profileOf(page)));
    files.push(file);
  };
  stepName = `open the instrumented page (${v.name})`;
  const { page, context, errors } = await h.openApp(browser, origin, v.options);
  await h.waitFrames(page, 10);
  if (v.options.path && v.options.path.includes('lang=')) {
    stepName = `install the fetched texts (${v.name})`;
    await page.waitForFunction(() => !window.Module.ccall('attnplay_catalog_missing', 'string', ['number'], [0]),
      null, { timeout: 60000 });
    await h.waitFrames(page, 10);
  }
  if (v.explore) {
    stepName = `leave the start view (${v.name})`;
    const r = await h.itemRect(page, 'start:explore');
    const at = { x: r.x + r.w / 2, y: r.y + r.h / 2 };
    if (v.drag === 'touch') await page.touchscreen.tap(at.x, at.y);
    else await page.mouse.click(at.x, at.y);
    await h.waitFrames(page, 10);
  }
  if (v.drag) {
    stepName = `drag d_k (${v.name})`;
    const r = await h.itemRect(page, 'd_k');
    const y = r.y + r.h / 2;
    const from = { x: r.x + 0.2 * r.w, y }, to = { x: r.x + 0.8 * r.w, y };
    if (v.drag === 'touch') await h.touchDrag(page, from, to);
    else await h.drag(page, from, to);
    await h.waitFrames(page, 20);
  }
  await save(page, 'first');
  if (v.share) {
    stepName = `open a share link (${v.name})`;
    const link = await page.evaluate(() => window.attnplay.shareURL());
    const other = await context.newPage();
    await other.goto(link);
    await other.waitForFunction(() => window.attnplay && window.attnplay.frames() > 10, null, { timeout: 60000 });
    await save(other, 'share');
    await other.close();
  }
  if (v.reload) {
    stepName = `reload with the kept state (${v.name})`;
    await page.waitForTimeout(600);  // the state is kept at most every 400 ms
    await page.reload();
    await page.waitForFunction(() => window.attnplay && window.attnplay.frames() > 10, null, { timeout: 60000 });
    await save(page, 'return');
  }
  if (errors.page.length) throw new Error(`the page reported errors: ${errors.page.join('; ')}`);
  await context.close();
  return files;
}

async function profileRuns(tmp) {
  process.env.SITE_DIR = site;
  stepName = 'load playwright-core and the browser helpers (install them with scripts/deps.sh --npm)';
  const h = await import('../tests/browser/helpers.mjs');
  stepName = 'start the page server and Chromium';
  const server = await h.startServer({});
  const browser = await h.launchChromium();
  const files = [];
  try {
    for (const v of VISITS) files.push(...await visit(h, browser, server.origin, v, tmp));
  } finally {
    await browser.close();
    await server.stop();
  }
  return files;
}

async function main() {
  stepName = 'find the linked module';
  if (!fs.existsSync(orig) || !fs.existsSync(instrumented))
    throw new Error(`${orig} and ${instrumented} are written by a link with -sSPLIT_MODULE=1`);
  // A second half left from an earlier build would be linked to this build's first half.
  fs.rmSync(deferred, { force: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attnplay-split-'));
  try {
    const profiles = await profileRuns(tmp);
    if (process.env.ATTNPLAY_SPLIT_PROFILES) {
      fs.mkdirSync(process.env.ATTNPLAY_SPLIT_PROFILES, { recursive: true });
      for (const f of profiles) fs.copyFileSync(f, path.join(process.env.ATTNPLAY_SPLIT_PROFILES, path.basename(f)));
    }
    stepName = 'merge the profiles (wasm-split --merge-profiles)';
    const merged = path.join(tmp, 'merged.profile');
    execFileSync('wasm-split', ['--merge-profiles', ...profiles, '-o', merged], { stdio: 'inherit' });
    stepName = 'split the module (wasm-split)';
    const primary = path.join(tmp, 'primary.wasm'), secondary = path.join(tmp, 'deferred.wasm');
    const keepNames = process.env.ATTNPLAY_SPLIT_NAMES ? ['-g'] : [];
    execFileSync('wasm-split', [...FEATURES, '--export-prefix=%', ...keepNames, orig, '-o1', primary, '-o2', secondary,
      `--profile=${merged}`], { stdio: 'inherit' });
    // The link optimised the whole module; each half alone has code the other no longer needs (2 KB gzipped of
    // the first half's download).
    stepName = 'optimise each half for size (wasm-opt -Oz)';
    for (const half of [primary, secondary])
      execFileSync('wasm-opt', [...FEATURES, '-Oz', ...keepNames, half, '-o', half], { stdio: 'inherit' });
    stepName = 'move the halves into the site';
    fs.copyFileSync(secondary, deferred);
    fs.copyFileSync(primary, instrumented);
    fs.rmSync(orig);
    const kb = (f) => (fs.statSync(f).size / 1024).toFixed(0) + ' KiB';
    console.log(`split_wasm: attnplay.wasm ${kb(instrumented)}, attnplay.deferred.wasm ${kb(deferred)}`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch(fail);
