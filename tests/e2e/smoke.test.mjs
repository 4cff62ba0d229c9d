// The chapter smoke table: one line per case (as ggml's test_case structs), read as
//
//   chapter  control  ← edit  ⇒  what must change (or, for a refused edit, what must stay)
//
// Each chapter is opened alone (?embed=<id>) once, one after the other in the same tab (as a
// reader follows a link: one browser context, its cache warm); its cases run in order on that page, each
// reading the watched figure before and after its own edit. A case `changes`: the figure
// differs after the edit. A case `refuses`: the control says so (aria-invalid, or the grid's
// inline error) and the figure keeps the last good state. No case may log a console error.
// The chapters' own tests check what the numbers are; this table only that edits flow (and
// that malformed ones do not), so a new chapter gets a line here before it gets its test.
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, cellInput, setSlider, embedQuery, pageReady } from './harness.mjs';

const { server, openChapter } = await harness();
// One tab for every chapter: the first opened as openChapter does, the others navigated to.
// Its console errors are collected from the chapter's load on (what the previous chapter
// logged was checked by its own cases).
let tab = null;
async function show(chapter) {
  if (!tab) return (tab = await openChapter(chapter));
  tab.errors.splice(0);
  await tab.page.goto(`${server.url}${embedQuery(chapter)}#${chapter}`);
  await pageReady(tab.page);
  await tab.page.waitForSelector(`section#${chapter} h2`);
  return tab;
}

// Controls: what the learner edits, and how.
const cell = (grid, i, j) => ({ name: `${grid}[${i},${j}]`, sel: cellInput(grid, i, j), how: 'fill', grid });
const field = (sel) => ({ name: sel, sel, how: 'fill' });
const slider = (chapter, control) => ({ name: `slider ${control}`, sel: `#${chapter} input[data-control="${control}"]`, how: 'slide' });
const toggle = (chapter, control) => ({ name: `toggle ${control}`, sel: `#${chapter} input[data-control="${control}"]`, how: 'check' });
const choice = (name, value) => ({ name: `${name}=${value}`, sel: `[data-choice="${name}"] input[value="${value}"]`, how: 'check' });
// What is watched: the texts of one row of a grid, or of an element.
const row = (grid, i) => ({ name: `${grid} row ${i}`, read: (page) => page.$$eval(`[data-grid="${grid}"] tbody tr:nth-child(${i}) td`, (tds) => tds.map((td) => td.querySelector('input')?.value ?? td.querySelector('.v')?.textContent)) });
const textOf = (sel) => ({ name: sel, read: (page) => page.textContent(sel) });

const changes = (chapter, control, edit, watched) => ({ chapter, control, edit, watched, expect: 'changes' });
const refuses = (chapter, control, edit, watched) => ({ chapter, control, edit, watched, expect: 'refuses' });

const CASES = [
  changes('why-attention', slider('why-attention', 'r'), 0.5, textOf('#why-attention [data-check="dilution"]')),
  changes('weighted-sum', slider('weighted-sum', 'w0'), 1, row('ws-output', 1)),
  refuses('weighted-sum', cell('ws-V', 2, 1), '1..2', row('ws-output', 1)),
  changes('reading-matrix', toggle('reading-matrix', 'head-first'), true, row('rm-col-sums', 1)),
  changes('positional-encoding', slider('positional-encoding', 'd'), 5, row('pe-grid', 3)),
  changes('review', cell('review-q', 1, 1), '-3', row('review-alpha', 1)),
  changes('two-keys', cell('two-keys-K', 1, 1), '2', row('two-keys-scores', 1)),
  refuses('two-keys', cell('two-keys-q', 1, 1), '1..2', row('two-keys-scores', 1)),
  changes('why-qkv', cell('why-qkv-E', 2, 1), '5', row('why-qkv-X', 2)),
  changes('scaling', slider('scaling', 'dkExp'), 8, textOf('[data-out="over-squash"]')),
  changes('softmax', cell('softmax-S', 1, 4), '3', row('softmax-P', 1)),
  changes('core-attention', cell('input-Q', 3, 4), '5', row('P', 3)),
  refuses('core-attention', cell('input-Q', 3, 4), '1,,2', row('P', 3)),
  changes('no-weights', cell('nw-X', 2, 1), '3', row('nw-S', 2)),
  refuses('no-weights', cell('nw-X', 2, 1), '1..5', row('nw-S', 2)),
  changes('projections', cell('pj-Wq', 1, 1), '2', row('pj-P', 2)),
  changes('one-head', choice('oh-sentence', 1), true, row('oh-Y2', 3)),
  changes('multi-head', cell('mh-X', 3, 1), '2', row('mh-Y', 3)),
  changes('causal-dropout', field('[data-control="cd-seed"]'), '99', row('cd-D', 3)),
  refuses('causal-dropout', field('[data-control="cd-seed"]'), '-3', row('cd-D', 3)),
  changes('cost', field('#cost [data-control="n"]'), '2048', textOf('#cost-complexity-caption')),
];

const line = (c) => `${c.chapter.padEnd(20)} ${c.control.name.padEnd(34)} ← ${String(c.edit).padEnd(5)} ⇒ ${c.watched.name} ${c.expect === 'changes' ? 'changes' : 'stays (refused)'}`;

// (then the learner leaves the control: the next edit of it starts from what it holds now)
async function edit(page, { sel, how }, value) {
  if (how === 'fill') await page.fill(sel, String(value));
  else if (how === 'slide') await setSlider(page, sel, value);
  else if (how === 'check') await page.check(sel);
}
const leave = (page, { sel }) => page.$eval(sel, (n) => n.blur());
const refused = (page, { sel, grid }) => page.$eval(sel, (n, g) => n.getAttribute('aria-invalid') === 'true'
  || !!(g && document.querySelector(`[data-grid="${g}"] .grid-error:not([hidden])`)), grid);

for (const chapter of [...new Set(CASES.map((c) => c.chapter))]) {
  test(chapter, async (t) => {
    const { page, errors } = await show(chapter);
    for (const c of CASES.filter((x) => x.chapter === chapter)) {
      await t.test(line(c), async () => {
        const before = await c.watched.read(page);
        await edit(page, c.control, c.edit);
        const after = await c.watched.read(page);
        if (c.expect === 'changes') assert.notDeepEqual(after, before, `${c.watched.name} did not change`);
        else {
          assert.ok(await refused(page, c.control), `${c.control.name} does not say "${c.edit}" was refused`);
          assert.deepEqual(after, before, `${c.watched.name} changed`);
        }
        await leave(page, c.control);
        assert.deepEqual(errors, []);
      });
    }
  });
}
