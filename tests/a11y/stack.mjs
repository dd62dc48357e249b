// stack.mjs — a private desktop with a real screen reader, for tests/a11y/orca.test.mjs (not a test itself).
//
// What it brings up (as GNOME's Orca integration tests do: tests/integration_test_wrapper.py.in and
// tests/integration_tests/harness/ in GNOME/orca — a private session bus, Xvfb, at-spi-bus-launcher and
// at-spi2-registryd on it, speech-dispatcher pinned to its dummy module, Orca in a sandboxed XDG home):
//   Xvfb → at-spi-bus-launcher (--a11y=1) → at-spi2-registryd → speech-dispatcher (dummy output) → Orca 43
//   (`orca -u PREFS`, whose orca-customizations.py turns say-all on load off and writes Orca's speech log, every
//   utterance, to a file) → scripts/serve.py → headed Chromium (--force-renderer-accessibility) on the page.
// The session bus is the caller's: run under `dbus-run-session` (orca.test.mjs re-runs itself under it).
// Keys go in through XTest (xdotool), as a keyboard's would; Chromium's DevTools port is used only to know when
// the page is ready and to read back what the page did (never to press keys or move the focus).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '..', '..');
const ATSPI_DIRS = ['/usr/libexec', '/usr/lib/at-spi2-core', '/usr/local/libexec'];
const findIn = (dirs, name) => dirs.map((d) => path.join(d, name)).find((p) => fs.existsSync(p)) || null;
const which = (name) => (process.env.PATH || '').split(':').map((d) => path.join(d, name)).find((p) => {
  try { fs.accessSync(p, fs.constants.X_OK); return true; } catch { return false; }
}) || null;

// What the harness needs; the names of the missing ones (CTest registers the test only when none is missing).
export function missingTools() {
  const tools = { Xvfb: which('Xvfb'), 'dbus-run-session': which('dbus-run-session'), gdbus: which('gdbus'),
    orca: which('orca'), 'speech-dispatcher': which('speech-dispatcher'), xdotool: which('xdotool'),
    chromium: fs.existsSync(process.env.CHROMIUM || '/usr/bin/chromium') ? 'ok' : null,
    'at-spi-bus-launcher': findIn(ATSPI_DIRS, 'at-spi-bus-launcher'), 'at-spi2-registryd': findIn(ATSPI_DIRS, 'at-spi2-registryd') };
  return Object.entries(tools).filter(([, v]) => !v).map(([k]) => k);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
  });
}
async function until(what, fn, { timeout = 20000, interval = 100 } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try { last = await fn(); } catch (e) { last = e; }
    if (last && !(last instanceof Error)) return last;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await sleep(interval);
  }
}

export class Stack {
  constructor({ site = path.join(REPO_ROOT, 'build', 'web'), log = () => {} } = {}) {
    this.site = site;
    this.log = log;
    this.children = [];  // every process this harness started, stopped in reverse order by stop()
    this.sandbox = fs.mkdtempSync(path.join(os.tmpdir(), 'attnplay-orca-'));
    this.transcriptPath = path.join(this.sandbox, 'orca-speech.log');
    this.env = { ...process.env };
  }

  start(name, argv, { env = this.env, stdio = 'pipe' } = {}) {
    const logFile = fs.openSync(path.join(this.sandbox, `${name}.log`), 'a');
    const proc = spawn(argv[0], argv.slice(1), { env, stdio: ['ignore', logFile, logFile], detached: false });
    fs.closeSync(logFile);
    proc.name = name;
    proc.exitInfo = null;
    proc.once('exit', (code, signal) => { proc.exitInfo = { code, signal }; });
    this.children.push(proc);
    return proc;
  }

