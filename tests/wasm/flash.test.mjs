// flashAttention, attentionOutput, the memory counters and the cost model through the JS API.
import test from 'node:test';
import assert from 'node:assert/strict';
import createAttention from '../../web/dist/attn.mjs';

const attn = await createAttention();
const rnd = (rows, cols, seed, std = 1) => attn.random({ rows, cols, seed, std });

// |got − want| <= 1e-5·|want| + 1e-6·max|V| (outputs are convex combinations of V rows).
function assertClose(got, want, V, what) {
  assert.deepEqual([got.rows, got.cols], [want.rows, want.cols], `${what}: shape`);
  const scale = Math.max(1, ...V.data.map(Math.abs));
  for (let i = 0; i < want.data.length; i++) {
    const g = got.data[i], w = want.data[i];
    assert.ok(Math.abs(g - w) <= 1e-5 * Math.abs(w) + 1e-6 * scale, `${what}: entry ${i}: got ${g}, want ${w}`);
  }
}

test('flashAttention equals attention().output (random inputs, causal or not, several tiles)', () => {
  for (const [Tq, Tk, d, tile] of [[1, 1, 4, undefined], [37, 70, 16, 16], [130, 130, 64, undefined], [65, 200, 8, 7]]) {
    const Q = rnd(Tq, d, 1, 2), K = rnd(Tk, d, 2, 2), V = rnd(Tk, 5, 3);
    for (const causal of [false, true]) {
      const want = attn.attention(Q, K, V, { causal }).output;
      assertClose(attn.flashAttention(Q, K, V, { causal, tile }), want, V, `flash ${Tq}x${Tk} causal=${causal}`);
      assertClose(attn.attentionOutput(Q, K, V, { causal }), want, V, `plain ${Tq}x${Tk} causal=${causal}`);
    }
  }
});

test('flashAttention packs K and V right for any d_k and T_k, and a hidden ∞ in V stays hidden', () => {
  // d_k a multiple of 4 and whole panels of keys: K is transposed 4 x 4 blocks at a time
  // (WebAssembly); otherwise, or for the last partial panel, one value at a time.
  for (const [Tq, Tk, d] of [[20, 48, 12], [20, 36, 5], [33, 17, 7], [16, 64, 64]]) {
    const Q = rnd(Tq, d, 7), K = rnd(Tk, d, 8), V = rnd(Tk, 6, 9);
    for (const causal of [false, true])
      assertClose(attn.flashAttention(Q, K, V, { causal }), attn.attention(Q, K, V, { causal }).output, V, `${Tq}x${Tk}x${d} causal=${causal}`);
  }
  // V's last row holds ∞ and NaN: under the causal mask only the last query sees it, and
  // every other row must not take 0·∞ from it (the pack of V reports it as not finite).
  const T = 24, Q = rnd(T, 8, 1), K = rnd(T, 8, 2), V = rnd(T, 4, 3);
  V.data[(T - 1) * 4] = Infinity;
  V.data[(T - 1) * 4 + 1] = NaN;
  const got = attn.flashAttention(Q, K, V, { causal: true });
  const want = attn.attention(Q, K, V, { causal: true }).output;
  for (let i = 0; i < (T - 1) * 4; i++) assert.ok(Math.abs(got.data[i] - want.data[i]) <= 1e-5, `entry ${i}: ${got.data[i]} vs ${want.data[i]}`);
  assert.ok(Number.isNaN(got.data[(T - 1) * 4 + 1]) && !Number.isFinite(got.data[(T - 1) * 4]));
});

test('fully masked rows give zeros; rows whose first tiles are masked still match', () => {
  const T = 40, Q = rnd(T, 8, 4), K = rnd(T, 8, 5), V = rnd(T, 3, 6);
  const mask = attn.matrix(T, T);
  for (let j = 0; j < T; j++) mask.data[5 * T + j] = -Infinity; // row 5: everything hidden
  for (let j = 0; j < 20; j++) mask.data[9 * T + j] = -Infinity; // row 9: first tiles hidden
  const got = attn.flashAttention(Q, K, V, { mask, tile: 8 });
  assert.deepEqual(Array.from(got.data.subarray(15, 18)), [0, 0, 0]);
  assertClose(got, attn.attention(Q, K, V, { mask }).output, V, 'masked');
});

