// attention-playground.js — the <attention-playground> element for course pages: the playground in an
// <iframe>, its embed parameters as attributes, its postMessage API as methods and its events as DOM
// events. One script file, no inline code, no eval: it works under a strict Content-Security-Policy.
//
//   <script src="https://playground.example/attention-playground.js"></script>
//   <attention-playground preset="saturation" panels="heatmap,saturation" lock="scale"></attention-playground>
//
// Attributes: src (the playground page; default index.html next to this script), panels, lock, hide,
// workspace (embed parameters: changing one reloads the frame, keeping the state), preset, lesson, step,
// lesson-src (a teacher's lesson file, fetched by this page and handed to the frame: loadLesson),
// lang, state (JSON of a partial state), d-k, scale, temperature, sentence, theme (state: changed through
// setState, no reload), title, height (pixels or a CSS length; default 420). Methods: getState(), setState(partial) → {ok, error}, getResult(), shareURL(),
// loadLesson(text or object) → {ok, result | error}; static AttentionPlayground.fragmentOf(partialState) → "s=1.…";
// properties: ready, result (promises), frame. Events: ready, change, saturation and any other event the
// frame sends (CustomEvent, the message's fields in detail), error (a state the page refused).
// @ts-check — checked against attnplay.d.ts (tests/types/, docs/dev/types.md).
'use strict';
(function () {
  if (typeof window === 'undefined' || !window.customElements || customElements.get('attention-playground')) return;
  // @ts-expect-error -- currentScript may be an SVG <script> to the compiler; this file is loaded by an HTML one.
  const scriptURL = document.currentScript && document.currentScript.src ? document.currentScript.src : location.href;

  const EMBED_ATTRIBUTES = ['src', 'panels', 'lock', 'hide', 'workspace'];
  // Attribute → state key and how its text becomes the value.
  /** @type {Record<string, [keyof Attnplay.State, (text: string) => string | number | boolean]>} */
  const STATE_ATTRIBUTES = {
    'preset': ['preset', String],
    'd-k': ['d_k', Number],
    'scale': ['scale', (v) => v !== 'false' && v !== '0'],
    'temperature': ['temperature', Number],
    'sentence': ['sentence', String],
    'theme': ['theme', String],
    'lang': ['lang', String],
  };
  const EVENT_NAME = /^[a-z][a-z0-9-]{0,39}$/;
  const REPLY_TIMEOUT_MS = 30000;

  /** @param {string} text */
  function base64url(text) {
    const bytes = new TextEncoder().encode(text);
    let bin = '';
    // @ts-expect-error -- apply takes any array-like (a Uint8Array's numbers), not only an Array.
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }
  // The page's share fragment without compression ('j': plain JSON), see the README's "Share links".
  const fragmentOf = (/** @type {Attnplay.StateUpdate} */ state) => 's=1.' + base64url('j' + JSON.stringify(state));

  /** @implements {Attnplay.AttentionPlayground} */
  class AttentionPlayground extends HTMLElement {
    // The share fragment ("s=1.…") of a partial state, as the page reads it: for links a host builds itself.
    /** @param {Attnplay.StateUpdate} state */
    static fragmentOf(state) {
      return fragmentOf(state);
    }

    static get observedAttributes() {
      return EMBED_ATTRIBUTES.concat(Object.keys(STATE_ATTRIBUTES), ['lesson', 'step', 'state', 'title', 'height', 'lesson-src']);
    }

    constructor() {
      super();
      /** @type {HTMLIFrameElement | null} */
      this._frame = null;
      this._origin = '';
      this._nextId = 1;
      /** @type {Map<number, {resolve: (reply: any) => void, reject: (error: Error) => void, timer: ReturnType<typeof setTimeout>, resolveErrors: boolean}>} */
      this._pending = new Map();  // id → {resolve, reject, timer}
      this._isReady = false;
      this._carry = '';           // a fragment carrying the state across a reload
      /** @type {Attnplay.StateUpdate | null} */
      this._queuedState = null;   // state attribute changes made before the frame is ready
      // Declared here for the type checker, set by _newReady and _navigate.
      /** @type {Promise<AttentionPlayground>} */
      this._ready;
      /** @type {(element: AttentionPlayground) => void} */
      this._resolveReady;
      this._newReady();
      this._onMessage = (/** @type {MessageEvent} */ ev) => this._message(ev);
      this._onLoad = () => this._loaded();
    }

    _newReady() {
      this._ready = new Promise((resolve) => { this._resolveReady = resolve; });
    }

    get ready() { return this._ready; }
    get frame() { return this._frame; }
    get result() { return this.getResult(); }

    /** @returns {Promise<Attnplay.State>} */
    getState() { return this._command('getState'); }
    /** @returns {Promise<Attnplay.Result>} */
    getResult() { return this._command('getResult'); }
    /** @returns {Promise<string>} */
    shareURL() { return this._command('shareURL'); }
    // Resolves {ok: true} or {ok: false, error} like window.attnplay.setState; the state is unchanged on error.
    /**
     * @param {Attnplay.StateUpdate} partial
     * @returns {Promise<Attnplay.OkOrError>}
     */
    setState(partial) {
      return this._command('setState', { state: partial }, true);
    }
    // A teacher's lesson (the file's text or its object), opened at step 1: {ok, result: {id, steps, warnings}}
    // or {ok: false, error}; a refused lesson changes nothing in the frame.
    /**
     * @param {string | object} lesson
     * @param {string} [name]
     */
    loadLesson(lesson, name) {
      /** @type {{lesson: string | object, name?: string}} */
      const extra = { lesson };
      if (name) extra.name = String(name).slice(0, 200);
      return this._command('loadLesson', extra, true);
    }

    connectedCallback() {
      window.addEventListener('message', this._onMessage);
      if (!this._frame) this._build();
    }

    disconnectedCallback() {
      window.removeEventListener('message', this._onMessage);
    }

    /**
     * @param {string} name
     * @param {string | null} oldValue
     * @param {string | null} newValue
     */
    attributeChangedCallback(name, oldValue, newValue) {
      if (!this._frame) return;
      const layout = name === 'title' || name === 'height' || EMBED_ATTRIBUTES.includes(name);
      // A state attribute set again to the value it had is still a command: the learner may have moved
      // on since (a host sends them back to step 1 with step="1" while the attribute already says 1).
      if (layout && oldValue === newValue) return;
      if (name === 'title') { this._frame.title = newValue || 'Attention Playground'; return; }
      if (name === 'height') { this._size(); return; }
      if (name === 'lesson-src') { if (newValue) this._lessonSource(); return; }
      if (EMBED_ATTRIBUTES.includes(name)) { this._reload(); return; }
      if (name === 'lang') this._langOfFrame();
      const partial = name === 'state' ? this._stateAttribute()
        : name === 'lesson' || name === 'step' ? this._lessonAttribute() : this._stateFromAttribute(name);
      if (partial) this._applyState(partial);
    }

    // ---- the frame --------------------------------------------------------------------------------
    _build() {
      const root = this.shadowRoot || this.attachShadow({ mode: 'open' });
      const frame = document.createElement('iframe');
      frame.title = this.getAttribute('title') || 'Attention Playground';
      frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-downloads');
      frame.setAttribute('allow', 'clipboard-write');
      frame.style.display = 'block';
      frame.style.width = '100%';
      frame.style.border = '0';
      frame.addEventListener('load', this._onLoad);
      if (!this.style.display) this.style.display = 'block';
      this._frame = frame;
      this._size();
      // The address first: a frame inserted without one loads about:blank and fires a load of its own.
      this._navigate(this._initialState());
      root.appendChild(frame);
    }

    _size() {
      const h = this.getAttribute('height');
      // @ts-expect-error -- called once _build made the frame
      this._frame.style.height = h ? (/^\d+$/.test(h) ? h + 'px' : h) : '420px';
    }

    _initialState() {
      const state = Object.assign({}, this._stateAttribute() || {});
      for (const name of Object.keys(STATE_ATTRIBUTES)) Object.assign(state, this._stateFromAttribute(name) || {});
      if (this.hasAttribute('lesson')) Object.assign(state, this._lessonAttribute());
      return state;
    }

    _langOfFrame() {
      const lang = this.getAttribute('lang');
      // @ts-expect-error -- called once _build made the frame
      if (lang) this._frame.setAttribute('lang', lang); else this._frame.removeAttribute('lang');
    }

    /** @param {Attnplay.StateUpdate | null} initial the state the frame opens with (none: the carried one) */
    _navigate(initial) {
      let url;
      try { url = new URL(this.getAttribute('src') || 'index.html', this.getAttribute('src') ? location.href : scriptURL); } catch (e) { url = null; }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        this._error('src must be an http(s) address of the playground page');
        return;
      }
      const query = new URLSearchParams({ embed: '1' });
      for (const name of ['panels', 'lock', 'hide', 'workspace']) {
        const v = this.getAttribute(name);
        if (v) query.set(name, v);
      }
      query.set('origins', location.origin);  // the frame obeys only this page
      url.search = query.toString();
      this._initial = initial;
      url.hash = this._carry || (initial && Object.keys(initial).length ? fragmentOf(initial) : '');
      this._origin = url.origin;
      this._isReady = false;
      this._langOfFrame();
      // @ts-expect-error -- called once _build made the frame
      this._frame.src = url.href;
    }

    // Embed parameters are read once by the page: reload it, carrying the current state in the fragment.
    async _reload() {
      this._carry = '';
      if (this._isReady) {
        try {
          const link = await this._command('shareURL');
          const hash = String(link).split('#')[1];
          if (hash) this._carry = hash;
        } catch (e) { /* reload with the attributes' state */ }
      }
      for (const p of this._pending.values()) { clearTimeout(p.timer); p.reject(new Error('the playground was reloaded')); }
      this._pending.clear();
      if (this._isReady) this._newReady();
      this._navigate(this._carry ? null : this._initialState());
    }

    _loaded() {
      // Messages sent before the page is ready wait in its queue, so one ping is answered at ready.
      this._send('ping', {}).then(() => this._send('subscribe', {})).then(async (r) => {
        this._isReady = true;
        if (this._initial && Object.keys(this._initial).length && !this._carry) {
          // The fragment opened it already; setState reports what the page could not apply.
          const applied = await this._send('setState', { state: this._initial }, true);
          if (!applied.ok) this._error(String(applied.error));
        }
        this._carry = '';
        if (this._queuedState) {
          const queued = this._queuedState;
          this._queuedState = null;
          this._applyState(queued);
        }
        this._resolveReady(this);
        this._dispatch('ready', (r && r.result) || {});
        this._lessonSource();
      }).catch((e) => this._error(String(e && e.message || e)));
    }

    // ---- state --------------------------------------------------------------------------------------
    _stateAttribute() {
      const text = this.getAttribute('state');
      if (!text) return null;
      try {
        const v = JSON.parse(text);
        if (v && typeof v === 'object' && !Array.isArray(v)) return v;
      } catch (e) { /* reported below */ }
      this._error('the state attribute must be a JSON object');
      return null;
    }

    // lesson="why-sqrt-dk" step="3" → {lesson: {id, step}}; lesson="" → free play.
    _lessonAttribute() {
      const id = this.getAttribute('lesson');
      if (!id) return { lesson: null };
      const step = Number(this.getAttribute('step') || 1);
      if (!Number.isInteger(step) || step < 1) { this._error('step must be a whole number from 1'); return null; }
      return { lesson: { id, step } };
    }

    /**
     * @param {string} name
     * @returns {Attnplay.StateUpdate | null}
     */
    _stateFromAttribute(name) {
      const spec = STATE_ATTRIBUTES[name];
      const text = this.getAttribute(name);
      if (!spec || text === null) return null;
      const value = spec[1](text);
      if (typeof value === 'number' && !Number.isFinite(value)) { this._error(name + ' must be a number'); return null; }
      return { [spec[0]]: value };
    }

    /** @param {Attnplay.StateUpdate} partial */
    _applyState(partial) {
      if (!this._isReady) { this._queuedState = Object.assign(this._queuedState || {}, partial); return; }
      this.setState(partial).then((r) => { if (!r.ok) this._error(String(r.error)); }, (e) => this._error(String(e.message || e)));
    }

    // lesson-src="my-lesson.json": fetched here (this page's origin and Content-Security-Policy), then opened
    // in the frame; a failed fetch or a refused lesson fires "error" with the reason.
    _lessonSource() {
      const src = this.getAttribute('lesson-src');
      if (!src || !this._isReady) return;
      let url;
      try { url = new URL(src, location.href); } catch (e) { this._error('lesson-src is not a URL'); return; }
      fetch(url.href, { credentials: 'same-origin' })
        .then((r) => { if (!r.ok) throw new Error('HTTP ' + r.status); return r.text(); })
        .then((text) => this.loadLesson(text, url.pathname.split('/').pop()))
        .then((r) => { if (!r.ok) this._error(String(r.error)); })
        .catch((e) => this._error('Could not fetch the lesson ' + src + ': ' + String(e && e.message || e)));
    }

    // ---- messages -----------------------------------------------------------------------------------
    // The reply (any: its result depends on the command), or {ok: false, error} with resolveErrors.
    /**
     * @param {keyof Attnplay.EmbedResults} cmd
     * @param {object} extra the command's other fields
     * @param {boolean} [resolveErrors]
     * @returns {Promise<any>}
     */
    _send(cmd, extra, resolveErrors) {
      const win = this._frame && this._frame.contentWindow;
      if (!win || !this._origin) return Promise.reject(new Error('the playground frame is not there'));
      const id = this._nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          this._pending.delete(id);
          reject(new Error(cmd + ': no answer from the playground within ' + REPLY_TIMEOUT_MS / 1000 + ' s'));
        }, REPLY_TIMEOUT_MS);
        this._pending.set(id, { resolve, reject, timer, resolveErrors: !!resolveErrors });
        win.postMessage(Object.assign({ attnplay: 1, id, cmd }, extra), this._origin);  // never '*'
      });
    }

    // What the public methods answer: their JSDoc and attnplay.d.ts say which per command.
    /**
     * @param {keyof Attnplay.EmbedResults} cmd
     * @param {object} [extra]
     * @param {boolean} [resolveErrors]
     * @returns {Promise<any>}
     */
    async _command(cmd, extra, resolveErrors) {
      await this._ready;
      const r = await this._send(cmd, extra || {}, resolveErrors);
      // setState and loadLesson answer {ok} / {ok, result} or {ok: false, error} (a refusal is an answer, not a throw).
      if (cmd === 'setState') return r.ok ? { ok: true } : { ok: false, error: r.error };
      if (resolveErrors) return r.ok ? { ok: true, result: r.result } : { ok: false, error: String(r.error) };
      return r.result;
    }

    /** @param {MessageEvent} ev */
    _message(ev) {
      // Only the frame this element made, from the origin it was loaded from.
      if (!this._frame || ev.source !== this._frame.contentWindow || ev.origin !== this._origin) return;
      const d = ev.data;
      if (!d || typeof d !== 'object' || d.attnplay !== 1) return;
      if (d.id !== undefined) {
        const p = this._pending.get(d.id);
        if (!p) return;
        this._pending.delete(d.id);
        clearTimeout(p.timer);
        if (d.ok || p.resolveErrors) p.resolve(d.ok ? d : { ok: false, error: String(d.error) });  // reply as sent
        else p.reject(new Error(String(d.error)));
        return;
      }
      if (d.event === 'error' && d.crashed === true) { this._dispatch('error', { error: String(d.error), crashed: true }); return; }
      if (typeof d.event !== 'string' || !EVENT_NAME.test(d.event) || d.event === 'ready' || d.event === 'error') return;
      const detail = Object.assign({}, d);
      delete detail.attnplay;
      delete detail.event;
      this._dispatch(d.event, detail);
    }

    /**
     * @param {string} name
     * @param {unknown} detail
     */
    _dispatch(name, detail) {
      this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
    }

    /** @param {string} message */
    _error(message) {
      this._dispatch('error', { error: message });
    }
  }

  customElements.define('attention-playground', AttentionPlayground);
})();
