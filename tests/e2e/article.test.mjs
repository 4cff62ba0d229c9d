// The served page in headless Chromium: chapters terms-formula, two-keys, why-qkv, scaling
// and softmax (sources seeds/001 and seeds/004). Each test visits a chapter by its URL
// fragment, reads a key number the core computed, edits an input and sees the dependent
// numbers change, and fails on any console error.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer } from '../../web/scripts/serve.mjs';
import { launchChromium, openPage } from '../../web/scripts/browser.mjs';

const shots = process.env.ATTN_SCREENSHOT_DIR ?? join(process.cwd(), 'screenshots');
await mkdir(shots, { recursive: true });
const server = await startServer({ port: 0 });
const browser = await launchChromium();
test.after(async () => {
  await browser.close();
  await server.close();
});

const cells = (page, grid, row = 1) =>
  page.$$eval(`[data-grid="${grid}"] tbody tr:nth-child(${row}) td .v`, (ns) => ns.map((n) => n.textContent));
const numbers = async (page, grid, row = 1) => (await cells(page, grid, row)).map((t) => Number(t.replace('\u2212', '-')));
const near = (got, want, decimals, what) =>
  assert.ok(Math.abs(got - want) <= 0.5 * 10 ** -decimals + 1e-9, `${what}: page shows ${got}, document ${want}`);
const cellInput = (grid, i, j) => `[data-grid="${grid}"] tbody tr:nth-child(${i}) td:nth-of-type(${j}) input`;
// The chapter's section is scrolled to the top of the viewport by its fragment.
async function atFragment(page, id) {
  const top = await page.$eval(`#${id}`, (n) => n.getBoundingClientRect().top);
  assert.ok(Math.abs(top) < 40, `#${id} is at the top of the viewport (top = ${top})`);
}
const setRange = (page, control, value, nth = 0) =>
  page.$$eval(`[data-control="${control}"]`, (els, [v, k]) => {
    els[k].value = String(v);
    els[k].dispatchEvent(new Event('input', { bubbles: true }));
  }, [value, nth]);

