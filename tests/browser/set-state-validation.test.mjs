// set-state-validation.test.mjs — setState refuses bad input with {ok:false, error} and a readable
// message, and leaves the state exactly as it was; hostile-looking text is just text.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, launchChromium, openApp, setStateOk, siteBuiltTest, startServer, waitForApp, waitFrames } from './helpers.mjs';

siteBuiltTest();

describe('setState validation', { timeout: 120000 }, () => {
  let server, browser, app, page;
  before(async () => {
    server = await startServer();
    browser = await launchChromium();
    app = await openApp(browser, server.origin);
    page = app.page;
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  // Each case: a label, the argument as built in the page (some values cannot cross Playwright's
  // serialisation, e.g. Infinity inside an object is fine but functions are not, so they are built
  // there), and a pattern the error must match (it names what was wrong).
  const cases = [
    ['d_k as a string', '({ d_k: "8" })', /d_k/],
    ['d_k 0', '({ d_k: 0 })', /d_k.*between/],
    ['d_k 5000', '({ d_k: 5000 })', /d_k.*between/],
    ['d_k −3', '({ d_k: -3 })', /d_k/],
    ['d_k 4.5', '({ d_k: 4.5 })', /d_k.*integer/],
    ['d_k Infinity (JSON.stringify makes it null)', '({ d_k: Infinity })', /d_k/],
    ['d_k NaN (JSON.stringify makes it null)', '({ d_k: NaN })', /d_k/],
    ['d_k 1e309 (Infinity from a literal)', '({ d_k: 1e309 })', /d_k/],
    ['d_k null', '({ d_k: null })', /d_k/],
    ['d_k as an array', '({ d_k: [8] })', /d_k/],
    ['scale as a string', '({ scale: "yes" })', /scale/],
    ['scale as 1', '({ scale: 1 })', /scale/],
    ['temperature huge', '({ temperature: 1e12 })', /temperature/],
    ['temperature negative', '({ temperature: -1 })', /temperature/],
    ['temperature Infinity', '({ temperature: Infinity })', /temperature/],
    ['temperature as a string', '({ temperature: "1" })', /temperature/],
    ['sentence as a number', '({ sentence: 42 })', /sentence/],
    ['sentence empty', '({ sentence: "   " })', /sentence|token/],
    ['sentence too long', '({ sentence: "a ".repeat(10000) })', /sentence/],
    ['seed negative', '({ seed: -1 })', /seed/],
    ['unknown key', '({ dk: 8 })', /unknown.*dk/],
    ['unknown key next to a valid one (nothing applied)', '({ d_k: 8, bogus: true })', /unknown.*bogus/],
    ['valid key then an invalid one (nothing applied)', '({ d_k: 8, temperature: -5 })', /temperature/],
    ['unknown preset', '({ preset: "no-such-preset" })', /preset/],
    ['preset as a number', '({ preset: 3 })', /preset/],
    ['selected_row −1', '({ selected_row: -1 })', /selected_row/],
    ['plane_x beyond d_model', '({ plane_x: 40 })', /plane/],
    ['embeddings as a string', '({ embeddings: "x" })', /embeddings/],
    ['embeddings of the wrong shape', '({ embeddings: [[1, 2], [3, 4]] })', /embeddings/],
    ['embeddings with a null cell', '({ embeddings: Array.from({ length: 6 }, () => Array(8).fill(null)) })', /embeddings/],
    ['theme unknown', '({ theme: "blue" })', /theme/],
    ['mode unknown', '({ mode: "both" })', /mode/],
    ['text_scale 100', '({ text_scale: 100 })', /text_scale/],
    ['panels unknown panel', '({ panels: { nope: true } })', /panel/],
    ['deep nesting', '({ embeddings: JSON.parse("[".repeat(5000) + "]".repeat(5000)) })', /deep|nest|embeddings/],
    ['a number instead of an object', '5', /object/],
    ['a string instead of an object', '"d_k=8"', /object/],
    ['an array instead of an object', '[1, 2]', /object/],
    ['null', 'null', /object/],
    ['undefined', 'undefined', /object/],
    ['a function', '(() => 1)', /object/],
    ['a BigInt', '({ d_k: 8n })', /serialis|BigInt/i],
    ['a cycle', '(() => { const o = { d_k: 8 }; o.self = o; return o; })()', /serialis|circular/i],
  ];

  it('refuses every bad input with a readable error and changes nothing', async () => {
    await setStateOk(page, { preset: 'default' });
    const before = await api.getState(page);
    // All cases run in one round trip. page.evaluate with a string goes through the DevTools
    // protocol, which the page's CSP does not govern, so each argument is built in the page exactly
    // as a caller would write it (Infinity, NaN, functions, BigInt and cycles arrive as such).
    const calls = cases.map(([, src]) => `async () => { try { return await window.attnplay.setState(${src}); }
      catch (e) { return { threw: String(e && e.message || e) }; } }`);
    const outcomes = await page.evaluate(`(async () => {
      const calls = [${calls.join(',\n')}];
      const out = [];
      for (const call of calls) {
        const r = await call();
        out.push({ r, after: JSON.stringify(await window.attnplay.getState()) });
      }
      return out;
    })()`);
    const beforeText = JSON.stringify(before);
    cases.forEach(([label, src, pattern], k) => {
      const { r, after } = outcomes[k];
      console.log(`${label.padEnd(52)} → ${JSON.stringify(r)}`);
      assert.ok(r && r.ok === false, `${label}: setState(${src.slice(0, 80)}) must return {ok:false}, got ${JSON.stringify(r)}`);
      assert.equal(typeof r.error, 'string', `${label}: error is a string`);
      assert.ok(r.error.length >= 8 && r.error.length <= 300, `${label}: error is a readable sentence: ${JSON.stringify(r.error)}`);
      assert.match(r.error, pattern, `${label}: the error names the problem`);
      assert.doesNotMatch(r.error, /undefined|\[object|std::|nlohmann|what\(\)/, `${label}: no internals leak into ${JSON.stringify(r.error)}`);
      assert.deepEqual(JSON.parse(after), JSON.parse(beforeText), `${label}: the state is unchanged after the refusal`);
    });
    // And the app still works afterwards.
    await setStateOk(page, { d_k: 16 });
    assert.equal((await api.getState(page)).d_k, 16);
  });

  it('takes hostile-looking text literally and never runs it', async () => {
    await setStateOk(page, { preset: 'default' });
    const dialogsBefore = app.errors.dialogs.length;
    const scriptsOf = () => page.evaluate(() => [...document.scripts].map((s) => s.src || `inline: ${s.textContent.slice(0, 80)}`));
    const scriptsBefore = await scriptsOf();
    const sentence = '<img src=x onerror=alert(1)> "><script>alert(2)</script> javascript:alert(3) ${alert(4)} \u202Eevil \u{1F600}';
    const r = await api.setState(page, { sentence });
    assert.deepEqual(r, { ok: true }, 'a sentence is just text: it is accepted');
    const s = await api.getState(page);
    assert.equal(s.sentence, sentence, 'stored verbatim');
    assert.deepEqual(s.tokens, sentence.split(/\s+/).filter(Boolean), 'split into whitespace-separated tokens, literally');
    assert.ok(s.tokens.includes('<img') && s.tokens.includes('onerror=alert(1)>'), JSON.stringify(s.tokens));

    // Select the token "<img" so the accessible summary (the one DOM text the app writes) shows it.
    await setStateOk(page, { selected_row: 0 });
    await waitFrames(page, 3);
    const summary = await page.waitForFunction(() => {
      const t = document.getElementById('a11y-summary').textContent;
      return t.includes('<img') ? t : false;
    }, null, { timeout: 4000, polling: 100 }).then((h) => h.jsonValue());
    assert.match(summary, /Query <img attends/, 'the summary shows the token as text');
    const dom = await page.evaluate(() => ({
      imgs: document.querySelectorAll('img').length,
      summaryChildren: document.getElementById('a11y-summary').children.length,
    }));
    assert.equal(dom.imgs, 0, 'no <img> element was created');
    assert.equal(dom.summaryChildren, 0, 'the summary holds text only');
    assert.deepEqual(await scriptsOf(), scriptsBefore, 'no script element was injected');
    // Give an injected handler time to fire (it would run on the next tasks), then check dialogs.
    await waitForApp(page, ({ state: st }) => st.tokens.length > 0);
    await waitFrames(page, 2);
    assert.equal(app.errors.dialogs.length, dialogsBefore, `no dialog opened: ${JSON.stringify(app.errors.dialogs)}`);
    assert.deepEqual(app.errors.page, [], 'no page errors');
    await setStateOk(page, { preset: 'default' });
  });
});
