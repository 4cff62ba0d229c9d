// The analysis helpers of the built module (web/dist/attn.mjs) in Node: every number the
// chapters terms-formula, two-keys, why-qkv, scaling and softmax quote from seeds/001 and
// seeds/004, at the precision the documents print; argument checks; determinism; and the
// exercise's answer checking (web/src/answer-check.js) against the core's values.
import test from 'node:test';
import assert from 'node:assert/strict';
import createAttention from '../../web/dist/attn.mjs';
import { parseAnswer, checkAnswer } from '../../web/src/answer-check.js';

const attn = await createAttention();
const M = (rows, cols, data) => attn.matrix(rows, cols, data);
const row = (m, i = 0) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
// |got − printed| ≤ half a unit in the last printed place.
const printed = (got, want, decimals, what) =>
  assert.ok(Math.abs(got - want) <= 0.5 * 10 ** -decimals + 1e-9, `${what}: core ${got}, document ${want} (${decimals} decimals)`);

test('seed 004: one query, two keys — [1,2] → [0.707,1.414] → e^x [2.028,4.113], sum 6.141 → [0.330,0.670]', () => {
  const q = M(1, 2, [1, 1]), K = M(2, 2, [1, 0, 0, 2]), V = M(2, 2, [1, 0, 0, 1]);
  const t = attn.attention(q, K, V);
  assert.deepEqual(row(t.scores), [1, 2]);
  const sc = attn.scoreScale(2);
  printed(sc.sqrtDk, 1.414, 3, '√2');
  assert.equal(sc.factor, t.scale);
  printed(t.scaled.data[0], 0.707, 3, '1/√2');
  printed(t.scaled.data[1], 1.414, 3, '2/√2');
  const p = attn.softmaxParts(t.scaled);
  printed(p.expRaw.data[0], 2.028, 3, 'e^0.707');
  printed(p.expRaw.data[1], 4.113, 3, 'e^1.414');
  printed(p.sumsRaw.data[0], 6.141, 3, 'sum');
  printed(t.weights.data[0], 0.330, 3, 'α1');
  printed(t.weights.data[1], 0.670, 3, 'α2');
  printed(attn.rowSums(t.weights).data[0], 1, 6, 'α1 + α2');
  printed(t.output.data[0], 0.330, 3, 'output 1');
  printed(t.output.data[1], 0.670, 3, 'output 2');
  assert.deepEqual(row(p.weights), row(t.weights), 'softmaxParts.weights is softmax');
});

test('seed 004: the exercise — [4,0] → 2.828 → e^x 16.92, sum 17.92 → [0.944,0.056] → [9.44,0.56]', () => {
  const q = M(1, 2, [2, 0]), K = M(2, 2, [2, 0, 0, 2]), V = M(2, 2, [10, 0, 0, 10]);
  const t = attn.attention(q, K, V);
  assert.deepEqual(row(t.scores), [4, 0]);
  printed(t.scaled.data[0], 2.828, 3, '4/√2');
  const p = attn.softmaxParts(t.scaled);
  printed(p.expRaw.data[0], 16.92, 2, 'e^2.828');
  assert.equal(p.expRaw.data[1], 1, 'e^0 = 1');
  printed(p.sumsRaw.data[0], 17.92, 2, 'sum');
  printed(t.weights.data[0], 0.944, 3, 'α1');
  printed(t.weights.data[1], 0.056, 3, 'α2');
  printed(t.output.data[0], 9.44, 2, 'output 1');
  printed(t.output.data[1], 0.56, 2, 'output 2');
  // Chained rounding (CONTENT.md): from the printed 1.414 and 2.828 instead of exact values.
  printed(attn.scale(M(1, 1, [4]), 1 / 1.414).data[0], 2.829, 3, '4/1.414');
  const r = attn.softmaxParts(M(1, 2, [2.828, 1.414]));
  printed(r.expRaw.data[0], 16.91, 2, 'e^2.828 from the printed value');
  printed(r.expRaw.data[1], 4.112, 3, 'e^1.414 from the printed value');
});

