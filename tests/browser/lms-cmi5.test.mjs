// lms-cmi5.test.mjs — a lesson exported with `attnplay package --cmi5` runs as a cmi5 AU under an LMS written here:
// a launcher and an LRS on 127.0.0.1 that, as a cmi5 LMS does, creates a registration, writes LMS.LaunchData to the
// State API, launches the AU (cmi5.xml's url) in a frame with the five launch parameters, hands out a one-time token
// at the fetch URL, accepts xAPI requests only with that token, keeps state documents and the learner's preferences,
// and checks every statement against xapi-validation and the cmi5 rules (initialized first, nothing after terminated,
// completed and passed at most once per registration, passed/failed only in Normal mode and consistent with the
// mastery score, the cmi5 context on every statement). The learner answers by clicks: a first launch left mid-lesson,
// a relaunch that resumes with its answers and completes (failed against 0.8), a relaunch after that (nothing
// completed or judged again), Review and Browse modes (only initialized and terminated; the learner is told, in the
// language of their preferences), an LRS that answers 503 for a while (the learner is told; everything arrives, in order),
// and a launch whose session starts only at a later try, or never (the work waits, then arrives or is kept for the next launch).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createRequire } from 'node:module';
import { REPO_ROOT, SITE_DIR, launchChromium, pollUntil, siteBuiltTest } from './helpers.mjs';

const require = createRequire(import.meta.url);
const validateStatement = require('xapi-validation').default;
siteBuiltTest();

const CLI = process.env.ATTNPLAY_CLI || path.join(REPO_ROOT, 'build', 'native', 'attnplay');
const LESSON = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'lessons', '01-why-attention.json'), 'utf8'));
const Q = LESSON.steps.map((s) => s.task).filter((t) => t && t.kind === 'predict');  // steps 1–3: choice, choice, numeric
const CATALOG = { en: JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'strings', 'en.json'), 'utf8')),
  'hi-Latn': JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'strings', 'hi-Latn.json'), 'utf8')) };
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
  '.svg': 'image/svg+xml', '.json': 'application/json', '.xml': 'application/xml' };
const CMI5 = 'https://w3id.org/xapi/cmi5/context/';
const verbOf = (s) => s.verb.id.split('/').pop();
const categories = (s) => ((s.context && s.context.contextActivities && s.context.contextActivities.category) || []).map((a) => a.id);

// ---- the LMS and its LRS --------------------------------------------------------------------------------------------
// One registration per learner and course; a session per launch (its id in the context template, its own token).
class Lms {
  constructor(pkgDir, au) {
    this.pkgDir = pkgDir;
    this.au = au;  // {id, url, masteryScore, moveOn} from cmi5.xml
    this.activityId = 'https://lms.example/activities/' + crypto.randomUUID();  // never the AU's own id (cmi5 8.1.5)
    this.docs = new Map();       // state and agent-profile documents by key
    this.sessions = [];
    this.byToken = new Map();
    this.byFetch = new Map();
    this.registrations = new Map();  // registration → {completed, passed, failed}
    this.down = false;           // every LRS request answers 503
    this.downFor = new Set();    // registrations whose LRS requests answer 503
    this.seen = new Map();       // statement id → its JSON
  }
  launch({ registration = crypto.randomUUID(), actor, mode = 'Normal', preferences = null }) {
    const session = { id: crypto.randomUUID(), token: crypto.randomBytes(18).toString('base64'), fetchKey: crypto.randomUUID(),
      fetches: 0, registration, actor, mode, statements: [], terminated: false, initialized: false, violations: [] };
    this.sessions.push(session);
    this.byToken.set(session.token, session);
    this.byFetch.set(session.fetchKey, session);
    if (!this.registrations.has(registration)) this.registrations.set(registration, { completed: 0, passed: 0, failed: 0 });
    const launchData = { contextTemplate: { contextActivities: { grouping: [{ objectType: 'Activity', id: this.au.id }] },
      extensions: { [CMI5 + 'extensions/sessionid']: session.id } }, launchMode: mode, moveOn: this.au.moveOn,
    launchMethod: 'AnyWindow', returnURL: 'http://127.0.0.1/unused' };
    if (this.au.masteryScore !== undefined) launchData.masteryScore = this.au.masteryScore;
    this.docs.set(this.stateKey(this.activityId, actor, registration, 'LMS.LaunchData'), launchData);
    if (preferences) this.docs.set('profile|' + JSON.stringify(actor) + '|cmi5LearnerPreferences', preferences);
    const q = new URLSearchParams({ endpoint: `${this.origin}/lrs/`, fetch: `${this.origin}/lms/fetch?k=${session.fetchKey}`,
      actor: JSON.stringify(actor), registration, activityId: this.activityId });
    session.url = `/pkg/${this.au.url}${this.au.url.includes('?') ? '&' : '?'}${q}`;
    return session;
  }
  stateKey(activityId, agent, registration, stateId) {
    return ['state', activityId, JSON.stringify(typeof agent === 'string' ? JSON.parse(agent) : agent), registration, stateId].join('|');
  }
  progress(session) { return this.docs.get(this.stateKey(this.activityId, session.actor, session.registration, 'attnplay-progress')); }
  violate(session, text) { session.violations.push(text); }

