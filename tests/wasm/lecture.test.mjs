// The lecture chapters' API (inspect, recurrent, constructed heads, examples) through the
// built module, with the documents' numbers at the precision they print.
import test from 'node:test';
import assert from 'node:assert/strict';
import createAttention from '../../web/dist/attn.mjs';

const attn = await createAttention();
const close = (got, want, tol, what) =>
  assert.ok(Math.abs(got - want) <= tol, `${what}: got ${got}, want ${want} ± ${tol}`);
const row = (m, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));

test('seed 001: 0.2[1,0] + 0.5[0,1] + 0.3[1,1] = [0.5, 0.8], inside the hull of the Values', () => {
  const { V, weights } = attn.example('weighted-sum');
  assert.deepEqual([V.rows, V.cols, weights.rows, weights.cols], [3, 2, 1, 3]);
  const o = attn.weightedSum(weights, V);
  close(o.data[0], 0.5, 1e-6, 'o[0]');
  close(o.data[1], 0.8, 1e-6, 'o[1]');
  assert.equal(o.data[0].toFixed(1), '0.5');
  assert.equal(o.data[1].toFixed(1), '0.8');
  assert.deepEqual(attn.convexHull(V).length, 3);
  assert.equal(attn.hullDistance(o, V), 0);
  const range = attn.columnRange(V);
  assert.deepEqual([...range.min.data, ...range.max.data], [0, 0, 1, 1]);
  // A fully masked row's zero output lies outside this triangle.
  const zero = attn.weightedSum(attn.softmax(attn.matrix(1, 3, [-Infinity, -Infinity, -Infinity])), V);
  close(attn.hullDistance(zero, V), Math.SQRT1_2, 1e-6, 'distance of [0, 0]');
});

test('seed 004 (shown in the review): q=[1,1], k1=[1,0], k2=[0,2] -> [0.707, 1.414] -> [0.330, 0.670]', () => {
  const t = attn.attention(attn.matrix(1, 2, [1, 1]), attn.matrix(2, 2, [1, 0, 0, 2]), attn.matrix(2, 2, [1, 0, 0, 2]));
  assert.deepEqual(Array.from(t.scores.data), [1, 2]);
  assert.deepEqual(Array.from(t.scaled.data).map((x) => x.toFixed(3)), ['0.707', '1.414']);
  assert.deepEqual(Array.from(t.weights.data).map((x) => x.toFixed(3)), ['0.330', '0.670']);
  close(attn.rowSums(t.weights).data[0], 1, 1e-6, 'sum');
});

test('normalizeWeights re-normalises raw weights; bad weights are RangeErrors', () => {
  const w = attn.normalizeWeights(attn.matrix(1, 3, [1, 2, 1]));
  assert.deepEqual(Array.from(w.data), [0.25, 0.5, 0.25]);
  assert.throws(() => attn.normalizeWeights(attn.matrix(1, 2, [0, 0])), (e) => e instanceof RangeError && /sums to 0/.test(e.message));
  assert.throws(() => attn.normalizeWeights(attn.matrix(1, 2, [1, -1])), RangeError);
  assert.throws(() => attn.normalizeWeights('w'), TypeError);
  assert.deepEqual(Array.from(attn.normalizeWeights(attn.matrix(1, 2, [3, 1])).data), [0.75, 0.25]);
});

test('seed 001: BERT-base 12 x 12 = 144 attention matrices, computed by the cost model', () => {
  assert.equal(attn.cost({ n: 8, dModel: 768, heads: 12, layers: 12 }).attentionMatrices, 144);
  assert.equal(attn.cost({ n: 8, dModel: 768, heads: 12, layers: 24 }).attentionMatrices, 288);
});

test('seed 001: 100 sequential steps and a path of 99 for a recurrent layer; 2 and 1 for attention', () => {
  const c = attn.cost({ n: 100, dModel: 512, heads: 8 });
  assert.equal(c.sequentialStepsRecurrent, 100);
  assert.equal(c.pathLengthRecurrent, 99);
  assert.equal(c.sequentialStepsAttention, 2);
  assert.equal(c.pathLengthAttention, 1);
  assert.equal(attn.cost({ n: 1000, dModel: 512, heads: 8 }).sequentialStepsAttention, 2);
});

