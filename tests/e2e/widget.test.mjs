// The <attention-explorer> widget on host pages: two widgets with their own state and
// one shared core, style isolation from a hostile page, light/dark from the host, the
// attributes, every registered chapter, the anywidget entry point, narrow columns; `ready`
// when a chapter cannot be shown (a file missing next to the widget).
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { WIDGET_FONTS } from '../../web/scripts/widget-fonts.mjs';
import { harness, openIsolated, widgetsReady, widgetCells, shots, root, LAX_CSP, frames, afterTimers, tempDir, widgetsHtml, axeSource } from './harness.mjs';

const gen = await tempDir('attn-widget-');
const env = await harness({ mounts: { '/generated/': { dir: gen, csp: LAX_CSP } } });
const { server, browser } = env;

// The paths of the files the page has fetched.
const fetched = (page) => page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
// How each widget's `ready` has settled, within a few seconds ('pending' if it has not):
// {id (or chapter), state, error: the reason is an Error, message: its message}, or for a
// fulfilled one {id, state, self: it is the element}. Run in the page.
async function readyOutcomes(selector) {
  const ws = [...document.querySelectorAll(selector)];
  const late = new Promise((r) => setTimeout(() => r('pending'), 5000));
  return Promise.all(ws.map(async (w) => {
    const id = w.id || w.getAttribute('chapter');
    const got = await Promise.race([w.ready.then((v) => ({ v }), (e) => ({ e })), late]);
    if (got === 'pending') return { id, state: 'pending' };
    if ('v' in got) return { id, state: 'fulfilled', self: got.v === w };
    return { id, state: 'rejected', error: got.e instanceof Error, message: got.e?.message };
  }));
}
const inWidget = (page, sel, fn, arg) => page.evaluate(([s, f, a]) => new Function('w', 'arg', `return (${f})(w, arg)`)(document.querySelector(s), a), [sel, fn.toString(), arg]);

