// Browser tests: chapter why-qkv (seeds/001, seeds/004).
// Each test visits a chapter by its URL fragment, reads a key number the core computed,
// edits an input and sees the dependent numbers change, and fails on any console error.
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, cells, numbers, near, cellInput, assertAtFragment, setRange, completeSweep } from '../../../../tests/e2e/harness.mjs';

const { openChapter } = await harness();

test('why-qkv: W stays d_model × d_k while T changes; diagonal ≥ row with equal norms; asymmetry; cross-attention T_q ≠ T_k', async () => {
  const { page, errors } = await openChapter('why-qkv');
  await assertAtFragment(page, 'why-qkv');
  const shape = (g) => page.textContent(`[data-grid="${g}"] figcaption .shape`);
  assert.equal(await shape('why-qkv-X'), '6\u2009×\u20094');
  assert.equal(await shape('why-qkv-Wq'), '4\u2009×\u20092');
  assert.equal(await page.$$eval('[data-grid="why-qkv-check"] tbody tr.holds', (n) => n.length), 6);
  assert.match(await page.textContent('[data-verdict="diagonal"]'), /6.*6/);
  // The repeated token (rows 2 and 5) ties: margin 0.
  assert.equal((await cells(page, 'why-qkv-check', 2))[2], '0');
  // Rows of unequal length: some row's diagonal loses. (A toggle does not touch the token
  // chips: they change only with T and the language.)
  const chips = '#why-qkv ul.token-chips';
  await page.$eval(chips, (u) => {
    window.__chipRecs = 0;
    window.__chips = new MutationObserver((rs) => { window.__chipRecs += rs.length; });
    window.__chips.observe(u, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await page.click('#why-qkv [data-control="equalNorms"]');
  assert.equal(await page.evaluate(() => window.__chipRecs + window.__chips.takeRecords().length), 0, 'the chips were written by a toggle');
  const fails = await page.$$eval('[data-grid="why-qkv-check"] tbody tr.fails', (n) => n.length);
  assert.ok(fails >= 1, `${fails} rows fail without equal norms`);
  // T = 3: X, Q, K, V and the scores shrink; W does not; cross weights are 2 × 3.
  await setRange(page, 'T', 3);
  assert.equal(await shape('why-qkv-X'), '3\u2009×\u20094');
  assert.equal(await page.$$eval(`${chips} li.on`, (n) => n.length), 3);
  assert.equal(await shape('why-qkv-Q'), '3\u2009×\u20092');
  assert.equal(await shape('why-qkv-Wq'), '4\u2009×\u20092');
  assert.equal(await shape('why-qkv-S'), '3\u2009×\u20093');
  assert.equal(await shape('why-qkv-Pc'), '2\u2009×\u20093');
  for (const r of [1, 2]) {
    const w = await numbers(page, 'why-qkv-Pc', r);
    near(w.reduce((a, b) => a + b, 0), 1, 2, `cross-attention row ${r} sums to 1`);
  }
  // Separate W_Q, W_K: S − Sᵀ has non-zero entries; one shared projection: all zero.
  const D = (await Promise.all([1, 2, 3].map((r) => numbers(page, 'why-qkv-D', r)))).flat();
  assert.ok(D.some((x) => x !== 0), `S − Sᵀ = ${D}`);
  await page.click('#why-qkv [data-control="shareWk"]');
  const D2 = (await Promise.all([1, 2, 3].map((r) => numbers(page, 'why-qkv-D', r)))).flat();
  assert.ok(D2.every((x) => x === 0), `shared projection: S − Sᵀ = ${D2}`);
  // Editing the embedding table changes X wherever that word occurs.
  const before = await cells(page, 'why-qkv-X', 2);
  await page.fill(cellInput('why-qkv-E', 2, 1), '5');
  assert.notDeepEqual(await cells(page, 'why-qkv-X', 2), before);
  assert.equal((await cells(page, 'why-qkv-X', 2))[0], '5');
  assert.deepEqual(errors, []);
  await page.close();
});

test('why-qkv in English: the diagonal verdict speaks of rows', async () => {
  const { page, errors } = await openChapter('why-qkv', { query: 'lang=en' });
  assert.match(await page.textContent('#why-qkv [data-verdict="diagonal"]'), /rows/);
  assert.deepEqual(errors, []);
  await page.close();
});
