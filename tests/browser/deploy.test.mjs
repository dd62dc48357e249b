// deploy.test.mjs — a deploy never gives a learner a page made of two builds. Build A (the site) is served and
// visited: its service worker keeps A. Then the server holds build B (a copy of A with one Hinglish text changed,
// listed and stamped again by scripts/site_manifest.mjs) whose attnplay.wasm answers only after the worker's wait
// and whose strings/hi-Latn.json answers 503: the page comes up whole from A. With B served well, B's worker
// installs while a second tab runs A (which keeps working on A), the next visit is all B, and so is a visit offline.
// Every file the server sends says which build's folder it came from (X-Build); a page load's files, from the
// network or from the worker's copy, must all say the same.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT, SITE_DIR, api, launchChromium, openApp, pollUntil, setStateOk, siteBuiltTest, waitFrames } from './helpers.mjs';

siteBuiltTest();

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.webmanifest': 'application/manifest+json' };
const SLOW_MS = 9000;  // beyond the worker's wait for the network (6 s)
const B_TEXT = 'ka attention (naya build):';

// A static server whose folder can be swapped, with a delay or a 503 per path, or down altogether.
function deployServer() {
  const s = { root: null, name: '', slow: new Set(), failing: new Set(), down: false };
  const server = http.createServer((req, res) => {
    if (s.down) { req.socket.destroy(); return; }
    let rel = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/+/, '');
    if (rel === '' || rel.endsWith('/')) rel += 'index.html';
    const file = path.join(s.root, rel);
    const answer = () => {
      if (s.failing.has(rel)) { res.writeHead(503, { 'X-Build': s.name }); res.end('deploy under way'); return; }
      if (!file.startsWith(s.root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(rel)] || 'application/octet-stream', 'Cache-Control': 'no-cache',
        'X-Build': s.name });
      res.end(fs.readFileSync(file));
    };
    if (s.slow.has(rel)) setTimeout(answer, SLOW_MS); else answer();
  });
  s.start = () => new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    s.origin = `http://127.0.0.1:${server.address().port}`;
    resolve();
  }));
  s.stop = () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  s.serve = (root, name, { slow = [], failing = [] } = {}) => Object.assign(s, { root, name, slow: new Set(slow), failing: new Set(failing) });
  return s;
}

// Build B: the site with one Hinglish text changed, its list and build id written again.
function makeBuildB() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnplay-build-b-'));
  fs.cpSync(SITE_DIR, dir, { recursive: true });
  const strings = path.join(dir, 'strings', 'hi-Latn.json');
  const catalog = JSON.parse(fs.readFileSync(strings, 'utf8'));
  catalog['summary.attends'] = 'Query {query} ' + B_TEXT;
  fs.writeFileSync(strings, JSON.stringify(catalog, null, 2) + '\n');
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'site_manifest.mjs'), dir]);
  return dir;
}

const buildOf = (dir) => JSON.parse(fs.readFileSync(path.join(dir, 'site-manifest.json'), 'utf8')).build;

// Each load of a page: the X-Build of every response it got (the document's and its files').
function watchLoads(page) {
  const loads = [];
  const loadOf = new Map();
  page.on('request', (r) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) loads.push({ files: [] });
    if (loads.length) loadOf.set(r, loads[loads.length - 1]);
  });
  page.on('response', (r) => {
    const load = loadOf.get(r.request());
    if (load) load.files.push({ path: new URL(r.url()).pathname, build: r.headers()['x-build'] || '?', status: r.status() });
  });
  return loads;
}
// The files a load used: what answered (a file too slow, which the worker gave up on, was used by no build).
const buildsOf = (load) => [...new Set(load.files.filter((f) => f.status < 400).map((f) => f.build))];
const describeLoad = (load) => load.files.map((f) => `${f.path}:${f.build}:${f.status}`).join(' ');

function assertOneBuild(loads, what) {
  for (const [i, load] of loads.entries()) assert.equal(buildsOf(load).length, 1, `${what}, load ${i + 1} used one build: ${describeLoad(load)}`);
}

// Waits for the page to start (asked while it may still navigate: a load that gives up loads the kept copy) and
// returns the build its index.html names.
async function started(page) {
  const done = await pollUntil(() => page.evaluate(() => {
    const p = window.__attnplayProbe;
    const meta = document.querySelector('meta[name="attnplay-build"]');
    return p && (p.readyAt !== null || p.readyError !== null) ? { error: p.readyError, build: meta ? meta.content : '' } : null;
  }).catch(() => null), Boolean, { what: 'the page to start', timeout: 60000, interval: 100 });
  assert.equal(done.error, null, 'the page started');
  return done.build;
}

// B's worker takes over once A's is idle. Chromium waits for that (skipWaiting or not) and, when A's worker was
// being started at that moment, until its idle timer of 30 s runs out: a loaded machine has seen that wait.
const TAKEOVER_MS = 75000;
const workers = (page) => page.evaluate(async () => {
  const r = await navigator.serviceWorker.getRegistration();
  const of = (w) => (w ? `${w.state} ${w.scriptURL.split('/').pop()}` : null);
  return r ? { installing: of(r.installing), waiting: of(r.waiting), active: of(r.active) } : null;
});

const keptBuilds = (page) => page.evaluate(async () => {
  const out = [];
  for (const name of (await caches.keys()).filter((k) => k.startsWith('attnplay-site-'))) {
    if (await (await caches.open(name)).match('site-manifest.json')) out.push(name.slice('attnplay-site-'.length));
  }
  return out.sort();
});