// What the maths of the widgets on the page draws, by KaTeX face ({used: {'KaTeX_Main normal
// 400': 'text…'}, missing: faces drawn that the page has not loaded}); `into` adds to an
// earlier result (the characters of several states).
function mathsDrawn(into) {
  const used = into?.used ?? {};
  for (const w of document.querySelectorAll('attention-explorer'))
    for (const el of w.shadowRoot.querySelectorAll('.katex-html, .katex-html *')) {
      const t = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('');
      if (!t.trim()) continue;
      const cs = getComputedStyle(el);
      const family = cs.fontFamily.split(',')[0].replace(/"/g, '').trim();
      if (family.startsWith('KaTeX_')) {
        const key = `${family} ${cs.fontStyle} ${Number(cs.fontWeight) >= 600 ? 700 : 400}`;
        used[key] = [...new Set((used[key] ?? '') + t)].join('');
      }
    }
  const have = new Set([...document.fonts].map((f) => `${f.family.replace(/"/g, '')} ${f.style} ${f.weight === 'bold' ? 700 : f.weight === 'normal' ? 400 : f.weight}`));
  return { used, missing: Object.keys(used).filter((u) => !have.has(u)) };
}

// Every face drawn is one the widget carries, and keeps every character drawn in it.
function assertFontsKeep(drawn) {
  assert.ok(Object.keys(drawn.used).length >= 2, `faces used: ${Object.keys(drawn.used)}`);
  assert.deepEqual(drawn.missing, [], 'a chapter uses a KaTeX face the widget does not carry: add it to WIDGET_FONTS');
  const faceOf = (key) => { // 'KaTeX_Main normal 700' -> 'Main-Bold'
    const [family, style, weight] = key.split(' ');
    const name = family.replace('KaTeX_', '');
    return `${name}-${weight === '700' ? (style === 'italic' ? 'BoldItalic' : 'Bold') : style === 'italic' ? 'Italic' : 'Regular'}`;
  };
  for (const [key, text] of Object.entries(drawn.used)) {
    const font = WIDGET_FONTS.find((f) => f.face === faceOf(key));
    assert.ok(font, `${key}: no such face in WIDGET_FONTS`);
    if (font.text === null) continue; // kept whole
    // (Hangul in a \text{} is drawn from a Korean font: KaTeX's fonts have none)
    const lost = [...new Set(text)].filter((c) => c.codePointAt(0) < 0x3000 && !font.text.includes(c));
    assert.deepEqual(lost, [], `${key}: the maths draws characters the widget's ${font.face} does not keep: add them in web/scripts/widget-fonts.mjs`);
  }
}

test('two widgets: their own numbers, their own state, one shared core; console clean, no foreign request', async () => {
  const { page, errors, foreign, close } = await openIsolated(browser, `${server.url}fixtures/two-widgets.html`);
  await widgetsReady(page);
  assert.deepEqual((await fetched(page)).filter((p) => /attention-explorer-scalar|\.wasm$/.test(p)), [], 'the inlined SIMD core only');
  // a: English, no mask, opened at the softmax step; b: Korean, causal, first step
  assert.match(await inWidget(page, '#a', (w) => w.shadowRoot.querySelector('h2').textContent), /Core attention/);
  assert.doesNotMatch(await inWidget(page, '#b', (w) => w.shadowRoot.querySelector('h2').textContent), /Core attention/);
  assert.equal(await inWidget(page, '#a', (w) => w.shadowRoot.querySelector('[role="tab"][aria-selected="true"]').dataset.step), 'softmax');
  assert.equal(await inWidget(page, '#b', (w) => w.shadowRoot.querySelector('[role="tab"][aria-selected="true"]').dataset.step), 'scores');
  const a2 = await widgetCells(page, '#a', 'P', 2);
  const b2 = await widgetCells(page, '#b', 'P', 2);
  assert.deepEqual(b2, ['0.818', '0.182', '0.000']); // the document's causal row
  assert.notEqual(a2[2], '0.000', 'without the mask token 2 also attends to token 3');
  // one core (one WebAssembly instance), two stores
  assert.equal(await page.evaluate(() => window.__wasmInstances), 1);
  assert.ok(await page.evaluate(() => document.querySelector('#a').attn === document.querySelector('#b').attn));
  assert.ok(await page.evaluate(() => document.querySelector('#a').store !== document.querySelector('#b').store));
  // editing a leaves b alone
  const aS = await widgetCells(page, '#a', 'S', 3);
  const bS = await widgetCells(page, '#b', 'S', 3);
  await page.fill('#a [data-grid="input-Q"] tbody tr:nth-child(3) td:nth-of-type(4) input', '7');
  assert.notDeepEqual(await widgetCells(page, '#a', 'S', 3), aS);
  assert.deepEqual(await widgetCells(page, '#b', 'S', 3), bS);
  assert.equal(await page.inputValue('#b [data-grid="input-Q"] tbody tr:nth-child(3) td:nth-of-type(4) input'), '2');
  // a reports its new state in the form the `state` attribute takes
  assert.equal(await inWidget(page, '#a', (w) => w.host.encodeState('core-attention')), 'Q:~19_7'); // mask="none" is its default
  // typing in a widget's cell does not move the steppers (the page's ←/→ keys)
  await page.focus('#a [data-grid="input-Q"] tbody tr:nth-child(1) td:nth-of-type(1) input');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowRight');
  assert.equal(await inWidget(page, '#a', (w) => w.shadowRoot.querySelector('[role="tab"][aria-selected="true"]').dataset.step), 'softmax');
  await page.screenshot({ path: join(shots, 'widget-two-desktop.png'), fullPage: true });
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await close();
});

test('a narrow column (360 px): the widget fits, wide grids scroll inside it', async () => {
  const { page, errors, close } = await openIsolated(browser, `${server.url}fixtures/two-widgets.html`, { width: 360, height: 780 });
  await widgetsReady(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the phone`);
  const width = await page.evaluate(() => document.querySelector('#b').getBoundingClientRect().width);
  assert.ok(width <= 360, `widget is ${width}px wide`);
  // the phone layout is chosen by the widget's own width (container query)
  assert.equal(await inWidget(page, '#b', (w) => getComputedStyle(w.shadowRoot.querySelector('.stepper-nav [role="tablist"]')).order), '-1');
  await page.screenshot({ path: join(shots, 'widget-two-phone.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await close();
});

test('a hostile host stylesheet does not reach into the widget; KaTeX fonts work in the shadow root', async () => {
  const { page, errors, close } = await openIsolated(browser, `${server.url}fixtures/hostile.html`);
  await widgetsReady(page);
  const look = await inWidget(page, 'attention-explorer', (w) => {
    const r = w.shadowRoot;
    const table = r.querySelector('[data-grid="P"] table') ?? r.querySelector('table');
    const td = r.querySelector('[data-grid="S"] td');
    const input = r.querySelector('[data-grid="input-Q"] input');
    const katex = r.querySelector('.katex');
    return {
      tableShown: getComputedStyle(r.querySelector('[data-grid="input-Q"] table')).display,
      tableHeight: r.querySelector('[data-grid="input-Q"] table').getBoundingClientRect().height,
      tdFont: parseFloat(getComputedStyle(td).fontSize), tdColor: getComputedStyle(td).color, tdBg: getComputedStyle(td).backgroundColor,
      inputShown: getComputedStyle(input).display, katexShown: getComputedStyle(katex).display, katexFont: getComputedStyle(katex).fontFamily,
      h2Font: parseFloat(getComputedStyle(r.querySelector('h2')).fontSize), tableFound: !!table,
      transform: getComputedStyle(r.querySelector('p')).textTransform,
    };
  });
  assert.notEqual(look.tableShown, 'none');
  assert.ok(look.tableHeight > 50, `the Q table is ${look.tableHeight}px tall`);
  assert.ok(look.tdFont > 10 && look.tdFont < 20, `cell font ${look.tdFont}px`);
  assert.ok(look.h2Font > 20 && look.h2Font < 40, `heading font ${look.h2Font}px`);
  assert.notEqual(look.tdColor, 'rgb(255, 0, 0)');
  assert.notEqual(look.tdBg, 'rgb(0, 255, 0)');
  assert.notEqual(look.inputShown, 'none');
  assert.notEqual(look.katexShown, 'none');
  assert.equal(look.transform, 'none');
  assert.match(look.katexFont, /KaTeX_Main/);
  // the fonts were added to the document (from bytes in the script) and are usable
  await page.evaluate(() => document.fonts.ready);
  assert.ok(await page.evaluate(() => document.fonts.check('16px KaTeX_Main') && document.fonts.check('16px KaTeX_Math')));
  assert.ok(await page.evaluate(() => [...document.fonts].some((f) => f.family.replace(/"/g, '') === 'KaTeX_Math' && f.status === 'loaded')));
  // and the widget's styles do not leak out: the host's paragraph keeps the host's look
  assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('body > p')).fontSize), '40px');
  await page.screenshot({ path: join(shots, 'widget-hostile.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await close();
});

test('light or dark as the host page is; theme="light" overrides', async () => {
  const { page, errors, close } = await openIsolated(browser, `${server.url}fixtures/dark.html`, { width: 700, height: 600 });
  await widgetsReady(page);
  const scheme = () => page.evaluate(() => [...document.querySelectorAll('attention-explorer')].map((w) => w.shadowRoot.querySelector('.ae-root').dataset.scheme));
  assert.deepEqual(await scheme(), ['dark', 'light']);
  const bg = await inWidget(page, 'attention-explorer', (w) => getComputedStyle(w.shadowRoot.querySelector('.ae-root')).backgroundColor);
  assert.equal(bg, 'rgb(21, 23, 27)');
  await page.screenshot({ path: join(shots, 'widget-dark.png'), fullPage: true });
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await page.waitForFunction(() => document.querySelector('attention-explorer').shadowRoot.querySelector('.ae-root').dataset.scheme === 'light');
  assert.deepEqual(await scheme(), ['light', 'light']);
  assert.deepEqual(errors, []);
  await close();
});

// A lang the widget does not speak falls back to the page's language, not to English.
test('lang="fr" on a Korean page: the widget speaks Korean and says lang="fr" is not taken', async () => {
  await writeFile(join(gen, 'fr.html'), `<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>fr</title>
    <script type="module" src="attention-explorer.js"></script></head><body><main>
    <attention-explorer chapter="softmax" lang="fr"></attention-explorer></main></body></html>`);
  const { page, errors, close } = await openIsolated(browser, `${server.url}generated/fr.html`);
  await widgetsReady(page);
  const notice = await page.evaluate(() => document.querySelector('attention-explorer').shadowRoot.querySelector('.notice').textContent);
  assert.match(notice, /lang="fr"은\(는\) 쓸 수 없는 값입니다\. 쓸 수 있는 값: ko, en\./);
  assert.match(await page.evaluate(() => document.querySelector('attention-explorer').shadowRoot.querySelector('section h2').textContent), /[\uac00-\ud7a3]/, 'the chapter in Korean');
  assert.deepEqual(errors, []);
  await close();
});

test('attributes: figure, editable, state, hide, bad values give a notice and defaults', async () => {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>attrs</title>
    <script type="module" src="attention-explorer.js"></script></head><body>
    <attention-explorer id="fig" chapter="core-attention" figure="P" editable="false"></attention-explorer>
    <attention-explorer id="st" chapter="core-attention" state="Q:~19_5;causal:!f" step="softmax" hide="P.3.1 P.3.2" tolerance="0.005"></attention-explorer>
    <attention-explorer id="bad" chapter="core-attention" tokens="lots" seed="-1" mask="sideways" state="Q:2x2,1,2,3,4;zzz:1" lang="fr"></attention-explorer>
    <attention-explorer id="nochapter" chapter="no-such-chapter"></attention-explorer>
    <attention-explorer id="ro" chapter="core-attention" editable="false"></attention-explorer>
    <attention-explorer id="words" chapter="core-attention" theme="purple" editable="maybe"></attention-explorer>
    <attention-explorer id="nostep" chapter="two-keys" step="bogus"></attention-explorer>
    </body></html>`;
  await writeFile(join(gen, 'attrs.html'), html);
  const { page, errors, close } = await openIsolated(browser, `${server.url}generated/attrs.html`);
  await widgetsReady(page);
  // figure="P": only that grid is shown
  const fig = await inWidget(page, '#fig', (w) => [...w.shadowRoot.querySelectorAll('figure.grid')].filter((f) => f.offsetParent !== null).map((f) => f.dataset.grid));
  assert.deepEqual(fig, ['P']);
  // editable="false": no input cells, controls disabled
  assert.equal(await inWidget(page, '#ro', (w) => w.shadowRoot.querySelectorAll('[data-grid="input-Q"] input').length), 0);
  assert.equal(await inWidget(page, '#ro', (w) => w.shadowRoot.querySelector('[data-control="causal"]').disabled), true);
  // state="...": the same numbers as the page with that permalink; hidden cells are answer fields
  assert.equal(await inWidget(page, '#st', (w) => w.shadowRoot.querySelector('[data-grid="input-Q"] tbody tr:nth-child(3) td:nth-of-type(4) input').value), '5');
  assert.equal(await inWidget(page, '#st', (w) => w.shadowRoot.querySelector('[data-control="causal"]').checked), false);
  assert.equal(await inWidget(page, '#st', (w) => w.shadowRoot.querySelectorAll('[data-grid="P"] input.answer:not([hidden])').length), 2);
  // bad attributes: a notice, and the chapter at its defaults
  const notice = await inWidget(page, '#bad', (w) => w.shadowRoot.querySelector('.notice').textContent);
  for (const re of [/does not take tokens/, /mask="sideways"/, /fr/, /Q: a 2×2 matrix where this chapter has a 3×8 one/, /zzz/]) assert.match(notice, re);
  // It speaks of attributes, names each and the values it accepts; it does not speak of a link.
  assert.doesNotMatch(notice, /link/i);
  assert.match(notice, /attributes of this <attention-explorer>/);
  assert.match(notice, /mask="sideways" is not accepted\. Accepted values: causal, none\./);
  assert.match(notice, /lang="fr" is not accepted\. Accepted values: ko, en\./);
  // (core-attention takes mask only: tokens and seed are said as not taken, whatever their value)
  assert.match(notice, /the chapter core-attention does not take tokens; it takes mask\./);
  assert.match(notice, /the chapter core-attention does not take seed; it takes mask\./);
  // what state, step or hide asked for and the chapter lacks: under the attribute that asked
  assert.match(notice, /state="Q:2x2,1,2,3,4;zzz:1": there is no setting "zzz"/);
  const noStep = await inWidget(page, '#nostep', (w) => w.shadowRoot.querySelector('.notice').textContent);
  assert.match(noStep, /step="bogus": there is no step "bogus"/);
  assert.deepEqual(await widgetCells(page, '#bad', 'P', 3), ['0.114', '0.042', '0.844']);
  // a word the attribute does not take (theme, editable): a notice as for mask, and the default
  const words = await inWidget(page, '#words', (w) => w.shadowRoot.querySelector('.notice').textContent);
  assert.match(words, /theme="purple" is not accepted\. Accepted values: auto, light, dark\./);
  assert.match(words, /editable="maybe" is not accepted\. Accepted values: true, false\./);
  assert.ok(await inWidget(page, '#words', (w) => w.shadowRoot.querySelectorAll('[data-grid="input-Q"] input').length) > 0, 'editable: the default');
  // an unknown chapter: a notice naming it, and the first chapter of the page instead
  assert.match(await inWidget(page, '#nochapter', (w) => w.shadowRoot.querySelector('.notice').textContent),
    /chapter="no-such-chapter" is not a chapter, so the first one \(why-attention\) is shown\. Accepted values: why-attention, .*core-attention.*, review\./);
  assert.ok(await inWidget(page, '#nochapter', (w) => w.shadowRoot.querySelectorAll('section.chapter').length) >= 1);
  assert.deepEqual(errors, []);
  await close();
});

test('editable="false": every control that changes the state is disabled (selects, number fields, radios, toggles, sliders) or read-only (text)', async () => {
  const ids = ['cost', 'training', 'multi-head', 'causal-dropout'];
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>read-only</title>
    <script type="module" src="attention-explorer.js"></script></head><body>
    ${ids.map((c) => `<attention-explorer id="ro-${c}" chapter="${c}" editable="false"></attention-explorer>`).join('\n')}
    </body></html>`;
  await writeFile(join(gen, 'read-only.html'), html);
  const { page, errors, close } = await openIsolated(browser, `${server.url}generated/read-only.html`);
  await widgetsReady(page);
  for (const c of ids) {
    const controls = await inWidget(page, `#ro-${c}`, (w) => [...w.shadowRoot.querySelectorAll('select[data-control], input[data-control], [data-choice] input[type="radio"]')]
      .map((n) => ({ what: `${n.tagName.toLowerCase()}[${n.type}] ${n.dataset.control ?? n.closest('[data-choice]').dataset.choice}`, disabled: n.disabled || (n.type === 'text' && n.readOnly) })));
    assert.ok(controls.length > 0, c);
    assert.deepEqual(controls.filter((x) => !x.disabled).map((x) => x.what), [], `${c}: controls a read-only widget leaves enabled`);
  }
  // no cell takes an edit, and no button that redraws or resets the numbers is enabled,
  // also in the chapters that build their own grids or draw new random values
  for (const c of ['weighted-sum', 'reading-matrix', 'projections', 'causal-dropout', 'positional-encoding', 'core-attention']) {
    await page.evaluate((c) => {
      const w = document.createElement('attention-explorer');
      Object.assign(w, { id: `ro2-${c}` });
      w.setAttribute('chapter', c);
      w.setAttribute('editable', 'false');
      document.body.append(w);
    }, c);
    await page.waitForFunction((c) => document.querySelector(`#ro2-${c}`)?.shadowRoot?.querySelector('[data-grid] td'), c);
    const open = await inWidget(page, `#ro2-${c}`, (w) => [
      ...[...w.shadowRoot.querySelectorAll('[data-grid] td input')].filter((n) => !n.readOnly && !n.disabled).map((n) => `cell of ${n.closest('[data-grid]').dataset.grid}`),
      ...[...w.shadowRoot.querySelectorAll('button.reset, button[data-control="cd-redraw"], button[data-control="pe-another-order"], button[data-control="pj-draw"], button[data-control="ws-reseed"], [data-grid] [data-act="paste"]')]
        .filter((b) => !b.disabled).map((b) => b.textContent),
    ]);
    assert.deepEqual(open, [], `${c}: what a read-only widget leaves open to edits`);
  }
  assert.equal(await inWidget(page, '#ro2-weighted-sum', (w) => w.shadowRoot.querySelectorAll('[data-grid] td').length) > 0, true);
  // the cost chapter's selects are among them
  assert.ok(await inWidget(page, '#ro-cost', (w) => w.shadowRoot.querySelectorAll('select[data-control]').length) >= 2);
  assert.deepEqual(errors, []);
  await close();
});

