// attnplay-lms-notices.js — what the learner is told about the course that launched the page: its mode or credit, and
// a course that stopped taking the record. Shared by the SCORM adapter (attnplay-lms.js) and the cmi5 AU
// (attnplay-cmi5.js), which load it first; texts from the catalogs (lms.*) in the page's language, through the
// parallel DOM's description (a11y.cpp). Also what both do alike: sending the record again while the course fails,
// and the statements' ids.
'use strict';
(function () {
  const api = window.attnplay;
  if (!api || window.attnplayLmsNotices) return;

  let words = {};
  const shown = { mode: '', alert: '' };  // the catalog key each notice shows ('' hides it)
  function loadWords() {
    if (!api.a11y || !api.a11y.description) return Promise.resolve();
    return Promise.resolve().then(() => api.a11y.description()).then((d) => { if (d && d.words) words = d.words; }).catch(() => {});
  }
  // Above the canvas, never in the way of a pointer (the lesson is drawn under them).
  function noticeBox() {
    let box = document.getElementById('attnplay-lms-notices');
    if (box) return box;
    box = document.createElement('div');
    box.id = 'attnplay-lms-notices';
    box.style.cssText = 'position:fixed;left:50%;top:8px;transform:translateX(-50%);z-index:7;width:max-content;' +
      'max-width:min(560px,92vw);display:flex;flex-direction:column;gap:6px;pointer-events:none;' +
      'font:15px/1.4 "DejaVu Sans",sans-serif;text-align:center';
    const note = (id, role, colours) => {
      const el = document.createElement('div');
      el.id = id;
      el.setAttribute('role', role);
      el.hidden = true;
      el.style.cssText = 'padding:8px 14px;border-radius:6px;color:#fff;box-shadow:0 2px 10px rgba(0,0,0,0.5);' + colours;
      box.appendChild(el);
    };
    note('attnplay-lms-mode', 'status', 'background:#1d2a3a;border:2px solid #8ab4ff');
    note('attnplay-lms-alert', 'alert', 'background:#3a1d1d;border:2px solid #ff9a8a');
    document.body.appendChild(box);
    return box;
  }
  function render() {
    noticeBox();
    for (const [id, key] of [['attnplay-lms-mode', shown.mode], ['attnplay-lms-alert', shown.alert]]) {
      const el = document.getElementById(id);
      const text = key ? words[key] || '' : '';
      if (el.textContent !== text) el.textContent = text;
      el.hidden = !text;
      if (id === 'attnplay-lms-alert') el.style.borderColor = key === 'lms.recorded_again' ? '#8ae0a0' : '#ff9a8a';
    }
  }
  // A text whose catalog part is still on its way reads "…" (or is missing): asked for again shortly.
  let rereads = 0;
  // tell('mode' | 'alert', catalog key or '' to hide); tell() shows the same keys again (a new language).
  function tell(which, key) {
    if (which) shown[which] = key;
    return loadWords().then(() => {
      render();
      const waiting = [shown.mode, shown.alert].some((k) => k && (!words[k] || words[k] === '…'));
      if (waiting && rereads++ < 60) setTimeout(() => tell(), 500);
    });
  }
  if (api.onChange) api.onChange(() => { if (shown.mode || shown.alert) tell(); });  // a new language

  // While the course's LMS or LRS is not taking the record: the learner is told (an alert), `flush` runs again every
  // `everyMs` until `recovered()`, whose notice shows for a while. `status.failing` says which it is.
  function retrying(status, flush, everyMs) {
    const RECOVERED_SHOWN_MS = 10000;
    let retryTimer = 0, recoveredTimer = 0;
    return {
      failing() {
        status.failing = true;
        clearTimeout(recoveredTimer);
        tell('alert', 'lms.failing');
        if (!retryTimer) retryTimer = setInterval(flush, everyMs);
      },
      recovered() {
        status.failing = false;
        this.stop();
        tell('alert', 'lms.recorded_again');
        recoveredTimer = setTimeout(() => { if (!status.failing) tell('alert', ''); }, RECOVERED_SHOWN_MS);
      },
      stop() {
        clearInterval(retryTimer);
        retryTimer = 0;
      },
    };
  }

  // A course whose LMS does not start the session at launch (a session still being set up, a passing error, an
  // unreachable LRS) is asked again after each of these waits, about half a minute in all, while the lesson runs and
  // what the learner does is kept.
  const START_RETRY_MS = Object.freeze([1000, 2000, 4000, 8000, 15000]);

  // A version 4 UUID (an xAPI statement's id), where the browser has no crypto.randomUUID (an http: page).
  function uuid() {
    if (crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
  }

  Object.defineProperty(window, 'attnplayLmsNotices', { value: Object.freeze({ tell, retrying, uuid, START_RETRY_MS }), writable: false });
})();
