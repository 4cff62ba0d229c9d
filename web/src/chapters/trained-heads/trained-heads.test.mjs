// The served page in headless Chromium: the trained-heads chapter (the project's text
// model loaded from dist/text-model.bin, every head on the learner's sentence).
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, cells, text, num, openIsolated } from '../../../../tests/e2e/harness.mjs';
import ko from './ko.js';

const { openChapter, browser, server } = await harness();
const S = '#trained-heads';

// Opens the chapter and waits for the model and the sentence's own measurements.
async function ready(query = '') {
  const r = await openChapter('trained-heads', { query });
  await r.page.waitForSelector(`${S} [data-heads="small"] button canvas`);
  await measured(r.page);
  return r;
}
// The sentence drawn has its roles measured (the chapter renders the sentence and marks its
// roles busy in one render, then done when the worker answers).
const measured = (page) => page.waitForSelector(`${S} [data-check="sentence-roles"][data-state="done"]:not([hidden])`);
const rowLabels = (page, grid) => page.$$eval(`[data-grid="${grid}"] tbody th`, (ns) => ns.map((n) => n.textContent));
const highlighted = (page, grid) => page.$$eval(`[data-grid="${grid}"] tbody tr`, (rs) => rs.findIndex((r) => r.querySelector('td.hl')));

