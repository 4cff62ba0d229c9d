// The served page in headless Chromium: the review chapter and its links. (Every chapter at
// phone width, in both languages, and its axe-core scan: tests/e2e/every-chapter.test.mjs.)
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, cells, setSlider, text, num } from '../../../../tests/e2e/harness.mjs';

const { openChapter, open } = await harness();
const S = '#review';

test('review: softmax gives positive weights adding up to 1 (0.330, 0.670 for the lecture example)', async () => {
  const { page, errors } = await openChapter('review');
  assert.deepEqual(await cells(page, 'review-scaled', 1), ['0.707', '1.414']);
  assert.deepEqual(await cells(page, 'review-alpha', 1), ['0.330', '0.670']);
  assert.deepEqual(await cells(page, 'review-sum', 1), ['1.000']);
  await page.fill('[data-grid="review-q"] tbody td:nth-of-type(1) input', '-3');
  const alpha = await cells(page, 'review-alpha', 1);
  assert.notDeepEqual(alpha, ['0.330', '0.670']);
  assert.ok(alpha.every((x) => num(x) > 0));
  assert.deepEqual(await cells(page, 'review-sum', 1), ['1.000']);
  assert.match(await text(page, `${S} [data-check="q2"]`), /✓/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('review: dividing by √d_k un-saturates softmax; positional encoding separates the orders', async () => {
  const { page, errors } = await openChapter('review');
  const top = async () => (await text(page, `${S} [data-check="q1"]`)).match(/\d\.\d{3}/g).map(Number);
  const [raw64, scaled64] = await top();
  assert.ok(raw64 > scaled64, `d_k = 64: ${raw64} vs ${scaled64}`);
  await setSlider(page, `${S} input[data-control="logDk"]`, 9);
  assert.match(await text(page, `${S} [data-check="q1"]`), /512/);
  const [raw512, scaled512] = await top();
  assert.ok(raw512 > 0.99 && scaled512 < raw512, `d_k = 512: ${raw512} vs ${scaled512}`);
  const q3 = await text(page, `${S} [data-check="q3"]`);
  const [without, withPe] = q3.match(/\d+(\.\d+)?/g).map(Number).slice(-2);
  assert.equal(without, 0, q3);
  assert.ok(withPe > 0.05, q3);
  assert.deepEqual(errors, []);
  await page.close();
});

test('review: every link points at a chapter on the page', async () => {
  // (the whole page: the links go to the other chapters)
  const { page, errors } = await open('#review');
  const links = await page.$$eval(`${S} a[data-link]`, (as) => as.map((a) => [a.getAttribute('href'), !!document.querySelector(a.getAttribute('href'))]));
  assert.ok(links.length >= 5, `links: ${links}`);
  for (const [href, exists] of links) assert.ok(exists, `${href} has no target`);
  for (const id of ['#weighted-sum', '#positional-encoding', '#reading-matrix', '#why-attention'])
    assert.ok(links.some(([h]) => h === id), `a link to ${id}`);
  await page.click(`${S} a[data-link="positional-encoding"]`);
  assert.match(page.url(), /#positional-encoding$/);
  assert.deepEqual(errors, []);
  await page.close();
});
