// Browser test of the chapter softmax (seeds/001, seeds/004), opened alone: reads a key
// number the core computed, edits an input and sees the dependent numbers change, and fails
// on any console error. (Its English, phone width and axe-core scan: every-chapter.test.mjs.)
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, cells, numbers, cellInput, assertAtFragment } from '../../../../tests/e2e/harness.mjs';

const { openChapter } = await harness();

test('softmax: rows positive and summing to 1, checked on screen; the wrong axis side by side', async () => {
  const { page, errors } = await openChapter('softmax');
  await assertAtFragment(page, 'softmax');
  for (const r of [1, 2, 3]) assert.deepEqual(await cells(page, 'softmax-P-sums', r), ['1.000000']);
  assert.deepEqual(await cells(page, 'softmax-P', 2), ['0.250', '0.250', '0.250', '0.250']);
  assert.equal(await page.getAttribute('[data-check="positive"]', 'data-ok'), 'true');
  assert.equal(await page.getAttribute('[data-check="sums"]', 'data-ok'), 'true');
  // Wrong axis: same shape, rows off, columns sum to 1.
  const rowSums = (await Promise.all([1, 2, 3].map((r) => numbers(page, 'softmax-cols-sums', r)))).flat();
  assert.ok(rowSums.some((x) => Math.abs(x - 1) > 0.01), `row sums under the wrong axis: ${rowSums}`);
  assert.deepEqual(await cells(page, 'softmax-cols-colsums', 1), ['1.000', '1.000', '1.000', '1.000']);
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