test('trained-heads: every head of the trained model on the Korean default and a typed sentence', async () => {
  const { page, errors } = await ready();
  // 2 layers × 4 heads, one small map each, painted
  assert.equal(await page.$$eval(`${S} [data-heads="small"] canvas`, (cs) => cs.length), 8);
  assert.ok(await page.$eval(`${S} [data-heads="small"] canvas`, (c) => c.width > 1 && c.getContext('2d').getImageData(0, 0, 1, 1).data[3] > 0));
  // characters, not jamo: <s> then one row per character typed
  const ko = await rowLabels(page, 'th-P');
  assert.deepEqual(ko.slice(0, 4), ['<s>', '고', '양', '이']);
  const P = (await cells(page, 'th-P', 3)).map(num);
  assert.ok(Math.abs(P.reduce((a, b) => a + b, 0) - 1) < 0.02, `row of 양 sums to 1: ${P}`);
  // roles measured on held-out text; the count of heads with no role is the core's
  assert.match(await text(page, `${S} [data-check="roles"]`), /8개/);
  assert.equal(await page.$$eval(`${S} [data-table="roles"] tbody tr`, (r) => r.length), 8);
  // the rows come in the order of the held-out role, and the caption says so
  assert.match(await text(page, `${S} [data-table="roles"] caption`), /역할 순서/);
  const order = ['앞 토큰', '첫 토큰(싱크)', '국소', '귀납', '이름 붙일 역할 없음'];
  // (a label carries its score: "국소 0.79", "이름 붙일 역할 없음 (국소 0.67 < 0.70)")
  const heldRoles = await page.$$eval(`${S} [data-table="roles"] tbody tr`, (rs) => rs.map((r) => r.cells[1].textContent.replace(/ \(.*\)$| [\d.]+$/, '')));
  assert.ok(heldRoles.every((r) => order.includes(r)), heldRoles.join(', '));
  assert.deepEqual(heldRoles, [...heldRoles].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
  const diff = await text(page, `${S} [data-check="difference"]`);
  assert.match(diff, /「\.」/);
  // a typed English sentence; its roles are measured in a worker, which may answer within a
  // frame: every state the status takes is recorded as it is written, not polled
  const roles = `${S} [data-check="sentence-roles"]`;
  await page.evaluate(([sel, tableSel]) => {
    const n = document.querySelector(sel);
    const seen = (window.__roleStates = []);
    new MutationObserver(() => seen.push({
      state: n.dataset.state, busy: n.getAttribute('aria-busy'),
      tableBusy: document.querySelector(tableSel).getAttribute('aria-busy'), text: n.textContent,
    })).observe(n, { attributes: true, attributeFilter: ['data-state', 'aria-busy'] });
  }, [roles, `${S} [data-table="roles"]`]);
  await page.fill(`${S} textarea[data-control="text"]`, 'The cat sat on the mat.');
  await page.waitForFunction((s) => document.querySelector(`[data-grid="th-P"] tbody th:nth-of-type(1)`) &&
    document.querySelectorAll('[data-grid="th-P"] tbody tr').length === 24, S);
  const en = await rowLabels(page, 'th-P');
  assert.deepEqual(en.slice(0, 5), ['<s>', 'T', 'h', 'e', '␣']);
  assert.notEqual(await text(page, `${S} [data-check="difference"]`), diff);
  // the sentence's roles: busy (said and aria-busy) until they come
  await measured(page);
  const states = await page.evaluate(() => window.__roleStates);
  const busy = states.find((x) => x.state === 'busy');
  assert.ok(busy, JSON.stringify(states));
  assert.equal(busy.busy, 'true');
  assert.equal(busy.tableBusy, 'true');
  assert.match(busy.text, /재는 중/);
  assert.equal(await page.getAttribute(roles, 'data-state'), 'done');
  assert.equal(await page.getAttribute(roles, 'aria-busy'), 'false');
  assert.match(await text(page, roles), /헤드 8개 가운데/);
  // every role is counted: the counts by role and the heads with none add up to the 8 heads
  const [prev, first, local, induction, total, none] = (await text(page, roles)).match(/\d+/g).map(Number);
  assert.equal(total, 8);
  assert.equal(prev + first + local + induction + none, total, await text(page, roles));
  assert.ok(page.workers().some((w) => w.url().endsWith('/sentence-heads.js')), page.workers().map((w) => w.url()).join(' '));
  assert.deepEqual(errors, []);
  await page.close();
});

test('trained-heads: a click or the keyboard picks the row; a head map picks the head', async () => {
  const { page, errors } = await ready();
  const last = (await rowLabels(page, 'th-P')).length - 1;
  assert.equal(await highlighted(page, 'th-P'), last); // the last character by default
  const every = await cells(page, 'th-every', 1);
  await page.click(`${S} [data-query="chars"] button[data-unit="2"]`);
  assert.equal(await highlighted(page, 'th-P'), 2);
  assert.equal(await highlighted(page, 'th-view'), 2);
  assert.notDeepEqual(await cells(page, 'th-every', 1), every);
  assert.match(await text(page, `${S} [data-check="difference"]`), /「양」/);
  // keyboard only: focus the next character's button and press Enter
  await page.focus(`${S} [data-query="chars"] button[data-unit="4"]`);
  await page.keyboard.press('Enter');
  assert.equal(await highlighted(page, 'th-P'), 4);
  assert.equal(await page.getAttribute(`${S} [data-query="chars"] button[data-unit="4"]`, 'aria-pressed'), 'true');
  // one tab stop among the characters; ←/→, Home and End move it, and the row follows
  const chip = (i) => `${S} [data-query="chars"] button[data-unit="${i}"]`;
  const tabStops = () => page.$$eval(`${S} [data-query="chars"] button`, (bs) => bs.filter((b) => b.tabIndex === 0).map((b) => Number(b.dataset.unit)));
  assert.deepEqual(await tabStops(), [4]);
  const focused = () => page.evaluate(() => Number(document.activeElement?.dataset.unit));
  await page.keyboard.press('ArrowRight');
  assert.equal(await focused(), 5);
  assert.equal(await highlighted(page, 'th-P'), 5);
  assert.equal(await page.getAttribute(chip(5), 'aria-pressed'), 'true');
  assert.deepEqual(await tabStops(), [5]);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focused(), 3);
  assert.equal(await highlighted(page, 'th-view'), 3);
  await page.keyboard.press('Home');
  assert.equal(await focused(), 0);
  await page.keyboard.press('ArrowLeft'); // stays at <s>
  assert.equal(await focused(), 0);
  assert.equal(await highlighted(page, 'th-P'), 0);
  await page.keyboard.press('End');
  assert.equal(await focused(), last);
  assert.equal(await highlighted(page, 'th-P'), last);
  // Tab leaves the characters at once (one tab stop), Shift+Tab comes back to the chosen one
  await page.keyboard.press('Tab');
  assert.ok(await page.evaluate(() => !document.activeElement?.closest('[data-query="chars"]')));
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focused(), last);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await highlighted(page, 'th-P'), last - 1);
  // another head: its map is pressed, the enlarged matrix and the every-head row follow
  const before = await cells(page, 'th-P', 5);
  await page.focus(`${S} [data-heads="small"] button[data-head="5"]`);
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute(`${S} [data-heads="small"] button[data-head="5"]`, 'aria-pressed'), 'true');
  assert.notDeepEqual(await cells(page, 'th-P', 5), before);
  assert.equal(await highlighted(page, 'th-every'), 5);
  // rollout instead of value norms
  const norm = await cells(page, 'th-view', 5);
  await page.check(`${S} input[data-control="view-rollout"]`);
  assert.notDeepEqual(await cells(page, 'th-view', 5), norm);
  assert.deepEqual(errors, []);
  await page.close();
});

