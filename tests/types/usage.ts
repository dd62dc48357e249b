// usage.ts — the public API used as pages use it, compiled against web/site/attnplay.d.ts (tsc -p tests/types).
// Every function is called and every event's detail read, so a declaration that is renamed, dropped or retyped
// fails here. Never run: it only has to compile.
export {};

// ---- the playground page's own scripts, or an automation of it: window.attnplay ----------------------------------
async function page(): Promise<void> {
  const api: Attnplay.API = await window.attnplay.ready;

  const state: Attnplay.State = await api.getState();
  const dk: number = state.d_k;
  const scaled: boolean = state.scale;
  const open: boolean = state.panels.heatmap;
  const lesson: string | undefined = state.lesson?.id;
  const step: 0 | 1 | 2 | 3 = state.cross.step;
  const cells: Array<Array<0 | 1>> | null = state.mask_cells;
  console.log(dk, scaled, open, lesson, step, cells, state.tokens.join(' '), state.learn.playing);

  const set: Attnplay.OkOrError = await api.setState({ d_k: 256, scale: false, panels: { saturation: true } });
  if (!set.ok) console.log(set.error.toUpperCase());
  await api.setState(state);  // the whole state is a partial state too
  await api.setState({ lesson: { id: 'why-sqrt-dk', step: 2 } });
  await api.setState({ lesson: { id: 'a-teachers-own', step: 1 } });
  await api.setState({ lesson: null, cross: { states: 'seeded' }, learn: { playing: false } });

  const result = await api.getResult();
  console.log(result.tokens[0], result.key_tokens.length, result.error ?? '', result['sweep']);
  if (result.lesson) {
    const q = result.lesson.questions[0];
    const right = q.correct_response;
    console.log(result.lesson.draft, result.lesson.answered, q.kind, typeof right === 'number' ? right : right.tolerance);
  }

  await api.keepAnswers('softmax', { 'sdpa-weight-1': { given: 0.731, attempts: 1 } });

  const rect = await api.ui.itemRect('d_k');
  if (rect) console.log(rect.x + rect.w, rect.y + rect.h);
  const focused: string = await api.ui.focused();
  const scroll = await api.ui.panelScroll('Explanation');
  if (scroll) console.log(focused, scroll.scrollY / Math.max(1, scroll.scrollMaxY), scroll.lineHeight, scroll.w);
  const tip: string = await api.ui.tooltip();
  console.log(tip.length);
  const phases = await api.ui.framePhases();
  console.log(phases.map((p) => p.tick + p.panels + p.render + p.gl + p.around - p.recompute), phases[0]?.frame);

  const description = await api.a11y.description();
  console.log(Object.keys(description));
  await api.a11y.focus('d_k');
  await api.a11y.focus();
  const acted = await api.a11y.act({ do: 'choice', value: 1 });
  await api.a11y.act({ do: 'number', value: '0.5' });
  await api.a11y.act({ do: 'next' });
  console.log(acted.ok);

  const painted: number = api.framesPainted() / Math.max(1, api.frames());
  const link: string = await api.shareURL();
  console.log(painted, link.split('#')[1]);
  await api.openFragment('#s=1.j');
  await api.importJSON('{"X": [[1]]}');
  await api.importJSON('{}', 'scenario.json');

  const loaded = await api.loadLesson('{}', 'mine.json');
  if (loaded.ok) console.log(loaded.id, loaded.steps, loaded.warnings.join('\n'));
  else console.log(loaded.error, loaded.message);
  const fetched = await api.loadLessonURL('lessons/mine.json');
  console.log(fetched.ok);

  const info = await api.embedInfo();
  console.log(info.enabled, info.panels, info.locked, info.hidden, info.origins);
  const probe = await api.watch();
  console.log(probe.state.d_k, probe.parts.embeddings, probe.row, probe.max_weight, probe.saturated, probe.error, probe.status);

  api.onChange(() => console.log('changed'));
  api.onEvent((ev) => {
    switch (ev.type) {
      case 'lesson-step': console.log(ev.lesson, ev.step, ev.steps); break;
      case 'answer':
        if (ev.kind === 'do') console.log(ev.question, ev.correct);
        else console.log(ev.question, ev.correct, ev.missed, ev.attempt, ev.given, ev.question_text, ev.choice_texts, ev.lang);
        break;
      case 'lesson-complete': console.log(ev.lesson, ev.steps, ev.questions, ev.right_first); break;
      case 'embed-panels': console.log(ev.panels, ev.added, ev.withheld); break;
      case 'start-view': console.log(ev.choice); break;
    }
  });
  const reset: Attnplay.OkOrError = await api.reset();
  console.log(reset.ok);

  document.addEventListener('attnplay-crash', (e) => console.log(e.detail.error));
  document.addEventListener('attnplay-xapi', (e) => console.log(e.detail['verb']));
}

