// attnplay-lms.js — the page as a SCORM 1.2 / 2004 SCO and an xAPI 1.0.3 client. Active only when the address asks
// for it (?lms=1 from a course package's launch, or ?xapi-endpoint=…): elsewhere it returns at once and the page
// behaves as before. It finds the LMS's API as SCORM prescribes, reports each prediction as an interaction, the
// score (predictions right at the first try), completion and pass/fail, keeps the step and answers in
// suspend_data/location so a relaunch resumes there, and turns answers, steps and completions into xAPI statements.
'use strict';
(function () {
  const params = new URLSearchParams(location.search);
  const lmsWanted = params.get('lms') === '1';
  const endpoint = params.get('xapi-endpoint') || '';
  const api = window.attnplay;
  if ((!lmsWanted && !endpoint) || !api) return;

  const SUSPEND_MAX_12 = 4096;    // cmi.suspend_data in SCORM 1.2
  const SUSPEND_MAX_2004 = 64000; // in 2004 4th edition
  const DEFAULT_PASS = 0.8;

  // ---- finding the API: window.parent up to 7 levels, then window.opener and its parents ---------------
  function search(win, name) {
    for (let tries = 0; win && tries <= 7; tries++) {
      try { if (win[name]) return win[name]; } catch (e) { return null; }  // another origin: not ours to ask
      if (!win.parent || win.parent === win) break;
      win = win.parent;
    }
    return null;
  }
  function findApi(name) {
    let found = search(window, name);
    if (!found && window.opener) { try { found = search(window.opener, name); } catch (e) { found = null; } }
    return found;
  }

  // The two versions behind one face: names of the calls and of the data model elements.
  const V2004 = {
    version: '2004', init: 'Initialize', get: 'GetValue', set: 'SetValue', commit: 'Commit', finish: 'Terminate',
    error: 'GetLastError', location: 'cmi.location', entry: 'cmi.entry', exit: 'cmi.exit', time: 'cmi.session_time',
    learnerId: 'cmi.learner_id', learnerName: 'cmi.learner_name', mastery: 'cmi.scaled_passing_score',
    response: 'learner_response', wrong: 'incorrect', suspendMax: SUSPEND_MAX_2004,
  };
  const V12 = {
    version: '1.2', init: 'LMSInitialize', get: 'LMSGetValue', set: 'LMSSetValue', commit: 'LMSCommit',
    finish: 'LMSFinish', error: 'LMSGetLastError', location: 'cmi.core.lesson_location', entry: 'cmi.core.entry',
    exit: 'cmi.core.exit', time: 'cmi.core.session_time', learnerId: 'cmi.core.student_id',
    learnerName: 'cmi.core.student_name', mastery: 'cmi.student_data.mastery_score', response: 'student_response',
    wrong: 'wrong', suspendMax: SUSPEND_MAX_12,
  };

  let lms = null, v = null;
  const a2004 = lmsWanted ? findApi('API_1484_11') : null;
  const a12 = lmsWanted && !a2004 ? findApi('API') : null;
  if (a2004) { lms = a2004; v = V2004; } else if (a12) { lms = a12; v = V12; }

  const status = { version: v ? v.version : null, connected: false, started: false, suspendTrimmed: false, statements: 0, xapiErrors: 0, warnings: [] };
  function warn(text) { status.warnings.push(text); console.warn('attnplay LMS: ' + text); }

  function get(key) { try { return String(lms[v.get](key)); } catch (e) { return ''; } }
  function set(key, value) {
    let ok = false;
    try { ok = String(lms[v.set](key, String(value))) === 'true'; } catch (e) { ok = false; }
    if (!ok) warn('the LMS refused ' + key + ' = ' + String(value).slice(0, 60) + ' (error ' + get_error() + ')');
    return ok;
  }
  function get_error() { try { return String(lms[v.error]()); } catch (e) { return '?'; } }
  function commit() { if (status.connected) { try { lms[v.commit](''); } catch (e) { /* the next commit retries */ } } }

  // ---- what this learner did: kept in suspend_data ---------------------------------------------------------
  const startedAt = Date.now();
  let record = { lesson: '', step: 1, done: false, answers: {} };  // answers[question] = {n, k, r, ok, first, tries, t}
  let questions = [];  // the open lesson's predictions (getResult().lesson.questions)
  let pass = DEFAULT_PASS;
  let stepShownAt = Date.now();
  let finished = false;

  function score() {
    const max = questions.length;
    const raw = questions.filter((q) => record.answers[q.question] && record.answers[q.question].first).length;
    return { raw, min: 0, max, scaled: max ? raw / max : 1 };
  }

  // ---- times in each version's format ----------------------------------------------------------------------
  function timespan12(ms) {
    const s = Math.max(0, ms) / 1000;
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return String(h).padStart(4, '0') + ':' + String(m).padStart(2, '0') + ':' + sec.toFixed(2).padStart(5, '0');
  }
  function duration(ms) {  // ISO 8601, as 2004 and xAPI write it
    const s = Math.max(0, ms) / 1000;
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = Math.round((s % 60) * 100) / 100;
    return 'PT' + (h ? h + 'H' : '') + (m ? m + 'M' : '') + sec + 'S';
  }
  function clock12(d) { return d.toTimeString().slice(0, 8); }
  // With a zone (UTC): a time without one is read as the LMS's local time. SCORM 2004 allows the zone only after
  // the fraction of a second.
  function timestamp2004(d) { return d.toISOString().slice(0, 21) + 'Z'; }

  // Responses as each version spells them: a choice is a letter (a, b, …); a number as typed; 2004's numeric
  // correct pattern is a range "min[:]max".
  const letter = (i) => String.fromCharCode(97 + Number(i));
  function responseText(kind, given) { return kind === 'choice' ? letter(given) : String(given); }
  function correctPattern(q) {
    if (q.kind === 'choice') return letter(q.correct_response);
    const c = q.correct_response || {};
    if (v && v.version === '2004') return +(c.number - c.tolerance).toPrecision(12) + '[:]' + +(c.number + c.tolerance).toPrecision(12);
    return String(c.number);
  }

  function writeInteraction(q, a) {
    const n = 'cmi.interactions.' + a.n + '.';
    set(n + 'id', interactionId(q.question));
    set(n + 'type', q.kind);
    if (v.version === '2004') {
      set(n + 'timestamp', timestamp2004(new Date(a.t)));
      set(n + 'correct_responses.0.pattern', correctPattern(q));
      set(n + 'learner_response', a.r);
      set(n + 'result', a.ok ? 'correct' : v.wrong);
      set(n + 'latency', duration(a.latency));
      set(n + 'description', q.question);
    } else {
      set(n + 'time', clock12(new Date(a.t)));
      set(n + 'correct_responses.0.pattern', correctPattern(q));
      set(n + 'student_response', a.r);
      set(n + 'result', a.ok ? 'correct' : v.wrong);
      set(n + 'latency', timespan12(a.latency));
    }
  }
  // CMIIdentifier: letters, digits, '-' and '_' only.
  function interactionId(question) { return (record.lesson + '-' + question).replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 250); }

  function writeScore() {
    const s = score();
    if (v.version === '2004') {
      // raw on 0–100, as gradebooks read it (Moodle grades raw out of max; a count of questions gave 2/100). The
      // scaled score only once the lesson is complete: a conforming LMS derives passed/failed from it at once.
      set('cmi.score.raw', +(100 * s.scaled).toFixed(2)); set('cmi.score.min', 0); set('cmi.score.max', 100);
      if (record.done) set('cmi.score.scaled', +s.scaled.toFixed(4));
    } else {
      set('cmi.core.score.raw', s.max ? Math.round(100 * s.scaled) : 100);  // 1.2's raw is read as 0–100 by most LMSs
      set('cmi.core.score.min', 0); set('cmi.core.score.max', 100);
    }
  }
  function writeStatus() {
    const s = score();
    const passed = s.scaled >= pass - 1e-9;
    if (v.version === '2004') {
      set('cmi.completion_status', record.done ? 'completed' : 'incomplete');
      set('cmi.success_status', record.done ? (passed ? 'passed' : 'failed') : 'unknown');
      set('cmi.progress_measure', +(record.done ? 1 : Math.min(0.99, (record.step - 1) / Math.max(1, steps))).toFixed(3));
    } else {
      set('cmi.core.lesson_status', record.done ? (questions.length ? (passed ? 'passed' : 'failed') : 'completed') : 'incomplete');
    }
  }
  let steps = 1;

  // suspend_data: the step, the answers and the playground's state as the address bar keeps it (a share
  // fragment); when that does not fit (1.2 allows 4096 characters) the state is left out, then the answers' details.
  function writeResume() {
    const fragment = /^#s=/.test(location.hash) ? location.hash : '';
    const full = JSON.stringify({ v: 1, l: record.lesson, s: record.step, d: record.done, a: record.answers, f: fragment });
    let text = full;
    if (text.length > v.suspendMax) text = JSON.stringify({ v: 1, l: record.lesson, s: record.step, d: record.done, a: record.answers });
    if (text.length > v.suspendMax) {
      const small = {};
      for (const k of Object.keys(record.answers)) { const a = record.answers[k]; small[k] = { n: a.n, r: a.r, ok: a.ok, first: a.first }; }
      text = JSON.stringify({ v: 1, l: record.lesson, s: record.step, d: record.done, a: small });
    }
    if (text.length < full.length) {
      if (!status.suspendTrimmed) warn('the learner\'s record (' + full.length + ' characters) is longer than this LMS keeps (' + v.suspendMax + '): only the step and the answers are kept');
      status.suspendTrimmed = true;
    }
    if (text.length > v.suspendMax) text = JSON.stringify({ v: 1, l: record.lesson, s: record.step, d: record.done });
    set('cmi.suspend_data', text);
    set(v.location, record.lesson + '/' + record.step);
  }

  // ---- xAPI ------------------------------------------------------------------------------------------------
  const XAPI_VERBS = {
    answered: 'http://adlnet.gov/expapi/verbs/answered',
    completed: 'http://adlnet.gov/expapi/verbs/completed',
    progressed: 'http://adlnet.gov/expapi/verbs/progressed',
  };
  const activityBase = params.get('xapi-activity') || 'https://attnplay.invalid/lessons/';
  let actor = null;
  function uuid() {
    if (crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
  }
  function homePage() {
    const o = location.origin;
    return /^https?:\/\//.test(o) ? o : 'https://attnplay.invalid';
  }
  function makeActor() {
    const id = lms ? get(v.learnerId) : '';
    const name = lms ? get(v.learnerName) : '';
    if (id) return Object.assign({ objectType: 'Agent', account: { homePage: homePage(), name: id } }, name ? { name } : {});
    let anon = '';
    try { anon = localStorage.getItem('attnplay-xapi-anonymous') || ''; } catch (e) { anon = ''; }
    if (!anon) { anon = uuid(); try { localStorage.setItem('attnplay-xapi-anonymous', anon); } catch (e) { /* one per page load */ } }
    return { objectType: 'Agent', account: { homePage: homePage(), name: 'anonymous-' + anon } };
  }
  function lessonActivity() {
    return { objectType: 'Activity', id: activityBase + encodeURIComponent(record.lesson),
      definition: { type: 'http://adlnet.gov/expapi/activities/lesson', name: { 'en-US': record.lesson } } };
  }
  function questionActivity(q) {
    const definition = { type: 'http://adlnet.gov/expapi/activities/cmi.interaction', name: { 'en-US': q.question },
      interactionType: q.kind === 'choice' ? 'choice' : 'numeric', correctResponsesPattern: [xapiPattern(q)] };
    if (q.kind === 'choice')
      definition.choices = Array.from({ length: q.choices }, (_, i) => ({ id: letter(i), description: { 'en-US': 'choice ' + (i + 1) } }));
    return { objectType: 'Activity', id: activityBase + encodeURIComponent(record.lesson) + '/' + encodeURIComponent(q.question), definition };
  }
  function xapiPattern(q) {
    if (q.kind === 'choice') return letter(q.correct_response);
    const c = q.correct_response || {};
    return +(c.number - c.tolerance).toPrecision(12) + '[:]' + +(c.number + c.tolerance).toPrecision(12);
  }
  function statement(verb, object, result) {
    if (!actor) actor = makeActor();
    const s = { id: uuid(), actor, verb: { id: XAPI_VERBS[verb], display: { 'en-US': verb } }, object,
      timestamp: new Date().toISOString(), version: '1.0.3' };
    if (result) s.result = result;
    if (object.id !== lessonActivity().id) s.context = { contextActivities: { parent: [lessonActivity()] } };
    return s;
  }
  function send(s) {
    status.statements++;
    document.dispatchEvent(new CustomEvent('attnplay-xapi', { detail: s }));  // attnplay-embed.js tells the host
    if (!endpoint) return;
    const headers = { 'Content-Type': 'application/json', 'X-Experience-API-Version': '1.0.3' };
    const auth = params.get('xapi-auth');
    if (auth) headers.Authorization = auth;
    const url = endpoint.replace(/\/?$/, '/') + 'statements';
    fetch(url, { method: 'POST', headers, body: JSON.stringify(s) })
      .then((r) => { if (!r.ok) { status.xapiErrors++; warn('the LRS answered ' + r.status + ' to a statement'); } })
      .catch((e) => { status.xapiErrors++; warn('could not reach the LRS: ' + (e && e.message || e)); });
  }

  // ---- lesson events -----------------------------------------------------------------------------------------
  let live = false;  // events before the launch's resume are the page opening step 1: not the learner's
  function onAnswer(ev) {
    if (!ev.kind || ev.kind === 'do' || ev.lesson !== record.lesson) return;
    const q = questions.find((x) => x.question === ev.question) ||
      { question: ev.question, kind: ev.kind, choices: 0, correct_response: ev.correct_response };
    const now = Date.now();
    const prev = record.answers[ev.question];
    const a = { n: prev ? prev.n : Object.keys(record.answers).length, r: responseText(q.kind, ev.given), ok: !!ev.correct,
      first: prev ? prev.first : !!ev.correct && ev.attempt === 1, tries: ev.attempt, t: now,
      latency: now - stepShownAt };
    record.answers[ev.question] = a;
    if (lms) { writeInteraction(q, a); writeScore(); writeResume(); commit(); }
    send(statement('answered', questionActivity(q), { response: a.r, success: a.ok }));
  }
  // Outside an LMS (xAPI only) the learner may open any lesson: statements follow the one that is open.
  // A SCO is one lesson: in an LMS another lesson is not this SCO's record.
  function adopt(lesson) {
    record = { lesson, step: 1, done: false, answers: {} };
    questions = [];
    api.getResult().then((r) => { if (r && r.lesson && r.lesson.id === lesson) questions = r.lesson.questions || []; }).catch(() => {});
  }
  function onStep(ev) {
    if (ev.lesson !== record.lesson) {
      if (lms) return;
      adopt(ev.lesson);
    }
    record.step = ev.step;
    steps = ev.steps || steps;
    stepShownAt = Date.now();
    if (lms) { writeStatus(); writeResume(); commit(); }
    send(statement('progressed', lessonActivity(), { extensions: { 'https://w3id.org/xapi/cmi5/result/extensions/progress': Math.round(100 * (ev.step - 1) / Math.max(1, ev.steps)) } }));
  }
  function onComplete(ev) {
    if (ev.lesson !== record.lesson) return;
    record.done = true;
    const s = score();
    if (lms) { writeScore(); writeStatus(); writeResume(); commit(); }
    send(statement('completed', lessonActivity(), { completion: true, success: s.scaled >= pass - 1e-9,
      score: { scaled: +s.scaled.toFixed(4), raw: s.raw, min: s.min, max: s.max }, duration: duration(Date.now() - startedAt) }));
  }
  api.onEvent((ev) => {
    if (!live) return;
    if (ev.type === 'answer') onAnswer(ev);
    else if (ev.type === 'lesson-step') onStep(ev);
    else if (ev.type === 'lesson-complete') onComplete(ev);
  });

  // ---- launch, resume, leave ---------------------------------------------------------------------------------
  function masteryFromLms() {
    const m = get(v.mastery);
    if (m === '') return NaN;
    return v.version === '2004' ? Number(m) : Number(m) / 100;
  }
  function readResume() {
    if (get(v.entry) !== 'resume') return null;
    let kept = null;
    try { kept = JSON.parse(get('cmi.suspend_data') || 'null'); } catch (e) { kept = null; }
    const where = /^([A-Za-z0-9_-]+)\/(\d+)$/.exec(get(v.location));
    if (!kept && where) kept = { l: where[1], s: Number(where[2]) };
    return kept && typeof kept === 'object' ? kept : null;
  }

  // A teacher's lesson file (?lesson-url=, as a package's own lesson launches) opens once the page has fetched
  // it: the record starts with the lesson's first step, not with the page's free play.
  const fileLesson = !params.get('lesson-url') ? null : new Promise((resolve) => {
    api.onEvent((ev) => { if (ev.type === 'lesson-step') resolve(); });
    setTimeout(resolve, 20000);
  });

  function start() {
    if (lms) {
      try { status.connected = String(lms[v.init]('')) === 'true'; } catch (e) { status.connected = false; }
      if (!status.connected) warn('the LMS did not start the session (error ' + get_error() + ')');
    } else if (lmsWanted) {
      warn('no LMS API (API or API_1484_11) found in the parent windows or the opener: nothing is recorded');
    }
    const fromUrl = Number(params.get('pass'));
    const fromLms = status.connected ? masteryFromLms() : NaN;
    pass = Number.isFinite(fromLms) && fromLms >= 0 && fromLms <= 1 ? fromLms
      : (params.has('pass') && Number.isFinite(fromUrl) && fromUrl >= 0 && fromUrl <= 1 ? fromUrl : DEFAULT_PASS);
    if (!status.connected) lms = null;
    return api.ready.then(() => fileLesson).then(() => api.getResult()).then((r) => {
      const l = r && r.lesson;
      if (!l) { warn('the page opened no lesson (launch it with ?lesson=ID)'); live = true; return; }
      record.lesson = l.id; record.step = l.step; steps = l.steps || 1; questions = l.questions || [];
      const kept = lms ? readResume() : null;
      if (kept && kept.l === record.lesson) {
        record.answers = kept.a && typeof kept.a === 'object' ? kept.a : {};
        record.done = !!kept.d;
        const step = Math.max(1, Math.min(steps, Number(kept.s) || 1));
        // The step (entering it applies the step's own state), then the playground as the learner left it (the
        // same step: their changes stay), then the step again should that state be older than it.
        const goTo = () => api.setState({ lesson: { id: record.lesson, step } });
        return goTo().then(() => (typeof kept.f === 'string' && /^#s=/.test(kept.f) ? api.openFragment(kept.f) : { ok: true }))
          .then((r) => { if (!r.ok) warn('the kept state could not be opened: ' + r.error); return goTo(); })
          .then(() => { record.step = step; });
      }
      return undefined;
    }).then(() => {
      const cont = document.getElementById('continue');
      if (cont) cont.hidden = true;  // the LMS, not this browser's storage, says where to continue
      live = true;
      status.started = true;
      if (lms) {
        if (v.version === '2004' && get('cmi.completion_status') === 'unknown') set('cmi.completion_status', 'incomplete');
        if (v.version === '1.2' && get('cmi.core.lesson_status') === 'not attempted') set('cmi.core.lesson_status', 'incomplete');
        writeResume();
        commit();
      }
      if (!record.done && record.lesson) send(statement('progressed', lessonActivity(), { extensions: { 'https://w3id.org/xapi/cmi5/result/extensions/progress': Math.round(100 * (record.step - 1) / Math.max(1, steps)) } }));
    }).catch((e) => warn('could not start: ' + (e && e.message || e)));
  }

  // Leaving: the session's time, exit "suspend" when the lesson is not finished (the LMS then relaunches with
  // entry "resume"), a last commit, and the end of the session.
  function finish() {
    if (finished || !lms) return;
    finished = true;
    if (record.lesson && !record.done) writeResume();  // the state as the learner left it
    const ms = Date.now() - startedAt;
    set(v.time, v.version === '2004' ? duration(ms) : timespan12(ms));
    set(v.exit, record.done ? (v.version === '2004' ? 'normal' : '') : 'suspend');
    commit();
    try { lms[v.finish](''); } catch (e) { /* the LMS keeps what was committed */ }
  }
  window.addEventListener('pagehide', finish);
  window.addEventListener('beforeunload', finish);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') commit(); });

  // What the adapter is doing, for a course author's console or a test: version, whether the LMS answered,
  // whether suspend_data had to be trimmed, statements sent, warnings.
  Object.defineProperty(window, 'attnplayLms', { value: Object.freeze({ status: () => JSON.parse(JSON.stringify(status)), finish }), writable: false });
  start();
})();
