// Browser tests: chapter two-keys (seeds/004), incl. the exercise.
// Each test visits a chapter by its URL fragment, reads a key number the core computed,
// edits an input and sees the dependent numbers change, and fails on any console error.
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, cells, numbers, near, cellInput, assertAtFragment, afterTimers, toggleLang } from '../../../../tests/e2e/harness.mjs';

const { openChapter, open } = await harness();

test('two-keys: every step of the document, computed by the core; an edit flows through', async () => {
  const { page, errors } = await openChapter('two-keys');
  await assertAtFragment(page, 'two-keys');
  assert.deepEqual(await cells(page, 'two-keys-scores', 1), ['1', '2']);
  const [s1, s2] = await numbers(page, 'two-keys-scaled', 1);
  near(s1, 0.707, 3, 'scaled 1');
  near(s2, 1.414, 3, 'scaled 2');
  const [e1, e2] = await numbers(page, 'two-keys-exp', 1);
  near(e1, 2.028, 3, 'e^0.707');
  near(e2, 4.113, 3, 'e^1.414');
  near((await numbers(page, 'two-keys-sum', 1))[0], 6.141, 3, 'sum');
  assert.deepEqual(await cells(page, 'two-keys-weights', 1), ['0.330', '0.670']);
  assert.deepEqual(await cells(page, 'two-keys-weights-sum', 1), ['1.000']);
  assert.deepEqual(await cells(page, 'two-keys-output', 1), ['0.330', '0.670']);
  const worked = await page.textContent('#two-keys-step-scaled');
  assert.ok(worked.includes('1.414'), 'the worked line shows √2 ≈ 1.414');
  // k1 = [2, 2] (same direction as q): k1 now scores 4 and wins.
  await page.fill(cellInput('two-keys-K', 1, 2), '2');
  await page.fill(cellInput('two-keys-K', 1, 1), '2');
  assert.deepEqual(await cells(page, 'two-keys-scores', 1), ['4', '2']);
  const [w1, w2] = await numbers(page, 'two-keys-weights', 1);
  assert.ok(w1 > w2, `k1 now gets more weight: ${w1} vs ${w2}`);
  assert.notDeepEqual(await cells(page, 'two-keys-output', 1), ['0.330', '0.670']);
  // (malformed text: tests/e2e/smoke.test.mjs)
  assert.deepEqual(errors, []);
  await page.close();
});

