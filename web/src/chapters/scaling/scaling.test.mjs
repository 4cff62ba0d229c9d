// Browser tests: chapter scaling (seeds/001, seeds/004).
// Each test visits a chapter by its URL fragment, reads a key number the core computed,
// edits an input and sees the dependent numbers change, and fails on any console error.
import test from 'node:test';
import assert from 'node:assert/strict';
import { harness, cells, numbers, near, cellInput, assertAtFragment, setRange, completeSweep, afterTimers } from '../../../../tests/e2e/harness.mjs';

const { openChapter } = await harness();

test('scaling: std 8 at d_k = 64 and 22.6 at 512, sampled variance ≈ d_k, saturation numbers, ratio ≈ 664', async () => {
  const { page, errors } = await openChapter('scaling');
  await assertAtFragment(page, 'scaling');
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
  const p = await numbers(page, 'scaling-raw-p', 1);
  near(p[0], 0.9997, 4, 'p1');
  near(p[1], 0.0003, 4, 'p2');
  near(p[2], 0.0000001, 7, 'p3');
  near((await numbers(page, 'scaling-raw-g', 1))[0], 0.0003, 4, 'gradient before');
  assert.deepEqual(await cells(page, 'scaling-sqrt-p', 1), ['0.665', '0.245', '0.090']);
  near((await numbers(page, 'scaling-sqrt-g', 1))[0], 0.223, 3, 'gradient after');
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
  assert.notDeepEqual(await cells(page, 'scaling-sqrt-p', 1), ['0.665', '0.245', '0.090']);
  assert.doesNotMatch(await page.textContent('[data-out="ratio"]'), /664/);
  // Geometry: q·k = |q||k|cos θ on screen.
  assert.match(await page.textContent('[data-out="geometry"]'), /45/);
  await page.fill(cellInput('scaling-k', 1, 1), '-1');
  await page.fill(cellInput('scaling-k', 1, 2), '3');
  assert.match(await page.textContent('[data-out="geometry"]'), /90/);
  assert.deepEqual(errors, []);
  await page.close();
});

