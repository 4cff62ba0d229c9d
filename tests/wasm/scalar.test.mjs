// The scalar build of the core (attn-core-scalar.wasm), loaded where WebAssembly SIMD is
// missing, computes what the SIMD build computes.
import test from 'node:test';
import assert from 'node:assert/strict';
import createAttention, { simdSupported } from '../../web/dist/attn.mjs';

const simd = await createAttention({ simd: true });
const scalar = await createAttention({ simd: false });

test('each build says which one runs; auto picks SIMD where the engine has it', async () => {
  assert.equal(simd.simd, 'wasm-simd128');
  assert.equal(scalar.simd, 'scalar');
  assert.equal(simdSupported(), true); // Node 20's V8 has SIMD128
  assert.equal((await createAttention()).simd, 'wasm-simd128');
});

test('the scalar build reproduces the document numbers (seed 000, head 1)', () => {
  const ex = scalar.example('core-attention');
  const [Q] = scalar.splitHeads(ex.Q, 2);
  const [K] = scalar.splitHeads(ex.K, 2);
  const [V] = scalar.splitHeads(ex.V, 2);
  const t = scalar.attention(Q, K, V, { causal: true });
  assert.deepEqual(Array.from(t.scores.data.subarray(6, 9)), [2, 0, 6]);
  [0.114, 0.042, 0.844].forEach((w, j) => assert.ok(Math.abs(t.weights.data[6 + j] - w) < 5e-4));
  [0.114, 0.042, 0.844, 1].forEach((w, j) => assert.ok(Math.abs(t.output.data[8 + j] - w) < 5e-4));
});

test('scalar and SIMD builds agree on random inputs of many shapes (1e-5 relative)', () => {
  let compared = 0;
  for (let seed = 1; seed <= 60; seed++) {
    const Tq = 1 + (seed % 9), Tk = 1 + ((seed * 7) % 13), d = 1 + ((seed * 5) % 17);
    const args = (a) => [a.random({ rows: Tq, cols: d, seed }), a.random({ rows: Tk, cols: d, seed: seed + 1000 }),
      a.random({ rows: Tk, cols: 3, seed: seed + 2000 })];
    const opts = { causal: seed % 2 === 0, dropout: { rate: 0.2, seed, training: seed % 3 === 0 } };
    const a = simd.attention(...args(simd), opts), b = scalar.attention(...args(scalar), opts);
    for (const stage of ['scores', 'weights', 'dropped', 'output']) {
      const x = a[stage].data, y = b[stage].data;
      assert.equal(x.length, y.length);
      for (let k = 0; k < x.length; k++) {
        if (!Number.isFinite(y[k])) assert.equal(x[k], y[k]);
        else assert.ok(Math.abs(x[k] - y[k]) <= 1e-6 + 1e-5 * Math.abs(y[k]), `seed ${seed} ${stage}[${k}]: ${x[k]} vs ${y[k]}`);
        compared++;
      }
    }
  }
  assert.ok(compared > 1000);
});

test('the scalar build has the same errors and non-finite rules', () => {
  assert.throws(() => scalar.scores(scalar.matrix(2, 3), scalar.matrix(2, 4)), (e) => e instanceof RangeError && e.kind === 'ShapeError');
  const t = scalar.attention(scalar.matrix(2, 1, [1, NaN]), scalar.matrix(2, 1, [1, 1]), scalar.matrix(2, 1, [1, 2]), { causal: true });
  assert.equal(t.output.data[0], 1);
  assert.ok(Number.isNaN(t.output.data[1]));
  assert.deepEqual(t.nonFinite.entries, [{ input: 'Q', row: 1, col: 0, value: NaN }]);
  assert.deepEqual(Array.from(scalar.random({ rows: 3, cols: 3, seed: 5 }).data), Array.from(simd.random({ rows: 3, cols: 3, seed: 5 }).data));
});
