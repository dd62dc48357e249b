// lms-scorm.test.mjs — a lesson exported with `attnplay package` runs inside a real SCORM runtime (scorm-again's
// Scorm12API and Scorm2004API on the parent page, as an LMS provides them) and records what the learner did: the
// package is unzipped and served, its manifest's launch address is opened in an iframe, the predictions are
// answered by clicks (one wrong, then right), the learner leaves mid-lesson, the lesson is relaunched with the CMI
// data the first session left and must continue at that step; completion, score, interactions, session time,
// suspend data (with the learner's own matrix in 2004; in 1.2, whose 4096 characters it does not fit, only the step and
// answers, and the console says so) and exit are read back from the runtime. Every xAPI statement reaches a small LRS on 127.0.0.1 (another
// origin, allowed by the package's CSP) with X-Experience-API-Version 1.0.3 and passes xapi-validation.
// Then what an LMS does beyond the usual path: a finished attempt relaunched with the same data stays finished, with
// its answers; review and browse modes record nothing and say so, no-credit says the attempt does not count; an LMS
// that stops answering is shown to the learner, the record waits in localStorage and reaches the LMS once it
// answers again; an LMS whose Initialize fails at launch is asked again, gets what the learner did meanwhile once it
// starts, and the learner is told when it never does; the largest lesson a file allows keeps every answer in SCORM
// 1.2's 4096 characters; nothing is committed after LMSFinish/Terminate.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createRequire } from 'node:module';
import { REPO_ROOT, SITE_DIR, click, itemRect, launchChromium, pollUntil, siteBuiltTest, startServer, waitFrames } from './helpers.mjs';
import { clickForDownload, openAt, openSharePanel } from './share_helpers.mjs';

const require = createRequire(import.meta.url);
const validateStatement = require('xapi-validation').default;
siteBuiltTest();

const CLI = process.env.ATTNPLAY_CLI || path.join(REPO_ROOT, 'build', 'native', 'attnplay');
const LESSON = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'lessons', '01-why-attention.json'), 'utf8'));
const Q = LESSON.steps.map((s) => s.task).filter((t) => t && t.kind === 'predict');  // steps 1–3: choice, choice, numeric
const letter = (i) => String.fromCharCode(97 + i);
// The teacher's example lesson docs/lessons.md points to (one choice prediction).
const TEACHER_FILE = path.join(REPO_ROOT, 'data', 'examples', 'my-lesson.json');
const TEACHER = JSON.parse(fs.readFileSync(TEACHER_FILE, 'utf8'));
// The largest lesson a file allows: 64 steps, each a choice prediction, every id at its longest (64 characters).
const pad64 = (s) => (s + '-' + 'x'.repeat(64)).slice(0, 64);
const both = (en, hi) => ({ en, 'hi-Latn': hi || en });
const BIG = { id: pad64('big-lesson'), title: both('Sixty-four predictions', 'Chausath predictions'),
  summary: both('The largest lesson a file may hold.', 'Sabse bada lesson.'),
  steps: Array.from({ length: 64 }, (_, i) => ({
    id: pad64('s' + i), text: both('Step ' + (i + 1) + '.'), state: { preset: 'default', d_k: 4, scale: true }, panels: ['controls'],
    task: { kind: 'predict', id: pad64('q' + i),
      question: both('Does scaling divide the scores by the square root of d_k?', 'Kya scaling scores ko d_k ke square root se divide karta hai?'),
      asks: ['dk_sweep'], choices: [both('Yes', 'Haan'), both('No', 'Nahi')], answer: 0,
      feedback: ['', both('It does divide them.', 'Woh divide karta hai.')], hint: both('Look at the formula.', 'Formula dekho.'),
      reveal: { d_k: 4 }, explain: both('Yes: the scores are divided.', 'Haan: scores divide hote hain.') } })) };
const CATALOG = { en: JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'strings', 'en.json'), 'utf8')),
  'hi-Latn': JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'data', 'strings', 'hi-Latn.json'), 'utf8')) };
// suspend_data's answers by question id, in either format: 2 ([question index, n, given, ok + 2·first + 4·tries]
// against the lesson's predictions) or 1 ({id: {n, r, ok, first, tries}}).
function keptAnswers(suspend, questionIds) {
  const kept = JSON.parse(suspend);
  if (kept.v === 1) return kept.a || {};
  const out = {};
  for (const [q, n, g, flags] of kept.a || [])
    out[typeof q === 'number' ? questionIds[q] : q] = { n, g, ok: !!(flags & 1), first: !!(flags & 2), tries: flags >> 2 };
  return out;
}
const QIDS = Q.map((t) => t.id);
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
  '.svg': 'image/svg+xml', '.json': 'application/json', '.xml': 'application/xml' };

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