const hinglishSummary = (page) => pollUntil(() => page.evaluate(() => document.getElementById('a11y-summary').textContent),
  (t) => /ka attention/.test(t), { what: 'the Hinglish summary', timeout: 15000 });

// A tab that says when its page starts (as openApp's probe does) and how often another worker took it over.
async function openTab(context, origin) {
  const tab = await context.newPage();
  const loads = watchLoads(tab);
  await tab.addInitScript(() => {
    window.__attnplayProbe = { readyAt: null, readyError: null };
    window.__takenOver = 0;
    navigator.serviceWorker.addEventListener('controllerchange', () => { window.__takenOver++; });
    addEventListener('DOMContentLoaded', () => window.attnplay.ready.then(() => { window.__attnplayProbe.readyAt = 1; },
      (e) => { window.__attnplayProbe.readyError = String(e.message); }));
  });
  await tab.goto(origin + '/');
  return { tab, loads };
}

describe('a deploy while the page is kept offline', { timeout: 260000 }, () => {
  const server = deployServer();
  let browser, dirB, A, B, page, context, loads, tab2, loads2;
  before(async () => {
    dirB = makeBuildB();
    A = buildOf(SITE_DIR);
    B = buildOf(dirB);
    assert.notEqual(A, B, 'build B has its own id');
    await server.start();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server.stop();
    if (dirB) fs.rmSync(dirB, { recursive: true, force: true });
  });

  it('keeps build A after a visit, with a second tab on it', async () => {
    server.serve(SITE_DIR, A);
    ({ page, context } = await openApp(browser, server.origin, { onPage: (p) => { loads = watchLoads(p); } }));
    await pollUntil(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state),
      (s) => s === 'activated', { what: 'build A\'s worker to be active', timeout: 30000 });
    await pollUntil(() => keptBuilds(page), (k) => k.includes(A), { what: 'build A kept', timeout: 30000 });
    ({ tab: tab2, loads: loads2 } = await openTab(context, server.origin));
    assert.equal(await started(tab2), A, 'tab 2 runs build A');
  });

  it('comes up whole from A while B is deployed half-way (its module too slow, a file failing)', async () => {
    server.serve(dirB, B, { slow: ['attnplay.wasm'], failing: ['strings/hi-Latn.json'] });
    loads.length = 0;
    await page.reload({ waitUntil: 'load' });
    const build = await started(page);
    console.log(`a half-done deploy: ${loads.length} loads, builds ${loads.map((l) => buildsOf(l).join('+')).join(' then ')}`);
    assertOneBuild(loads, 'a half-done deploy');
    assert.equal(build, A, 'the page runs build A');
    assert.deepEqual(buildsOf(loads[loads.length - 1]), [A], 'the page came up whole from build A');
    assert.ok(loads[loads.length - 1].files.some((f) => f.path === '/attnplay.wasm'), 'its module was among them');
    await setStateOk(page, { preset: 'default', d_k: 16 });
    assert.equal((await api.getResult(page)).weights.length, 6, 'build A computes');
  });

  it('installs B served whole while tab 2 keeps working on A; the next visit is all B', async () => {
    server.serve(dirB, B);
    loads.length = 0;
    await page.reload({ waitUntil: 'load' });
    await started(page);
    assertOneBuild(loads, 'B served whole');
    await pollUntil(() => keptBuilds(page), (k) => k.includes(B), { what: 'build B kept', timeout: 60000 });
    const keptAt = Date.now();
    await pollUntil(() => tab2.evaluate(() => window.__takenOver), (n) => n > 0,
      { what: 'B\'s worker to take tab 2 over', timeout: TAKEOVER_MS, interval: 200 })
      .catch(async (e) => { throw new Error(`${e.message}; the registration: ${JSON.stringify(await workers(page))}`); });
    console.log(`B's worker took tab 2 over ${((Date.now() - keptAt) / 1000).toFixed(1)} s after B was kept`);
    assert.ok((await keptBuilds(page)).includes(A), 'A is kept while a tab runs it');
    await setStateOk(tab2, { lang: 'hi-Latn' });
    assert.doesNotMatch(await hinglishSummary(tab2), /naya build/, 'tab 2 shows build A\'s Hinglish');
    assertOneBuild(loads2, 'tab 2');
    assert.deepEqual(buildsOf(loads2[loads2.length - 1]), [A], 'tab 2 got only A\'s files, its Hinglish too');
    assert.ok(loads2[loads2.length - 1].files.some((f) => f.path === '/strings/hi-Latn.json'), 'tab 2 fetched its Hinglish under B\'s worker');
    await waitFrames(tab2, 3);
    assert.equal((await api.getResult(tab2)).weights.length, 6, 'tab 2 keeps computing on A');

    loads.length = 0;
    await page.reload({ waitUntil: 'load' });
    assert.equal(await started(page), B, 'the next visit runs build B');
    assert.deepEqual(loads.map(buildsOf), [[B]], 'all of it from B');
  });

  it('offline after that visit, runs B whole from the kept copy', async () => {
    server.down = true;
    await context.setOffline(true);
    loads.length = 0;
    await page.reload({ waitUntil: 'load', timeout: 60000 });
    assert.equal(await started(page), B, 'offline, the page runs build B');
    await setStateOk(page, { lang: 'hi-Latn' });
    assert.match(await hinglishSummary(page), /naya build/, 'offline, B\'s Hinglish');
    assert.deepEqual(loads.map(buildsOf), [[B]], 'offline, all of it from B');
    console.log(`offline: ${loads[0].files.length} files, all from build B`);
    await context.setOffline(false);
    server.down = false;
    await context.close();
  });
});
