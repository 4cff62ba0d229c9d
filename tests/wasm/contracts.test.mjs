// The bit-exact contracts of docs/reliability.md ("Bit-exact contracts, and where the variants
// may differ"), asserted bit for bit against every WebAssembly build the page ships, through
// the public API (web/dist/attn.mjs): SIMD128 (attn-core), relaxed SIMD (attn-core-relaxed and
// the page's attn-core-lite-relaxed), SIMD128 without the trainer (attn-core-lite) and the
// scalar fallback (attn-core-scalar). The native suites check the same on AVX-512, AVX2,
// SSE4.2 and the scalar stand-in (tests/core/test_forward.cpp, test_weighted_sum.cpp; ctest -L core.isa).
//   1. Under causal, a token's output never depends on the tokens after it: changing a later
//      token's Q, K or V changes no bit of an earlier row of attention().output (to another
//      number or to NaN/±∞), nor of attentionOutput() and flashAttention() (any tile) when
//      the change is to other numbers. A non-finite later Value makes those two skip zero
//      weights one by one (another summation order): there they agree within rounding, as
//      natively (test_forward.cpp, "property: under causal, ...").
//   2. A NaN or ∞ in a Value under a zero weight changes no bit of weightedSum()'s outputs,
//      nor of attention().output and attentionOutput() for keys the mask hides (the tiled
//      kernel: within rounding, for the same reason).
//   3. Hidden keys have weight exactly 0; a fully masked row is exactly 0.
// The relaxed-SIMD builds hold them because kernels::madd's scalar overload (the kernels' tails)
// is the lanes' own f32x4.relaxed_madd there, fused or not as the engine does it.
// The relaxed builds need --experimental-wasm-relaxed-simd in Node 20 (ctest passes it); run by
// hand without it, this file runs itself again in a Node started with the flag (as relaxed.test.mjs).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import createAttention, { relaxedSimdSupported } from '../../web/dist/attn.mjs';

const FLAG = '--experimental-wasm-relaxed-simd';
const RESPAWNED = 'ATTN_CONTRACTS_TEST_RESPAWNED';
if (!relaxedSimdSupported() && !process.env[RESPAWNED] && !process.execArgv.includes(FLAG)) {
  const child = spawnSync(process.execPath, [...process.execArgv, FLAG, fileURLToPath(import.meta.url)],
    { stdio: 'inherit', env: { ...process.env, [RESPAWNED]: '1' } });
  if (child.error) throw child.error;
  process.exit(child.status ?? 1);
}
const noRelaxed = relaxedSimdSupported() ? false
  : `needs WebAssembly relaxed SIMD (Node 20: ${FLAG}), which this Node (${process.version}) lacks`;

const BUILDS = [
  { name: 'SIMD128 (attn-core)', options: { simd: true }, simd: 'wasm-simd128' },
  { name: 'SIMD128 lite (attn-core-lite)', options: { simd: true, training: false }, simd: 'wasm-simd128' },
  { name: 'relaxed SIMD (attn-core-relaxed)', options: { simd: 'relaxed' }, simd: 'wasm-relaxed-simd', relaxed: true },
  { name: 'relaxed SIMD lite (attn-core-lite-relaxed)', options: { simd: 'relaxed', training: false }, simd: 'wasm-relaxed-simd', relaxed: true },
  { name: 'scalar (attn-core-scalar)', options: { simd: false }, simd: 'scalar' },
];

const kNaN = NaN, kInf = Infinity;

// mt19937-free: a small deterministic generator (the shapes, not the numbers, come from it;
// the numbers come from the core's own seeded random(), the same on every build).
function rng(seed) {
  let s = BigInt(seed) + 0x9e3779b97f4a7c15n;
  return (lo, hi) => { // integer in [lo, hi]
    s = (s + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    z ^= z >> 31n;
    return lo + Number(z % BigInt(hi - lo + 1));
  };
}

const uniform = (api, rows, cols, seed) => {
  const m = api.random({ rows, cols, seed, distribution: 'uniform', lo: -3, hi: 3 });
  return { rows: m.rows, cols: m.cols, data: Float32Array.from(m.data) };
};
const copy = (m) => ({ rows: m.rows, cols: m.cols, data: Float32Array.from(m.data) });

// Row i of a and b, bit for bit (NaN payloads included).
function rowBits(m, i) {
  return new Uint32Array(Float32Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)).buffer);
}
function assertRowIdentical(a, b, i, what) {
  const x = rowBits(a, i), y = rowBits(b, i);
  for (let k = 0; k < x.length; k++)
    if (x[k] !== y[k])
      assert.fail(`${what}: row ${i}, column ${k}: ${a.data[i * a.cols + k]} (0x${x[k].toString(16)}) became ` +
        `${b.data[i * b.cols + k]} (0x${y[k].toString(16)})`);
}

