// keyboard.test.mjs — a learner without a mouse: from a freshly loaded page, only key presses move the
// keyboard focus to d_k, change it, and toggle scaling; and the keyboard is never trapped in the canvas (Tab past the
// last control, Shift-Tab before the first and Esc reach the rest of the page).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, center, click, decodePng, drag, itemRect, pollUntil, setStateOk, siteBuiltTest, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

describe('keyboard only', { timeout: 170000 }, () => {
  let page;
  useApp((app) => { page = app.page; });
  const focused = () => page.evaluate(() => window.attnplay.ui.focused());
  const state = () => page.evaluate(() => window.attnplay.getState());
  async function press(key) {
    await page.keyboard.press(key);
    await waitFrames(page, 2);
  }
  const active = () => page.evaluate(() => document.activeElement && (document.activeElement.id || document.activeElement.tagName));
  // Tab past a panel's last control leaves the canvas for the page; Shift-Tab from there comes back to its first.
  async function tabTo(id) {
    for (let i = 0; i < 40; i++) {
      if ((await focused()) === id && (await active()) === 'canvas') return;
      await press((await active()) === 'canvas' ? 'Tab' : 'Shift+Tab');
    }
    assert.fail(`Tab never reached ${id} (focus is on ${JSON.stringify(await focused())})`);
  }

  it('the canvas has focus on load and Tab reaches the controls', async () => {
    assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.id), 'canvas');
    await tabTo('d_k');
  });

  it('Tab inside the canvas is heard: the live region names the control the focus reaches, with its value', async () => {
    await page.evaluate(() => {
      window.heard = [];
      const live = document.getElementById('a11y-summary');
      new MutationObserver(() => window.heard.push(live.textContent)).observe(live, { childList: true, characterData: true, subtree: true });
    });
    await tabTo('temperature');
    const twin = await page.evaluate(() => ({ label: document.querySelector('label[for="a11y-temperature"]').textContent,
      value: document.getElementById('a11y-temperature').getAttribute('aria-valuetext') }));
    assert.ok(twin.label && twin.value, JSON.stringify(twin));
    const heard = await pollUntil(() => page.evaluate(() => window.heard), (h) => h.some((t) => t.includes(twin.label) && t.includes(twin.value)),
      { what: `"${twin.label}, ${twin.value}" in the live region`, timeout: 5000 });
    console.log(`heard after Tab: ${JSON.stringify(heard[heard.length - 1])}`);
  });

  // wcag: 2.4.7 — an amber ring just outside the canvas control that has keyboard focus, moving on with it
  it('the focused control has a visible amber ring around it (WCAG 2.4.7)', async () => {
    await tabTo('temperature');
    await waitFrames(page, 2);
    const r = await api.itemRect(page, 'temperature');
    const png = decodePng(await page.screenshot({ type: 'png' }));
    const px = (x, y) => { const i = (Math.round(y) * png.width + Math.round(x)) * 4; return [png.rgba[i], png.rgba[i + 1], png.rgba[i + 2]]; };
    const amber = ([red, green, blue]) => red > 200 && green > 130 && green < 210 && blue < 90;
    // Just outside the control's four sides, where nothing else is drawn in amber.
    const ring = [px(r.x - 2, r.y + r.h / 2), px(r.x + r.w + 2, r.y + r.h / 2), px(r.x + r.w / 2, r.y - 2), px(r.x + r.w / 2, r.y + r.h + 2)];
    assert.ok(ring.every(amber), `an amber ring around ${JSON.stringify(r)}: ${JSON.stringify(ring)}`);
    await page.keyboard.press('Tab');
    await waitFrames(page, 2);
    const moved = decodePng(await page.screenshot({ type: 'png' }));
    const i = (Math.round(r.y + r.h / 2) * moved.width + Math.round(r.x - 2)) * 4;
    assert.ok(!amber([moved.rgba[i], moved.rgba[i + 1], moved.rgba[i + 2]]), 'the ring moves on with the focus');
  });

  // wcag: 2.1.1 — the canvas's own controls by keys alone: a typed d_k, the arrows, Space on a checkbox
  it('a typed value and the arrow keys change d_k, Space toggles scaling', async () => {
    await tabTo('d_k');
    // Tab opens the slider's value for typing (ImGui 1.90): a number and Enter set it.
    await press('Control+A');
    await page.keyboard.type('128');
    await press('Enter');
    await pollUntil(state, (s) => s.d_k === 128, { what: 'the typed d_k = 128', timeout: 4000 });
    assert.equal(await focused(), 'd_k', 'the focus stays on d_k after Enter');
    // Space starts nudging the focused slider with the arrows; Space again ends it.
    await press('Space');
    for (let i = 0; i < 6; i++) await press('ArrowRight');
    await press('Space');
    const after = await pollUntil(state, (s) => s.d_k !== 128, { what: 'd_k to change with the arrows', timeout: 4000 });
    assert.ok(after.d_k > 128, `ArrowRight raised d_k: 128 → ${after.d_k}`);
    await tabTo('scale');
    const scale = (await state()).scale;
    await press('Space');
    await pollUntil(state, (s) => s.scale === !scale, { what: 'Space to toggle scaling', timeout: 4000 });
  });

  // wcag: 2.1.1 — the menus by keys alone: Alt on a panel opens the menu bar (it used to enter the panel's title bar,
  // where Enter closed the panel); Enter and the arrows then open a panel from View
  it('Alt opens the menu bar, not the focused panel\'s title bar: Tab goes back; Alt, Enter, Down… opens the Worksheet and closes nothing', async () => {
    const open = async () => Object.entries((await state()).panels).filter(([, on]) => on).map(([k]) => k).sort();
    await tabTo('d_k');
    const before = await open();
    assert.ok(before.includes('controls') && !before.includes('worksheet'), before.join());
    const focusOn = (id, what) => pollUntil(focused, (f) => f === id, { what, timeout: 4000 });
    await press('Alt');
    await focusOn('menu:view', 'Alt to put the focus on the first menu');
    // Tab leaves the bar for the control Alt left (no keyboard trap in the bar).
    await press('Tab');
    await focusOn('d_k', 'Tab to go back from the menu bar to d_k');
    await press('Alt');
    await focusOn('menu:view', 'Alt again');
    await press('Enter');
    await focusOn('menu:view:controls', 'Enter to open View at its first item');
    assert.deepEqual(await open(), before, 'Alt then Enter closes no panel');
    for (let i = 0; i < 24 && (await focused()) !== 'menu:view:worksheet'; i++) {
      const was = await focused();
      await press('ArrowDown');
      await pollUntil(focused, (f) => f !== was, { what: `ArrowDown to move on from ${was}`, timeout: 3000 });
    }
    assert.equal(await focused(), 'menu:view:worksheet');
    await press('Enter');
    const after = await pollUntil(open, (p) => p.includes('worksheet'), { what: 'the Worksheet open', timeout: 4000 });
    assert.deepEqual(after.filter((k) => k !== 'worksheet'), before, 'every panel open before is still open');
    // Alt then Escape: back to the panels, nothing changed.
    await press('Alt');
    await focusOn('menu:view', 'Alt to reach the menus again');
    await press('Escape');
    await pollUntil(focused, (f) => !f.startsWith('menu:'), { what: 'Escape to leave the menu bar', timeout: 4000 });
    assert.deepEqual(await open(), after);
    await page.evaluate(() => window.attnplay.setState({ panels: { worksheet: false } }));
  });

  // wcag: 2.1.2 — Tab past the last canvas control and Shift-Tab before the first leave the canvas, and come back
  // wcag: 2.4.3 — the order: skip links, the canvas's controls, then the parallel DOM; the same backwards
  it('Tab past the last control and Shift-Tab before the first leave the canvas (no keyboard trap, WCAG 2.1.2)', async () => {
    await tabTo('scale');
    const seen = new Set();
    let presses = 0;
    while ((await active()) === 'canvas' && presses < 60) {
      seen.add(await focused());
      await press('Tab');
      presses++;
    }
    assert.notEqual(await active(), 'canvas', `Tab left the canvas within 60 presses (saw ${[...seen].join(', ')})`);
    assert.ok(presses >= 2 && seen.size >= 2, `it walked the panel's controls first: ${[...seen].join(', ')}`);
    assert.ok(await page.evaluate(() => document.getElementById('a11y-dom').contains(document.activeElement)),
      'the focus went on to the parallel DOM that follows the canvas');
    await press('Shift+Tab');
    assert.equal(await active(), 'canvas', 'Shift-Tab from there comes back to the canvas');
    const first = await focused();
    assert.ok(first, 'on the panel\'s first control (Tab wrapped to it)');
    await press('Shift+Tab');
    assert.ok(await page.evaluate(() => document.getElementById('a11y-skip').contains(document.activeElement)),
      `Shift-Tab before the first control reaches the skip links (focus on ${await active()})`);
    assert.equal(await page.evaluate(() => document.activeElement.getBoundingClientRect().top >= 0), true, 'the skip link shows');
    await press('Tab');
    assert.equal(await active(), 'canvas', 'and Tab from the last skip link is the canvas again');
  });

  // wcag: 2.1.2 — Esc with nothing to cancel leaves the canvas for the first skip link
  it('Esc with nothing to cancel leaves the canvas for the first skip link', async () => {
    await tabTo('scale');  // a checkbox: nothing being edited, no popup
    await press('Escape');
    assert.equal(await page.evaluate(() => document.activeElement === document.querySelector('#a11y-skip a')), true,
      `Esc went to the first skip link (focus on ${await active()})`);
    const links = await page.evaluate(() => document.querySelectorAll('#a11y-skip a').length);
    for (let i = 0; i < links; i++) await press('Tab');
    assert.equal(await active(), 'canvas', `Tab through the ${links} skip links returns to the canvas`);
  });


  // wcag: 1.4.13 — a tooltip shown on hover is dismissed by Escape without moving the pointer, and shows again when
  // the pointer moves; that Escape is the tooltip's (the focus stays on the canvas)
  it('Escape dismisses the tooltip under a still pointer and stays on the canvas; moving the pointer shows it again', async () => {
    await page.evaluate(() => document.getElementById('canvas').focus());  // the canvas has the keys; nothing is being edited
    const tip = () => page.evaluate(() => window.attnplay.ui.tooltip());
    const cell = await itemRect(page, 'heatmap');
    const at = { x: Math.round(cell.x + cell.w * 0.3), y: Math.round(cell.y + cell.h * 0.3) };
    const near = async () => (await page.screenshot({ clip: { x: at.x, y: at.y, width: 260, height: 90 } })).toString('base64');
    await page.mouse.move(at.x, at.y, { steps: 4 });
    const text = await pollUntil(tip, (t) => t !== '', { what: 'the heatmap cell\'s tooltip' });
    await waitFrames(page, 2);
    const shown = await near();
    await press('Escape');
    assert.equal(await tip(), '', 'Escape hid the tooltip');
    assert.equal(await active(), 'canvas', 'and the focus stayed on the canvas');
    await waitFrames(page, 10);
    assert.equal(await tip(), '', 'it stays hidden while the pointer rests');
    assert.notEqual(await near(), shown, 'the tooltip is gone from the screen');
    await page.mouse.move(at.x + 1, at.y);
    assert.equal(await pollUntil(tip, (t) => t !== '', { what: 'the tooltip back once the pointer moves' }), text);
    // With no tooltip, Escape leaves the canvas as before.
    await page.mouse.move(2, 790);
    await pollUntil(tip, (t) => t === '', { what: 'no tooltip off the panels' });
    await page.evaluate(() => document.getElementById('canvas').focus());
    await press('Escape');
    assert.equal(await page.evaluate(() => document.activeElement === document.querySelector('#a11y-skip a')), true,
      `Esc with no tooltip went to the first skip link (focus on ${await active()})`);
  });

  // wcag: 1.4.13 — hoverable: the pointer can move onto a tooltip and rest there, though it then lies over other
  // cells, and the tooltip neither moves nor changes, nor passes a click to the cell beneath; persistent: it stays
  // until the pointer leaves it
  it('the pointer moves onto a heatmap cell\'s tooltip and rests there: it stays as it was, a click on it acts on nothing beneath, and it goes when the pointer leaves', async () => {
    const tip = () => page.evaluate(() => window.attnplay.ui.tooltip());
    const n = (await api.getResult(page)).weights.length;
    const grid = await itemRect(page, 'heatmap');
    const cw = grid.w / n, ch = grid.h / n;
    const cellAt = (p) => [Math.floor((p.y - grid.y) / ch), Math.floor((p.x - grid.x) / cw)];
    const from = { x: grid.x + cw / 2, y: grid.y + ch / 2 };
    await page.mouse.move(from.x, from.y, { steps: 4 });
    const text = await pollUntil(tip, (t) => t !== '', { what: 'the first cell\'s tooltip' });
    await waitFrames(page, 2);
    const box = await itemRect(page, 'tooltip');
    assert.ok(box, 'the tooltip\'s place is reported');
    const onto = { x: box.x + box.w / 2, y: box.y + box.h / 2 };
    assert.notDeepEqual(cellAt(onto), [0, 0], `the tooltip's middle lies over another cell: ${cellAt(onto)}`);
    for (let i = 1; i <= 10; i++) {  // across the gap and onto it, a frame or two a step
      await page.mouse.move(from.x + (onto.x - from.x) * i / 10, from.y + (onto.y - from.y) * i / 10);
      await waitFrames(page, 2);
      assert.equal(await tip(), text, `step ${i} of 10 towards the tooltip: still the first cell's`);
      assert.deepEqual(await itemRect(page, 'tooltip'), box, `step ${i}: the tooltip did not move`);
    }
    await waitFrames(page, 10);
    assert.equal(await tip(), text, 'resting on it, the tooltip stays');
    // A click on the tooltip is the tooltip's: the row beneath it is not selected, and the tooltip stays.
    const row = (await api.getState(page)).selected_row;
    assert.notEqual(cellAt(onto)[0], row, 'the row beneath the tooltip is not the selected one');
    await page.mouse.down();
    await waitFrames(page, 3);
    assert.equal(await tip(), text, 'pressed on it, the tooltip stays');
    await page.mouse.up();
    await waitFrames(page, 3);
    assert.equal((await api.getState(page)).selected_row, row, 'a click on the tooltip selects no row beneath it');
    assert.equal(await tip(), text, 'clicked, the tooltip stays');
    // Off the tooltip, onto a cell it does not cover: that cell's tooltip.
    const last = { x: grid.x + grid.w - cw / 2, y: grid.y + grid.h - ch / 2 };
    assert.ok(last.x > box.x + box.w || last.y > box.y + box.h, 'the last cell lies outside the tooltip');
    await page.mouse.move(last.x, last.y, { steps: 4 });
    const other = await pollUntil(tip, (t) => t !== text && t !== '', { what: 'the last cell\'s tooltip' });
    assert.notEqual(other, text);
    // A cell no tooltip covers still takes a click: its row is selected.
    await page.mouse.move(2, 790);
    await pollUntil(tip, (t) => t === '', { what: 'no tooltip off the panels' });
    await click(page, last);
    await pollUntil(() => api.getState(page), (st) => st.selected_row === n - 1, { what: 'a click on a cell selects its row' });
  });

  // A tooltip that stays for a resting pointer must not stand still for a drag: dragging a point of the embedding
  // plane towards where its tooltip shows, the tooltip says where the point is at every step.
  it('dragging a point towards its tooltip, the tooltip says where the point is at every step', async () => {
    const tip = () => page.evaluate(() => window.attnplay.ui.tooltip());
    await setStateOk(page, { preset: 'default', plane_x: 0, plane_y: 1, panels: { embeddings: true } });
    await waitFrames(page, 3);
    const from = center(await itemRect(page, 'point:1'));
    await page.mouse.move(from.x, from.y, { steps: 3 });
    await pollUntil(tip, (t) => t !== '', { what: 'the point\'s tooltip' });
    const box = await itemRect(page, 'tooltip');
    const to = { x: box.x + box.w / 2, y: box.y + box.h / 2 };
    const seen = new Set();
    await drag(page, from, to, { steps: 8, onStep: async (i) => {
      const [text, s] = [await tip(), await api.getState(page)];
      const said = [...text.matchAll(/= (-?\d+(?:\.\d+)?)/g)].map((m) => Number(m[1]));
      const at = [s.embeddings[1][0], s.embeddings[1][1]];
      assert.ok(said.length === 2 && Math.abs(said[0] - at[0]) < 1e-3 && Math.abs(said[1] - at[1]) < 1e-3,
        `step ${i} of 8: the tooltip says ${JSON.stringify(text)}; the point is at ${at.map((v) => v.toFixed(4))}`);
      seen.add(text);
    } });
    assert.ok(seen.size >= 3, `the tooltip followed the point (${seen.size} different texts)`);
  });

});

