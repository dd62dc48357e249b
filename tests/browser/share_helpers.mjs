// share_helpers.mjs — plumbing for the share_*.test.mjs files (not a test file itself): open the page at
// any URL (fragment, embed query) with errors, dialogs and CSP violations collected; the Share panel;
// downloads; the share format built by hand (base64url of 'j' + JSON, as course.js does).
import { api, itemRect, pollUntil } from './helpers.mjs';

// Records CSP violations and whether any XSS payload ran, before any page script.
function recordViolations() {
  window.__shareProbe = { violations: [], pwned: [] };
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__shareProbe.violations.push(`${e.violatedDirective} ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
  });
  // Payloads call this; it must never run.
  window.pwn = (tag) => window.__shareProbe.pwned.push(String(tag));
}

// Opens `url` in a fresh context; resolves once attnplay.ready has settled (or a timeout).
export async function openAt(browser, url, { viewport = { width: 1280, height: 800 }, permissions = [], timeout = 60000 } = {}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, acceptDownloads: true });
  if (permissions.length) await context.grantPermissions(permissions, { origin: new URL(url).origin });
  const page = await context.newPage();
  const errors = { console: [], page: [], dialogs: [], requests: [] };
  page.on('console', (m) => { if (m.type() === 'error') errors.console.push(m.text()); });
  page.on('pageerror', (e) => errors.page.push(String(e && e.stack || e)));
  page.on('dialog', (d) => { errors.dialogs.push(`${d.type()}: ${d.message()}`); d.dismiss().catch(() => {}); });
  page.on('request', (r) => errors.requests.push(r.url()));
  await page.addInitScript(recordViolations);
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.attnplay && window.attnplay.frames() >= 2, null, { timeout, polling: 50 });
  await page.evaluate(() => window.attnplay.ready);
  return { context, page, errors };
}

export const probe = (page) => page.evaluate(() => window.__shareProbe);
export const watch = (page) => page.evaluate(() => window.attnplay.watch());

// base64url of 'j' + JSON: the uncompressed share format.
export function plainFragment(state) {
  return 's=1.' + Buffer.from('j' + JSON.stringify(state), 'utf8').toString('base64url');
}

// The state as the share link carries it (derived fields dropped, and the Share window, which stays with
// the sender), for exact comparisons.
export function comparable(state) {
  const s = structuredClone(state);
  delete s.tokens;
  if (s.mode === 'random') delete s.scenario;
  if (s.panels) s.panels.share = false;
  return s;
}

export async function openSharePanel(page) {
  const st = await api.getState(page);
  const r = await api.setState(page, { panels: Object.assign({}, st.panels, { share: true }) });
  if (!r.ok) throw new Error('could not open the Share panel: ' + JSON.stringify(r));
  return itemRect(page, 'Copy link');
}

// Clicks an ImGui button by its tracked label and waits for the download it starts.
export async function clickForDownload(page, label, click) {
  const rect = await itemRect(page, label);
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 30000 }),
    click(page, { x: rect.x + rect.w / 2, y: rect.y + rect.h / 2 }),
  ]);
  const path = await download.path();
  return { name: download.suggestedFilename(), path };
}

export async function waitStatus(page, re, timeout = 5000) {
  return pollUntil(() => watch(page), (w) => re.test(w.status), { timeout, what: `a status matching ${re}` });
}

export const XSS = [
  '<img src=x onerror="pwn(1)">',
  '"><svg onload=pwn(2)>',
  "javascript:pwn(3)//",
  '<script>pwn(4)</script>',
  "'-pwn(5)-'",
];