  // The cmi5 rules a statement must keep (spec sections 7.1, 9.3, 9.5, 9.6, 10.2.2).
  check(session, s) {
    const verb = verbOf(s), cats = categories(s), ctx = s.context || {};
    const defined = cats.includes(CMI5 + 'categories/cmi5');
    const reg = this.registrations.get(session.registration);
    const v = (text) => this.violate(session, `${verb}: ${text}`);
    for (const w of validateStatement(s)) v(`xapi-validation: ${w.path.join('.')}: ${w.name}`);
    if (session.terminated) v('sent after terminated');
    if (!session.initialized && verb !== 'initialized') v('the first statement is not initialized');
    if (JSON.stringify(s.actor) !== JSON.stringify(session.actor)) v('not the launch\'s actor');
    if (ctx.registration !== session.registration) v('not the registration');
    if (!ctx.extensions || ctx.extensions[CMI5 + 'extensions/sessionid'] !== session.id) v('no session id');
    if (!(ctx.contextActivities?.grouping || []).some((a) => a.id === this.au.id)) v('the context template\'s grouping is missing');
    if (!/Z$/.test(s.timestamp || '')) v('no UTC timestamp');
    if (!defined) {
      if (cats.includes(CMI5 + 'categories/moveon')) v('moveOn category on an allowed statement');
      return;
    }
    if (s.object.id !== this.activityId) v('the object is not the launch\'s activityId');
    if (session.statements.some((x) => categories(x).includes(CMI5 + 'categories/cmi5') && verbOf(x) === verb)) v('duplicated in the session');
    const r = s.result || {};
    const moveOn = cats.includes(CMI5 + 'categories/moveon');
    if (['completed', 'passed', 'failed'].includes(verb)) {
      if (session.mode !== 'Normal') v(`sent in ${session.mode} mode`);
      if (!moveOn) v('no moveOn category');
      if (!/^P/.test(r.duration || '')) v('no duration');
    } else if (moveOn) v('moveOn category without completion or success');
    if (verb === 'completed') {
      if (r.completion !== true || 'success' in r || 'score' in r) v('result is not {completion: true} alone');
      if (++reg.completed > 1) v('completed twice in the registration');
    }
    if (verb === 'passed' || verb === 'failed') {
      if (r.success !== (verb === 'passed')) v('success does not match the verb');
      if (session.statements.some((x) => ['passed', 'failed'].includes(verbOf(x)))) v('passed/failed twice in the session');
      const m = this.au.masteryScore, scaled = r.score && r.score.scaled;
      if (m !== undefined && !(typeof scaled === 'number' && (verb === 'passed' ? scaled >= m : scaled < m))) v(`score ${scaled} against mastery ${m}`);
      if (m !== undefined && ctx.extensions[CMI5 + 'extensions/masteryscore'] !== m) v('no masteryScore extension');
      if (verb === 'passed' && ++reg.passed > 1) v('passed twice in the registration');
      if (verb === 'failed' && reg.passed) v('failed after passed');
      if (verb === 'failed') reg.failed++;
    }
    if (verb === 'terminated' && !/^P/.test(r.duration || '')) v('no duration');
  }
  takeStatements(session, body) {
    for (const s of Array.isArray(body) ? body : [body]) {
      const known = this.seen.get(s.id);
      if (known !== undefined) {  // the same statement again (a retry whose first try arrived): nothing new
        if (known !== JSON.stringify(s)) this.violate(session, `statement id ${s.id} reused for another statement`);
        continue;
      }
      this.check(session, s);
      this.seen.set(s.id, JSON.stringify(s));
      session.statements.push(s);
      if (verbOf(s) === 'initialized') session.initialized = true;
      if (verbOf(s) === 'terminated') session.terminated = true;
    }
  }
  handle(req, res, body) {
    const url = new URL(req.url, this.origin);
    const json = (code, value) => { res.writeHead(code, { 'Content-Type': 'application/json' }); res.end(value === undefined ? '' : JSON.stringify(value)); };
    if (url.pathname === '/launcher.html') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><html><body style="margin:0"></body></html>');
      return;
    }
    if (url.pathname === '/lms/fetch') {  // cmi5 8.2: POST only, a token once, then error 1 (with HTTP 200)
      const session = this.byFetch.get(url.searchParams.get('k'));
      if (req.method !== 'POST') return json(405, { 'error-code': '3', 'error-text': 'POST only' });
      if (!session) return json(200, { 'error-code': '2', 'error-text': 'unknown fetch URL' });
      if (session.fetchFailures > 0) { session.fetchFailures--; return json(503, { error: 'unavailable' }); }  // no token handed out
      if (session.fetches++) return json(200, { 'error-code': '1', 'error-text': 'The authorization token has already been returned.' });
      return json(200, { 'auth-token': session.token });
    }
    if (url.pathname.startsWith('/lrs/')) return this.lrs(req, url, body, json);
    const file = path.join(this.pkgDir, path.normalize(decodeURIComponent(url.pathname.replace(/^\/pkg\//, ''))));
    if (!url.pathname.startsWith('/pkg/') || !fs.existsSync(file) || !fs.statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
    res.end(fs.readFileSync(file));
  }
  lrs(req, url, body, json) {
    if (this.down) return json(503, { error: 'unavailable' });
    const m = /^(?:Basic|Bearer) (.+)$/.exec(req.headers.authorization || '');
    const session = m && this.byToken.get(m[1]);
    if (!session) return json(401, { error: 'no valid token' });
    if (this.downFor.has(session.registration)) return json(503, { error: 'unavailable' });
    if (req.headers['x-experience-api-version'] !== '1.0.3') this.violate(session, 'no X-Experience-API-Version 1.0.3');
    const p = url.searchParams;
    if (url.pathname === '/lrs/statements' && req.method === 'POST') {
      this.takeStatements(session, JSON.parse(body));
      return json(200, []);
    }
    let key = null;
    if (url.pathname === '/lrs/activities/state') {
      if (p.get('activityId') !== this.activityId || p.get('registration') !== session.registration) return json(400, { error: 'not this launch' });
      key = this.stateKey(p.get('activityId'), p.get('agent'), p.get('registration'), p.get('stateId'));
      if (req.method === 'PUT' && p.get('stateId') === 'LMS.LaunchData') { this.violate(session, 'LMS.LaunchData written'); return json(403); }
    } else if (url.pathname === '/lrs/agents/profile') {
      key = 'profile|' + JSON.stringify(JSON.parse(p.get('agent'))) + '|' + p.get('profileId');
    } else return json(404);
    if (req.method === 'GET') return this.docs.has(key) ? json(200, this.docs.get(key)) : json(404);
    if (req.method === 'PUT') { this.docs.set(key, JSON.parse(body)); return json(204); }
    return json(405);
  }
}

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

describe('a cmi5 package in an LMS', { timeout: 175000 }, () => {
  let tmp, server, browser, lms;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attnplay-cmi5-'));
    const zip = path.join(tmp, 'course.zip');
    execFileSync(CLI, ['package', '--lesson', 'why-attention', '--cmi5', '--site', SITE_DIR, '--out', zip]);
    execFileSync('unzip', ['-q', zip, '-d', path.join(tmp, 'pkg')]);
    // The AU as cmi5.xml describes it (its attributes and url; tests/cli/package_cmi5.sh checks the whole structure).
    const xml = fs.readFileSync(path.join(tmp, 'pkg', 'cmi5.xml'), 'utf8');
    const auTag = /<au ([^>]*)>/.exec(xml)[1];
    const attr = (name) => (new RegExp(`${name}="([^"]*)"`).exec(auTag) || [])[1];
    const au = { id: attr('id'), moveOn: attr('moveOn'), url: /<url>([^<]*)<\/url>/.exec(xml)[1].replace(/&amp;/g, '&') };
    if (attr('masteryScore') !== undefined) au.masteryScore = Number(attr('masteryScore'));
    assert.deepEqual([au.moveOn, au.masteryScore, au.url], ['CompletedAndPassed', 0.8, 'index.html?lesson=why-attention']);
    lms = new Lms(path.join(tmp, 'pkg'), au);
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d) => { body += d; });
      req.on('end', () => lms.handle(req, res, body));
    });
    lms.origin = `http://127.0.0.1:${await listen(server)}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    server?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  // The LMS's window: the AU in a full-size frame at (0, 0), once the page shows its lesson (the session may not
  // have started).
  async function launchUnstarted(page, session) {
    await page.goto(`${lms.origin}/launcher.html`);
    await page.evaluate((src) => {
      const f = document.createElement('iframe');
      f.id = 'au';
      f.style.cssText = 'position:fixed;left:0;top:0;width:1280px;height:800px;border:0';
      f.src = src;
      document.body.appendChild(f);
    }, session.url);
    const frame = await pollUntil(async () => page.frames().find((f) => f.url().includes('/pkg/')), (f) => !!f, { what: 'the AU frame', timeout: 10000 });
    await frame.waitForFunction(() => window.attnplay && window.attnplayCmi5, null, { timeout: 60000, polling: 100 });
    await frame.evaluate(() => window.attnplay.ready);
    await pollUntil(() => frame.evaluate(async () => (await window.attnplay.getResult()).lesson), (l) => !!l, { what: 'the lesson' });
    return frame;
  }
  // The same, once the AU has started its session and sent initialized.
  async function launch(page, session) {
    const frame = await launchUnstarted(page, session);
    await frame.waitForFunction(() => window.attnplayCmi5.status().started, null, { timeout: 60000, polling: 100 });
    await pollUntil(async () => session.initialized, (x) => x, { what: 'initialized' });
    return frame;
  }
  // Leaving: the frame navigates away (pagehide), and the AU's last request arrives.
  async function leave(page, session) {
    await page.evaluate(() => { document.getElementById('au').src = 'about:blank'; });
    await pollUntil(async () => session.terminated, (x) => x, { what: 'terminated', timeout: 10000 });
  }
  const lessonOf = (frame) => frame.evaluate(async () => (await window.attnplay.getResult()).lesson);
  async function frames(frame, n) {
    const start = await frame.evaluate(() => window.attnplay.frames());
    await frame.waitForFunction((s) => window.attnplay.frames() >= s, start + n, { timeout: 15000, polling: 20 });
  }
  async function clickItem(page, frame, id) {
    const r = await pollUntil(() => frame.evaluate((i) => window.attnplay.ui.itemRect(i), id), (x) => x && x.w > 0, { what: id });
    await page.mouse.click(r.x + r.w / 2, r.y + r.h / 2);
    await frames(frame, 2);
  }
  async function answer(page, frame, task, right) {
    const before = (await lessonOf(frame)).attempts;
    if (task.choices) {
      await clickItem(page, frame, `lesson:choice:${right ? task.answer : (task.answer + 1) % task.choices.length}`);
    } else {
      await clickItem(page, frame, 'lesson:number');
      await page.keyboard.type(String(right ? task.number : task.number * 3));
      await page.keyboard.press('Enter');
    }
    await pollUntil(() => lessonOf(frame), (l) => l && l.attempts > before, { what: `${task.id} answered` });
  }
  async function next(page, frame, step) {
    await clickItem(page, frame, 'lesson:next');
    if (step) await pollUntil(() => lessonOf(frame), (l) => l && l.step === step, { what: `step ${step}` });
  }
  const notice = (frame, id) => frame.evaluate((id) => {
    const el = document.getElementById(id);
    return el ? { text: el.textContent, role: el.getAttribute('role'), visible: !el.hidden && el.getBoundingClientRect().height > 0 } : null;
  }, id);
  function sequence(name, session) {
    const verbs = session.statements.map(verbOf);
    console.log(`${name}: ${verbs.join(' → ')}`);
    return verbs;
  }
  const actorOf = (name) => ({ objectType: 'Agent', account: { homePage: 'https://lms.example', name } });

  it('first launch, relaunch resuming with the answers kept (failed against 0.8), relaunch after completion, review', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const actor = actorOf('learner-1');
    const registration = crypto.randomUUID();

    // First session: step 1 wrong then right, step 2 right, leave at step 3.
    const s1 = lms.launch({ registration, actor });
    let frame = await launch(page, s1);
    await answer(page, frame, Q[0], false);
    await answer(page, frame, Q[0], true);
    await next(page, frame, 2);
    await answer(page, frame, Q[1], true);
    await next(page, frame, 3);
    await leave(page, s1);
    assert.deepEqual(sequence('first launch', s1), ['initialized', 'answered', 'answered', 'answered', 'terminated']);
    const answered = s1.statements.filter((s) => verbOf(s) === 'answered');
    assert.deepEqual(answered.map((s) => s.result.success), [false, true, true]);
    const q0 = answered[0].object.definition;
    assert.equal(q0.interactionType, 'choice');
    assert.ok(q0.name.en && q0.name.en !== Q[0].id, 'the question\'s own text, not its id');
    assert.equal(q0.choices.length, Q[0].choices.length);
    assert.ok(q0.choices.every((c) => c.description.en && !/^choice \d/.test(c.description.en)), 'the choices\' own texts');
    assert.ok(answered.every((s) => s.context.contextActivities.parent[0].id === lms.activityId), 'the AU is the answers\' parent');
    const kept = lms.progress(s1);
    assert.equal(kept.step, 3, 'the State API keeps the step');
    assert.deepEqual(Object.keys(kept.answers).sort(), [Q[0].id, Q[1].id].sort(), 'and the answers');

    // Relaunch in the same registration: it opens at step 3 with steps 1 and 2 answered, and completes there.
    const s2 = lms.launch({ registration, actor });
    frame = await launch(page, s2);
    assert.equal((await lessonOf(frame)).step, 3, 'the relaunch continues at the step the learner left');
    await answer(page, frame, Q[2], true);
    await next(page, frame, 4);
    await next(page, frame, 0);
    await pollUntil(async () => s2.statements.map(verbOf), (v) => v.includes('failed'), { what: 'failed' });
    await leave(page, s2);
    assert.deepEqual(sequence('relaunch', s2), ['initialized', 'answered', 'completed', 'failed', 'terminated']);
    const failed = s2.statements.find((s) => verbOf(s) === 'failed');
    // 2 of 3 right at the first try: the first session's answers count (without them it would be 1 of 3).
    assert.deepEqual(failed.result.score, { scaled: 0.6667, raw: 2, min: 0, max: 3 });
    assert.equal(failed.result.success, false);

    // Relaunch after completion: the kept answers open every step answered; finishing again sends no completed, no
    // passed or failed.
    const s3 = lms.launch({ registration, actor });
    frame = await launch(page, s3);
    const opened = await lessonOf(frame);
    assert.equal(opened.step, 4);
    await next(page, frame, 0);
    await frame.evaluate(() => window.attnplay.setState({ lesson: { id: 'why-attention', step: 1 } }));
    const first = await pollUntil(() => lessonOf(frame), (l) => l && l.step === 1, { what: 'step 1 again' });
    assert.deepEqual([first.answered, first.correct, first.attempts], [true, true, 2], 'step 1 as the learner left it');
    await leave(page, s3);
    assert.deepEqual(sequence('relaunch after completion', s3), ['initialized', 'terminated']);
    assert.equal(lms.registrations.get(registration).completed, 1);

    // Review: the attempt as it was, told that nothing is recorded; only initialized and terminated, nothing kept.
    const keptBefore = JSON.stringify(lms.progress(s3));
    const s4 = lms.launch({ registration, actor, mode: 'Review' });
    frame = await launch(page, s4);
    const shown = await pollUntil(() => notice(frame, 'attnplay-lms-mode'), (n) => n && n.visible && n.text !== '…', { what: 'the review notice' });
    assert.equal(shown.text, CATALOG.en['lms.not_recorded']);
    await frame.evaluate(() => window.attnplay.setState({ lesson: { id: 'why-attention', step: 2 } }));
    const second = await pollUntil(() => lessonOf(frame), (l) => l && l.step === 2, { what: 'step 2 in review' });
    assert.deepEqual([second.answered, second.correct], [true, true], 'the answers as they were');
    await leave(page, s4);
    assert.deepEqual(sequence('review', s4), ['initialized', 'terminated']);
    assert.equal(JSON.stringify(lms.progress(s4)), keptBefore, 'the kept progress is not touched');
    for (const [i, s] of [s1, s2, s3, s4].entries()) {
      assert.deepEqual(s.violations, [], `the cmi5 rules in session ${i + 1}`);
      assert.equal(s.fetches, 1, `session ${i + 1} called its fetch URL once`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('Browse mode: only initialized and terminated, nothing kept, the learner told in their preferred language', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const s = lms.launch({ actor: actorOf('learner-browse'), mode: 'Browse', preferences: { languagePreference: 'hi-IN,en-US', audioPreference: 'on' } });
    const frame = await launch(page, s);
    // Told in Hinglish, as cmi5LearnerPreferences asks, once the page has that catalog.
    const shown = await pollUntil(() => notice(frame, 'attnplay-lms-mode'), (n) => n && n.visible && n.text === CATALOG['hi-Latn']['lms.not_recorded'],
      { what: 'the mode notice in Hinglish' });
    assert.equal(shown.role, 'status');
    assert.equal((await frame.evaluate(() => window.attnplay.getState())).lang, 'hi-Latn');
    for (const t of Q) {
      await answer(page, frame, t, true);
      await next(page, frame, Q.indexOf(t) + 2);
    }
    await next(page, frame, 0);  // the end of the lesson: no completed in Browse mode
    await leave(page, s);
    assert.deepEqual(sequence('browse', s), ['initialized', 'terminated']);
    assert.equal(lms.progress(s), undefined, 'no progress written');
    assert.deepEqual(s.violations, [], 'the cmi5 rules');
    await context.close();
  });

  it('an LRS answering 503: the learner is told, and everything arrives in order once it recovers (passed)', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const s = lms.launch({ actor: actorOf('learner-503') });
    const frame = await launch(page, s);
    const alertOf = () => notice(frame, 'attnplay-lms-alert');
    await answer(page, frame, Q[0], true);
    await pollUntil(async () => s.statements.length, (n) => n === 2, { what: 'the first answer' });
    lms.down = true;
    await next(page, frame, 2);
    await answer(page, frame, Q[1], true);
    let shown = await pollUntil(alertOf, (n) => n && n.visible && n.text === CATALOG.en['lms.failing'], { what: 'the alert' });
    assert.equal(shown.role, 'alert');
    assert.equal(s.statements.length, 2, 'nothing reached the LRS while it failed');
    // The alert can come from the step's statement failing before the answer's record is written: wait for it.
    const local = await pollUntil(() => frame.evaluate((key) => JSON.parse(localStorage.getItem(key) || 'null'),
      `attnplay-cmi5:${s.registration}:${lms.activityId}`), (r) => r && r.answers && r.answers[Q[1].id],
    { what: 'the answer kept in the browser' });
    assert.equal(local.pending, true, 'the record is kept in the browser');
    assert.equal(local.answers[Q[1].id].ok, true);
    lms.down = false;
    shown = await pollUntil(alertOf, (n) => n && n.text === CATALOG.en['lms.recorded_again'], { what: 'recorded again', timeout: 12000 });
    assert.equal(s.statements.length, 3, 'the answer given while it failed arrived');
    await next(page, frame, 3);
    await answer(page, frame, Q[2], true);
    await next(page, frame, 4);
    await next(page, frame, 0);
    await pollUntil(async () => s.statements.map(verbOf), (v) => v.includes('passed'), { what: 'passed' });
    await leave(page, s);
    assert.deepEqual(sequence('LRS 503 then back', s), ['initialized', 'answered', 'answered', 'answered', 'completed', 'passed', 'terminated']);
    assert.deepEqual(s.statements.filter((x) => verbOf(x) === 'answered').map((x) => x.object.id.split('/').pop()), Q.map((t) => t.id),
      'the answers in the order given');
    assert.deepEqual(s.statements.find((x) => verbOf(x) === 'passed').result.score, { scaled: 1, raw: 3, min: 0, max: 3 });
    assert.deepEqual(s.violations, [], 'the cmi5 rules');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('the LMS unreachable at launch: the learner is told, works meanwhile, and it all arrives after initialized; ' +
     'an LMS that never answers: the work stays in the browser and reaches the LMS at the next launch', async () => {
    const run = async (name, body) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await body(page);
      assert.deepEqual(errors, [], name);
      await context.close();
    };
    const statusOf = (frame) => frame.evaluate(() => window.attnplayCmi5.status());
    const alertOf = (frame) => notice(frame, 'attnplay-lms-alert');
    // A: the fetch URL fails once, then the LRS answers 503 until the learner has answered twice and moved on.
    const passing = run('a start that succeeds later', async (page) => {
      const s = lms.launch({ actor: actorOf('learner-late') });
      s.fetchFailures = 1;
      lms.downFor.add(s.registration);
      const frame = await launchUnstarted(page, s);
      const told = await pollUntil(() => alertOf(frame), (n) => n && n.visible && n.text === CATALOG.en['lms.starting'], { what: 'the starting alert' });
      assert.equal(told.role, 'alert');
      await answer(page, frame, Q[0], false);
      await answer(page, frame, Q[0], true);
      await next(page, frame, 2);
      assert.equal(s.statements.length, 0, 'nothing reached the LRS yet');
      assert.equal((await statusOf(frame)).started, false);
      lms.downFor.delete(s.registration);
      const st = await pollUntil(() => statusOf(frame), (x) => x.started, { what: 'the late start', timeout: 30000, interval: 300 });
      assert.ok(st.start.attempts >= 3, `started at try ${st.start.attempts}`);
      await pollUntil(() => alertOf(frame), (n) => n && !n.visible, { what: 'the alert gone' });
      assert.equal((await lessonOf(frame)).step, 2, 'the learner stays where they moved to');
      await answer(page, frame, Q[1], true);
      await next(page, frame, 3);
      await answer(page, frame, Q[2], true);
      await next(page, frame, 4);
      await next(page, frame, 0);
      await pollUntil(async () => s.statements.map(verbOf), (v) => v.includes('failed'), { what: 'failed' });
      await leave(page, s);
      assert.deepEqual(sequence('a late start', s), ['initialized', 'answered', 'answered', 'answered', 'answered', 'completed', 'failed', 'terminated']);
      assert.deepEqual(s.statements.filter((x) => verbOf(x) === 'answered').map((x) => [x.object.id.split('/').pop(), x.result.success]),
        [[Q[0].id, false], [Q[0].id, true], [Q[1].id, true], [Q[2].id, true]], 'the answers given before the start, then after, in order');
      assert.deepEqual(s.statements.find((x) => verbOf(x) === 'failed').result.score, { scaled: 0.6667, raw: 2, min: 0, max: 3 },
        'the first answer, wrong, counts');
      assert.equal(s.fetches, 1, 'one token');
      assert.deepEqual(s.violations, [], 'the cmi5 rules');
    });
    // B: the LRS never answers this launch; the next launch in the registration takes what was done.
    const kept = run('a start that never succeeds', async (page) => {
      const actor = actorOf('learner-never');
      const registration = crypto.randomUUID();
      const s1 = lms.launch({ registration, actor });
      lms.downFor.add(registration);
      let frame = await launchUnstarted(page, s1);
      await pollUntil(() => alertOf(frame), (n) => n && n.visible && n.text === CATALOG.en['lms.starting'], { what: 'the starting alert (B)' });
      await answer(page, frame, Q[0], true);
      await next(page, frame, 2);
      const st = await pollUntil(() => statusOf(frame), (x) => x.start.gaveUp, { what: 'the last try', timeout: 45000, interval: 500 });
      assert.equal(st.started, false);
      assert.equal(st.start.attempts, 6, 'the first try and five more');
      await pollUntil(() => alertOf(frame), (n) => n && n.visible && n.text === CATALOG.en['lms.not_connected'], { what: 'the final notice' });
      const local = await frame.evaluate((key) => JSON.parse(localStorage.getItem(key) || 'null'), `attnplay-cmi5:${registration}:${lms.activityId}`);
      assert.deepEqual([local.pending, local.answers[Q[0].id].ok, local.step], [true, true, 2], 'the work is kept in this browser');
      await page.evaluate(() => { document.getElementById('au').src = 'about:blank'; });
      assert.equal(s1.statements.length, 0);
      lms.downFor.delete(registration);
      const s2 = lms.launch({ registration, actor });
      frame = await launch(page, s2);
      const first = await pollUntil(() => lessonOf(frame), (l) => l && l.step === 1, { what: 'step 1' });
      assert.deepEqual([first.answered, first.correct], [true, true], 'the answer given while the LMS never answered is shown');
      await pollUntil(() => Promise.resolve(lms.progress(s2)), (p) => p && p.answers && p.answers[Q[0].id], { what: 'the kept answer in the State API' });
      await leave(page, s2);
      assert.deepEqual(s2.violations, [], 'the cmi5 rules');
    });
    await Promise.all([passing, kept]);
  });

  it('the harness: the fetch URL gives its token once; the LRS takes only that token', async () => {
    const s = lms.launch({ actor: actorOf('learner-fetch') });
    const post = () => fetch(`${lms.origin}/lms/fetch?k=${s.fetchKey}`, { method: 'POST' }).then((r) => r.json());
    assert.deepEqual(await post(), { 'auth-token': s.token });
    assert.equal((await post())['error-code'], '1');
    const statements = (authorization) => fetch(`${lms.origin}/lrs/statements`, { method: 'POST', body: '[]',
      headers: { 'Content-Type': 'application/json', 'X-Experience-API-Version': '1.0.3', ...(authorization ? { Authorization: authorization } : {}) } });
    assert.equal((await statements('')).status, 401);
    assert.equal((await statements('Basic ' + Buffer.from('learner:guess').toString('base64'))).status, 401);
    assert.equal((await statements('Basic ' + s.token)).status, 200);
    assert.equal((await statements('Bearer ' + s.token)).status, 200);
  });
});
