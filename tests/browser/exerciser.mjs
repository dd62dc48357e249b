// exerciser.mjs — random but seeded sequences of real input on the page, as fast-check model-based commands
// (not a test file itself: ui-exerciser.test.mjs runs a short seeded slice, scripts/exercise_ui.mjs a long run).
//
// Every command is real input through the browser (mouse, wheel, keys, typing, touch through CDP) or the
// page's own API (setState, as a host page or a lesson would change the state). After each one the page must
// still be alive: its frame loop advances, no page error or console error was logged, getState answers.
// A failing run shrinks to a short sequence; fast-check prints it with the seed and path that replay it:
//   node scripts/exercise_ui.mjs --seed S --path P
// Each command also spells itself as the desktop window's input-script steps (steps(); `attnplay gui --input`,
// src/platform/input_script.h), so tests/desktop/exercise_desktop.mjs runs the same sequences there.
import fs from 'node:fs';
import fc from 'fast-check';

const KEYS = ['Tab', 'Shift+Tab', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Enter', 'Escape', 'Space',
  'Control+A', 'Backspace', 'Delete', 'Home', 'End', '?'];
// Panel and lesson ids as the app declares them (data/manifest.json, `attnplay manifest`), in registry and file order:
// a seed replays the same sequence as long as the lists do not change.
const MANIFEST = JSON.parse(fs.readFileSync(new URL('../../data/manifest.json', import.meta.url), 'utf8'));
const PANELS = MANIFEST.panels.map((p) => p.id);
const LESSONS = MANIFEST.lessons.map((l) => l.id);
// Tracked controls worth aiming at (ui.itemRect ids); a command on one that is not drawn is a no-op.
const TARGETS = ['d_k', 'scale', 'temperature', 'sentence', 'worksheet:Q:1,1', 'worksheet:Q:2,1', 'worksheet:K:1,1',
  'worksheet:scores:1,1', 'worksheet:weights:1,1', 'worksheet:number', 'learn:play', 'learn:step', 'learn:reset',
  'lesson:next', 'lesson:back', 'lesson:check', 'lesson:choice:0', 'lesson:choice:1', 'lesson:number', 'point:1',
  'embedding plane', 'builder:add', 'builder:preview', 'builder:stop', 'builder:step:1', 'builder:step:1:text',
  'builder:step:1:ask:1', 'builder:step:1:down', 'builder:step:1:delete'];
// A target the app does not declare would never be hit: the exerciser stops at once, naming it.
{
  const known = new Set(MANIFEST.controls.ids.flatMap((c) => [c.id, c.alias]).filter(Boolean));
  const prefixes = MANIFEST.controls.families.flatMap((f) => [f.prefix, f.alias]).filter(Boolean);
  const unknown = TARGETS.filter((t) => !known.has(t) && !prefixes.some((p) => t.startsWith(p)));
  if (unknown.length) throw new Error(`exerciser.mjs: TARGETS names controls the app does not declare: ${unknown.join(', ')}`);
}

