// attnplay-sw.js — the page keeps working offline after one visit, and each time it is opened it runs one build
// whole, never one build's scripts with another's module.
//
// A build's files are kept together: when this worker installs, it caches every file site-manifest.json lists, in
// one step (Cache.addAll keeps all or nothing), in a cache named by its build. When the page is opened (a
// navigation) the worker decides the build that page runs and remembers it for the page and for the workers the
// page starts: the network's build when index.html (which names its build) answers in time, else the kept copy.
// Every later request of that page is answered from that build only: from its kept copy when there is one, else
// from the network, never from another build's files. When the network's build fails part-way (a file too slow, a
// server error) the page's start fails; the page then tells the worker, which serves the kept copy instead, and
// loads once more (attnplay-api.js). Only this origin's GET requests are handled: nothing from other sites is
// stored, and a share link's #fragment never reaches here. Network answers are not written into a kept copy.
'use strict';
// The build this worker belongs to: scripts/site_manifest.mjs stamps it, so every deploy installs its own worker.
const BUILD = '__ATTNPLAY_BUILD__';
const SITE = 'attnplay-site-';
const CACHE = SITE + BUILD;
// Which build each page runs, kept where a restarted worker, or the next build's worker taking over while a page
// still loads or another tab still runs the old build, finds it.
const PAGES = 'attnplay-pages';
// A phone on a poor connection should not wait for ever before the kept copy answers.
const NETWORK_WAIT_MS = 6000;
// A page is remembered at least this long: a page still loading may not be listed among the clients yet.
const PAGE_GRACE_MS = 60000;
// The network's build that a page could not load whole is not tried again this long: the kept copy answers.
const AVOID_MS = 5 * 60000;
const BUILD_META = /<meta name="attnplay-build" content="([0-9a-f]+)">/;

const scoped = (name) => new URL(name, self.registration.scope).href;
const PAGE_PREFIX = scoped('attnplay-page/');
const AVOID_KEY = scoped('attnplay-avoid');
const RETIRED_KEY = scoped('attnplay-retired');
const pins = new Map();  // page (client id) → its build; '' for a page that names none

