// Browser test of the chapter "one-head": with the same weights one head splits the verb's
// attention between subject and object, two heads each focus; swapping the roles leaves the
// one-head output unchanged but not the two-head output.
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, cellTexts, shown, assertAtFragment } from '../../../../tests/e2e/harness.mjs';

const ID = 'one-head';
const env = await harness({ core: true });
const { attn } = env;
const w3 = { digits: 3, fixed: true };

test('one head splits the verb’s row, two heads focus, numbers from the core', async () => {
  const { page, errors } = await env.openChapter(ID);
  await assertAtFragment(page, ID);
  const ex = attn.example(ID);
  const one = attn.multiHeadAttention(ex.X, { ...ex, heads: 1 });
  const two = attn.multiHeadAttention(ex.X, { ...ex, heads: 2 });
  const verbRow = ex.verb + 1;
  const p = await cellTexts(page, 'oh-P', verbRow);
  assert.deepEqual(p, shown(one.heads[0].weights, ex.verb, w3));
  assert.equal(p[ex.subject], p[ex.object], 'subject and object get the same weight');
  assert.ok(Number(p[ex.subject]) < 0.5);
  assert.deepEqual(await cellTexts(page, 'oh-P1', verbRow), shown(two.heads[0].weights, ex.verb, w3));
  assert.ok(Number((await cellTexts(page, 'oh-P1', verbRow))[ex.subject]) > 0.8);
  assert.ok(Number((await cellTexts(page, 'oh-P2', verbRow))[ex.object]) > 0.8);
  assert.deepEqual(errors, []);
  await page.close();
});

test('swapping subject and object: one head cannot tell, two heads can; stronger queries sharpen only two heads', async () => {
  const { page, errors } = await env.openChapter(ID);
  const ex = attn.example(ID);
  const verbRow = ex.verb + 1;
  const y1 = await cellTexts(page, 'oh-Y1', verbRow);
  const y2 = await cellTexts(page, 'oh-Y2', verbRow);
  await page.check('[data-choice="oh-sentence"] input[value="1"]');
  assert.deepEqual(await cellTexts(page, 'oh-Y1', verbRow), y1, 'one head: same output');
  assert.notDeepEqual(await cellTexts(page, 'oh-Y2', verbRow), y2, 'two heads: different output');
  const two = attn.multiHeadAttention(ex.Xswapped, { ...ex, heads: 2 });
  assert.deepEqual(await cellTexts(page, 'oh-Y2', verbRow), shown(two.output, ex.verb));
  assert.match(await page.textContent('[data-check="swap"]'), /먹었다/);
  // Stronger queries: two heads go towards 1, one head stays below 0.5 each.
  await page.$eval('[data-control="oh-strength"]', (n) => { n.value = '4'; n.dispatchEvent(new Event('input', { bubbles: true })); });
  const Wq4 = attn.scale(ex.Wq, 4);
  const one4 = attn.multiHeadAttention(ex.Xswapped, { ...ex, Wq: Wq4, heads: 1 });
  assert.deepEqual(await cellTexts(page, 'oh-P', verbRow), shown(one4.heads[0].weights, ex.verb, w3));
  assert.ok(Number((await cellTexts(page, 'oh-P', verbRow))[ex.subject]) <= 0.5);
  assert.ok(Number((await cellTexts(page, 'oh-P1', verbRow))[ex.subject]) > 0.99);
  assert.deepEqual(errors, []);
  await page.close();
});

test('English prose (its axe-core scan and screenshots: every-chapter.test.mjs)', async () => {
  const { page, errors } = await env.openChapter(ID, { query: '?lang=en' });
  assert.match(await page.textContent(`#${ID} h2`), /one head is not enough/);
  assert.match(await page.textContent('[data-check="weights"]'), /split in two/);
  assert.deepEqual(errors, []);
  await page.close();
});
