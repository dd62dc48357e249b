// component.js — the course page of component.html: listens to its <attention-playground> elements'
// DOM events and drives them with attributes and setState(). Text only: nothing is inserted as HTML.
//
// Query parameter (optional): playground=URL of the playground page on another local port (default: the
// index.html beside attention-playground.js; see playground-url.js).
'use strict';
(function () {
  const params = new URLSearchParams(location.search);
  const elements = {
    saturation: document.getElementById('play-saturation'),
    example: document.getElementById('play-example'),
    lesson: document.getElementById('play-lesson'),
  };
  const feedback = {
    saturation: document.getElementById('feedback-saturation'),
    example: document.getElementById('feedback-example'),
    lesson: document.getElementById('feedback-lesson'),
  };
  const chosen = window.examplePlayground('../index.html');  // playground-url.js
  if (params.get('playground') && !chosen.refused)
    for (const el of Object.values(elements)) el.setAttribute('src', chosen.url.href);

  const log = document.getElementById('log');
  const heard = [];  // for automation: every event as {frame, type, detail}
  function note(name, text) {
    const li = document.createElement('li');
    li.textContent = '[' + name + '] ' + text;
    log.appendChild(li);
    while (log.children.length > 50) log.removeChild(log.firstChild);
  }
  if (chosen.refused) note('page', chosen.refused);

  for (const [name, el] of Object.entries(elements)) {
    const says = feedback[name];
    for (const type of ['ready', 'change', 'saturation', 'error', 'lesson-step', 'answer', 'lesson-complete']) {
      el.addEventListener(type, (ev) => {
        heard.push({ frame: name, type, detail: ev.detail });
        note(name, type + ' ' + JSON.stringify(ev.detail).slice(0, 300));
      });
    }
    // What the learner last did and, beside it, whether the row is saturated: one drag can move d_k and
    // cross the saturation line in the same frame, and neither message may hide the other.
    const line = { did: '', sat: '' };
    const say = (parts) => { Object.assign(line, parts); says.textContent = [line.did, line.sat].filter(Boolean).join(' '); };
    el.addEventListener('ready', (ev) => {
      say({ did: '', sat: ev.detail.saturated ? 'The softmax row is saturated. Can you fix it?' : 'Ready.' });
    });
    el.addEventListener('change', (ev) => {
      const values = ev.detail.values || {};
      if ('d_k' in values) say({ did: 'You moved d_k to ' + Number(values.d_k) + '.' });
      if ('scale' in values) say({ did: values.scale ? 'Scaling is on: the logits shrink by √d_k.' : 'Scaling is off.' });
    });
    el.addEventListener('saturation', (ev) => {
      say({ sat: ev.detail.saturated
        ? 'Saturated: one key takes ' + (100 * Number(ev.detail.max_weight)).toFixed(1) + '% of the attention. Try scaling.'
        : 'Not saturated any more (max weight ' + Number(ev.detail.max_weight).toFixed(3) + '). Well done.' });
    });
    el.addEventListener('error', (ev) => say({ did: 'The playground said: ' + String(ev.detail.error) }));
    el.addEventListener('lesson-step', (ev) => say({ did: 'Step ' + Number(ev.detail.step) + ' of ' + Number(ev.detail.steps) + '.' }));
    el.addEventListener('answer', (ev) => say({ did: ev.detail.correct ? 'Right.' : 'Not yet: try again.' }));
    el.addEventListener('lesson-complete', () => say({ did: 'Lesson complete.' }));
  }

  // Methods for the buttons; an attribute for the example's preset (applied through setState, no reload).
  document.getElementById('scale-on').addEventListener('click', () => {
    elements.saturation.setState({ scale: true }).then((r) => note('saturation', 'setState → ' + (r.ok ? 'ok' : r.error)));
  });
  document.getElementById('example-preset').addEventListener('change', (ev) => {
    elements.example.setAttribute('preset', ev.target.value);
  });
  document.getElementById('reset-saturation').addEventListener('click', () => {
    elements.saturation.setState({ d_k: 512, scale: false }).then((r) => note('saturation', 'setState → ' + (r.ok ? 'ok' : r.error)));
  });

  window.course = { elements, heard };  // for automation
})();