test('recurrentScan dilutes token s by (1 - r) r^(t - s)', () => {
  const n = 6, r = 0.7;
  const I = attn.matrix(n, n, Array.from({ length: n * n }, (_, k) => (k % (n + 1) === 0 ? 1 : 0)));
  const H = attn.recurrentScan(I, r);
  for (let t = 0; t < n; t++)
    for (let s = 0; s <= t; s++) close(H.data[t * n + s], (1 - r) * r ** (t - s), 1e-6, `h[${t}][${s}]`);
  assert.throws(() => attn.recurrentScan(I, 1), (e) => e instanceof RangeError && /\[0, 1\)/.test(e.message));
  assert.throws(() => attn.recurrentScan(I, '0.5'), TypeError);
  assert.throws(() => attn.recurrentScan(I, NaN), RangeError);
});

test('rowSums, colSums: rows of softmax weights sum to 1, columns lie in [0, n] and add up to n', () => {
  const S = attn.random({ rows: 7, cols: 5, seed: 3, std: 3 });
  const P = attn.softmax(S);
  for (const x of attn.rowSums(P).data) close(x, 1, 1e-6, 'row sum');
  const cs = attn.colSums(P);
  assert.deepEqual([cs.rows, cs.cols], [1, 5]);
  assert.ok(cs.data.every((x) => x >= 0 && x <= 7 + 1e-5));
  close(cs.data.reduce((a, b) => a + b), 7, 1e-5, 'total');
});

test('constructed heads: the patterns, column sums near n and 0, asymmetry, and the pronoun head failing in version b', () => {
  const { heads, sentences } = attn.example('reading-heads');
  assert.deepEqual(heads, ['previous', 'self', 'first', 'verb-object', 'pronoun-noun']);
  assert.deepEqual(sentences.map((s) => `${s.lang}-${s.id}`), ['ko-a', 'ko-b', 'en-a', 'en-b']);
  for (const s of sentences) {
    const T = s.tokens.length;
    const X = attn.tokenFeatures(s.flags);
    assert.deepEqual([X.rows, X.cols], [T, 4 + T]);
    const P = (kind) => {
      const w = attn.constructedHead(kind, T);
      return attn.attention(attn.matmul(X, w.Wq), attn.matmul(X, w.Wk), X).weights;
    };
    const argmax = (kind) => Array.from(attn.rowArgmax(P(kind)).data);
    assert.deepEqual(argmax('previous'), [0, ...Array.from({ length: T - 1 }, (_, i) => i)]);
    assert.deepEqual(argmax('self'), Array.from({ length: T }, (_, i) => i));
    assert.deepEqual(argmax('first'), new Array(T).fill(0));
    const cs = attn.colSums(P('first'));
    assert.ok(cs.data[0] > 0.85 * T, `column 0 sum ${cs.data[0]}`);
    const prev = P('previous');
    assert.ok(attn.maxAbsDiff(prev, attn.transpose(prev)) > 0.5);
    const animate = s.flags.findIndex((f) => f & 8);
    assert.equal(argmax('pronoun-noun')[s.pronoun], animate);
    assert.equal(animate === s.referent, s.id === 'a', `${s.lang}-${s.id}`);
    const verb = s.flags.findIndex((f) => f & 1), object = s.flags.findIndex((f) => f & 2);
    assert.equal(argmax('verb-object')[verb], object);
  }
  assert.throws(() => attn.constructedHead('diagonal', 3), (e) => e instanceof RangeError && /no head named/.test(e.message));
  assert.throws(() => attn.constructedHead(3, 3), TypeError);
  assert.throws(() => attn.tokenFeatures([1, 99]), RangeError);
  assert.throws(() => attn.tokenFeatures([1, -1]), RangeError);
  assert.throws(() => attn.tokenFeatures('vo'), TypeError);
});

test('seed 004: positional encoding, odd d, and its angles', () => {
  for (const d of [1, 4, 5, 7]) {
    const pe = attn.positionalEncoding(6, d), ang = attn.sinusoidAngles(6, d);
    for (let pos = 0; pos < 6; pos++)
      for (let c = 0; c < d; c++) {
        const a = pos / 10000 ** ((c - (c % 2)) / d);
        close(ang.data[pos * d + c], a, 1e-5 * (1 + a), `angle ${pos},${c}`);
        close(pe.data[pos * d + c], c % 2 ? Math.cos(a) : Math.sin(a), 1e-6, `PE ${pos},${c} (d=${d})`);
      }
  }
  assert.throws(() => attn.sinusoidAngles(3, 0), RangeError);
});

