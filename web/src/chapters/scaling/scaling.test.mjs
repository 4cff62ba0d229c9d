// Browser tests: chapter scaling (seeds/001, seeds/004).
// Each test visits a chapter by its URL fragment, reads a key number the core computed,
// edits an input and sees the dependent numbers change, and fails on any console error.
import test from 'node:test';
import assert from 'node:assert/strict';
import { setup, cells, numbers, near, cellInput, atFragment, setRange, completeSweep } from '../../../../tests/e2e/article-helpers.mjs';

const { open } = await setup();

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