self.addEventListener('install', (event) => {
  event.waitUntil(fetch('site-manifest.json', { cache: 'no-store' })
    .then((r) => { if (!r.ok) throw new Error('site-manifest.json: HTTP ' + r.status); return r.json(); })
    .then((m) => {
      // A manifest of another build (a deploy under way): this worker's build is not what the server holds.
      if (m.build !== BUILD) throw new Error('site-manifest.json is of build ' + m.build + ', not ' + BUILD);
      const files = ['./', 'site-manifest.json'].concat(m.files.map((f) => f.path));
      return caches.open(CACHE).then((c) => c.addAll(files.map((f) => new Request(f, { cache: 'reload' }))));
    })
    // Taking over at once is safe: a page already open keeps the build it was given.
    .then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  // Older builds' copies go once no page runs them any more (prune, after each navigation too).
  event.waitUntil(caches.keys()
    .then((keys) => keys.filter((k) => k.startsWith(SITE) && k !== CACHE).map((k) => k.slice(SITE.length)))
    .then((retired) => caches.open(PAGES).then((c) => c.put(RETIRED_KEY, new Response(JSON.stringify(retired)))))
    .then(() => self.clients.claim())
    .then(prune));
});

const readJSON = (cache, key) => cache.match(key).then((r) => (r ? r.json() : null));

async function pin(id, build) {
  if (!id) return;
  pins.set(id, build);
  const pages = await caches.open(PAGES);
  await pages.put(PAGE_PREFIX + encodeURIComponent(id), new Response(JSON.stringify({ build, at: Date.now() })));
}

// The build a page runs, or undefined for a page this worker (or the one before it) did not open.
async function pinned(id) {
  if (!id) return undefined;
  if (!pins.has(id)) {
    const kept = await readJSON(await caches.open(PAGES), PAGE_PREFIX + encodeURIComponent(id));
    if (!kept) return undefined;
    pins.set(id, kept.build);
  }
  return pins.get(id);
}

// A build's kept copy, only when it holds the whole build (the manifest went in with the rest, in one step).
async function keptCopy(build) {
  if (!build || !(await caches.has(SITE + build))) return null;
  const cache = await caches.open(SITE + build);
  return (await cache.match(scoped('site-manifest.json'))) ? cache : null;
}

async function avoided() {
  const a = await readJSON(await caches.open(PAGES), AVOID_KEY);
  return a && Date.now() < a.until ? a.build : '';
}

// A retired build's copy is deleted once no page runs it; pages that are gone are forgotten.
async function prune() {
  const live = new Set((await self.clients.matchAll({ includeUncontrolled: true, type: 'all' })).map((c) => c.id));
  const pages = await caches.open(PAGES);
  const inUse = new Set();
  for (const key of await pages.keys()) {
    if (!key.url.startsWith(PAGE_PREFIX)) continue;
    const id = decodeURIComponent(key.url.slice(PAGE_PREFIX.length));
    const page = await readJSON(pages, key);
    if (page && (live.has(id) || Date.now() - page.at < PAGE_GRACE_MS)) {
      inUse.add(page.build);
    } else {
      pins.delete(id);
      await pages.delete(key);
    }
  }
  const retired = (await readJSON(pages, RETIRED_KEY)) || [];
  const left = [];
  for (const build of retired) {
    if (build === BUILD || inUse.has(build)) left.push(build);
    else await caches.delete(SITE + build);
  }
  await pages.put(RETIRED_KEY, new Response(JSON.stringify(left)));
}

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

// index.html from the network and the build it names ('' for none, e.g. an error page), or null when the network
// fails, is too slow or answers with a server error.
async function networkPage(request) {
  try {
    const response = await fromNetwork(request);
    if (response.status >= 500) return null;
    const named = response.ok ? BUILD_META.exec(await response.clone().text()) : null;
    return { response, build: named ? named[1] : '' };
  } catch (err) {
    return null;
  }
}

// Decides the build of a page being opened: the network's, unless it failed a page a moment ago or cannot be had,
// then this worker's kept copy. A build kept whole is served from its copy (no file of it waits on the network).
async function navigate(event) {
  const [net, kept, avoid] = await Promise.all([networkPage(event.request), keptCopy(BUILD), avoided()]);
  const netCopy = net && net.build ? await keptCopy(net.build) : null;
  let build, response;
  if (netCopy) {
    build = net.build;
    response = (await netCopy.match(scoped('index.html'))) || net.response;
  } else if (net && !(kept && net.build && net.build === avoid)) {
    build = net.build;
    response = net.response;
  } else if (kept) {
    build = BUILD;
    response = await kept.match(scoped('index.html'));
  } else {
    return Response.error();
  }
  await pin(event.resultingClientId, build);
  event.waitUntil(prune());
  return response;
}

// A page's other files, from its build only; a worker the page starts runs the page's build.
async function subresource(event) {
  const request = event.request;
  const build = await pinned(event.clientId);
  if (event.resultingClientId && build !== undefined) await pin(event.resultingClientId, build);
  if (build === undefined) return unpinned(request);
  const copy = await keptCopy(build);
  const hit = copy && (await copy.match(request));
  if (hit) return hit;
  // Not kept (the network's build, or a file outside the build, such as a teacher's lesson): the network only.
  try {
    return await fromNetwork(request);
  } catch (err) {
    if (err.message !== 'slow network') throw err;
    return new Response('', { status: 504, statusText: 'Gateway Timeout' });
  }
}

// A page opened before this worker took it over (the first visit) names its build in a message; until then, the
// network first, and this worker's copy (installed from the same server moments ago) when it fails.
async function unpinned(request) {
  try {
    const response = await fromNetwork(request);
    if (response.status >= 500) throw new Error('HTTP ' + response.status);
    return response;
  } catch (err) {
    const kept = await caches.match(request, { cacheName: CACHE });
    if (kept) return kept;
    throw err;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  event.respondWith(request.mode === 'navigate' ? navigate(event) : subresource(event));
});

self.addEventListener('message', (event) => {
  const message = event.data || {};
  const id = event.source && event.source.id;
  const build = String(message.build || '');
  if (message.type === 'attnplay-page-build' && id) {
    event.waitUntil(pinned(id).then((b) => (b === undefined ? pin(id, build) : null)));
  } else if (message.type === 'attnplay-build-failed') {
    const answer = () => { if (event.ports[0]) event.ports[0].postMessage('ok'); };
    event.waitUntil(caches.open(PAGES)
      .then((c) => c.put(AVOID_KEY, new Response(JSON.stringify({ build, until: Date.now() + AVOID_MS }))))
      .then(answer, answer));
  }
});
