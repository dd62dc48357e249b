// attnplay-cmi5.js — the page as a cmi5 assignable unit (AU). Active only when the address carries cmi5's five launch
// parameters (endpoint, fetch, registration, actor, activityId), as an LMS launches an AU of a `attnplay package
// --cmi5` course: elsewhere it returns at once. It takes its authorization token from the fetch URL (one POST; no
// credentials in the address), reads the LMS's launch data (mode, mastery score, context template, return address)
// and the learner's language preference, and sends the cmi5 defined statements in order — initialized, completed
// when the learner finishes the lesson, passed or failed against the mastery score, terminated when the page is left —
// with each answer as a cmi5 allowed "answered" statement between them. The step and the answers are kept in the
// State API (attnplay-progress), so a relaunch in the same registration opens the lesson as the learner left it and
// never completes or judges it twice. In Browse and Review modes only initialized and terminated are sent, and the
// learner is told; an LRS that fails is shown to the learner, the record is kept in this browser and sent again.
'use strict';
(function () {
  // The page's language tags ("en", "hi-Latn", any catalog's) are BCP 47 tags, as xAPI's language maps want.
  const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;
  const params = new URLSearchParams(location.search);
  const api = window.attnplay;
  const LAUNCH = ['endpoint', 'fetch', 'registration', 'actor', 'activityId'];
  if (!api || !LAUNCH.every((k) => params.get(k))) return;

  const endpoint = params.get('endpoint').replace(/\/?$/, '/');
  const fetchUrl = params.get('fetch');
  const registration = params.get('registration');
  const activityId = params.get('activityId');
  const RETRY_MS = 4000;          // while the LRS fails, what it has not taken is sent again this often (and with each event)
  const PROGRESS_STATE = 'attnplay-progress';
  const LESSON_IRI = 'https://attnplay.invalid/lessons/';  // as cmi5.xml names the AUs (course_package.cpp)
  const CMI5 = 'https://w3id.org/xapi/cmi5/context/';
  const VERB = 'http://adlnet.gov/expapi/verbs/';

  const status = { connected: false, started: false, mode: '', masteryScore: null, moveOn: '', failing: false,
    terminated: false, statements: 0, warnings: [] };
  function warn(text) { status.warnings.push(text); console.warn('attnplay cmi5: ' + text); }
  const notices = window.attnplayLmsNotices;
  function tell(which, key) { return notices ? notices.tell(which, key) : Promise.resolve(); }
  // (attnplay-api.js loads the notices before this script; the stand-in only keeps the status true without them.)
  const retry = notices ? notices.retrying(status, () => flush(), RETRY_MS)
    : { failing() { status.failing = true; }, recovered() { status.failing = false; }, stop() {} };

  let actor = null;
  try { actor = JSON.parse(params.get('actor')); } catch (e) { actor = null; }
  const agent = JSON.stringify(actor);

  // ---- the LRS -------------------------------------------------------------------------------------------------
  let auth = '';
  function lrs(method, resource, query, body, keepalive) {
    const url = endpoint + resource + (query ? '?' + new URLSearchParams(query) : '');
    const headers = { 'X-Experience-API-Version': '1.0.3', Authorization: auth };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), keepalive: !!keepalive,
      cache: 'no-store' });
  }
  const stateQuery = (stateId) => ({ stateId, activityId, agent, registration });
  // A failure worth trying again: no answer at all, or the server's own trouble (5xx, 429). Anything else — a refused
  // token, a missing LMS.LaunchData, a fetch URL already used — would fail the same way again.
  function failure(text, transient) { const e = new Error(text); e.transient = transient; return e; }
  const unreachable = (what) => (e) => { throw e && e.transient !== undefined ? e : failure(what + ': ' + (e && e.message || e), true); };
  const serverTrouble = (code) => code >= 500 || code === 429;
  // A document the LMS may not hold yet: its JSON, or null on 404.
  function readDocument(resource, query) {
    return lrs('GET', resource, query).then((r) => {
      if (r.status === 404) return null;
      if (!r.ok) throw failure(resource + ' ' + (query.stateId || query.profileId) + ': HTTP ' + r.status, serverTrouble(r.status));
      return r.json();
    }, unreachable(resource));
  }
  // cmi5 8.2: one POST; the answer is {"auth-token"} the first time and {"error-code", "error-text"} after. A try
  // that got no answer (or the server's trouble) can be made again: the LMS handed out no token.
  function takeToken() {
    return fetch(fetchUrl, { method: 'POST', cache: 'no-store' }).then((r) => {
      if (!r.ok) throw failure('the fetch URL answered HTTP ' + r.status, serverTrouble(r.status));
      return r.json();
    }, unreachable('the fetch URL')).then((j) => {
      if (!j || typeof j['auth-token'] !== 'string' || !j['auth-token'])
        throw failure('the fetch URL gave no token (error ' + (j && j['error-code']) + ': ' + (j && j['error-text']) + ')', false);
      auth = 'Basic ' + j['auth-token'];
    });
  }

  // ---- what this learner did: kept in the State API ---------------------------------------------------------------
  // answers[question] = {g: the answer as given (a choice's index, a number), ok, first, tries}; completed and judged
  // ('passed' | 'failed') hold for the whole registration: the LMS is told each at most once.
  let record = { v: 1, lesson: '', step: 1, answers: {}, completed: false, judged: '' };
  let questions = [];
  let steps = 1;
  let launchData = {};
  let normal = true;  // launchMode Normal: the learner's attempt is recorded
  let initializedAt = 0;

  function score() {
    const max = questions.length;
    const raw = questions.filter((q) => record.answers[q.question] && record.answers[q.question].first).length;
    return { raw, min: 0, max, scaled: max ? raw / max : 1 };
  }
  function duration(ms) {  // ISO 8601
    const s = Math.max(0, ms) / 1000;
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = Math.round((s % 60) * 100) / 100;
    return 'PT' + (h ? h + 'H' : '') + (m ? m + 'M' : '') + sec + 'S';
  }

  // ---- statements ------------------------------------------------------------------------------------------------
  // A statement's id (attnplay-lms-notices.js, loaded first, makes them for both adapters).
  function uuid() { return window.attnplayLmsNotices.uuid(); }
  // cmi5 orders a session's statements by timestamp: each is later than the one before.
  let lastStamp = 0;
  function timestamp() {
    lastStamp = Math.max(Date.now(), lastStamp + 1);
    return new Date(lastStamp).toISOString();
  }
  // The LMS's context template, never overwritten (cmi5 10.2.1): the registration, and for a defined statement the
  // cmi5 category (with moveOn's when its result has completion or success, 9.6.2.2); an allowed one names the AU as
  // its parent instead.
  function context(defined, moveOn) {
    const c = JSON.parse(JSON.stringify(launchData.contextTemplate || {}));
    c.registration = registration;
    const ca = c.contextActivities = c.contextActivities || {};
    const list = (v) => (Array.isArray(v) ? v : v ? [v] : []);
    if (defined) {
      const category = list(ca.category);
      for (const id of moveOn ? [CMI5 + 'categories/cmi5', CMI5 + 'categories/moveon'] : [CMI5 + 'categories/cmi5'])
        if (!category.some((a) => a && a.id === id)) category.push({ objectType: 'Activity', id });
      ca.category = category;
    } else {
      ca.parent = list(ca.parent).concat([{ objectType: 'Activity', id: activityId }]);
    }
    return c;
  }
  function statement(verb, object, result, ctx) {
    const s = { id: uuid(), actor, verb: { id: VERB + verb, display: { 'en-US': verb } }, object, context: ctx,
      timestamp: timestamp(), version: '1.0.3' };
    if (result) s.result = result;
    return s;
  }
  const au = () => ({ objectType: 'Activity', id: activityId });
  function defined(verb, result) {
    const judged = verb === 'passed' || verb === 'failed';
    const s = statement(verb, au(), result, context(true, verb === 'completed' || judged));
    if (judged && Number.isFinite(status.masteryScore))
      s.context.extensions = Object.assign({}, s.context.extensions, { [CMI5 + 'extensions/masteryscore']: status.masteryScore });
    return s;
  }
  // The question with the texts its answer event carried (rendered in the learner's language), as an interaction.
  const letter = (i) => String.fromCharCode(97 + Number(i));
  function questionActivity(q) {
    const text = typeof q.question_text === 'string' ? q.question_text : '';
    const tag = text && LANGUAGE_TAG.test(q.lang || '') ? q.lang : 'en-US';
    const c = q.correct_response;
    const pattern = q.kind === 'choice' ? letter(c)
      : +(c.number - c.tolerance).toPrecision(12) + '[:]' + +(c.number + c.tolerance).toPrecision(12);
    const definition = { type: 'http://adlnet.gov/expapi/activities/cmi.interaction', name: { [tag]: text || q.question },
      interactionType: q.kind === 'choice' ? 'choice' : 'numeric', correctResponsesPattern: [pattern] };
    if (text) definition.description = { [tag]: text };
    const texts = Array.isArray(q.choice_texts) ? q.choice_texts : [];
    if (q.kind === 'choice')
      definition.choices = texts.map((t, i) => ({ id: letter(i), description: { [tag]: String(t) || 'choice ' + (i + 1) } }));
    return { objectType: 'Activity', id: LESSON_IRI + encodeURIComponent(record.lesson) + '/' + encodeURIComponent(q.question),
      definition };
  }

  // ---- sending, in order; what the LRS did not take waits and is sent again ------------------------------------------
  const queue = [];
  let progressUnsent = false;
  let sending = null;
  const storeKey = 'attnplay-cmi5:' + registration + ':' + activityId;
  function readLocal() {
    try { return JSON.parse(localStorage.getItem(storeKey) || 'null'); } catch (e) { return null; }
  }
  function saveLocal(pending) {
    try { localStorage.setItem(storeKey, JSON.stringify(Object.assign({}, record, { pending }))); } catch (e) { /* the LRS is the only copy */ }
  }
  function send(s) {
    if (status.terminated || !auth) return;
    queue.push(s);
    flush();
  }
  function keepProgress() {
    if (!normal || !auth) return;
    progressUnsent = true;
    flush();
  }
  // A statement the LRS refuses for what it says (400) would be refused again: it is dropped with a warning. 409: the
  // LRS already holds that id (an earlier try arrived). Anything else — another status, no answer — is a failure.
  async function sendQueued() {
    while (queue.length) {
      const s = queue[0];
      const r = await lrs('POST', 'statements', null, s);
      if (r.status === 400) warn('the LRS refused a ' + s.verb.display['en-US'] + ' statement: ' + (await r.text()).slice(0, 200));
      else if (!r.ok && r.status !== 409) throw new Error('the LRS answered ' + r.status + ' to a statement');
      if (queue[0] === s) queue.shift();  // (terminate() may have taken the queue meanwhile)
      status.statements++;
    }
    if (progressUnsent) {
      progressUnsent = false;
      const r = await lrs('PUT', 'activities/state', stateQuery(PROGRESS_STATE), record);
      if (!r.ok) { progressUnsent = true; throw new Error('the LRS answered ' + r.status + ' to the kept progress'); }
    }
  }
  // (Nothing before the session has started: no statement may precede initialized, and a flush then would mark
  // this browser's record as sent.)
  function flush() {
    if (sending || status.terminated || !status.started) return sending;
    sending = sendQueued().then(() => {
      saveLocal(false);
      if (status.failing) recovered();
    }, (e) => {
      saveLocal(true);
      if (!status.failing && !status.terminated) failing(e);
    }).then(() => { sending = null; if (!status.failing && (queue.length || progressUnsent)) flush(); });
    return sending;
  }
  function failing(e) {
    warn((e && e.message || e) + ': kept in this browser and sent again every ' + RETRY_MS / 1000 + ' s');
    retry.failing();
  }
  function recovered() { retry.recovered(); }

  // ---- lesson events -------------------------------------------------------------------------------------------
  let live = false;  // events before the launch's resume are the page opening step 1: not the learner's
  function onAnswer(ev) {
    if (!normal || !ev.kind || ev.kind === 'do' || ev.lesson !== record.lesson) return;
    const prev = record.answers[ev.question];
    const a = { g: ev.given, ok: !!ev.correct, first: prev ? prev.first : !!ev.correct && ev.attempt === 1, tries: ev.attempt };
    record.answers[ev.question] = a;
    const q = Object.assign({ question: ev.question, kind: ev.kind, correct_response: ev.correct_response }, ev);
    const response = q.kind === 'choice' ? letter(ev.given) : String(ev.given);
    send(statement('answered', questionActivity(q), { response, success: a.ok }, context(false)));
    keepProgress();
  }
  function onStep(ev) {
    if (!normal || ev.lesson !== record.lesson) return;
    record.step = ev.step;
    steps = ev.steps || steps;
    keepProgress();
  }
  // Completed once per registration; passed or failed once too, against the LMS's mastery score, and only in Normal
  // mode (cmi5 10.2.2); a lesson judged failed is not judged again (its score, answers at the first try, is kept).
  function onComplete(ev) {
    if (!normal || ev.lesson !== record.lesson) return;
    const spent = duration(Date.now() - initializedAt);
    if (!record.completed) {
      record.completed = true;
      send(defined('completed', { completion: true, duration: spent }));
    }
    if (!record.judged && Number.isFinite(status.masteryScore)) {
      const s = score();
      record.judged = s.scaled >= status.masteryScore - 1e-9 ? 'passed' : 'failed';
      send(defined(record.judged, { success: record.judged === 'passed', duration: spent,
        score: { scaled: +s.scaled.toFixed(4), raw: s.raw, min: s.min, max: s.max } }));
    }
    keepProgress();
  }
  // While the LMS has not started the session yet (the fetch URL or the LRS unreachable at launch), what the learner
  // does waits in `held` — its statements are made after initialized, in the order it happened — and the answers and
  // step are kept in this browser meanwhile (adoptKept reads them back, here or at the next launch).
  let holding = false;
  const held = [];
  let localBefore = null;  // this browser's record before holding began: put back should the launch not be Normal
  function startHolding() {
    holding = true;
    try { localBefore = localStorage.getItem(storeKey); } catch (e) { localBefore = null; }
    const local = readLocal();  // an earlier launch's record the LRS never took stays in what is kept
    if (local && local.pending && local.lesson === record.lesson && local.answers && typeof local.answers === 'object')
      for (const [id, a] of Object.entries(local.answers)) if (!record.answers[id]) record.answers[id] = a;
  }
  function dropHeld() {
    held.length = 0;
    try { if (localBefore === null) localStorage.removeItem(storeKey); else localStorage.setItem(storeKey, localBefore); } catch (e) { /* as it was */ }
  }
  function hold(ev) {
    if (ev.lesson !== record.lesson || (ev.type !== 'answer' && ev.type !== 'lesson-step' && ev.type !== 'lesson-complete')) return;
    held.push(ev);
    if (ev.type === 'answer' && ev.kind && ev.kind !== 'do') {
      const prev = record.answers[ev.question];
      record.answers[ev.question] = { g: ev.given, ok: !!ev.correct, first: prev ? prev.first : !!ev.correct && ev.attempt === 1, tries: ev.attempt };
    } else if (ev.type === 'lesson-step') record.step = ev.step;
    saveLocal(true);
  }
  api.onEvent((ev) => {
    if (holding) { hold(ev); return; }
    if (!live) return;
    if (ev.type === 'answer') onAnswer(ev);
    else if (ev.type === 'lesson-step') onStep(ev);
    else if (ev.type === 'lesson-complete') onComplete(ev);
  });

  // ---- launch ------------------------------------------------------------------------------------------------------
  // A teacher's lesson file (?lesson-url=, as a package's own lesson launches) opens once the page has fetched it.
  const fileLesson = !params.get('lesson-url') ? null : new Promise((resolve) => {
    api.onEvent((ev) => { if (ev.type === 'lesson-step') resolve(); });
    setTimeout(resolve, 20000);
  });
  // cmi5LearnerPreferences' first language the page has (the rule the page's start applies to the browser's list),
  // unless the address names one.
  function preferredLang(prefs) {
    if (params.get('lang') || !prefs || typeof prefs.languagePreference !== 'string') return Promise.resolve('');
    return api.preferredLanguage(prefs.languagePreference).then((tag) => (typeof tag === 'string' ? tag : ''));
  }
  function readLaunch(data) {
    launchData = data && typeof data === 'object' ? data : {};
    status.mode = ['Normal', 'Browse', 'Review'].includes(launchData.launchMode) ? launchData.launchMode : 'Normal';
    normal = status.mode === 'Normal';
    const m = Number(launchData.masteryScore);
    status.masteryScore = launchData.masteryScore !== undefined && m >= 0 && m <= 1 ? m : null;
    status.moveOn = String(launchData.moveOn || '');
  }
  // The record the LRS kept for this registration, and one this browser kept while the LRS failed (its answers the
  // LRS does not have go on to it).
  function adoptKept(kept, lessonId) {
    if (kept && kept.lesson === lessonId && kept.answers && typeof kept.answers === 'object') Object.assign(record, kept);
    const local = readLocal();
    if (!normal || !local || !local.pending || local.lesson !== lessonId) return;
    for (const [id, a] of Object.entries(local.answers || {})) if (!record.answers[id]) record.answers[id] = a;
    record.completed = record.completed || !!local.completed;
    record.judged = record.judged || local.judged || '';
    progressUnsent = true;
  }
  // The kept record shown: its answers, its language and its step — unless the learner has already moved while the
  // session was starting (then only the answers they have not given again are shown, and they stay where they are).
  function restore(lang, moved) {
    const given = {};
    const again = new Set(held.filter((ev) => ev.type === 'answer').map((ev) => ev.question));
    for (const [id, a] of Object.entries(record.answers))
      if (!again.has(id) && typeof a.g === 'number' && Number.isFinite(a.g)) given[id] = { given: a.g, attempts: Math.max(1, Number(a.tries) || 1) };
    const step = Math.max(1, Math.min(steps, Number(record.step) || 1));
    return Promise.resolve(lang ? api.setState({ lang }) : { ok: true })
      .then(() => (Object.keys(given).length ? api.keepAnswers(record.lesson, given) : { ok: true }))
      .then((res) => { if (!res.ok) warn('the kept answers could not be shown: ' + res.error); })
      .then(() => (step > 1 && !moved ? api.setState({ lesson: { id: record.lesson, step } }) : { ok: true }));
  }
  // The session's start with the LMS: the token, LMS.LaunchData, the learner's preferences and the kept progress.
  // Tried again after each of START_RETRY_MS's waits while it fails for a reason that can pass (no answer, 5xx);
  // the token, once taken, is kept (the fetch URL gives it only once).
  const START_RETRY_MS = notices ? notices.START_RETRY_MS : [];
  status.start = { attempts: 0, retrying: false, gaveUp: false };
  function connect(round = 0) {
    status.start.attempts++;
    return (auth ? Promise.resolve() : takeToken())
      .then(() => Promise.all([readDocument('activities/state', stateQuery('LMS.LaunchData')),
        readDocument('agents/profile', { agent, profileId: 'cmi5LearnerPreferences' }).catch(() => null),
        readDocument('activities/state', stateQuery(PROGRESS_STATE)).catch(() => null)]))
      .then((docs) => {
        if (!docs[0]) throw failure('the LMS wrote no LMS.LaunchData', false);
        status.start.retrying = false;
        return docs;
      }, (e) => {
        if (!e.transient || round >= START_RETRY_MS.length) throw e;
        warn('could not start yet (' + e.message + '): asked again in ' + START_RETRY_MS[round] / 1000 + ' s');
        status.start.retrying = true;
        if (holding) tell('alert', 'lms.starting');
        return new Promise((r) => setTimeout(r, START_RETRY_MS[round])).then(() => connect(round + 1));
      });
  }
  // The lesson the page opened (not the LMS's doing): once it is open, what the learner does is theirs.
  function openedLesson() {
    return api.ready.then(() => fileLesson).then(() => api.getResult()).then((r) => {
      const l = r && r.lesson;
      if (!l) { warn('the page opened no lesson (launch it with ?lesson=ID)'); return null; }
      record.lesson = l.id; record.step = l.step; steps = l.steps || 1; questions = l.questions || [];
      return l;
    });
  }
  function start() {
    if (!actor || typeof actor !== 'object') {
      warn('the launch\'s actor is not JSON: nothing is recorded');
      tell('alert', 'lms.not_connected');
      return Promise.resolve();
    }
    const connecting = connect();
    let connected = false;
    connecting.then(() => { connected = true; }, () => {});
    const opened = openedLesson().then((l) => {
      if (!l || connected) return l;
      startHolding();
      if (status.start.retrying) tell('alert', 'lms.starting');
      return l;
    });
    return Promise.all([connecting, opened]).then(([[data, prefs, kept], l]) => {
      readLaunch(data);
      status.connected = true;
      if (!l) return undefined;
      const moved = held.length > 0;
      holding = false;
      adoptKept(kept, l.id);
      return preferredLang(prefs).then((lang) => restore(lang, moved));
    }).then(() => {
      const cont = document.getElementById('continue');
      if (cont) cont.hidden = true;  // the LMS, not this browser's storage, says where to continue
      initializedAt = Date.now();
      live = true;
      status.started = true;
      send(defined('initialized'));
      if (status.start.attempts > 1) tell('alert', '');
      if (normal) { replayHeld(); keepProgress(); } else { if (held.length) dropHeld(); tell('mode', 'lms.not_recorded'); }
    }).catch((e) => {
      holding = false;
      status.start.retrying = false;
      status.start.gaveUp = true;
      warn('could not start: ' + (e && e.message || e) + (held.length ? ': what the learner did is kept in this browser only' : ''));
      if (held.length) saveLocal(true);
      tell('alert', 'lms.not_connected');
    });
  }
  // What the learner did while the session was starting, sent now in its order (after initialized).
  function replayHeld() {
    for (const ev of held.splice(0)) {
      if (ev.type === 'answer') onAnswer(ev);
      else if (ev.type === 'lesson-step') onStep(ev);
      else onComplete(ev);
    }
  }

  // ---- leaving ---------------------------------------------------------------------------------------------------
  // terminated is the session's last statement: it goes with whatever the LRS has not taken yet, in one request that
  // outlives the page (keepalive), and the kept progress beside it. Nothing is sent after it.
  function terminate() {
    if (status.terminated || !status.started) return;
    retry.stop();
    const last = queue.splice(0).concat([defined('terminated', { duration: duration(Date.now() - initializedAt) })]);
    status.terminated = true;
    lrs('POST', 'statements', null, last, true).catch(() => {});
    if (normal) lrs('PUT', 'activities/state', stateQuery(PROGRESS_STATE), record, true).catch(() => {});
    saveLocal(status.failing);  // whether this last request arrives is not known: while failing, a relaunch sends it on
  }
  // The learner leaves through the page (an exit control): the LMS's returnURL, when it gave one, is where they go.
  function exit() {
    terminate();
    if (typeof launchData.returnURL === 'string' && launchData.returnURL) location.href = launchData.returnURL;
  }
  window.addEventListener('pagehide', terminate);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') flush(); });

  // What the AU is doing, for a course author's console or a test.
  Object.defineProperty(window, 'attnplayCmi5', { value: Object.freeze({ status: () => JSON.parse(JSON.stringify(status)), exit }),
    writable: false });
  start();
})();