// The saturation prose at d_k ≠ 64: every weight it states is the one the figure prints,
// "nearly uniform" only when the third line's weights are within the stated tolerance,
// and the "move d_k up" hint only below the slider's end.
for (const lang of ['ko', 'en']) {
  test(`scaling (${lang}): the saturation prose matches the figure at d_k = 4, 16, 64, 512`, async () => {
    const { page, errors } = await openChapter('scaling', { query: `lang=${lang}` });
    await page.waitForSelector('[data-out="over-squash"]');
    const text = (out) => page.$eval(`[data-out="${out}"]`, (n) => n.textContent.replace(/\u2212/g, '-'));
    const cellTexts = async (grid) => (await cells(page, grid)).map((t) => t.replace(/\u2212/g, '-'));
    const uniformWords = lang === 'ko' ? /고르게 됩니다/ : /come out nearly uniform/;
    const notUniformWords = lang === 'ko' ? /고르다고 할 정도.*는 아닙니다/ : /not nearly uniform/;
    for (const exp of [2, 4, 6, 9]) {
      const dk = 2 ** exp;
      await setRange(page, 'dkExp', exp);
      await page.waitForFunction((d) => new RegExp(`= ${d}(?![\\d,])`).test(document.querySelector('[data-out="over-squash"]').textContent), dk);
      // First line: the stated weight of the largest score is the figure's.
      const raw = await cellTexts('scaling-raw-p');
      const body = await text('saturation');
      const top = raw.map(Number).indexOf(Math.max(...raw.map(Number)));
      assert.ok(body.includes(raw[top]), `d_k ${dk}: the body states the first line's top weight ${raw[top]}: ${body}`);
      assert.doesNotMatch(body, /±/, `d_k ${dk}: no claimed spread of the fixed scores`);
      // Third line: stated largest and smallest weight are the figure's; the verdict follows them.
      const third = await cellTexts('scaling-dk-p');
      const w = third.map(Number);
      const note = await text('over-squash');
      const pmax = third[w.indexOf(Math.max(...w))], pmin = third[w.indexOf(Math.min(...w))];
      assert.ok(note.includes(pmax) && note.includes(pmin), `d_k ${dk}: note states ${pmax} and ${pmin}: ${note}`);
      const tol = Number(note.match(/(\d+(?:\.\d+)?)\s*(?:times|배 이하)/g).at(-1).match(/\d+(?:\.\d+)?/)[0]);
      const uniform = Math.max(...w) / Math.min(...w) <= tol + 0.01; // the figure's weights are rounded
      if (uniform) assert.match(note, uniformWords, `d_k ${dk}: ${note}`);
      else {
        assert.doesNotMatch(note, uniformWords, `d_k ${dk}: ${note}`);
        assert.match(note, notUniformWords, `d_k ${dk}: ${note}`);
      }
      // The defaults (8, 0, −8) are not nearly uniform below d_k = 64, nearly uniform at 512.
      assert.equal(uniform, dk >= 64, `d_k ${dk}: weights ${third}`);
      // The hint to move d_k up: hidden at the end, true figures elsewhere.
      const pushHidden = await page.$eval('[data-out="push"]', (n) => n.hidden);
      assert.equal(pushHidden, exp === 9, `d_k ${dk}: push hint hidden only at 512`);
      if (!pushHidden) {
        const push = await text('push');
        assert.match(push, /22\.6/);
        assert.ok(push.includes(String(Number(Math.sqrt(512 / dk).toFixed(2)))), `d_k ${dk}: ${push}`);
      }
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}

// A plot redrawn for another d_k changes its bars' attributes instead of building its SVG
// anew (components/plot.js, reuse): counted, not timed.
test('scaling: a histogram redrawn for another d_k keeps its SVG nodes', async () => {
  const { page, errors } = await openChapter('scaling');
  const hist = '[data-plot="scaling-hist-raw"]';
  await page.$eval(hist, (n) => n.scrollIntoView({ block: 'center' }));
  await page.waitForFunction((sel) => document.querySelectorAll(`${sel} rect.bar`).length === 32, hist);
  const before = await page.$eval(hist, (n) => {
    window.__bars = [...n.querySelectorAll('rect.bar')];
    window.__ticks = [...n.querySelectorAll('g.axis text')];
    return window.__bars.map((r) => r.getAttribute('height')).join();
  });
  await setRange(page, 'dkExp', 8);
  await page.waitForFunction((sel) => /(?<![\d,])256(?![\d,])/.test(document.querySelector(sel).querySelector('figcaption').textContent), hist);
  const after = await page.$eval(hist, (n) => ({
    heights: [...n.querySelectorAll('rect.bar')].map((r) => r.getAttribute('height')).join(),
    same: [...n.querySelectorAll('rect.bar')].every((r, i) => r === window.__bars[i]),
    ticksKept: [...n.querySelectorAll('g.axis text')].filter((t) => window.__ticks.includes(t)).length,
    labels: [...n.querySelectorAll('g.axis text')].map((t) => t.textContent),
  }));
  assert.notEqual(after.heights, before, 'the bars show the new sample');
  assert.ok(after.same, 'the same 32 bars, moved');
  assert.ok(after.ticksKept >= 4, `the axis keeps its labels' nodes (${after.ticksKept} kept): ${after.labels}`);
  assert.deepEqual(errors, []);
  await page.close();
});

// The sweep draws each (seed, d_k) once and in pieces (sampleDotProducts' `first`): raising
// the count draws only the pairs added, a seed seen before draws nothing, and a large draw
// shows the pairs drawn so far, then the whole sample, the same as a page that drew it at
// once. Counted (data-drawn: pairs drawn so far), not timed.
test('scaling: the sweep draws only the pairs it lacks, in pieces, to the same numbers', async () => {
  const { page, errors } = await openChapter('scaling');
  await completeSweep(page);
  const drawn = () => page.getAttribute('[data-plot="scaling-sweep"]', 'data-drawn').then(Number);
  const stats = () => page.textContent('[data-out="variance"]');
  assert.equal(await drawn(), 8 * 2000, 'each of the 8 d_k: its 2000 pairs, once');
  // Raising the count draws the pairs added, then (idle) on up to 1000 past the count,
  // each pair once; the next steps up then find their pairs drawn: complete in the edit's task.
  await setRange(page, 'count', 2200);
  await page.waitForSelector('[data-plot="scaling-sweep"][data-complete="true"]');
  await page.waitForFunction((n) => Number(document.querySelector('[data-plot="scaling-sweep"]').dataset.drawn) === n, 8 * 3200);
  const stepUp = (v) => page.$eval('[data-control="count"]', (el, x) => {
    el.value = String(x);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    return document.querySelector('[data-plot="scaling-sweep"]').dataset.complete;
  }, v);
  assert.equal(await stepUp(2400), 'true', 'count 2400: every d_k drawn already');
  // (and on, idle, to 2400 + 1000)
  await page.waitForFunction((n) => Number(document.querySelector('[data-plot="scaling-sweep"]').dataset.drawn) === n, 8 * 3400);
  assert.equal(await stepUp(2000), 'true', 'a smaller count takes the first pairs');
  await afterTimers(page, 300); // (the idle drawing's timers)
  assert.equal(await drawn(), 8 * 3400, 'nothing drawn twice');
  // d_k = 512 with a new seed: more than one edit draws at once, so the pairs drawn so far
  // are shown and said, then the whole sample.
  await setRange(page, 'dkExp', 9);
  const whole = await stats();
  // (seen after the edit's own task: the stats of the pairs drawn so far and the note saying
  // so, together; the rest comes in later tasks)
  await page.evaluate(() => {
    const st = document.querySelector('[data-out="variance"]'), note = document.querySelector('[data-out="variance-pending"]');
    window.__partial = null;
    new MutationObserver(() => {
      if (st.dataset.complete === 'false' && !note.hidden) window.__partial ??= st.textContent;
    }).observe(document.getElementById('scaling'), { subtree: true, childList: true, attributes: true, characterData: true });
  });
  await page.fill('#scaling [data-control="seed"]', '9');
  await page.press('#scaling [data-control="seed"]', 'Enter');
  await page.waitForSelector('[data-out="variance"][data-complete="true"]');
  assert.match(await page.evaluate(() => window.__partial), /표본 64쌍/, 'first the 64 pairs one edit draws at d_k = 512');
  assert.equal(await page.isVisible('[data-out="variance-pending"]'), false);
  const seed9 = await stats();
  assert.match(seed9, /2,?000/);
  assert.notEqual(seed9, whole);
  await page.waitForSelector('[data-plot="scaling-sweep"][data-complete="true"]');
  assert.equal(await drawn(), 8 * 3400 + 8 * 2000, 'a new seed: its own 2000 pairs per d_k');
  const row512 = await numbers(page, 'scaling-sweep-table', 8);
  await page.fill('#scaling [data-control="seed"]', '1');
  await page.press('#scaling [data-control="seed"]', 'Enter');
  await page.waitForFunction((s) => document.querySelector('[data-out="variance"]').textContent === s, whole);
  assert.equal(await drawn(), 8 * 3400 + 8 * 2000, 'back to seed 1: nothing drawn');
  // A page opened at seed 9 and d_k = 512 (its own draw) says the same.
  const fresh = await openChapter('scaling');
  await completeSweep(fresh.page);
  await fresh.page.fill('#scaling [data-control="seed"]', '9');
  await fresh.page.press('#scaling [data-control="seed"]', 'Enter');
  await setRange(fresh.page, 'dkExp', 9);
  await fresh.page.waitForSelector('[data-out="variance"][data-complete="true"]');
  await fresh.page.waitForSelector('[data-plot="scaling-sweep"][data-complete="true"]');
  assert.equal(await fresh.page.textContent('[data-out="variance"]'), seed9);
  assert.deepEqual(await numbers(fresh.page, 'scaling-sweep-table', 8), row512);
  assert.deepEqual([...errors, ...fresh.errors], []);
  await fresh.page.close();
  await page.close();
});
