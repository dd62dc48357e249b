// attnplay-embed.js — the postMessage API for a page embedding the playground in an <iframe>.
// Only origins listed in the embedding URL (?origins=…, validated in C++) are obeyed; replies and
// events go to that exact origin, never "*". Messages are checked against a fixed command list and
// schema with size and depth limits; nothing from a message is ever inserted as HTML.
// @ts-check — checked against attnplay.d.ts (tests/types/, docs/dev/types.md).
'use strict';
(function () {
  const MAX_MESSAGE_BYTES = 1 << 20;  // the JSON form of one message
  const MAX_QUEUE = 32;               // messages that arrive before the app is ready
  const MAX_SUBSCRIBERS = 8;
  const COMMANDS = new Set(['ping', 'getState', 'setState', 'getResult', 'shareURL', 'subscribe', 'unsubscribe', 'loadLesson']);
  // The events a host may subscribe to and the state decoder's nesting limit come from the C++ tables
  // (attnplay.hostProtocol(): src/app/page_events.h, data/manifest.json), set once the app is ready, before any
  // message is checked.
  let EVENTS = new Set();
  let MAX_DEPTH = 0;
  const KEYS = new Set(['attnplay', 'id', 'cmd', 'state', 'events', 'lesson', 'url', 'name']);

  const api = window.attnplay;
  if (!api) return;
  // attnplay.watch()'s answer as compare() reads it: key by key.
  /** @typedef {{state: Record<string, unknown>, parts: Record<string, string>, row: number, max_weight: number, saturated: boolean}} Snapshot */
  /** @type {string[] | null} */
  let origins = null;  // null until ready: messages wait in the queue
  /** @type {MessageEvent[]} */
  const queue = [];
  /** @type {{source: MessageEventSource | null, origin: string, events: Set<string>}[]} */
  const subscribers = [];  // {source, origin, events: Set}
  /** @type {Snapshot | null} */
  let last = null;         // the previous watch() snapshot
  let listening = false;  // onChange registered (once, on the first subscription)

  /** @param {unknown} x */
  function isPlainObject(x) {
    if (x === null || typeof x !== 'object' || Array.isArray(x)) return false;
    const proto = Object.getPrototypeOf(x);
    return proto === Object.prototype || proto === null;
  }

  // Depth of a structured-clone value, giving up as soon as it passes the limit.
  /**
   * @param {any} x
   * @param {number} depth
   */
  function tooDeep(x, depth) {
    if (x === null || typeof x !== 'object') return false;
    if (depth >= MAX_DEPTH) return true;
    for (const k of Object.keys(x)) if (tooDeep(x[k], depth + 1)) return true;
    return false;
  }

  // Returns an error string for a malformed message, or '' if it is a valid command.
  /** @param {any} data a message's data, not yet known to be a command */
  function check(data) {
    for (const k of Object.keys(data)) if (!KEYS.has(k)) return 'unknown message field "' + k.slice(0, 40) + '"';
    const id = data.id;
    if (id !== undefined && !(Number.isSafeInteger(id) || (typeof id === 'string' && id.length <= 64)))
      return 'id must be an integer or a string of at most 64 characters';
    if (typeof data.cmd !== 'string' || !COMMANDS.has(data.cmd)) return 'unknown command';
    if (data.cmd === 'setState') {
      if (!isPlainObject(data.state)) return 'setState needs "state": an object';
    } else if (data.state !== undefined) {
      return '"state" is only allowed with setState';
    }
    if (data.cmd === 'loadLesson') {
      // A teacher's lesson: its file as text or as the parsed object, or a URL the page fetches.
      const given = (data.lesson !== undefined ? 1 : 0) + (data.url !== undefined ? 1 : 0);
      if (given !== 1) return 'loadLesson needs "lesson" (the file\'s text or object) or "url", not both';
      if (data.lesson !== undefined && typeof data.lesson !== 'string' && !isPlainObject(data.lesson))
        return '"lesson" must be the lesson file\'s text or its JSON object';
      if (data.url !== undefined && (typeof data.url !== 'string' || data.url.length > 2048)) return '"url" must be a string';
      if (data.name !== undefined && (typeof data.name !== 'string' || data.name.length > 200)) return '"name" must be a string';
    } else if (data.lesson !== undefined || data.url !== undefined || data.name !== undefined) {
      return '"lesson", "url" and "name" are only allowed with loadLesson';
    }
    if (data.cmd === 'subscribe' && data.events !== undefined) {
      if (!Array.isArray(data.events) || data.events.length > 8 || !data.events.every((/** @type {unknown} */ e) => typeof e === 'string' && EVENTS.has(e)))
        return 'events must be a list of: ' + Array.from(EVENTS).join(', ');
    } else if (data.events !== undefined) {
      return '"events" is only allowed with subscribe';
    }
    if (tooDeep(data, 0)) return 'message is nested deeper than ' + MAX_DEPTH + ' levels';
    let size = 0;
    try { size = JSON.stringify(data).length; } catch (e) { return 'message is not JSON-serialisable'; }
    if (size > MAX_MESSAGE_BYTES) return 'message is larger than 1 MiB';
    return '';
  }

  /**
   * @param {MessageEvent} ev
   * @param {Attnplay.MessageId | undefined} id
   * @param {{ok: true, result?: Attnplay.EmbedResults[keyof Attnplay.EmbedResults]} | {ok: false, error: string}} body
   */
  function reply(ev, id, body) {
    const msg = Object.assign({ attnplay: 1 }, id === undefined ? {} : { id }, body);
    // @ts-expect-error -- a window's message event comes from a window (never a port or a worker)
    if (ev.source) ev.source.postMessage(msg, ev.origin);  // the exact, allow-listed origin
  }

  /** @param {MessageEvent} ev */
  async function handle(ev) {
    // @ts-expect-error -- origins is set before any message is handled
    if (!origins.includes(ev.origin)) return;  // not allow-listed: ignored, no reply
    const data = ev.data;
    if (!isPlainObject(data) || data.attnplay !== 1) return;  // not for us
    const id = (Number.isSafeInteger(data.id) || (typeof data.id === 'string' && data.id.length <= 64)) ? data.id : undefined;
    const error = check(data);
    if (error) { reply(ev, id, { ok: false, error }); return; }
    try {
      switch (data.cmd) {
        case 'ping': reply(ev, id, { ok: true, result: 'pong' }); break;
        case 'getState': reply(ev, id, { ok: true, result: await api.getState() }); break;
        case 'getResult': reply(ev, id, { ok: true, result: await api.getResult() }); break;
        case 'shareURL': reply(ev, id, { ok: true, result: await api.shareURL() }); break;
        case 'setState': {
          // Locked controls stop the learner, not the host: the page that embeds decides.
          const r = await api.setState(data.state);
          // Its change event goes out before the answer: a host that awaited setState has heard the change, and
          // no event of a later command (an error) can arrive before it.
          if (r.ok) await poll().catch(() => {});
          reply(ev, id, r.ok ? { ok: true } : { ok: false, error: String(r.error) });
          break;
        }
        case 'loadLesson': {
          const r = data.url !== undefined
            ? await api.loadLessonURL(data.url)
            : await api.loadLesson(typeof data.lesson === 'string' ? data.lesson : JSON.stringify(data.lesson), data.name || 'lesson.json');
          reply(ev, id, r.ok ? { ok: true, result: { id: r.id, steps: r.steps, warnings: r.warnings } } : { ok: false, error: String(r.error) });
          break;
        }
        case 'subscribe': {
          const events = new Set(data.events || Array.from(EVENTS));
          let sub = subscribers.find((s) => s.source === ev.source && s.origin === ev.origin);
          if (!sub) {
            if (subscribers.length >= MAX_SUBSCRIBERS) { reply(ev, id, { ok: false, error: 'too many subscribers' }); return; }
            sub = { source: ev.source, origin: ev.origin, events };
            subscribers.push(sub);
          }
          sub.events = events;
          /** @type {Snapshot} */
          const now = await api.watch();
          if (!last) last = now;
          reply(ev, id, { ok: true, result: { events: Array.from(events), saturated: now.saturated, max_weight: now.max_weight, row: now.row } });
          startPolling();
          break;
        }
        case 'unsubscribe': {
          const i = subscribers.findIndex((s) => s.source === ev.source && s.origin === ev.origin);
          if (i >= 0) subscribers.splice(i, 1);
          reply(ev, id, { ok: true });
          break;
        }
      }
    } catch (/** @type {any} */ e) {
      reply(ev, id, { ok: false, error: String(e && e.message || e) });
    }
  }

  /**
   * @param {string} name
   * @param {object} body the event's fields
   */
  function emit(name, body) {
    for (const s of subscribers)
      // @ts-expect-error -- a window's message event comes from a window (never a port or a worker)
      if (s.events.has(name)) s.source.postMessage(Object.assign({ attnplay: 1, event: name }, body), s.origin);
  }

  // Compares snapshots of attnplay.watch(): which state fields changed, and saturation edges. Runs
  // when the app reports a change (attnplay.onChange), not on a timer, and after a host's setState; one at a
  // time (two at once would both compare with the same snapshot and tell one change twice).
  let polling = Promise.resolve();
  function poll() {
    polling = polling.then(compare, compare);
    return polling;
  }
  async function compare() {
    if (!subscribers.length) return;
    /** @type {Snapshot} */
    const now = await api.watch();
    if (last) {
      /** @type {Record<string, unknown>} */
      const changed = {};
      for (const k of Object.keys(now.state))
        if (JSON.stringify(now.state[k]) !== JSON.stringify(last.state[k])) changed[k] = now.state[k];
      const names = Object.keys(changed);
      for (const k of Object.keys(now.parts)) if (now.parts[k] !== last.parts[k]) names.push(k);
      if (names.length) emit('change', { changed: names, values: changed });
      if (now.saturated !== last.saturated || (now.row !== last.row && now.saturated))
        emit('saturation', { saturated: now.saturated, max_weight: now.max_weight, row: now.row });
    }
    last = now;
  }
  function startPolling() {
    if (listening) return;
    listening = true;
    api.onChange(() => { poll().catch(() => {}); });
    // Lesson events go to subscribers as they are, e.g. {event: 'answer', question, correct}.
    api.onEvent((/** @type {{[key: string]: any}} */ ev) => { const body = Object.assign({}, ev); const name = body.type; delete body.type; emit(name, body); });
  }

  // An xAPI statement the LMS adapter made (attnplay-lms.js): subscribers hear {event: 'xapi', statement}.
  document.addEventListener('attnplay-xapi', (e) => emit('xapi', { statement: e.detail }));

  // The module died (attnplay-api.js): every subscriber and an allow-listed parent hear {event: 'error'}.
  document.addEventListener('attnplay-crash', (e) => {
    const msg = { attnplay: 1, event: 'error', error: String(e.detail && e.detail.error), crashed: true };
    // @ts-expect-error -- a window's message event comes from a window (never a port or a worker)
    for (const s of subscribers) s.source.postMessage(msg, s.origin);
    const parentOrigin = location.ancestorOrigins && location.ancestorOrigins.length ? location.ancestorOrigins[0] : '';
    if (window.parent !== window && parentOrigin && origins && origins.includes(parentOrigin) &&
        !subscribers.some((s) => s.source === window.parent)) window.parent.postMessage(msg, parentOrigin);
  });

  window.addEventListener('message', (ev) => {
    if (origins) { handle(ev); return; }
    if (queue.length < MAX_QUEUE) queue.push(ev);
  });

  api.ready.then(async () => {
    const info = await api.embedInfo();
    const protocol = await api.hostProtocol();
    EVENTS = new Set(protocol.events);
    MAX_DEPTH = protocol.json_depth;
    origins = Array.isArray(info && info.origins) ? info.origins.slice() : [];
    for (const ev of queue.splice(0)) handle(ev);
    // Tell the embedding page we are ready, if it is allow-listed (Chromium exposes the parent's origin).
    const parentOrigin = location.ancestorOrigins && location.ancestorOrigins.length ? location.ancestorOrigins[0] : '';
    if (window.parent !== window && parentOrigin && origins.includes(parentOrigin))
      window.parent.postMessage({ attnplay: 1, event: 'ready' }, parentOrigin);
  }).catch(() => {});
})();
