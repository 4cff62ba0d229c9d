// The served page in headless Chromium: the weighted-sum chapter.
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, cells, setSlider, text, num } from '../../../../tests/e2e/harness.mjs';

const { openChapter } = await harness();
const S = '#weighted-sum';

test('weighted-sum: 0.2[1,0] + 0.5[0,1] + 0.3[1,1] = [0.5, 0.8], inside the hull', async () => {
  const { page, errors } = await openChapter('weighted-sum');
  assert.deepEqual(await cells(page, 'ws-weights', 1), ['0.200', '0.500', '0.300']);
  assert.deepEqual(await cells(page, 'ws-output', 1), ['0.5', '0.8']);
  assert.deepEqual(await cells(page, 'ws-sum', 1), ['1.000']);
  assert.match(await text(page, `${S} [data-checks="weighted-sum"] li`), /0 ✓/);
  // A raw weight slider: the core re-normalises, the sum stays 1 and the output moves.
  await setSlider(page, `${S} input[data-control="w0"]`, 1);
  const w = (await cells(page, 'ws-weights', 1)).map(num);
  assert.ok(Math.abs(w[0] - 1 / 1.8) < 1e-3, `w = ${w}`);
  assert.deepEqual(await cells(page, 'ws-sum', 1), ['1.000']);
  assert.notDeepEqual(await cells(page, 'ws-output', 1), ['0.5', '0.8']);
  assert.match(await text(page, `${S} [data-checks="weighted-sum"]`), /✓.*✓/);
  // Scores through softmax instead.
  await page.check(`${S} input[data-control="mode-scores"]`);
  assert.ok(await page.isVisible(`${S} input[data-control="s0"]`));
  assert.equal(await page.isVisible(`${S} input[data-control="w0"]`), false);
  assert.deepEqual(await cells(page, 'ws-sum', 1), ['1.000']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('weighted-sum: moving a Value with the keyboard and the pointer moves the output', async () => {
  const { page, errors } = await openChapter('weighted-sum');
  // Keyboard: 먹었다's Value [1, 1] → [1.5, 1] moves o from [0.5, 0.8] to [0.65, 0.8].
  await page.focus(`${S} [data-handle="v2"]`);
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  assert.deepEqual(await page.$$eval('[data-grid="ws-V"] tbody tr:nth-child(3) input', (ns) => ns.map((n) => n.value)), ['1.5', '1']);
  assert.deepEqual(await cells(page, 'ws-output', 1), ['0.65', '0.8']);
  // Pointer: drag 나는's Value up by some pixels.
  const dot = await page.$(`${S} [data-handle="v0"] .handle-dot`);
  const box = await dot.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y - 60, { steps: 4 });
  await page.mouse.up();
  const v0 = await page.$$eval('[data-grid="ws-V"] tbody tr:nth-child(1) input', (ns) => ns.map((n) => Number(n.value)));
  assert.ok(v0[1] > 0.2, `dragged up: ${v0}`);
  assert.match(await text(page, `${S} [data-checks="weighted-sum"] li`), /✓/);
  // (a malformed cell: tests/e2e/smoke.test.mjs)
  assert.deepEqual(errors, []);
  await page.close();
});

test('weighted-sum: training-mode dropout breaks "the weights add up to 1"; a fully masked row gives 0', async () => {
  const { page, errors } = await openChapter('weighted-sum');
  assert.equal(await page.isVisible('[data-grid="ws-dropped"]'), false);
  await page.check(`${S} input[data-control="dropout"]`);
  assert.ok(await page.isVisible('[data-grid="ws-dropped"]'));
  const sum = await cells(page, 'ws-dropped-sum', 1);
  assert.notDeepEqual(sum, ['1.000'], 'dropout rescales the kept weights');
  assert.match(await text(page, `${S} [data-check="dropout"]`), /✗|✓/);
  assert.match(await text(page, `${S} [data-check="masked"]`), /0\.707/);
  // All raw weights 0: the core refuses to normalise, the chapter says so, the last output stays.
  await page.uncheck(`${S} input[data-control="dropout"]`);
  for (const j of [0, 1]) await setSlider(page, `${S} input[data-control="w${j}"]`, 0);
  const before = await cells(page, 'ws-output', 1);
  assert.deepEqual(before, ['1', '1'], 'all weight on 먹었다: its own Value');
  await setSlider(page, `${S} input[data-control="w2"]`, 0);
  assert.ok(await page.isVisible(`${S} .chapter-error`));
  assert.match(await text(page, `${S} .chapter-error`), /sums to 0/);
  assert.deepEqual(await cells(page, 'ws-output', 1), before);
  await setSlider(page, `${S} input[data-control="w1"]`, 0.4);
  assert.equal(await page.isVisible(`${S} .chapter-error`), false);
  assert.deepEqual(await cells(page, 'ws-output', 1), ['0', '1']);
  assert.deepEqual(errors, []);
  await page.close();
});
