// Browser tests: chapter terms-formula (seeds/004).
// Each test visits a chapter by its URL fragment, reads a key number the core computed,
// edits an input and sees the dependent numbers change, and fails on any console error.
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, cells, numbers, near, cellInput, assertAtFragment } from '../../../../tests/e2e/harness.mjs';

const { open, openChapter } = await harness();

test('terms-formula: glossary, the formula read inside out with live numbers, symbols link to the example', async () => {
  const { page, errors } = await open(`#terms-formula`);
  await assertAtFragment(page, 'terms-formula');
  assert.equal(await page.$$eval('#terms-formula .glossary dt', (n) => n.length), 8);
  const softmaxLine = await page.textContent('#terms-formula .inside-out li[data-sym="softmax"]');
  for (const x of ['2.028', '4.113', '6.141', '0.330', '0.670']) assert.ok(softmaxLine.includes(x), `${x} in "${softmaxLine}"`);
  // Where two-keys is on the page: each symbol a link and a tab stop (6 symbols, in the wide
  // and the narrow layout), a see-it link per step, the prose links to the chapter
  assert.equal(await page.$$eval('#terms-formula .formula .sym[role="link"][tabindex="0"]', (n) => n.length), 12);
  assert.deepEqual(await page.$$eval('#terms-formula .see-link', (as) => as.map((a) => a.getAttribute('href'))),
    ['#two-keys-step-scores', '#two-keys-step-scaled', '#two-keys-step-weights', '#two-keys-step-output']);
  assert.equal(await page.$eval('#terms-formula .lead a', (a) => a.getAttribute('href')), '#two-keys');
  // Hovering √d_k lights up its place in the next chapter; clicking goes there.
  await page.hover('#terms-formula .sym-dk');
  assert.equal(await page.$eval('#two-keys-step-scaled', (n) => n.classList.contains('linked')), true);
  await page.click('#terms-formula .sym-dk');
  await page.waitForFunction(() => location.hash === '#two-keys-step-scaled');
  const top = await page.$eval('#two-keys-step-scaled', (n) => n.getBoundingClientRect().top);
  assert.ok(top >= -5 && top < 900, `the scaled step is on screen (top = ${top})`);
  // Keyboard: Tab to a symbol, Enter.
  await page.focus('#terms-formula .sym-softmax');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => location.hash === '#two-keys-step-weights');
  // The numbers quoted here follow the example's inputs.
  await page.fill(cellInput('two-keys-q', 1, 1), '3');
  const after = await page.textContent('#terms-formula .inside-out li[data-sym="scores"]');
  assert.ok(after.includes('3') && !after.includes('[1, 2]'), `scores line follows the edit: ${after}`);
  // e^x and their sum (12.46, past 10) are quoted as the next chapter's grids print them
  const quoted = await page.$$eval('#terms-formula .inside-out li[data-sym="softmax"] .katex-html', (ns) => ns.map((n) => n.textContent).join(' '));
  for (const g of ['two-keys-exp', 'two-keys-sum']) for (const c of await cells(page, g))
    assert.ok(quoted.split(/[^\d.]+/).includes(c), `${g} ${c} in "${quoted}"`);
  assert.deepEqual(errors, []);
  await page.close();
});