test('answer checking: right, 1.414-rounded, close, typical slips, wrong, garbage', () => {
  const q = M(1, 2, [2, 0]), K = M(2, 2, [2, 0, 0, 2]), V = M(2, 2, [10, 0, 0, 10]);
  const exact = attn.attention(q, K, V).output.data;
  const t = attn.attention(q, K, V);
  const mistakes = {
    noScale: attn.attention(q, K, V, { scale: 1 }).output.data,
    byDk: attn.attention(q, K, V, { scale: 1 / 2 }).output.data,
    noSoftmax: attn.weightedSum(t.scaled, V).data,
  };
  const byHand = attn.attention(q, K, V, { scale: 1 / 1.414 }).output.data; // √2 rounded to 1.414
  const check = (texts) => {
    const p = parseAnswer(texts);
    return p.error ? p : checkAnswer(p.values, exact, { mistakes });
  };
  assert.equal(check(['9.44', '0.56']).verdict, 'right', 'the document\'s answer');
  assert.equal(check([byHand[0].toFixed(3), byHand[1].toFixed(3)]).verdict, 'right', 'with √2 ≈ 1.414');
  assert.equal(check(['9.442', '0.558']).verdict, 'right');
  assert.equal(check([' 9.44 ', '−0.56']).verdict, 'wrong', 'a sign error is wrong');
  assert.equal(check(['9.4', '0.6']).verdict, 'close', 'rounded too early');
  const noScale = check([mistakes.noScale[0].toFixed(2), mistakes.noScale[1].toFixed(2)]);
  assert.deepEqual([noScale.verdict, noScale.mistake], ['mistake', 'noScale']);
  assert.equal(check([mistakes.byDk[0].toFixed(2), mistakes.byDk[1].toFixed(2)]).mistake, 'byDk');
  assert.equal(check([mistakes.noSoftmax[0].toFixed(2), mistakes.noSoftmax[1].toFixed(2)]).mistake, 'noSoftmax');
  assert.equal(check(['5', '5']).verdict, 'wrong');
  assert.deepEqual(check(['abc', '0.56']), { error: 'nan', index: 0, text: 'abc' });
  assert.deepEqual(check(['9.44', '']), { error: 'empty', index: 1, text: '' });
  assert.equal(check(['1e999', '0']).error, 'range');
  assert.equal(check(['9,44', '0.56']).error, 'nan');
  assert.throws(() => checkAnswer([1], exact), RangeError);
});

test('seed 001: saturation — [8,0,−8] → [0.9997,0.0003,0.0000001], ÷8 → [0.665,0.245,0.090]; gradients 0.0003 and 0.223; ratio ≈ 664, not 700', () => {
  const S = M(1, 3, [8, 0, -8]);
  const sc = attn.scoreScale(64);
  printed(sc.sqrtDk, 8, 0, '√64');
  printed(attn.scoreScale(512).sqrtDk, 22.6, 1, '√512');
  const e = attn.scalingEffect(S, sc.factor);
  assert.equal(e.factor, 0.125);
  printed(e.weights.data[0], 0.9997, 4, 'p1');
  printed(e.weights.data[1], 0.0003, 4, 'p2');
  printed(e.weights.data[2], 0.0000001, 7, 'p3');
  assert.equal(e.top.data[0], 0);
  printed(e.gradTop.data[0], 0.0003, 4, 'p(1−p) before');
  assert.deepEqual(row(e.scaled), [1, 0, -1]);
  printed(e.weightsScaled.data[0], 0.665, 3, 'p1 scaled');
  printed(e.weightsScaled.data[1], 0.245, 3, 'p2 scaled');
  printed(e.weightsScaled.data[2], 0.090, 3, 'p3 scaled');
  printed(e.gradTopScaled.data[0], 0.223, 3, 'p(1−p) after');
  printed(e.ratio.data[0], 664, 0, 'ratio');
  assert.ok(e.ratio.data[0] < 700, 'the computed ratio is below the article\'s "over 700"');
  // The article's arithmetic on rounded values is what gives "over 700".
  assert.ok(Number(e.gradTopScaled.data[0].toFixed(3)) / Number(e.gradTop.data[0].toFixed(4)) > 700);
  // Jacobian diagonal = p(1 − p) entry by entry; full Jacobian rows sum to 0.
  const J = attn.softmaxJacobian(e.weightsScaled);
  assert.deepEqual([J.rows, J.cols], [3, 3]);
  // (the Jacobian of grad.hpp is computed in float as p − p·p, the diagonal in double: a few ulps apart)
  row(attn.softmaxJacobianDiag(e.weightsScaled)).forEach((d, j) => assert.ok(Math.abs(d - J.data[j * 3 + j]) < 1e-7));
  row(attn.colSums(J)).forEach((x) => assert.ok(Math.abs(x) < 1e-7));
  // ÷ d_k over-squashes: nearly uniform weights.
  row(attn.scalingEffect(S, 1 / 64).weightsScaled).forEach((p) => assert.ok(Math.abs(p - 1 / 3) < 0.05));
});

