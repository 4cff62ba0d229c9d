// Browser tests: chapter terms-formula (seeds/004).
// Each test visits a chapter by its URL fragment, reads a key number the core computed,
// edits an input and sees the dependent numbers change, and fails on any console error.
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, cells, numbers, near, cellInput, assertAtFragment } from '../../../../tests/e2e/harness.mjs';

const { open } = await harness();

test('terms-formula: glossary, the formula read inside out with live numbers, symbols link to the example', async () => {
  const { page, errors } = await open(`#terms-formula`);
  await assertAtFragment(page, 'terms-formula');
  assert.equal(await page.$$eval('#terms-formula .glossary dt', (n) => n.length), 8);
  const softmaxLine = await page.textContent('#terms-formula .inside-out li[data-sym="softmax"]');
  for (const x of ['2.028', '4.113', '6.141', '0.330', '0.670']) assert.ok(softmaxLine.includes(x), `${x} in "${softmaxLine}"`);
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
