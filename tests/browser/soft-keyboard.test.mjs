// soft-keyboard.test.mjs — on a phone (touch, 390×844), tapping a number box focuses a real text field at the box
// with a decimal keyboard; what the keyboard inserts (CDP Input.insertText, as a soft keyboard or an IME does), a paste
// and its Backspace and Enter reach the box; the right answer is taken; the field lets go when editing ends. A mouse
// click on the same box leaves the page's focus on the canvas (desktop keyboards type into the canvas).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, center, itemRect, pollUntil, setStateOk, siteBuiltTest, touchDrag, touchTap, useApp,
  waitFrames } from './helpers.mjs';

siteBuiltTest();

const focused = (page) => page.evaluate(() => {
  const e = document.activeElement;
  return e ? { id: e.id, tag: e.tagName, inputmode: e.getAttribute('inputmode') } : null;
});
const lesson = (page) => page.evaluate(async () => (await window.attnplay.getResult()).lesson);

describe('typing an answer with a phone keyboard', { timeout: 240000 }, () => {
  let page;
  useApp((app) => { page = app.page; }, { viewport: { width: 390, height: 844 },
    device: { hasTouch: true, isMobile: true, deviceScaleFactor: 2, permissions: ['clipboard-read', 'clipboard-write'] } });

  it('a tap on the number box opens a decimal keyboard; typed and pasted text, Backspace and Enter answer it', async () => {
    await setStateOk(page, { lesson: { id: 'not-explanation', step: 2 } });  // the answer is 1.8
    await waitFrames(page, 6);
    // The step's text comes first: a learner swipes the docked lesson up with one finger until the box shows.
    let box = await itemRect(page, 'lesson:number');
    for (let i = 0; i < 6 && box.y + box.h > 830; i++) {
      await touchDrag(page, { x: 370, y: 800 }, { x: 370, y: 680 }, { steps: 6 });
      box = await itemRect(page, 'lesson:number');
    }
    assert.ok(box.y > 0 && box.y + box.h < 844, `the box is on screen, in the docked lesson: ${JSON.stringify(box)}`);
    await touchTap(page, center(box));
    const f = await pollUntil(() => focused(page), (x) => x && x.id === 'attnplay-text', { what: 'the text field focused' });
    assert.equal(f.tag, 'INPUT');
    assert.equal(f.inputmode, 'decimal', 'a number box asks for the decimal keyboard');
    const where = await page.evaluate(() => document.getElementById('attnplay-text').getBoundingClientRect().toJSON());
    assert.ok(Math.abs(where.y - box.y) < box.h + 4, `the field sits at the box (field ${JSON.stringify(where)})`);

    const cdp = await page.context().newCDPSession(page);
    try {
      await cdp.send('Input.insertText', { text: '1.' });
      await waitFrames(page, 2);
      // The rest comes from the clipboard: Ctrl+V on a tablet's keyboard, then a phone's Paste (a long press on the
      // field; the browser then fires the paste event with no key, as here).
      await page.evaluate(() => navigator.clipboard.writeText('8'));
      await page.keyboard.press('Control+V');
      await waitFrames(page, 2);
      await page.evaluate(() => {
        const data = new DataTransfer();
        data.setData('text/plain', '9');
        document.getElementById('attnplay-text').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      });
      await waitFrames(page, 2);
      await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Backspace', code: 'Backspace', windowsVirtualKeyCode: 8 });
      await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Backspace', code: 'Backspace', windowsVirtualKeyCode: 8 });
      await waitFrames(page, 2);
      assert.equal(await page.evaluate(() => document.getElementById('attnplay-text').value), ' ',
        'the field keeps only its placeholder: the box holds the text');
      await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 });
      await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 });
    } finally {
      await cdp.detach();
    }
    const l = await pollUntil(() => lesson(page), (x) => x && x.attempts >= 1, { what: 'the answer checked' });
    assert.equal(l.correct, true, `"1.89", Backspace, Enter is 1.8: ${JSON.stringify(l)}`);
    await waitFrames(page, 4);
    const after = await focused(page);
    assert.notEqual(after && after.id, 'attnplay-text', 'the field lets go once the box is no longer edited');
  });

  it('a mouse click on a number box keeps the focus on the canvas', async () => {
    await setStateOk(page, { lesson: { id: 'why-sqrt-dk', step: 3 } });  // a number question
    await waitFrames(page, 6);
    const box = await itemRect(page, 'lesson:number');
    const c = center(box);
    await page.mouse.click(c.x, c.y);
    await waitFrames(page, 4);
    const f = await focused(page);
    assert.notEqual(f && f.id, 'attnplay-text', `focus: ${JSON.stringify(f)}`);
    const state = await api.getState(page);
    assert.equal(state.lesson.step, 3);
  });
});