test('seed 001: Var(q·k) grows like d_k and ÷√d_k brings it back to 1; deterministic under a seed', () => {
  const n = 2000;
  for (const dk of [4, 64, 512]) {
    const r = attn.sampleDotProducts({ dk, count: n, seed: 1 });
    assert.equal(r.dots.rows, n);
    assert.equal(r.expectedVariance, dk);
    // Standard error of the sample variance of q·k: √((2d_k² + 6d_k)/n); five of them.
    const se = Math.sqrt((2 * dk * dk + 6 * dk) / n);
    assert.ok(Math.abs(r.raw.variance - dk) <= 5 * se, `d_k ${dk}: variance ${r.raw.variance}`);
    assert.ok(Math.abs(r.normalized.variance - 1) <= 5 * se / dk, `d_k ${dk}: scaled variance ${r.normalized.variance}`);
    const again = attn.sampleDotProducts({ dk, count: n, seed: 1 });
    assert.deepEqual(Array.from(again.dots.data), Array.from(r.dots.data), 'same seed, same samples');
    assert.notEqual(attn.sampleDotProducts({ dk, count: n, seed: 2 }).dots.data[0], r.dots.data[0]);
    // A smaller count is the first rows of a larger draw, and their moments are the
    // sample's own (the scaling chapter keeps one draw per d_k and takes its first rows).
    const more = attn.sampleDotProducts({ dk, count: 2 * n + 1, seed: 1 });
    const first = attn.matrix(n, 1, more.dots.data.subarray(0, n));
    assert.deepEqual(Array.from(first.data), Array.from(r.dots.data), 'more samples extend fewer');
    assert.deepEqual(attn.moments(first), r.raw);
    assert.deepEqual(attn.moments(attn.scale(first, attn.scoreScale(dk).factor)), r.normalized);
    // A draw in pieces ({first}): the pieces put together are the whole draw, bit for bit.
    const parts = [0, 700, 1500].map((f, i, a) => attn.sampleDotProducts({ dk, count: (a[i + 1] ?? n) - f, seed: 1, first: f }));
    assert.deepEqual(parts.map((p) => p.first), [0, 700, 1500]);
    assert.deepEqual(parts.flatMap((p) => Array.from(p.dots.data)), Array.from(r.dots.data), 'pieces make the whole draw');
  }
  const h = attn.histogram(attn.sampleDotProducts({ dk: 16, count: 500, seed: 3 }).dots, { bins: 10, lo: -16, hi: 16 });
  assert.equal(h.counts.length, 10);
  assert.equal(h.edges.length, 11);
  assert.equal(h.counts.reduce((a, b) => a + b, 0) + h.below + h.above + h.nonFinite, 500);
});

test('seed 001/004: Q = K = V = X with equal norms — diagonal ≥ its row (ties allowed); W_Q ≠ W_K is asymmetric', () => {
  // Rows 2 and 4 are the same token: their scores tie.
  const X = attn.normalizeRows(M(4, 3, [1, 0, 1, 0, 2, 1, 3, 1, 0, 0, 2, 1]));
  Array.from(attn.rowNorms(X).data).forEach((x) => assert.ok(Math.abs(x - 1) < 1e-6));
  const S = attn.scores(X, X);
  const c = attn.diagonalCheck(S);
  assert.deepEqual(Array.from(c.holds.data), [1, 1, 1, 1]);
  assert.ok(Math.abs(c.margin.data[1]) < 1e-6, 'the repeated token ties');
  // Unequal lengths: the short row loses to a long one.
  const raw = attn.diagonalCheck(attn.scores(M(2, 2, [1, 0, 3, 0.5]), M(2, 2, [1, 0, 3, 0.5])));
  assert.equal(raw.holds.data[0], 0);
  const Wq = M(3, 2, [1, 0, 0, 1, 1, 1]), Wk = M(3, 2, [0, 1, 1, 0, 1, 0]);
  const Sqk = attn.scores(attn.matmul(X, Wq), attn.matmul(X, Wk));
  assert.ok(attn.moments(attn.difference(Sqk, attn.transpose(Sqk))).max > 0.1, 'q_i·k_j ≠ q_j·k_i');
  const Sqq = attn.scores(attn.matmul(X, Wq), attn.matmul(X, Wq));
  assert.ok(attn.moments(attn.difference(Sqq, attn.transpose(Sqq))).max < 1e-6, 'one projection: symmetric');
  // Cross-attention: T_q = 2, T_k = 4.
  const t = attn.attention(attn.matmul(M(2, 3, [1, 0, 0, 0, 1, 1]), Wq), attn.matmul(X, Wk), X);
  assert.deepEqual([t.weights.rows, t.weights.cols, t.output.rows], [2, 4, 2]);
  Array.from(attn.rowSums(t.weights).data).forEach((x) => assert.ok(Math.abs(x - 1) < 1e-6));
});