test('hidden cells past a figure\'s edge and bad attributes: one notice, all in the widget\'s language (en, ko)', async () => {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>hide</title>
    <script type="module" src="attention-explorer.js"></script></head><body>
    <attention-explorer id="en" lang="en" chapter="core-attention" step="softmax" hide="P.9.9 P.3.1 Z.1.1" mask="sideways" state="foo:1;!step:nope"></attention-explorer>
    <attention-explorer id="ko" lang="ko" chapter="core-attention" step="softmax" hide="P.9.9 P.3.1 Z.1.1 x" mask="sideways" state="foo:1;Q:2x2,1;causal:3"></attention-explorer>
    </body></html>`;
  await writeFile(join(gen, 'hide.html'), html);
  const { page, errors, close } = await openIsolated(browser, `${server.url}generated/hide.html`);
  await widgetsReady(page);
  const items = (sel) => inWidget(page, sel, (w) => [...w.shadowRoot.querySelectorAll('.notice li')].map((li) => li.textContent));
  const en = (await items('#en')).join('\n');
  for (const re of [/no cell P\.9\.9 to hide: P is 3 × 3/, /no figure "Z"/, /no setting "foo"/, /mask="sideways"/]) assert.match(en, re, en);
  // each under the attribute that asked for it: the state's !step under state, not step
  assert.match(en, /^state="foo:1;!step:nope": .*no step "nope"/m, en);
  assert.doesNotMatch(en, /^step=/m, en);
  assert.match(en, /^hide="P\.9\.9 P\.3\.1 Z\.1\.1": .*P\.9\.9.*no figure "Z"|^hide="P\.9\.9 P\.3\.1 Z\.1\.1": .*no figure "Z".*P\.9\.9/m, en);
  const ko = await items('#ko');
  // (mask; then state's and hide's, each under its attribute)
  assert.ok(ko.length >= 3, ko.join('\n'));
  assert.match(ko.join('\n'), /^hide="P\.9\.9 P\.3\.1 Z\.1\.1 x": “x”.*P\.9\.9/m);
  for (const it of ko) {
    assert.match(it, /[\uac00-\ud7a3]/, it);
    assert.doesNotMatch(it, /\b(there|is|not|the|expected|link|accepted)\b/i, it);
  }
  assert.match(ko.join('\n'), /P\.9\.9.*3 × 3/);
  // the valid cell is still an exercise, and checking does not throw
  for (const sel of ['#en', '#ko']) {
    assert.equal(await inWidget(page, sel, (w) => w.shadowRoot.querySelectorAll('[data-grid="P"] input.answer:not([hidden])').length), 1);
    await inWidget(page, sel, (w) => w.shadowRoot.querySelector('[data-grid="P"] [data-act="check"]').click());
    await inWidget(page, sel, (w) => w.shadowRoot.querySelector('[data-grid="P"] [data-act="reveal"]').click());
  }
  assert.match(await inWidget(page, '#en', (w) => w.shadowRoot.querySelector('[data-grid="P"] .exercise-result').textContent), /1 of 1 correct/);
  // switching the language re-words every item
  await inWidget(page, '#en', (w) => w.shadowRoot.querySelector('.ae-lang').click());
  await page.waitForFunction(() => document.querySelector('#en').shadowRoot.querySelector('.ae-root').lang === 'ko');
  for (const it of await items('#en')) assert.match(it, /[\uac00-\ud7a3]/, it);
  await frames(page); // the leak check runs a frame later
  assert.deepEqual(errors, []);
  await close();
});

// A problem with the state attribute is said of the attribute, as the other attributes'
// problems are, never of "the link" (common.attrLink), in both languages.
test('state attribute: a wrong matrix or value is said of the attribute, not of a link (en, ko)', async () => {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>state</title>
    <script type="module" src="attention-explorer.js"></script></head><body>
    <attention-explorer id="en" lang="en" chapter="core-attention" state="Q:2x2,1;causal:3"></attention-explorer>
    <attention-explorer id="ko" lang="ko" chapter="core-attention" state="Q:2x2,1;causal:3"></attention-explorer>
    </body></html>`;
  await writeFile(join(gen, 'state.html'), html);
  const { page, errors, close } = await openIsolated(browser, `${server.url}generated/state.html`);
  await widgetsReady(page);
  const items = (sel) => inWidget(page, sel, (w) => [...w.shadowRoot.querySelectorAll('.notice li')].map((li) => li.textContent).join('\n'));
  const en = await items('#en');
  assert.match(en, /^state="Q:2x2,1;causal:3": Q: a 2×2 matrix needs 4 numbers, the attribute gives 1; causal: expected a boolean, the attribute gives a number$/m, en);
  assert.doesNotMatch(en, /link/i, en);
  const ko = await items('#ko');
  assert.match(ko, /^state="Q:2x2,1;causal:3": Q: 2×2 행렬에는 숫자 4개가 필요한데 속성 값에는 1개가 있습니다; causal: 참\/거짓 값이어야 하는데 속성 값에는 숫자 값이 있습니다$/m, ko);
  assert.doesNotMatch(ko, /링크|link/i, ko);
  assert.deepEqual(errors, []);
  await close();
});