test('bad arguments throw typed errors; the module keeps working', () => {
  const Q = rnd(3, 4, 7), K = rnd(5, 4, 8), V = rnd(5, 2, 9);
  assert.throws(() => attn.flashAttention(Q, rnd(5, 3, 1), V), (e) => e instanceof RangeError && /3x4/.test(e.message) && /5x3/.test(e.message));
  assert.throws(() => attn.flashAttention(Q, K, V, { tile: 'big' }), TypeError);
  assert.throws(() => attn.flashAttention(Q, K, V, { tile: 0 }), RangeError);
  assert.throws(() => attn.flashAttention(Q, K, V, { tile: 5000 }), (e) => e instanceof RangeError && /tile/.test(e.message));
  assert.throws(() => attn.flashAttention(Q, K, V, { scale: NaN }), RangeError);
  assert.throws(() => attn.flashAttention(Q, K, V, { mask: attn.matrix(2, 2) }), (e) => e instanceof RangeError && /2x2/.test(e.message));
  assert.throws(() => attn.attentionOutput(Q, K, rnd(4, 2, 1)), RangeError);
  assert.throws(() => attn.profileAttention(Q, K, V, { kernel: 'fast' }), { name: 'RangeError', kind: 'ValueError' });
  assert.throws(() => attn.profileAttention(Q, K, V, { kernel: 1 }), TypeError);
  assert.equal(attn.flashAttention(Q, K, V).rows, 3);
});

test('flashAttention {out}: the output goes into the caller\'s array, checked, and nothing else changes', () => {
  const Q = rnd(37, 16, 21), K = rnd(50, 16, 22), V = rnd(50, 5, 23);
  for (const causal of [false, true]) {
    const want = attn.flashAttention(Q, K, V, { causal });
    const buf = new Float32Array(3 + 37 * 5 + 2).fill(7);
    const out = buf.subarray(3, 3 + 37 * 5);
    const got = attn.flashAttention(Q, K, V, { causal, out });
    assert.equal(got.data, out, 'the result is the caller\'s array');
    assert.deepEqual([got.rows, got.cols], [37, 5]);
    assert.deepEqual(Array.from(out), Array.from(want.data), `causal=${causal}: same bits as a fresh result`);
    assert.deepEqual([...buf.subarray(0, 3), ...buf.subarray(3 + 37 * 5)], [7, 7, 7, 7, 7], 'nothing written outside out');
  }
  // out may be Q's own storage: the inputs are copied in before the output is written.
  const X = rnd(6, 6, 24);
  const want = attn.flashAttention(X, X, X).data;
  const same = { rows: 6, cols: 6, data: Float32Array.from(X.data) };
  attn.flashAttention(same, same, same, { out: same.data });
  assert.deepEqual(Array.from(same.data), Array.from(want));
  assert.throws(() => attn.flashAttention(Q, K, V, { out: new Float32Array(37 * 5 - 1) }),
    (e) => e instanceof RangeError && e.kind === 'ShapeError' && /^flashAttention: out has 184 values/.test(e.message) && /37x5/.test(e.message));
  assert.throws(() => attn.flashAttention(Q, K, V, { out: new Float64Array(37 * 5) }),
    (e) => e instanceof TypeError && /out must be a Float32Array, got Float64Array/.test(e.message));
  // A failed call leaves no target behind: the next call returns a fresh array.
  const spare = new Float32Array(37 * 5);
  assert.throws(() => attn.flashAttention(Q, rnd(50, 3, 1), V, { out: spare }), RangeError);
  assert.notEqual(attn.flashAttention(Q, K, V).data, spare);
  assert.deepEqual(Array.from(spare), new Array(37 * 5).fill(0));
});

