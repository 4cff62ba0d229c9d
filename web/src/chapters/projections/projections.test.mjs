// Browser test of the chapter "projections": Q, K, V and the attention numbers are the
// core's; editing W_Q or drawing weights from a seed changes them; bad seeds are refused.
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, cellTexts, cellInput, shown, assertAtFragment } from '../../../../tests/e2e/harness.mjs';

const ID = 'projections';
const env = await harness({ core: true });
const { attn } = env;
const w3 = { digits: 3, fixed: true };
const run = ({ X, Wq, Wk, Wv }) => {
  const [Q, K, V] = [Wq, Wk, Wv].map((W) => attn.matmul(X, W));
  return { Q, K, V, t: attn.attention(Q, K, V) };
};

test('Q, K, V, scores, weights and context vectors are the core’s, with shapes on every matrix', async () => {
  const { page, errors } = await env.openChapter(ID);
  await assertAtFragment(page, ID);
  const r = run(attn.example(ID));
  assert.deepEqual(await cellTexts(page, 'pj-Q', 2), shown(r.Q, 1));
  assert.deepEqual(await cellTexts(page, 'pj-V', 6), shown(r.V, 5));
  assert.deepEqual(await cellTexts(page, 'pj-scaled', 2), shown(r.t.scaled, 1));
  assert.deepEqual(await cellTexts(page, 'pj-P', 2), shown(r.t.weights, 1, w3));
  assert.deepEqual(await cellTexts(page, 'pj-Z', 2), shown(r.t.output, 1));
  const shapes = await page.$$eval('#projections figure.grid', (fs) => fs.map((f) => [f.dataset.grid, f.querySelector('.shape').textContent.replace(/\s/g, '')]));
  const want = { 'pj-X': '6×3', 'pj-Wq': '3×2', 'pj-Q': '6×2', 'pj-S': '6×6', 'pj-P': '6×6', 'pj-Z': '6×2' };
  for (const [grid, shape] of Object.entries(want)) assert.ok(shapes.some(([g, s]) => g === grid && s === shape), `${grid} is ${shape}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('editing W_Q and drawing weights from a seed recompute everything downstream', async () => {
  const { page, errors } = await env.openChapter(ID);
  const ex = attn.example(ID);
  const Q0 = await cellTexts(page, 'pj-Q', 2);
  const P0 = await cellTexts(page, 'pj-P', 2);
  await page.fill(cellInput('pj-Wq', 1, 1), '2');
  ex.Wq.data[0] = 2;
  const r = run(ex);
  assert.notDeepEqual(await cellTexts(page, 'pj-Q', 2), Q0);
  assert.notDeepEqual(await cellTexts(page, 'pj-P', 2), P0);
  assert.deepEqual(await cellTexts(page, 'pj-Q', 2), shown(r.Q, 1));
  assert.deepEqual(await cellTexts(page, 'pj-P', 2), shown(r.t.weights, 1, w3));

  // Seed 7: the core's uniform 3 x 6 draw, split into three 3 x 2 blocks, two decimals.
  await page.fill('[data-control="pj-seed"]', '7');
  await page.click('[data-control="pj-draw"]');
  const R = attn.random({ rows: 3, cols: 6, seed: 7, distribution: 'uniform', lo: 0, hi: 1 });
  const [Wq] = attn.splitHeads(R, 3);
  const wq = Array.from(Wq.data.subarray(0, 2), (x) => String(Math.round(x * 100) / 100));
  assert.deepEqual(await cellTexts(page, 'pj-Wq', 1), wq);
  assert.notDeepEqual(await cellTexts(page, 'pj-Q', 2), shown(r.Q, 1));

  // A seed that is not a whole number is refused where it was typed; the state is kept.
  const before = await cellTexts(page, 'pj-Wq', 1);
  await page.fill('[data-control="pj-seed"]', '1.5');
  assert.equal(await page.getAttribute('[data-control="pj-seed"]', 'aria-invalid'), 'true');
  assert.ok(await page.isVisible('#projections .number-error'));
  await page.click('[data-control="pj-draw"]');
  assert.deepEqual(await cellTexts(page, 'pj-Wq', 1), before, 'drawing still uses the last good seed 7');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the symmetry sentence quotes the two scores as the S grid shows them', async () => {
  const { page, errors } = await env.openChapter(ID);
  // scores past float32's exact decimals and of both signs (fmt would print −2272002.25)
  for (const [g, i, j, v] of [['pj-X', 2, 1, '-5'], ['pj-Wq', 2, 1, '-0.9'], ['pj-Wk', 3, 2, '1e6']])
    await page.fill(cellInput(g, i, j), v);
  const S = [];
  for (let i = 1; i <= attn.example(ID).X.rows; i++) S.push(...await cellTexts(page, 'pj-S', i));
  const quoted = (await page.$$eval('[data-check="symmetry"] .katex-html', (ns) => ns.map((n) => n.textContent)))
    .filter((t) => /^\u2212?\d/.test(t)); // (not XXᵀ)
  assert.equal(quoted.length, 2, `two numbers in: ${await page.textContent('[data-check="symmetry"]')}`);
  for (const q of quoted) assert.ok(S.includes(q), `${q} is an S cell (${S.join(' ')})`);
  assert.ok(quoted.some((q) => q.startsWith('\u2212')), `a negative score, typographic minus: ${quoted.join(' ')}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('English prose (its axe-core scan and screenshots: every-chapter.test.mjs)', async () => {
  const { page, errors } = await env.openChapter(ID, { query: '?lang=en' });
  assert.match(await page.textContent(`#${ID} h2`), /trainable weights/);
  assert.match(await page.textContent('[data-check="symmetry"]'), /not/);
  assert.deepEqual(errors, []);
  await page.close();
});

// The chapter before (no-weights) is named, with a link, only where it is on the page; alone
// (?embed=, a widget) the same paragraphs stand on their own (tests/e2e/alone.test.mjs sweeps
// every chapter alone).
test('the chapter before is linked on the full page; alone the prose does without it', async () => {
  const links = (page) => page.$$eval(`#${ID} a[href^="#"]`, (as) => as.map((a) => a.getAttribute('href')));
  const { page, errors } = await env.open(`?lang=en#${ID}`);
  assert.deepEqual(await links(page), ['#no-weights', '#no-weights', '#no-weights']); // the lead, the input, the symmetry line
  assert.match(await page.textContent('[data-check="symmetry"]'), /^The previous chapter’s/);
  const alone = await env.openChapter(ID, { query: '?lang=en' });
  assert.deepEqual(await links(alone.page), []);
  assert.match(await alone.page.textContent('[data-check="symmetry"]'), /^Without weights the scores would be/);
  assert.match(await alone.page.textContent(`#${ID} .lead`), /^Attention can run without any weights/);
  assert.deepEqual([...errors, ...alone.errors], []);
  await page.close();
  await alone.page.close();
});