// Every number an attribute takes refuses what is not a finite number the way -1 and "abc"
// are refused (a fresh try found tolerance="1e400" read as Infinity, every answer then judged
// right), and says what was written: state="q:1x2,1e999,0" is 1e999, not !inf. d_model="1e9"
// on a chapter that takes no d_model is said as a size it does not take (not as out of
// range, which would suggest d_model="4"), as model on another chapter than real-models is.
test('numeric attributes: ±Infinity, overflow and NaN refused with a notice; messages say what was written (en, ko)', async () => {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>numbers</title>
    <script type="module" src="attention-explorer.js"></script></head><body>
    <attention-explorer id="inf" chapter="core-attention" step="softmax" hide="P.2.1" tolerance="1e400"></attention-explorer>
    <attention-explorer id="sizes" chapter="core-attention" d_model="1e9" tokens="1e400" heads="2.5" seed="Infinity" model="models/gpt2/"></attention-explorer>
    <attention-explorer id="state" chapter="scaling" state="q:1x2,1e999,0"></attention-explorer>
    <attention-explorer id="hide" chapter="core-attention" hide="P.9999999999999999.1"></attention-explorer>
    <attention-explorer id="ko" lang="ko" chapter="core-attention" d_model="1e9" tolerance="-1e400" model="models/gpt2/"></attention-explorer>
    </body></html>`;
  await writeFile(join(gen, 'numbers.html'), html);
  const { page, errors, close } = await openIsolated(browser, `${server.url}generated/numbers.html`);
  await widgetsReady(page);
  const items = (sel) => inWidget(page, sel, (w) => [...w.shadowRoot.querySelectorAll('.notice li')].map((li) => li.textContent).join('\n'));
  // tolerance="1e400": refused as tolerance="-1" is, and a wrong answer is wrong
  assert.match(await items('#inf'), /^tolerance="1e400" is not a number from 0 to below 1 \(.*\), so the default 0\.01 is used\.$/m);
  await inWidget(page, '#inf', (w) => {
    const input = w.shadowRoot.querySelector('[data-grid="P"] input.answer:not([hidden])');
    input.value = '0.9';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    w.shadowRoot.querySelector('[data-grid="P"] [data-act="check"]').click();
  });
  assert.match(await inWidget(page, '#inf', (w) => w.shadowRoot.querySelector('[data-grid="P"] .exercise-result').textContent), /0 of 1 correct/);
  const sizes = await items('#sizes');
  // a size the chapter does not take is said as such, whatever its value: no range or
  // example is suggested that would then be refused all the same (d_model="4")
  for (const attr of ['d_model', 'tokens', 'heads', 'seed'])
    assert.match(sizes, new RegExp(`the chapter core-attention does not take ${attr}; it takes mask\\.`), sizes);
  assert.doesNotMatch(sizes, /out of range|not a whole number|for example/, sizes);
  assert.match(sizes, /the chapter core-attention does not take model: model="models\/gpt2\/" applies only to the chapter real-models\./, sizes);
  // the state attribute quotes the number as written; the hide attribute the cell as written
  const state = await items('#state');
  assert.match(state, /^state="q:1x2,1e999,0": q: 1e999 is outside the allowed range for q$/m, state);
  assert.doesNotMatch(state, /!inf|e\+/, state);
  const hide = await items('#hide');
  assert.match(hide, /^hide="P\.9999999999999999\.1": there is no cell P\.9999999999999999\.1 to hide: P is 3 × 3$/m, hide);
  const ko = await items('#ko');
  assert.doesNotMatch(ko, /범위를 벗어났습니다/, ko);
  assert.match(ko, /tolerance="-1e400"은\(는\) 0 이상 1 미만의 숫자가 아니어서 기본값 0\.01을 씁니다/, ko);
  assert.match(ko, /core-attention 장은 model 속성을 받지 않습니다\. model="models\/gpt2\/"은\(는\) real-models 장에서만 씁니다\./, ko);
  // other texts that are no finite number from 0 to below 1: each refused with the same notice
  // (and 1 or more: the tolerance is relative, so 0 would be within it of any value)
  for (const t of ['Infinity', '-Infinity', 'NaN', '', '0x10', '1e309', ' 1e999 ', '1', '1e308']) {
    await page.evaluate((t) => {
      const w = document.querySelector('#inf');
      w.setAttribute('tolerance', t);
    }, t);
    await page.waitForFunction((t) => {
      const li = [...document.querySelector('#inf').shadowRoot.querySelectorAll('.notice li')].map((n) => n.textContent);
      return document.querySelector('#inf').dataset.ready === 'true' && li.some((x) => x.startsWith(`tolerance="${t}"`));
    }, t);
  }
  // and a finite one is used without a notice
  await page.evaluate(() => document.querySelector('#inf').setAttribute('tolerance', '0.5'));
  await page.waitForFunction(() => document.querySelector('#inf').dataset.ready === 'true' && document.querySelector('#inf').shadowRoot.querySelector('.notice').hidden);
  assert.deepEqual(errors, []);
  await close();
});

test('every registered chapter mounts in a widget without errors, in both languages; fonts carry what the maths draws', async () => {
  await writeFile(join(gen, 'all.html'), widgetsHtml({ langs: ['en', 'ko'] }));
  const { page, errors, foreign, close } = await openIsolated(browser, `${server.url}generated/all.html`);
  await widgetsReady(page);
  const report = await page.evaluate(() => [...document.querySelectorAll('attention-explorer')].map((w) => ({
    id: w.getAttribute('chapter'), notice: w.shadowRoot.querySelector('.notice').hidden ? '' : w.shadowRoot.querySelector('.notice').textContent,
    error: [...w.shadowRoot.querySelectorAll('.chapter-error')].filter((e) => !e.hidden).map((e) => e.textContent).join(' '),
    tables: w.shadowRoot.querySelectorAll('table').length + w.shadowRoot.querySelectorAll('svg').length,
  })));
  assert.ok(report.length >= 2);
  for (const r of report) {
    assert.equal(r.notice, '', `${r.id}: ${r.notice}`);
    assert.equal(r.error, '', `${r.id}: ${r.error}`);
    assert.ok(r.tables > 0, `${r.id} shows no figure`);
  }
  // trained-heads draws its model: the whole core (attn-core.wasm) and the weights came from
  // next to the widget, the one core that every other widget shares being the inlined one
  await page.waitForFunction(() => [...document.querySelectorAll('attention-explorer[chapter="trained-heads"]')]
    .every((w) => w.shadowRoot.querySelectorAll('.head-thumb').length > 0), null);
  assert.deepEqual((await fetched(page)).filter((p) => /\.wasm$/.test(p)), ['/generated/attn-core.wasm']);
  // their code and prose came from attention-explorer-more.js, once, for all four widgets
  assert.deepEqual((await fetched(page)).filter((p) => /attention-explorer-more/.test(p)), ['/generated/attention-explorer-more.js']);
  assert.equal(await page.evaluate(() => window.__wasmInstances), 2);
  // The widget carries only the KaTeX fonts the chapters use, subset to the characters kept
  // (web/scripts/widget-fonts.mjs): every face the maths of every chapter asks for is among
  // them, and every character it draws in that face is kept.
  assertFontsKeep(await page.evaluate(mathsDrawn));
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await close();
});

// A course page may hold one chapter twice (say, once per week's notes): a landmark inside a
// widget would then be named twice on the page.
test('two widgets of one chapter on a page: no landmark named twice (axe)', async () => {
  await writeFile(join(gen, 'twice.html'), widgetsHtml({ langs: ['en', 'en'], ids: ['two-keys', 'core-attention', 'review'] }));
  const { page, errors, close } = await openIsolated(browser, `${server.url}generated/twice.html`);
  await widgetsReady(page);
  await page.addScriptTag({ content: await axeSource() });
  const found = await page.evaluate(async () => (await window.axe.run(document, { runOnly: ['landmark-unique', 'landmark-no-duplicate-main', 'duplicate-id-aria'], resultTypes: ['violations'] }))
    .violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' > ')).join(', ')}`));
  assert.deepEqual(found, []);
  assert.deepEqual(errors, []);
  await close();
});

