// attnplay-api.js — loads the WebAssembly app with a progress bar and exposes window.attnplay
// (ready, getState, setState, getResult, shareURL, importJSON, ui.itemRect, ui.panelScroll) and the Share panel's host
// services (clipboard, downloads, file import, hash changes), and owns Learn mode's training Web Worker
// (Module.attnplayTrain). No eval, no inline handlers, no innerHTML.
// @ts-check — checked against attnplay.d.ts, leniently (tests/types/tsconfig.api.json, docs/dev/types.md).
'use strict';
(function () {
  const canvas = document.getElementById('canvas');
  const inline = readInlinePage();
  const fill = document.getElementById('loading-fill');
  const loadingText = document.getElementById('loading-text');
  const summaryEl = document.getElementById('a11y-summary');
  let resolveReady, rejectReady, isReady = false;
  const ready = new Promise((res, rej) => { resolveReady = res; rejectReady = rej; });
  ready.catch(() => {});  // callers see the rejection; don't report it twice

  function fatal(message) {
    const el = document.getElementById('fatal');
    el.textContent = message;  // never HTML
    el.hidden = false;
    document.getElementById('loading').classList.add('done');
    rejectReady(new Error(message));
  }

  // ---- one build per page load (attnplay-sw.js) -------------------------------------------------------
  // index.html names its build; the service worker serves this page's other files from that build only. When the
  // network's build cannot be loaded whole (a file too slow or failing: a deploy under way, an overloaded host),
  // the page asks the worker for the copy it keeps and loads once more, whole from that copy, rather than starting
  // from parts of two builds or not at all. Once per build and tab until a start succeeds: a second failure is said
  // as it is.
  const buildMeta = document.querySelector('meta[name="attnplay-build"]');
  // @ts-expect-error -- the element named attnplay-build is a <meta>
  const pageBuild = buildMeta ? buildMeta.content : '';
  const RETRY_KEY = 'attnplay-kept-copy-retry';
  function startFailed(message) {
    const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    let retried = true;
    try {
      const tried = JSON.parse(sessionStorage.getItem(RETRY_KEY) || '[]');
      retried = !Array.isArray(tried) || tried.includes(pageBuild);
      if (!retried) sessionStorage.setItem(RETRY_KEY, JSON.stringify(tried.concat(pageBuild)));
    } catch (e) { /* no session storage: no way to know a retry from a first try, so none */ }
    if (inline || !worker || !pageBuild || retried) { fatal(message); return; }
    console.warn('attnplay: ' + message + '; loading the copy kept offline instead');
    const channel = new MessageChannel();
    const told = new Promise((resolve) => { channel.port1.onmessage = resolve; setTimeout(resolve, 2000); });
    worker.postMessage({ type: 'attnplay-build-failed', build: pageBuild }, [channel.port2]);
    told.then(() => location.reload());
  }
  // A page the worker took over after it opened (the first visit) tells it its build.
  function tellWorkerTheBuild() {
    const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker && pageBuild && !inline) worker.postMessage({ type: 'attnplay-page-build', build: pageBuild });
  }

  // ---- when the module dies ------------------------------------------------------------------------
  // A WebAssembly trap inside a frame ends the frame loop. Say so in the learner's language (the words are
  // fetched while the module still answers), keep the state the address bar and storage already hold, offer a
  // reload that opens it again, and tell an embedding page (attnplay-embed.js listens for attnplay-crash).
  let crashed = false, crashLang = '';
  const crashBox = document.getElementById('crash');
  function learnCrashWords(lang) {
    if (!crashBox || lang === crashLang) return;
    if (catalogs.missing(false)) return;  // asked again once the language's texts are installed
    crashLang = lang;
    document.getElementById('crash-text').textContent = say('crash.message');
    document.getElementById('crash-reload').textContent = say('crash.reload');
  }
  function crash(what) {
    if (crashed || !isReady) return false;
    crashed = true;
    if (persistTimer) { clearTimeout(persistTimer); try { persist(); } catch (e) { /* the state of 400 ms ago stays */ } }
    isReady = false;
    console.error('attnplay stopped: ' + what);
    if (crashBox) {
      crashBox.hidden = false;
      document.getElementById('crash-reload').focus();
    }
    document.dispatchEvent(new CustomEvent('attnplay-crash', { detail: { error: String(what) } }));
    return true;
  }
  // A C++ exception nothing caught leaves the module as a WebAssembly.Exception (native wasm exceptions).
  const isTrap = (e) => e instanceof WebAssembly.RuntimeError || /^(RuntimeError|Aborted)\b/.test(String(e)) ||
    // @ts-expect-error -- WebAssembly.Exception (exception handling) is not in TypeScript's library yet
    (typeof WebAssembly.Exception === 'function' && e instanceof WebAssembly.Exception);
  window.addEventListener('error', (ev) => { if (isTrap(ev.error)) crash(String(ev.error.message || ev.error)); });
  window.addEventListener('unhandledrejection', (ev) => { if (isTrap(ev.reason)) crash(String(ev.reason.message || ev.reason)); });
  if (crashBox) document.getElementById('crash-reload').addEventListener('click', () => location.reload());
  // A loop that stops without an error (rAF runs only while the page is shown).
  const STALL_MS = 6000;
  let stallFrames = -1, stallSince = 0;
  setInterval(() => {
    if (!isReady || document.visibilityState !== 'visible') { stallFrames = -1; return; }
    const f = Module._attnplay_frames();
    if (f !== stallFrames) { stallFrames = f; stallSince = performance.now(); return; }
    if (performance.now() - stallSince > STALL_MS) crash('the frame loop stopped');
  }, 1000);

  // WebGL2 is required; say so plainly instead of failing inside the module.
  const probe = document.createElement('canvas').getContext('webgl2');
  if (!probe) { fatal('This page needs WebGL2, which this browser does not provide.'); return; }

  // The bar moves by a transform (the compositor's work, no layout) and the text changes at most every
  // PROGRESS_MS: a download arrives in hundreds of chunks, and restyling the page for each kept a phone's
  // main thread busy while the module was still to be compiled and started.
  const PROGRESS_MS = 250;
  let progressShownAt = -Infinity, progressTimer = 0, progressNext = null;
  function showProgress() {
    progressTimer = 0;
    progressShownAt = performance.now();
    const { frac, text } = progressNext;
    fill.style.transform = 'scaleX(' + Math.max(0, Math.min(1, frac)).toFixed(3) + ')';
    if (text) loadingText.textContent = text;
  }
  function progress(frac, text) {
    progressNext = { frac, text };
    const wait = PROGRESS_MS - (performance.now() - progressShownAt);
    if (frac >= 1 || wait <= 0) {
      clearTimeout(progressTimer);
      showProgress();
    } else if (!progressTimer) {
      progressTimer = setTimeout(showProgress, wait);
    }
  }

  // A self-contained copy of the page (the Python package's attnplay.show() in a notebook) has no
  // server and no address of its own: its wasm (base64, optionally gzip), its query, its fragment and
  // an initial state too large for a fragment come in data blocks, which no CSP treats as scripts.
  function readInlinePage() {
    const config = document.getElementById('attnplay-inline');
    if (!config) return null;
    let page = null;
    try { page = JSON.parse(config.textContent); } catch (e) { page = null; }
    return { page: page && typeof page === 'object' ? page : {} };
  }
  async function inlineWasm(id) {
    const block = document.getElementById(id);
    if (!block || !block.textContent) throw new Error('this copy of the page carries no module (' + id + ')');
    const bin = atob(block.textContent.replace(/\s+/g, ''));
    const packed = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) packed[i] = bin.charCodeAt(i);
    if (block.getAttribute('data-encoding') !== 'gzip') return packed;
    if (typeof DecompressionStream !== 'function')
      throw new Error('this browser cannot unpack the embedded module (it has no DecompressionStream)');
    const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  // The app sizes its GL surface from the canvas when it starts, and cannot start on a canvas of no size: a
  // frame that is not laid out yet (hidden in a tab, or a notebook rendering stored outputs out of sight)
  // waits until it is shown.
  function laidOut() {
    const sized = () => canvas.clientWidth > 0 && canvas.clientHeight > 0;
    if (sized()) return Promise.resolve();
    progress(0.9, 'Waiting to be shown…');
    return new Promise((resolve) => {
      let observer = null, timer = 0;
      const check = () => {
        if (!sized()) return;
        if (observer) observer.disconnect();
        clearInterval(timer);
        resolve();
      };
      if (typeof ResizeObserver === 'function') { observer = new ResizeObserver(check); observer.observe(canvas); }
      timer = setInterval(check, 250);
    });
  }

  // Fetch the wasm ourselves so the bar shows real download progress, and compile it while it arrives
  // (compileStreaming) when the server calls it application/wasm. A gzip-compressed response's
  // Content-Length counts compressed bytes, so the bar then counts what has arrived of the unpacked size,
  // which the server does not say: the text shows the kilobytes unpacked so far.
  // `showProgress` false: a download the learner is not waiting for (the module's second half) leaves the bar alone.
  async function compileWasm(url, showProgress = true) {
    const resp = await fetch(url);
    if (!resp.ok) throw new Error('could not load ' + url + ' (' + resp.status + ')');
    const packed = !!resp.headers.get('content-encoding');
    const total = packed ? 0 : Number(resp.headers.get('content-length')) || 0;
    let got = 0;
    const counted = !resp.body || !showProgress ? resp : new Response(resp.body.pipeThrough(new TransformStream({
      transform(chunk, out) {
        got += chunk.length;
        progress(total ? 0.9 * got / total : Math.min(0.85, 0.85 * got / (got + 400000)),
          'Loading… ' + Math.round(got / 1024) + (total ? ' / ' + Math.round(total / 1024) : '') + ' KB');
        out.enqueue(chunk);
      },
    })), { headers: { 'Content-Type': resp.headers.get('content-type') || '' } });
    const streams = typeof WebAssembly.compileStreaming === 'function' &&
      (resp.headers.get('content-type') || '').split(';')[0].trim() === 'application/wasm';
    if (streams) return WebAssembly.compileStreaming(counted);
    return WebAssembly.compile(await counted.arrayBuffer());
  }

  // ---- the module's second half ---------------------------------------------------------------------
  // The build splits the module (scripts/split_wasm.mjs): attnplay.wasm holds what the first view runs,
  // attnplay.deferred.wasm the rest (Learn mode's model, the worksheet, the builder, packages, exports…). The
  // second half is fetched once the first view is drawn, so it shares neither the line nor the processor with the
  // first, and is linked as soon as it is compiled: linking fills the first half's table slots, which until then
  // call Module.loadSplitModule.
  const deferred = (() => {
    let exports = null, module = null, linked = false, split = false;
    let missing = false, lastTry = 0;  // a call needed it and it could not be had; when it was last fetched
    function link(m) {
      if (linked) return;
      new WebAssembly.Instance(m, { primary: exports });
      linked = true;
      if (missing) { missing = false; secondHalfArrived(); }
    }
    return {
      fetch() {
        if (!split || linked) return Promise.resolve();
        lastTry = Date.now();
        return compileWasm('attnplay.deferred.wasm', false)
          .then((m) => { module = m; link(module); })
          .catch((e) => console.warn('attnplay: the second half of the module waits until it is used: ' + e.message));
      },
      // Once a call needed it and it could not be had: fetched again, at most every SECOND_HALF_RETRY_MS, in the
      // background (a synchronous request would hold the page for as long as a poor line takes).
      retry() {
        if (missing && Date.now() - lastTry >= SECOND_HALF_RETRY_MS) this.fetch();
      },
      // A page the service worker serves (a returning learner, maybe offline) has the second half at hand: it is
      // linked before the module starts, so nothing waits on a synchronous request the worker does not answer.
      // A link into a lesson (?lesson=, ?lesson-url=) runs the lesson's code at once, which is in the second half:
      // it waits for it before starting too, rather than pausing on a synchronous request in the middle.
      primary(instance, isSplit) {
        exports = instance.exports;
        split = isSplit;
        const search = new URLSearchParams(location.search);
        const now = navigator.serviceWorker && navigator.serviceWorker.controller ||
          search.has('lesson') || search.has('lesson-url');
        return isSplit && now ? this.fetch() : Promise.resolve();
      },
      // Whether a call into the second half runs at once (the page's own timers wait for it).
      ready() { return !split || linked; },
      linkInline(instance) {
        exports = instance.exports;
        return inlineWasm('attnplay-inline-deferred').then((bytes) => WebAssembly.compile(bytes)).then(link);
      },
      // Synchronous: the caller is inside the module and continues with the function it asked for. When the
      // second half cannot be had (offline before it arrived) it throws SecondHalfMissing, which unwinds the call
      // out of the module: the API answers {ok: false, error}, a frame is cut short and the loop goes on.
      linkNow() {
        if (linked) return;
        if (!module) {
          if (missing) { this.retry(); throw new SecondHalfMissing(); }
          lastTry = Date.now();
          let text = null;
          try {
            const xhr = new XMLHttpRequest();
            xhr.open('GET', 'attnplay.deferred.wasm', false);
            xhr.overrideMimeType('text/plain; charset=x-user-defined');  // bytes, as a synchronous request allows
            xhr.send(null);
            if (xhr.status === 200) text = xhr.responseText;
          } catch (e) { /* offline: a synchronous request throws */ }
          if (text === null) { missing = true; throw new SecondHalfMissing(); }
          const bytes = new Uint8Array(text.length);
          for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
          module = new WebAssembly.Module(bytes);
        }
        link(module);
      },
    };
  })();

  // ---- when the second half cannot be had ---------------------------------------------------------------
  // What needs the second half waits for a connection: each time, the learner is told in their language, in the
  // status line and beside the canvas; the frame loop goes on; the second half is fetched again (every
  // SECOND_HALF_RETRY_MS, and when the browser is back online) and the learner's next try works.
  const SECOND_HALF_RETRY_MS = 3000;
  class SecondHalfMissing extends Error {
    constructor() { super('this part of the playground needs a connection once'); this.name = 'SecondHalfMissing'; }
  }
  const noticeEl = document.getElementById('notice');
  let stackBase = 0;  // the module's stack pointer with no call in it (a cut call leaves it lower)
  function needsConnectionText() {
    try { return say('status.needs_connection'); } catch (e) { return new SecondHalfMissing().message; }
  }
  // After a call was cut short: the module's stack as before the call, and the learner told.
  function secondHalfMissed(stack) {
    Module.stackRestore(stack);
    const text = needsConnectionText();
    if (noticeEl) { noticeEl.textContent = text; noticeEl.hidden = false; }
    try { call('attnplay_set_status', text); } catch (e) { if (!(e instanceof SecondHalfMissing)) throw e; }
    return text;
  }
  function secondHalfArrived() { if (noticeEl) noticeEl.hidden = true; }
  // A cut frame (or input handler) ends as an uncaught error: the loop, which stopped with it, is started again.
  function cutAtTop(ev, error) {
    if (!(error instanceof SecondHalfMissing)) return;
    ev.preventDefault();
    secondHalfMissed(stackBase);
    Module.resumeMainLoop();
  }
  window.addEventListener('error', (ev) => cutAtTop(ev, ev.error));
  window.addEventListener('unhandledrejection', (ev) => cutAtTop(ev, ev.reason));
  window.addEventListener('online', () => deferred.retry());
  setInterval(() => deferred.retry(), SECOND_HALF_RETRY_MS);

  // ---- the catalogs the module does not carry ---------------------------------------------------------
  // The module carries English only, without the lessons' own texts and those of panels that open closed.
  // Another language's catalog (strings/hi-Latn.json) is fetched when the page shows that language — at once when
  // the address or the browser asks for it — and each language's other parts (strings/<lang>.lessons.json,
  // <lang>.panels.json) once the first view is drawn, or at once when a lesson is open; each is installed as it
  // arrives. Until then texts are English, "…" or a lesson saying it is loading; on each install the change stamp
  // moves, so the canvas and the parallel DOM follow.
  const catalogs = (() => {
    const texts = new Map(), installing = new Map();  // file name → its fetch and install while under way
    let withParts = false;  // after the first view: the parts too, not only the shown language's main texts
    function text(name) {
      if (!texts.has(name)) {
        const block = inline && document.getElementById('attnplay-inline-strings-' + name);
        texts.set(name, block ? Promise.resolve(block.textContent)
          : fetch('strings/' + encodeURIComponent(name) + '.json').then((r) => {
            if (!r.ok) throw new Error('could not load strings/' + name + '.json (' + r.status + ')');
            return r.text();
          }));
      }
      return texts.get(name);
    }
    const missing = (parts) => Module.ccall('attnplay_catalog_missing', 'string', ['number'], [parts ? 1 : 0]);
    return {
      missing,
      prefetch(name) { text(name).catch(() => texts.delete(name)); },
      // Called when the page may need another file (a change of language, a lesson): fetches and installs it.
      // Resolves once nothing more is missing, or a file could not be had (then a later change tries again).
      check() {
        const name = missing(withParts);
        if (!name) return Promise.resolve();
        if (!installing.has(name)) {
          installing.set(name, text(name).then((t) => {
            const error = call('attnplay_install_catalog', name, t);
            if (error) throw new Error(error);
          }).catch((e) => {
            texts.delete(name);  // a later change tries again
            console.warn('attnplay: the texts in strings/' + name + '.json could not be loaded: ' + e.message);
            return 'failed';
          }).then((failed) => { installing.delete(name); return failed; }));
        }
        // The next file, if any (English's parts, then the shown language's), once this one is in.
        return installing.get(name).then((failed) => (failed ? undefined : this.check()));
      },
      // Once the first view is drawn the other parts follow, so opening a lesson or a panel later does not wait.
      firstViewDrawn() { withParts = true; return this.check(); },
    };
  })();

  // The module's download and compilation, begun before attnplay.js is fetched (see the end of this file).
  let compiling = null;
  const Module = {
    canvas,
    print: (t) => console.log(t),
    printErr: (t) => console.warn(t),
    attnplayFatal: fatal,
    instantiateWasm(imports, success) {
      const split = !!imports.placeholder;  // the build split the module in two (see "the module's second half")
      (inline ? inlineWasm('attnplay-inline-wasm').then((bytes) => WebAssembly.compile(bytes))
        : compiling || compileWasm('attnplay.wasm'))
        .then((module) => laidOut().then(() => module))
        .then((module) => { progress(0.95, 'Starting…'); return WebAssembly.instantiate(module, imports).then((i) => [i, module]); })
        // An inline copy carries both halves and has no line to wait for: it links the second before it starts.
        .then(([instance, module]) => (split && inline ? deferred.linkInline(instance) : deferred.primary(instance, split))
          .then(() => [instance, module]))
        .then(([instance, module]) => success(instance, module))
        .catch((e) => startFailed('Could not start: ' + e.message));
      return {};
    },
    // A call into the second half before it is linked (a quick learner on a slow line): fetch it now, waiting.
    loadSplitModule() { deferred.linkNow(); },
    onAbort: (what) => { if (!crash('aborted: ' + what)) fatal('The playground stopped: ' + what); },
  };
  // @ts-expect-error -- Emscripten's settings object: attnplay.js reads it, it is no part of the public API
  window.Module = Module;

  // An idle page runs its frame on a slow timer; this runs the next one on the next animation frame (web.cpp).
  function wake() {
    if (Module._attnplay_wake) Module._attnplay_wake();
  }

  // String arguments go through the heap, not ccall's copies on the 1 MB stack: a large state or an
  // imported file would otherwise overflow it.
  function call(name, ...args) {
    wake();
    const ptrs = args.map((a) => {
      const s = String(a);
      const n = Module.lengthBytesUTF8(s) + 1;
      const p = Module._malloc(n);
      if (!p) throw new Error('out of memory');
      Module.stringToUTF8(s, p, n);
      return p;
    });
    const stack = Module.stackSave();
    try {
      return Module.ccall(name, 'string', args.map(() => 'number'), ptrs);
    } catch (e) {
      if (e instanceof SecondHalfMissing) Module.stackRestore(stack);
      throw e;
    } finally {
      for (const p of ptrs) Module._free(p);
    }
  }
  function needReady() {
    if (crashed) return Promise.reject(new Error('attnplay stopped: reload the page to continue'));
    if (!isReady) return Promise.reject(new Error('attnplay is not ready yet: await attnplay.ready'));
    return null;
  }

  // ---- services for the Share panel (called from C++ through EM_JS in web.cpp) ----------------
  // A text of the string catalog in the learner's language, {name} and {error} filled in.
  function say(key, name, error) { return call('attnplay_text', key, String(name || ''), String(error || '')); }
  // A status line from the catalog (key "status.…").
  function setStatus(key, name, error) { if (isReady) call('attnplay_set_status', say(key, name, error)); }
  function saveBlob(name, blob) {
    if (!blob) { setStatus('status.save_failed', name); return; }
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.rel = 'noopener';
    a.hidden = true;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 30000);
  }
  const fileInput = document.createElement('input');
  fileInput.type = 'file';
  fileInput.accept = '.json,application/json';
  fileInput.hidden = true;
  fileInput.id = 'import-file';
  document.body.appendChild(fileInput);
  function importFile(file) {
    if (!isReady) return Promise.resolve({ ok: false, error: 'not ready' });
    // The CLI's input limit (src/core/json_codec.h), asked of the module rather than copied here.
    if (file.size > JSON.parse(call('attnplay_host_protocol')).json_bytes) {
      setStatus('status.import_too_large', file.name);
      return Promise.resolve({ ok: false, error: 'Could not import ' + file.name + ': larger than 64 MiB.' });
    }
    return file.text().then((text) => JSON.parse(call('attnplay_import_json', text, file.name)));
  }
  // A teacher's lesson at a URL: this page's origin, or one the embedding page lists in ?lesson-origins=
  // (comma-separated origins); the page's Content-Security-Policy (connect-src) still has the last word.
  function lessonOrigins() {
    return (new URLSearchParams(location.search).get('lesson-origins') || '').split(',').map((s) => s.trim()).filter(Boolean);
  }
  function fetchLesson(url) {
    const shown = String(url).slice(0, 120);
    const fail = (error) => {
      setStatus('status.lesson_fetch_failed', shown, error);
      return { ok: false, error: 'Could not fetch the lesson ' + shown + ': ' + error };
    };
    let u;
    try { u = new URL(String(url), location.href); } catch { return Promise.resolve(fail('not a URL')); }
    if (u.origin !== location.origin && !lessonOrigins().includes(u.origin)) {
      return Promise.resolve(fail('its origin ' + u.origin + ' is not this page\'s and not listed in lesson-origins'));
    }
    return fetch(u.href, { credentials: 'same-origin' })
      .then((r) => { if (!r.ok) throw new Error('HTTP ' + r.status + ' ' + r.statusText); return r.text(); })
      .then((text) => JSON.parse(call('attnplay_load_lesson', text, u.pathname.split('/').pop() || shown)))
      .catch((e) => fail(e && e.message ? e.message : String(e)));
  }
  fileInput.addEventListener('change', () => {
    const f = fileInput.files && fileInput.files[0];
    fileInput.value = '';
    if (f) importFile(f).catch((e) => setStatus('status.import_error', '', e.message));
  });
  // Dropping a .json file anywhere on the page imports it.
  window.addEventListener('dragover', (e) => {
    if (e.dataTransfer && Array.from(e.dataTransfer.types || []).includes('Files')) e.preventDefault();
  });
  window.addEventListener('drop', (e) => {
    const f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
    if (!f) return;
    e.preventDefault();
    importFile(f).catch((err) => setStatus('status.import_error', '', err.message));
  });
  // Following a share link in the same tab only changes the fragment.
  // The fragment that was navigated to (ev.newURL), not location.hash at handling time: the address bar's
  // own replaceState (persist, below) may have run in between.
  // The app's own fragments: a share state or a lesson link. Any other ("#top", a skip link's target) is the page's.
  const appFragment = (hash) => /^#(s|lesson)=/.test(hash);
  window.addEventListener('hashchange', (ev) => {
    let hash = location.hash;
    try { hash = new URL(ev.newURL).hash; } catch { /* keep location.hash */ }
    if (isReady && appFragment(hash)) call('attnplay_open_fragment', hash);
  });
  Module.attnplayHost = {
    copyText(text) {
      const fail = () => setStatus('status.clipboard_refused');
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).catch(fail);
      else fail();
    },
    download(name, mime, bytes) { saveBlob(name, new Blob([bytes], { type: mime })); },
    savePng(name, w, h, bytes) {
      const c = document.createElement('canvas');
      c.width = w;
      c.height = h;
      c.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(bytes.buffer, bytes.byteOffset, bytes.length), w, h), 0, 0);
      c.toBlob((b) => saveBlob(name, b), 'image/png');
    },
    // Called right after a frame is drawn, while the WebGL drawing buffer still holds it.
    // @ts-expect-error -- #canvas is the page's <canvas>
    captureCanvas(name) { canvas.toBlob((b) => saveBlob(name, b), 'image/png'); },
    pickFile() { fileInput.click(); },
    // "Download for an LMS…": this page's own files (from its server or the service worker's copy) go into the
    // module one by one, which zips them with the lessons and the manifest (attnplay_package_finish).
    makeCoursePackage(lessons, scorm) {
      if (inline) { setStatus('share.lms_failed', '', 'a copy of the page inside a notebook has no files of its own'); return; }
      // The page's files are listed once, in site-manifest.json (written by the build): the package takes all of them.
      const get = (name) => fetch(new URL(name, location.href), { cache: 'no-cache' })
        .then((r) => { if (!r.ok) throw new Error(name + ': ' + r.status); return r.arrayBuffer(); })
        .then((b) => [name, new Uint8Array(b)]);
      setStatus('share.lms_making');
      get('site-manifest.json')
        .then((m) => Promise.all([Promise.resolve(m)].concat(JSON.parse(new TextDecoder().decode(m[1])).files.map((f) => get(f.path)))))
        .then((files) => {
          for (const f of files) {
            if (!f) continue;
            const p = Module._malloc(Math.max(1, f[1].length));
            if (!p) throw new Error('out of memory');
            Module.HEAPU8.set(f[1], p);
            try { Module.ccall('attnplay_package_add', 'number', ['string', 'number', 'number'], [f[0], p, f[1].length]); } finally { Module._free(p); }
          }
          call('attnplay_package_finish', lessons, scorm);
        })
        .catch((e) => setStatus('share.lms_failed', '', String(e && e.message || e)));
    },
    // Lesson progress lives in this browser (per page address), so it survives reloads and new visits.
    saveProgress(text) { storage.set('progress', text); },
    pageString(which) {
      if (inline && which === 5) return 'inline';
      if (inline) return [inline.page.href || location.href.split(/[?#]/)[0], inline.page.search, inline.page.hash][which] || '';
      if (which === 0) return location.href.split(/[?#]/)[0];
      if (which === 1) return location.search;
      if (which === 3) return (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || '']).join(',');
      if (which === 4) return storage.get('progress') || '';
      if (which === 5) return visitWords();
      return location.hash;
    },
  };

  // ---- The clipboard in the canvas's text fields ---------------------------------------------------
  // Ctrl+V's keydown reaches the app through Emscripten's GLFW; the browser's paste event follows it, before the
  // frame that handles the key, and its text is what that frame pastes (web.cpp). Ctrl+C and Ctrl+X go out through
  // copyText. Ctrl+A selects the field's text in the app: the browser must not also select the page's (the
  // parallel DOM's words, which a later Ctrl+C would copy instead).
  window.addEventListener('paste', (ev) => {
    if (!isReady || document.activeElement !== canvas || !ev.clipboardData) return;
    ev.preventDefault();
    try { call('attnplay_paste', ev.clipboardData.getData('text/plain')); } catch { /* a later Ctrl+V tries again */ }
  });
  if (canvas) canvas.addEventListener('keydown', (ev) => {
    if ((ev.ctrlKey || ev.metaKey) && !ev.altKey && ev.key.toLowerCase() === 'a') ev.preventDefault();
  });

  // ---- A phone's keyboard --------------------------------------------------------------------------
  // The canvas is not a text field, so a phone shows no keyboard for it. While the app edits text after a
  // touch (web_input.cpp, web_text_sync) this field sits over the box being edited, focused: the keyboard
  // opens (decimal for numbers), and what is typed goes to the app as it arrives. The field itself keeps one
  // space with the caret after it (so Backspace always has something to delete and is reported); the app's
  // box is the only real text. Its key events stop here so the canvas's listeners do not see them twice.
  Module.attnplayText = (() => {
    const field = document.createElement('input');
    field.id = 'attnplay-text';
    field.type = 'text';
    for (const [k, v] of Object.entries({ autocomplete: 'off', autocorrect: 'off', autocapitalize: 'off',
      spellcheck: 'false', enterkeyhint: 'done', 'aria-hidden': 'true', tabindex: '-1' })) field.setAttribute(k, v);
    // 16 px text: a smaller font makes a phone zoom into the field. Invisible, but where the box is.
    field.style.cssText = 'position:fixed;opacity:0;font-size:16px;border:0;padding:0;margin:0;' +
      'background:transparent;color:transparent;caret-color:transparent;z-index:-1;left:0;top:0;width:1px;height:1px';
    document.body.appendChild(field);
    let open = false;
    const send = (text) => { if (open && text) call('attnplay_text_input', text); };
    field.addEventListener('beforeinput', (e) => {
      if (e.inputType === 'insertText' || e.inputType === 'insertReplacementText') send(e.data);
      else if (e.inputType === 'deleteContentBackward') call('attnplay_text_key', 'Backspace');
      else if (e.inputType === 'deleteContentForward') call('attnplay_text_key', 'Delete');
      else if (e.inputType === 'insertLineBreak') call('attnplay_text_key', 'Enter');
      else if (e.inputType === 'insertCompositionText') return;  // an IME is still composing
      e.preventDefault();
    });
    const reset = () => { field.value = ' '; field.setSelectionRange(1, 1); };
    field.addEventListener('compositionend', (e) => { send(e.data); reset(); });
    // A paste arrives here as a paste event. From a phone's menu (a long press, then Paste) its text goes in as
    // typed text; from Ctrl+V on a tablet's keyboard the app has the key too, and takes text typed while Ctrl is
    // held for no text, so it pastes it as the canvas does (web.cpp).
    let keyPaste = false;
    field.addEventListener('keydown', (e) => { keyPaste = (e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'v'; }, true);
    field.addEventListener('paste', (e) => {
      e.preventDefault();
      const text = e.clipboardData ? e.clipboardData.getData('text/plain') : '';
      if (keyPaste && open) call('attnplay_paste', text);
      else send(text);
      keyPaste = false;
    });
    for (const type of ['keydown', 'keyup', 'keypress'])
      field.addEventListener(type, (/** @type {KeyboardEvent} */ e) => {
        e.stopPropagation();
        if (type === 'keydown' && (e.key === 'Enter' || e.key === 'Escape')) {
          e.preventDefault();
          call('attnplay_text_key', e.key);
        }
      });
    return {
      open(x, y, w, h, numeric) {
        field.setAttribute('inputmode', numeric ? 'decimal' : 'text');
        Object.assign(field.style, { left: `${x}px`, top: `${y}px`, width: `${w}px`, height: `${h}px` });
        open = true;
        field.focus({ preventScroll: true });
        reset();
      },
      close() {
        open = false;
        field.blur();
        canvas.focus({ preventScroll: true });
      },
    };
  })();

  // ---- Learn mode's training thread (attnplay-train-worker.js) -------------------------------------
  // web_api.cpp drives it: open() once at start-up (can there be one?), then start / allow / stop per
  // generation of the run. The worker and its module load at the first start, so a visit that never trains
  // downloads neither. Snapshots of the current generation wait in `pending` until the next frame adopts
  // them, oldest first. A failure reaches the app from a task of its own, never inside a call from it.
  Module.attnplayTrain = (() => {
    let worker = null, gen = -1, broken = false;
    const pending = [];
    function failed(message) {
      if (broken) return;
      broken = true;
      if (worker) worker.terminate();
      worker = null;
      gen = -1;
      pending.length = 0;
      call('attnplay_learn_worker_failed', message);
    }
    function create() {
      try {
        worker = new Worker('attnplay-train-worker.js');
      } catch (e) {
        setTimeout(() => failed('the training worker could not start: ' + e.message), 0);
        return;
      }
      worker.onmessage = (e) => {
        const m = e.data || {};
        if (m.type === 'snapshot' && m.gen === gen) pending.push(m);
        else if (m.type === 'error') failed('the training worker failed: ' + m.message);
      };
      worker.onerror = (e) => {
        e.preventDefault();
        failed('the training worker failed: ' + (e.message || 'its script did not load'));
      };
    }
    return {
      open() {
        if (inline) return 'this copy of the page carries no worker script';
        if (typeof Worker !== 'function') return 'this browser has no Web Workers';
        return '';
      },
      start(bytes, g) {
        if (broken) return;
        if (!worker) create();
        gen = g;
        pending.length = 0;
        if (worker) worker.postMessage({ type: 'start', gen: g, state: bytes.buffer }, [bytes.buffer]);
      },
      allow(g, steps) { if (worker && g === gen) worker.postMessage({ type: 'allow', gen: g, steps }); },
      stop() {
        gen = -1;
        pending.length = 0;
        if (worker) worker.postMessage({ type: 'stop' });
      },
      take() { return pending.splice(0); },
    };
  })();

  // ---- local storage: lesson progress, and the last state of this page (or of this embed) -----------
  // Keys carry the path, the query (embed settings) and the frame's name, so two embeds on one course
  // page keep their own states.
  // Storage that refuses (full, or blocked by the browser's settings) is said once in the status line: the learner's
  // work then lives only in this tab.
  let storageRefused = false, refusedEarly = null;  // a refusal before the first view is said once it is drawn
  const storage = {
    key(what) { return 'attnplay:' + what + ':' + location.pathname + location.search + (window.name ? '#' + window.name : ''); },
    get(what) { try { return window.localStorage.getItem(storage.key(what)); } catch (e) { storage.refused(e); return null; } },
    set(what, text) {
      try { window.localStorage.setItem(storage.key(what), text); storageRefused = false; } catch (e) { storage.refused(e); }
    },
    remove(what) { try { window.localStorage.removeItem(storage.key(what)); } catch (e) { /* ignore */ } },
    refused(e) {
      if (!isReady) { refusedEarly = refusedEarly || e || {}; return; }
      if (storageRefused) return;
      storageRefused = true;
      setStatus('status.storage_refused', '', e && e.name === 'QuotaExceededError' ? say('status.storage_full') : say('status.storage_blocked'));
    },
  };
  // A first visit opens with the start view (src/app/start_view.h): not when this page kept a state or progress here,
  // nor once this browser has left a start view of this site (VISITED, set when it is left), nor in a frame.
  const VISITED = 'attnplay:visited';
  function visitWords() {
    let visited = false;
    try { visited = !!window.localStorage.getItem(VISITED); } catch (e) { /* storage refused: a first visit */ }
    const kept = visited || !!storage.get('state') || !!storage.get('progress');
    return [kept ? 'kept' : '', window.parent !== window ? 'framed' : ''].filter(Boolean).join(' ');
  }
  function leftStartView() { try { window.localStorage.setItem(VISITED, '1'); } catch (e) { /* said by storage */ } }
  // Two tabs of one page share its progress: what another tab saved is merged here (each tab's work kept).
  window.addEventListener('storage', (ev) => {
    if (isReady && ev.key === storage.key('progress') && ev.newValue) call('attnplay_merge_progress', ev.newValue);
  });

  // ---- IndexedDB: Learn mode's run in progress (its trainer state is bytes, too large for local storage) ----
  // Kept per page like the rest (storage.key), saved every few seconds while it moves and when the page is
  // hidden, handed back at start-up; "resumed at step N" is the app's to say.
  const runs = {
    db: null,
    open() {
      if (this.db) return this.db;
      this.db = new Promise((resolve, reject) => {
        if (typeof indexedDB === 'undefined') { reject(new Error('no IndexedDB')); return; }
        const r = indexedDB.open('attnplay', 1);
        r.onupgradeneeded = () => r.result.createObjectStore('learn');
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      this.db.catch(() => {});
      return this.db;
    },
    async run(mode, fn) {
      const db = await this.open();
      return new Promise((resolve, reject) => {
        const tx = db.transaction('learn', mode);
        const req = fn(tx.objectStore('learn'));
        tx.oncomplete = () => resolve(req.result);
        tx.onerror = () => reject(tx.error);
      });
    },
    get() { return this.run('readonly', (st) => st.get(storage.key('learn'))).catch(() => null); },
    put(bytes) { return this.run('readwrite', (st) => st.put(bytes, storage.key('learn'))).catch(() => {}); },
    remove() { return this.run('readwrite', (st) => st.delete(storage.key('learn'))).catch(() => {}); },
  };
  function keepRun() {
    if (!isReady || crashed || inline || !deferred.ready()) return;  // Learn's code is in the second half
    const n = Module._attnplay_learn_save();
    if (n > 0) { const p = Module._attnplay_learn_bytes(); runs.put(Module.HEAPU8.slice(p, p + n)); }
    if (n < 0) runs.remove();  // reset to step 0: a reload must not bring the old run back
  }
  async function resumeRun() {
    if (inline || !deferred.ready()) return;  // a kept run resumes with the second half at hand
    const bytes = await runs.get();
    if (!bytes || !isReady || !(bytes instanceof Uint8Array)) return;
    const p = Module._malloc(bytes.length);
    if (!p) return;
    try {
      Module.HEAPU8.set(bytes, p);
      const r = JSON.parse(Module.ccall('attnplay_learn_resume', 'string', ['number', 'number'], [p, bytes.length]));
      if (!r.ok) console.warn('attnplay: the kept Learn run was not resumed: ' + r.error);
    } finally {
      Module._free(p);
    }
  }
  setInterval(keepRun, 3000);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') keepRun(); });
  window.addEventListener('pagehide', keepRun);

  const changeListeners = [];
  const eventListeners = [];

  // The public API: attnplay.d.ts declares it (Attnplay.API), and tests/types/ checks this object against it.
  /** @type {Attnplay.API} */
  const api = {
    ready,
    getState() { return needReady() || Promise.resolve(JSON.parse(call('attnplay_get_state'))); },
    setState(partial) {
      const nr = needReady();
      if (nr) return nr;
      let text;
      try { text = JSON.stringify(partial); } catch (e) { return Promise.resolve({ ok: false, error: 'state is not serialisable: ' + e.message }); }
      if (typeof text !== 'string') return Promise.resolve({ ok: false, error: 'state must be an object' });
      return Promise.resolve(JSON.parse(call('attnplay_set_state', text)));
    },
    getResult() { return needReady() || Promise.resolve(JSON.parse(call('attnplay_get_result'))); },
    // Answers a course's LMS kept for a lesson ({"<question id>": {given: choice index or number, attempts}}): a step
    // answered in an earlier session opens answered. Resolves {ok} or {ok: false, error}.
    keepAnswers(lesson, answers) {
      const nr = needReady();
      if (nr) return nr;
      let text;
      try { text = JSON.stringify(answers); } catch (e) { return Promise.resolve({ ok: false, error: 'answers are not serialisable' }); }
      return Promise.resolve(JSON.parse(call('attnplay_keep_answers', String(lesson), text || '')));
    },
    ui: {
      // Rectangle in page CSS pixels of the labelled ImGui item in the last frame, or null.
      itemRect(label) {
        const nr = needReady();
        if (nr) return nr;
        const r = JSON.parse(call('attnplay_item_rect', String(label)));
        if (!r) return Promise.resolve(null);
        const c = canvas.getBoundingClientRect();
        return Promise.resolve({ x: c.left + r.x, y: c.top + r.y, w: r.w, h: r.h });
      },
      // Where the last frames' time went (ms): [{frame, tick, recompute, panels, render, gl, around}], for
      // tests/bench/browser_perf.mjs.
      framePhases() { return needReady() || Promise.resolve(JSON.parse(call('attnplay_frame_phases'))); },
      // The id of the control that has keyboard focus (Tab, arrows), or '' when none has.
      focused() { return needReady() || Promise.resolve(call('attnplay_focused')); },
      // The text of the tooltip the last frame showed, or '' when none shows.
      tooltip() { return needReady() || Promise.resolve(call('attnplay_tooltip')); },
      // A panel's window in page CSS pixels in the last frame, with its vertical scroll (scrollY of
      // scrollMaxY, CSS pixels) and the height of one line of its text, or null if it is not drawn.
      panelScroll(title) {
        const nr = needReady();
        if (nr) return nr;
        const r = JSON.parse(call('attnplay_panel_scroll', String(title)));
        if (!r) return Promise.resolve(null);
        const c = canvas.getBoundingClientRect();
        return Promise.resolve({ ...r, x: c.left + r.x, y: c.top + r.y });
      },
    },
    // The canvas's parallel DOM (attnplay-a11y.js): its description, the control whose DOM twin has focus
    // (ringed on the canvas), and lesson actions ({do: 'next' | 'back' | 'choice' | 'number', value}).
    a11y: {
      description() { return needReady() || Promise.resolve(JSON.parse(call('attnplay_a11y_description'))); },
      focus(id) { return needReady() || Promise.resolve(call('attnplay_a11y_focus', String(id || '')) === 'true'); },
      act(action) { return needReady() || Promise.resolve(JSON.parse(call('attnplay_a11y_act', JSON.stringify(action)))); },
    },
    frames() { return isReady ? Module._attnplay_frames() : 0; },
    // Of those, the frames painted into the canvas (a frame that would look like the last is not).
    framesPainted() { return isReady ? Module._attnplay_frames_painted() : 0; },
    // The link "Copy link" copies: this page's address + "#s=1.…" (versioned, deflated state).
    shareURL() { return needReady() || Promise.resolve(call('attnplay_share_link')); },
    // Opens a share link's fragment ("#s=1.…"), as following the link would: {ok} or {ok: false, error}.
    openFragment(fragment) {
      return needReady() || Promise.resolve(JSON.parse(call('attnplay_open_fragment', String(fragment))));
    },
    // Imports a scenario (CLI schema) or a full state, as if the file had been dropped on the page.
    importJSON(text, name) {
      return needReady() || Promise.resolve(JSON.parse(call('attnplay_import_json', String(text), String(name || 'import.json'))));
    },
    // A teacher's lesson file (its JSON text), opened at its first step as a built-in lesson is:
    // {ok: true, id, steps, warnings} or {ok: false, error} (nothing changed; the status line says why).
    loadLesson(text, name) {
      return needReady() || Promise.resolve(JSON.parse(call('attnplay_load_lesson', String(text), String(name || 'lesson.json'))));
    },
    // The same, fetched from a URL (this page's origin or one listed in ?lesson-origins=); a failed fetch
    // resolves {ok: false, error} too.
    loadLessonURL(url) { return needReady() || fetchLesson(url); },
    // Embed mode as read from the query string: {enabled, panels, locked, hidden, origins}.
    embedInfo() { return needReady() || Promise.resolve(JSON.parse(call('attnplay_embed_info'))); },
    // What a host's messages are checked against (attnplay-embed.js): {events: the names a host may subscribe to,
    // json_depth, json_bytes}, from the C++ tables (data/manifest.json holds the same).
    hostProtocol() { return needReady() || Promise.resolve(JSON.parse(call('attnplay_host_protocol'))); },
    // The first language of a preference list ("hi-IN,en-US": cmi5's languagePreference) the page has, chosen as the
    // page chooses from the browser's list: its tag, or '' when the list names none.
    preferredLanguage(list) { return needReady() || Promise.resolve(call('attnplay_preferred_language', String(list || ''))); },
    // Cheap change probe (used by attnplay-embed.js for events): small state fields, digests of large ones, saturation.
    watch() { return needReady() || Promise.resolve(JSON.parse(call('attnplay_watch'))); },
    // Called after a drawn frame in which the state, result or status changed (no polling needed).
    onChange(fn) { if (typeof fn === 'function') changeListeners.push(fn); },
    // Lesson events as they happen: {type: 'lesson-step' | 'answer' | 'lesson-complete', …}.
    onEvent(fn) { if (typeof fn === 'function') eventListeners.push(fn); },
    // Forgets this page's saved state and lesson progress and opens the defaults.
    reset() {
      const nr = needReady();
      if (nr) return nr;
      storage.remove('state');
      storage.remove('progress');
      runs.remove();
      if (!inline) history.replaceState(null, '', location.pathname + location.search);
      call('attnplay_load_progress', '{}');
      return Promise.resolve(JSON.parse(call('attnplay_set_state', JSON.stringify({ preset: 'default', lesson: null }))));
    },
  };
  // A call that needed the module's second half while it could not be had answers {ok: false, error} (the
  // learner's words for it), never a throw.
  function keepContract(target) {
    for (const [key, fn] of Object.entries(target)) {
      if (typeof fn !== 'function') continue;
      target[key] = function (...args) {
        const stack = isReady ? Module.stackSave() : 0;
        try {
          return fn.apply(this, args);
        } catch (e) {
          if (!(e instanceof SecondHalfMissing)) throw e;
          return Promise.resolve({ ok: false, error: secondHalfMissed(stack) });
        }
      };
    }
    return target;
  }
  keepContract(api.ui);
  keepContract(api.a11y);
  keepContract(api);
  Object.defineProperty(window, 'attnplay', { value: Object.freeze(api), writable: false });

  // Input anywhere on the page wakes an idle page, so its first key press or touch is answered as fast as the rest.
  for (const type of ['keydown', 'keyup', 'pointerdown', 'pointermove', 'pointerup', 'wheel', 'touchstart', 'touchmove',
    'touchend', 'focusin', 'focusout', 'paste', 'resize', 'visibilitychange']) {
    window.addEventListener(type, wake, { capture: true, passive: true });
  }

  // Ready after the first frames are drawn (layout settles on the second).
  function waitFrames() {
    if (Module._attnplay_first_view_drawn && Module._attnplay_first_view_drawn()) {
      if (inline && inline.page.state) applyInlineState(inline.page.state);
      isReady = true;
      progress(1, '');
      document.getElementById('loading').classList.add('done');
      if (!inline) canvas.focus();  // a notebook keeps its own focus while its outputs load
      offerToContinue();
      if (refusedEarly) storage.refused(refusedEarly);
      // A kept Learn run is resumed with Learn's code, which is in the second half, and says so with Learn's
      // texts, which are in the parts of the catalog fetched now.
      Promise.all([deferred.fetch(), catalogs.firstViewDrawn()]).then(resumeRun);
      resolveReady(api);
      startWatching();
      const lessonURL = inline ? null : new URLSearchParams(location.search).get('lesson-url');
      if (lessonURL) fetchLesson(lessonURL);  // ?lesson-url=: a teacher's lesson opens once the page is ready
      return;
    }
    requestAnimationFrame(waitFrames);
  }
  Module.onRuntimeInitialized = () => {
    // Saved and set back at once: both then run at every start, so the split keeps them in the module's first half,
    // where a call cut short for want of the second half needs them.
    stackBase = Module.stackSave();
    Module.stackRestore(stackBase);
    catalogs.check();
    requestAnimationFrame(waitFrames);
  };
  // The state of an inline copy, when too large for a fragment, goes in before anyone sees the page.
  function applyInlineState(state) {
    const r = JSON.parse(call('attnplay_set_state', JSON.stringify(state)));
    if (!r.ok) call('attnplay_set_status', say('status.given_state_failed', '', r.error));
  }

  // When the change stamp moves: refresh the accessible summary, tell the
  // listeners (the embed API), pass on lesson events, and remember the state — in the address bar
  // (history.replaceState, at most every 400 ms, never one history entry per drag) and in local storage.
  const PERSIST_MS = 400;
  let lastStamp = -1, lastSummary = '', persistTimer = 0;
  function persist() {
    persistTimer = 0;
    const link = call('attnplay_share_link');
    const hash = link.slice(link.indexOf('#'));
    if (inline) return;  // an inline copy has no address of its own to keep the state in
    if (hash.length > 1 && hash !== location.hash) history.replaceState(null, '', location.pathname + location.search + hash);
    storage.set('state', hash);
  }
  // The live region speaks the settled state: written once the summary has not changed for SUMMARY_SETTLE_MS, so
  // ten quick arrow presses are one announcement, not ten a screen reader cuts into each other.
  // It is the region's one writer: what the parallel DOM has to say (a lesson's verdict, Learn mode's progress,
  // the "attnplay-announce" event) goes first, in the same settled message.
  const SUMMARY_SETTLE_MS = 600;
  let summaryTimer = 0, announced = '';
  function settleSummary(text) {
    clearTimeout(summaryTimer);
    summaryTimer = setTimeout(() => {
      const message = [announced, text].filter(Boolean).join(' ');
      announced = '';
      if (summaryEl.textContent !== message) summaryEl.textContent = message;
    }, SUMMARY_SETTLE_MS);
  }
  document.addEventListener('attnplay-announce', (e) => { announced = String(e.detail || ''); settleSummary(lastSummary); });
  function refresh() {
    const status = call('attnplay_status');  // e.g. why a share link could not be opened
    const text = call('attnplay_summary') + (status ? ' ' + status : '');
    if (text !== lastSummary) { settleSummary(text); lastSummary = text; }
    const lang = call('attnplay_lang');  // screen readers pick their voice from lang
    if (document.documentElement.lang !== lang) document.documentElement.lang = lang;
    // The canvas's name and how to start, in that language (its catalog may arrive after the first view).
    const name = say('a11y.canvas');
    if (canvas.getAttribute('aria-label') !== name) canvas.setAttribute('aria-label', name);
    // The page's title, its first words, in the same language.
    const title = say('a11y.page_title');
    if (document.title !== title) document.title = title;
    learnCrashWords(lang);
    catalogs.check();
  }
  // While a finger or the mouse is down on the canvas (dragging a slider), every frame is a change, and the
  // listeners — the parallel DOM rebuilds its controls, embeds get change events — would run every frame. They run
  // once when the pointer is released, on the settled state; the aria summary above still follows every change.
  // (At most every 250 ms was not enough: at 64 tokens a phone still had a frame over 100 ms in six, 24 of 155;
  // waiting for the release, 1 of 162 — tests/bench/phone_load.mjs.) Keyboard and API changes are told at once, in
  // the order they happen (an embed's host sees a change before the error of a later attribute).
  // The hold lasts until a task after the release's own frame: told inside that frame (or before it, on the
  // release), the parallel DOM's rebuild and the drawing added up to frames of 150–430 ms on the phone profile.
  // The task is a message, not a timer: browsers throttle timers in a cross-origin frame out of view.
  let held = false, heldPending = false, presses = 0;
  function tellListeners() {
    heldPending = false;
    for (const fn of changeListeners) { try { fn(); } catch (e) { console.warn(e); } }
  }
  function changed() {
    if (held) heldPending = true;
    else tellListeners();
  }
  const afterRelease = new MessageChannel();
  afterRelease.port1.onmessage = (e) => {
    if (e.data !== presses) return;  // pressed again since: still held
    held = false;
    if (heldPending) tellListeners();
  };
  if (canvas) canvas.addEventListener('pointerdown', () => { held = true; presses++; }, true);
  for (const type of ['pointerup', 'pointercancel']) {
    window.addEventListener(type, () => {
      if (!held) return;
      const press = presses;
      if (document.hidden) afterRelease.port2.postMessage(press);  // no frame will come
      else requestAnimationFrame(() => afterRelease.port2.postMessage(press));
    }, true);
  }
  // The wasm side calls Module.attnplayChanged after a drawn frame in which the change stamp moved
  // (web_api.cpp, push_web_changes): listeners run on changes, nothing polls.
  function startWatching() {
    refresh();  // filled in as soon as the app is ready, then kept current
    Module.attnplayChanged = () => {
      const stamp = Module._attnplay_change_stamp();
      if (stamp === lastStamp) return;
      lastStamp = stamp;
      refresh();
      changed();
      const events = JSON.parse(call('attnplay_take_events'));
      if (events.some((ev) => ev.type === 'start-view')) leftStartView();
      for (const ev of events) for (const fn of eventListeners) { try { fn(ev); } catch (e) { console.warn(e); } }
      if (!persistTimer) persistTimer = setTimeout(persist, PERSIST_MS);
    };
    Module.attnplayChanged();
  }

  // Opened without a fragment but with a saved state: offer it (phones discard background tabs).
  function offerToContinue() {
    const saved = storage.get('state');
    if (inline || appFragment(location.hash) || !saved || saved.length < 3) return;
    // The state every page keeps once it is ready is no work to continue when it is what the page opens with anyway
    // (a page opened again before anything was changed).
    let opened = '';
    try { opened = call('attnplay_share_link'); } catch { /* not comparable: offer it */ }
    if (opened && opened.slice(opened.indexOf('#')) === saved) return;
    const bar = document.getElementById('continue');
    if (!bar) return;
    // In the page's language (lang=, or the browser's): the HTML holds the English.
    const question = say('continue.question');
    bar.setAttribute('aria-label', question);
    const text = bar.querySelector('span');
    if (text) text.textContent = question;
    document.getElementById('continue-yes').textContent = say('continue.yes');
    document.getElementById('continue-no').textContent = say('continue.no');
    bar.hidden = false;
    // A dialog is heard when the focus enters it: the offer comes before anything the page shows by default.
    document.getElementById('continue-yes').focus();
    document.getElementById('continue-yes').addEventListener('click', () => {
      bar.hidden = true;
      call('attnplay_open_fragment', saved);
      canvas.focus();
    });
    document.getElementById('continue-no').addEventListener('click', () => {
      bar.hidden = true;
      storage.remove('state');
      canvas.focus();
    });
  }

  if (inline) return;  // the module's script follows in the document itself
  // The postMessage API is for a page in a frame, the LMS adapter for an address that asks for one (?lms=1 from
  // a course package, ?xapi-endpoint=), the cmi5 AU for a cmi5 launch (all five of its launch parameters): elsewhere
  // none is part of the first download. Added before the page's load event, they run before it (an embedding page
  // sends its first message at the frame's load).
  const query = new URLSearchParams(location.search);
  // Hinglish asked for by the address or the browser: its catalog comes alongside the module.
  const asked = (query.get('lang') || (navigator.languages && navigator.languages[0]) || '').toLowerCase();
  if (asked === 'hi' || asked.startsWith('hi-')) catalogs.prefetch('hi-Latn');
  const extras = [];
  if (window.parent !== window) extras.push('attnplay-embed.js');
  const scorm = query.get('lms') === '1' || !!query.get('xapi-endpoint');
  const cmi5 = ['endpoint', 'fetch', 'registration', 'actor', 'activityId'].every((k) => query.get(k));
  if (scorm || cmi5) extras.push('attnplay-lms-notices.js');
  if (scorm) extras.push('attnplay-lms.js');
  if (cmi5) extras.push('attnplay-cmi5.js');
  for (const src of extras) {
    const e = document.createElement('script');
    e.src = src;
    e.async = false;
    document.body.appendChild(e);
  }
  const s = document.createElement('script');
  // Offline after the first visit (attnplay-sw.js); not for a page opened from a file. Registered once the
  // page is ready: the worker's install fetches the site's files (the trainer too), which on a slow phone
  // connection would otherwise share the line with the page's own first download.
  if ('serviceWorker' in navigator && location.protocol !== 'file:') {
    ready.then(() => {
      try { sessionStorage.removeItem(RETRY_KEY); } catch (e) { /* nothing was kept */ }
      return navigator.serviceWorker.register('attnplay-sw.js');
    }).catch(() => { /* the page works without it */ });
    navigator.serviceWorker.addEventListener('controllerchange', tellWorkerTheBuild);
    tellWorkerTheBuild();
  }
  // The module is the bulk of the download: start it now, alongside attnplay.js rather than after it.
  compiling = compileWasm('attnplay.wasm');
  compiling.catch(() => { /* reported when attnplay.js asks for the module */ });
  s.src = 'attnplay.js';
  s.onerror = () => startFailed('Could not load attnplay.js');
  document.body.appendChild(s);
})();
