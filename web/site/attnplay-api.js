// attnplay-api.js — loads the WebAssembly app with a progress bar and exposes window.attnplay
// (ready, getState, setState, getResult, shareURL, importJSON, ui.itemRect, ui.panelScroll) and the Share panel's host
// services (clipboard, downloads, file import, hash changes). No eval, no inline handlers, no innerHTML.
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

  // String arguments go through the heap, not ccall's copies on the 1 MB stack: a large state or an
  // imported file would otherwise overflow it.
  function call(name, ...args) {
    const ptrs = args.map((a) => {
      const s = String(a);
      const n = Module.lengthBytesUTF8(s) + 1;
      const p = Module._malloc(n);
      if (!p) throw new Error('out of memory');
      Module.stringToUTF8(s, p, n);
      return p;
    });
    try {
      return Module.ccall(name, 'string', args.map(() => 'number'), ptrs);
    } finally {
      for (const p of ptrs) Module._free(p);
    }
  }
  function needReady() {
    if (!isReady) return Promise.reject(new Error('attnplay is not ready yet: await attnplay.ready'));
    return null;
  }

  // ---- services for the Share panel (called from C++ through EM_JS in web.cpp) ----------------
  const MAX_IMPORT_BYTES = 64 * 1024 * 1024;  // the CLI's input limit
  function setStatus(text) { if (isReady) call('attnplay_set_status', String(text)); }
  function saveBlob(name, blob) {
    if (!blob) { setStatus('Could not save ' + name + '.'); return; }
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
    if (file.size > MAX_IMPORT_BYTES) {
      const error = 'Could not import ' + file.name + ': larger than 64 MiB.';
      setStatus(error);
      return Promise.resolve({ ok: false, error });
    }
    return file.text().then((text) => JSON.parse(call('attnplay_import_json', text, file.name)));
  }
  fileInput.addEventListener('change', () => {
    const f = fileInput.files && fileInput.files[0];
    fileInput.value = '';
    if (f) importFile(f).catch((e) => setStatus('Could not import: ' + e.message));
  });
  // Dropping a .json file anywhere on the page imports it.
  window.addEventListener('dragover', (e) => {
    if (e.dataTransfer && Array.from(e.dataTransfer.types || []).includes('Files')) e.preventDefault();
  });
  window.addEventListener('drop', (e) => {
    const f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
    if (!f) return;
    e.preventDefault();
    importFile(f).catch((err) => setStatus('Could not import: ' + err.message));
  });
  // Following a share link in the same tab only changes the fragment.
  window.addEventListener('hashchange', () => {
    if (isReady && location.hash.length > 1) call('attnplay_open_fragment', location.hash);
  });
  Module.attnplayHost = {
    copyText(text) {
      const fail = () => setStatus('The browser refused the clipboard: select the text in the Share panel and press Ctrl+C.');
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
    captureCanvas(name) { canvas.toBlob((b) => saveBlob(name, b), 'image/png'); },
    pickFile() { fileInput.click(); },
    pageString(which) {
      if (which === 0) return location.href.split(/[?#]/)[0];
      if (which === 1) return location.search;
      return location.hash;
    },
  };

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
    frames() { return isReady ? Module._attnplay_frames() : 0; },
    // The link "Copy link" copies: this page's address + "#s=1.…" (versioned, deflated state).
    shareURL() { return needReady() || Promise.resolve(call('attnplay_share_link')); },
    // Imports a scenario (CLI schema) or a full state, as if the file had been dropped on the page.
    importJSON(text, name) {
      return needReady() || Promise.resolve(JSON.parse(call('attnplay_import_json', String(text), String(name || 'import.json'))));
    },
    // Embed mode as read from the query string: {enabled, panels, locked, hidden, origins}.
    embedInfo() { return needReady() || Promise.resolve(JSON.parse(call('attnplay_embed_info'))); },
    // Cheap change probe (used by attnplay-embed.js for events): small state fields, digests of large ones, saturation.
    watch() { return needReady() || Promise.resolve(JSON.parse(call('attnplay_watch'))); },
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
    const refresh = () => {
      const status = call('attnplay_status');  // e.g. why a share link could not be opened
      const text = call('attnplay_summary') + (status ? ' ' + status : '');
      if (text !== last) { summaryEl.textContent = text; last = text; }
    };
    refresh();  // filled in as soon as the app is ready, then kept current
    setInterval(refresh, 500);
  }

  const s = document.createElement('script');
  s.src = 'attnplay.js';
  s.onerror = () => fatal('Could not load attnplay.js');
  document.body.appendChild(s);
})();
