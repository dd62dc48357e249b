// attnplay-a11y.js — the canvas's parallel DOM: native controls, the lesson picker and step, the worksheet's cells,
// Learn mode's controls, the embedding points, the mask grid and the selected row's weights as real HTML, built from the app's own description (window.attnplay.a11y.description(), generated in C++
// from the panel and control registries, the state schema and the catalogs). Screen readers and keyboards use
// these; focusing one rings the same control on the canvas. Rebuilt only when the app's change event fires, and then only
// the parts whose content changed.
(function () {
  'use strict';
  const root = document.getElementById('a11y-dom');
  const skip = document.getElementById('a11y-skip');
  const live = document.getElementById('a11y-summary');
  if (!root) return;
  // Keys typed into the DOM twins are theirs: the canvas's keyboard handler (Emscripten's GLFW, listening on window
  // in the capture phase, which also cancels Tab) must not see them. This script runs before the page's others (it is
  // first in index.html), so this listener is registered before the module's, so it runs first and stops the event there; the twin's own key handler (node.a11yKey) is called
  // here, and the browser's default action (arrows on a slider, Tab to the next element) still happens.
  // Tab from nowhere (the page itself has focus) goes to the skip links rather than to the canvas's handler.
  const ours = (ev) => ev.target instanceof Element &&
    (root.contains(ev.target) || skip.contains(ev.target) || (ev.target === document.body && ev.key === 'Tab'));
  // Key releases still reach the canvas's handler: a key pressed on the canvas that moved the focus here (Tab out of
  // it) must not stay held down in the app.
  for (const type of ['keydown', 'keyup', 'keypress']) {
    window.addEventListener(type, (ev) => {
      if (!ours(ev) || type === 'keyup') return;
      ev.stopImmediatePropagation();
      if (type === 'keydown' && typeof ev.target.a11yKey === 'function') ev.target.a11yKey(ev);
    }, true);
  }

  // No keyboard trap (WCAG 2.1.2): the app tells the canvas when Tab went past a panel's last control (+1), Shift-Tab
  // before its first (-1) or Esc had nothing to cancel (2); the focus goes on to the parallel DOM after the canvas,
  // back to the skip links before it, or to the first skip link. Tab from there comes back to the canvas.
  const canvas = document.getElementById('canvas');
  const tabbable = (box) => box ? [...box.querySelectorAll('a[href], button, input, select, textarea')]
    .filter((e) => !e.disabled && e.getAttribute('tabindex') !== '-1' && !(e.type === 'radio' && !e.checked &&
      box.querySelector(`input[type=radio][name="${e.name}"]:checked`))) : [];
  if (canvas) {
    canvas.addEventListener('attnplay-leave', (ev) => {
      if (document.activeElement !== canvas) return;
      const links = tabbable(skip), after = tabbable(root);
      const to = ev.detail === 2 ? links[0] : ev.detail > 0 ? after[0] : links[links.length - 1];
      if (to) to.focus();
    });
  }

  // The rest needs window.attnplay (attnplay-api.js, the next script): it starts once the document is parsed.
  let app = null;
  let last = '', lastLearn = '', lastVerdict = '', focusedId = '';
  // A rebuild removes the focused field, and Chromium then fires its change event with whatever half-typed text it
  // held: a field hands text over only until its part is retired (the rebuild carries the text across).
  const current = (n) => () => !n.a11yRetired && n.isConnected;
  const retire = (node) => {
    node.a11yRetired = true;
    for (const e of node.querySelectorAll('input, select, textarea')) e.a11yRetired = true;
  };
  // Each part of the DOM (a control, a panel's title, the lesson step, the weights table…) is kept from the last
  // build while what it shows is unchanged: a drag rebuilds only the controls and tables it changed, so the
  // browser lays out a few nodes rather than the whole tree, and a reader's place in an unchanged part is kept.
  let parts = new Map(), used = new Map();
  function part(slot, data, make) {
    const key = JSON.stringify(data), kept = parts.get(slot);
    const node = kept && kept.key === key ? kept.node : make();
    used.set(slot, { key, node });
    return node;
  }
  // Puts `nodes` as parent's children in order, moving no node that keeps its place (a moved node loses the
  // focus): the children not kept go first (retired before they go), then the new ones are put in between.
  function syncChildren(parent, nodes) {
    const keep = new Set(nodes);
    for (const old of [...parent.children]) if (!keep.has(old)) { retire(old); old.remove(); }
    nodes.forEach((n, i) => { if (parent.children[i] !== n) parent.insertBefore(n, parent.children[i] || null); });
  }

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? '' : String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  }
  const domId = (id) => 'a11y-' + String(id).replace(/[^A-Za-z0-9_-]/g, '-');

  function setKey(key, value) { return app.setState({ [key]: value }); }
  // Each control's twin by its id, as last built: what Tab inside the canvas reaches is said from it (below).
  const twins = new Map();
  function bindFocus(node, id) {
    twins.set(id, node);
    node.a11yRinged = null;  // not known until the app answers: the canvas rings it (true) or the page shows it (false)
    node.addEventListener('focus', () => {
      focusedId = id;
      app.a11y.focus(id).then((drawn) => { node.a11yRinged = drawn === true; showFocus(); }, () => {});
    });
    node.addEventListener('blur', () => { if (focusedId === id) { focusedId = ''; app.a11y.focus(''); } });
  }

  // WCAG 2.4.7 where the canvas has no control of the twin's to ring ("Show the whole weight matrix", a single box of
  // the builder's locks, whose tree the canvas draws as one): the page shows the focused control — its name and
  // state — over the canvas, ringed as the canvas rings, and hidden from readers, who have the control itself.
  const focusShown = document.getElementById('a11y-focus-shown');
  function focusText(node) {
    const label = node.id && root.querySelector('label[for="' + CSS.escape(node.id) + '"]');
    const name = (node.getAttribute('aria-label') || (label ? label.textContent : '')).trim();
    if (node.type === 'checkbox') return (node.checked ? '\u2611 ' : '\u2610 ') + name;
    if (node.type === 'radio') return (node.checked ? '\u25c9 ' : '\u25cb ') + name;
    if (node.tagName === 'SELECT') return name + ': ' + (node.selectedOptions[0] ? node.selectedOptions[0].textContent : '');
    if (node.tagName === 'INPUT' || node.tagName === 'TEXTAREA') return name + ': ' + node.value;
    return node.textContent.trim();  // a button, a tree's summary
  }
  function showFocus() {
    if (!focusShown) return;
    const node = document.activeElement;
    const own = !!node && root.contains(node) && node.matches('button, input, select, textarea, summary') &&
      (node.a11yRinged === undefined || node.a11yRinged === false);
    if (own) focusShown.textContent = focusText(node);
    focusShown.hidden = !own;
  }
  for (const type of ['focusin', 'change', 'input', 'toggle']) root.addEventListener(type, showFocus, true);
  // After the focus has left (or gone with a rebuilt node): where it went is known once the blur is done.
  root.addEventListener('focusout', () => setTimeout(showFocus), true);

  function controlNode(c) {
    const id = domId(c.id);
    const wrap = el('div');
    const disabled = c.locked ? 'true' : undefined;
    // A control that is part of a state key rather than one (Learn mode's) names the action that applies it.
    const set = (key, value) => c.act ? act({ do: c.act, id: key, value }) : setKey(key, value);
    if (c.kind === 'range') {
      wrap.append(el('label', { for: id }, c.label));
      const input = el('input', { id, type: 'range', min: c.min, max: c.max, step: c.step, 'aria-valuetext': c.valuetext, 'aria-disabled': disabled });
      input.value = c.value;
      input.addEventListener('input', () => {
        if (c.locked) input.value = c.value;  // a locked control keeps its value (the app would revert it too)
        else set(c.id, c.step >= 1 ? Math.round(+input.value) : +input.value);
      });
      bindFocus(input, c.id);
      wrap.append(input);
    } else if (c.kind === 'checkbox') {
      const input = el('input', { id, type: 'checkbox', 'aria-disabled': disabled });
      input.checked = !!c.value;
      input.addEventListener('change', () => { if (c.locked) input.checked = !!c.value; else set(c.id, input.checked); });
      bindFocus(input, c.id);
      wrap.append(input, el('label', { for: id }, c.label));
    } else if (c.kind === 'select') {
      wrap.append(el('label', { for: id }, c.label));
      const select = el('select', { id, 'aria-disabled': disabled });
      c.options.forEach((o, i) => select.append(el('option', { value: o }, c.option_labels ? c.option_labels[i] : o)));
      select.value = c.value;
      select.addEventListener('change', () => { if (c.locked) select.value = c.value; else set(c.id, select.value); });
      bindFocus(select, c.id);
      wrap.append(select);
    } else if (c.kind === 'button') {
      // A button that cannot act yet stays in the Tab order (aria-disabled) and says why beside it.
      const off = c.locked || c.disabled, why = c.reason ? id + '-why' : undefined;
      const b = el('button', { id, type: 'button', 'aria-disabled': off ? 'true' : undefined, 'aria-describedby': why }, c.label);
      b.addEventListener('click', () => { if (!off) act({ do: c.act, id: c.id }); });
      bindFocus(b, c.id);
      wrap.append(b);
      if (why) wrap.append(el('p', { id: why }, c.reason));
    } else if (c.kind === 'text') {
      // A text whose content has a problem says it (aria-invalid, the problem described beside the field).
      const error = c.error ? id + '-error' : undefined;
      wrap.append(el('label', { for: id }, c.label));
      const input = el('input', { id, type: 'text', 'aria-disabled': disabled, 'aria-invalid': error ? 'true' : undefined,
        'aria-describedby': error });
      input.value = c.value;
      const live = current(input);
      input.addEventListener('change', () => { if (!c.locked && live()) set(c.id, input.value); });
      bindFocus(input, c.id);
      wrap.append(input);
      if (error) wrap.append(el('p', { id: error }, c.error));
    } else if (c.kind === 'number') {
      // Handed over on Enter or leaving the field (a number being typed is carried across a rebuild); the app clamps.
      wrap.append(el('label', { for: id }, c.label));
      const input = el('input', { id, type: 'number', min: c.min, max: c.max, step: c.step, autocomplete: 'off', 'aria-disabled': disabled });
      input.value = c.value;
      const live = current(input);
      input.addEventListener('input', () => { input.a11yPending = true; });
      input.addEventListener('change', () => {
        input.a11yPending = false;
        if (c.locked || !live() || input.value === '' || !Number.isFinite(+input.value)) return;
        // Shown as the app keeps it: a number it clamps to one it already had would change nothing to rebuild.
        const v = Math.min(c.max, Math.max(c.min, Math.round(+input.value)));
        input.value = String(v);
        set(c.id, v);
      });
      bindFocus(input, c.id);
      wrap.append(input);
    } else if (c.kind === 'code') {
      // Text the app built (the embed code): read-only, selectable and copyable by hand.
      wrap.append(el('label', { for: id }, c.label));
      const area = el('textarea', { id, readonly: true, rows: 4, cols: 60, spellcheck: 'false' });
      area.value = c.value;
      bindFocus(area, c.id);
      wrap.append(area);
    } else if (c.kind === 'group') {
      // Checkboxes under one heading (the canvas's text above them): a fieldset named by it.
      const fieldset = el('fieldset', { id });
      fieldset.append(el('legend', {}, c.label));
      for (const k of c.controls) fieldset.append(controlNode(k));
      return fieldset;
    }
    return wrap;
  }

  // After an action that removes the focused element (a lesson started from the picker, left for free play), the
  // focus goes to where the reader continues: `then` names that element's id, applied at the next rebuild.
  let focusNext = '';
  function act(action, then) {
    if (then) focusNext = then;
    app.a11y.act(action).then((r) => { if (r && !r.ok) { focusNext = ''; say(r.error); } });
  }

  // The lessons while none is open (the lesson panel's list and the Lessons menu): one button each, how far the
  // learner got said beside it; Enter or Space starts it where the learner left off.
  function lessonsNode(ls) {
    const sec = el('section', { id: 'a11y-lessons', 'aria-labelledby': 'a11y-lessons-title', tabindex: -1 });
    sec.append(el('h2', { id: 'a11y-lessons-title' }, ls.title), el('p', {}, ls.intro));
    const list = el('ul');
    for (const l of ls.items) {
      const id = domId('lesson-start-' + l.id), note = id + '-status';
      const item = el('li');
      const b = el('button', { id, type: 'button', 'aria-describedby': l.status ? note : undefined }, l.title);
      b.addEventListener('click', () => act({ do: 'start', value: l.id }, 'a11y-lesson'));
      bindFocus(b, 'lesson:start:' + l.id);
      item.append(b);
      if (l.status) item.append(el('span', { id: note }, ' ' + l.status));
      if (l.summary) item.append(el('p', {}, l.summary));
      list.append(item);
    }
    const reset = el('button', { id: 'a11y-lesson-reset-progress', type: 'button' }, ls.reset);
    reset.addEventListener('click', () => act({ do: 'reset_progress' }));
    bindFocus(reset, 'lesson:reset-progress');
    sec.append(list, reset);
    return sec;
  }

  // The start view of a first visit (src/app/start_view.h): what the page is in one sentence, the language choice and
  // the two ways in, as the canvas shows them; it comes first, so a reader lands on it.
  function startNode(st) {
    const sec = el('section', { id: 'a11y-start', 'aria-labelledby': 'a11y-start-title', tabindex: -1 });
    sec.append(el('h2', { id: 'a11y-start-title' }, st.heading), el('p', { id: 'a11y-start-sentence' }, st.sentence));
    const langId = 'a11y-start-language';
    const select = el('select', { id: langId });
    for (const l of st.languages) select.append(el('option', { value: l.code }, l.title));
    select.value = st.lang;
    select.addEventListener('change', () => act({ do: 'language', value: select.value }, langId));
    bindFocus(select, 'start:language:' + st.lang);
    const lang = el('div');
    lang.append(el('label', { for: langId }, st.language), select);
    sec.append(lang);
    for (const [way, text, about, then] of [['lesson', st.lesson, st.lesson_about, 'a11y-lesson'],
      ['explore', st.explore, st.explore_about, 'a11y-controls']]) {
      const id = 'a11y-start-' + way;
      const b = el('button', { id, type: 'button', 'aria-describedby': about ? id + '-about' : undefined }, text);
      b.addEventListener('click', () => act({ do: 'start_view', value: way }, then));
      bindFocus(b, 'start:' + way);
      sec.append(b);
      if (about) sec.append(el('p', { id: id + '-about' }, about));
    }
    return sec;
  }

  // The menu bar's twin: the View menu's panels as checkboxes (ticked = open), its workspaces as buttons, the
  // languages as a list; each makes the same change the canvas's menu makes.
  function menusNode(m) {
    const sec = el('section', { id: 'a11y-menus', 'aria-labelledby': 'a11y-menus-title', tabindex: -1 });
    sec.append(el('h2', { id: 'a11y-menus-title' }, m.title));
    const view = el('fieldset');
    view.append(el('legend', {}, m.view));
    for (const p of m.panels) {
      const id = domId('view-' + p.key);
      const box = el('input', { id, type: 'checkbox' });
      box.checked = p.open;
      box.addEventListener('change', () => act({ do: 'panel', value: p.key, open: box.checked }));
      bindFocus(box, 'menu:view:' + p.key);
      const row = el('div');
      row.append(box, el('label', { for: id }, p.title));
      view.append(row);
    }
    const spaces = el('div', { role: 'group', 'aria-label': m.workspace });
    for (const w of m.workspaces) {
      const b = el('button', { id: domId('workspace-' + w.key), type: 'button' }, w.title);
      b.addEventListener('click', () => act({ do: 'workspace', value: w.key }));
      spaces.append(b);
    }
    view.append(spaces);
    const langId = 'a11y-menu-language';
    const select = el('select', { id: langId });
    for (const l of m.languages) select.append(el('option', { value: l.code }, l.title));
    select.value = m.lang;
    select.addEventListener('change', () => act({ do: 'language', value: select.value }));
    bindFocus(select, 'menu:language');
    const lang = el('div');
    lang.append(el('label', { for: langId }, m.language), select);
    sec.append(view, lang);
    return sec;
  }

  // A finished lesson's results (the lesson panel's words, src/app/lesson/lesson_text.h render_results): the score,
  // each prediction with the answer given, its verdict (✓ / ✗ in words) and the answer where it was not found, a
  // button to review each step as it was left, and the ways on. Finish puts the reader on the heading, which says the
  // score.
  function resultsNode(r) {
    const sec = el('section', { id: 'a11y-lesson-results', 'aria-labelledby': 'a11y-lesson-results-title',
      'aria-describedby': 'a11y-lesson-score', tabindex: -1 });
    sec.append(el('h2', { id: 'a11y-lesson-results-title' }, r.heading), el('p', { id: 'a11y-lesson-score' }, r.score));
    if (r.tasks) sec.append(el('p', {}, r.tasks));
    const ways = [];
    if (r.next_id) ways.push(['a11y-results-next', r.next, 'lesson:results:next', { do: 'start', value: r.next_id }, 'a11y-lesson']);
    ways.push(['a11y-results-restart', r.restart, 'lesson:results:restart', { do: 'results_restart' }, 'a11y-lesson'],
      ['a11y-results-close', r.close, 'lesson:results:close', { do: 'results_close' }, 'a11y-lessons']);
    for (const [id, text, control, action, then] of ways) {
      const b = el('button', { id, type: 'button' }, text);
      b.addEventListener('click', () => act(action, then));
      bindFocus(b, control);
      sec.append(b);
    }
    if (!r.rows.length) return sec;
    sec.append(el('h3', {}, r.answers));
    const list = el('ol');
    for (const row of r.rows) {
      const item = el('li');
      item.append(el('p', {}, row.question));
      if (row.given) item.append(el('p', {}, row.given));
      item.append(el('p', {}, row.verdict));
      if (row.answer) item.append(el('p', {}, row.answer));
      const b = el('button', { id: 'a11y-review-' + row.step, type: 'button' }, row.review);
      b.addEventListener('click', () => act({ do: 'review', value: row.step }, 'a11y-lesson-text'));
      bindFocus(b, 'lesson:review:' + row.step);
      item.append(b);
      list.append(item);
    }
    sec.append(list);
    return sec;
  }

  // "✓ Right!" / "✗ Not quite. <its slip>" / "✓ Done." — a glyph for those who see, the words for those who hear.
  function verdictText(l) {
    const glyph = !l.correct ? '✗ ' : l.verdict.startsWith('✓') ? '' : '✓ ';
    return glyph + l.verdict + (l.feedback ? ' ' + l.feedback : '');
  }

  function lessonNode(l, words) {
    const sec = el('section', { id: 'a11y-lesson', 'aria-label': words['a11y.lesson'] + ': ' + l.title, tabindex: -1 });
    // Every text below is the one the canvas draws (src/app/lesson/lesson_text.h renders both).
    // The step's text is where Back, Next and the skip link put the reader, so it is focusable; the paragraph sits
    // inside the focused box rather than being it: Orca reads a focused paragraph twice (its name, computed from its
    // text, then the text), a box holding one once (tests/a11y/orca.test.mjs).
    const text = el('div', { id: 'a11y-lesson-text', tabindex: -1 });
    text.append(el('p', {}, l.text));
    sec.append(el('h2', {}, l.title), el('p', {}, l.step_of), text);
    if (l.text_since) sec.append(el('p', { id: 'a11y-lesson-text-since' }, l.text_since));
    if (l.question) sec.append(el('p', { id: 'a11y-question' }, l.question));
    if (l.task === 'predict' && l.choices.length) {
      const group = el('div', { role: 'radiogroup', 'aria-labelledby': 'a11y-question' });
      l.choices.forEach((text, i) => {
        const id = 'a11y-choice-' + i;
        const r = el('input', { id, type: 'radio', name: 'a11y-choice', value: i, 'aria-disabled': l.answered ? 'true' : undefined });
        r.checked = l.chosen === i;
        // Arrows move between choices and select; the answer is checked on Enter or Space (not on arrows).
        r.a11yKey = (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); if (!l.answered) act({ do: 'choice', value: i }); } };
        r.addEventListener('click', (ev) => { if (ev.detail > 0 && !l.answered) act({ do: 'choice', value: i }); });
        bindFocus(r, 'lesson:choice:' + i);
        const row = el('div');
        row.append(r, el('label', { for: id }, text));
        group.append(row);
      });
      sec.append(group);
    } else if (l.number) {
      // Labelled as a number answer and described by its question (the label alone does not say what is asked).
      const input = el('input', { id: 'a11y-number', type: 'text', inputmode: 'decimal', 'aria-describedby': 'a11y-question',
        'aria-disabled': l.answered ? 'true' : undefined });
      input.a11yKey = (ev) => { if (ev.key === 'Enter' && !l.answered) act({ do: 'number', value: input.value }); };
      bindFocus(input, 'lesson:number');
      const check = el('button', { type: 'button', 'aria-disabled': l.answered ? 'true' : undefined }, l.check);
      check.addEventListener('click', () => { if (!l.answered) act({ do: 'number', value: input.value }); });
      bindFocus(check, 'lesson:check');
      sec.append(el('label', { for: 'a11y-number' }, words['a11y.answer']), input, check);
    }
    // Right or wrong in words (and a glyph), never by colour alone.
    if (l.verdict) sec.append(el('p', { id: 'a11y-verdict' }, verdictText(l)));
    if (l.one_more) sec.append(el('p', {}, l.one_more));
    if (l.missed) sec.append(el('p', { id: 'a11y-missed' }, l.missed));
    if (l.hint) sec.append(el('p', { id: 'a11y-hint' }, l.hint));
    if (l.explain) sec.append(el('p', { id: 'a11y-explain' }, l.explain));
    if (l.explain_since) sec.append(el('p', { id: 'a11y-explain-since' }, l.explain_since));
    // Stable ids: a rebuilt step keeps the focus on the button that was pressed.
    const back = el('button', { id: 'a11y-lesson-back', type: 'button', 'aria-disabled': l.can_back ? undefined : 'true' }, l.back);
    // Back and Next move the reader to the new step's text, so it is read (a focus left on a button that has just
    // gone grey says only "Next, dimmed").
    back.addEventListener('click', () => { if (l.can_back) act({ do: 'back' }, 'a11y-lesson-text'); });
    bindFocus(back, 'lesson:back');
    const next = el('button', { id: 'a11y-lesson-next', type: 'button', 'aria-disabled': l.can_next ? undefined : 'true' }, l.next);
    // Finish ends the lesson (its results show): the reader goes on to them.
    next.addEventListener('click', () => act({ do: 'next' }, !l.can_next ? '' : l.step >= l.steps ? 'a11y-lesson-results' : 'a11y-lesson-text'));
    bindFocus(next, 'lesson:next');
    const restart = el('button', { id: 'a11y-lesson-restart', type: 'button' }, l.restart);
    restart.addEventListener('click', () => act({ do: 'restart' }, 'a11y-lesson'));
    const exit = el('button', { id: 'a11y-lesson-exit', type: 'button' }, l.exit);
    exit.addEventListener('click', () => act({ do: 'exit' }, 'a11y-lessons'));
    bindFocus(exit, 'lesson:exit');
    sec.append(back, next, restart, exit);
    return sec;
  }

  // The worksheet: each asked cell a labelled text field ("row 2, column 3, Softmax rows"), in a table with its
  // stage's row and column headers; Enter or leaving the field hands the text to the same cell the canvas writes,
  // and the cell's check (right, wrong, follows from an earlier slip, not a number) is said beside it.
  function worksheetNode(w, words) {
    const sec = el('section', { id: 'a11y-worksheet', 'aria-labelledby': 'a11y-worksheet-title', tabindex: -1 });
    sec.append(el('h2', { id: 'a11y-worksheet-title' }, w.title));
    if (w.chooser) sec.append(chooserNode(w.chooser));
    if (w.error) { sec.append(el('p', {}, w.error)); return sec; }
    if (!w.stages) return sec;  // the chosen exercise loads at the next frame
    sec.append(el('p', {}, w.intro));
    for (const line of w.inputs) sec.append(el('p', {}, line));
    for (const st of w.stages) sec.append(stageNode(st, words));
    sec.append(el('p', { id: 'a11y-worksheet-summary' }, w.summary));
    return sec;
  }
  // Which exercise: the numbered ones and the notes' worked examples by name; choosing sets the state key "exercise",
  // as the panel's number field and examples list do.
  function chooserNode(c) {
    const wrap = el('div');
    const select = el('select', { id: 'a11y-ws-exercise', 'aria-disabled': c.locked ? 'true' : undefined });
    c.options.forEach((o, i) => select.append(el('option', { value: o }, c.option_labels[i])));
    select.value = c.value;
    select.addEventListener('change', () => { if (c.locked) select.value = c.value; else setKey('exercise', select.value); });
    bindFocus(select, 'worksheet:note');
    wrap.append(el('label', { for: 'a11y-ws-exercise' }, c.label), select);
    return wrap;
  }
  function stageNode(st, words) {
    const box = el('div', { role: 'group', 'aria-labelledby': domId('ws-' + st.id + '-title') });
    box.append(el('h3', { id: domId('ws-' + st.id + '-title') }, st.title), el('p', {}, st.formula));
    if (st.given) box.append(el('p', {}, st.given));
    if (st.rows) {
      const table = el('table');
      const head = el('tr');
      head.append(el('th', { scope: 'col' }, words['a11y.row']));
      st.rows[0].cells.forEach((_, j) => head.append(el('th', { scope: 'col' }, words['a11y.column'] + ' ' + (j + 1))));
      table.append(head);
      st.rows.forEach((r, i) => {
        const tr = el('tr');
        tr.append(el('th', { scope: 'row' }, (i + 1) + (r.label ? ' ' + r.label : '')));
        r.cells.forEach((c, j) => tr.append(cellNode(st.id, i, j, c)));
        table.append(tr);
      });
      box.append(table);
    }
    for (const n of st.notes) box.append(el('p', {}, n));
    // "Show me" under the stage of the cell picked last (focusing a cell picks it, as clicking one on the canvas
    // does), and the arithmetic it wrote out, line by line as the panel writes it.
    if (st.show) {
      const id = domId('worksheet:show:' + st.id);
      const b = el('button', { id, type: 'button', 'aria-describedby': id + '-for' }, st.show);
      b.addEventListener('click', () => act({ do: 'show_me', stage: st.id }));
      bindFocus(b, 'worksheet:show:' + st.id);
      box.append(b, el('span', { id: id + '-for' }, ' ' + st.show_for));
    }
    if (st.breakdown) {
      const shown = el('div', { id: domId('ws-' + st.id + '-breakdown') });
      for (const line of st.breakdown.split('\n')) shown.append(el('p', {}, line.trim()));
      box.append(shown);
    }
    return box;
  }
  function cellNode(stage, i, j, c) {
    const id = domId(`ws-${stage}-${i + 1}-${j + 1}`), note = id + '-check';
    const td = el('td');
    const input = el('input', { id, type: 'text', inputmode: 'decimal', autocomplete: 'off', 'aria-label': c.label,
      'aria-invalid': c.invalid ? 'true' : undefined, 'aria-describedby': c.status ? note : undefined });
    input.value = c.value;
    const live = current(input);
    const submit = () => { if (live() && input.value !== c.value) act({ do: 'cell', stage, row: i, col: j, value: input.value }); };
    input.a11yKey = (ev) => { if (ev.key === 'Enter') submit(); };
    input.addEventListener('blur', submit);  // not 'change': a rebuilt field starts from the carried-over text
    bindFocus(input, `worksheet:${stage}:${i + 1},${j + 1}`);
    input.addEventListener('focus', () => act({ do: 'pick_cell', stage, row: i, col: j }));  // Show me refers to it
    td.append(input);
    if (c.status) td.append(el('span', { id: note }, ' ' + c.status));
    return td;
  }

  // The mask grid: a checkbox per query × key cell (ticked = blocked, as painting the canvas's cell), arrows move
  // between cells; one checkbox per key for its padding. Locked with the mask (aria-disabled, kept as it is).
  function masksNode(mk, words) {
    const sec = el('section', { id: 'a11y-masks', 'aria-labelledby': 'a11y-masks-title', tabindex: -1 });
    sec.append(el('h2', { id: 'a11y-masks-title' }, mk.title));
    const disabled = mk.locked ? 'true' : undefined;
    const box = (id, checked, attrs, apply, focusId) => {
      const input = el('input', { id, type: 'checkbox', 'aria-disabled': disabled, ...attrs });
      input.checked = checked;
      input.addEventListener('change', () => { if (mk.locked) input.checked = checked; else apply(input.checked); });
      bindFocus(input, focusId);
      return input;
    };
    const table = el('table');
    const head = el('tr');
    head.append(el('th', { scope: 'col' }, words['a11y.query'] + ' \\ ' + words['a11y.key']));
    for (const k of mk.keys) head.append(el('th', { scope: 'col' }, k));
    table.append(head);
    const n = mk.rows.length, m = mk.keys.length;
    mk.rows.forEach((r, i) => {
      const tr = el('tr');
      tr.append(el('th', { scope: 'row' }, r.query));
      r.cells.forEach((c, j) => {
        const id = `a11y-mask-${i}-${j}`, note = id + '-masked';
        const input = box(id, c.blocked, { 'aria-label': c.label, 'aria-describedby': c.masked ? note : undefined },
          (on) => act({ do: 'mask_cell', row: i, col: j, value: on }), `masks:cell:${i},${j}`);
        const moves = { ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, 0], ArrowUp: [-1, 0] };
        input.a11yKey = (ev) => {
          const d = moves[ev.key];
          if (!d) return;
          ev.preventDefault();
          const to = document.getElementById(`a11y-mask-${Math.min(n - 1, Math.max(0, i + d[0]))}-${Math.min(m - 1, Math.max(0, j + d[1]))}`);
          if (to) to.focus();
        };
        const td = el('td');
        td.append(input);
        if (c.masked) td.append(el('span', { id: note }, ' ' + mk.masked));
        tr.append(td);
      });
      table.append(tr);
    });
    const pads = el('fieldset');
    pads.append(el('legend', {}, mk.padding_label));
    mk.keys.forEach((k, j) => {
      const id = `a11y-mask-pad-${j}`;
      pads.append(box(id, mk.padding[j], {}, (on) => act({ do: 'mask_pad', col: j, value: on }), `masks:pad:${j}`),
        el('label', { for: id }, k));
    });
    sec.append(table, pads);
    return sec;
  }

  // The embedding plane's points: per token a group of two number fields, its coordinates on the plane's two axes.
  // Arrows step by 0.1 (with Shift by 1), a typed number is handed over on Enter or leaving the field; either goes
  // through the plane drag's own edit. Locked with the embeddings (aria-disabled, kept as they are).
  function pointsNode(pt) {
    const sec = el('section', { id: 'a11y-points', 'aria-labelledby': 'a11y-points-title', tabindex: -1 });
    sec.append(el('h2', { id: 'a11y-points-title' }, pt.title));
    pt.items.forEach((p, i) => {
      const group = el('div', { role: 'group', 'aria-label': p.label });
      for (const axis of ['x', 'y']) {
        const a = p[axis], id = `a11y-point-${i}-${axis}`;
        const input = el('input', { id, type: 'number', step: 'any', min: pt.min, max: pt.max, autocomplete: 'off',
          'aria-valuetext': a.valuetext, 'aria-disabled': pt.locked ? 'true' : undefined });
        input.value = fmt(a.value);
        const shown = input.value, live = current(input);
        const submit = (v) => {
          input.a11yPending = false;
          if (!pt.locked && live() && Number.isFinite(v)) act({ do: 'point', row: i, axis, value: v });
        };
        // A number being typed (not yet handed over) is carried across a rebuild, as the worksheet's text is.
        input.addEventListener('input', () => { input.a11yPending = true; });
        input.a11yKey = (ev) => {
          if (ev.key === 'ArrowUp' || ev.key === 'ArrowDown') {
            ev.preventDefault();  // the browser's own step would be 1 and skip the rounding
            if (pt.locked) return;
            const step = (ev.shiftKey ? 1 : 0.1) * (ev.key === 'ArrowUp' ? 1 : -1);
            const v = Math.round(((+input.value || 0) + step) * 1000) / 1000;
            input.value = String(v);
            submit(v);
          } else if (ev.key === 'Enter' && input.value !== shown && input.value !== '') {
            submit(+input.value);
          }
        };
        input.addEventListener('blur', () => { if (input.value !== shown && input.value !== '') submit(+input.value); });
        bindFocus(input, 'embeddings:point:' + i);
        group.append(el('label', { for: id }, a.label), input);
      }
      sec.append(group);
    });
    return sec;
  }

  function fmt(w) { return (+w).toFixed(3); }
  // A table the canvas draws as a plot or a grid: {caption, about, table: [header, ...rows]}, each row headed by
  // its first cell; {withheld} while a lesson question asks about it.
  function tableNode(id, st) {
    const sec = el('section', { id, 'aria-label': st.caption || '' });
    if (st.withheld) { sec.append(el('p', {}, st.withheld)); return sec; }
    sec.append(el('p', {}, st.about));
    if (!st.table) return sec;
    const table = el('table');
    table.append(el('caption', {}, st.caption));
    const head = el('tr');
    for (const h of st.table[0]) head.append(el('th', { scope: 'col' }, h));
    table.append(head);
    for (const row of st.table.slice(1)) {
      const tr = el('tr');
      row.forEach((cell, i) => tr.append(el(i === 0 ? 'th' : 'td', i === 0 ? { scope: 'row' } : {}, cell)));
      table.append(tr);
    }
    sec.append(table);
    return sec;
  }
  // The scaling study the Learn panel shows: every configuration's steps to 90 % over the seeds, and the reversal
  // (its button is the Learn controls' "learn:reversal").
  function studyNode(st) {
    const sec = tableNode('a11y-study', st);
    if (st.reversal) sec.append(el('p', { id: 'a11y-study-reversal' }, st.reversal));
    return sec;
  }
  function weightsNode(w, words) {
    const sec = el('section', { id: 'a11y-results', 'aria-label': words['a11y.results'], tabindex: -1 });
    // A lesson question asks about these numbers: they are not read out before the answer.
    if (w.withheld) { sec.append(el('p', { id: 'a11y-weights-withheld' }, w.withheld)); return sec; }
    const table = el('table');
    table.append(el('caption', {}, words['a11y.weights_caption'].replace('{query}', w.query)));
    const head = el('tr');
    head.append(el('th', { scope: 'col' }, words['a11y.key']), el('th', { scope: 'col' }, words['a11y.weight']));
    table.append(head);
    w.keys.forEach((k, i) => {
      const tr = el('tr');
      tr.append(el('th', { scope: 'row' }, k), el('td', {}, fmt(w.weights[i])));
      table.append(tr);
    });
    sec.append(table, el('p', { id: 'a11y-saturation' }, w.largest + ' ' + w.saturation));
    const whole = el('button', { id: 'a11y-whole-matrix', type: 'button', 'aria-expanded': 'false' }, words['a11y.whole_matrix']);
    whole.addEventListener('click', () => showMatrix(sec, whole, words));
    sec.append(whole);
    return sec;
  }
  // The whole matrix on request (it can be 1024 × 1024): rows are queries, columns keys, both with headers.
  function showMatrix(sec, button, words) {
    app.getResult().then((r) => {
      const m = r && (r.heads && r.heads[0] ? r.heads[0].weights : r.weights);
      if (!Array.isArray(m)) return;
      const rows = r.tokens, cols = r.key_tokens;
      const table = el('table', { id: 'a11y-matrix' });
      const head = el('tr');
      head.append(el('th', { scope: 'col' }, words['a11y.query'] + ' \\ ' + words['a11y.key']));
      for (const c of cols) head.append(el('th', { scope: 'col' }, c));
      table.append(head);
      m.forEach((row, i) => {
        const tr = el('tr');
        tr.append(el('th', { scope: 'row' }, rows[i]));
        for (const v of row) tr.append(el('td', {}, fmt(v)));
        table.append(tr);
      });
      const old = sec.querySelector('#a11y-matrix');
      if (old) old.remove();
      sec.append(table);
      button.setAttribute('aria-expanded', 'true');
    });
  }

  let lastSkip = '';
  function skipLinks(d) {
    const w = d.words;
    skip.setAttribute('aria-label', w['a11y.skip_links']);
    const links = [d.start ? ['a11y-start', d.start.heading] : ['', ''], d.lesson ? ['a11y-lesson', w['a11y.skip_lesson']] : d.results ? ['a11y-lesson-results', w['a11y.skip_lesson']]
      : ['a11y-lessons', w['a11y.skip_lessons']],
      ['a11y-controls', w['a11y.skip_controls']], [d.worksheet ? 'a11y-worksheet' : '', w['a11y.skip_worksheet']], ['a11y-results', w['a11y.skip_results']],
      [d.builder ? 'a11y-builder' : '', w['a11y.skip_builder']], [d.menus ? 'a11y-menus' : '', w['a11y.skip_menus']]];
    const key = JSON.stringify(links);
    if (key === lastSkip) return;
    lastSkip = key;
    // A reader on a skip link stays on it (or on the next one, if its section went) when the links change: the
    // browser drops the focus of a removed node, and the next Tab would start again from the top of the page.
    const on = skip.contains(document.activeElement) ? document.activeElement.getAttribute('href') : '';
    const was = on ? [...skip.querySelectorAll('a')].map((a) => a.getAttribute('href')) : [];
    skip.replaceChildren(...links.filter(([t]) => t).map(([target, text]) => {
      const a = el('a', { href: '#' + target }, text);
      a.addEventListener('click', (ev) => {
        ev.preventDefault();
        const to = document.getElementById(target);
        // The lesson's link goes to the step's text (a reader hears where the lesson is, not "Back, dimmed"); the
        // others to their first control.
        // A lesson's results are read from their heading and score, so the section itself takes the focus.
        const first = to && target !== 'a11y-lesson-results' &&
          (to.querySelector('#a11y-lesson-text') || to.querySelector('#a11y-start-lesson') || to.querySelector('input, select, button'));
        (first || to).focus();
      });
      return a;
    }));
    if (!on) return;
    const now = [...skip.querySelectorAll('a')];
    const after = was.slice(was.indexOf(on));
    const to = after.map((h) => now.find((a) => a.getAttribute('href') === h)).find(Boolean) || now[now.length - 1];
    if (to) to.focus({ preventScroll: true });
  }

  // The lesson builder (src/app/builder_twin.cpp describes it in the canvas's order): headings, notes, native fields,
  // buttons, radio groups and groups of steps and choices. A typed text is handed over on Enter or when the field is
  // left, a choice at once; each sends the item's action through the canvas's own function. The collapsed trees of
  // the canvas (locks, facts asked, claims, other language) are <details> the reader opens, kept open across rebuilds.
  const openDetails = new Set();
  // The section stays, and so does each top-level item whose content is unchanged: an edit rebuilds only what it
  // changed, so a screen reader is not sent back through the section's start.
  function builderNode(bd) {
    const sec = part('builder', '', () => el('section', { id: 'a11y-builder', 'aria-labelledby': 'a11y-builder-heading', tabindex: -1 }));
    // Where a button sends the focus after acting is not part of what it shows: Add keeps its node (and the focus)
    // when the number of the step it will make changes.
    syncChildren(sec, bd.items.map((it, i) => {
      const node = part('builder-item:' + (it.id || it.kind + ':' + i), { ...it, then: null }, () => {
        const box = document.createDocumentFragment();
        builderItems(box, [it], true);
        return box.firstChild;
      });
      for (const b of node.querySelectorAll('button')) b.a11yThen = it.then;
      return node;
    }));
    return sec;
  }
  function builderSend(it, value, then) {
    act(value === undefined ? it.act : { ...it.act, value }, then ? domId(then) : undefined);
  }
  function builderItems(box, items, top) {
    for (const it of items) {
      if (it.kind === 'heading') {
        box.append(el('h' + it.level, top && it.level === 2 ? { id: 'a11y-builder-heading' } : {}, it.text));
      } else if (it.kind === 'note') {
        box.append(el('p', { id: it.id ? domId(it.id) : undefined, 'data-tone': it.tone || undefined }, it.text));
      } else if (it.kind === 'group') {
        box.append(builderGroup(it));
      } else {
        box.append(builderField(it));
      }
    }
  }
  function builderGroup(it) {
    if (it.collapsed) {
      const d = el('details', { id: domId(it.id) });
      const summary = el('summary', {}, it.label);
      d.append(summary);
      if (openDetails.has(it.id)) d.open = true;
      d.addEventListener('toggle', () => { if (d.open) openDetails.add(it.id); else openDetails.delete(it.id); });
      bindFocus(summary, it.id);
      builderItems(d, it.items, false);
      return d;
    }
    const f = el('fieldset', it.id ? { id: domId(it.id) } : {});
    f.append(el('legend', {}, it.label));
    builderItems(f, it.items, false);
    return f;
  }
  function builderField(it) {
    const id = domId(it.id), wrap = el('div');
    if (it.kind === 'button') {
      const why = it.reason ? id + '-why' : undefined;
      const b = el('button', { id, type: 'button', 'aria-disabled': it.disabled ? 'true' : undefined, 'aria-describedby': why,
        'aria-pressed': it.pressed === undefined ? undefined : String(it.pressed) }, it.label);
      b.addEventListener('click', () => { if (!it.disabled) builderSend(it, undefined, b.a11yThen === undefined ? it.then : b.a11yThen); });
      bindFocus(b, it.id);
      wrap.append(b);
      if (why) wrap.append(el('p', { id: why }, it.reason));
    } else if (it.kind === 'checkbox') {
      const input = el('input', { id, type: 'checkbox' });
      input.checked = !!it.value;
      input.addEventListener('change', () => builderSend(it, input.checked));
      bindFocus(input, it.id);
      wrap.append(input, el('label', { for: id }, it.label));
    } else if (it.kind === 'select') {
      const select = el('select', { id });
      for (const o of it.options) select.append(el('option', { value: o.value }, o.label));
      select.value = it.value;
      select.addEventListener('change', () => builderSend(it, select.value));
      bindFocus(select, it.id);
      wrap.append(el('label', { for: id }, it.label), select);
    } else if (it.kind === 'radio') {
      const f = el('fieldset', { id });
      f.append(el('legend', {}, it.label));
      it.options.forEach((o, k) => {
        const oid = o.id ? domId(o.id) : id + '-' + k;
        const r = el('input', { id: oid, type: 'radio', name: id, value: o.value });
        r.checked = o.value === it.value;
        r.addEventListener('change', () => { if (r.checked) builderSend(it, o.value); });
        bindFocus(r, o.id || it.id);
        const row = el('div');
        row.append(r, el('label', { for: oid }, o.label));
        f.append(row);
      });
      return f;
    } else {
      wrap.append(el('label', { for: id }, it.label), builderText(it, id));
    }
    return wrap;
  }
  // A text or number field: its text is handed over on Enter or when the field is left (not at every key: each
  // hand-over checks the whole draft).
  function builderText(it, id) {
    const number = it.kind === 'number';
    const input = el(it.multiline ? 'textarea' : 'input', number
      ? { id, type: 'number', inputmode: 'decimal', min: it.min, max: it.max, step: it.step === undefined ? 'any' : it.step }
      : { id, type: it.multiline ? undefined : 'text', rows: it.multiline ? 3 : undefined, placeholder: it.hint || undefined, autocomplete: 'off' });
    input.value = it.value === null || it.value === undefined ? '' : String(it.value);
    const shown = input.value, live = current(input);
    const submit = () => {
      if (!live() || input.value === shown) return;
      if (!number) return builderSend(it, input.value);
      if (input.value.trim() !== '' && Number.isFinite(+input.value)) builderSend(it, +input.value);
    };
    input.a11yKey = (ev) => { if (ev.key === 'Enter' && !ev.shiftKey) { ev.preventDefault(); submit(); } };
    input.addEventListener('blur', submit);
    bindFocus(input, it.id);
    return input;
  }

  // The live region has one writer (attnplay-api.js): it says this with the summary once the state has settled.
  function say(text) {
    if (text) document.dispatchEvent(new CustomEvent('attnplay-announce', { detail: text }));
  }

  function panelNode(p) {
    const sec = part('panel:' + p.key, p.title, () => el('section', { 'aria-label': p.title }));
    const kids = [part('panel-title:' + p.key, p.title, () => el('h2', {}, p.title))];
    for (const c of p.controls) kids.push(part('control:' + p.key + ':' + c.id, c, () => controlNode(c)));
    if (p.status) kids.push(part('panel-status:' + p.key, p.status, () => el('p', { id: domId(p.key + '-status') }, p.status)));
    syncChildren(sec, kids);
    return sec;
  }

  // Rebuilds what changed, keeping the focused element's identity (the reader stays on it).
  let lastWords = '', lastResults = '', lastStart = '', lastShuffle = '', lastShown = '', lastBuilt = '';
  function render(d) {
    const text = JSON.stringify(d);
    if (text === last) return;
    last = text;
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement : null;
    const active = focused ? focused.id : '';
    // Text being typed into a field stays as typed until it is handed over (Enter or leaving the field).
    const typing = focused && ((focused.tagName === 'INPUT' && (focused.type === 'text' || focused.a11yPending)) ||
      focused.tagName === 'TEXTAREA') ? focused.value : null;
    // Every part says words from the catalog: a change of language builds all of them anew.
    const words = JSON.stringify(d.words);
    if (words !== lastWords) { parts = new Map(); lastWords = words; }
    used = new Map();
    const w = d.words, top = [];
    if (d.start) top.push(part('start', d.start, () => startNode(d.start)));
    if (d.lesson) top.push(part('lesson', d.lesson, () => lessonNode(d.lesson, w)));
    if (d.lessons) top.push(part('lessons', d.lessons, () => lessonsNode(d.lessons)));
    if (d.results) top.push(part('results', d.results, () => resultsNode(d.results)));
    if (d.menus) top.push(part('menus', d.menus, () => menusNode(d.menus)));
    const controls = part('controls', '', () => el('div', { id: 'a11y-controls', tabindex: -1, 'aria-label': w['a11y.controls'], role: 'group' }));
    syncChildren(controls, d.panels.filter((p) => p.controls.length).map(panelNode));
    top.push(controls);
    if (d.worksheet) top.push(part('worksheet', d.worksheet, () => worksheetNode(d.worksheet, w)));
    if (d.points) top.push(part('points', d.points, () => pointsNode(d.points)));
    if (d.masks) top.push(part('masks', d.masks, () => masksNode(d.masks, w)));
    if (d.weights) top.push(part('weights', d.weights, () => weightsNode(d.weights, w)));
    // The Saturation panel's curves in numbers.
    if (d.sweep) top.push(part('sweep', d.sweep, () => tableNode('a11y-sweep', d.sweep)));
    if (d.variance) top.push(part('variance', d.variance, () => tableNode('a11y-variance', d.variance)));
    if (d.learn) top.push(part('learn', d.learn, () => el('p', { id: 'a11y-learn' }, d.learn)));
    if (d.study) top.push(part('study', d.study, () => studyNode(d.study)));
    if (d.builder) top.push(builderNode(d.builder));
    parts = used;
    root.setAttribute('lang', d.lang);
    syncChildren(root, top);
    skipLinks(d);
    const target = focusNext && document.getElementById(focusNext);
    const focusedResults = !!target && target.id === 'a11y-lesson-results';
    if (target) {
      focusNext = '';
      target.focus({ preventScroll: true });
    } else if (active && document.activeElement !== focused) {
      const again = document.getElementById(active);
      if (again) {
        if (typing !== null && again.value !== typing) again.value = typing;
        if (focused.a11yPending) again.a11yPending = true;
        again.focus({ preventScroll: true });
      }
    }
    // Learn mode's curves in words: said once the run settles (say() waits until the text stops changing).
    if (d.learn && d.learn !== lastLearn) say(d.learn);
    lastLearn = d.learn || '';
    // A verdict is said when it is new, not again with every later change of the state.
    const verdict = d.lesson && d.lesson.verdict ? [verdictText(d.lesson), d.lesson.missed, d.lesson.explain].filter(Boolean).join(' ') : '';
    if (verdict && verdict !== lastVerdict) say(verdict);
    lastVerdict = verdict;
    // The lesson builder's verdict ("Ready: 3 steps…", "To fix: …") is said when an edit changes it.
    const built = d.builder ? d.builder.verdict : '';
    if (built && built !== lastBuilt) say(built);
    lastBuilt = built;
    // What a button wrote beside itself is said once, when it is new: the last shuffle's gap, Show me's arithmetic.
    const positional = d.panels.find((p) => p.key === 'positional');
    const shuffled = positional && positional.status || '';
    const shown = d.worksheet && d.worksheet.stages ? d.worksheet.stages.map((st) => st.breakdown).filter(Boolean).join(' ') : '';
    const news = [shuffled !== lastShuffle ? shuffled : '', shown !== lastShown ? shown : ''].filter(Boolean).join(' ');
    if (news) say(news);
    lastShuffle = shuffled;
    lastShown = shown;
    // The start view is said once, when it appears: what the page is.
    const start = d.start ? d.start.heading + '. ' + d.start.sentence : '';
    if (start && start !== lastStart) say(start);
    lastStart = start;
    // A lesson's results are said once, when they appear: its heading and score.
    const results = d.results ? d.results.heading + '. ' + d.results.score : '';
    // (Not when Finish has just put the reader on them: the focus says them.)
    if (results && results !== lastResults && !focusedResults) say(results);
    lastResults = results;
  }

  function refresh() { app.a11y.description().then(render).catch(() => {}); }

  // Tab and the arrows inside the canvas move the canvas's own keyboard focus, which a screen reader cannot see:
  // the control it reaches is said from its twin (its name and value, as the twin would be read), once per move.
  let saidCanvasFocus = '';
  function twinWords(node) {
    const label = node.id && document.querySelector('label[for="' + node.id + '"]');
    const name = node.getAttribute('aria-label') || (label ? label.textContent : node.textContent) || '';
    const value = node.getAttribute('aria-valuetext') || (node.tagName === 'SELECT' ? node.selectedOptions[0]?.textContent
      : node.type === 'checkbox' ? '' : node.tagName === 'INPUT' ? node.value : '') || '';
    return [name, value].filter(Boolean).join(', ');
  }
  function sayCanvasFocus() {
    app.ui.focused().then((id) => {
      if (!id || id === saidCanvasFocus) return;
      saidCanvasFocus = id;
      const node = twins.get(id);
      if (node && node.isConnected) say(twinWords(node));
    }).catch(() => {});
  }
  function watchCanvasKeys() {
    const canvas = document.getElementById('canvas');
    if (!canvas) return;
    canvas.addEventListener('keyup', (ev) => {
      if (ev.key === 'Tab' || ev.key.startsWith('Arrow')) requestAnimationFrame(() => requestAnimationFrame(sayCanvasFocus));
    });
    canvas.addEventListener('blur', () => { saidCanvasFocus = ''; });
  }
  function start() {
    app = window.attnplay;
    if (app) app.ready.then(() => { refresh(); app.onChange(refresh); watchCanvasKeys(); }).catch(() => {});
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
