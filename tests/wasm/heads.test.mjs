// The JS API as the chapters on heads, masking and dropout use it: their examples,
// multiHeadAttention traces, causal independence, dropout and the errors a learner can hit.
import test from 'node:test';
import assert from 'node:assert/strict';
import createAttention from '../../web/dist/attn.mjs';

const attn = await createAttention();
const row = (m, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
const close = (got, want, tol, what) =>
  assert.ok(Math.abs(got - want) <= tol, `${what}: got ${got}, want ${want} ± ${tol}`);
const ones = (r, c) => attn.matrix(r, c, new Float32Array(r * c).fill(1));
const bits = (m, i) => Array.from(new Uint32Array(Float32Array.from(row(m, i)).buffer));

test('every example of these chapters loads, with the documented shapes', () => {
  assert.deepEqual([attn.example('no-weights').X.rows, attn.example('no-weights').X.cols], [6, 3]);
  for (const name of ['projections', 'causal-dropout']) {
    const p = attn.example(name);
    assert.deepEqual([p.X.rows, p.X.cols, p.Wq.rows, p.Wq.cols], [6, 3, 3, 2], name);
  }
  const m = attn.example('multi-head');
  assert.deepEqual([m.tokens, m.dModel, m.heads], [3, 8, 2]);
  const o = attn.example('one-head');
  assert.deepEqual([o.verb, o.subject, o.object, o.X.cols, o.Xswapped.rows], [2, 0, 1, 6, 3]);
  assert.throws(() => attn.example('nope'), (e) => e instanceof RangeError && /no example named/.test(e.message));
  assert.throws(() => attn.example(3), TypeError);
});

test('no-weights: a row of X·Xᵀ equals its dot products one at a time; the second token weights sum to 1', () => {
  const { X } = attn.example('no-weights');
  const S = attn.scores(X, X);
  const x = (i) => attn.matrix(1, 3, row(X, i));
  for (let j = 0; j < 6; j++) assert.equal(attn.scores(x(1), x(j)).data[0], S.data[6 + j], `token 2 · token ${j + 1}`);
  const t = attn.attention(X, X, X, { scale: 1 });
  assert.deepEqual(Array.from(t.scores.data), Array.from(S.data));
  assert.deepEqual(Array.from(t.scaled.data), Array.from(S.data), 'scale 1: no scaling');
  close(attn.matmul(t.weights, ones(6, 1)).data[1], 1, 1e-6, 'sum of token 2 weights');
});

test('multi-head example continues core attention: X·W gives its Q, K, V; h = 2 gives seed 000 numbers', () => {
  const m = attn.example('multi-head');
  const ca = attn.example('core-attention');
  assert.deepEqual(Array.from(attn.matmul(m.X, m.Wq).data), Array.from(ca.Q.data));
  assert.deepEqual(Array.from(attn.matmul(m.X, m.Wk).data), Array.from(ca.K.data));
  assert.deepEqual(Array.from(attn.matmul(m.X, m.Wv).data), Array.from(ca.V.data));
  const t = attn.multiHeadAttention(m.X, { Wq: m.Wq, Wk: m.Wk, Wv: m.Wv, Wo: m.Wo, heads: 2, causal: true });
  assert.equal(t.heads.length, 2);
  assert.equal(t.heads[0].scale, 0.5);
  [0.114, 0.042, 0.844].forEach((w, j) => close(t.heads[0].weights.data[6 + j], w, 5e-4, `P[3][${j + 1}]`));
  [0.114, 0.042, 0.844, 1].forEach((w, j) => close(t.heads[0].output.data[8 + j], w, 5e-4, `O[3][${j + 1}]`));
  assert.deepEqual([t.concat.rows, t.concat.cols, t.output.rows, t.output.cols], [3, 8, 3, 8]);
  assert.deepEqual(Array.from(t.output.data), Array.from(attn.matmul(t.concat, m.Wo).data));
  for (const h of [1, 2, 4, 8]) {
    const th = attn.multiHeadAttention(m.X, { ...m, heads: h, causal: true });
    assert.equal(th.heads.length, h);
    assert.equal(th.heads[0].output.cols, 8 / h);
    close(th.heads[0].scale, 1 / Math.sqrt(8 / h), 1e-7, `scale for h = ${h}`);
  }
  assert.throws(() => attn.multiHeadAttention(m.X, { ...m, heads: 3 }),
    (e) => e instanceof RangeError && /3 heads do not divide/.test(e.message) && /= 8/.test(e.message));
  assert.throws(() => attn.multiHeadAttention(m.X, { ...m, heads: 0 }), RangeError);
  assert.throws(() => attn.multiHeadAttention(m.X, { ...m, heads: '2' }), TypeError);
  assert.equal(attn.multiHeadAttention(m.X, { ...m, heads: 4 }).heads.length, 4, 'usable after errors');
});

test('causal: changing a later token leaves earlier outputs bit-identical, also with training dropout', () => {
  const p = attn.example('causal-dropout');
  const X2 = attn.matrix(6, 3, p.X.data);
  X2.data.set([3, -2, 5], 4 * 3); // token 5 changes
  const I2 = attn.matrix(2, 2, [1, 0, 0, 1]);
  for (const training of [false, true]) {
    const o = { Wq: p.Wq, Wk: p.Wk, Wv: p.Wv, Wo: I2, heads: 1, causal: true, dropout: { rate: 0.5, seed: 9, training } };
    const a = attn.multiHeadAttention(p.X, o), b = attn.multiHeadAttention(X2, o);
    for (let i = 0; i < 4; i++) assert.deepEqual(bits(b.output, i), bits(a.output, i), `token ${i + 1}, training ${training}`);
    assert.notDeepEqual(bits(b.output, 4), bits(a.output, 4));
    const c = attn.multiHeadAttention(p.X, { ...o, causal: false }), d = attn.multiHeadAttention(X2, { ...o, causal: false });
    assert.notDeepEqual(bits(d.output, 0), bits(c.output, 0), 'without the mask token 1 sees token 5');
  }
});

test('dropout: mask = dropout(ones); 1/(1 - rate) on survivors; evaluation and rate 0 exact', () => {
  const p = attn.example('causal-dropout');
  const [Q, K, V] = [p.Wq, p.Wk, p.Wv].map((W) => attn.matmul(p.X, W));
  const rate = 0.25, seed = 3;
  const t = attn.attention(Q, K, V, { causal: true, dropout: { rate, seed, training: true } });
  const mask = attn.dropout(ones(6, 6), { rate, seed });
  for (let n = 0; n < 36; n++) {
    assert.ok(mask.data[n] === 0 || Math.abs(mask.data[n] - 1 / (1 - rate)) < 1e-6);
    assert.equal(t.dropped.data[n], Math.fround(t.weights.data[n] * mask.data[n]));
  }
  const evalT = attn.attention(Q, K, V, { causal: true, dropout: { rate: 0.9, seed, training: false } });
  assert.deepEqual(Array.from(evalT.dropped.data), Array.from(evalT.weights.data));
  const zero = attn.attention(Q, K, V, { causal: true, dropout: { rate: 0, seed, training: true } });
  assert.deepEqual(Array.from(zero.output.data), Array.from(evalT.output.data));
  // Mean kept for a fixed seed on a large matrix.
  const big = attn.dropout(ones(128, 128), { rate: 0.5, seed: 1 });
  close(big.data.reduce((s, x) => s + x, 0) / big.data.length, 1, 0.05, 'mean of the mask');
  assert.throws(() => attn.dropout(ones(2, 2), { rate: 1 }), (e) => e instanceof RangeError && /\[0, 1\)/.test(e.message));
  assert.throws(() => attn.dropout(ones(2, 2), { rate: NaN }), RangeError);
});

test('one head spreads the verb over subject and object; two heads each focus on one', () => {
  const ex = attn.example('one-head');
  const w = { Wq: ex.Wq, Wk: ex.Wk, Wv: ex.Wv, Wo: ex.Wo };
  const one = attn.multiHeadAttention(ex.X, { ...w, heads: 1 });
  const two = attn.multiHeadAttention(ex.X, { ...w, heads: 2 });
  const v = ex.verb;
  const p1 = row(one.heads[0].weights, v);
  assert.equal(p1[ex.subject], p1[ex.object]);
  assert.ok(p1[ex.subject] < 0.5);
  assert.ok(row(two.heads[0].weights, v)[ex.subject] > 0.8);
  assert.ok(row(two.heads[1].weights, v)[ex.object] > 0.8);
  const swapped1 = attn.multiHeadAttention(ex.Xswapped, { ...w, heads: 1 });
  const swapped2 = attn.multiHeadAttention(ex.Xswapped, { ...w, heads: 2 });
  assert.deepEqual(row(swapped1.output, v), row(one.output, v), 'one head cannot tell who ate whom');
  assert.notDeepEqual(row(swapped2.output, v), row(two.output, v), 'two heads can');
});

test('cost: d_model = 512, h = 8 gives d_k = 64 and the same attention FLOPs for every h', () => {
  const c8 = attn.cost({ n: 512, dModel: 512, heads: 8 });
  assert.equal(c8.dHead, 64);
  for (const h of [1, 2, 4, 16, 64]) {
    const c = attn.cost({ n: 512, dModel: 512, heads: h });
    assert.equal(c.flopsAttention, c8.flopsAttention, `h = ${h}`);
    assert.equal(c.flopsProjections, c8.flopsProjections, `h = ${h}`);
  }
  assert.throws(() => attn.cost({ n: 512, dModel: 512, heads: 3 }), RangeError);
});

test('the page-side helpers the checks rely on: bitwise row comparison and divisors', async () => {
  const { sameBits, divisors } = await import('../../web/src/kit/controls.js');
  const m = (data) => ({ rows: 1, cols: data.length, data: Float32Array.from(data) });
  assert.equal(sameBits(m([1, 2]), m([1, 2]), 0), true);
  assert.equal(sameBits(m([0, 2]), m([-0, 2]), 0), false, '0 and −0 differ in their bits');
  assert.equal(sameBits(m([1, 2]), m([1, 2 + 2 ** -22]), 0), false, 'one ulp apart differs');
  assert.equal(sameBits(m([NaN]), m([NaN]), 0), true);
  assert.deepEqual(divisors(8), [1, 2, 4, 8]);
  assert.deepEqual(divisors(512).length, 10);
  assert.deepEqual(divisors(13), [1, 13]);
});