// An exercise on the two-keys example (a link that hides α₁ in its step ④) is not given away
// here, where the same numbers are quoted: the hidden cell reads "?", the others stay. When
// the teacher shows the cell again, the number is back.
test('terms-formula: the numbers a two-keys exercise hides are "?" where this chapter quotes them', async () => {
  const { page, errors } = await open(`?lang=en&two-keys=!hide:@two-keys-weights.1.1,two-keys-exp.1.2#terms-formula`);
  const line = '#terms-formula .inside-out li[data-sym="softmax"] .katex-html';
  await page.waitForFunction((s) => [...document.querySelectorAll(s)].some((n) => n.textContent.includes('?')), line, { timeout: 60000 });
  const quoted = await page.$$eval(line, (ns) => ns.map((n) => n.textContent).join(' '));
  assert.ok(!quoted.includes('0.330'), `α₁ hidden: ${quoted}`);
  assert.ok(!quoted.includes('4.113'), `e^x₂ hidden: ${quoted}`);
  for (const x of ['2.028', '6.141', '0.670']) assert.ok(quoted.includes(x), `${x} still quoted: ${quoted}`);
  assert.ok((quoted.match(/\?/g) ?? []).length >= 2, quoted);
  // the output, o = α₁v₁ + α₂v₂ = [α₁, α₂] with the default V, gives α₁ away too: two-keys
  // covers it, and so is it here
  const out = await page.$$eval('#terms-formula .inside-out li[data-sym="v"] .katex-html', (ns) => ns.map((n) => n.textContent).join(' '));
  assert.ok(!out.includes('0.330') && out.includes('?'), `the output line: ${out}`);
  // the exercise in two-keys hides the same cells
  assert.equal(await page.$$eval('[data-grid="two-keys-weights"] td.hidden-cell', (n) => n.length), 1);
  // no exercise: every number quoted
  const plain = await open(`?lang=en#terms-formula`);
  const all = await plain.page.$$eval(line, (ns) => ns.map((n) => n.textContent).join(' '));
  for (const x of ['0.330', '4.113']) assert.ok(all.includes(x), all);
  assert.deepEqual(errors, []);
  assert.deepEqual(plain.errors, []);
  await page.close();
  await plain.page.close();
});

// Alone (?embed=; the widget is the same: tests/e2e/alone.test.mjs) the next chapter is not
// there: the formula is plain maths (no links, no tab stops, KaTeX's MathML for assistive
// technology), no see-it link is built, and the prose says where the numbers come from: the
// example's inputs, quoted. Hovering a symbol still lights up its line of the list.
test('terms-formula alone: no links to the absent example, its inputs quoted, hovering a symbol lights its line', async () => {
  for (const [lang, pointer] of [['en', /next chapter/i], ['ko', /다음 장/]]) {
    const { page, errors } = await openChapter('terms-formula', { query: `lang=${lang}` });
    const S = '#terms-formula';
    assert.equal(await page.$$eval(`${S} .formula [role="link"], ${S} .formula [tabindex], ${S} .formula [aria-label]`, (n) => n.length), 0);
    assert.equal(await page.$eval(`${S} .formula`, (n) => n.getAttribute('role')), null);
    assert.equal(await page.$eval(`${S} .formula-wide .katex-html`, (n) => n.getAttribute('aria-hidden')), 'true');
    assert.equal(await page.$$eval(`${S} .see-link, ${S} a`, (n) => n.length), 0);
    assert.doesNotMatch(await page.$eval(S, (n) => n.innerText), pointer);
    // the example's inputs, in the paragraph before the list (two-keys' defaults)
    const body = (await page.$eval(`${S} ol.inside-out`, (ol) => [...ol.previousElementSibling.querySelectorAll('.katex-html')].map((n) => n.textContent).join(' '))).replace(/[\s\u200b]/g, ''); // (KaTeX puts a zero-width space after a subscript)
    for (const x of ['q=[1,1]', 'k1=[1,0]', 'k2=[0,2]', 'v1=[1,0]', 'v2=[0,1]', 'dk=2']) assert.ok(body.includes(x), `${lang}: ${x} in ${body}`);
    const softmaxLine = await page.textContent(`${S} .inside-out li[data-sym="softmax"]`);
    for (const x of ['2.028', '4.113', '6.141', '0.330', '0.670']) assert.ok(softmaxLine.includes(x), `${x} in "${softmaxLine}"`);
    // hovering √d_k lights up the scaling line; Q (inside QKᵀ) the line of the scores
    await page.hover(`${S} .formula-wide .sym-dk`);
    await page.waitForSelector(`${S} .inside-out li[data-sym="dk"].linked`);
    await page.hover(`${S} .formula-wide .sym-q`);
    await page.waitForSelector(`${S} .inside-out li[data-sym="scores"].linked`);
    assert.equal(await page.$$eval(`${S} .inside-out li.linked`, (n) => n.length), 1);
    assert.deepEqual(errors, []);
    await page.close();
  }
});
