// playground-url.js — which playground an example page may frame. `?playground=URL` is for trying a playground
// served on another local port while developing: accepted only when both this page and the playground are on this
// machine (localhost, 127.0.0.1, [::1]) or share this page's origin. On a deployed site a link could otherwise make
// the example frame any page under the project's own address (a fake "session expired" form, say).
'use strict';
window.examplePlayground = function examplePlayground(fallback) {
  const loopback = (host) => host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
  const asked = new URLSearchParams(location.search).get('playground');
  const base = new URL(fallback, location.href);
  if (!asked) return { url: base, refused: '' };
  let url = null;
  try { url = new URL(asked, location.href); } catch (e) { url = null; }
  const web = url && (url.protocol === 'http:' || url.protocol === 'https:');
  const allowed = web && (url.origin === location.origin || (loopback(url.hostname) && loopback(location.hostname)));
  return allowed ? { url, refused: '' }
    : { url: base, refused: 'playground=' + String(asked).slice(0, 120) + ' was ignored: an example page frames only a playground of its own site (or, on this machine, another local port).' };
};