// ---- a course page: <attention-playground> ------------------------------------------------------------------------
async function component(): Promise<void> {
  const el = document.createElement('attention-playground');
  el.setAttribute('preset', 'saturation');
  el.setAttribute('panels', 'heatmap,saturation');
  document.body.appendChild(el);
  const found: Attnplay.AttentionPlayground | null = document.querySelector('attention-playground');
  console.log(found?.frame?.src);

  el.addEventListener('ready', (e) => console.log(e.detail.events, e.detail.saturated, e.detail.max_weight, e.detail.row));
  el.addEventListener('change', (e) => {
    if (e.detail.changed.includes('d_k')) console.log(e.detail.values.d_k);
  });
  el.addEventListener('saturation', (e) => console.log(e.detail.saturated, e.detail.max_weight, e.detail.row));
  el.addEventListener('lesson-step', (e) => console.log(e.detail.lesson, e.detail.step, e.detail.steps));
  el.addEventListener('answer', (e) => {
    const d = e.detail;
    console.log(d.lesson, d.step, d.question, d.correct, d.kind);
    if (d.kind !== 'do') console.log(d.given, d.missed, d.attempt, d.correct_response);
  });
  el.addEventListener('lesson-complete', (e) => console.log(e.detail.questions, e.detail.right_first));
  el.addEventListener('embed-panels', (e) => console.log(e.detail.panels, e.detail.added, e.detail.withheld));
  el.addEventListener('xapi', (e) => console.log(e.detail.statement));
  el.addEventListener('error', (e) => console.log(e.detail.error, e.detail.crashed === true));
  el.addEventListener('click', (e) => console.log(e.clientX));  // the element's own DOM events stay as they are
  el.addEventListener('some-later-event', (e) => console.log(e.type));

  const ready: Attnplay.AttentionPlayground = await el.ready;
  const state = await ready.getState();
  const set = await el.setState({ temperature: state.temperature * 2 });
  if (!set.ok) console.log(set.error);
  const result = await el.result;
  const again = await el.getResult();
  const link: string = await el.shareURL();
  const lesson = await el.loadLesson({ id: 'mine', steps: [] }, 'mine.json');
  if (lesson.ok) console.log(lesson.result.id, lesson.result.steps, lesson.result.warnings);
  else console.log(lesson.error);
  await el.loadLesson('{"id": "mine"}');
  console.log(result.tokens, again.key_tokens, link);

  const Element = customElements.get('attention-playground');
  if (Element) {
    const fragment: string = Element.fragmentOf({ preset: 'saturation', d_k: 64 });
    const attributes: string[] = Element.observedAttributes;
    const made: Attnplay.AttentionPlayground = new Element();
    console.log(fragment, attributes, made.frame);
  }
}

// ---- a host page talking to a framed playground: postMessage -----------------------------------------------------
function host(frame: HTMLIFrameElement): void {
  const origin = new URL(frame.src).origin;
  const send = (command: Attnplay.EmbedCommand) => frame.contentWindow?.postMessage(command, origin);
  send({ attnplay: 1, id: 1, cmd: 'subscribe', events: ['change', 'saturation', 'answer'] });
  send({ attnplay: 1, id: 'two', cmd: 'setState', state: { d_k: 512 } });
  send({ attnplay: 1, cmd: 'getState' });
  send({ attnplay: 1, id: 3, cmd: 'loadLesson', url: 'https://course.example/lesson.json' });
  send({ attnplay: 1, id: 4, cmd: 'loadLesson', lesson: { id: 'mine' }, name: 'mine.json' });
  send({ attnplay: 1, id: 5, cmd: 'ping' });

  window.addEventListener('message', (ev: MessageEvent<Attnplay.EmbedMessage>) => {
    if (ev.origin !== origin || ev.data?.attnplay !== 1) return;
    const m = ev.data;
    if ('ok' in m) {
      if (m.ok) console.log(m.id, m.result);
      else console.log(m.id, m.error);
      return;
    }
    switch (m.event) {
      case 'change': if ('d_k' in m.values) console.log(`d_k is now ${m.values.d_k}`, m.changed); break;
      case 'saturation': console.log(m.saturated, m.max_weight, m.row); break;
      case 'lesson-step': console.log(m.lesson, m.step, m.steps); break;
      case 'answer': console.log(m.question, m.correct, m.kind); break;
      case 'lesson-complete': console.log(m.right_first); break;
      case 'embed-panels': console.log(m.withheld); break;
      case 'xapi': console.log(m.statement); break;
      case 'ready': console.log('ready'); break;
      case 'error': console.log(m.error, m.crashed); break;
    }
  });

  const reply: Attnplay.EmbedReply<'subscribe'> = { attnplay: 1, id: 1, ok: true, result: { events: ['change'], saturated: false, max_weight: 0.5, row: 0 } };
  const pong: Attnplay.EmbedReply<'ping'> = { attnplay: 1, ok: true, result: 'pong' };
  console.log(reply, pong);
}

console.log(page, component, host);
