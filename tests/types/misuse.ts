// misuse.ts — what the declarations must refuse. Each line after @ts-expect-error has to be an error: were the types
// to decay to `any` (a declaration file not found, an event map no longer matched, a parameter loosened), the
// directive would be unused and tsc would fail. Never run: it only has to compile.
export {};

async function misusePage(api: Attnplay.API): Promise<void> {
  // @ts-expect-error -- d_k is a number
  await api.setState({ d_k: '256' });
  // @ts-expect-error -- no such state key
  await api.setState({ dk: 256 });
  // @ts-expect-error -- no such panel
  await api.setState({ panels: { heatmaps: true } });
  // @ts-expect-error -- setState takes an object, not its JSON
  await api.setState('{"d_k": 256}');
  // @ts-expect-error -- a refusal has no result, only error: narrowing on ok is required
  (await api.setState({})).error;
  // @ts-expect-error -- getState answers a promise
  api.getState().d_k;
  // @ts-expect-error -- no such method
  await api.getStates();
  // @ts-expect-error -- itemRect takes a control's id
  await api.ui.itemRect(3);
  // @ts-expect-error -- the answer may be null
  (await api.ui.panelScroll('Explanation')).scrollY;
  // @ts-expect-error -- frames() is a number, not a promise
  await api.frames().then(() => 0);
  // @ts-expect-error -- a lesson action is an object with `do`
  await api.a11y.act('next');
  // @ts-expect-error -- the lesson's text, not its object (the element and the postMessage API take both)
  await api.loadLesson({ id: 'mine' });
  // @ts-expect-error -- onChange's listener gets no argument
  api.onChange((state: Attnplay.State) => console.log(state));
  api.onEvent((ev) => {
    // @ts-expect-error -- no such event type
    if (ev.type === 'lesson-done') console.log(ev);
    // @ts-expect-error -- steps is on lesson-step and lesson-complete, not on every event
    console.log(ev.steps);
  });
  // @ts-expect-error -- window.attnplay is read-only (the page defines it frozen)
  window.attnplay = api;
}

async function misuseElement(): Promise<void> {
  const el = document.createElement('attention-playground');
  // @ts-expect-error -- change's detail has `changed` and `values`, not `keys`
  el.addEventListener('change', (e) => console.log(e.detail.keys));
  // @ts-expect-error -- saturation's detail has max_weight, not maxWeight
  el.addEventListener('saturation', (e) => console.log(e.detail.maxWeight));
  // @ts-expect-error -- error's detail is {error}, not a string
  el.addEventListener('error', (e) => console.log(e.detail.toUpperCase()));
  // @ts-expect-error -- lesson-complete's detail has right_first, not score
  el.addEventListener('lesson-complete', (e) => console.log(e.detail.score));
  // @ts-expect-error -- a "do" answer has no given: narrowing on kind is required
  el.addEventListener('answer', (e) => console.log(e.detail.given));
  // @ts-expect-error -- setState takes an object
  await el.setState(256);
  // @ts-expect-error -- loadLesson's result is under `result`
  const id: string = (await el.loadLesson('{}')).id;
  // @ts-expect-error -- the element's ready resolves with the element, not the page's API
  (await el.ready).frames();
  // @ts-expect-error -- frame is read-only
  el.frame = null;
  // @ts-expect-error -- the class is no global: customElements.get gives it
  console.log(AttentionPlayground, id);
  // @ts-expect-error -- fragmentOf is static, on the class
  el.fragmentOf({});
}

function misuseMessages(frame: HTMLIFrameElement): void {
  const send = (command: Attnplay.EmbedCommand) => frame.contentWindow?.postMessage(command, '*');
  // @ts-expect-error -- no such command
  send({ attnplay: 1, id: 1, cmd: 'getStates' });
  // @ts-expect-error -- the protocol's marker is the number 1
  send({ attnplay: true, id: 1, cmd: 'ping' });
  // @ts-expect-error -- state only goes with setState
  send({ attnplay: 1, id: 1, cmd: 'getState', state: {} });
  // @ts-expect-error -- no such event to subscribe to
  send({ attnplay: 1, id: 1, cmd: 'subscribe', events: ['ready'] });
  // @ts-expect-error -- setState needs its state
  send({ attnplay: 1, id: 1, cmd: 'setState' });
  window.addEventListener('message', (ev: MessageEvent<Attnplay.EmbedMessage>) => {
    const m = ev.data;
    // @ts-expect-error -- a reply or an event: `event` only after narrowing
    console.log(m.event);
    if ('event' in m && m.event === 'saturation') {
      // @ts-expect-error -- saturation carries max_weight, not weight
      console.log(m.weight);
    }
  });
  // @ts-expect-error -- ping answers 'pong'
  const pong: Attnplay.EmbedReply<'ping'> = { attnplay: 1, ok: true, result: 'ping' };
  console.log(pong);
}

console.log(misusePage, misuseElement, misuseMessages);
