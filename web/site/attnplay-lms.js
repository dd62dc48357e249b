// attnplay-lms.js — the page as a SCORM 1.2 / 2004 SCO and an xAPI 1.0.3 client. Active only when the address asks
// for it (?lms=1 from a course package's launch, or ?xapi-endpoint=…): elsewhere it returns at once and the page
// behaves as before. It finds the LMS's API as SCORM prescribes, reports each prediction as an interaction, the
// score (predictions right at the first try), completion and pass/fail, keeps the step and answers in
// suspend_data/location so a relaunch resumes there, and turns answers, steps and completions into xAPI statements.
// A record the LMS already holds is never downgraded (a completed or passed lesson stays so on a relaunch); in the
// LMS's review or browse mode nothing is recorded and the learner is told; when the LMS stops answering the learner
// is told too, the record is kept in this browser and sent again until the LMS takes it. An LMS that does not start
// the session at launch is asked again for about half a minute; what the learner does meanwhile is kept and written
// once it starts, and the learner is told when it never does.
'use strict';
(function () {
  // The page's language tags ("en", "hi-Latn", any catalog's) are BCP 47 tags, as xAPI's language maps want.
  const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;
  const params = new URLSearchParams(location.search);
  const lmsWanted = params.get('lms') === '1';
  const endpoint = params.get('xapi-endpoint') || '';
  const api = window.attnplay;
  if ((!lmsWanted && !endpoint) || !api) return;

  const SUSPEND_MAX_12 = 4096;    // cmi.suspend_data in SCORM 1.2
  const SUSPEND_MAX_2004 = 64000; // in 2004 4th edition
  const DEFAULT_PASS = 0.8;
  const RETRY_MS = 4000;          // while the LMS fails, the record is sent again this often (and with each answer)

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
    mode: 'cmi.mode', credit: 'cmi.credit', response: 'learner_response', wrong: 'incorrect', suspendMax: SUSPEND_MAX_2004,
  };
  const V12 = {
    version: '1.2', init: 'LMSInitialize', get: 'LMSGetValue', set: 'LMSSetValue', commit: 'LMSCommit',
    finish: 'LMSFinish', error: 'LMSGetLastError', location: 'cmi.core.lesson_location', entry: 'cmi.core.entry',
    exit: 'cmi.core.exit', time: 'cmi.core.session_time', learnerId: 'cmi.core.student_id',
    learnerName: 'cmi.core.student_name', mastery: 'cmi.student_data.mastery_score', mode: 'cmi.core.lesson_mode',
    credit: 'cmi.core.credit', response: 'student_response',
    wrong: 'wrong', suspendMax: SUSPEND_MAX_12,
  };

  let lms = null, v = null;
  const a2004 = lmsWanted ? findApi('API_1484_11') : null;
  const a12 = lmsWanted && !a2004 ? findApi('API') : null;
  if (a2004) { lms = a2004; v = V2004; } else if (a12) { lms = a12; v = V12; }

  const status = { version: v ? v.version : null, connected: false, started: false, recording: true, mode: 'normal',
    credit: 'credit', failing: false, suspendTrimmed: false, statements: 0, xapiErrors: 0, warnings: [],
    initialize: { attempts: 0, retrying: false, gaveUp: false } };
  function warn(text) { status.warnings.push(text); console.warn('attnplay LMS: ' + text); }

  // An LMS that throws, or answers "false" with an error that is not about the value (not initialised, terminated,
  // a general or commit failure: an expired session), is failing: the record is kept and sent again. A value the
  // LMS refuses (a data model error: 2004's 4xx and 201, 1.2's 2xx and 4xx) is only warned about.
  let trouble = false;  // a call failed since the last flush began
  function lmsFailure(code) {
    const n = Number(code);
    if (!Number.isFinite(n)) return true;
    return v.version === '2004' ? !(n === 201 || (n >= 401 && n < 500)) : !((n >= 201 && n < 300) || (n >= 401 && n < 500));
  }
  function get(key) { try { return String(lms[v.get](key)); } catch (e) { return ''; } }
  function set(key, value) {
    let ok = false, threw = false;
    try { ok = String(lms[v.set](key, String(value))) === 'true'; } catch (e) { ok = false; threw = true; }
    if (!ok) {
      const code = threw ? 'thrown' : get_error();
      if (threw || lmsFailure(code)) trouble = true;
      if (!status.failing) warn('the LMS refused ' + key + ' = ' + String(value).slice(0, 60) + ' (error ' + code + ')');
    }
    return ok;
  }
  function get_error() { try { return String(lms[v.error]()); } catch (e) { return '?'; } }
  // Never after LMSFinish/Terminate: a commit then is an error to the LMS (and a page hidden after pagehide must
  // not send one).
  function commit() {
    if (!status.connected || finished) return false;
    try { return String(lms[v.commit]('')) === 'true'; } catch (e) { return false; }
  }

  // ---- what this learner did: kept in suspend_data ---------------------------------------------------------
  const startedAt = Date.now();
  // answers[question] = {n, g, r, ok, first, tries, t, latency, unsent}: n the interaction's index, g the answer
  // as given (a choice's index, a number), r it as a response text; unsent while the LMS has not taken it.
  let record = { lesson: '', step: 1, done: false, answers: {} };
  let questions = [];  // the open lesson's predictions (getResult().lesson.questions)
  let pass = DEFAULT_PASS;
  let stepShownAt = Date.now();
  let finished = false;
  // What the LMS held at launch: a completed or passed record is never written back down (a relaunch of a finished
  // attempt with the same data, as many LMSs do, must not turn it incomplete, unknown or a lower score).
  const prior = { completed: false, passed: false, failed: false, raw: NaN };

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

  // The rendered question and choices, when the page's answer event carries them (question_text, choice_texts,
  // lang); else the question's id, as before.
  function questionText(q) { return typeof q.question_text === 'string' && q.question_text ? q.question_text : ''; }
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
      // A localized_string_type of at most 250 characters, its language in a {lang=…} delimiter.
      const text = questionText(q);
      set(n + 'description', text ? (q.lang ? '{lang=' + q.lang + '}' : '') + Array.from(text).slice(0, 250).join('') : q.question);
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
  // A question as its last answer event described it (with its rendered texts when the event has them), else as the
  // lesson's question list does.
  const asked = {};
  function questionOf(id) {
    return asked[id] || questions.find((x) => x.question === id) ||
      { question: id, kind: typeof (record.answers[id] || {}).g === 'number' && !Number.isInteger(record.answers[id].g) ? 'numeric' : 'choice',
        choices: 0, correct_response: null };
  }

  function writeScore() {
    const s = score();
    // A finished record's score is not lowered (a relaunch whose answers the LMS did not keep starts from none).
    if (prior.completed && Number.isFinite(prior.raw) && 100 * s.scaled < prior.raw - 1e-6) return;
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
  // Completed stays completed and passed stays passed; a failed record may still become passed.
  function writeStatus() {
    const s = score();
    const passed = s.scaled >= pass - 1e-9;
    const done = record.done || prior.completed;
    if (v.version === '2004') {
      set('cmi.completion_status', done ? 'completed' : 'incomplete');
      const success = prior.passed || (record.done && passed) ? 'passed' : record.done || prior.failed ? 'failed' : 'unknown';
      set('cmi.success_status', success);
      set('cmi.progress_measure', +(done ? 1 : Math.min(0.99, (record.step - 1) / Math.max(1, steps))).toFixed(3));
    } else {
      let lessonStatus = 'incomplete';
      if (prior.passed) lessonStatus = 'passed';
      else if (done) lessonStatus = questions.length ? (passed ? 'passed' : 'failed') : 'completed';
      set('cmi.core.lesson_status', lessonStatus);
    }
  }
  let steps = 1;

  // suspend_data, format 2: {v: 2, l: lesson, s: step, d: done, a: [[q, n, g, flags], …], f: fragment}; q is the
  // question's index in the lesson's question list (its id only for a question not in the list), n the
  // interaction's index, g the answer as given (a choice's index or the number), flags ok + 2·first + 4·tries. The
  // largest lesson a file allows (64 predictions, a 64-character id) takes under 2,500 characters, so SCORM 1.2's
  // 4096 always hold the step and every answer (course_package.cpp refuses a lesson whose record could not fit).
  // Format 1 ({v: 1, a: {id: {n, r, ok, first, …}}}) is still read: records already in LMSs.
  function encodeAnswers() {
    const list = [];
    for (const id of Object.keys(record.answers)) {
      const a = record.answers[id];
      const i = questions.findIndex((x) => x.question === id);
      const g = a.g !== undefined ? a.g : (/^[a-z]$/.test(a.r) ? a.r.charCodeAt(0) - 97 : Number(a.r));
      list.push([i >= 0 ? i : id, a.n, Number.isFinite(g) ? g : a.r, (a.ok ? 1 : 0) + (a.first ? 2 : 0) + 4 * (a.tries || 1)]);
    }
    return list;
  }
  // Answers of the record as the page keeps them: {question id: {given: choice index or number, attempts}}.
  function pageAnswers(answers) {
    const out = {};
    for (const [id, a] of Object.entries(answers)) {
      const g = a.g !== undefined ? a.g : (/^[a-z]$/.test(a.r) ? a.r.charCodeAt(0) - 97 : Number(a.r));
      if (typeof g === 'number' && Number.isFinite(g)) out[id] = { given: g, attempts: Math.max(1, Number(a.tries) || 1) };
    }
    return out;
  }
  function decodeAnswers(kept) {
    const out = {};
    if (kept.v === 2 && Array.isArray(kept.a)) {
      for (const e of kept.a) {
        if (!Array.isArray(e) || e.length < 4) continue;
        const q = typeof e[0] === 'number' ? questions[e[0]] : questionOf(String(e[0]));
        if (!q) continue;
        const flags = Number(e[3]) || 0;
        out[q.question] = { n: Number(e[1]) || 0, g: e[2], r: typeof e[2] === 'number' ? responseText(q.kind, e[2]) : String(e[2]),
          ok: !!(flags & 1), first: !!(flags & 2), tries: flags >> 2 };
      }
    } else if (kept.a && typeof kept.a === 'object' && !Array.isArray(kept.a)) {
      for (const [id, a] of Object.entries(kept.a)) if (a && typeof a === 'object') out[id] = Object.assign({}, a);
    }
    return out;
  }
  // The step, the answers and the playground's state as the address bar keeps it (a share fragment); when that does
  // not fit (1.2 allows 4096 characters) the state is left out.
  function writeResume() {
    const fragment = /^#s=/.test(location.hash) ? location.hash : '';
    const base = { v: 2, l: record.lesson, s: record.step, d: record.done, a: encodeAnswers() };
    const full = JSON.stringify(Object.assign({}, base, fragment ? { f: fragment } : {}));
    let text = full;
    if (text.length > v.suspendMax) text = JSON.stringify(base);
    if (text.length < full.length && text.length <= v.suspendMax) {
      if (!status.suspendTrimmed) warn('the learner\'s record (' + full.length + ' characters) is longer than this LMS keeps (' + v.suspendMax + '): only the step and the answers are kept');
      status.suspendTrimmed = true;
    }
    if (text.length > v.suspendMax) {  // a lesson course_package.cpp would not have packaged
      warn('the learner\'s answers (' + text.length + ' characters) are longer than this LMS keeps (' + v.suspendMax + '): only the step is kept');
      text = JSON.stringify({ v: 2, l: record.lesson, s: record.step, d: record.done });
    }
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
  // A statement's id (attnplay-lms-notices.js, loaded first, makes them for both adapters).
  function uuid() { return window.attnplayLmsNotices.uuid(); }
  function homePage() {
    const o = location.origin;
    return /^https?:\/\//.test(o) ? o : 'https://attnplay.invalid';
  }
  function makeActor() {
    const id = status.connected ? get(v.learnerId) : '';
    const name = status.connected ? get(v.learnerName) : '';
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
    // The rendered question and choices in the learner's language when the answer event carries them; else the id.
    const text = questionText(q);
    const tag = text && LANGUAGE_TAG.test(q.lang || '') ? q.lang : 'en-US';
    const definition = { type: 'http://adlnet.gov/expapi/activities/cmi.interaction', name: { [tag]: text || q.question },
      interactionType: q.kind === 'choice' ? 'choice' : 'numeric', correctResponsesPattern: [xapiPattern(q)] };
    if (text) definition.description = { [tag]: text };
    const texts = Array.isArray(q.choice_texts) ? q.choice_texts : [];
    if (q.kind === 'choice')
      definition.choices = Array.from({ length: q.choices || texts.length }, (_, i) => ({ id: letter(i),
        description: typeof texts[i] === 'string' && texts[i] ? { [tag]: texts[i] } : { 'en-US': 'choice ' + (i + 1) } }));
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
  // Statements made while the LMS has not started the session wait: its mode may yet say they are not the learner's
  // attempt, and its learner id is not known yet.
  let held = [];
  function send(s) {
    if (!status.recording) return;  // the LMS's review or browse mode: not the learner's attempt
    if (status.initialize.retrying) { held.push(s); return; }
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

  // The held statements, as the learner the LMS names (anonymous when it never started the session).
  function sendHeld() {
    const list = held;
    held = [];
    actor = makeActor();
    for (const s of list) { s.actor = actor; send(s); }
  }

  // ---- what the learner is told: the LMS's mode or credit, and an LMS that stopped taking the record -------------
  // attnplay-lms-notices.js (loaded before this script) shows the catalog's lms.* texts over the page.
  const notices = window.attnplayLmsNotices;
  function tell(which, key) { return notices ? notices.tell(which, key) : Promise.resolve(); }
  function tellMode() {
    if (status.connected && !status.recording) tell('mode', 'lms.not_recorded');
    else if (status.connected && status.credit === 'no-credit') tell('mode', 'lms.no_credit');
  }
  // (attnplay-api.js loads the notices before this script; the stand-in only keeps the status true without them.)
  // An LMS whose Initialize fails at launch is asked again after each of these waits (none without the notices).
  const INIT_RETRY_MS = notices ? notices.START_RETRY_MS : [];
  const retry = notices ? notices.retrying(status, () => flush(), RETRY_MS)
    : { failing() { status.failing = true; }, recovered() { status.failing = false; }, stop() {} };

  // ---- the record in this browser, and sending it again -----------------------------------------------------------
  // localStorage keeps the record per lesson and learner (pending: the LMS has not taken all of it); a launch that
  // finds a pending record of the same lesson and learner sends its answers on.
  let storeKey = '';
  let learnerId = '';
  function learnerKey() { return 'attnplay-lms:' + encodeURIComponent(record.lesson) + ':' + encodeURIComponent(learnerId || 'anonymous'); }
  // Before the LMS started the session the learner is not known: their work is kept apart (an empty id, which no
  // learner's key has) and never sent on by another launch, which may be another learner's.
  function unstartedKey() { return 'attnplay-lms:' + encodeURIComponent(record.lesson) + '::not-started'; }
  function saveLocal(pending) {
    if (!storeKey || !record.lesson) return;
    try {
      localStorage.setItem(storeKey, JSON.stringify({ v: 2, l: record.lesson, s: record.step, d: record.done, a: record.answers,
        pending: !!pending, at: new Date().toISOString() }));
    } catch (e) { /* no storage: the LMS is the only copy */ }
  }
  function readLocal() {
    try { return JSON.parse(localStorage.getItem(storeKey) || 'null'); } catch (e) { return null; }
  }

  // What is still to be written ('begin', 'score', 'status', 'resume'; answers carry their own unsent flag). A
  // flush writes it and commits; when the LMS fails, it stays and is written again on a timer and with the next
  // answer, until a commit succeeds.
  const dirty = new Set();
  function save(parts) {
    if (!lms || !status.recording) return;
    for (const p of parts) dirty.add(p);
    flush();
  }
  function flush() {
    if (!lms || !status.recording || finished) return;
    if (!status.connected) { saveLocal(true); return; }  // kept until the LMS starts the session
    trouble = false;
    const unsent = Object.keys(record.answers).filter((id) => record.answers[id].unsent);
    if (dirty.has('begin')) {
      if (v.version === '2004' && get('cmi.completion_status') === 'unknown') set('cmi.completion_status', 'incomplete');
      if (v.version === '1.2' && get('cmi.core.lesson_status') === 'not attempted') set('cmi.core.lesson_status', 'incomplete');
    }
    for (const id of unsent) writeInteraction(questionOf(id), record.answers[id]);
    if (dirty.has('score')) writeScore();
    if (dirty.has('status')) writeStatus();
    if (dirty.has('resume')) writeResume();
    const ok = commit() && !trouble;
    if (ok) {
      for (const id of unsent) delete record.answers[id].unsent;
      dirty.clear();
    }
    saveLocal(!ok);
    if (ok && status.failing) recovered();
    else if (!ok && !status.failing) failing();
  }
  function failing() {
    warn('the LMS is not taking the record (error ' + get_error() + '): it is kept in this browser and sent again every ' + RETRY_MS / 1000 + ' s');
    retry.failing();
  }
  function recovered() {
    warn('the LMS took the record again');
    retry.recovered();
  }

  // ---- lesson events -----------------------------------------------------------------------------------------
  let live = false;  // events before the launch's resume are the page opening step 1: not the learner's
  function onAnswer(ev) {
    if (!ev.kind || ev.kind === 'do' || ev.lesson !== record.lesson) return;
    const q = Object.assign({}, questions.find((x) => x.question === ev.question) ||
      { question: ev.question, kind: ev.kind, choices: 0, correct_response: ev.correct_response });
    if (typeof ev.question_text === 'string') q.question_text = ev.question_text;
    if (Array.isArray(ev.choice_texts)) q.choice_texts = ev.choice_texts;
    if (typeof ev.lang === 'string' && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(ev.lang)) q.lang = ev.lang;
    asked[ev.question] = q;
    const now = Date.now();
    const prev = record.answers[ev.question];
    const a = { n: prev ? prev.n : Object.keys(record.answers).length, g: ev.given, r: responseText(q.kind, ev.given), ok: !!ev.correct,
      first: prev ? prev.first : !!ev.correct && ev.attempt === 1, tries: ev.attempt, t: now,
      latency: now - stepShownAt, unsent: true };
    record.answers[ev.question] = a;
    save(['score', 'resume']);  // with the interaction, and anything the LMS has not taken yet
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
    save(['status', 'resume']);
    send(statement('progressed', lessonActivity(), { extensions: { 'https://w3id.org/xapi/cmi5/result/extensions/progress': Math.round(100 * (ev.step - 1) / Math.max(1, ev.steps)) } }));
  }
  function onComplete(ev) {
    if (ev.lesson !== record.lesson) return;
    record.done = true;
    const s = score();
    save(['score', 'status', 'resume']);
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
  // The kept record: suspend_data whenever the LMS hands it over (also on a relaunch of a finished attempt with the
  // same data, entry ""), the location alone on a resume; the step is resumed on entry "resume" only.
  function readKept() {
    const entry = get(v.entry);
    let kept = null;
    try { kept = JSON.parse(get('cmi.suspend_data') || 'null'); } catch (e) { kept = null; }
    if (!kept || typeof kept !== 'object' || Array.isArray(kept)) kept = null;
    const where = /^([A-Za-z0-9_-]+)\/(\d+)$/.exec(get(v.location));
    if (!kept && where && entry === 'resume') kept = { l: where[1], s: Number(where[2]) };
    if (kept) kept.resume = entry === 'resume';
    return kept;
  }
  function readPrior() {
    if (v.version === '2004') {
      prior.completed = get('cmi.completion_status') === 'completed';
      const success = get('cmi.success_status');
      prior.passed = success === 'passed';
      prior.failed = success === 'failed';
    } else {
      const ls = get('cmi.core.lesson_status');
      prior.completed = ls === 'completed' || ls === 'passed' || ls === 'failed';
      prior.passed = ls === 'passed';
      prior.failed = ls === 'failed';
    }
    const raw = get(v.version === '2004' ? 'cmi.score.raw' : 'cmi.core.score.raw');
    prior.raw = raw === '' ? NaN : Number(raw);
  }

  // A teacher's lesson file (?lesson-url=, as a package's own lesson launches) opens once the page has fetched
  // it: the record starts with the lesson's first step, not with the page's free play.
  const fileLesson = !params.get('lesson-url') ? null : new Promise((resolve) => {
    api.onEvent((ev) => { if (ev.type === 'lesson-step') resolve(); });
    setTimeout(resolve, 20000);
  });

  // ---- starting the session, at launch or on a later try -----------------------------------------------------
  function initialize() {
    status.initialize.attempts++;
    try { status.connected = String(lms[v.init]('')) === 'true'; } catch (e) { status.connected = false; }
    return status.connected;
  }
  function passScore() {
    const fromUrl = Number(params.get('pass'));
    const fromLms = status.connected ? masteryFromLms() : NaN;
    return Number.isFinite(fromLms) && fromLms >= 0 && fromLms <= 1 ? fromLms
      : (params.has('pass') && Number.isFinite(fromUrl) && fromUrl >= 0 && fromUrl <= 1 ? fromUrl : DEFAULT_PASS);
  }
  // What a started session says about this attempt.
  function readSession() {
    // Mode (SCORM 2004 RTE 4.2.18 cmi.mode; 1.2 cmi.core.lesson_mode): in "review" the learner looks at an
    // attempt already made, in "browse" they look without taking it. Either way this session is not the
    // learner's attempt, so nothing is written: no status, score, interactions, suspend_data, time or exit, and
    // no xAPI statements (an LMS that keeps such writes would otherwise overwrite the real attempt).
    status.mode = get(v.mode) || 'normal';
    status.recording = status.mode !== 'review' && status.mode !== 'browse';
    // Credit (2004 RTE 4.2.5 cmi.credit; 1.2 cmi.core.credit): "no-credit" says the LMS will not credit the
    // learner for this attempt — the LMS, not the SCO, decides what it does with the data (ADL: the SCO
    // behaves the same; 1.2 RTE 3-24: only "credit" lets the mastery score set passed/failed). So the attempt is
    // recorded as usual (the learner's progress and resume point stay), and the learner is told it does not count.
    status.credit = get(v.credit) || 'credit';
    readPrior();
    learnerId = get(v.learnerId);
    pass = passScore();
  }

  // Initialize tried again after each wait of INIT_RETRY_MS; the learner is told meanwhile (once the page shows
  // the lesson) and when the last try fails.
  let initTimer = 0;
  function retryInitialize(round) {
    status.initialize.retrying = true;
    if (round >= INIT_RETRY_MS.length) { giveUp(); return; }
    initTimer = setTimeout(() => {
      if (finished) return;
      if (initialize()) lateStart();
      else retryInitialize(round + 1);
    }, INIT_RETRY_MS[round]);
  }
  function giveUp() {
    status.initialize.retrying = false;
    status.initialize.gaveUp = true;
    warn('the LMS did not start the session after ' + status.initialize.attempts + ' tries (error ' + get_error() +
      '): this attempt is not recorded by the LMS, it is kept in this browser only');
    sendHeld();
    if (status.started) tell('alert', 'lms.not_connected');
  }
  // The session started on a later try. Before the page opened the lesson, start() goes on as after a first try that
  // worked; after, the LMS's record is read now and what the learner did meanwhile is added to it and written.
  function lateStart() {
    status.initialize.retrying = false;
    readSession();
    warn('the LMS started the session at try ' + status.initialize.attempts);
    if (record.lesson) joinRecord();
    if (status.recording) sendHeld(); else held = [];
    if (!status.started) return;  // start() tells the learner once the lesson is open
    tell('alert', '');
    tellMode();
  }
  function joinRecord() {
    try { localStorage.removeItem(storeKey); } catch (e) { /* nothing was kept */ }
    if (!status.recording) { storeKey = ''; dirty.clear(); return; }  // review or browse: nothing is written
    storeKey = learnerKey();
    const kept = readKept();
    const ours = kept && kept.l === record.lesson;
    const theirs = ours ? decodeAnswers(kept) : {};
    const mine = record.answers;
    const untouched = !Object.keys(mine).length && record.step === openedStep;
    record.answers = mergeAnswers(theirs, mine);
    record.done = record.done || (ours && !!kept.d) || prior.completed;
    adoptLocal();
    const parts = ['begin', 'resume'].concat(untouched && !record.done ? [] : ['score', 'status']);
    // A learner who has not moved yet is taken where the LMS's record left them (the page moving there is not the
    // learner's doing); one who has stays where they are, and the questions only the LMS holds open answered.
    if (untouched && ours) {
      live = false;
      showKept(kept).catch((e) => warn('the kept record could not be shown: ' + (e && e.message || e)))
        .then(() => { live = status.started; save(parts); });
      return;
    }
    const theirsOnly = Object.fromEntries(Object.entries(theirs).filter(([id]) => !mine[id]));
    showAnswers(pageAnswers(theirsOnly)).catch(() => {}).then(() => save(parts));
  }
  // The LMS's answers (an earlier session) and those given before it started this one: a question in both keeps the
  // LMS's interaction and first try (the page did not know it was answered) and counts every try.
  function mergeAnswers(theirs, mine) {
    const out = Object.assign({}, theirs);
    let n = Object.values(theirs).reduce((m, a) => Math.max(m, (Number(a.n) || 0) + 1), 0);
    for (const [id, a] of Object.entries(mine)) {
      const t = theirs[id];
      out[id] = t ? Object.assign({}, a, { n: t.n, first: t.first, tries: (Number(t.tries) || 0) + (Number(a.tries) || 1), unsent: true })
        : Object.assign({}, a, { n: n++, unsent: true });
    }
    return out;
  }
  // A record this browser kept while the LMS failed (an earlier launch of this learner): its answers the LMS does
  // not have go on to the LMS.
  function adoptLocal() {
    const local = status.connected && storeKey ? readLocal() : null;
    if (!local || !local.pending || local.l !== record.lesson || !local.a || typeof local.a !== 'object') return;
    for (const [id, a] of Object.entries(local.a)) {
      if (!a || typeof a !== 'object' || (record.answers[id] && !a.unsent)) continue;
      const taken = new Set(Object.values(record.answers).map((x) => x.n));
      const n = record.answers[id] ? record.answers[id].n : taken.has(a.n) ? Object.keys(record.answers).length : a.n;
      record.answers[id] = Object.assign({}, a, { n, unsent: true });
    }
    record.done = record.done || !!local.d;
    dirty.add('score'); dirty.add('status');
  }
  // The page opens every step answered in `given` as answered (verdict, reveal, no second first try).
  function showAnswers(given) {
    const shown = Object.keys(given).length ? api.keepAnswers(record.lesson, given) : Promise.resolve({ ok: true });
    return shown.then((res) => { if (!res.ok) warn('the kept answers could not be shown: ' + res.error); });
  }
  // The kept answers, and on a resume the step: entering it applies the step's own state, then the playground as
  // the learner left it (the same step: their changes stay), then the step again should that state be older than it.
  function showKept(kept) {
    const shown = showAnswers(pageAnswers(record.answers));
    if (!kept.resume) return shown;
    const step = Math.max(1, Math.min(steps, Number(kept.s) || 1));
    const goTo = () => api.setState({ lesson: { id: record.lesson, step } });
    return shown.then(goTo).then(() => (typeof kept.f === 'string' && /^#s=/.test(kept.f) ? api.openFragment(kept.f) : { ok: true }))
      .then((res) => { if (!res.ok) warn('the kept state could not be opened: ' + res.error); return goTo(); })
      .then(() => { record.step = step; });
  }

  let openedStep = 1;
  function openLesson(l) {
    record.lesson = l.id; record.step = l.step; steps = l.steps || 1; questions = l.questions || [];
    openedStep = l.step;
    if (lms && status.recording) storeKey = status.connected ? learnerKey() : unstartedKey();
    const kept = status.connected ? readKept() : null;
    const ours = kept && kept.l === record.lesson;
    if (ours) {
      record.answers = decodeAnswers(kept);
      record.done = !!kept.d;
    }
    record.done = record.done || prior.completed;
    adoptLocal();
    return ours ? showKept(kept) : showAnswers(pageAnswers(record.answers));
  }

  function start() {
    if (lms) {
      if (initialize()) readSession();
      else {
        warn('the LMS did not start the session (error ' + get_error() + '): it is asked again');
        retryInitialize(0);
      }
    } else if (lmsWanted) {
      warn('no LMS API (API or API_1484_11) found in the parent windows or the opener: nothing is recorded');
    }
    if (!status.connected) pass = passScore();
    return api.ready.then(() => fileLesson).then(() => api.getResult()).then((r) => {
      const l = r && r.lesson;
      if (!l) { warn('the page opened no lesson (launch it with ?lesson=ID)'); live = true; return undefined; }
      return openLesson(l);
    }).then(() => {
      const cont = document.getElementById('continue');
      if (cont) cont.hidden = true;  // the LMS, not this browser's storage, says where to continue
      live = true;
      status.started = true;
      save(['begin', 'resume']);
      tellMode();
      if (status.initialize.retrying) tell('alert', 'lms.starting');
      else if ((lms && !status.connected) || (!lms && lmsWanted)) tell('alert', 'lms.not_connected');
      if (!record.done && record.lesson) send(statement('progressed', lessonActivity(), { extensions: { 'https://w3id.org/xapi/cmi5/result/extensions/progress': Math.round(100 * (record.step - 1) / Math.max(1, steps)) } }));
    }).catch((e) => warn('could not start: ' + (e && e.message || e)));
  }

  // Leaving: anything the LMS has not taken yet, the session's time, exit "suspend" when the lesson is not finished
  // (the LMS then relaunches with entry "resume"), a last commit, and the end of the session — after which nothing
  // is sent (a page hidden after pagehide must not commit).
  function finish() {
    if (finished || !lms) return;
    retry.stop();
    clearTimeout(initTimer);
    if (!status.connected) { finished = true; saveLocal(true); return; }  // no session to end: the work stays here
    if (status.recording) {
      if (record.lesson && !record.done) dirty.add('resume');  // the state as the learner left it
      flush();
      const ms = Date.now() - startedAt;
      set(v.time, v.version === '2004' ? duration(ms) : timespan12(ms));
      set(v.exit, record.done ? (v.version === '2004' ? 'normal' : '') : 'suspend');
      commit();
    }
    finished = true;
    try { lms[v.finish](''); } catch (e) { /* the LMS keeps what was committed */ }
  }
  window.addEventListener('pagehide', finish);
  window.addEventListener('beforeunload', finish);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') flush(); });

  // What the adapter is doing, for a course author's console or a test: version, whether the LMS answered, its mode
  // and credit, whether it is failing, whether suspend_data had to be trimmed, statements sent, warnings.
  Object.defineProperty(window, 'attnplayLms', { value: Object.freeze({ status: () => JSON.parse(JSON.stringify(status)), finish }), writable: false });
  start();
})();
