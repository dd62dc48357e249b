// attnplay-sw.js — the page keeps working offline after one visit. Every file of this site is fetched from the
// network first, so a newly deployed build is what an online learner gets; when the network fails, answers with a
// server error or is too slow, the copy kept when this worker installed answers. Only this origin's
// GET requests are handled: nothing from other sites is stored, and a share link's #fragment never reaches here.
// Network answers are not written into the kept copy: it stays the one build the worker installed.
'use strict';
// The build this worker belongs to: scripts/site_manifest.mjs stamps it, so every deploy installs its own worker.
const BUILD = '__ATTNPLAY_BUILD__';
const CACHE = 'attnplay-site-' + BUILD;
// What the site holds is listed once, in site-manifest.json (written by the build): all of it is cached when the
// worker installs, in one step (Cache.addAll keeps all or nothing), so the kept copy is always one whole build.
// A phone on a poor connection should not wait for ever before the kept copy answers.
const NETWORK_WAIT_MS = 6000;

self.addEventListener('install', (event) => {
  event.waitUntil(fetch('site-manifest.json', { cache: 'no-store' })
    .then((r) => { if (!r.ok) throw new Error('site-manifest.json: HTTP ' + r.status); return r.json(); })
    .then((m) => {
      // A manifest of another build (a deploy under way): this worker's build is not what the server holds.
      if (m.build !== BUILD) throw new Error('site-manifest.json is of build ' + m.build + ', not ' + BUILD);
      const files = ['./', 'site-manifest.json'].concat(m.files.map((f) => f.path));
      return caches.open(CACHE).then((c) => c.addAll(files.map((f) => new Request(f, { cache: 'reload' }))));
    })
    .then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith('attnplay-site-') && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

function fromNetwork(request) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('slow network')), NETWORK_WAIT_MS);
    fetch(request).then((response) => {
      clearTimeout(timer);
      resolve(response);
    }, (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  // The page's address with its query (?embed=1, ?lesson-url=…) is one file: index.html.
  const key = request.mode === 'navigate' ? new Request(new URL('index.html', self.registration.scope)) : request;
  event.respondWith((async () => {
    try {
      const response = await fromNetwork(request);
      // A server error for a file the kept copy holds (a deploy half done, an overloaded host): the kept copy.
      if (response.status >= 500) throw new Error('HTTP ' + response.status);
      return response;
    } catch (err) {
      const kept = await caches.match(key, { ignoreSearch: request.mode === 'navigate' });
      if (kept) return kept;
      throw err;
    }
  })());
});
