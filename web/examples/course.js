// course.js — the example course page: embeds two playgrounds with different presets, listens to their
// events (d_k moved, saturation reached) and drives them with setState. Text only: nothing from a
// message is inserted as HTML.
//
// Query parameters (all optional): playground=URL of the playground page (default ../index.html; another origin
// only on this machine, see playground-url.js),
// allow=origin to put in the playgrounds' allow-list (default: this page's own origin).
'use strict';
(function () {
  const params = new URLSearchParams(location.search);
  const chosen = window.examplePlayground('../index.html');  // playground-url.js
  const base = chosen.url;
  const playgroundOrigin = base.origin;
  const allow = params.get('allow') || location.origin;

  // A share fragment without compression: "s=1." + base64url("j" + JSON). The playground also reads
  // the deflated form ("z") its own "Copy link" button makes.
  function fragment(state) {
    const bytes = new TextEncoder().encode('j' + JSON.stringify(state));
    let bin = '';
    for (const b of bytes) bin += String.fromCharCode(b);
    return 's=1.' + btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  const frames = {
    saturation: {
      el: document.getElementById('play-saturation'),
      feedback: document.getElementById('feedback-saturation'),
      query: { embed: '1', panels: 'controls,saturation', lock: 'preset,sentence,seed', hide: 'theme,text_scale' },
      state: { preset: 'saturation' },
    },
    example: {
      el: document.getElementById('play-example'),
      feedback: document.getElementById('feedback-example'),
      query: { embed: '1', panels: 'heatmap,pipeline', lock: 'scale' },
      state: { preset: 'sdpa-example-1' },
    },
  };

  const log = document.getElementById('log');
  function note(frame, text) {
    const li = document.createElement('li');
    li.textContent = '[' + frame + '] ' + text;  // textContent: message text is never HTML
    log.appendChild(li);
    while (log.children.length > 50) log.removeChild(log.firstChild);
  }
  if (chosen.refused) note('page', chosen.refused);

  // The feedback line says what the learner last did and, beside it, whether the row is saturated: one
  // drag can move d_k and cross the saturation line in the same frame, and neither message may hide the other.
  function say(f, parts) {
    Object.assign(f, parts);
    f.feedback.textContent = [f.did, f.sat].filter(Boolean).join(' ');
  }

  let nextId = 1;
  const pending = new Map();
  function send(name, cmd, extra) {
    const f = frames[name];
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      f.el.contentWindow.postMessage(Object.assign({ attnplay: 1, id, cmd }, extra || {}), playgroundOrigin);
    });
  }

  function frameOf(source) {
    for (const [name, f] of Object.entries(frames)) if (f.el.contentWindow === source) return name;
    return null;
  }

  window.addEventListener('message', (ev) => {
    if (ev.origin !== playgroundOrigin) return;
    const d = ev.data;
    if (!d || typeof d !== 'object' || d.attnplay !== 1) return;
    const name = frameOf(ev.source);
    if (!name) return;
    if (d.id !== undefined && pending.has(d.id)) {
      pending.get(d.id)(d);
      pending.delete(d.id);
      return;
    }
    const f = frames[name];
    if (d.event === 'change') {
      const values = d.values || {};
      const changed = Array.isArray(d.changed) ? d.changed.map(String) : [];
      note(name, 'changed: ' + changed.join(', ') +
        (Object.keys(values).length ? ' ' + JSON.stringify(values).slice(0, 300) : ''));
      if ('d_k' in values) say(f, { did: 'You moved d_k to ' + Number(values.d_k) + '.' });
      if ('scale' in values) say(f, { did: values.scale ? 'Scaling is on: the logits shrink by √d_k.' : 'Scaling is off.' });
    } else if (d.event === 'saturation') {
      note(name, (d.saturated ? 'saturated' : 'no longer saturated') + ', max weight ' + Number(d.max_weight).toFixed(4));
      say(f, { sat: d.saturated
        ? 'Saturated: one key takes ' + (100 * Number(d.max_weight)).toFixed(1) + '% of the attention. Try scaling.'
        : 'Not saturated any more (max weight ' + Number(d.max_weight).toFixed(3) + '). Well done.' });
    } else if (d.event === 'ready') {
      note(name, 'ready');
    }
  });

  for (const [name, f] of Object.entries(frames)) {
    const url = new URL(base.href);
    url.search = new URLSearchParams(Object.assign({}, f.query, { origins: allow })).toString();
    url.hash = fragment(f.state);
    // The playground queues messages until it is ready, so subscribing on load is enough.
    f.el.addEventListener('load', () => {
      send(name, 'subscribe', { events: ['change', 'saturation'] }).then((r) => {
        if (!r.ok) { note(name, 'subscribe failed: ' + String(r.error)); return; }
        note(name, 'subscribed' + (r.result.saturated ? ' (saturated)' : ''));
        f.feedback.textContent = r.result.saturated ? 'The softmax row is saturated. Can you fix it?' : 'Ready.';
      });
    });
    f.el.src = url.href;
  }

  document.getElementById('scale-on').addEventListener('click', () => {
    send('saturation', 'setState', { state: { scale: true } }).then((r) => note('saturation', 'setState → ' + (r.ok ? 'ok' : r.error)));
  });
  document.getElementById('reset-saturation').addEventListener('click', () => {
    send('saturation', 'setState', { state: { d_k: 512, scale: false } }).then((r) => note('saturation', 'setState → ' + (r.ok ? 'ok' : r.error)));
  });

  window.course = { send, frames: Object.keys(frames) };  // for automation
})();