test('terms-formula: glossary, the formula read inside out with live numbers, symbols link to the example', async () => {
  const { page, errors } = await openPage(browser, `${server.url}#terms-formula`);
  await atFragment(page, 'terms-formula');
  assert.equal(await page.$$eval('#terms-formula .glossary dt', (n) => n.length), 8);
  const softmaxLine = await page.textContent('#terms-formula .inside-out li[data-sym="softmax"]');
  for (const x of ['2.028', '4.113', '6.141', '0.330', '0.670']) assert.ok(softmaxLine.includes(x), `${x} in "${softmaxLine}"`);
  // Hovering √d_k lights up its place in the next chapter; clicking goes there.
  await page.hover('#terms-formula .sym-dk');
  assert.equal(await page.$eval('#two-keys-step-scaled', (n) => n.classList.contains('linked')), true);
  await page.click('#terms-formula .sym-dk');
  await page.waitForFunction(() => location.hash === '#two-keys-step-scaled');
  const top = await page.$eval('#two-keys-step-scaled', (n) => n.getBoundingClientRect().top);
  assert.ok(top >= -5 && top < 900, `the scaled step is on screen (top = ${top})`);
  // Keyboard: Tab to a symbol, Enter.
  await page.focus('#terms-formula .sym-softmax');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => location.hash === '#two-keys-step-weights');
  // The numbers quoted here follow the example's inputs.
  await page.fill(cellInput('two-keys-q', 1, 1), '3');
  const after = await page.textContent('#terms-formula .inside-out li[data-sym="scores"]');
  assert.ok(after.includes('3') && !after.includes('[1, 2]'), `scores line follows the edit: ${after}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('two-keys: every step of the document, computed by the core; an edit flows through', async () => {
  const { page, errors } = await openPage(browser, `${server.url}#two-keys`);
  await atFragment(page, 'two-keys');
  assert.deepEqual(await cells(page, 'two-keys-scores'), ['1', '2']);
  const [s1, s2] = await numbers(page, 'two-keys-scaled');
  near(s1, 0.707, 3, 'scaled 1');
  near(s2, 1.414, 3, 'scaled 2');
  const [e1, e2] = await numbers(page, 'two-keys-exp');
  near(e1, 2.028, 3, 'e^0.707');
  near(e2, 4.113, 3, 'e^1.414');
  near((await numbers(page, 'two-keys-sum'))[0], 6.141, 3, 'sum');
  assert.deepEqual(await cells(page, 'two-keys-weights'), ['0.330', '0.670']);
  assert.deepEqual(await cells(page, 'two-keys-weights-sum'), ['1.000']);
  assert.deepEqual(await cells(page, 'two-keys-output'), ['0.330', '0.670']);
  const worked = await page.textContent('#two-keys-step-scaled');
  assert.ok(worked.includes('1.414'), 'the worked line shows √2 ≈ 1.414');
  // k1 = [2, 2] (same direction as q): k1 now scores 4 and wins.
  await page.fill(cellInput('two-keys-K', 1, 2), '2');
  await page.fill(cellInput('two-keys-K', 1, 1), '2');
  assert.deepEqual(await cells(page, 'two-keys-scores'), ['4', '2']);
  const [w1, w2] = await numbers(page, 'two-keys-weights');
  assert.ok(w1 > w2, `k1 now gets more weight: ${w1} vs ${w2}`);
  assert.notDeepEqual(await cells(page, 'two-keys-output'), ['0.330', '0.670']);
  // Malformed text: inline error, last good state kept.
  await page.fill(cellInput('two-keys-q', 1, 1), '1..2');
  assert.equal(await page.getAttribute(cellInput('two-keys-q', 1, 1), 'aria-invalid'), 'true');
  assert.deepEqual(await cells(page, 'two-keys-scores'), ['4', '2']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('two-keys exercise: right, 1.414-rounded, close, a typical slip, wrong and garbage answers; the steps reveal', async () => {
  const { page, errors } = await openPage(browser, `${server.url}#two-keys-exercise`);
  const answer = async (a, b) => {
    await page.fill('#two-keys-exercise [data-answer="0"]', a);
    await page.fill('#two-keys-exercise [data-answer="1"]', b);
    await page.click('#two-keys-exercise [data-act="check-answer"]');
    return page.getAttribute('#two-keys-exercise [data-feedback]', 'data-verdict');
  };
  assert.equal(await answer('9.44', '0.56'), 'right');
  const msg = await page.textContent('#two-keys-exercise [data-feedback]');
  assert.match(msg, /9\.44\d/, `the core's value is shown: ${msg}`);
  assert.equal(await answer('9.442', '0.558'), 'right', 'with √2 rounded to 1.414');
  assert.equal(await answer('9.4', '0.6'), 'close');
  assert.equal(await answer('9.82', '0.18'), 'mistake', 'skipped ÷√d_k');
  assert.match(await page.textContent('#two-keys-exercise [data-feedback]'), /√d_k/);
  assert.equal(await answer('5', '5'), 'wrong');
  assert.equal(await answer('abc', '0.56'), 'error');
  assert.equal(await page.getAttribute('#two-keys-exercise [data-answer="0"]', 'aria-invalid'), 'true');
  assert.match(await page.textContent('#two-keys-exercise [data-feedback]'), /abc/);
  assert.equal(await answer('', '0.56'), 'error');
  // Enter submits too.
  await page.fill('#two-keys-exercise [data-answer="0"]', '9.44');
  await page.fill('#two-keys-exercise [data-answer="1"]', '0.56');
  await page.press('#two-keys-exercise [data-answer="1"]', 'Enter');
  assert.equal(await page.getAttribute('#two-keys-exercise [data-feedback]', 'data-verdict'), 'right');
  // Reveal the steps: computed from exact values, printed rounded.
  assert.equal(await page.isVisible('#two-keys-exercise-steps'), false);
  await page.click('#two-keys-exercise [data-act="reveal-steps"]');
  assert.equal(await page.isVisible('#two-keys-exercise-steps'), true);
  assert.equal(await page.getAttribute('#two-keys-exercise [data-act="reveal-steps"]', 'aria-expanded'), 'true');
  assert.deepEqual(await cells(page, 'two-keys-ex-scores'), ['4', '0']);
  near((await numbers(page, 'two-keys-ex-scaled'))[0], 2.828, 3, '4/√2');
  near((await numbers(page, 'two-keys-ex-exp'))[0], 16.92, 2, 'e^2.828');
  near((await numbers(page, 'two-keys-ex-sum'))[0], 17.92, 2, 'sum');
  assert.deepEqual(await cells(page, 'two-keys-ex-weights'), ['0.944', '0.056']);
  const out = await numbers(page, 'two-keys-ex-output');
  near(out[0], 9.44, 2, 'output 1');
  near(out[1], 0.56, 2, 'output 2');
  const rounding = await page.textContent('#two-keys-exercise-steps .note');
  for (const x of ['1.414', '2.829', '2.828']) assert.ok(rounding.includes(x), `${x} in the rounding note`);
  // A new problem: the old verdict goes, the check follows the core's new value.
  await page.fill(cellInput('two-keys-ex-V', 1, 1), '20');
  assert.equal(await page.textContent('#two-keys-exercise [data-feedback]'), '');
  assert.equal(await answer('9.44', '0.56'), 'wrong');
  assert.equal(await answer('18.88', '0.56'), 'right');
  assert.deepEqual(errors, []);
  await page.close();
});

test('why-qkv: W stays d_model × d_k while T changes; diagonal ≥ row with equal norms; asymmetry; cross-attention T_q ≠ T_k', async () => {
  const { page, errors } = await openPage(browser, `${server.url}#why-qkv`);
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
  const { page, errors } = await openPage(browser, `${server.url}#scaling`);
  await atFragment(page, 'scaling');
  // The sweep over d_k is sampled when it comes near the screen.
  assert.equal(await page.getAttribute('[data-plot="scaling-sweep"]', 'data-complete'), 'false');
  await page.$eval('[data-plot="scaling-sweep"]', (n) => n.scrollIntoView());
  await page.waitForSelector('[data-plot="scaling-sweep"][data-complete="true"]', { timeout: 60000 });
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

test('softmax: rows positive and summing to 1, checked on screen; the wrong axis side by side', async () => {
  const { page, errors } = await openPage(browser, `${server.url}#softmax`);
  await atFragment(page, 'softmax');
  for (const r of [1, 2, 3]) assert.deepEqual(await cells(page, 'softmax-P-sums', r), ['1.000000']);
  assert.deepEqual(await cells(page, 'softmax-P', 2), ['0.250', '0.250', '0.250', '0.250']);
  assert.equal(await page.getAttribute('[data-check="positive"]', 'data-ok'), 'true');
  assert.equal(await page.getAttribute('[data-check="sums"]', 'data-ok'), 'true');
  // Wrong axis: same shape, rows off, columns sum to 1.
  const rowSums = (await Promise.all([1, 2, 3].map((r) => numbers(page, 'softmax-cols-sums', r)))).flat();
  assert.ok(rowSums.some((x) => Math.abs(x - 1) > 0.01), `row sums under the wrong axis: ${rowSums}`);
  assert.deepEqual(await cells(page, 'softmax-cols-colsums'), ['1.000', '1.000', '1.000', '1.000']);
  assert.deepEqual(await cells(page, 'softmax-rows-sums', 1), ['1.000']);
  assert.match(await page.textContent('[data-verdict="axis"]'), /3\s*×\s*4/);
  // An edit: P changes, the sums stay 1.
  const before = await cells(page, 'softmax-P', 1);
  await page.fill(cellInput('softmax-S', 1, 4), '3');
  assert.notDeepEqual(await cells(page, 'softmax-P', 1), before);
  assert.deepEqual(await cells(page, 'softmax-P-sums', 1), ['1.000000']);
  // A huge gap: e^x overflows, the shifted path does not, and a weight underflows to 0.
  await page.fill(cellInput('softmax-S', 1, 1), '200');
  assert.equal(await page.getAttribute('[data-check="positive"]', 'data-ok'), 'false');
  assert.deepEqual(await cells(page, 'softmax-P-sums', 1), ['1.000000']);
  assert.match(await page.textContent('#softmax .worked-title'), /1/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the five chapters in English, in the table of contents; screenshots at desktop and phone width', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?lang=en#two-keys`);
  const toc = await page.$$eval('#toc a', (as) => as.map((a) => a.getAttribute('href')));
  for (const id of ['terms-formula', 'two-keys', 'why-qkv', 'scaling', 'softmax']) {
    assert.ok(toc.includes(`#${id}`), `${id} in the table of contents`);
    assert.equal(await page.$$eval(`section#${id}`, (n) => n.length), 1);
  }
  assert.match(await page.textContent('#two-keys h2'), /One query, two keys/);
  assert.match(await page.textContent('#why-qkv [data-verdict="diagonal"]'), /rows/);
  await page.click('#lang-toggle');
  assert.match(await page.textContent('#two-keys h2'), /Query 하나/);
  await page.$eval('[data-plot="scaling-sweep"]', (n) => n.scrollIntoView());
  await page.waitForSelector('[data-plot="scaling-sweep"][data-complete="true"]', { timeout: 60000 });
  for (const id of ['terms-formula', 'two-keys', 'why-qkv', 'scaling', 'softmax'])
    await (await page.$(`#${id}`)).screenshot({ path: join(shots, `${id}-desktop.png`) });
  await page.setViewportSize({ width: 360, height: 780 });
  for (const id of ['terms-formula', 'two-keys', 'why-qkv', 'scaling', 'softmax'])
    await (await page.$(`#${id}`)).screenshot({ path: join(shots, `${id}-phone.png`) });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than a 360px phone`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('accessibility: axe-core finds no violations in the five chapters', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.$eval('[data-plot="scaling-sweep"]', (n) => n.scrollIntoView());
  await page.waitForSelector('[data-plot="scaling-sweep"][data-complete="true"]', { timeout: 60000 });
  // Evaluated through the DevTools protocol, so the page's CSP does not apply.
  await page.evaluate(await readFile(new URL('../../web/node_modules/axe-core/axe.min.js', import.meta.url), 'utf8'));
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run({ include: [['#terms-formula'], ['#two-keys'], ['#why-qkv'], ['#scaling'], ['#softmax']] });
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
  assert.deepEqual(violations, []);
  assert.deepEqual(errors, []);
  await page.close();
});
