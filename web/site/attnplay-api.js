// attnplay-api.js — loads the WebAssembly app with a progress bar and exposes window.attnplay
// (ready, getState, setState, getResult, ui.itemRect). No eval, no inline handlers, no innerHTML.
'use strict';
(function () {
  const canvas = document.getElementById('canvas');
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

  // WebGL2 is required; say so plainly instead of failing inside the module.
  const probe = document.createElement('canvas').getContext('webgl2');
  if (!probe) { fatal('This page needs WebGL2, which this browser does not provide.'); return; }

  function progress(frac, text) {
    fill.style.width = Math.round(Math.max(0, Math.min(1, frac)) * 100) + '%';
    if (text) loadingText.textContent = text;
  }

  // Fetch the wasm ourselves so the bar shows real download progress.
  async function fetchWasm(url) {
    const resp = await fetch(url);
    if (!resp.ok) throw new Error('could not load ' + url + ' (' + resp.status + ')');
    const total = Number(resp.headers.get('content-length')) || 0;
    if (!resp.body || !total) return new Uint8Array(await resp.arrayBuffer());
    const reader = resp.body.getReader();
    const chunks = [];
    let got = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      got += value.length;
      progress(0.9 * got / total, 'Loading… ' + Math.round(got / 1024) + ' / ' + Math.round(total / 1024) + ' KB');
    }
    const bytes = new Uint8Array(got);
    let off = 0;
    for (const c of chunks) { bytes.set(c, off); off += c.length; }
    return bytes;
  }

  const Module = {
    canvas,
    print: (t) => console.log(t),
    printErr: (t) => console.warn(t),
    attnplayFatal: fatal,
    instantiateWasm(imports, success) {
      fetchWasm('attnplay.wasm')
        .then((bytes) => { progress(0.95, 'Starting…'); return WebAssembly.instantiate(bytes, imports); })
        .then((r) => success(r.instance, r.module))
        .catch((e) => fatal('Could not start: ' + e.message));
      return {};
    },
    onAbort: (what) => fatal('The playground stopped: ' + what),
  };
  window.Module = Module;

  function call(name, ...args) {
    return Module.ccall(name, 'string', args.map(() => 'string'), args);
  }
  function needReady() {
    if (!isReady) return Promise.reject(new Error('attnplay is not ready yet: await attnplay.ready'));
    return null;
  }

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
    },
    frames() { return isReady ? Module._attnplay_frames() : 0; },
  };
  Object.defineProperty(window, 'attnplay', { value: Object.freeze(api), writable: false });

  // Ready after the first frames are drawn (layout settles on the second).
  function waitFrames() {
    if (Module._attnplay_frames && Module._attnplay_frames() >= 2) {
      isReady = true;
      progress(1, '');
      document.getElementById('loading').classList.add('done');
      canvas.focus();
      resolveReady(api);
      startSummary();
      return;
    }
    requestAnimationFrame(waitFrames);
  }
  Module.onRuntimeInitialized = () => requestAnimationFrame(waitFrames);

  // The accessible summary follows the screen, as text only.
  function startSummary() {
    let last = '';
    setInterval(() => {
      const text = call('attnplay_summary');
      if (text !== last) { summaryEl.textContent = text; last = text; }
    }, 500);
  }

  const s = document.createElement('script');
  s.src = 'attnplay.js';
  s.onerror = () => fatal('Could not load attnplay.js');
  document.body.appendChild(s);
})();