test('memory: the plain path holds n² floats, the tiled kernel stays O(n·d)', () => {
  const n = 1024, d = 64;
  const Q = rnd(n, d, 10), K = rnd(n, d, 11), V = rnd(n, d, 12);
  const plain = attn.profileAttention(Q, K, V, { kernel: 'plain' });
  const tiled = attn.profileAttention(Q, K, V, { kernel: 'tiled' });
  assert.ok(plain.workBytes >= n * n * 4, `plain needed ${plain.workBytes} bytes`);
  assert.ok(tiled.workBytes <= 4 * n * d * 4 + 4 * 128 * 128 * 4, `tiled needed ${tiled.workBytes} bytes`);
  assert.ok(tiled.ms >= 0 && plain.ms >= 0);
  const before = attn.memoryStats();
  attn.flashAttention(Q, K, V);
  const after = attn.memoryStats();
  assert.equal(after.currentBytes, before.currentBytes, 'everything allocated was released');
  assert.ok(attn.resetPeakMemory().peakBytes === after.currentBytes);
});

test('cost model: the numbers of seed 001 (n² cost)', () => {
  const c = attn.cost({ n: 8192, dModel: 768, heads: 12, layers: 12, bytesPerElement: 2 });
  assert.equal(c.attentionEntries, 67108864);
  assert.equal((c.bytesPerMatrix / 1e6).toFixed(0), '134'); // ≈ 134 MB (decimal)
  assert.equal((c.bytesPerMatrix / 2 ** 20).toFixed(0), '128'); // = 128 MiB
  assert.equal((c.bytesPerLayer / 1e9).toFixed(1), '1.6'); // ≈ 1.6 GB per 12-head layer
  assert.equal((c.bytesPerLayer / 2 ** 30).toFixed(1), '1.5'); // 1.5 GiB
  assert.equal(c.bytesTotal, 12 * c.bytesPerLayer);
  assert.equal(attn.cost({ n: 512, dModel: 512, heads: 8 }).crossoverN, 512);
  const at = attn.cost({ n: 512, dModel: 512, heads: 8 });
  assert.equal(at.orderAttention, at.orderRecurrent);
  assert.equal(attn.cost({ n: 6, dModel: 8 }).attentionEntries, 36);
  const h = attn.cost({ n: 4096, dModel: 768, heads: 12 });
  assert.equal(h.attentionGrowth, 4);
  assert.equal(h.secondHalfRatio, 3);
  assert.ok(h.layerGrowth < 4);
  assert.equal(h.pathLengthAttention, 1);
  assert.equal(h.pathLengthRecurrent, 4095);
  assert.throws(() => attn.cost({ n: 8, dModel: 8, tile: 0 }), RangeError);
  assert.throws(() => attn.cost({ n: 8, dModel: 9, heads: 2 }), (e) => e instanceof RangeError && /divide/.test(e.message));
});

test('a key hidden by −∞ or the causal mask stays hidden in all three paths, whatever its score', () => {
  // Found by a newcomer's trial and by fuzz_attention: attentionOutput gave NaN here.
  const M = (rows, cols, d) => ({ rows, cols, data: new Float32Array(d) });
  const Q = M(1, 1, [1]), V = M(2, 1, [1, 2]), mask = M(1, 2, [-Infinity, 0]);
  for (const bad of [NaN, Infinity]) {
    const K = M(2, 1, [bad, 1]);
    assert.deepEqual(Array.from(attn.attention(Q, K, V, { mask }).output.data), [2]);
    assert.deepEqual(Array.from(attn.attentionOutput(Q, K, V, { mask }).data), [2]);
    assert.deepEqual(Array.from(attn.flashAttention(Q, K, V, { mask }).data), [2]);
  }
  // Causal: key 1 (NaN score) is hidden from query 0, whose output is V[0]; query 1 sees it.
  const Q2 = M(2, 1, [1, 1]), K2 = M(2, 1, [1, NaN]);
  for (const out of [attn.attention(Q2, K2, V, { causal: true }).output, attn.attentionOutput(Q2, K2, V, { causal: true }),
    attn.flashAttention(Q2, K2, V, { causal: true })]) {
    assert.equal(out.data[0], 1);
    assert.ok(Number.isNaN(out.data[1]));
  }
  // A tile past the kernel's limit names the limit.
  assert.throws(() => attn.flashAttention(Q, M(2, 1, [1, 1]), V, { tile: 1e9 }), /tile = 1000000000 is past the limit of 1024/);
});
