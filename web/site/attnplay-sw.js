// attnplay-sw.js — the page keeps working offline after one visit. Every file of this site is fetched from the
// network first, so a newly deployed build is what an online learner gets (and what the cache then holds); when
// the network fails or is too slow, the copy kept from the last successful load answers. Only this origin's
// GET requests are handled: nothing from other sites is stored, and a share link's #fragment never reaches here.
'use strict';
const CACHE = 'attnplay-site-3';
// What the page needs to start and to train, cached when the worker installs (the rest as it is fetched).
const FILES = ['./', 'index.html', 'style.css', 'favicon.svg', 'attnplay-api.js', 'attnplay-embed.js', 'attnplay-lms.js',
  'attnplay-a11y.js',
  'attention-playground.js', 'attnplay.js', 'attnplay.wasm', 'attnplay.deferred.wasm', 'strings/hi-Latn.json', 'strings/en.lessons.json',
  'strings/en.panels.json', 'strings/hi-Latn.lessons.json', 'strings/hi-Latn.panels.json', 'attnplay-train-worker.js', 'attnplay-train.js',
  'attnplay-train.wasm'];
// A phone on a poor connection should not wait for ever before the kept copy answers.
const NETWORK_WAIT_MS = 6000;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
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
      if (response.ok && response.type === 'basic') {
        const copy = response.clone();
        caches.open(CACHE).then((c) => c.put(key, copy)).catch(() => {});
      }
      return response;
    } catch (err) {
      const kept = await caches.match(key, { ignoreSearch: request.mode === 'navigate' });
      if (kept) return kept;
      throw err;
    }
  })());
});