// Waits for `n` frames, with a deadline: a stopped frame loop is a failure, not a hang.
async function frames(page, n, timeout = 10000) {
  const r = await page.evaluate(({ n, timeout }) => new Promise((resolve) => {
    const target = window.attnplay.frames() + n, t0 = performance.now();
    const tick = () => {
      const f = window.attnplay.frames();
      if (f >= target) resolve(true);
      else if (performance.now() - t0 > timeout) resolve(false);
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }), { n, timeout });
  if (!r) throw new Error(`the frame loop stopped (no ${n} frames in ${timeout} ms)`);
}

const rect = (page, id) => page.evaluate((l) => window.attnplay.ui.itemRect(l), id);

class Command {
  check() { return true; }
  async run(_model, real) {
    real.stats.commands++;
    await this.act(real);
    await alive(real);
  }
}

class Click extends Command {
  constructor(x, y) { super(); this.x = x; this.y = y; }
  async act({ page }) { await page.mouse.click(this.x, this.y); await frames(page, 2); }
  steps() { return [{ move: [this.x, this.y] }, { down: true }, { up: true }, { frames: 2 }]; }
  toString() { return `click(${this.x}, ${this.y})`; }
}
class ClickItem extends Command {
  constructor(id, dx) { super(); this.id = id; this.dx = dx; }
  async act({ page }) {
    const r = await rect(page, this.id);
    if (!r) return;
    await page.mouse.move(r.x + r.w * this.dx, r.y + r.h / 2);
    await frames(page, 1);
    await page.mouse.down();
    await frames(page, 1);
    await page.mouse.up();
    await frames(page, 2);
  }
  steps() { return [{ item: this.id, dx: this.dx }, { frames: 1 }, { down: true }, { frames: 1 }, { up: true }, { frames: 2 }]; }
  toString() { return `clickItem(${JSON.stringify(this.id)}, ${this.dx})`; }
}
class Drag extends Command {
  constructor(x0, y0, x1, y1) { super(); Object.assign(this, { x0, y0, x1, y1 }); }
  async act({ page }) {
    await page.mouse.move(this.x0, this.y0);
    await page.mouse.down();
    for (let i = 1; i <= 4; i++) {
      await page.mouse.move(this.x0 + ((this.x1 - this.x0) * i) / 4, this.y0 + ((this.y1 - this.y0) * i) / 4);
      await frames(page, 1);
    }
    await page.mouse.up();
    await frames(page, 2);
  }
  steps() {
    const path = [1, 2, 3, 4].flatMap((i) => [{ move: [this.x0 + ((this.x1 - this.x0) * i) / 4, this.y0 + ((this.y1 - this.y0) * i) / 4] }, { frames: 1 }]);
    return [{ move: [this.x0, this.y0] }, { down: true }, ...path, { up: true }, { frames: 2 }];
  }
  toString() { return `drag(${this.x0}, ${this.y0}, ${this.x1}, ${this.y1})`; }
}
class Wheel extends Command {
  constructor(x, y, dy) { super(); Object.assign(this, { x, y, dy }); }
  async act({ page }) { await page.mouse.move(this.x, this.y); await page.mouse.wheel(0, this.dy); await frames(page, 2); }
  // The page turns a wheel's pixels into ImGui's notches at 100 px a notch (src/platform/web_input.cpp).
  steps() { return [{ move: [this.x, this.y] }, { wheel: [0, -this.dy / 100] }, { frames: 2 }]; }
  toString() { return `wheel(${this.x}, ${this.y}, ${this.dy})`; }
}
class Key extends Command {
  constructor(key) { super(); this.key = key; }
  async act({ page }) { await page.keyboard.press(this.key); await frames(page, 2); }
  steps() {
    const parts = this.key === '?' ? ['?'] : this.key.split('+');
    return [{ key: parts[parts.length - 1], mods: parts.slice(0, -1) }, { frames: 2 }];
  }
  toString() { return `key(${JSON.stringify(this.key)})`; }
}
class Type extends Command {
  constructor(text) { super(); this.text = text; }
  async act({ page }) { await page.keyboard.type(this.text); await frames(page, 3 * this.text.length + 1); }
  steps() { return [{ text: this.text }, { frames: 2 * this.text.length + 1 }]; }
  toString() { return `type(${JSON.stringify(this.text)})`; }
}
class Tap extends Command {
  constructor(x, y, quick) { super(); Object.assign(this, { x, y, quick }); }
  async act({ page, cdp }) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: this.x, y: this.y, id: 1 }] });
    if (!this.quick) await frames(page, 2);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await frames(page, 3);
  }
  // A desktop has no touch screen: the tap is a click, a quick one pressed and released in one frame.
  steps() { return [{ move: [this.x, this.y] }, { down: true }, ...(this.quick ? [] : [{ frames: 2 }]), { up: true }, { frames: 3 }]; }
  toString() { return `tap(${this.x}, ${this.y}, ${this.quick})`; }
}
class SetState extends Command {
  constructor(partial) { super(); this.partial = partial; }
  async act({ page }) {
    const r = await page.evaluate((p) => window.attnplay.setState(p), this.partial);
    if (!r || typeof r.ok !== 'boolean') throw new Error(`setState answered ${JSON.stringify(r)}`);
    await frames(page, 2);
  }
  steps() { return [{ state: this.partial }, { frames: 2 }]; }
  toString() { return `setState(${JSON.stringify(this.partial)})`; }
}