// Beyond each chapter's first state: every select, radio, toggle, slider and whole-number
// field of every chapter stepped through in a widget (a select's every option, a slider's
// and a number field's ends), the maths of each state checked against the fonts the widget
// carries, and nothing thrown. (Buttons are left alone: they start runs and draws.)
test('every control of every chapter stepped in a widget: no error; the fonts keep what each state draws', async () => {
  await writeFile(join(gen, 'steps.html'), widgetsHtml());
  const { page, errors, foreign, close } = await openIsolated(browser, `${server.url}generated/steps.html`);
  await widgetsReady(page);
  await page.evaluate(`window.__mathsDrawn = ${mathsDrawn.toString()}`);
  const { drawn, steps, perChapter } = await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r))));
    const fire = (el) => {
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    };
    let drawn;
    let steps = 0;
    const perChapter = {};
    const after = async (id) => {
      await frame();
      drawn = window.__mathsDrawn(drawn);
      steps++;
      perChapter[id] = (perChapter[id] ?? 0) + 1;
    };
    for (const w of document.querySelectorAll('attention-explorer')) {
      const id = w.getAttribute('chapter');
      w.scrollIntoView();
      const live = (el) => el.isConnected && !el.disabled && !el.closest('[hidden]');
      for (const sel of [...w.shadowRoot.querySelectorAll('select')].filter(live)) {
        const start = sel.value;
        for (const o of [...sel.options].filter((x) => !x.disabled)) {
          if (!live(sel)) break;
          sel.value = o.value;
          fire(sel);
          await after(id);
        }
        if (live(sel)) { sel.value = start; fire(sel); await after(id); }
      }
      for (const box of [...w.shadowRoot.querySelectorAll('input[type="checkbox"]')].filter(live)) {
        box.click(); await after(id);
        if (live(box)) { box.click(); await after(id); }
      }
      const radios = [...w.shadowRoot.querySelectorAll('input[type="radio"]')].filter(live);
      for (const r of radios) if (live(r) && !r.checked) { r.click(); await after(id); }
      for (const r of radios) if (live(r) && r.defaultChecked) { r.click(); await after(id); }
      for (const inp of [...w.shadowRoot.querySelectorAll('input[type="range"], input[type="number"]')].filter(live)) {
        const start = inp.value;
        const ends = [inp.min, inp.max].filter((x) => x !== '' && Number.isFinite(Number(x)) && Math.abs(Number(x)) < 1e6);
        if (!ends.length) ends.push(String(Number(start) + 1));
        for (const v of ends) {
          if (!live(inp)) break;
          inp.value = v;
          fire(inp);
          await after(id);
        }
        if (live(inp)) { inp.value = start; fire(inp); await after(id); }
      }
    }
    return { drawn, steps, perChapter };
  });
  // (every chapter with controls was stepped: a chapter whose controls moved would show here)
  for (const id of ['core-attention', 'why-qkv', 'scaling', 'multi-head', 'causal-dropout', 'positional-encoding', 'cost', 'training'])
    assert.ok((perChapter[id] ?? 0) >= 2, `${id}: ${perChapter[id] ?? 0} steps`);
  assert.ok(steps > 50, `${steps} steps`);
  assertFontsKeep(drawn);
  const report = await page.evaluate(() => [...document.querySelectorAll('attention-explorer')].map((w) => ({
    id: w.getAttribute('chapter'),
    error: [...w.shadowRoot.querySelectorAll('.chapter-error')].filter((e) => !e.hidden).map((e) => e.textContent).join(' '),
  })));
  for (const r of report) assert.equal(r.error, '', `${r.id}: ${r.error}`);
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await close();
});

