// attnplay-train-worker.js — Learn mode's training thread: trains the page's two models while the page's own
// thread draws. The page (attnplay-api.js, driven by src/app/learn/learn.cpp) talks to it in generations:
//   page → worker  {type: 'start', gen, state}   the whole trainer state (ArrayBuffer) to continue from
//                  {type: 'allow', gen, steps}   how many steps generation `gen` may run in all (it grows by
//                                                learn.speed per drawn frame)
//                  {type: 'stop'}                the page has taken over (pause, step, reset, new settings)
//   worker → page  {type: 'snapshot', gen, state, probes, steps}  about every SNAPSHOT_MS: the state with the
//                                                curve records added since the previous snapshot, and the probe
//                                                views of its weights, so the page runs no probe pass (transferred)
//                  {type: 'error', gen, message}          the module or a state failed: the page trains itself
// Training runs in slices of SLICE_MS; between two the worker reads its messages, so a stop takes effect
// within one slice. A snapshot of a generation the page has left is ignored by the page.
'use strict';
const SLICE_MS = 25;
const SNAPSHOT_MS = 100;
let mod = null;
const early = [];  // messages that came before the module was ready
let job = null;    // {gen, base, allowed, sent, finishedSent, postedAt}
let scheduled = false;

// A zero-delay turn of the event loop (setTimeout would be clamped to 4 ms after a few nestings).
const turn = new MessageChannel();
turn.port1.onmessage = () => {
  scheduled = false;
  work();
};
function schedule() {
  if (!scheduled && job) {
    scheduled = true;
    turn.port2.postMessage(0);
  }
}

function fail(gen, message) {
  job = null;
  postMessage({ type: 'error', gen, message: String(message) });
}

function handle(msg) {
  if (!msg || typeof msg !== 'object') return;
  if (msg.type === 'start') {
    const bytes = new Uint8Array(msg.state);
    const p = mod._malloc(bytes.length);
    if (!p) return fail(msg.gen, 'out of memory');
    mod.HEAPU8.set(bytes, p);
    const ok = mod._attnplay_train_load(p, bytes.length);
    mod._free(p);
    if (!ok) return fail(msg.gen, mod.UTF8ToString(mod._attnplay_train_error()));
    const steps = mod._attnplay_train_steps();
    job = { gen: msg.gen, base: steps, allowed: 0, sent: steps, finishedSent: false, postedAt: performance.now() };
  } else if (msg.type === 'allow') {
    if (job && job.gen === msg.gen && msg.steps > job.allowed) {
      job.allowed = msg.steps;
      schedule();
    }
  } else if (msg.type === 'stop') {
    job = null;
  }
}

function post() {
  const steps = mod._attnplay_train_steps();
  const finished = mod._attnplay_train_finished() === 1;
  if (steps === job.sent && (!finished || job.finishedSent)) return;
  const saved = () => mod.HEAPU8.slice(mod._attnplay_train_bytes(), mod._attnplay_train_bytes() + size).buffer;
  let size = mod._attnplay_train_save(job.sent);
  const state = saved();
  size = mod._attnplay_train_save_probes();
  const probes = saved();
  postMessage({ type: 'snapshot', gen: job.gen, state, probes, steps }, [state, probes]);
  job.sent = steps;
  job.finishedSent = finished;
  job.postedAt = performance.now();
}

function work() {
  if (!job) return;
  const left = () => job.base + job.allowed - mod._attnplay_train_steps();
  if (left() > 0 && !mod._attnplay_train_finished()) mod._attnplay_train_run(left(), SLICE_MS);
  const idle = mod._attnplay_train_finished() === 1 || left() <= 0;
  if (idle || performance.now() - job.postedAt >= SNAPSHOT_MS) post();
  if (!idle) schedule();  // idle: a larger allowance (or a new start) schedules again
}

self.onmessage = (e) => {
  if (mod) handle(e.data);
  else early.push(e.data);
};

try {
  importScripts('attnplay-train.js');  // defines AttnplayTrain (src/platform/train_worker.cpp)
  AttnplayTrain().then((m) => {
    mod = m;
    postMessage({ type: 'ready' });
    for (const msg of early.splice(0)) handle(msg);
  }, (e) => fail(-1, 'the training module did not start: ' + ((e && e.message) || e)));
} catch (e) {
  fail(-1, 'could not load attnplay-train.js: ' + ((e && e.message) || e));
}