// |b − a| <= 1e-5 + 1.2e-5·|a| (Catch2's Approx(a).margin(1e-5) of the native test); equal if a is not finite.
function assertRowClose(a, b, i, what) {
  for (let k = 0; k < a.cols; k++) {
    const x = a.data[i * a.cols + k], y = b.data[i * b.cols + k];
    if (!Number.isFinite(x) ? !Object.is(x, y) : !(Math.abs(y - x) <= 1e-5 + 1.2e-5 * Math.abs(x)))
      assert.fail(`${what}: row ${i}, column ${k}: ${x} became ${y}`);
  }
}

// The relaxed-SIMD builds' known violation of contracts 1 and 2 (see the top of this file).

function variants(api, Q, K, V, tile) {
  return {
    'attention().output': api.attention(Q, K, V, { causal: true }).output,
    'attentionOutput()': api.attentionOutput(Q, K, V, { causal: true }),
    [`flashAttention(tile ${tile})`]: api.flashAttention(Q, K, V, { causal: true, tile }),
    'flashAttention(default tile)': api.flashAttention(Q, K, V, { causal: true }),
  };
}

for (const b of BUILDS) {
  const skip = b.relaxed ? noRelaxed : false;
  test(`${b.name}: contract 1: under causal, no variant's output for a token depends on the tokens after it`, { skip }, async () => {
    const api = await createAttention(b.options);
    assert.equal(api.simd, b.simd);
    const specials = [kNaN, kInf, -kInf, 1e30, -7];
    let rows = 0;
    for (let seed = 801; seed <= 1000; seed++) {
      const r = rng(seed);
      const T = r(2, 45), cut = r(0, T - 2), d = r(1, 13), dv = [1, 3, 4, 5, 8, 9, 17][r(0, 6)];
      const finiteChange = seed % 2 === 0;
      const tile = 1 + (seed % 17);
      const Q = uniform(api, T, d, seed), K = uniform(api, T, d, seed + 1), V = uniform(api, T, dv, seed + 2);
      const a = variants(api, Q, K, V, tile);
      const Q2 = copy(Q), K2 = copy(K), V2 = copy(V);
      for (let i = cut + 1; i < T; i++) {
        for (let j = 0; j < d; j++) {
          Q2.data[i * d + j] = finiteChange ? Q.data[i * d + j] + 2.5 : specials[(i + j + seed) % 5];
          K2.data[i * d + j] = finiteChange ? K.data[i * d + j] - 1.5 : specials[(i + 2 * j + seed) % 5];
        }
        for (let j = 0; j < dv; j++)
          V2.data[i * dv + j] = finiteChange ? V.data[i * dv + j] * 3 - 1 : specials[(3 * i + j + seed) % 5];
      }
      const c = variants(api, Q2, K2, V2, tile);
      for (const what of Object.keys(a))
        for (let i = 0; i <= cut; i++) {
          const where = `seed ${seed} (T ${T}, cut ${cut}, d ${d}, dv ${dv}, finite change ${finiteChange}), ${what}`;
          if (finiteChange || what === 'attention().output') assertRowIdentical(a[what], c[what], i, where);
          else assertRowClose(a[what], c[what], i, where);
          rows++;
        }
    }
    assert.ok(rows > 1000, `${rows} rows compared`);
  });

  test(`${b.name}: contract 2: a NaN or ∞ Value under a zero weight changes no bit of any output`, { skip }, async () => {
    const api = await createAttention(b.options);
    for (const dv of [1, 3, 4, 5, 7, 8, 9, 16, 17, 33]) {
      for (let seed = 0; seed < 20; seed++) {
        const Tk = 24, seen = 5 + (seed % 7); // weights on the first `seen` keys only
        const P = copy(api.softmax(uniform(api, 3, Tk, 40 + seed)));
        for (let i = 0; i < P.rows; i++) for (let j = seen; j < Tk; j++) P.data[i * Tk + j] = 0;
        const V = uniform(api, Tk, dv, 60 + seed);
        const finite = api.weightedSum(P, V);
        for (let j = seen; j < Tk; j++) V.data[j * dv + (j % dv)] = j % 2 ? kNaN : -kInf;
        const skipping = api.weightedSum(P, V);
        for (let i = 0; i < P.rows; i++) assertRowIdentical(finite, skipping, i, `dv ${dv}, seed ${seed}: weightedSum`);
      }
    }
    // The same through attention: keys hidden by the mask (−∞) hold NaN and ∞ Values.
    for (const [T, d, dv] of [[5, 3, 4], [17, 8, 9], [40, 16, 33]]) {
      const Q = uniform(api, T, d, T), K = uniform(api, T, d, T + 1), V = uniform(api, T, dv, T + 2);
      const mask = { rows: T, cols: T, data: new Float32Array(T * T) };
      // keys j ≡ 1 (mod 4) are hidden from every row, others from some rows; no row sees nothing
      const hidden = [];
      for (let j = 0; j < T; j++) if (j % 4 === 1) hidden.push(j);
      for (let i = 0; i < T; i++)
        for (let j = 0; j < T; j++) if (j % 4 === 1 || ((i + 2 * j) % 3 === 0 && j !== 0)) mask.data[i * T + j] = -kInf;
      const V2 = copy(V);
      // keys hidden from every row: poison their Values
      for (const j of hidden) for (let k = 0; k < dv; k++) V2.data[j * dv + k] = k % 2 ? kNaN : kInf;
      const want = { plain: api.attention(Q, K, V, { mask }).output, only: api.attentionOutput(Q, K, V, { mask }), tiled: api.flashAttention(Q, K, V, { mask, tile: 7 }) };
      const got = { plain: api.attention(Q, K, V2, { mask }).output, only: api.attentionOutput(Q, K, V2, { mask }), tiled: api.flashAttention(Q, K, V2, { mask, tile: 7 }) };
      for (const k of Object.keys(want))
        for (let i = 0; i < T; i++) (k === 'tiled' ? assertRowClose : assertRowIdentical)(want[k], got[k], i, `T ${T}, masked keys ${hidden}: ${k}`);
    }
  });

  test(`${b.name}: contract 3: hidden keys weigh exactly 0, a fully masked row is exactly 0`, { skip }, async () => {
    const api = await createAttention(b.options);
    const T = 13, d = 5, dv = 6;
    const Q = uniform(api, T, d, 7), K = uniform(api, T, d, 8), V = uniform(api, T, dv, 9);
    const tr = api.attention(Q, K, V, { causal: true });
    for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) assert.ok(Object.is(tr.weights.data[i * T + j], 0), `weight (${i}, ${j})`);
    const mask = { rows: T, cols: T, data: new Float32Array(T * T) };
    for (let j = 0; j < T; j++) mask.data[4 * T + j] = -kInf; // row 4 sees nothing
    for (const out of [api.attention(Q, K, V, { mask }).output, api.attentionOutput(Q, K, V, { mask }),
      api.flashAttention(Q, K, V, { mask }), api.flashAttention(Q, K, V, { mask, tile: 3 })])
      for (let k = 0; k < dv; k++) assert.ok(Object.is(out.data[4 * dv + k], 0), `fully masked row, column ${k}: ${out.data[4 * dv + k]}`);
  });
}