// The one file: a basic chapter makes no request beyond the page and the script itself (its
// core, KaTeX and fonts are inside); the file's gzip size is reported (make bench-page
// measures a widget page against issue 13's 400 KB).
test('the one-file widget: a basic chapter requests nothing but the script; its size', async (t) => {
  const requests = [];
  const { page, errors, close } = await openIsolated(browser, `${server.url}fixtures/two-widgets.html`, {
    route: (ctx) => ctx.on('request', (r) => requests.push(new URL(r.url()).pathname)),
  });
  await widgetsReady(page);
  await page.evaluate(() => document.fonts.ready);
  await frames(page);
  await afterTimers(page, 300); // anything fetched late (fonts, a lazy import) would be seen by now
  assert.deepEqual(requests.filter((p) => p !== '/favicon.ico'), ['/fixtures/two-widgets.html', '/fixtures/attention-explorer.js']);
  assert.deepEqual(await widgetCells(page, '#b', 'P', 2), ['0.818', '0.182', '0.000']);
  const file = await readFile(join(root, 'web', 'dist', 'attention-explorer.js'));
  const gz = gzipSync(file, { level: 9 }).length;
  t.diagnostic(`attention-explorer.js: ${(file.length / 1024).toFixed(0)} KB raw, ${(gz / 1024).toFixed(0)} KB gzip (issue 13: a widget page <= 400 KB gzip)`);
  assert.deepEqual(errors, []);
  await close();
});