// A page of its own: typed characters leave the canvas's navigation where a learner would find it, but not where the
// tests above expect it.
describe('character keys', { timeout: 120000 }, () => {
  let page;
  useApp((app) => { page = app.page; }, { device: { permissions: ['clipboard-read', 'clipboard-write'] } });
  async function press(key) {
    await page.keyboard.press(key);
    await waitFrames(page, 2);
  }
  const focused = () => page.evaluate(() => window.attnplay.ui.focused());
  const state = () => page.evaluate(() => window.attnplay.getState());
  const active = () => page.evaluate(() => document.activeElement && (document.activeElement.id || document.activeElement.tagName));
  async function tabTo(id) {
    for (let i = 0; i < 40; i++) {
      if ((await focused()) === id && (await active()) === 'canvas') return;
      await page.keyboard.press((await active()) === 'canvas' ? 'Tab' : 'Shift+Tab');
      await waitFrames(page, 2);
    }
    assert.fail(`Tab never reached ${id} (focus is on ${JSON.stringify(await focused())})`);
  }

  // wcag: 2.1.4 — no character key shortcuts: letters, digits, punctuation on the canvas or in a twin change nothing
  it('letters, digits and punctuation are no shortcuts: on the canvas or in a twin they change nothing', async () => {
    const keys = [...'abcdefghijklmnopqrstuvwxyz0123456789-=[];\',./`'];
    await tabTo('scale');  // a checkbox: no text being edited
    const before = await state();
    for (const k of keys) await page.keyboard.press(k);
    await waitFrames(page, 3);
    assert.deepEqual(await state(), before, 'the canvas took no character key as a command');
    assert.equal(await active(), 'canvas');
    await page.focus('#a11y-scale');
    for (const k of keys) await page.keyboard.press(k);
    await waitFrames(page, 3);
    assert.deepEqual(await state(), before, 'nor from the DOM twin');
    await page.focus('#canvas');
    await waitFrames(page, 2);
  });

  // The system clipboard in a canvas text field: a text written elsewhere pastes in, the field's text copies out,
  // and Ctrl+A selects the field's text only (not the page's hidden words, which Ctrl+C would then copy).
  it('Ctrl+V pastes a 1024-word sentence into the Sentence field, Ctrl+A then Ctrl+C copies it back', async () => {
    const sentence = Array.from({ length: 1024 }, (_, i) => `w${i}`).join(' ');
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    await page.evaluate((text) => navigator.clipboard.writeText(text), sentence);
    const field = center(await itemRect(page, 'sentence'));
    await click(page, field);
    await press('Control+A');
    assert.equal(await page.evaluate(() => String(window.getSelection())), '', 'the page\'s own text is not selected');
    await press('Control+V');
    await press('Enter');
    const st = await pollUntil(state, (x) => x.sentence !== 'The cat sat on the mat', { what: 'the pasted sentence kept' });
    assert.equal(st.sentence, sentence, 'every word of the clipboard, none cut');
    // Only the count crosses to the test: the whole result carries 1024×1024 weights.
    assert.equal(await page.evaluate(async () => (await window.attnplay.getResult()).tokens.length), 1024);
    await page.evaluate(() => navigator.clipboard.writeText('something else'));
    await click(page, field);
    await press('Control+A');
    await press('Control+C');
    await pollUntil(clipboard, (t) => t === sentence, { what: 'the field\'s text on the clipboard' });
    await press('Escape');
    await page.evaluate(() => window.attnplay.setState({ sentence: 'The cat sat on the mat' }));
  });
});
