// The served page in headless Chromium: the "why attention" chapter.
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, setSlider, text } from '../../../../tests/e2e/harness.mjs';

const { openChapter } = await harness();
const S = '#why-attention';

test('why-attention: dilution numbers from the core, and the slider changes them', async () => {
  const { page, errors } = await openChapter('why-attention');
  // Default pair: 읽었다 → 책은, 4 tokens apart; r = 0.8, a = 6, n = 24.
  let line = await text(page, `${S} [data-check="dilution"]`);
  const rec = (0.2 * 0.8 ** 4).toFixed(3), att = (Math.exp(6) / (Math.exp(6) + 23)).toFixed(3);
  assert.ok(line.includes(rec) && line.includes(att), `${line} should show ${rec} and ${att}`);
  assert.equal(await page.getAttribute(`${S} [data-control="pair-0-0"]`, 'aria-pressed'), 'true');
  // Another pair: 돌려주었다 → 철수는, 7 tokens apart.
  await page.click(`${S} [data-control="pair-1-0"]`);
  line = await text(page, `${S} [data-check="dilution"]`);
  assert.ok(line.includes((0.2 * 0.8 ** 7).toFixed(3)), line);
  assert.ok(line.includes(att), `attention's share does not depend on distance: ${line}`);
  await setSlider(page, `${S} input[data-control="r"]`, 0.5);
  const after = await text(page, `${S} [data-check="dilution"]`);
  assert.ok(after.includes((0.5 * 0.5 ** 7).toFixed(3)), after);
  assert.deepEqual(errors, []);
  await page.close();
});

test('why-attention: 100 tokens take 100 steps in order and a path of 99; attention 2 and 1', async () => {
  const { page, errors } = await openChapter('why-attention');
  await setSlider(page, `${S} input[data-control="N"]`, 100);
  const line = await text(page, `${S} [data-check="path"]`);
  assert.match(line, /100/);
  assert.match(line, /99/);
  assert.match(line, /\b2\b/);
  // With reduced motion, Run jumps to the end at once.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.click(`${S} [data-control="run"]`);
  assert.equal(await page.$$eval(`${S} [data-track="recurrent"] .cell.done`, (n) => n.length), 100);
  assert.equal(await page.$$eval(`${S} [data-track="attention"] .cell.done`, (n) => n.length), 100);
  assert.match(await text(page, `${S} .track-label`), /100 \/ 100/);
  await page.click(`${S} [data-control="rewind"]`);
  await page.click(`${S} [data-control="step"]`);
  assert.equal(await page.$$eval(`${S} [data-track="recurrent"] .cell.done`, (n) => n.length), 1);
  assert.equal(await page.$$eval(`${S} [data-track="attention"] .cell.half`, (n) => n.length), 100, 'after one step attention has all scores');
  assert.deepEqual(errors, []);
  await page.close();
});

test('why-attention: the animation runs when motion is allowed', async () => {
  const { page, errors } = await openChapter('why-attention');
  await setSlider(page, `${S} input[data-control="N"]`, 4);
  await page.click(`${S} [data-control="run"]`);
  await page.waitForFunction(() => document.querySelectorAll('#why-attention [data-track="recurrent"] .cell.done').length === 4, null);
  assert.deepEqual(errors, []);
  await page.close();
});