  async up(url) {
    const env = this.env;
    delete env.AT_SPI_BUS_ADDRESS;
    delete env.WAYLAND_DISPLAY;
    for (const [sub, key] of [['data', 'XDG_DATA_HOME'], ['config', 'XDG_CONFIG_HOME'], ['cache', 'XDG_CACHE_HOME'],
      ['state', 'XDG_STATE_HOME']]) {
      fs.mkdirSync(path.join(this.sandbox, sub), { recursive: true });
      env[key] = path.join(this.sandbox, sub);
    }
    env.HOME = this.sandbox;
    env.GSETTINGS_BACKEND = 'memory';
    env.LANG = env.LC_ALL = 'C.UTF-8';
    env.GDK_BACKEND = 'x11';
    env.NO_AT_BRIDGE = '0';
    env.BRLAPI_HOST = '127.0.0.1:9999';  // never a braille display of the host
    if (!env.XDG_RUNTIME_DIR || !fs.existsSync(env.XDG_RUNTIME_DIR)) {
      env.XDG_RUNTIME_DIR = path.join(this.sandbox, 'runtime');
      fs.mkdirSync(env.XDG_RUNTIME_DIR, { recursive: true, mode: 0o700 });
    }
    if (!env.DBUS_SESSION_BUS_ADDRESS) throw new Error('no session bus: run under dbus-run-session');

    // 1. Xvfb on the first free display it finds (-displayfd).
    const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x900x24', '-nolisten', 'tcp'],
      { env, stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
    xvfb.name = 'Xvfb';
    this.children.push(xvfb);
    const display = await new Promise((resolve, reject) => {
      let buf = '';
      const t = setTimeout(() => reject(new Error('Xvfb did not report its display')), 15000);
      xvfb.stdio[3].on('data', (d) => { buf += d; if (buf.includes('\n')) { clearTimeout(t); resolve(buf.trim()); } });
      xvfb.once('exit', (c) => reject(new Error(`Xvfb exited (${c})`)));
    });
    env.DISPLAY = ':' + display;
    this.log(`DISPLAY=${env.DISPLAY}`);
    spawnSync('dbus-update-activation-environment', [`DISPLAY=${env.DISPLAY}`], { env, stdio: 'ignore' });

    // 2. The accessibility bus, with accessibility on; then the registry on it.
    this.start('at-spi-bus-launcher', [findIn(ATSPI_DIRS, 'at-spi-bus-launcher'), '--launch-immediately', '--a11y=1', '--screen-reader=1']);
    // NameHasOwner first: a GetAddress call before the launcher has claimed the name would have the bus start
    // another launcher (D-Bus activation).
    await until('the accessibility bus (org.a11y.Bus)', () => {
      const r = spawnSync('gdbus', ['call', '--session', '--dest', 'org.freedesktop.DBus', '--object-path',
        '/org/freedesktop/DBus', '--method', 'org.freedesktop.DBus.NameHasOwner', 'org.a11y.Bus'], { env, encoding: 'utf8', timeout: 3000 });
      return (r.stdout || '').trim() === '(true,)';
    });
    const address = await until('the accessibility bus\'s address', () => {
      const r = spawnSync('gdbus', ['call', '--session', '--dest', 'org.a11y.Bus', '--object-path', '/org/a11y/bus',
        '--method', 'org.a11y.Bus.GetAddress'], { env, encoding: 'utf8', timeout: 3000 });
      const m = /^\('(.*)',\)$/.exec((r.stdout || '').trim());
      return r.status === 0 && m ? m[1] : null;
    });
    env.AT_SPI_BUS_ADDRESS = address;
    this.start('at-spi2-registryd', [findIn(ATSPI_DIRS, 'at-spi2-registryd')]);
    await until('the accessibility registry', () => {
      const r = spawnSync('gdbus', ['call', '--address', address, '--dest', 'org.freedesktop.DBus', '--object-path',
        '/org/freedesktop/DBus', '--method', 'org.freedesktop.DBus.NameHasOwner', 'org.a11y.atspi.Registry'],
      { env, encoding: 'utf8', timeout: 3000 });
      return (r.stdout || '').trim() === '(true,)';
    });

    // 3. speech-dispatcher, in the foreground (-s) on this sandbox's socket, so it is ours to stop. GNOME's harness
    // pins it to the dummy module, which needs a sound device (none here): the output is instead a generic module
    // whose "synthesiser" appends each text it is given to a file — what reached the speech server, after its
    // queue (Orca's own log, below, is what Orca sent). Every module opens a sound device first: ALSA's "null" one.
    const sdConf = path.join(env.XDG_CONFIG_HOME, 'speech-dispatcher');
    fs.mkdirSync(sdConf, { recursive: true });
    this.heardPath = path.join(this.sandbox, 'speechd-heard.log');
    fs.writeFileSync(this.heardPath, '');
    fs.writeFileSync(path.join(sdConf, 'heard.conf'), [
      `GenericExecuteSynth "printf '[[%s]]\\\\n' \\'$DATA\\' >> ${this.heardPath}"`,
      'GenericCmdDependency "printf"', 'GenericStripPunctChars "`"', 'AddVoice "en" "MALE1" "en"',
      'AddVoice "hi" "MALE1" "hi"', 'DefaultVoice "en"', 'GenericLanguage "en" "en" "utf-8"', 'GenericLanguage "hi" "hi" "utf-8"', ''].join('\n'));
    fs.writeFileSync(path.join(sdConf, 'speechd.conf'),
      'AudioOutputMethod "alsa"\nAudioALSADevice "null"\n' +
      `DefaultModule heard\nAddModule "heard" "sd_generic" "${path.join(sdConf, 'heard.conf')}"\nLogLevel 3\n`);
    this.start('speech-dispatcher', ['speech-dispatcher', '-s', '-t', '0', '-C', sdConf, '-L', this.sandbox]);
    const sdSocket = path.join(env.XDG_RUNTIME_DIR, 'speech-dispatcher', 'speechd.sock');
    await until('speech-dispatcher\'s socket', () => fs.existsSync(sdSocket), { timeout: 15000 });

    // 4. Orca, with its user prefs in the sandbox and our customizations (speech log, no say-all on load).
    const prefs = path.join(this.sandbox, 'orca-prefs');
    fs.mkdirSync(prefs, { recursive: true });
    fs.copyFileSync(path.join(here, 'orca-customizations.py'), path.join(prefs, 'orca-customizations.py'));
    fs.writeFileSync(this.transcriptPath, '');
    const orcaEnv = { ...env, ATTNPLAY_ORCA_TRANSCRIPT: this.transcriptPath };
    const orcaArgs = ['orca', '-u', prefs];
    if (process.env.ATTNPLAY_ORCA_DEBUG) orcaArgs.push('--debug-file=' + path.join(this.sandbox, 'orca-debug.out'));
    this.orca = this.start('orca', orcaArgs, { env: orcaEnv });
    await until('Orca to speak ("Screen reader on")', () => {
      if (this.orca.exitInfo) return new Error(`Orca exited: ${JSON.stringify(this.orca.exitInfo)}: ${this.tail('orca')}`);
      return this.utterances().length > 0;
    }, { timeout: 45000 });
    this.log(`Orca up: ${JSON.stringify(this.utterances().map((u) => u.text))}`);

    // 5. The page's server.
    const port = await freePort();
    this.start('serve', ['python3', path.join(REPO_ROOT, 'scripts', 'serve.py'), '--port', String(port), '--dir', this.site]);
    this.origin = `http://127.0.0.1:${port}`;
    await until('the page server', () => new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => { s.end(); resolve(true); });
      s.on('error', () => resolve(false));
    }));
    this.cdpPort = await freePort();
    return this;
  }

  // Headed Chromium on the page (the window Orca reads); the DevTools port only to observe. The profile is fresh, and a
  // first visit opens with the start view (src/app/start_view.h): unless `firstVisit`, the page's storage is marked as
  // one that has left a start view before (as tests/browser/helpers.mjs does) and the page is loaded again, so the
  // tasks meet the page a returning learner sees.
  async openPage(pagePath, { readyTimeout = 60000, firstVisit = false } = {}) {
    const url = this.origin + pagePath;
    const profile = path.join(this.sandbox, 'chromium-' + this.children.length);
    this.chromium = this.start('chromium', [process.env.CHROMIUM || '/usr/bin/chromium', `--app=${url}`,
      `--user-data-dir=${profile}`, '--window-size=1280,860', '--window-position=0,0', '--ozone-platform=x11',
      '--no-first-run', '--no-default-browser-check', '--disable-extensions', '--force-renderer-accessibility',
      '--disable-background-timer-throttling', '--disable-renderer-backgrounding', '--disable-backgrounding-occluded-windows',
      '--no-sandbox', '--test-type', '--password-store=basic', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', '--lang=en-US',
      `--remote-debugging-port=${this.cdpPort}`, '--remote-allow-origins=*']);
    const { chromium } = await import('playwright-core');
    this.browser = await until('Chromium\'s DevTools port', async () => {
      if (this.chromium.exitInfo) return new Error('Chromium exited: ' + this.tail('chromium'));
      return chromium.connectOverCDP(`http://127.0.0.1:${this.cdpPort}`);
    }, { timeout: 30000, interval: 300 });
    this.page = await until('the page in Chromium', () => {
      const pages = this.browser.contexts().flatMap((c) => c.pages());
      return pages.find((p) => p.url().startsWith(this.origin)) || null;
    }, { timeout: 30000 });
    if (!firstVisit) {
      await this.page.waitForLoadState('load');
      // The first visit keeps its state 400 ms after the app is ready (PERSIST_MS in attnplay-api.js), and a page
      // that finds a kept state offers to continue it (a dialog that takes the focus). Whether the reload came
      // before or after that was a race: wait until the state is kept, then forget it with everything else.
      await this.page.waitForFunction(() => window.attnplay && window.attnplay.ready, null, { timeout: readyTimeout })
        .then(() => this.page.evaluate(() => window.attnplay.ready)).catch(() => {});
      await new Promise((r) => setTimeout(r, 1000));
      await this.page.evaluate(() => {
        for (const key of Object.keys(window.localStorage)) if (key.startsWith('attnplay:')) window.localStorage.removeItem(key);
        window.localStorage.setItem('attnplay:visited', '1');
      });
      await this.page.reload({ waitUntil: 'load' });
    }
    const ready = () => this.page.waitForFunction(() => window.attnplay && document.querySelector('#a11y-dom > *') &&
      document.querySelector('#a11y-skip a'), null, { timeout: readyTimeout, polling: 100 });
    this.reloads = this.reloads || 0;
    try {
      try {
        await ready();
      } catch (first) {
        // Seen once in the first runs: a page that never got ready (no diagnostics kept then). Say what the page
        // showed, reload it once, and count the reload (the test reports it).
        const seen = await this.page.evaluate(() => ({ url: location.href, state: document.readyState, api: !!window.attnplay,
          loading: (document.getElementById('loading-text') || {}).textContent })).catch((x) => String(x));
        this.log(`the page was not ready within ${readyTimeout} ms (${JSON.stringify(seen)}); reloading it once`);
        this.reloads++;
        await this.page.reload({ waitUntil: 'load' });
        await ready();
      }
    } catch (e) {
      const seen = await this.page.evaluate(() => ({ url: location.href, state: document.readyState, api: !!window.attnplay,
        loading: (document.getElementById('loading-text') || {}).textContent, fatal: (document.getElementById('fatal') || {}).textContent,
        dom: document.getElementById('a11y-dom').children.length, skip: document.getElementById('a11y-skip').children.length,
        visibility: document.visibilityState })).catch((x) => String(x));
      throw new Error(`the page was not ready within ${readyTimeout} ms: ${JSON.stringify(seen)}; pages: ` +
        `${JSON.stringify(this.browser.contexts().flatMap((c) => c.pages()).map((p) => p.url()))}; chromium: ${this.tail('chromium', 800)}`);
    }
    await this.page.evaluate(() => window.attnplay.ready);
    // The texts that follow the first view (lessons, closed panels), as the browser tests' openApp waits for.
    await this.page.waitForFunction(() => !window.Module.ccall('attnplay_catalog_missing', 'string', ['number'], [1]),
      null, { timeout: 20000, polling: 100 }).catch(() => {});
    // The keyboard goes to Chromium's window (no window manager: focus it through X).
    const win = await until('Chromium\'s window', () => {
      const r = spawnSync('xdotool', ['search', '--onlyvisible', '--class', 'chromium'], { env: this.env, encoding: 'utf8' });
      const ids = (r.stdout || '').trim().split('\n').filter(Boolean);
      return ids.length ? ids[ids.length - 1] : null;
    });
    this.window = win;
    this.xdotool(['windowfocus', '--sync', win]);
    this.xdotool(['mousemove', '1270', '890']);  // the pointer out of the page's way
  }

  async closePage() {
    if (this.browser) await this.browser.close().catch(() => {});  // disconnects CDP only
    this.browser = null;
    if (this.chromium) await this.stopOne(this.chromium);
    this.chromium = null;
  }

  xdotool(args) {
    const r = spawnSync('xdotool', args, { env: this.env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`xdotool ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  }

  // A key (xdotool's names: Tab, shift+Tab, Return, space, Right…) through XTest, with a pause for Orca after it.
  async key(name, { delay = 60 } = {}) {
    this.xdotool(['key', '--clearmodifiers', '--delay', String(delay), name]);
  }

  // Every utterance Orca sent to speech so far: {t, text}.
  utterances() {
    const raw = fs.existsSync(this.transcriptPath) ? fs.readFileSync(this.transcriptPath, 'utf8') : '';
    return raw.split('\x1e').filter(Boolean).map((rec) => {
      const tab = rec.indexOf('\t');
      const msg = rec.slice(tab + 1).replace(/\n$/, '');
      const m = /^SPEECH OUTPUT: '([\s\S]*)'(?: voice=\w+)?$/.exec(msg);
      return { t: +rec.slice(0, tab), text: m ? m[1] : msg };
    });
  }

  // Waits until Orca has been quiet for `quiet` ms (after at least `min` ms), returns what it said since index `from`.
  async settle(from, { quiet = 1200, min = 300, timeout = 15000 } = {}) {
    const start = Date.now();
    let count = -1, since = Date.now();
    await sleep(min);
    for (;;) {
      const n = this.utterances().length;
      if (n !== count) { count = n; since = Date.now(); }
      if (Date.now() - since >= quiet || Date.now() - start > timeout) break;
      await sleep(100);
    }
    return this.utterances().slice(from);
  }

  tail(name, n = 1500) {
    try { const s = fs.readFileSync(path.join(this.sandbox, `${name}.log`), 'utf8'); return s.slice(-n); } catch { return ''; }
  }

  async stopOne(proc, grace = 3000) {
    if (proc.exitInfo || proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    const t = setTimeout(() => { try { proc.kill('SIGKILL'); } catch {} }, grace);
    await gone;
    clearTimeout(t);
  }

  async down({ keep = false } = {}) {
    if (this.browser) await this.browser.close().catch(() => {});
    for (const proc of [...this.children].reverse()) await this.stopOne(proc);
    this.children = [];
    if (!keep) fs.rmSync(this.sandbox, { recursive: true, force: true });
  }
}