// An engine without WebAssembly SIMD (WebAssembly.validate refuses the probe).
const NO_SIMD = () => { WebAssembly.validate = () => false; };

test('without WebAssembly SIMD: the scalar core from attention-explorer-scalar.js next to the widget, the same numbers', async () => {
  const { page, errors, foreign, close } = await openIsolated(browser, `${server.url}fixtures/two-widgets.html`, { init: NO_SIMD });
  await widgetsReady(page);
  assert.deepEqual((await fetched(page)).filter((p) => /attention-explorer-scalar/.test(p)), ['/fixtures/attention-explorer-scalar.js']);
  assert.equal(await page.evaluate(() => document.querySelector('#a').attn.simd), 'scalar');
  assert.deepEqual(await widgetCells(page, '#b', 'P', 2), ['0.818', '0.182', '0.000']);
  assert.equal(await page.evaluate(() => window.__wasmInstances), 1);
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await close();
});

test('without SIMD and without attention-explorer-scalar.js: the widget says what is missing', async () => {
  const { page, close } = await openIsolated(browser, `${server.url}fixtures/two-widgets.html`, {
    init: NO_SIMD,
    route: (ctx) => ctx.route('**/attention-explorer-scalar.js', (r) => r.fulfill({ status: 404, body: 'not found' })),
  });
  await page.waitForFunction(() => document.querySelector('#a').shadowRoot.querySelector('.boot-status.error'));
  const status = await page.evaluate(() => document.querySelector('#a').shadowRoot.querySelector('.boot-status').textContent);
  assert.match(status, /no WebAssembly SIMD.*attention-explorer-scalar\.js.*next to attention-explorer\.js/);
  // `ready` rejects with what the widget shows (docs/embedding.md, Scripting): it does not hang
  assert.deepEqual(await page.evaluate(readyOutcomes, '#a, #b'), [
    { id: 'a', state: 'rejected', error: true, message: status },
    { id: 'b', state: 'rejected', error: true, message: await page.evaluate(() => document.querySelector('#b').shadowRoot.querySelector('.boot-status').textContent) },
  ]);
  await close();
});

test('the one file without attention-explorer-more.js: the three chapters there say so in place, and their `ready` rejects with it', async () => {
  await writeFile(join(gen, 'no-more.html'), widgetsHtml({ ids: ['core-attention', 'training', 'trained-heads', 'real-models'], langs: ['en', 'ko'] }));
  const { page, errors, close } = await openIsolated(browser, `${server.url}generated/no-more.html`, {
    route: (ctx) => ctx.route('**/attention-explorer-more.js', (r) => r.fulfill({ status: 404, body: 'not found' })),
  });
  await page.waitForFunction(() => document.querySelectorAll('attention-explorer').length === 8
    && [...document.querySelectorAll('attention-explorer:not([chapter="core-attention"])')].every((w) => w.shadowRoot.querySelector('.boot-status.error')));
  const shown = await page.$$eval('attention-explorer', (ws) => ws.map((w) => w.shadowRoot.querySelector('.boot-status.error')?.textContent ?? null));
  const outcomes = await page.evaluate(readyOutcomes, 'attention-explorer');
  outcomes.forEach((o, i) => {
    if (o.id === 'core-attention') assert.deepEqual(o, { id: o.id, state: 'fulfilled', self: true });
    else {
      assert.match(shown[i], /attention-explorer-more\.js/);
      assert.deepEqual(o, { id: o.id, state: 'rejected', error: true, message: shown[i] }, `${o.id}: ready rejects with the message shown`);
    }
  });
  // (the browser logs the 404 and the widget the failure; nothing else, no unhandled rejection)
  assert.deepEqual(errors.filter((e) => !/is in attention-explorer-more\.js|status of 404/.test(e)), []);
  await close();
});

test('trained-heads in the one file without text-model-results.json: the chapter names that file, and `ready` resolves (the chapter is drawn)', async () => {
  await writeFile(join(gen, 'no-results.html'), widgetsHtml({ ids: ['trained-heads'], langs: ['en', 'ko'] }));
  const { page, close } = await openIsolated(browser, `${server.url}generated/no-results.html`, {
    route: (ctx) => ctx.route('**/text-model-results.json', (r) => r.fulfill({ status: 404, body: 'not found' })),
  });
  await page.waitForFunction(() => [...document.querySelectorAll('attention-explorer')].length === 2
    && [...document.querySelectorAll('attention-explorer')].every((w) => w.shadowRoot.querySelector('[data-failure="true"]')));
  const lines = await page.$$eval('attention-explorer', (ws) => ws.map((w) => w.shadowRoot.querySelector('[data-failure="true"]').textContent));
  assert.match(lines[0], /\(HTTP 404\)\. The page needs the file text-model-results\.json next to its script\.$/);
  assert.match(lines[1], /\(HTTP 404\)\. 스크립트와 같은 폴더에 text-model-results\.json 파일이 있어야 합니다\.$/);
  assert.ok(lines.every((l) => !l.includes('text-model.bin')), lines.join(' | '));
  assert.deepEqual(await page.evaluate(readyOutcomes, 'attention-explorer'), ['trained-heads', 'trained-heads'].map((id) => ({ id, state: 'fulfilled', self: true })));
  await close();
});

