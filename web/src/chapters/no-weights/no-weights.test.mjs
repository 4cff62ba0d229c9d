// Browser test of the chapter "no-weights": visited by its fragment, the numbers on screen
// are the core's, the loop-versus-matrix check holds, edits propagate, no console errors.
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, cellTexts, cellInput, shown, rowOf, assertAtFragment } from '../../../../tests/e2e/harness.mjs';

const ID = 'no-weights';
const env = await harness({ core: true });
const { attn } = env;
const w3 = { digits: 3, fixed: true };

test('scores, weights and context vectors are the core’s; the second token’s row is checked', async () => {
  const { page, errors } = await env.openChapter(ID);
  await assertAtFragment(page, ID);
  const { X } = attn.example(ID);
  const t = attn.attention(X, X, X, { scale: 1 });
  // The second token is the default query (seed 002 checks the second token).
  assert.equal(await page.isChecked('[data-choice="nw-focus"] input[value="1"]'), true);
  assert.deepEqual(await cellTexts(page, 'nw-S', 2), shown(t.scores, 1));
  assert.deepEqual(await cellTexts(page, 'nw-P', 2), shown(t.weights, 1, w3));
  assert.deepEqual(await cellTexts(page, 'nw-P-sums', 2), ['1.000']);
  assert.deepEqual(await cellTexts(page, 'nw-Z', 2), shown(t.output, 1));
  // The loop shows one line per key token, each ending in the matrix entry (bold).
  const loopLines = await page.$$eval('[data-worked="loop"] .katex-display', (ns) => ns.length);
  assert.equal(loopLines, X.rows);
  const bold = await page.$$eval('[data-worked="loop"] .katex-html .mord.mathbf', (ns) => ns.map((n) => n.textContent));
  assert.deepEqual(bold.join(''), shown(t.scores, 1).join(''));
  // Worked formulas carry their number slots from the start (kit/prose.js setMath), so the
  // first edit writes digits instead of typesetting every formula again.
  const slots = await page.$$eval('[data-worked] .katex-html .ae-n', (ns) => ns.length);
  assert.ok(slots >= X.rows * (2 * X.cols + 2), `${slots} slots before any edit`);
  assert.match(await page.textContent('[data-check="loop-vs-matrix"]'), /비트 단위까지 같/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('editing an input changes the dependent scores, weights and context vectors; the check still holds', async () => {
  const { page, errors } = await env.openChapter(ID);
  const before = { S: await cellTexts(page, 'nw-S', 2), P: await cellTexts(page, 'nw-P', 2), Z: await cellTexts(page, 'nw-Z', 2) };
  await page.fill(cellInput('nw-X', 2, 1), '1.5'); // token 2, component 1
  const X = attn.example(ID).X;
  X.data[3] = 1.5;
  const t = attn.attention(X, X, X, { scale: 1 });
  const after = { S: await cellTexts(page, 'nw-S', 2), P: await cellTexts(page, 'nw-P', 2), Z: await cellTexts(page, 'nw-Z', 2) };
  for (const k of ['S', 'P', 'Z']) assert.notDeepEqual(after[k], before[k], k);
  assert.deepEqual(after.S, shown(t.scores, 1));
  assert.deepEqual(after.Z, shown(t.output, 1));
  assert.match(await page.textContent('[data-check="loop-vs-matrix"]'), /비트 단위까지 같/);
  // Another query token: the loop follows it.
  await page.check('[data-choice="nw-focus"] input[value="3"]');
  assert.match(await page.textContent('[data-worked="loop"] .worked-title'), /토큰 4/);
  assert.equal(await page.$$eval('[data-grid="nw-S"] tbody tr:nth-child(4) td.hl', (n) => n.length), X.rows);
  // The next token's worked softmax has the same structure: its digits are written into the
  // typeset formula (kit/prose.js), in the TeX's order although the HTML holds the aligned
  // rows' left column (α₅ and Σⱼ α₅ⱼ) first; the formula's nodes stay.
  const softmax = () => page.evaluate(() => {
    const root = document.querySelector('[data-worked="softmax"] .katex');
    const nodes = window.__softmaxMo?.takeRecords().filter((r) => r.type !== 'characterData').length;
    window.__softmaxMo?.disconnect();
    window.__softmaxMo = new MutationObserver(() => {});
    window.__softmaxMo.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    // the slots setParts found in it (kit/prose.js): without them, a change retypesets and morphs
    const slotted = document.querySelector('[data-worked="softmax"] .worked-math').__parts?.[0]?.slots?.length ?? 0;
    return { nodes, slotted, text: root.querySelector('.katex-html').textContent.replace(/[\s\u200b]/g, '') };
  });
  await softmax();
  await page.check('[data-choice="nw-focus"] input[value="4"]');
  const sm = await softmax();
  assert.equal(sm.nodes, 0, 'the softmax formula is written in place: no node or attribute changed');
  assert.equal(sm.slotted, 2 * X.rows + X.rows + 3, 'every number of the softmax formula is a slot');
  assert.ok(sm.text.startsWith('α5∑jα5j='), sm.text); // the left column: α₅, Σⱼ α₅ⱼ
  assert.ok(sm.text.endsWith(`=[${shown(t.weights, 4, w3).join(',')}]=1.000`), sm.text);
  // the loop-versus-matrix line names the new row; its two vectors are written in place
  assert.match(await page.textContent('[data-worked="compare"]'), /XX.*의 5행/);
  assert.equal(await page.$$eval('[data-worked="compare"] .katex-html .ae-n', (ns) => ns.length), 2 * X.rows);
  await page.check('[data-choice="nw-focus"] input[value="3"]');
  // Token 4's largest score is not with itself in this example (a longer vector wins).
  const s4 = rowOf(t.scores, 3);
  assert.ok(Math.max(...s4) > s4[3], 'the example keeps a longer vector ahead of token 4 itself');
  assert.match(await page.textContent('#no-weights'), /자기 자신과의 점수 [\d.]+이 아니라/);
  // (malformed text: tests/e2e/smoke.test.mjs)
  assert.deepEqual(errors, []);
  await page.close();
});

test('the largest-score sentence quotes the scores as the S grid shows them', async () => {
  const { page, errors } = await env.openChapter(ID);
  // token 2 = (−1000, 0.3): its own score 1000000.09 is the float32 1000000.0625, fmt's
  // "1000000.063", the grid's "1000000.1"
  await page.fill(cellInput('nw-X', 2, 1), '-1000');
  await page.fill(cellInput('nw-X', 2, 2), '0.3');
  const S = await cellTexts(page, 'nw-S', 2);
  const sentence = page.locator('#no-weights p.hint', { hasText: /점수 중 가장 큰/ });
  const quoted = (await sentence.locator('.katex-html').allTextContents()).filter((t) => /^\u2212?\d/.test(t));
  assert.ok(quoted.length >= 1, await sentence.textContent());
  for (const q of quoted) assert.ok(S.includes(q), `${q} is a score of token 2 (${S.join(' ')})`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('English prose (its axe-core scan and screenshots: every-chapter.test.mjs)', async () => {
  const { page, errors } = await env.openChapter(ID, { query: '?lang=en' });
  assert.match(await page.textContent(`#${ID} h2`), /Attention with nothing to train/);
  assert.match(await page.textContent('[data-check="loop-vs-matrix"]'), /agree bit for bit/);
  assert.deepEqual(errors, []);
  await page.close();
});

// The next chapter (projections) is named, with a link, only where it is on the page; alone
// (?embed=, a widget) the same paragraphs stand on their own (tests/e2e/alone.test.mjs sweeps
// every chapter alone).
test('the next chapter is linked on the full page; alone the prose does without it', async () => {
  const links = (page) => page.$$eval(`#${ID} a[href^="#"]`, (as) => as.map((a) => a.getAttribute('href')));
  const { page, errors } = await env.open(`?lang=en#${ID}`);
  assert.deepEqual(await links(page), ['#projections', '#projections']); // the scaling it adds, the weight matrices
  const alone = await env.openChapter(ID, { query: '?lang=en' });
  assert.deepEqual(await links(alone.page), []);
  assert.match(await alone.page.textContent(`#${ID} .summary`), /trainable weight matrices \$?W/);
  assert.deepEqual([...errors, ...alone.errors], []);
  await page.close();
  await alone.page.close();
});