// The page's small products (T = 3, d = 4) skip the packed GEMM's packing (core/src/kernels/
// gemm.cpp, gemm_small) with the same chain of the same madd: a query's row, which never
// depends on the other queries without a mask, has the same bits whether its call is small
// (its rows alone) or large (among 120 queries: packed). Natively: test_attention.cpp.
for (const b of BUILDS) {
  const skip = b.relaxed ? noRelaxed : false;
  test(`${b.name}: the small-product path gives the packed path's bits`, { skip }, async () => {
    const api = await createAttention(b.options);
    const rowsOf = (m, n) => ({ rows: n, cols: m.cols, data: Float32Array.from(m.data.subarray(0, n * m.cols)) });
    const colsOf = (m, n) => {
      const out = { rows: m.rows, cols: n, data: new Float32Array(m.rows * n) };
      for (let i = 0; i < m.rows; i++) out.data.set(m.data.subarray(i * m.cols, i * m.cols + n), i * n);
      return out;
    };
    for (const [Tq, Tk, dk, dv] of [[3, 3, 4, 4], [1, 4, 1, 4], [2, 5, 7, 3], [3, 2, 17, 2], [2, 8, 5, 9],
      [4, 4, 4, 16], [3, 7, 3, 17], [1, 1, 250, 1]]) {
      const where = `Tq ${Tq}, Tk ${Tk}, dk ${dk}, dv ${dv}`;
      const Qbig = uniform(api, 120, dk, Tq + 10 * dk), K = uniform(api, Tk, dk, 3 + Tk), V = uniform(api, Tk, dv, 5 + dv);
      Qbig.data[0] = -0;
      const Q = rowsOf(Qbig, Tq);
      const small = api.attention(Q, K, V), big = api.attention(Qbig, K, V);
      const onlySmall = api.attentionOutput(Q, K, V), onlyBig = api.attentionOutput(Qbig, K, V);
      for (let i = 0; i < Tq; i++) {
        assertRowIdentical(small.scores, big.scores, i, `${where}: attention().scores`);
        assertRowIdentical(small.weights, big.weights, i, `${where}: attention().weights`);
        assertRowIdentical(small.output, big.output, i, `${where}: attention().output`);
        assertRowIdentical(onlySmall, onlyBig, i, `${where}: attentionOutput()`);
      }
      // The other operand's side: many keys (scores), many Value columns (weightedSum).
      const Kbig = uniform(api, 120, dk, 7 + dk), Vwide = uniform(api, Tk, 120, 9 + Tk);
      const S = api.scores(Q, rowsOf(Kbig, Tk)), Swide = colsOf(api.scores(Q, Kbig), Tk);
      const O = api.weightedSum(small.weights, colsOf(Vwide, dv)), Owide = colsOf(api.weightedSum(small.weights, Vwide), dv);
      for (let i = 0; i < Tq; i++) {
        assertRowIdentical(S, Swide, i, `${where}: scores() against 120 keys`);
        assertRowIdentical(O, Owide, i, `${where}: weightedSum() against 120 Value columns`);
      }
    }
  });
}
