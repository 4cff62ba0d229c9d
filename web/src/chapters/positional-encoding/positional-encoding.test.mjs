// The served page in headless Chromium: the positional-encoding chapter.
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, cells, setSlider, text, num } from '../../../../tests/e2e/harness.mjs';

const { openChapter } = await harness();
const S = '#positional-encoding';

test('positional-encoding: the sinusoids on screen; odd d works; a cell explains itself', async () => {
  const { page, errors } = await openChapter('positional-encoding');
  // Position 0: [sin 0, cos 0, ...] = [0, 1, ...]; position 1, column 0: sin 1.
  assert.deepEqual((await cells(page, 'pe-grid', 1)).slice(0, 2), ['0.00', '1.00']);
  assert.equal((await cells(page, 'pe-grid', 2))[0], Math.sin(1).toFixed(2));
  await setSlider(page, `${S} input[data-control="d"]`, 5);
  const row2 = await cells(page, 'pe-grid', 3);
  assert.equal(row2.length, 5);
  const angle = 2 / 10000 ** (4 / 5);
  assert.equal(row2[4], Math.sin(angle).toFixed(2), 'odd d: the last column is a sine');
  await setSlider(page, `${S} input[data-control="T"]`, 20);
  assert.equal((await cells(page, 'pe-grid')).length, 20 * 5);
  await page.click('[data-grid="pe-grid"] tbody tr:nth-child(8) td:nth-of-type(3)');
  const worked = await text(page, `${S} [data-worked="pe"]`);
  assert.match(worked, /7, 2/);
  assert.ok(worked.includes(Math.sin(7 / 10000 ** (2 / 5)).toFixed(4)), worked);
  // the plot's "⋯" menu sits on the plot, in the page's language
  const [menu, plot] = await Promise.all([`${S} .plot .grid-tools > summary`, `${S} .plot`].map((s) => page.locator(s).first().boundingBox()));
  assert.ok(menu.y >= plot.y && menu.y + menu.height <= plot.y + plot.height && menu.x + menu.width <= plot.x + plot.width + 1, JSON.stringify({ menu, plot }));
  assert.match(await page.getAttribute(`${S} .plot .grid-tools > summary`, 'aria-label'), /그림 도구/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('positional-encoding: without PE, mask or dropout, reordering only reorders; with any of them it does not', async () => {
  const { page, errors } = await openChapter('positional-encoding');
  const check = `${S} [data-check="permutation"]`;
  assert.match(await text(page, `${S} .sentence-line`), /개 사람 물었다.*사람 개 물었다/);
  assert.match(await text(page, check), /: 0 ✓/);
  // The reordered O_A equals O_B cell for cell.
  assert.deepEqual(await cells(page, 'pe-OA-reordered'), await cells(page, 'pe-OB'));
  for (const control of ['pe', 'causal', 'dropout']) {
    await page.check(`${S} input[data-control="${control}"]`);
    const line = await text(page, check);
    // The outputs differ, which is what the chapter shows: the expectation holds, so ✓.
    assert.doesNotMatch(line, /✗/, `${control}: ${line}`);
    assert.ok(num(line.match(/: ([\d.]+) ✓/)[1]) > 0.01, line);
    assert.match(line, /예상대로 출력이 달라졌습니다/, line);
    await page.uncheck(`${S} input[data-control="${control}"]`);
    assert.match(await text(page, check), /✓/);
  }
  // Another order and an edited embedding: still only reordered.
  await page.click(`${S} button:has-text("순서 B 바꾸기")`);
  await page.fill('[data-grid="pe-E"] tbody tr:nth-child(1) td:nth-of-type(1) input', '2');
  assert.match(await text(page, check), /✓/);
  assert.deepEqual(await cells(page, 'pe-OA-reordered'), await cells(page, 'pe-OB'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('positional-encoding: "dog bites man" vs "man bites dog" in English', async () => {
  const { page, errors } = await openChapter('positional-encoding', { query: '?lang=en' });
  assert.match(await text(page, `${S} .sentence-line`), /dog bites man.*man bites dog/);
  assert.match(await text(page, `${S} [data-check="permutation"]`), /✓/);
  assert.deepEqual(errors, []);
  await page.close();
});