test('trained-heads: switching a head off changes the loss on the sentence and on held-out text', async () => {
  const { page, errors } = await ready();
  await page.selectOption(`${S} select[data-control="off"]`, '3');
  const line = await text(page, `${S} [data-check="ablation"]`);
  const [sentence, sentenceOff, , held, heldOff] = line.match(/[+−-]?\d+\.\d+/g).map(num);
  assert.ok(sentence > 0 && sentenceOff > 0 && sentenceOff !== sentence, line);
  assert.ok(heldOff > held, `held-out loss rises with the head off: ${line}`);
  // the change shown is the difference of the two numbers shown beside it
  for (const off of ['0', '3', '5']) {
    await page.selectOption(`${S} select[data-control="off"]`, off);
    const l = await text(page, `${S} [data-check="ablation"]`);
    const [a, b, d, c, e, f] = l.match(/[+−-]?\d+\.\d+/g).map(num);
    assert.ok(Math.abs(b - a - d) < 1e-9 && Math.abs(e - c - f) < 1e-9, l);
  }
  await page.selectOption(`${S} select[data-control="off"]`, '6');
  assert.notEqual(await text(page, `${S} [data-check="ablation"]`), line);
  assert.deepEqual(errors, []);
  await page.close();
});

test('trained-heads: with a layer-1 head off the layer-2 maps change, and the head off is marked', async () => {
  const { page, errors } = await ready();
  const pixels = () => page.$$eval(`${S} [data-heads="small"] canvas`, (cs) => cs.map((c) => Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data).join(',')));
  const P = () => page.$$eval('[data-grid="th-P"] tbody td', (ts) => ts.map((t) => t.textContent).join(' '));
  const before = await pixels();
  await page.click(`${S} [data-heads="small"] button[data-head="4"]`); // layer 2 head 1 enlarged
  const enlarged = await P();
  await page.selectOption(`${S} select[data-control="off"]`, '1'); // layer 1 head 2 off
  await page.waitForFunction((s) => document.querySelector(`${s} [data-heads="small"] button[data-head="1"]`)?.dataset.off === 'true', S);
  const after = await pixels();
  for (let h = 0; h < 4; h++) assert.equal(after[h], before[h], `layer 1 head ${h + 1}: its map is unchanged`);
  for (let h = 4; h < 8; h++) assert.notEqual(after[h], before[h], `layer 2 head ${h - 3}: its map moves`);
  assert.notEqual(await P(), enlarged, 'the enlarged layer-2 head moves too');
  assert.match(await page.getAttribute(`${S} [data-heads="small"] button[data-head="1"]`, 'aria-label'), /꺼짐/);
  assert.match(await text(page, `${S} [data-check="ablation"]`), /점선/);
  await page.selectOption(`${S} select[data-control="off"]`, '-1');
  await page.waitForFunction((s) => document.querySelector(`${s} [data-heads="small"] button[data-head="1"]`)?.dataset.off === 'false', S);
  assert.deepEqual(await pixels(), before, 'switched back on: the maps as before');
  assert.deepEqual(errors, []);
  await page.close();
});

