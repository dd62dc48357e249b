// jupyter_notebook.test.mjs — the same notebook in a live Jupyter Notebook server (Debian's
// jupyter-notebook, on 127.0.0.1 with fresh config, data and runtime folders): Chromium runs all cells,
// the two show() outputs must each show their own state and stay independent while everything but the
// local server is blocked; after saving and reopening, the stored outputs come back as working playgrounds
// without running anything. Run: ctest -R python_jupyter --output-on-failure
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { ARTIFACTS, REPO_ROOT, SITE_DIR, assertSiteBuilt, launchChromium } from '../browser/helpers.mjs';
import { checkDrawn, checkIndependent, checkOffline, checkOwnStates, readyFrames, recordViolations } from './notebook_checks.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const WORK = path.join(ARTIFACTS, 'notebook-live');
const NOTEBOOK = 'two_playgrounds.ipynb';
const JUPYTER = fs.existsSync('/usr/bin/jupyter') ? '/usr/bin/jupyter' : 'jupyter';
const TOKEN = crypto.randomBytes(16).toString('hex');

let server, serverLog = '', origin, browser, page, frames;
const requests = [];

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
  });
}

async function until(fn, what, timeout = 120000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const v = await fn().catch(() => null);
    if (v) return v;
    if (server && server.exitCode !== null) throw new Error(`the notebook server exited (${server.exitCode}):\n${serverLog.slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; server log:\n${serverLog.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const openNotebook = async (name = NOTEBOOK) => {
  await page.goto(`${origin}/notebooks/${name}?token=${TOKEN}`, { waitUntil: 'load' });
  await until(() => page.evaluate(() => !!(window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel &&
    Jupyter.notebook.kernel.is_connected())), 'the notebook and its kernel');
};

// Each phase gets its own Chromium: a software-GL context lost under load must not block WebGL for the next.
async function freshBrowser() {
  await browser?.close();
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1100, height: 1700 }, deviceScaleFactor: 1 });
  // Only the local server: no CDN, no other address.
  await context.route('**/*', (route) => (route.request().url().startsWith(origin + '/') ? route.continue() : route.abort()));
  context.on('request', (r) => requests.push({ url: r.url(), main: r.frame() === page?.mainFrame() }));
  await recordViolations(context);
  page = await context.newPage();
}

before(async () => {
  assertSiteBuilt();
  fs.rmSync(WORK, { recursive: true, force: true });
  for (const d of ['config', 'data', 'runtime', 'ipython', 'notebooks']) fs.mkdirSync(path.join(WORK, d), { recursive: true });
  fs.copyFileSync(path.join(here, NOTEBOOK), path.join(WORK, 'notebooks', NOTEBOOK));
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const env = Object.assign({}, process.env, {
    PYTHONPATH: path.join(REPO_ROOT, 'python'),
    ATTNPLAY_WEB: SITE_DIR,
    JUPYTER_CONFIG_DIR: path.join(WORK, 'config'),
    JUPYTER_DATA_DIR: path.join(WORK, 'data'),
    JUPYTER_RUNTIME_DIR: path.join(WORK, 'runtime'),
    IPYTHONDIR: path.join(WORK, 'ipython'),
  });
  server = spawn(JUPYTER, ['notebook', '--no-browser', '--ip=127.0.0.1', `--port=${port}`, '--port-retries=0',
    `--NotebookApp.token=${TOKEN}`, `--notebook-dir=${path.join(WORK, 'notebooks')}`,
    ...(process.getuid && process.getuid() === 0 ? ['--allow-root'] : [])],
  { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.on('data', (d) => { serverLog += d; });
  server.stderr.on('data', (d) => { serverLog += d; });
  await until(async () => (await fetch(`${origin}/api/status?token=${TOKEN}`)).ok, 'the notebook server');

  await freshBrowser();
  await openNotebook();
  await page.evaluate(() => Jupyter.notebook.execute_all_cells());
  frames = await readyFrames(page, 2, 180000);
  await until(() => page.evaluate(() => Jupyter.notebook.get_cells().filter((c) => c.cell_type === 'code')
    .every((c) => Number.isInteger(c.input_prompt_number))), 'every cell to have run', 180000);
});

after(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    try { process.kill(-server.pid, 'SIGTERM'); } catch (e) { /* already gone */ }  // the server and its kernel
    await new Promise((r) => { server.once('exit', r); setTimeout(r, 10000); });
  }
});

const expected = () => JSON.parse(fs.readFileSync(path.join(WORK, 'notebooks', 'expected.json'), 'utf8'));

test('Run All in Jupyter Notebook: each playground shows its own scenario and numbers', () => checkOwnStates(frames, expected()));

test('neither view is blank; screenshot of the live notebook', async () => {
  await checkDrawn(frames);
  await page.screenshot({ path: path.join(WORK, 'jupyter-notebook.png') });
});

test('a drag in one playground and setState in the other change only that one', () => checkIndependent(page, frames));

test('the playgrounds made no request of their own and no CSP complaint', () => checkOffline(frames, requests));

test('saved and reopened, the stored outputs are working playgrounds again without running a cell', async () => {
  await page.evaluate(() => Jupyter.notebook.save_notebook());
  await until(() => page.evaluate(() => Jupyter.notebook.dirty === false), 'the save');
  const saved = fs.readFileSync(path.join(WORK, 'notebooks', NOTEBOOK), 'utf8');
  const savedIds = [...new Set([...saved.matchAll(/data-attnplay-view=\\"([0-9a-f]+)\\"/g)].map((m) => m[1]))];
  assert.equal(savedIds.length, 2, 'the saved .ipynb holds both outputs');
  await freshBrowser();
  await openNotebook();
  frames = await readyFrames(page, 2, 180000);
  // The same view ids: these are the stored outputs (a new show() would make new ids).
  const ids = await page.$$eval('iframe[data-attnplay-view]', (els) => els.map((e) => e.dataset.attnplayView));
  assert.deepEqual(ids, savedIds);
  await checkOwnStates(frames, expected());  // the pages as show() made them, not as the drag left them
});

test('in a notebook Jupyter does not trust, the view says why instead of an empty box; running the cells shows it', async () => {
  // The saved notebook with one changed byte of metadata: its signature no longer matches.
  const nb = JSON.parse(fs.readFileSync(path.join(WORK, 'notebooks', NOTEBOOK), 'utf8'));
  nb.metadata.attnplay_test = 'changed';
  fs.writeFileSync(path.join(WORK, 'notebooks', 'untrusted.ipynb'), JSON.stringify(nb));
  await freshBrowser();
  await openNotebook('untrusted.ipynb');
  assert.equal(await page.evaluate(() => Jupyter.notebook.trusted), false);
  assert.equal((await page.$$('iframe[data-attnplay-view]')).length, 0, 'Jupyter removed the frames');
  const notes = await page.$$eval('.attnplay-untrusted', (els) => els.map((e) => ({ text: e.textContent, h: e.getBoundingClientRect().height })));
  assert.equal(notes.length, 2);
  for (const n of notes) {
    assert.match(n.text, /does not trust the notebook/);
    assert.ok(n.h > 0, 'the note is visible');
  }
  await page.evaluate(() => Jupyter.notebook.execute_all_cells());
  frames = await readyFrames(page, 2, 180000);
  await checkOwnStates(frames, expected());
});