function selfAttention(X, ex, opts = {}) {
  return attn.attention(attn.matmul(X, ex.Wq), attn.matmul(X, ex.Wk), attn.matmul(X, ex.Wv), opts).output;
}

test('seed 004: dog bites man vs man bites dog: without PE the outputs are only reordered; with PE they differ', () => {
  const ex = attn.example('permutation');
  const a = [0, 2, 1], b = [1, 2, 0]; // dog bites man, man bites dog
  const bFromA = b.map((w) => a.indexOf(w));
  const Xa = attn.permuteRows(ex.embeddings, a), Xb = attn.permuteRows(ex.embeddings, b);
  assert.ok(attn.maxAbsDiff(attn.permuteRows(selfAttention(Xa, ex), bFromA), selfAttention(Xb, ex)) <= 1e-6);
  const pe = attn.positionalEncoding(3, 4);
  const diff = attn.maxAbsDiff(attn.permuteRows(selfAttention(attn.add(Xa, pe), ex), bFromA), selfAttention(attn.add(Xb, pe), ex));
  assert.ok(diff > 0.05, `with PE: ${diff}`);
  const causal = attn.maxAbsDiff(attn.permuteRows(selfAttention(Xa, ex, { causal: true }), bFromA), selfAttention(Xb, ex, { causal: true }));
  assert.ok(causal > 0.05, `with a causal mask: ${causal}`);
});

test('property: permuting tokens permutes outputs without PE, for random inputs and orders', () => {
  for (let seed = 1; seed <= 12; seed++) {
    const T = 2 + (seed % 7), d = 1 + (seed % 5);
    const X = attn.random({ rows: T, cols: d, seed });
    const ex = { Wq: attn.random({ rows: d, cols: d, seed: seed + 100 }), Wk: attn.random({ rows: d, cols: d, seed: seed + 200 }), Wv: attn.random({ rows: d, cols: 3, seed: seed + 300 }) };
    const perm = Array.from({ length: T }, (_, i) => (i * (2 * seed + 1) + seed) % T);
    if (new Set(perm).size !== T) continue; // multiplier not coprime with T: not a permutation
    const diff = attn.maxAbsDiff(attn.permuteRows(selfAttention(X, ex), perm), selfAttention(attn.permuteRows(X, perm), ex));
    assert.ok(diff <= 1e-5, `seed ${seed}, T ${T}: ${diff}`);
  }
});

test('inspection helpers check their arguments and keep the module usable', () => {
  const M = attn.matrix(3, 2, [1, 1, 2, 2, 3, 3]);
  assert.deepEqual(Array.from(attn.permuteRows(M, [2, 0, 1]).data), [3, 3, 1, 1, 2, 2]);
  assert.throws(() => attn.permuteRows(M, [0, 0, 1]), (e) => e instanceof RangeError && /exactly once/.test(e.message));
  assert.throws(() => attn.permuteRows(M, [0, 1]), (e) => e instanceof RangeError && /3x2/.test(e.message));
  assert.throws(() => attn.permuteRows(M, [0, 1.5, 2]), RangeError);
  assert.throws(() => attn.permuteRows(M, 'abc'), TypeError);
  assert.throws(() => attn.add(M, attn.matrix(2, 3)), (e) => e instanceof RangeError && /3x2/.test(e.message) && /2x3/.test(e.message));
  assert.ok(Number.isNaN(attn.maxAbsDiff(attn.matrix(1, 1, [NaN]), attn.matrix(1, 1, [0]))));
  assert.throws(() => attn.convexHull(attn.matrix(2, 3)), RangeError);
  assert.throws(() => attn.hullDistance(attn.matrix(1, 2, [Infinity, 0]), M), RangeError);
  assert.deepEqual(attn.convexHull(attn.matrix(4, 2, [0, 0, 2, 0, 1, 1, 0, 2])), [0, 1, 3]);
  assert.deepEqual(Array.from(attn.rowSums(M).data), [2, 4, 6]);
});
