// Browser test of the chapter "causal-dropout": the additive mask, the live check that a
// later token cannot change earlier outputs (and can once the mask is off), and dropout
// (multipliers 1/(1 - rate), evaluation mode = no dropout).
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, cellTexts, cellInput, shown, fmt, assertAtFragment } from '../../../../tests/e2e/harness.mjs';

const ID = 'causal-dropout';
const env = await harness({ core: true });
const { attn } = env;
const w3 = { digits: 3, fixed: true };
const status = (page) => page.$$eval('[data-check="causal-status"] td', (tds) => tds.map((td) => td.dataset.same));

test('the mask is 0 / −∞, masked weights are exactly 0, and the numbers are the core’s', async () => {
  const { page, errors } = await env.openChapter(ID);
  await assertAtFragment(page, ID);
  const ex = attn.example(ID);
  assert.deepEqual(await cellTexts(page, 'cd-M', 2), ['0', '0', '−∞', '−∞', '−∞', '−∞']);
  const [Q, K, V] = [ex.Wq, ex.Wk, ex.Wv].map((W) => attn.matmul(ex.X, W));
  const t = attn.attention(Q, K, V, { causal: true, dropout: { rate: 0.5, seed: 1, training: true } });
  assert.deepEqual(await cellTexts(page, 'cd-masked', 2), shown(t.masked, 1));
  assert.deepEqual(await cellTexts(page, 'cd-P', 2), shown(t.weights, 1, w3));
  assert.deepEqual((await cellTexts(page, 'cd-P', 1)).slice(1), ['0.000', '0.000', '0.000', '0.000', '0.000']);
  assert.deepEqual(await cellTexts(page, 'cd-Pd', 3), shown(t.dropped, 2, w3));
  // Switching the mask off: no −∞ left, every weight positive.
  const check = '[data-check="first-token"]';
  const before = await page.$eval(check, (p) => p.innerHTML);
  await page.uncheck('[data-control="cd-causal"]');
  assert.deepEqual(await cellTexts(page, 'cd-M', 2), ['0', '0', '0', '0', '0', '0']);
  assert.ok((await cellTexts(page, 'cd-P', 1)).every((x) => Number(x) > 0));
  assert.notEqual(await page.$eval(check, (p) => p.innerHTML), before);
  // ... and on again: the sentence it showed comes back, its nodes put back in place as
  // they were (kit/prose.js keeps them: nothing inside the paragraph is written to).
  await page.$eval(check, (p) => {
    window.__inside = [];
    window.__mo = new MutationObserver((rs) => window.__inside.push(...rs.filter((r) => r.target !== p).map((r) => r.type)));
    window.__mo.observe(p, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await page.check('[data-control="cd-causal"]');
  assert.deepEqual(await page.$eval(check, (p) => [p.innerHTML, window.__mo.takeRecords().length, window.__inside]), [before, 0, []]);
  assert.deepEqual(await cellTexts(page, 'cd-P', 2), shown(t.weights, 1, w3));
  // The radio groups' labels (kit/controls.js choice) are not written by an edit: their
  // text changes only with the language.
  await page.$eval('#causal-dropout', (s) => {
    window.__labelRecs = 0;
    window.__labels = new MutationObserver((rs) => { window.__labelRecs += rs.length; });
    for (const l of s.querySelectorAll('[data-choice] > .label')) window.__labels.observe(l, { subtree: true, childList: true, characterData: true });
  });
  await page.uncheck('[data-control="cd-causal"]');
  assert.equal(await page.$eval('#causal-dropout', (s) => s.querySelectorAll('[data-choice] > .label').length), 2);
  assert.equal(await page.evaluate(() => window.__labelRecs + window.__labels.takeRecords().length), 0, 'a choice label was rewritten by an edit');
  assert.deepEqual(errors, []);
  await page.close();
});

test('live check: changing a later token leaves earlier outputs bit-identical, unless the mask is off', async () => {
  const { page, errors } = await env.openChapter(ID);
  const probe = 3; // default: token 4
  let s = await status(page);
  assert.deepEqual(s.slice(0, probe), ['true', 'true', 'true']);
  assert.ok(s.slice(probe).includes('false'), 'the changed token and later ones do change');
  // Type a very different input for token 4: the earlier rows still do not move.
  const Z0 = await cellTexts(page, 'cd-Z2', 1);
  await page.fill(cellInput('cd-new', 1, 1), '40');
  assert.deepEqual(await cellTexts(page, 'cd-Z2', 1), Z0);
  assert.deepEqual((await status(page)).slice(0, probe), ['true', 'true', 'true']);
  // Another token to change (t6), another draw.
  await page.check('[data-choice="cd-probe"] input[value="5"]');
  await page.click('[data-control="cd-redraw"]');
  s = await status(page);
  assert.deepEqual(s.slice(0, 5), ['true', 'true', 'true', 'true', 'true']);
  // Mask off: the future leaks into earlier outputs.
  await page.uncheck('[data-control="cd-causal"]');
  s = await status(page);
  assert.ok(s.slice(0, 5).includes('false'), 'without the mask an earlier token changes');
  assert.deepEqual(errors, []);
  await page.close();
});

test('dropout: multipliers 0 or 1/(1 − rate), evaluation mode leaves P as it is', async () => {
  const { page, errors } = await env.openChapter(ID);
  const ones = attn.matrix(6, 6, new Float32Array(36).fill(1));
  const D = attn.dropout(ones, { rate: 0.5, seed: 1 });
  assert.deepEqual(await cellTexts(page, 'cd-D', 1), shown(D, 0, { digits: 2 }));
  assert.ok((await cellTexts(page, 'cd-D', 1)).every((x) => x === '0' || x === '2'));
  const sums = (await page.$$eval('[data-grid="cd-sums"] td .v', (ns) => ns.map((n) => n.textContent)));
  assert.ok(sums.some((x) => x !== '1.000'), 'training mode: some row sum is not 1');
  // Rate 0.25: survivors ×4/3.
  await page.$eval('[data-control="cd-rate"]', (n) => { n.value = '0.25'; n.dispatchEvent(new Event('input', { bubbles: true })); });
  const D25 = attn.dropout(ones, { rate: 0.25, seed: 1 });
  assert.deepEqual(await cellTexts(page, 'cd-D', 2), shown(D25, 1, { digits: 2 }));
  assert.ok((await cellTexts(page, 'cd-D', 2)).every((x) => x === '0' || x === fmt(1 / 0.75, { digits: 2 })));
  // Evaluation: dropout off, rows sum to 1, P ⊙ D shows P.
  await page.check('[data-choice="cd-mode"] input[value="false"]');
  const P2 = await cellTexts(page, 'cd-P-2', 4);
  assert.deepEqual(await cellTexts(page, 'cd-Pd', 4), P2);
  assert.deepEqual(await page.$$eval('[data-grid="cd-sums"] td .v', (ns) => ns.map((n) => n.textContent)), Array(6).fill('1.000'));
  // (a new seed, a bad one: tests/e2e/smoke.test.mjs)
  assert.deepEqual(errors, []);
  await page.close();
});

test('English prose (its axe-core scan and screenshots: every-chapter.test.mjs)', async () => {
  const { page, errors } = await env.openChapter(ID, { query: '?lang=en' });
  assert.match(await page.textContent('[data-check="mask-vs-dropout"]'), /structural constraint/);
  assert.match(await page.textContent('[data-check="mask-vs-dropout"]'), /regulariser/);
  assert.deepEqual(errors, []);
  await page.close();
});

// The inputs are the projections chapter's (the same example, not the chapter just before,
// multi-head): named, with a link, where that chapter is on the page; alone (?embed=, a
// widget) the paragraph introduces them itself.
test('the chapter whose inputs these are is linked on the full page; alone the paragraph does without it', async () => {
  const links = (page) => page.$$eval(`#${ID} a[href^="#"]`, (as) => as.map((a) => a.getAttribute('href')));
  const { page, errors } = await env.open(`?lang=en#${ID}`);
  assert.deepEqual(await links(page), ['#projections']);
  const alone = await env.openChapter(ID, { query: '?lang=en' });
  assert.deepEqual(await links(alone.page), []);
  assert.deepEqual([...errors, ...alone.errors], []);
  await page.close();
  await alone.page.close();
});