test('anywidget: render({model, el}) from the same file, loaded from a blob: URL as anywidget does', async () => {
  await writeFile(join(gen, 'anywidget.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>anywidget</title></head>
    <body><div id="out"></div></body></html>`);
  const { page, errors, close } = await openIsolated(browser, `${server.url}generated/anywidget.html`);
  await page.evaluate(async () => {
    const src = await (await fetch('./attention-explorer.js')).text();
    const url = URL.createObjectURL(new Blob([src], { type: 'text/javascript' }));
    const { default: widget } = await import(url);
    // a minimal model with the anywidget interface: get, set, on, off, save_changes
    const traits = { chapter: 'core-attention', lang: 'en', step: 'softmax', state: '' };
    const handlers = {};
    window.model = {
      saved: 0,
      get: (k) => traits[k],
      set: (k, v) => { traits[k] = v; for (const h of handlers[`change:${k}`] ?? []) h(); },
      on: (ev, h) => (handlers[ev] ??= []).push(h),
      off: (ev, h) => (handlers[ev] = (handlers[ev] ?? []).filter((x) => x !== h)),
      save_changes() { this.saved++; },
    };
    window.cleanup = widget.render({ model: window.model, el: document.getElementById('out') });
  });
  await widgetsReady(page);
  assert.deepEqual(await widgetCells(page, 'attention-explorer', 'P', 3), ['0.114', '0.042', '0.844']);
  assert.match(await page.evaluate(() => document.querySelector('attention-explorer').shadowRoot.querySelector('h2').textContent), /Core attention/);
  // the widget's edits flow back into the model's `state` trait
  await page.fill('attention-explorer [data-grid="input-Q"] tbody tr:nth-child(3) td:nth-of-type(4) input', '5');
  assert.equal(await page.evaluate(() => window.model.get('state')), 'Q:~19_5');
  assert.ok(await page.evaluate(() => window.model.saved) > 0);
  // a trait change from Python re-renders with the new value
  await page.evaluate(() => window.model.set('lang', 'ko'));
  await page.waitForFunction(() => document.querySelector('attention-explorer').dataset.ready === 'true' &&
    !/Core attention/.test(document.querySelector('attention-explorer').shadowRoot.querySelector('h2')?.textContent ?? 'Core attention'));
  assert.equal(await page.inputValue('attention-explorer [data-grid="input-Q"] tbody tr:nth-child(3) td:nth-of-type(4) input'), '5');
  // training and trained-heads live in attention-explorer-more.js next to the file: from a
  // blob: URL there is no folder, and the widget says what it would need
  await page.evaluate(() => window.model.set('chapter', 'trained-heads'));
  await page.waitForFunction(() => document.querySelector('attention-explorer').shadowRoot.querySelector('.boot-status.error'));
  assert.match(await page.evaluate(() => document.querySelector('attention-explorer').shadowRoot.querySelector('.boot-status').textContent),
    /^이 장을 불러오지 못했습니다\. 이 장은 위젯 스크립트 옆의 attention-explorer-more\.js에 있습니다/);
  // after that re-render, `ready` is its outcome: rejected with the message shown
  const [outcome] = await page.evaluate(readyOutcomes, 'attention-explorer');
  assert.equal(outcome.state, 'rejected');
  assert.match(outcome.message, /^이 장을 불러오지 못했습니다\. 이 장은 위젯 스크립트 옆의 attention-explorer-more\.js에 있습니다/);
  await page.evaluate(() => window.cleanup());
  assert.equal(await page.evaluate(() => document.querySelectorAll('attention-explorer').length), 0);
  assert.deepEqual(errors.filter((e) => !/is in attention-explorer-more\.js/.test(e)), []); // (the widget logs that failure too)
  await close();
});

// The light widget (dist/widget/): the same element as a folder, chapters in chunks, the core
// without the trainer and KaTeX's fonts as files next to it, each fetched only when used.
test('the light widget: the same numbers from a folder; the core without the trainer, chapters when shown, fonts from the folder', async () => {
  await writeFile(join(gen, 'light.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>light</title>
    <script type="module" src="/widget/attention-explorer.js"></script></head>
    <body><attention-explorer id="a" chapter="core-attention" lang="en" mask="none" step="softmax"></attention-explorer>
    <attention-explorer id="b" chapter="core-attention" lang="ko"></attention-explorer></body></html>`);
  const { page, errors, foreign, close } = await openIsolated(browser, `${server.url}generated/light.html`);
  await widgetsReady(page);
  assert.deepEqual(await widgetCells(page, '#b', 'P', 2), ['0.818', '0.182', '0.000']);
  assert.equal(await page.evaluate(() => document.querySelector('#a').attn.simd), 'wasm-simd128');
  await page.waitForFunction(() => document.fonts.status === 'loaded');
  const files = await fetched(page);
  assert.deepEqual(files.filter((p) => /\.wasm$/.test(p)), ['/widget/attn-core-lite.wasm'], 'the core without the trainer only');
  assert.ok(!files.some((p) => /attention-explorer-scalar|^\/attention-explorer\.js/.test(p)), 'nothing of the one-file widget');
  assert.ok(files.some((p) => p === '/widget/fonts/KaTeX_Main-Regular.woff2'), 'KaTeX fonts from the folder');
  // the first formula's face is KaTeX's, loaded
  assert.ok(await page.evaluate(() => document.fonts.check('16px KaTeX_Main')));
  // another chapter in a widget added later is imported then
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<attention-explorer id="c" chapter="multi-head" lang="en"></attention-explorer>'));
  await widgetsReady(page);
  assert.ok((await fetched(page)).filter((p) => p.startsWith('/widget/chunk-')).length > files.filter((p) => p.startsWith('/widget/chunk-')).length);
  assert.equal(await page.evaluate(() => window.__wasmInstances), 1);
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await close();
});

test('the light widget without WebAssembly SIMD: the scalar core from its folder, the same numbers', async () => {
  const { page, errors, close } = await openIsolated(browser, `${server.url}generated/light.html`, { init: NO_SIMD });
  await widgetsReady(page);
  assert.equal(await page.evaluate(() => document.querySelector('#a').attn.simd), 'scalar');
  assert.deepEqual((await fetched(page)).filter((p) => /\.wasm$/.test(p)), ['/widget/attn-core-scalar.wasm']);
  assert.deepEqual(await widgetCells(page, '#b', 'P', 2), ['0.818', '0.182', '0.000']);
  assert.deepEqual(errors, []);
  await close();
});
