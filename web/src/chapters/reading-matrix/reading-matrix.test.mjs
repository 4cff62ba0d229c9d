// The served page in headless Chromium: the reading-the-attention-matrix chapter.
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, cells, setSlider, text, num } from '../../../../tests/e2e/harness.mjs';

const { openChapter } = await harness();
const S = '#reading-matrix';

test('reading-matrix: BERT-base 12 × 12 = 144 matrices, computed; a slider changes the count', async () => {
  const { page, errors } = await openChapter('reading-matrix');
  assert.match(await text(page, `${S} [data-check="bert"]`), /12 × 12 = 144\b/);
  assert.equal(await text(page, `${S} [data-check="bert"] strong`), '144');
  await setSlider(page, `${S} input[data-control="layers"]`, 24);
  assert.equal(await text(page, `${S} [data-check="bert"] strong`), '288');
  assert.deepEqual(errors, []);
  await page.close();
});

test('reading-matrix: rows add up to 1, column sums between 0 and n, not symmetric; clicking a row', async () => {
  const { page, errors } = await openChapter('reading-matrix');
  const rows = await cells(page, 'rm-row-sums');
  assert.equal(rows.length, 6);
  assert.ok(rows.every((x) => x === '1.000'), `row sums ${rows}`);
  // The first-token head piles the column sums onto [CLS].
  await page.check(`${S} input[data-control="head-first"]`);
  const cols = (await cells(page, 'rm-col-sums', 1)).map(num);
  assert.ok(cols[0] > 0.85 * 6 && cols[0] <= 6, `column sums ${cols}`);
  assert.ok(cols.slice(1).every((x) => x < 0.15), `column sums ${cols}`);
  assert.match(await text(page, `${S} [data-checks="reading-matrix"]`), /n = 6/);
  // Back to the previous-token head: P is not symmetric.
  await page.check(`${S} input[data-control="head-previous"]`);
  const sym = await text(page, `${S} [data-checks="reading-matrix"] li:nth-child(3)`);
  const diff = num(sym.split('=').at(-1));
  assert.ok(diff > 0.5, sym);
  // Clicking a cell of row 5 ("그것은") shows where that token looks.
  await page.click('[data-grid="rm-P"] tbody tr:nth-child(5) td:nth-of-type(2)');
  assert.match(await text(page, `${S} .attends h4`), /그것은/);
  const chips = await page.$$eval(`${S} [data-attends="row"] .chip-value`, (ns) => ns.map((n) => n.textContent));
  assert.deepEqual(chips, await cells(page, 'rm-P', 5));
  // Strength 0: every score is 0, every weight 1/6.
  await setSlider(page, `${S} input[data-control="strength"]`, 0);
  assert.ok((await cells(page, 'rm-P', 3)).every((x) => x === '0.17'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('reading-matrix: the pronoun head falls apart when the sentence changes; two layers reach i−2', async () => {
  const { page, errors } = await openChapter('reading-matrix');
  assert.match(await text(page, `${S} [data-check="pronoun"]`), /고양이가.*고양이가.*✓/);
  await page.check(`${S} input[data-control="sentence-b"]`);
  assert.match(await text(page, `${S} [data-check="pronoun"]`), /고양이가.*공을.*✗/);
  const layers = await text(page, `${S} [data-check="layers"]`);
  const [one, two] = layers.match(/\d\.\d+/g).map(Number);
  assert.ok(one < 0.05 && two > 0.8, layers);
  await page.check(`${S} input[data-control="residual"]`);
  assert.notEqual(await text(page, `${S} [data-check="layers"]`), layers);
  // Editing the features: mark 그것은 (row 5) as animate too; the inputs are in <details>.
  await page.click(`${S} .inputs-details summary`);
  await page.fill('[data-grid="rm-X"] tbody tr:nth-child(3) td:nth-of-type(2) input', '0'); // 공을 no longer an object
  await page.check(`${S} input[data-control="head-verb-object"]`);
  const verbRow = (await cells(page, 'rm-P', 4)).map(num); // 쫓았다
  assert.ok(verbRow.every((x) => Math.abs(x - verbRow[0]) < 0.011), `no object left: ${verbRow}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('reading-matrix: English sentence with "it" → "cat"', async () => {
  const { page, errors } = await openChapter('reading-matrix', { query: '?lang=en' });
  assert.match(await text(page, `${S} [data-check="pronoun"]`), /"it" looks most at "cat".*"cat" ✓/);
  assert.equal((await cells(page, 'rm-row-sums')).length, 10);
  assert.deepEqual(errors, []);
  await page.close();
});
