// Browser tests: chapters why-qkv and scaling (seeds/001, seeds/004).
// Each test visits a chapter by its URL fragment, reads a key number the core computed,
// edits an input and sees the dependent numbers change, and fails on any console error.
import test from 'node:test';
import assert from 'node:assert/strict';
import { setup, cells, numbers, near, cellInput, atFragment, setRange, completeSweep } from './article-helpers.mjs';

const { open } = await setup();

test('why-qkv: W stays d_model × d_k while T changes; diagonal ≥ row with equal norms; asymmetry; cross-attention T_q ≠ T_k', async () => {
  const { page, errors } = await open(`#why-qkv`);
  await atFragment(page, 'why-qkv');
  const shape = (g) => page.textContent(`[data-grid="${g}"] figcaption .shape`);
  assert.equal(await shape('why-qkv-X'), '6\u2009×\u20094');
  assert.equal(await shape('why-qkv-Wq'), '4\u2009×\u20092');
  assert.equal(await page.$$eval('[data-grid="why-qkv-check"] tbody tr.holds', (n) => n.length), 6);
  assert.match(await page.textContent('[data-verdict="diagonal"]'), /6.*6/);
  // The repeated token (rows 2 and 5) ties: margin 0.
  assert.equal((await cells(page, 'why-qkv-check', 2))[2], '0');
  // Rows of unequal length: some row's diagonal loses.
  await page.click('#why-qkv [data-control="equalNorms"]');
  const fails = await page.$$eval('[data-grid="why-qkv-check"] tbody tr.fails', (n) => n.length);
  assert.ok(fails >= 1, `${fails} rows fail without equal norms`);
  // T = 3: X, Q, K, V and the scores shrink; W does not; cross weights are 2 × 3.
  await setRange(page, 'T', 3);
  assert.equal(await shape('why-qkv-X'), '3\u2009×\u20094');
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

test('scaling: std 8 at d_k = 64 and 22.6 at 512, sampled variance ≈ d_k, saturation numbers, ratio ≈ 664', async () => {
  const { page, errors } = await open(`#scaling`);
  await atFragment(page, 'scaling');
  // The sweep over d_k is sampled when it comes near the screen.
  assert.equal(await page.getAttribute('[data-plot="scaling-sweep"]', 'data-complete'), 'false');
  await completeSweep(page);
  assert.equal(await page.$$eval('[data-grid="scaling-sweep-table"] tbody tr', (n) => n.length), 8);
  near((await numbers(page, 'scaling-sweep-table', 5))[0], 8, 0, '√64');
  near((await numbers(page, 'scaling-sweep-table', 8))[0], 22.6, 1, '√512');
  // Measured variances: near d_k before scaling, near 1 after (2000 pairs: within 25 %).
  for (let r = 1; r <= 8; r++) {
    const [, , v, vs] = await numbers(page, 'scaling-sweep-table', r);
    const dk = 2 ** (r + 1);
    assert.ok(Math.abs(v / dk - 1) < 0.25, `d_k ${dk}: variance ${v}`);
    assert.ok(Math.abs(vs - 1) < 0.25, `d_k ${dk}: variance after ÷√d_k ${vs}`);
  }
  // Saturation at d_k = 64.
  const p = await numbers(page, 'scaling-raw-p');
  near(p[0], 0.9997, 4, 'p1');
  near(p[1], 0.0003, 4, 'p2');
  near(p[2], 0.0000001, 7, 'p3');
  near((await numbers(page, 'scaling-raw-g'))[0], 0.0003, 4, 'gradient before');
  assert.deepEqual(await cells(page, 'scaling-sqrt-p'), ['0.665', '0.245', '0.090']);
  near((await numbers(page, 'scaling-sqrt-g'))[0], 0.223, 3, 'gradient after');
  const ratio = await page.textContent('[data-out="ratio"]');
  assert.match(ratio, /664/, ratio);
  assert.doesNotMatch(ratio, /700/);
  assert.match(await page.textContent('#scaling .note:not([hidden])'), /700/, 'the rounding note explains the article\'s figure');
  // The d_k slider: 512 → std 22.6, a different divisor and ratio; the rounding note goes.
  const stats = await page.textContent('[data-out="variance"]');
  await setRange(page, 'dkExp', 9);
  assert.match(await page.textContent('#scaling label.slider'), /512/);
  assert.match(await page.textContent('#scaling label.slider'), /22\.6/);
  assert.notEqual(await page.textContent('[data-out="variance"]'), stats);
  assert.doesNotMatch(await page.textContent('[data-out="ratio"]'), /664/);
  assert.equal(await page.isVisible('#scaling p.note[hidden]'), false);
  // Same seed, same samples; another seed, other samples.
  await setRange(page, 'dkExp', 6);
  assert.equal(await page.textContent('[data-out="variance"]'), stats);
  await page.fill('#scaling [data-control="seed"]', '7');
  await page.press('#scaling [data-control="seed"]', 'Enter');
  await page.waitForFunction((s) => document.querySelector('[data-out="variance"]').textContent !== s, stats);
  await page.fill('#scaling [data-control="seed"]', '1');
  await page.press('#scaling [data-control="seed"]', 'Enter');
  await page.waitForFunction((s) => document.querySelector('[data-out="variance"]').textContent === s, stats);
  // Editing a score changes the softmax and the ratio.
  await page.fill(cellInput('scaling-S', 1, 1), '4');
  assert.notDeepEqual(await cells(page, 'scaling-sqrt-p'), ['0.665', '0.245', '0.090']);
  assert.doesNotMatch(await page.textContent('[data-out="ratio"]'), /664/);
  // Geometry: q·k = |q||k|cos θ on screen.
  assert.match(await page.textContent('[data-out="geometry"]'), /45/);
  await page.fill(cellInput('scaling-k', 1, 1), '-1');
  await page.fill(cellInput('scaling-k', 1, 2), '3');
  assert.match(await page.textContent('[data-out="geometry"]'), /90/);
  assert.deepEqual(errors, []);
  await page.close();
});