test('dot geometry: q·k = |q||k|cos θ', () => {
  const g = attn.dotGeometry(M(1, 2, [3, 1]), M(1, 2, [1, 2]));
  assert.equal(g.dot, 5);
  assert.ok(Math.abs(g.normA * g.normB * g.cos - g.dot) < 1e-12);
  assert.ok(Math.abs(g.degrees - 45) < 1e-9);
  assert.ok(Number.isNaN(attn.dotGeometry(M(1, 2, [0, 0]), M(1, 2, [1, 2])).degrees));
});

test('softmax: positive weights, rows sum to 1; the wrong axis keeps the shape but not the row sums', () => {
  const S = M(3, 4, [2, 1, 0.5, -1, 0, 0, 0, 0, 3, -2, 1, 1]);
  const p = attn.softmaxParts(S);
  assert.ok(attn.moments(p.weights).min > 0);
  Array.from(attn.rowSums(p.weights).data).forEach((x) => printed(x, 1, 6, 'row sum'));
  row(p.weights, 1).forEach((x) => printed(x, 0.25, 6, 'zero scores share equally'));
  assert.deepEqual([p.max.rows, p.max.cols], [3, 1]);
  assert.deepEqual(Array.from(p.max.data), [2, 0, 3]);
  const wrong = attn.softmax(S, { axis: 'cols' });
  assert.deepEqual([wrong.rows, wrong.cols], [3, 4]);
  const rs = Array.from(attn.rowSums(wrong).data);
  assert.ok(rs.some((x) => Math.abs(x - 1) > 0.01), `row sums under the wrong axis: ${rs}`);
  row(attn.colSums(wrong)).forEach((x) => printed(x, 1, 6, 'column sum'));
  const pc = attn.softmaxParts(S, { axis: 'cols' });
  assert.deepEqual([pc.sums.rows, pc.sums.cols], [1, 4]);
  assert.deepEqual(Array.from(pc.weights.data), Array.from(wrong.data));
  // e^x overflows past ~88.7 but the shifted path does not.
  const big = attn.softmaxParts(M(1, 2, [100, 0]));
  assert.equal(big.expRaw.data[0], Infinity);
  assert.equal(big.exp.data[0], 1);
  assert.ok(Number.isFinite(big.sums.data[0]));
});

test('argument checks: TypeError / RangeError with a message, and the module keeps working', () => {
  assert.throws(() => attn.rowSums(null), TypeError);
  assert.throws(() => attn.difference(M(2, 2), M(2, 3)), (e) => e instanceof RangeError && /2x2.*2x3/.test(e.message));
  assert.throws(() => attn.diagonalCheck(M(2, 3)), RangeError);
  assert.throws(() => attn.dotGeometry(M(2, 2), M(2, 2)), RangeError);
  assert.throws(() => attn.softmaxParts(M(1, 2), { axis: 'diagonal' }), { name: 'RangeError', kind: 'ValueError' });
  assert.throws(() => attn.softmaxParts(M(1, 2), { axis: 1 }), TypeError);
  assert.throws(() => attn.softmaxJacobian(M(2, 2)), RangeError);
  assert.throws(() => attn.scalingEffect(M(1, 2), 0), RangeError);
  assert.throws(() => attn.scalingEffect(M(1, 2), '1'), TypeError);
  assert.throws(() => attn.scalingEffect(M(1, 2), NaN), RangeError);
  assert.throws(() => attn.scoreScale(0), RangeError);
  assert.throws(() => attn.scoreScale(2.5), RangeError);
  assert.throws(() => attn.sampleDotProducts({ dk: 0 }), RangeError);
  assert.throws(() => attn.sampleDotProducts({ dk: 4, seed: -1 }), RangeError);
  assert.throws(() => attn.sampleDotProducts({ dk: 1 << 16, count: 1 << 16 }), RangeError);
  assert.throws(() => attn.sampleDotProducts({ dk: 4, first: -1 }), RangeError);
  assert.throws(() => attn.sampleDotProducts({ dk: 4, first: 0.5 }), RangeError);
  assert.throws(() => attn.sampleDotProducts({ dk: 4, count: 10, first: 2 ** 28 }), RangeError);
  assert.throws(() => attn.histogram(M(1, 2), { bins: 0, lo: 0, hi: 1 }), RangeError);
  assert.throws(() => attn.histogram(M(1, 2), { bins: 4, lo: 1, hi: 1 }), RangeError);
  assert.throws(() => attn.histogram(M(1, 2), { bins: 4, lo: 0 }), TypeError);
  assert.throws(() => attn.moments(M(0, 3)), (e) => e instanceof RangeError && /empty/.test(e.message));
  assert.throws(() => attn.normalizeRows(M(1, 2), -1), RangeError);
  // Still working.
  assert.deepEqual(row(attn.rowSums(M(1, 3, [1, 2, 3]))), [6]);
  assert.deepEqual(row(attn.colSums(M(2, 2, [1, 2, 3, 4]))), [4, 6]);
});