// The page is alive: frames advance, getState answers, nothing was logged as an error.
async function alive({ page, errors }) {
  await frames(page, 1);
  const st = await page.evaluate(() => window.attnplay.getState().then((s) => typeof s.d_k, (e) => 'error: ' + e.message));
  if (st !== 'number') throw new Error(`getState failed: ${st}`);
  if (errors.page.length) throw new Error(`page error: ${errors.page[0].slice(0, 800)}`);
  if (errors.console.length) throw new Error(`console error: ${errors.console[0].slice(0, 800)}`);
}

// The command arbitraries for a viewport of `w`×`h` CSS pixels.
export function commandArbitraries(w, h) {
  const x = fc.integer({ min: 0, max: w - 1 }), y = fc.integer({ min: 0, max: h - 1 });
  const partial = fc.oneof(
    fc.record({ d_k: fc.integer({ min: 1, max: 1024 }) }),
    fc.record({ temperature: fc.double({ min: 0, max: 10, noNaN: true }) }),
    fc.record({ scale: fc.boolean() }),
    fc.record({ lang: fc.constantFrom('en', 'hi-Latn') }),
    fc.record({ theme: fc.constantFrom('dark', 'light') }),
    fc.record({ panels: fc.dictionary(fc.constantFrom(...PANELS), fc.boolean(), { maxKeys: 3 }) }),
    fc.record({ lesson: fc.oneof(fc.constant(null), fc.record({ id: fc.constantFrom(...LESSONS), step: fc.integer({ min: 0, max: 6 }) })) }),
    fc.record({ exercise: fc.oneof(fc.integer({ min: 1, max: 40 }).map((n) => `exercise-${n}`), fc.constant('exercise-0')) }),
    fc.record({ learn: fc.record({ playing: fc.boolean() }) }),
    fc.record({ sentence: fc.constantFrom('the cat sat', 'a b c d e f g h', '', 'x'.repeat(300)) }),
    fc.record({ preset: fc.constantFrom('default', 'saturated', 'no-such-preset') }),
  );
  return [
    fc.tuple(x, y).map(([a, b]) => new Click(a, b)),
    fc.tuple(fc.constantFrom(...TARGETS), fc.constantFrom(0.1, 0.5, 0.9)).map(([id, dx]) => new ClickItem(id, dx)),
    fc.tuple(fc.constantFrom(...TARGETS), fc.constantFrom(0.1, 0.5, 0.9)).map(([id, dx]) => new ClickItem(id, dx)),
    fc.tuple(x, y, x, y).map(([a, b, c, d]) => new Drag(a, b, c, d)),
    fc.tuple(x, y, fc.constantFrom(-240, -60, 60, 240)).map(([a, b, d]) => new Wheel(a, b, d)),
    fc.constantFrom(...KEYS).map((k) => new Key(k)),
    fc.constantFrom(...KEYS).map((k) => new Key(k)),
    fc.stringMatching(/^[0-9.a-z\-]{1,5}$/).map((t) => new Type(t)),
    fc.tuple(x, y, fc.boolean()).map(([a, b, q]) => new Tap(a, b, q)),
    partial.map((p) => new SetState(p)),
    partial.map((p) => new SetState(p)),
  ];
}

// Runs `numRuns` sequences of up to `maxCommands` commands, each on a freshly opened page from `open()`
// ({page, errors, close}). Returns fast-check's details; `seed`/`path` replay one exactly.
export async function exercise({ open, viewport, numRuns, maxCommands, seed, path, onRun, timeLimitMs }) {
  const stats = { runs: 0, commands: 0 };
  const property = fc.asyncProperty(fc.commands(commandArbitraries(viewport.width, viewport.height), { maxCommands, size: 'max' }),
    async (cmds) => {
      const app = await open();
      const cdp = await app.page.context().newCDPSession(app.page);
      const real = { ...app, cdp, stats };
      try {
        await fc.asyncModelRun(() => ({ model: {}, real }), cmds);
      } finally {
        stats.runs++;
        if (onRun) onRun(stats);
        await cdp.detach().catch(() => {});
        await app.close();
      }
    });
  const details = await fc.check(property, { numRuns, seed, path, endOnFailure: false, includeErrorInReport: true,
    ...(timeLimitMs ? { interruptAfterTimeLimit: timeLimitMs, markInterruptAsFailure: false } : {}) });
  return { details, stats, report: details.failed ? fc.defaultReportMessage(details) : '' };
}