test('trained-heads: a link whose sentence is only invisible characters gets the field\'s message, and the default sentence is drawn', async () => {
  const { page: plain } = await ready();
  const rows = await rowLabels(plain, 'th-P');
  await plain.close();
  // "text:$…" is the link's form of a string (kit/url-state.js): zero-width space, joiner, BOM
  const { page, errors } = await ready('trained-heads=text:$*E2*80*8B*E2*80*8D*EF*BB*BF');
  const field = `${S} textarea[data-control="text"]`;
  const msg = `${S} #trained-heads-text-error`;
  assert.match(await text(page, msg), /한 글자 이상/);
  assert.equal(await page.getAttribute(field, 'aria-invalid'), 'true');
  assert.equal(await page.inputValue(field), '\u200B\u200D\uFEFF');
  // the message names the sentence the heads are drawn for (a link's fallback: the default)
  assert.ok((await text(page, msg)).includes(`“${ko.defaultText}”`), await text(page, msg));
  assert.deepEqual(await rowLabels(page, 'th-P'), rows, 'the heads are those of the default sentence');
  // leaving the field puts the default sentence back, as after typing
  await page.focus(field);
  await page.$eval(field, (f) => f.blur());
  assert.ok((await page.inputValue(field)).length > 3);
  assert.equal(await page.isHidden(msg), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('trained-heads: a link naming a head, a switched-off head or a view the model lacks falls back, with a notice', async () => {
  for (const [query, want] of [
    ['head:42', /head에는 0–7만 쓸 수 있습니다\(42은\(는\) 안 됩니다\)/], ['head:-1', /head에는 0–7만.*-1/], ['head:1.5', /head에는 0–7만.*1\.5/],
    ['off:8', /off에는 -1–7만.*8/], ['off:99', /off에는 -1–7만.*99/], ['view:sideways', /view에는 norm, rollout만.*sideways/],
    ['focus:2.5', /focus에는 -1, 0, 1, …만.*2\.5/],
  ]) {
    const { page, errors } = await ready(`trained-heads=${query}`);
    assert.equal(await page.isVisible('#notice'), true, query);
    assert.match(await page.textContent('#notice'), want, query);
    // the defaults: layer 1 head 1 enlarged, no head off, the value-norm view; nothing unfilled
    assert.ok((await page.$$eval(`${S} h3`, (hs) => hs.map((h) => h.textContent))).some((t) => /헤드 하나: 1층 1번/.test(t)), query);
    assert.equal(await page.getAttribute(`${S} [data-heads="small"] button[data-head="0"]`, 'aria-pressed'), 'true', query);
    assert.equal(await page.inputValue(`${S} select[data-control="off"]`), '-1', query);
    assert.equal(await page.isChecked(`${S} input[data-control="view-norm"]`), true, query);
    const all = await text(page, S);
    assert.doesNotMatch(all, /(?<![\\\w])\{[a-zA-Z]+\}/, `${query}: no placeholder left unfilled`);
    assert.doesNotMatch(all, /Cannot|undefined|missing text|계산할 수 없습니다/, query);
    assert.deepEqual(errors, [], query);
    await page.close();
  }
});

test('trained-heads: tabs and invisible characters get a visible chip with a name', async () => {
  const { page, errors } = await ready();
  await page.fill(`${S} textarea[data-control="text"]`, 'a\tb\u200Bc\u2060d');
  await page.waitForFunction((s) => document.querySelectorAll(`${s} [data-query="chars"] button`).length === 8, S);
  const chips = await page.$$eval(`${S} [data-query="chars"] button`, (bs) => bs.map((b) => [b.textContent, b.getAttribute('aria-label')]));
  assert.deepEqual(chips.map(([t]) => t), ['<s>', 'a', '⇥', 'b', 'U+200B', 'c', 'U+2060', 'd']);
  for (const [t, label] of chips) {
    assert.ok(t.trim().length > 0, 'no blank chip');
    assert.doesNotMatch(label, /[\t\u200B\u2060]/, `the name has no invisible character: ${JSON.stringify(label)}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('trained-heads: empty, too long and unknown text get a message at the field', async () => {
  const { page, errors } = await ready();
  const field = `${S} textarea[data-control="text"]`;
  const msg = `${S} #trained-heads-text-error`;
  let rows = (await rowLabels(page, 'th-P')).length;
  await page.fill(field, '   ');
  assert.match(await text(page, msg), /한 글자 이상/);
  assert.equal(await page.getAttribute(field, 'aria-invalid'), 'true');
  assert.equal((await rowLabels(page, 'th-P')).length, rows); // the last sentence stays
  // invisible characters only (zero-width space, joiner, BOM) are no sentence either
  await page.fill(field, 'x');
  assert.equal(await page.isHidden(msg), true);
  await page.waitForFunction(() => document.querySelectorAll('[data-grid="th-P"] tbody th').length === 2); // drawn once typing paused
  rows = 2;
  await page.fill(field, '\u200B\u200D\uFEFF \u200B');
  assert.match(await text(page, msg), /한 글자 이상/);
  assert.equal(await page.getAttribute(field, 'aria-invalid'), 'true');
  // the heads did not take the invisible text: every sentence drawn from now until the next
  // one typed is recorded (no timer is left once a refused text cleared it)
  assert.equal((await rowLabels(page, 'th-P')).length, rows);
  await page.evaluate(() => {
    const drawn = (window.__drawn = []);
    const grid = document.querySelector('[data-grid="th-P"]');
    new MutationObserver(() => drawn.push(grid.querySelectorAll('tbody th').length)).observe(grid, { subtree: true, childList: true });
  });
  await page.fill(field, 'xy');
  await page.waitForFunction(() => document.querySelectorAll('[data-grid="th-P"] tbody th').length === 3);
  assert.deepEqual([...new Set(await page.evaluate(() => window.__drawn))].filter((n) => n !== rows && n !== 3), [], 'no other sentence drawn');
  // the message quotes the sentence drawn with its invisible characters named, as its chips
  await page.fill(field, 'a\u0007b');
  await page.waitForFunction(() => document.querySelectorAll('[data-grid="th-P"] tbody th').length === 4);
  await page.fill(field, '');
  assert.match(await text(page, msg), /“a U\+0007 b”/);
  await page.fill(field, '가'.repeat(400));
  assert.match(await text(page, msg), /400자/);
  // nothing of a text too long is used (and the message says so): the heads stay as they were
  assert.match(await text(page, msg), /아무것도 쓰지 않았습니다/);
  assert.match(await text(page, msg), /“a U\+0007 b”/);
  assert.equal((await rowLabels(page, 'th-P')).length, 4);
  // leaving the field keeps the long text (nothing pasted is lost) and its message
  await page.$eval(field, (f) => f.blur());
  assert.notEqual(await page.evaluate(() => document.activeElement?.tagName), 'TEXTAREA');
  assert.equal([...await page.inputValue(field)].length, 400);
  assert.match(await text(page, msg), /400자/);
  // a sentence longer than the model's window is read in part, and says so
  await page.fill(field, '고양이가 매트 위에 앉았다. 고양이는 곧 잠들었고 꿈을 꾸었다. 고양이는 다시 일어났다.');
  assert.equal(await page.isHidden(msg), true);
  // (the heads follow the sentence once typing pauses)
  const reads = (re) => page.waitForFunction(([sel, src]) => new RegExp(src).test(document.querySelector(sel)?.textContent ?? ''),
    [`${S} [data-check="reading"]`, re.source]);
  await reads(/63개 토큰/);
  // characters outside the vocabulary are named
  await page.fill(field, 'cat 🐱 sat');
  await reads(/🐱/);
  // one character per grapheme: an emoji joined with ZWJ or given a skin tone is one chip and
  // one row, its code points' tokens grouped like a syllable's jamo (each row still sums to 1)
  await page.fill(field, 'a👩‍💻b👍🏽 고');
  const chipsFor = ['<s>', 'a', '👩‍💻', 'b', '👍🏽', '␣', '고'];
  await page.waitForFunction(([sel, n]) => document.querySelectorAll(sel).length === n,
    [`${S} [data-query="chars"] button`, chipsFor.length]);
  assert.deepEqual(await page.$$eval(`${S} [data-query="chars"] button`, (bs) => bs.map((b) => b.textContent)), chipsFor);
  assert.deepEqual(await rowLabels(page, 'th-P'), chipsFor);
  for (const r of [3, 5, 7]) { // 1-based: the rows of 👩‍💻, 👍🏽 and 고
    const row = (await cells(page, 'th-P', r)).map(num);
    assert.ok(Math.abs(row.reduce((x, y) => x + y, 0) - 1) < 0.04, `row ${r} sums to 1: ${row}`);
  }
  await reads(/👩‍💻/);
  // the message names the last sentence drawn
  await page.fill(field, 'x');
  await page.waitForFunction(() => document.querySelectorAll('[data-grid="th-P"] tbody th').length === 2);
  await page.fill(field, '');
  assert.match(await text(page, msg), /“x”/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('trained-heads: English', async () => {
  const { page, errors } = await ready('lang=en');
  assert.match(await text(page, `${S} h2`), /trained model/);
  assert.deepEqual((await rowLabels(page, 'th-P')).slice(0, 4), ['<s>', 'T', 'h', 'e']);
  assert.match(await text(page, `${S} [data-check="roles"]`), /of 8 heads have no nameable role/);
  // Scores beside the labels, the thresholds once, and what a negative Δ means (issue 26)
  const caps = await page.$$eval(`${S} [data-heads="small"] button span`, (ns) => ns.map((n) => n.textContent));
  assert.ok(caps.every((c) => /· (local|previous token|first token \(sink\)|induction) \d\.\d\d$|· no nameable role \(\w[\w ()]* \d\.\d\d < \d\.\d\d\)$/.test(c)), caps.join(' | '));
  assert.ok(caps.some((c) => /L2 H3 · no nameable role \(local 0\.67 < 0\.70\)/.test(c)), caps.join(' | '));
  const th = await text(page, `${S} [data-check="thresholds"]`);
  assert.match(th, /previous token 0\.40, first token 0\.50, local 0\.70, induction 0\.30/);
  assert.match(th, /no head reaches previous token \(the highest score is L1 H4's 0\.39, under 0\.40\)/);
  assert.match(th, /L2 H3 reaches none \(local 0\.67 is under 0\.70\)/);
  const sentenceRole = await page.$$eval(`${S} [data-table="roles"] tbody tr`, (rs) => rs.map((r) => r.cells[7].textContent));
  assert.ok(sentenceRole.every((c) => /\d\.\d\d/.test(c)), `the sentence's roles carry their scores: ${sentenceRole}`);
  // "The cat sat on the mat.": switching L1 H3 off lowers the loss; the page says what that means
  const neg = `${S} [data-check="negative-delta"]`;
  assert.equal(await page.isVisible(neg), true);
  assert.match(await text(page, neg), /A Δ below zero \(L\d H\d on (your sentence|the held-out text): −0\.\d\d\) means the loss went down with the head switched off/);
  await page.fill(`${S} textarea[data-control="text"]`, 'Hello, world!');
  await page.waitForFunction((s) => document.querySelector(`${s} [data-check="sentence-roles"]`).dataset.state === 'done'
    && document.querySelectorAll('[data-grid="th-P"] tbody th').length === 14, S);
  assert.equal(await page.isVisible(neg), false, 'no Δ below zero on this sentence: no explanation');
  await page.fill(`${S} textarea[data-control="text"]`, '');
  assert.match(await text(page, `${S} #trained-heads-text-error`), /at least one character/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('trained-heads: <attention-explorer chapter="trained-heads"> fetches the weights next to the widget', async () => {
  // docs/examples/plain.html loads the widget from its folder; the server puts the widget
  // and the model's files next to it, as a teacher copies them
  const { page, errors, foreign, close } = await openIsolated(browser, `${server.url}examples/plain.html`);
  await page.evaluate(() => {
    const w = document.createElement('attention-explorer');
    w.id = 'th';
    w.setAttribute('chapter', 'trained-heads');
    w.setAttribute('lang', 'en');
    document.body.append(w);
  });
  await page.waitForFunction(() => document.querySelector('#th')?.shadowRoot?.querySelectorAll('[data-heads="small"] canvas').length === 8);
  const labels = await page.evaluate(() => [...document.querySelector('#th').shadowRoot.querySelectorAll('[data-grid="th-P"] tbody th')].map((n) => n.textContent));
  assert.deepEqual(labels.slice(0, 4), ['<s>', 'T', 'h', 'e']);
  const fetched = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
  assert.ok(fetched.includes('/examples/text-model.bin'), fetched.join(' '));
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
  await close();
});

test('trained-heads: a results file of the wrong content, or a truncated file, is refused whole, with the file and what is wrong, in both languages', async () => {
  // valid JSON, not what the chapter reads: no field it uses, no heads, a head too few, a
  // number too large for a double; each answer for text-model-results.json in turn
  const good = await (await fetch(`${server.url}text-model-results.json`)).json();
  const cases = [
    ['{}', /heldOut is missing/, /heldOut 항목이 없습니다/],
    [JSON.stringify({ ...good, heads: [] }), /its list of heads is empty/, /헤드 목록\(heads\)이 비어 있습니다/],
    [JSON.stringify({ ...good, heads: good.heads.slice(1) }), /it lists 7 heads and the model has 8 \(2 layers × 4 heads\)/, /헤드가 7개 적혀 있는데 모델의 헤드는 8개/],
    [JSON.stringify(good).replace(/"ablatedBitsPerChar":[\d.]+/, '"ablatedBitsPerChar":1e999'), /heads\[0\]\.ablatedBitsPerChar is Infinity, not a finite number/, /heads\[0\]\.ablatedBitsPerChar 항목이 유한한 수가 아니라 Infinity입니다/],
  ];
  for (const [body, en, ko] of cases)
    for (const [lang, what] of [['en', en], ['ko', ko]]) {
      const { page, errors, close } = await openIsolated(browser, `${server.url}?embed=trained-heads&lang=${lang}#trained-heads`, {
        route: (context) => context.route('**/text-model-results.json', (r) => r.fulfill({ status: 200, contentType: 'application/json', body })),
      });
      const alerts = [];
      page.on('dialog', (d) => (alerts.push(d.message()), d.dismiss()));
      // (the chapter's error line, or the computing error a half-read file gave)
      await page.waitForSelector(`${S} :is([data-failure="true"], .chapter-error:not([hidden]))`);
      const line = await text(page, `${S} :is([data-failure="true"], .chapter-error:not([hidden]))`);
      assert.match(line, lang === 'en' ? /^The model could not be loaded: the file text-model-results\.json next to the page's script cannot be used \(/
        : /^모델을 불러오지 못했습니다\. 스크립트와 같은 폴더의 text-model-results\.json 파일을 쓸 수 없습니다\(/);
      assert.match(line, what);
      const seen = await page.$eval(S, (s) => s.innerText);
      assert.doesNotMatch(seen, /\{\w+(\|[^|{}]*\|[^|{}]*)?\}|Loading the model|불러오는 중|−∞|-Infinity/, 'no template, loading line or half-filled number');
      // only the title, the lead and the error line are shown; nothing thrown, no alert
      const shown = await page.$$eval(`${S} > *`, (ns) => ns.filter((n) => n.getClientRects().length > 0).map((n) => n.tagName));
      assert.deepEqual(shown, ['H2', 'P', 'P']);
      assert.equal(await page.$(`${S} [role="alert"]:not([hidden]):not(:empty):not([data-failure])`), null);
      assert.deepEqual(alerts, []);
      assert.deepEqual(errors, []);
      await close();
    }
  // a truncated file of either kind takes the same line, with what the reader said
  const bin = new Uint8Array(await (await fetch(`${server.url}text-model.bin`)).arrayBuffer());
  for (const [file, body, what] of [['text-model.bin', Buffer.from(bin.subarray(0, 1000)), /\(the core cannot read it as a model: .+\)\.$/],
    ['text-model-results.json', JSON.stringify(good).slice(0, 100), /\(it is not valid JSON: .+\)\.$/]]) {
    const { page, errors, close } = await openIsolated(browser, `${server.url}?embed=trained-heads&lang=en#trained-heads`, {
      route: (context) => context.route(`**/${file}`, (r) => r.fulfill({ status: 200, body })),
    });
    await page.waitForSelector(`${S} :is([data-failure="true"], .chapter-error:not([hidden]))`);
    const line = await text(page, `${S} :is([data-failure="true"], .chapter-error:not([hidden]))`);
    assert.ok(line.startsWith(`The model could not be loaded: the file ${file} next to the page's script cannot be used (`), line);
    assert.match(line, what);
    assert.deepEqual(errors, []);
    await close();
  }
});