describe('a SCORM package in an LMS', { timeout: 290000 }, () => {
  let tmp, site, lrs, sitePort, lrsPort, browser;
  const statements = [];  // {headers, body}

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attnplay-lms-'));
    lrs = http.createServer((req, res) => {
      const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Content-Type, X-Experience-API-Version, Authorization',
        'Access-Control-Allow-Methods': 'POST, OPTIONS' };
      if (req.method === 'OPTIONS') { res.writeHead(204, cors); res.end(); return; }
      let body = '';
      req.on('data', (d) => { body += d; });
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/xapi/statements') {
          statements.push({ headers: req.headers, body: JSON.parse(body) });
          res.writeHead(200, { ...cors, 'Content-Type': 'application/json' });
          res.end('[]');
        } else { res.writeHead(404, cors); res.end(); }
      });
    });
    lrsPort = await listen(lrs);
    for (const v of ['1.2', '2004']) {
      const zip = path.join(tmp, `course-${v}.zip`);
      execFileSync(CLI, ['package', '--lesson', 'why-attention', '--scorm', v, '--site', SITE_DIR, '--out', zip,
        '--xapi-endpoint', `http://127.0.0.1:${lrsPort}/xapi/`]);
      execFileSync('unzip', ['-q', zip, '-d', path.join(tmp, `pkg${v}`)]);
    }
    // A teacher's own lesson file, packaged as it is (no catalog, no built-in id).
    const fileZip = path.join(tmp, 'course-file.zip');
    execFileSync(CLI, ['package', '--lesson', TEACHER_FILE, '--scorm', '2004', '--site', SITE_DIR, '--out', fileZip]);
    execFileSync('unzip', ['-q', fileZip, '-d', path.join(tmp, 'pkgfile')]);
    const bigFile = path.join(tmp, 'big.json');
    fs.writeFileSync(bigFile, JSON.stringify(BIG));
    execFileSync(CLI, ['package', '--lesson', bigFile, '--scorm', '1.2', '--site', SITE_DIR, '--out', path.join(tmp, 'course-big.zip')]);
    execFileSync('unzip', ['-q', path.join(tmp, 'course-big.zip'), '-d', path.join(tmp, 'pkgbig')]);
    const sa = path.join(REPO_ROOT, 'node_modules', 'scorm-again', 'dist');
    site = http.createServer((req, res) => {
      const url = new URL(req.url, 'http://x');
      let file = null;
      if (url.pathname === '/parent.html') {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<!doctype html><html><head><script src="/sa/scorm12.js"></script><script src="/sa/scorm2004.js"></script>' +
          '</head><body style="margin:0"></body></html>');
        return;
      }
      if (url.pathname.startsWith('/sa/')) file = path.join(sa, path.basename(url.pathname));
      const m = /^\/(pkg(?:1\.2|2004|file|big))\/(.*)$/.exec(url.pathname);
      if (m) file = path.join(tmp, m[1], path.normalize(m[2] || 'index.html'));
      if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
      res.end(fs.readFileSync(file));
    });
    sitePort = await listen(site);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    site?.close();
    lrs?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  // The SCO's launch address, as the manifest names it.
  function launchHref(v, dir = `pkg${v}`, lesson = 'why-attention') {
    const manifest = fs.readFileSync(path.join(tmp, dir, 'imsmanifest.xml'), 'utf8');
    const m = new RegExp(`<resource identifier="sco-${lesson}"[^>]* href="([^"]+)"`).exec(manifest);
    assert.ok(m, 'the manifest names the SCO\'s launch address');
    return m[1].replace(/&amp;/g, '&');
  }

  // The LMS window: the runtime with `cmi` loaded, then the SCO in a full-size iframe at (0, 0). The SCO talks to
  // the runtime through a wrapper that logs every call (window.calls) and, while window.broken is "false" or
  // "throw", behaves as an expired session: SetValue and Commit answer "false" (GetLastError 101) or throw; while
  // window.initBroken is true, Initialize answers "false" (counted in window.initFailures), as a session not ready yet.
  // `query` is added to the launch address (lang=hi-Latn); `initBroken` sets window.initBroken before the launch.
  async function launch(page, v, cmi, dir = `pkg${v}`, lesson = 'why-attention', query = '', { initBroken = false } = {}) {
    await page.goto(`http://127.0.0.1:${sitePort}/parent.html`);
    await page.evaluate(({ v, cmi, src, initBroken }) => {
      const real = v === '1.2' ? new window.Scorm12API({ autocommit: false, logLevel: 5 })
        : new window.Scorm2004API({ autocommit: false, logLevel: 5 });
      if (cmi) real.loadFromJSON(cmi);
      window.runtime = real;
      window.calls = [];
      window.broken = '';
      window.initBroken = initBroken;
      window.initFailures = 0;
      const lms = {};
      const names = v === '1.2' ? ['LMSInitialize', 'LMSFinish', 'LMSGetValue', 'LMSSetValue', 'LMSCommit', 'LMSGetLastError', 'LMSGetErrorString', 'LMSGetDiagnostic']
        : ['Initialize', 'Terminate', 'GetValue', 'SetValue', 'Commit', 'GetLastError', 'GetErrorString', 'GetDiagnostic'];
      for (const name of names) {
        lms[name] = (...args) => {
          window.calls.push(name);
          if (window.initBroken && /Initialize$/.test(name)) {
            window.initFailures++;
            window.failedCall = true;
            return 'false';
          }
          if (window.broken && /SetValue|Commit/.test(name)) {
            if (window.broken === 'throw') throw new Error('the LMS session expired');
            window.failedCall = true;
            return 'false';
          }
          if (/GetLastError/.test(name) && window.failedCall) return '101';
          window.failedCall = false;
          return real[name](...args);
        };
      }
      window[v === '1.2' ? 'API' : 'API_1484_11'] = lms;
      const f = document.createElement('iframe');
      f.id = 'sco';
      f.style.cssText = 'position:fixed;left:0;top:0;width:1280px;height:800px;border:0';
      f.src = src;
      document.body.appendChild(f);
    }, { v, cmi, src: `/${dir}/${launchHref(v, dir, lesson)}${query ? '&' + query : ''}`, initBroken });
    const frame = await pollUntil(async () => page.frames().find((f) => f.url().includes(`/${dir}/`)), (f) => !!f,
      { what: 'the SCO frame', timeout: 10000 });
    await frame.waitForFunction(() => window.attnplayLms && window.attnplayLms.status().started, null, { timeout: 60000, polling: 100 });
    return frame;
  }
  const lms = (page) => page.evaluate(() => window.runtime.renderCMIToJSONObject().cmi);
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
  // Leaving the page (the iframe navigates away): pagehide ends the session.
  async function leave(page, v, exit) {
    await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
    return pollUntil(() => lms(page, v), (c) => (v === '1.2' ? c.core.exit : c.exit) === exit &&
      (v === '1.2' ? c.core.session_time : c.session_time) !== '', { what: `exit "${exit}"`, timeout: 10000 });
  }

  for (const v of ['1.2', '2004']) {
    it(`SCORM ${v}: interactions, score, resume at the step left, completion`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      const logs = [];
      page.on('console', (m) => logs.push(m.text()));
      const sent = statements.length;
      const learner = v === '1.2' ? { core: { student_id: 'learner-12', student_name: 'Doe, Jane' }, student_data: { mastery_score: '60' } }
        : { learner_id: 'learner-2004', learner_name: 'Roe, Sam', scaled_passing_score: '0.8' };

      // First session: step 1 wrong then right, step 2 right, then leave at step 3.
      let frame = await launch(page, v, learner);
      assert.equal((await frame.evaluate(() => window.attnplayLms.status())).version, v);
      await answer(page, frame, Q[0], false);
      await answer(page, frame, Q[0], true);
      await next(page, frame, 2);
      await answer(page, frame, Q[1], true);
      await next(page, frame, 3);
      // The learner's own matrix: a state whose share fragment is longer than SCORM 1.2's 4096 characters.
      let seed = 7;
      const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return Math.round(40000 * seed / 2147483648) / 10000 - 2; };
      const X = Array.from({ length: 24 }, () => Array.from({ length: 32 }, rand));
      assert.deepEqual(await frame.evaluate((x) => window.attnplay.setState({ scenario: { X: x } }), X), { ok: true });
      await frame.waitForFunction(() => location.hash.length > 4096, null, { timeout: 5000, polling: 50 });
      const first = await leave(page, v, 'suspend');
      const kept = JSON.parse(first.suspend_data);
      const keptA = keptAnswers(first.suspend_data, QIDS);
      assert.equal(kept.v, 2, 'the compact format');
      assert.equal(kept.s, 3, 'suspend_data holds the step');
      if (v === '1.2') {
        assert.ok(first.suspend_data.length <= 4096, `suspend_data fits 1.2's limit (${first.suspend_data.length})`);
        assert.equal(kept.f, undefined, 'the state that does not fit is left out');
        assert.equal(keptA[Q[1].id].ok, true, 'the answers are kept');
        assert.ok(logs.some((l) => /longer than this LMS keeps \(4096\): only the step and the answers are kept/.test(l)), 'the console says so');
      } else {
        assert.match(kept.f, /^#s=1\./, 'and the playground\'s state as a share fragment');
      }
      assert.equal(keptA[Q[0].id].first, false, 'a wrong first answer is not right at the first try');
      assert.equal(keptA[Q[0].id].tries, 2);
      assert.equal(keptA[Q[1].id].first, true);
      const i0 = first.interactions['0'], i1 = first.interactions['1'];
      assert.equal(i0.id, `why-attention-${Q[0].id}`);
      assert.equal(i0.type, 'choice');
      assert.equal(i0.correct_responses['0'].pattern, letter(Q[0].answer));
      assert.equal(i0.result, 'correct', 'the interaction ends with the right answer');
      assert.equal(i1.id, `why-attention-${Q[1].id}`);
      if (v === '1.2') {
        assert.equal(first.core.lesson_location, 'why-attention/3');
        assert.equal(first.core.lesson_status, 'incomplete');
        assert.equal(first.core.score.raw, '33');
        assert.equal(i0.student_response, letter(Q[0].answer));
        assert.match(i0.time, /^\d\d:\d\d:\d\d$/);
        assert.match(first.core.session_time, /^\d+:\d\d:\d\d(\.\d+)?$/);
      } else {
        assert.equal(first.location, 'why-attention/3');
        assert.equal(first.completion_status, 'incomplete');
        // raw on 0–100 (1 of 3 first-try answers), which a gradebook reads as the grade; no scaled score and no
        // success status before the lesson completes, so the LMS cannot derive "failed" mid-lesson.
        assert.equal(first.score.raw, '33.33');
        assert.equal(first.score.max, '100');
        assert.equal(first.score.scaled, '');
        assert.equal(first.success_status, 'unknown');
        assert.equal(i0.learner_response, letter(Q[0].answer));
        assert.match(i0.latency, /^PT/);
        assert.match(i0.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\dZ$/, 'a timestamp with its zone');
        assert.match(first.session_time, /^PT/);
      }

      // Relaunch with what the LMS kept (entry "resume"): it opens at step 3 and finishes there.
      const resumed = JSON.parse(JSON.stringify(first));
      if (v === '1.2') resumed.core.entry = 'resume'; else resumed.entry = 'resume';
      frame = await launch(page, v, resumed);
      assert.equal((await lessonOf(frame)).step, 3, 'the relaunch continues at the step the learner left');
      const resumedX = (await frame.evaluate(() => window.attnplay.getState())).scenario?.X;
      const X32 = X.map((row) => row.map(Math.fround));  // the state holds float32
      if (v === '2004') assert.deepEqual(resumedX, X32, 'with the learner\'s own matrix');
      else assert.notDeepEqual(resumedX, X32, '1.2 could not keep the matrix');
      await answer(page, frame, Q[2], true);
      await next(page, frame, 4);
      await next(page, frame, 0);
      await pollUntil(() => lms(page, v), (c) => (v === '1.2' ? c.core.lesson_status : c.completion_status) !== 'incomplete',
        { what: 'completion' });
      const done = await leave(page, v, v === '1.2' ? '' : 'normal');
      const i2 = done.interactions['2'];
      assert.equal(i2.id, `why-attention-${Q[2].id}`);
      assert.equal(i2.type, 'numeric');
      assert.equal(i2.result, 'correct');
      if (v === '1.2') {
        assert.equal(done.core.lesson_status, 'passed', '2 of 3 at the first try passes a mastery score of 60');
        assert.equal(done.core.score.raw, '67');
        assert.equal(i2.correct_responses['0'].pattern, String(Q[2].number));
      } else {
        assert.equal(done.completion_status, 'completed');
        assert.equal(done.success_status, 'failed', '2 of 3 at the first try fails a passing score of 0.8');
        assert.equal(done.score.scaled, '0.6667');
        assert.equal(done.score.raw, '66.67');
        // Moodle's grade: (raw − min) / (max − min) of the grade's maximum: 66.67 %, the same as scaled.
        assert.ok(Math.abs((+done.score.raw - +done.score.min) / (+done.score.max - +done.score.min) - +done.score.scaled) < 1e-4);
        assert.equal(i2.correct_responses['0'].pattern, `${Q[2].number - Q[2].tolerance}[:]${Q[2].number + Q[2].tolerance}`);
      }
      assert.deepEqual(errors, []);

      // xAPI: every statement of this run is valid, versioned, from the LMS's learner.
      const mine = await pollUntil(async () => statements.slice(sent), (s) => s.some((x) => x.body.verb.id.endsWith('/completed')),
        { what: 'the completed statement' });
      const verbs = mine.map((s) => s.body.verb.id.split('/').pop());
      assert.equal(verbs.filter((x) => x === 'answered').length, 4, 'one statement per answer given');
      assert.ok(verbs.includes('progressed'));
      for (const s of mine) {
        assert.equal(s.headers['x-experience-api-version'], '1.0.3');
        assert.deepEqual(validateStatement(s.body).map((w) => `${w.path.join('.')}: ${w.name}`), [], JSON.stringify(s.body));
        assert.equal(s.body.actor.account.name, v === '1.2' ? 'learner-12' : 'learner-2004');
      }
      const wrong = mine.find((s) => s.body.verb.id.endsWith('/answered') && s.body.result.success === false);
      assert.equal(wrong.body.result.response, letter((Q[0].answer + 1) % Q[0].choices.length));
      const completed = mine.find((s) => s.body.verb.id.endsWith('/completed'));
      assert.equal(completed.body.result.score.raw, 2);
      await context.close();
    });
  }

  for (const v of ['1.2', '2004']) {
    it(`SCORM ${v}: a question answered before leaving opens answered after the relaunch; no second answer reaches the record`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      // Step 1 wrong then right, step 2 wrong once, and the learner leaves on step 2 without pressing Next.
      let frame = await launch(page, v, null);
      await answer(page, frame, Q[0], false);
      await answer(page, frame, Q[0], true);
      await next(page, frame, 2);
      await answer(page, frame, Q[1], false);
      const first = await leave(page, v, 'suspend');
      const resumed = JSON.parse(JSON.stringify(first));
      if (v === '1.2') resumed.core.entry = 'resume'; else resumed.entry = 'resume';
      frame = await launch(page, v, resumed);
      let l = await lessonOf(frame);
      assert.equal(l.step, 2);
      assert.equal(l.attempts, 1, 'step 2 keeps its one wrong answer: one try left, not a fresh first try');
      assert.equal(l.answered, false);
      // Back: step 1 opens answered (verdict and explanation on the canvas and in the parallel DOM), Next allowed.
      await clickItem(page, frame, 'lesson:back');
      l = await pollUntil(() => lessonOf(frame), (x) => x && x.step === 1, { what: 'step 1' });
      assert.equal(l.answered, true, 'step 1 opens answered');
      assert.equal(l.correct, true);
      const dom = await frame.evaluate(() => window.attnplay.a11y.description().then((d) => d.lesson));
      assert.equal(dom.answered, true, 'the parallel DOM shows it answered');
      assert.ok(dom.verdict && dom.explain, 'with its verdict and explanation');
      // Another click on a choice is no answer: the interaction record is what the first session left.
      await clickItem(page, frame, `lesson:choice:${(Q[0].answer + 1) % Q[0].choices.length}`);
      await frames(frame, 3);
      assert.equal((await lessonOf(frame)).attempts, 2);
      const now = await lms(page);
      assert.deepEqual(now.interactions['0'], first.interactions['0'], 'the first question\'s record is unchanged');
      if (v === '2004') {
        // The record describes the question in the words the learner read (rendered, never a template).
        assert.ok(first.interactions['0'].description.length > 10, first.interactions['0'].description);
        assert.doesNotMatch(first.interactions['0'].description, /\{[a-z_]+\}|^why-attention/);
      }
      assert.deepEqual(errors, []);
      await context.close();
    });
  }

  it('SCORM 2004: a teacher\'s own lesson file, packaged, opens inside the LMS and is recorded', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const frame = await launch(page, '2004', { learner_id: 'learner-file', learner_name: 'Poe, Ada' }, 'pkgfile', TEACHER.id);
    const opened = await lessonOf(frame);
    assert.equal(opened.id, TEACHER.id, 'the file\'s lesson is open, not a built-in one');
    const steps = TEACHER.steps.map((st) => st.task);
    const asked = steps.findIndex((t) => t && t.kind === 'predict');
    for (let step = 2; step <= asked + 1; ++step) await next(page, frame, step);
    await answer(page, frame, steps[asked], false);
    await answer(page, frame, steps[asked], true);
    for (let step = asked + 2; step <= steps.length; ++step) await next(page, frame, step);
    await next(page, frame, 0);  // the last step's Next completes the lesson
    const done = await pollUntil(() => lms(page, '2004'), (c) => c.completion_status === 'completed', { what: 'completion' });
    const i0 = done.interactions['0'];
    assert.equal(i0.id, `${TEACHER.id}-${steps[asked].id}`);
    assert.equal(i0.type, 'choice');
    assert.equal(i0.learner_response, letter(steps[asked].answer));
    assert.equal(i0.result, 'correct');
    assert.equal(done.score.raw, '0', 'right only at the second try: no first-try point');
    assert.equal(done.score.max, '100');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('without an LMS: nothing to record into, an anonymous learner in the xAPI statements', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const sent = statements.length;
    await page.goto(`http://127.0.0.1:${sitePort}/pkg2004/${launchHref('2004')}`);
    await page.waitForFunction(() => window.attnplayLms && window.attnplayLms.status().started, null, { timeout: 60000, polling: 100 });
    const status = await page.evaluate(() => window.attnplayLms.status());
    assert.equal(status.connected, false);
    assert.match(status.warnings.join(' '), /no LMS API/);
    const frame = page.mainFrame();
    await answer(page, frame, Q[0], true);
    const got = await pollUntil(async () => statements.slice(sent), (x) => x.some((st) => st.body.verb.id.endsWith('/answered')),
      { what: 'the answered statement' });
    const answered = got.find((st) => st.body.verb.id.endsWith('/answered')).body;
    assert.match(answered.actor.account.name, /^anonymous-[0-9a-f-]{36}$/);
    assert.equal(answered.result.success, true);
    assert.equal(answered.object.definition.interactionType, 'choice');
    assert.deepEqual(validateStatement(answered), []);
    await context.close();
  });

  it('Share → Download for an LMS… makes the SCORM 2004 package of the open lesson in the page', async () => {
    const server = await startServer();
    const { context, page, errors } = await openAt(browser, server.origin + '/?lesson=softmax&step=2');
    try {
      await openSharePanel(page);
      await waitFrames(page, 2);
      const r = await itemRect(page, 'lms:package');
      await click(page, { x: r.x + r.w / 2, y: r.y + r.h / 2 });
      const v = await itemRect(page, 'lms:scorm2004');
      await click(page, { x: v.x + v.w / 2, y: v.y + v.h / 2 });
      await waitFrames(page, 2);
      const got = await clickForDownload(page, 'lms:download', click);
      assert.equal(got.name, 'attnplay-softmax-scorm2004.zip');
      const dir = path.join(tmp, 'from-page');
      execFileSync('unzip', ['-q', got.path, '-d', dir]);
      const manifest = fs.readFileSync(path.join(dir, 'imsmanifest.xml'), 'utf8');
      assert.match(manifest, /<schemaversion>2004 4th Edition<\/schemaversion>/);
      assert.match(manifest, /adlcp:scormType="sco" href="index.html\?lesson=softmax&amp;lms=1"/);
      for (const f of ['index.html', 'attnplay.wasm', 'attnplay-lms.js', 'attnplay-a11y.js',
        ...(fs.existsSync(path.join(SITE_DIR, 'attnplay.deferred.wasm')) ? ['attnplay.deferred.wasm'] : [])])
        assert.deepEqual(fs.readFileSync(path.join(dir, f)), fs.readFileSync(path.join(SITE_DIR, f)), `${f} is the page's own`);
      assert.deepEqual(errors.page, []);
    } finally {
      await context.close();
      await server.stop();
    }
  });

  it('Share → Download for an LMS… → cmi5 makes the cmi5 course package of the open lesson in the page', async () => {
    const server = await startServer();
    const { context, page, errors } = await openAt(browser, server.origin + '/?lesson=softmax&step=2');
    try {
      await openSharePanel(page);
      await waitFrames(page, 2);
      const r = await itemRect(page, 'share:lms_package');
      await click(page, { x: r.x + r.w / 2, y: r.y + r.h / 2 });
      const v = await itemRect(page, 'share:lms_cmi5');
      await click(page, { x: v.x + v.w / 2, y: v.y + v.h / 2 });
      await waitFrames(page, 2);
      const got = await clickForDownload(page, 'lms:download', click);
      assert.equal(got.name, 'attnplay-softmax-cmi5.zip');
      const dir = path.join(tmp, 'from-page-cmi5');
      execFileSync('unzip', ['-q', got.path, '-d', dir]);
      assert.ok(!fs.existsSync(path.join(dir, 'imsmanifest.xml')), 'no SCORM manifest in a cmi5 package');
      const course = fs.readFileSync(path.join(dir, 'cmi5.xml'), 'utf8');
      assert.match(course, /<courseStructure xmlns="https:\/\/w3id.org\/xapi\/profiles\/cmi5\/v1\/CourseStructure.xsd">/);
      assert.match(course, /moveOn="CompletedAndPassed"/);
      assert.match(course, /<url>index.html\?lesson=softmax<\/url>/);
      for (const f of ['index.html', 'attnplay.wasm', 'attnplay-cmi5.js', 'attnplay-lms-notices.js'])
        assert.ok(fs.existsSync(path.join(dir, f)), `${f} is in the package`);
      assert.deepEqual(errors.page, []);
    } finally {
      await context.close();
      await server.stop();
    }
  });

  // The notices the adapter shows over the page (attnplay-lms.js): the mode/credit note and the failure alert.
  const notice = (frame, id) => frame.evaluate((id) => {
    const el = document.getElementById(id);
    return el ? { text: el.textContent, role: el.getAttribute('role'), visible: !el.hidden && el.getBoundingClientRect().height > 0 } : null;
  }, id);
  const v1Record = () => JSON.stringify({ v: 1, l: 'why-attention', s: 4, d: true, a: Object.fromEntries(Q.map((t, i) =>
    [t.id, { n: i, r: t.choices ? letter(t.answer) : String(t.number), ok: true, first: true, tries: 1, t: 0 }])) });

  for (const v of ['1.2', '2004']) {
    it(`SCORM ${v}: a finished attempt relaunched with the same data stays finished, with its answers (format 1 read)`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      // All three right at the first try, completed and passed; relaunched without "resume" (a new session on the
      // same record, as LMSs that keep one attempt do).
      const cmi = v === '1.2'
        ? { core: { student_id: 'learner-again', lesson_status: 'passed', lesson_location: 'why-attention/4', score: { raw: '100', min: '0', max: '100' } },
          suspend_data: v1Record(), student_data: { mastery_score: '80' } }
        : { learner_id: 'learner-again', completion_status: 'completed', success_status: 'passed', location: 'why-attention/4',
          score: { raw: '100', min: '0', max: '100', scaled: '1' }, suspend_data: v1Record(), scaled_passing_score: '0.8' };
      const frame = await launch(page, v, cmi);
      // The kept answers open their steps answered: no second go at a question, so no record to overwrite.
      const opened = await pollUntil(() => lessonOf(frame), (l) => l && l.answered, { what: 'step 1 opens answered' });
      assert.deepEqual([opened.correct, opened.attempts], [true, 1]);
      await clickItem(page, frame, `lesson:choice:${(Q[0].answer + 1) % Q[0].choices.length}`);
      assert.equal((await lessonOf(frame)).attempts, 1, 'a click on another choice is no answer');
      await next(page, frame, 2);
      const after = await leave(page, v, v === '1.2' ? '' : 'normal');
      if (v === '1.2') {
        assert.equal(after.core.lesson_status, 'passed', 'passed stays passed');
        assert.equal(after.core.score.raw, '100', 'the score is not lowered');
      } else {
        assert.equal(after.completion_status, 'completed', 'completed stays completed');
        assert.equal(after.success_status, 'passed', 'passed stays passed');
        assert.equal(after.score.raw, '100', 'the score is not lowered');
      }
      const kept = keptAnswers(after.suspend_data, QIDS);
      assert.equal(JSON.parse(after.suspend_data).d, true);
      for (const t of Q) assert.equal(kept[t.id] && kept[t.id].first, true, `${t.id} kept, right at the first try`);
      await context.close();
    });
  }

  it('SCORM 2004 review and 1.2 browse record nothing and say so (in Hinglish too); no-credit records and says it does not count', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    for (const [v, cmi, lang] of [['2004', { learner_id: 'learner-review', mode: 'review' }, 'hi-Latn'],
      ['1.2', { core: { student_id: 'learner-browse', lesson_mode: 'browse' } }, 'en']]) {
      const frame = await launch(page, v, cmi, `pkg${v}`, 'why-attention', lang === 'en' ? '' : `lang=${lang}`);
      await answer(page, frame, Q[0], true);
      await next(page, frame, 2);
      const shown = await pollUntil(() => notice(frame, 'attnplay-lms-mode'), (n) => n && n.visible, { what: `the ${v} mode notice` });
      assert.equal(shown.text, CATALOG[lang]['lms.not_recorded'], `told in ${lang}`);
      assert.equal((await frame.evaluate(() => window.attnplayLms.status())).recording, false);
      await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
      await pollUntil(() => page.evaluate(() => window.calls), (c) => c.some((x) => /Terminate|LMSFinish/.test(x)), { what: 'the end of the session' });
      const calls = await page.evaluate(() => window.calls);
      assert.deepEqual(calls.filter((x) => /SetValue|Commit/.test(x)), [], `SCORM ${v}: nothing written`);
      const c = await lms(page);
      assert.equal(Object.keys(c.interactions || {}).length, 0);
      assert.equal(c.suspend_data, '');
    }
    // no-credit: the attempt is recorded as usual (the LMS decides what no-credit means for it) and the learner is told.
    const frame = await launch(page, '2004', { learner_id: 'learner-nocredit', credit: 'no-credit' });
    const shown = await pollUntil(() => notice(frame, 'attnplay-lms-mode'), (n) => n && n.visible, { what: 'the no-credit notice' });
    assert.equal(shown.text, CATALOG.en['lms.no_credit']);
    await answer(page, frame, Q[0], true);
    const c = await pollUntil(() => lms(page), (x) => x.interactions && x.interactions['0'], { what: 'the no-credit interaction' });
    assert.equal(c.interactions['0'].result, 'correct');
    await context.close();
  });

  for (const [v, lang, how] of [['2004', 'en', 'false'], ['1.2', 'hi-Latn', 'throw']]) {
    it(`SCORM ${v}: an LMS that answers ${how === 'false' ? '"false"' : 'by throwing'} is shown (${lang}); the record waits in localStorage and is sent again`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      const learner = v === '1.2' ? { core: { student_id: 'learner-fail' } } : { learner_id: 'learner-fail' };
      const frame = await launch(page, v, learner, `pkg${v}`, 'why-attention', lang === 'en' ? '' : `lang=${lang}`);
      const alertOf = () => notice(frame, 'attnplay-lms-alert');
      const local = () => frame.evaluate(() => JSON.parse(localStorage.getItem('attnplay-lms:why-attention:learner-fail') || 'null'));
      await page.evaluate((how) => { window.broken = how; }, how);
      await answer(page, frame, Q[0], true);
      let shown = await pollUntil(alertOf, (n) => n && n.visible, { what: 'the alert' });
      assert.equal(shown.role, 'alert');
      assert.equal(shown.text, CATALOG[lang]['lms.failing']);
      const kept = await local();
      assert.equal(kept.pending, true, 'kept in the browser, not yet recorded');
      assert.equal(kept.a[Q[0].id].ok, true);
      assert.equal(Object.keys((await lms(page)).interactions || {}).length, 0, 'the LMS has nothing');
      // The LMS answers again: the timer sends the record and the learner is told.
      await page.evaluate(() => { window.broken = ''; });
      shown = await pollUntil(alertOf, (n) => n && n.text === CATALOG[lang]['lms.recorded_again'], { what: 'recorded again (timer)', timeout: 12000 });
      assert.equal(shown.visible, true);
      let c = await lms(page);
      assert.equal(c.interactions['0'].result, 'correct');
      assert.equal(keptAnswers(c.suspend_data, QIDS)[Q[0].id].first, true);
      assert.equal((await local()).pending, false);
      // It fails again on a step; the next answer, once the LMS answers, sends both.
      await page.evaluate((how) => { window.broken = how; }, how);
      await next(page, frame, 2);
      await pollUntil(alertOf, (n) => n && n.text === CATALOG[lang]['lms.failing'], { what: 'the alert again' });
      await page.evaluate(() => { window.broken = ''; });
      await answer(page, frame, Q[1], true);
      await pollUntil(alertOf, (n) => n && n.text === CATALOG[lang]['lms.recorded_again'], { what: 'recorded again (answer)', timeout: 3000 });
      c = await lms(page);
      assert.equal(c.interactions['1'].result, 'correct');
      assert.equal(v === '1.2' ? c.core.lesson_location : c.location, 'why-attention/2');
      assert.deepEqual(errors, []);
      await context.close();
    });
  }

  for (const [v, lang] of [['2004', 'en'], ['1.2', 'hi-Latn']]) {
    it(`SCORM ${v}: an LMS whose Initialize fails at launch is asked again; an answer given meanwhile reaches it once it starts (${lang})`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      const sent = statements.length;
      const learner = v === '1.2' ? { core: { student_id: 'learner-late' }, student_data: { mastery_score: '60' } }
        : { learner_id: 'learner-late', scaled_passing_score: '0.6' };
      const frame = await launch(page, v, learner, `pkg${v}`, 'why-attention', lang === 'en' ? '' : `lang=${lang}`, { initBroken: true });
      const alertOf = () => notice(frame, 'attnplay-lms-alert');
      const status = () => frame.evaluate(() => window.attnplayLms.status());
      const shown = await pollUntil(alertOf, (n) => n && n.visible, { what: 'the alert' });
      assert.equal(shown.role, 'alert');
      assert.equal(shown.text, CATALOG[lang]['lms.starting'], 'the learner is told recording has not started and is tried again');
      await pollUntil(() => page.evaluate(() => window.initFailures), (n) => n >= 2, { what: 'two failed tries', timeout: 8000 });
      await answer(page, frame, Q[0], true);
      let st = await status();
      assert.equal(st.connected, false);
      assert.equal(st.initialize.retrying, true);
      assert.equal(Object.keys((await lms(page)).interactions || {}).length, 0, 'the LMS has nothing yet');
      assert.deepEqual((await page.evaluate(() => window.calls)).filter((x) => /SetValue|Commit/.test(x)), [], 'nothing written before the session starts');
      const kept = await frame.evaluate(() => JSON.parse(localStorage.getItem('attnplay-lms:why-attention::not-started') || 'null'));
      assert.equal(kept && kept.pending, true, 'the answer is kept in this browser meanwhile');
      assert.equal(kept.a[Q[0].id].ok, true);

      // The LMS starts the session at the next try: the answer given meanwhile is written and committed.
      await page.evaluate(() => { window.initBroken = false; });
      const c = await pollUntil(() => lms(page), (x) => x.interactions && x.interactions['0'], { what: 'the interaction after the late start', timeout: 20000 });
      assert.equal(c.interactions['0'].id, `why-attention-${Q[0].id}`);
      assert.equal(c.interactions['0'].result, 'correct');
      assert.equal(keptAnswers(c.suspend_data, QIDS)[Q[0].id].first, true);
      st = await status();
      assert.equal(st.connected, true);
      assert.equal(st.initialize.retrying, false);
      assert.equal(st.initialize.attempts, (await page.evaluate(() => window.initFailures)) + 1);
      assert.ok(st.initialize.attempts >= 3, `failed twice, then started (${st.initialize.attempts} tries)`);
      await pollUntil(alertOf, (n) => n && !n.visible, { what: 'the alert gone' });
      // The statements made meanwhile go out as the LMS's learner.
      const early = await pollUntil(async () => statements.slice(sent), (x) => x.some((s) => s.body.verb.id.endsWith('/answered')),
        { what: 'the held answered statement' });
      for (const s of early) assert.equal(s.body.actor.account.name, 'learner-late');

      // The rest of the lesson: 2 of 3 at the first try.
      await next(page, frame, 2);
      await answer(page, frame, Q[1], false);
      await answer(page, frame, Q[1], true);
      await next(page, frame, 3);
      await answer(page, frame, Q[2], true);
      await next(page, frame, 4);
      await next(page, frame, 0);
      const done = await pollUntil(() => lms(page), (x) => (v === '1.2' ? x.core.lesson_status : x.completion_status) !== 'incomplete',
        { what: 'completion' });
      assert.equal(Object.keys(done.interactions).length, 3);
      if (v === '1.2') {
        assert.equal(done.core.lesson_status, 'passed', '2 of 3 at the first try passes a mastery score of 60');
        assert.equal(done.core.score.raw, '67');
      } else {
        assert.equal(done.completion_status, 'completed');
        assert.equal(done.success_status, 'passed', '2 of 3 at the first try passes a passing score of 0.6');
        assert.equal(done.score.scaled, '0.6667');
      }
      assert.deepEqual(errors, []);
      await context.close();
    });
  }

  it('SCORM 2004: a relaunch whose Initialize fails at first resumes at the kept step once the session starts, if the learner has not moved', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // Steps 1 and 2 right at the first try in an earlier session, left at step 3.
    const suspend = JSON.stringify({ v: 2, l: 'why-attention', s: 3, d: false, a: [[0, 0, Q[0].answer, 7], [1, 1, Q[1].answer, 7]] });
    const cmi = { learner_id: 'learner-late-resume', entry: 'resume', location: 'why-attention/3', suspend_data: suspend,
      completion_status: 'incomplete', score: { raw: '66.67', min: '0', max: '100' },
      interactions: Object.fromEntries([0, 1].map((i) => [String(i), { id: `why-attention-${Q[i].id}`, type: 'choice',
        learner_response: letter(Q[i].answer), result: 'correct' }])) };
    const frame = await launch(page, '2004', cmi, 'pkg2004', 'why-attention', '', { initBroken: true });
    assert.equal((await lessonOf(frame)).step, 1, 'the page opens at step 1 before the LMS answers');
    await page.evaluate(() => { window.initBroken = false; });
    await pollUntil(() => lessonOf(frame), (l) => l && l.step === 3, { what: 'the kept step', timeout: 20000 });
    assert.equal((await frame.evaluate(() => window.attnplayLms.status())).connected, true);
    await answer(page, frame, Q[2], true);
    await next(page, frame, 4);
    await next(page, frame, 0);
    const done = await pollUntil(() => lms(page), (c) => c.completion_status === 'completed', { what: 'completion' });
    assert.equal(Object.keys(done.interactions).length, 3, 'the kept answers keep their interactions, the new one follows them');
    assert.equal(done.interactions['2'].id, `why-attention-${Q[2].id}`);
    assert.equal(done.score.raw, '100', '3 of 3 at the first try, with the two kept');
    assert.equal(done.success_status, 'passed');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('SCORM 1.2 and 2004: an LMS that never starts the session records nothing; the learner is told and the page keeps working', async () => {
    // Both versions at once: each waits out the whole half minute of tries.
    await Promise.all(['1.2', '2004'].map(async (v) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      const logs = [];
      page.on('console', (m) => logs.push(m.text()));
      const frame = await launch(page, v, v === '1.2' ? { core: { student_id: 'learner-never' } } : { learner_id: 'learner-never' },
        `pkg${v}`, 'why-attention', '', { initBroken: true });
      const alertOf = () => notice(frame, 'attnplay-lms-alert');
      await pollUntil(alertOf, (n) => n && n.visible && n.text === CATALOG.en['lms.starting'], { what: `SCORM ${v}: the alert` });
      await answer(page, frame, Q[0], true);
      const st = await pollUntil(() => frame.evaluate(() => window.attnplayLms.status()), (x) => x.initialize.gaveUp,
        { what: `SCORM ${v}: the last try`, timeout: 45000, interval: 500 });
      assert.equal(st.connected, false);
      assert.equal(st.initialize.retrying, false);
      assert.equal(st.initialize.attempts, await page.evaluate(() => window.initFailures));
      assert.match(st.warnings.join('\n'), /did not start the session after \d+ tries .*not recorded by the LMS/);
      assert.ok(logs.some((l) => /not recorded by the LMS/.test(l)), 'the console says so');
      const shown = await pollUntil(alertOf, (n) => n && n.text === CATALOG.en['lms.not_connected'], { what: `SCORM ${v}: the final notice` });
      assert.equal(shown.visible, true);
      // The page keeps working, and the work stays in this browser.
      await next(page, frame, 2);
      await answer(page, frame, Q[1], true);
      assert.equal((await lessonOf(frame)).correct, true);
      const kept = await frame.evaluate(() => JSON.parse(localStorage.getItem('attnplay-lms:why-attention::not-started') || 'null'));
      assert.deepEqual([kept.a[Q[0].id].ok, kept.a[Q[1].id].ok, kept.s], [true, true, 2]);
      await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
      await new Promise((r) => setTimeout(r, 300));
      const calls = await page.evaluate(() => window.calls);
      assert.deepEqual(calls.filter((x) => !/Initialize|GetLastError/.test(x)), [], `SCORM ${v}: only Initialize was asked`);
      assert.equal(Object.keys((await lms(page)).interactions || {}).length, 0);
      assert.deepEqual(errors, []);
      await context.close();
    }));
  });

  it('SCORM 1.2: the largest lesson (64 predictions, 64-character ids) keeps every answer in 4096 characters; 64 of 64 passes after a resume', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const ids = BIG.steps.map((s) => s.task.id);
    let frame = await launch(page, '1.2', { core: { student_id: 'learner-big' } }, 'pkgbig', BIG.id);
    // Through the parallel DOM's actions (what its buttons do), right at the first try each time.
    for (let step = 1; step <= 64; step++) {
      assert.deepEqual(await frame.evaluate(() => window.attnplay.a11y.act({ do: 'choice', value: 0 })), { ok: true });
      if (step < 64) assert.deepEqual(await frame.evaluate(() => window.attnplay.a11y.act({ do: 'next' })), { ok: true });
    }
    await pollUntil(() => lms(page), (c) => Object.keys(c.interactions || {}).length === 64, { what: '64 interactions', timeout: 10000 });
    const first = await leave(page, '1.2', 'suspend');
    assert.ok(first.suspend_data.length <= 4096, `suspend_data fits (${first.suspend_data.length})`);
    const kept = keptAnswers(first.suspend_data, ids);
    assert.equal(Object.values(kept).filter((a) => a.first).length, 64, 'every answer kept');
    assert.equal(JSON.parse(first.suspend_data).s, 64);
    const resumed = JSON.parse(JSON.stringify(first));
    resumed.core.entry = 'resume';
    frame = await launch(page, '1.2', resumed, 'pkgbig', BIG.id);
    assert.equal((await lessonOf(frame)).step, 64);
    assert.deepEqual(await frame.evaluate(() => window.attnplay.a11y.act({ do: 'choice', value: 0 })), { ok: true });
    assert.deepEqual(await frame.evaluate(() => window.attnplay.a11y.act({ do: 'next' })), { ok: true });
    const done = await pollUntil(() => lms(page), (c) => c.core.lesson_status !== 'incomplete', { what: 'completion' });
    assert.equal(done.core.lesson_status, 'passed', '64 of 64 passes');
    assert.equal(done.core.score.raw, '100');
    await context.close();
  });

  for (const v of ['1.2', '2004']) {
    it(`SCORM ${v}: nothing is committed after ${v === '1.2' ? 'LMSFinish' : 'Terminate'} (a page hidden after pagehide)`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const frame = await launch(page, v, v === '1.2' ? { core: { student_id: 'learner-order' } } : { learner_id: 'learner-order' });
      await answer(page, frame, Q[0], true);
      await leave(page, v, 'suspend');
      await new Promise((r) => setTimeout(r, 300));  // visibilitychange and unload follow pagehide
      const calls = await page.evaluate(() => window.calls);
      const finish = v === '1.2' ? 'LMSFinish' : 'Terminate', commitName = v === '1.2' ? 'LMSCommit' : 'Commit';
      assert.equal(calls.filter((x) => x === finish).length, 1, 'one end of the session');
      const end = calls.indexOf(finish);
      assert.ok(calls.indexOf(commitName) >= 0 && calls.indexOf(commitName) < end, 'commits before the end');
      assert.deepEqual(calls.slice(end + 1), [], `no call after ${finish}: ${calls.slice(end + 1).join(', ')}`);
      await context.close();
    });
  }
});
