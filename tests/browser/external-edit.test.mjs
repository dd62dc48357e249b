// external-edit.test.mjs — a change from outside the widgets (the API, as a host page's message or a lesson
// step would make it) is never undone by the control that has keyboard focus or is being edited: ImGui's
// active widget writes its own value back every frame unless it lets go.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, center, click, itemRect, setStateOk, siteBuiltTest, typeText, useApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

describe('external changes win over the focused control', { timeout: 170000 }, () => {
  let app;
  useApp((a) => { app = a; }, { viewport: { width: 1440, height: 900 } });
  const focused = () => app.page.evaluate(() => window.attnplay.ui.focused());
  const onCanvas = () => app.page.evaluate(() => document.activeElement && document.activeElement.id === 'canvas');
  // Tab past a panel's last control leaves the canvas; Shift-Tab from the page comes back to its first control.
  async function tabTo(id) {
    for (let i = 0; i < 60; i++) {
      if ((await focused()) === id && (await onCanvas())) return;
      await app.page.keyboard.press((await onCanvas()) ? 'Tab' : 'Shift+Tab');
      await waitFrames(app.page, 2);
    }
    assert.fail(`Tab never reached ${id} (focus is on ${JSON.stringify(await focused())})`);
  }
  // The value holds for `frames` frames after the change (a widget writing back would undo it in one).
  async function holds(key, want, frames = 20) {
    for (let i = 0; i < frames; i += 5) {
      await waitFrames(app.page, 5);
      const st = await api.getState(app.page);
      assert.deepEqual(st[key], want, `${key} stays ${JSON.stringify(want)} ${i + 5} frames after setState (it is ${JSON.stringify(st[key])})`);
    }
  }

  it('a slider being typed into (Tab opens it for typing) takes setState({d_k: 300})', async () => {
    const { page } = app;
    await page.locator('#canvas').focus();
    await tabTo('d_k');
    await page.keyboard.press('Control+A');
    await typeText(page, '7');  // the learner has started typing, not yet pressed Enter
    await setStateOk(page, { d_k: 300 });
    await holds('d_k', 300);
    assert.deepEqual(app.errors.page, []);
  });

  it('a checkbox with keyboard focus takes setState({scale})', async () => {
    const { page } = app;
    await tabTo('scale');
    const scale = (await api.getState(page)).scale;
    await setStateOk(page, { scale: !scale });
    await holds('scale', !scale);
  });

  it('a text field being edited takes setState({sentence})', async () => {
    const { page } = app;
    await click(page, center(await itemRect(page, 'sentence')));
    await page.keyboard.press('End');
    await typeText(page, ' again');
    await setStateOk(page, { sentence: 'dogs chase cats' });
    await holds('sentence', 'dogs chase cats');
    // The field let go of the typed text: leaving it now does not put "… again" back over the change.
    await page.keyboard.press('Tab');
    await holds('sentence', 'dogs chase cats', 10);
    assert.deepEqual(app.errors.page, []);
    assert.deepEqual(app.errors.console, []);
  });
});