test('two-keys exercise: right, 1.414-rounded, close, a typical slip, wrong and garbage answers; the steps reveal', async () => {
  const { page, errors } = await openChapter('two-keys');
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
  assert.deepEqual(await cells(page, 'two-keys-ex-scores', 1), ['4', '0']);
  near((await numbers(page, 'two-keys-ex-scaled', 1))[0], 2.828, 3, '4/√2');
  near((await numbers(page, 'two-keys-ex-exp', 1))[0], 16.92, 2, 'e^2.828');
  near((await numbers(page, 'two-keys-ex-sum', 1))[0], 17.92, 2, 'sum');
  assert.deepEqual(await cells(page, 'two-keys-ex-weights', 1), ['0.944', '0.056']);
  const out = await numbers(page, 'two-keys-ex-output', 1);
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

// The numbers a step card's worked formulas show: KaTeX's HTML, one slot per number (a
// unary minus and a negative factor's parentheses are in the slot, a binary minus
// outside it, kit/prose.js).
const formulaNumbers = (page, card) => page.$$eval(`#${card} .worked-math .katex-html .ae-n`, (ns) => ns.map((n) => n.textContent.replace(/[()]/g, '')));
// The numbers of a sentence's inline maths, as shown (typographic minus).
const proseNumbers = (page, sel) => page.$$eval(`${sel} .katex-html`, (ns) => ns.map((n) => n.textContent));
const unsigned = (t) => t.replace('\u2212', '');
async function gridsAgreeWithFormulas(page, what) {
  for (const [card, grids] of [['scores', ['scores']], ['scaled', ['scaled']], ['exp', ['exp', 'sum']], ['weights', ['weights']], ['output', ['output']]]) {
    const shown = await formulaNumbers(page, `two-keys-step-${card}`);
    for (const g of grids) for (const c of await cells(page, `two-keys-${g}`, 1))
      assert.ok(shown.includes(c) || shown.includes(unsigned(c)), `${what}: the ${g} cell ${c} reads the same in its formula (${shown.join(' ')})`);
  }
}

test('two-keys: a number reads the same in its grid, its worked formula and the result sentence', async () => {
  const { page, errors } = await openChapter('two-keys');
  await gridsAgreeWithFormulas(page, 'default');
  // e^x above 10 and below 0.1: the grids and the formulas print the same significant digits
  await page.fill(cellInput('two-keys-q', 1, 1), '-2');
  await page.fill(cellInput('two-keys-K', 2, 2), '-3.5');
  await gridsAgreeWithFormulas(page, 'q = (−2, 1), K₂₂ = −3.5');
  await page.fill(cellInput('two-keys-q', 1, 1), '3');
  await page.fill(cellInput('two-keys-K', 2, 2), '2');
  await gridsAgreeWithFormulas(page, 'q = (3, 1)');
  // scores past float32's exact digits: 1e12 is stored as 999999995904, shown as 1000000000000
  for (const [g, i, j, v] of [['q', 1, 1, '1e6'], ['q', 1, 2, '1e6'], ['K', 1, 1, '1e6'], ['K', 2, 2, '-1e6']])
    await page.fill(cellInput(`two-keys-${g}`, i, j), v);
  const scores = await cells(page, 'two-keys-scores', 1);
  assert.deepEqual(scores.map(unsigned), ['1000000000000', '1000000000000']);
  await gridsAgreeWithFormulas(page, 'q = (1e6, 1e6)');
  const summary = await proseNumbers(page, '#two-keys p.summary');
  assert.ok(summary.includes(scores[0]), `the result sentence quotes the top score as its grid does: ${summary.join(' ')}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('two-keys: equal scores give equal weights, and the result sentence says so (ko, en)', async () => {
  const { default: ko } = await import('./ko.js');
  const { default: en } = await import('./en.js');
  const lead = (template) => template.split(/[{$]/)[0]; // the words before the first value
  const { page, errors } = await openChapter('two-keys');
  const summary = () => page.textContent('#two-keys p.summary');
  assert.ok((await summary()).startsWith(lead(ko.winner)), 'default: key 2 wins');
  for (const [j, v] of [[1, '0'], [2, '0']]) await page.fill(cellInput('two-keys-q', 1, j), v);
  assert.deepEqual(await cells(page, 'two-keys-scores', 1), ['0', '0']);
  const [w1, w2] = await cells(page, 'two-keys-weights', 1);
  assert.equal(w1, w2);
  assert.ok((await summary()).startsWith(lead(ko.winnerTie)), `q = 0: ${await summary()}`);
  assert.deepEqual(await proseNumbers(page, '#two-keys p.summary'), ['0', w1]);
  await page.close();
  // q = (2, 1) with the default K: both scores are 2
  const { page: p2, errors: e2 } = await openChapter('two-keys', { query: 'lang=en' });
  assert.match(await p2.textContent('#two-keys h2'), /One query, two keys/);
  await p2.fill(cellInput('two-keys-q', 1, 1), '2');
  assert.deepEqual(await cells(p2, 'two-keys-scores', 1), ['2', '2']);
  const text = await p2.textContent('#two-keys p.summary');
  assert.ok(text.startsWith(lead(en.winnerTie)), `q = (2, 1): ${text}`);
  assert.deepEqual(await proseNumbers(p2, '#two-keys p.summary'), ['2', '0.500']);
  await p2.fill(cellInput('two-keys-q', 1, 1), '3');
  assert.ok((await p2.textContent('#two-keys p.summary')).startsWith(lead(en.winner)), 'q = (3, 1): key 1 wins');
  assert.deepEqual([...errors, ...e2], []);
  await p2.close();
});

// A verdict holds for the values it judged (issue 26, first try 4): set q so that α₁ changes
// and "1 of 1 correct" goes; checking again judges the new value.
test('two-keys: an exercise verdict goes when the numbers it judged change', async () => {
  const { page, errors } = await openChapter('two-keys', { query: 'lang=en&two-keys=!hide:@two-keys-weights.1.1' });
  const W = '[data-grid="two-keys-weights"]';
  const result = () => page.textContent(`${W} .exercise-result`);
  await page.fill(`${W} td[data-i="0"][data-j="0"] input.answer`, '0.33');
  await page.click(`${W} [data-act="check"]`);
  assert.equal(await result(), '1 of 1 correct.');
  assert.equal(await page.$$eval(`${W} td.right`, (n) => n.length), 1);
  await page.fill(cellInput('two-keys-q', 1, 1), '2');
  await page.fill(cellInput('two-keys-q', 1, 2), '1');
  await page.waitForFunction((sel) => document.querySelector(sel).textContent === '0.500', `${W} td[data-i="0"][data-j="1"] .v`);
  assert.equal(await result(), '', 'the verdict about α₁ = 0.330 is gone');
  assert.equal(await page.$$eval(`${W} td.right, ${W} td.wrong`, (n) => n.length), 0);
  assert.equal(await page.inputValue(`${W} td[data-i="0"][data-j="0"] input.answer`), '0.33', 'the answer stays');
  await page.click(`${W} [data-act="check"]`);
  assert.equal(await result(), '0 of 1 correct.');
  // the verdict follows the language (a fresh try found it left in English)
  await toggleLang(page);
  await page.waitForFunction((sel) => document.querySelector(sel).textContent === '1개 중 0개 정답.', `${W} .exercise-result`);
  await toggleLang(page);
  await page.waitForFunction((sel) => document.querySelector(sel).textContent === '0 of 1 correct.', `${W} .exercise-result`);
  // an answer that cannot be right says why: not a number, or left empty
  for (const [answer, said] of [['1/3', '0 of 1 correct. “1/3” is not a number: write a decimal, like 0.33.'], ['33%', '0 of 1 correct. “33%” is not a number: write a decimal, like 0.33.'], ['', '0 of 1 correct. 1 answer left empty.']]) {
    await page.fill(`${W} td[data-i="0"][data-j="0"] input.answer`, answer);
    await page.click(`${W} [data-act="check"]`);
    assert.equal(await result(), said);
  }
  // an edit that leaves α₁ as it was (a value vector) keeps the verdict
  await page.fill(`${W} td[data-i="0"][data-j="0"] input.answer`, '0.5');
  await page.click(`${W} [data-act="check"]`);
  await page.fill(cellInput('two-keys-V', 1, 1), '5');
  await page.waitForFunction((sel) => document.querySelector(sel)?.value === '5', cellInput('two-keys-V', 1, 1));
  await afterTimers(page, 200); // past the page's 150 ms URL timer: the edit is applied and written
  assert.equal(await result(), '1 of 1 correct.');
  assert.deepEqual(errors, []);
  await page.close();
});

test('two-keys: a hidden α is "?" in every formula from the first render on, and after an edit (en, ko)', async () => {
  for (const lang of ['en', 'ko']) {
    const { page, errors } = await openChapter('two-keys', { query: `lang=${lang}&two-keys=!hide:@two-keys-weights.1.1` });
    const formulas = () => page.$$eval('#two-keys-step-weights .worked-math, #two-keys-step-output .worked-math',
      (ns) => ns.map((n) => n.textContent.replace(/\u2212/g, '-')).join(' | '));
    // the learner's first view: written before the grid took its values, it must still hide them
    const first = await formulas();
    assert.doesNotMatch(first, /(?<![\d.])0\.330(?!\d)/, `${lang}: α₁ = 0.330 hidden in step ④ and ⑤: ${first}`);
    assert.match(first, /\?/);
    // an edit: the new α₁ (0.500) is hidden, not the old one
    await page.fill(cellInput('two-keys-q', 1, 1), '2');
    await page.fill(cellInput('two-keys-q', 1, 2), '1');
    await page.waitForFunction(() => document.querySelector('[data-grid="two-keys-weights"] td[data-i="0"][data-j="1"] .v').textContent === '0.500');
    // (α₁ itself: α₂, also 0.500 now, is written; the next test)
    const after = await formulas();
    assert.match(after, /\\alpha_\{1\} = \\frac\{4\.113\}\{8\.227\} \\approx \\mathbf\{\?\}/, `${lang}: α₁ = 0.500 hidden after the edit: ${after}`);
    assert.match(after, /&\?\\,\[1,\\ 0\]/, `${lang}: and in step ⑤: ${after}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

// Issue 26, a newcomer's try (F2): hiding α₁ left o₁ = 0.330 on screen (V = I), from which
// the answer reads. The learner gets that cell covered, with a line that says why; the
// teacher, picking cells, sees it and is warned as before (en, ko).
test('two-keys: a number in another figure that gives a hidden answer away is covered for the learner, and says why (en, ko)', async () => {
  const O = '[data-grid="two-keys-output"]';
  for (const lang of ['en', 'ko']) {
    const { page, errors } = await openChapter('two-keys', { query: `lang=${lang}&two-keys=!hide:@two-keys-weights.1.1` });
    assert.equal(await page.$eval(`${O} td[data-i="0"][data-j="0"]`, (td) => td.classList.contains('covered')), true, `${lang}: o₁ = α₁ is covered`);
    assert.equal(await page.isVisible(`${O} td[data-i="0"][data-j="0"] .v`), false, `${lang}: its number is not shown`);
    assert.equal(await page.isVisible(`${O} td[data-i="0"][data-j="1"] .v`), true, 'o₂ (0.670) is not the answer');
    assert.equal(await page.$eval(`${O} td[data-i="0"][data-j="0"]`, (td) => td.style.backgroundColor), '', 'nor its colour');
    const note = await page.textContent(`${O} .covered-note`);
    assert.equal(await page.isVisible(`${O} .covered-note`), true);
    assert.match(note, lang === 'en' ? /covered: they would give away the answer/ : /가려 두었습니다/, note);
    // none of the page's text shows it either (the cell's number is not in the accessibility tree)
    const tree = await page.locator(O).ariaSnapshot();
    assert.match(tree, /0\.670/, `${lang}: the snapshot holds the numbers shown: ${tree}`);
    assert.doesNotMatch(tree, /0\.330/, `${lang}: ${tree}`);
    // nor what the figure's tools export
    await page.click(`${O} .grid-tools summary`);
    await page.click(`${O} [data-act="latex"]`);
    const latex = await page.inputValue(`${O} .grid-io textarea`);
    assert.match(latex, /\\square & 0\.670/, latex);
    assert.deepEqual(errors, []);
    await page.close();
  }
  // the teacher, picking cells, sees it and is told where it shows
  const { page, errors } = await open('?lang=en&two-keys=!hide:@two-keys-weights.1.1#two-keys');
  await page.click('#exercise-toggle');
  await page.waitForFunction((sel) => !document.querySelector(sel).classList.contains('covered'), `${O} td[data-i="0"][data-j="0"]`);
  assert.equal(await page.isVisible(`${O} td[data-i="0"][data-j="0"] .v`), true);
  assert.equal(await page.isVisible(`${O} .covered-note`), false);
  await page.waitForSelector('[data-grid="two-keys-weights"] .exercise-leak:not([hidden])');
  assert.match(await page.textContent('[data-grid="two-keys-weights"] .exercise-leak'), /0\.330 in .*“output[^”]*” under “⑤ Mix the values by the weights”/);
  await page.click('#exercise-toggle');
  await page.waitForFunction((sel) => document.querySelector(sel).classList.contains('covered'), `${O} td[data-i="0"][data-j="0"]`);
  assert.deepEqual(errors, []);
  await page.close();
});

// ... and a value is masked by what it is, not by being equal to the hidden one: with
// q = [2, 1] both weights are 0.500, and the formula still writes α₂ (α₁ stays "?").
test('two-keys: a formula masks the hidden cell itself, not another value that equals it', async () => {
  const { page, errors } = await openChapter('two-keys', { query: 'lang=en&two-keys=!hide:@two-keys-weights.1.1' });
  await page.fill(cellInput('two-keys-q', 1, 1), '2');
  await page.fill(cellInput('two-keys-q', 1, 2), '1');
  await page.waitForFunction(() => document.querySelector('[data-grid="two-keys-weights"] td[data-i="0"][data-j="1"] .v').textContent === '0.500');
  const tex = (sel) => page.$eval(`${sel} .worked-math annotation`, (n) => n.textContent.replace(/\s+/g, ' '));
  const weights = await tex('#two-keys-step-weights');
  assert.match(weights, /\\alpha_\{1\} = \\frac\{4\.113\}\{8\.227\} \\approx \\mathbf\{\?\}/, weights);
  assert.match(weights, /\\alpha_\{2\} = \\frac\{4\.113\}\{8\.227\} \\approx \\mathbf\{0\.500\}/, weights);
  // step ⑤: α₁ is "?", α₂ is written; o = [0.500, 0.500] gives α₁ away (v₁ = [1, 0]): covered
  const output = await tex('#two-keys-step-output');
  assert.match(output, /\?\\,\[1,\\ 0\] \+ 0\.500\\,\[0,\\ 1\]/, output);
  assert.match(output, /= \[\?,\\ \?\]/, output);
  assert.deepEqual(errors, []);
  await page.close();
});
