// Browser tests: chapter softmax (seeds/001, seeds/004); the five article chapters in
// English, their screenshots at desktop and phone width, and an axe-core scan.
// Each test visits a chapter by its URL fragment, reads a key number the core computed,
// edits an input and sees the dependent numbers change, and fails on any console error.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { shootChapter, mountChapters, toggleLang } from '../../../../tests/e2e/harness.mjs';
import { setup, cells, numbers, cellInput, atFragment, completeSweep } from '../../../../tests/e2e/article-helpers.mjs';

const { open, browser, server } = await setup();

test('softmax: rows positive and summing to 1, checked on screen; the wrong axis side by side', async () => {
  const { page, errors } = await open(`#softmax`);
  await atFragment(page, 'softmax');
  for (const r of [1, 2, 3]) assert.deepEqual(await cells(page, 'softmax-P-sums', r), ['1.000000']);
  assert.deepEqual(await cells(page, 'softmax-P', 2), ['0.250', '0.250', '0.250', '0.250']);
  assert.equal(await page.getAttribute('[data-check="positive"]', 'data-ok'), 'true');
  assert.equal(await page.getAttribute('[data-check="sums"]', 'data-ok'), 'true');
  // Wrong axis: same shape, rows off, columns sum to 1.
  const rowSums = (await Promise.all([1, 2, 3].map((r) => numbers(page, 'softmax-cols-sums', r)))).flat();
  assert.ok(rowSums.some((x) => Math.abs(x - 1) > 0.01), `row sums under the wrong axis: ${rowSums}`);
  assert.deepEqual(await cells(page, 'softmax-cols-colsums'), ['1.000', '1.000', '1.000', '1.000']);
  assert.deepEqual(await cells(page, 'softmax-rows-sums', 1), ['1.000']);
  assert.match(await page.textContent('[data-verdict="axis"]'), /3\s*×\s*4/);
  // An edit: P changes, the sums stay 1.
  const before = await cells(page, 'softmax-P', 1);
  await page.fill(cellInput('softmax-S', 1, 4), '3');
  assert.notDeepEqual(await cells(page, 'softmax-P', 1), before);
  assert.deepEqual(await cells(page, 'softmax-P-sums', 1), ['1.000000']);
  // A huge gap: e^x overflows, the shifted path does not, and a weight underflows to 0.
  await page.fill(cellInput('softmax-S', 1, 1), '200');
  assert.equal(await page.getAttribute('[data-check="positive"]', 'data-ok'), 'false');
  assert.deepEqual(await cells(page, 'softmax-P-sums', 1), ['1.000000']);
  // Row 1 now needs the shift (e^200 does not fit a float); row 3 does not.
  const row = '#softmax [data-worked="softmax-row"]', naive = '#softmax [data-worked="softmax-naive"]';
  assert.match(await page.textContent(`${row} .worked-title`), /1.*최댓값을 빼고/);
  // Beside it, the naive e^x: the overflow the text speaks of, ∞ and then ∞/∞ = NaN.
  assert.equal(await page.isVisible(naive), true);
  const naiveMath = (await page.textContent(`${naive} .worked-math`)).replace(/\s+/g, '');
  assert.match(naiveMath, /e200.*=∞.*P1,⋅=\[NaN,/);
  await page.selectOption('#softmax [data-control="row"]', '2');
  assert.match(await page.textContent(`${row} .worked-title`), /3.*e/);
  assert.doesNotMatch(await page.textContent(`${row} .worked-title`), /최댓값/);
  assert.equal(await page.isVisible(naive), false, 'a row that fits needs no naive version');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the five chapters in English, in the table of contents; screenshots at desktop and phone width', async () => {
  const { page, errors } = await open(`?lang=en#two-keys`);
  const toc = await page.$$eval('#toc a', (as) => as.map((a) => a.getAttribute('href')));
  for (const id of ['terms-formula', 'two-keys', 'why-qkv', 'scaling', 'softmax']) {
    assert.ok(toc.includes(`#${id}`), `${id} in the table of contents`);
    assert.equal(await page.$$eval(`section#${id}`, (n) => n.length), 1);
  }
  assert.match(await page.textContent('#two-keys h2'), /One query, two keys/);
  await page.evaluate(() => (location.hash = 'why-qkv')); // mounts it (chapters mount near the screen)
  await page.waitForSelector('#why-qkv[data-mounted="true"]');
  assert.match(await page.textContent('#why-qkv [data-verdict="diagonal"]'), /rows/);
  await toggleLang(page); // (the toggle is at the top of the page: clicking it scrolls there)
  // A chapter off screen follows the language when it comes into view.
  await page.evaluate(() => document.getElementById('two-keys').scrollIntoView());
  await page.waitForFunction(() => /Query 하나/.test(document.querySelector('#two-keys h2').textContent), null, { timeout: 5000 });
  assert.deepEqual(errors, []);
  await page.close();
  // Screenshots of each chapter opened alone (the scaling chapter's sweep finished first).
  for (const id of ['terms-formula', 'two-keys', 'why-qkv', 'scaling', 'softmax'])
    await shootChapter(browser, server, id, { prepare: id === 'scaling' ? completeSweep : undefined });
});

test('accessibility: axe-core finds no violations in the five chapters', async () => {
  const { page, errors } = await open();
  await mountChapters(page, ['terms-formula', 'two-keys', 'why-qkv', 'scaling', 'softmax']);
  await completeSweep(page);
  // Evaluated through the DevTools protocol, so the page's CSP does not apply.
  await page.evaluate(await readFile(new URL('../../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8'));
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run({ include: [['#terms-formula'], ['#two-keys'], ['#why-qkv'], ['#scaling'], ['#softmax']] });
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
  assert.deepEqual(violations, []);
  assert.deepEqual(errors, []);
  await page.close();
});
