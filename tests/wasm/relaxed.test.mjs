// The relaxed-SIMD builds of the core (attn-core-relaxed.wasm, attn-core-lite-relaxed.wasm:
// the matrix products multiply-add with f32x4.relaxed_madd) and the tool that makes them
// loadable (tools/wasm-relaxed-madd.mjs). Needs --experimental-wasm-relaxed-simd: Node 20's
// V8 validates relaxed SIMD only behind that flag (Chromium has it on). ctest passes it; run
// by hand without it (`node --test tests/wasm/relaxed.test.mjs`), this file runs itself again
// in a Node started with the flag, and says why it skips if that Node still lacks relaxed SIMD.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import createAttention, { relaxedSimdSupported } from '../../web/dist/attn.mjs';
import { rewriteRelaxedMadd } from '../../tools/wasm-relaxed-madd.mjs';

const FLAG = '--experimental-wasm-relaxed-simd';
const RESPAWNED = 'ATTN_RELAXED_TEST_RESPAWNED';
if (!relaxedSimdSupported() && !process.env[RESPAWNED] && !process.execArgv.includes(FLAG)) {
  // Same Node, same options (under `node --test` these make it report to the runner), plus
  // the flag; the inherited stdout carries the child's results as if they were this file's.
  const child = spawnSync(process.execPath, [...process.execArgv, FLAG, fileURLToPath(import.meta.url)],
    { stdio: 'inherit', env: { ...process.env, [RESPAWNED]: '1' } });
  if (child.error) throw child.error;
  process.exit(child.status ?? 1);
}
// Still none (an engine without relaxed SIMD even behind the flag): skip every test, naming the flag.
const skip = relaxedSimdSupported() ? false
  : `needs WebAssembly relaxed SIMD (Node 20: ${FLAG}), which this Node (${process.version}) lacks`;
const dist = new URL('../../web/dist/', import.meta.url);

test(`this Node validates relaxed SIMD (run with ${FLAG})`, { skip }, () => {
  assert.equal(relaxedSimdSupported(), true);
});

const simd = skip ? null : await createAttention({ simd: true });
const relaxed = skip ? null : await createAttention({ simd: 'relaxed' });
const lite = skip ? null : await createAttention({ training: false }); // 'auto': relaxed first without the trainer

test('which build loads: relaxed on request and for the lite core under auto; the whole core stays SIMD128', { skip }, async () => {
  assert.equal(simd.simd, 'wasm-simd128');
  assert.equal(relaxed.simd, 'wasm-relaxed-simd');
  assert.equal(lite.simd, 'wasm-relaxed-simd');
  assert.equal((await createAttention()).simd, 'wasm-simd128');
  assert.equal((await createAttention({ simd: true, training: false })).simd, 'wasm-simd128');
  await assert.rejects(createAttention({ simd: 'fast' }), TypeError);
  assert.throws(() => lite.createModel(), /training: false/);
  const m = relaxed.createModel({ task: 'previous-token' }); // the whole relaxed core trains
  assert.ok(m.train(2).loss.every(Number.isFinite));
  m.dispose();
});

test('both relaxed modules are patched: standard relaxed_madd present, no pre-standard opcode left', { skip }, async () => {
  for (const file of ['attn-core-relaxed.wasm', 'attn-core-lite-relaxed.wasm']) {
    const bytes = new Uint8Array(await readFile(new URL(file, dist)));
    assert.ok(WebAssembly.validate(bytes), `${file} validates`);
    // Decoding again finds nothing left to rewrite (the tool counts genuine instructions only).
    assert.equal(rewriteRelaxedMadd(bytes.slice()).count, 0, `${file}: no pre-standard f32x4.fma left`);
  }
});

// |got − want| <= 1e-5·|want| + 1e-6·scale: FMA rounds each product once instead of twice.
function assertClose(got, want, scale, what) {
  assert.deepEqual([got.rows, got.cols], [want.rows, want.cols], `${what}: shape`);
  for (let i = 0; i < want.data.length; i++) {
    const g = got.data[i], w = want.data[i];
    if (!Number.isFinite(w)) assert.ok(Object.is(g, w), `${what}: entry ${i}: got ${g}, want ${w}`);
    else assert.ok(Math.abs(g - w) <= 1e-5 * Math.abs(w) + 1e-6 * scale, `${what}: entry ${i}: got ${g}, want ${w}`);
  }
}

test('relaxed and SIMD128 builds agree on every product path (many shapes, tiles, masks)', { skip }, () => {
  let differ = 0;
  for (const a of [relaxed, lite]) {
    for (const [Tq, Tk, d, dv, tile] of [[1, 1, 4, 3, undefined], [3, 3, 4, 4, undefined], [37, 70, 16, 5, 16],
      [130, 130, 64, 64, undefined], [65, 200, 8, 33, 7], [17, 9, 1, 1, undefined], [256, 300, 64, 64, undefined]]) {
      const args = (x) => [x.random({ rows: Tq, cols: d, seed: Tq, std: 2 }), x.random({ rows: Tk, cols: d, seed: Tk + 1, std: 2 }),
        x.random({ rows: Tk, cols: dv, seed: d + 2 })];
      const vmax = Math.max(...args(simd)[2].data.map(Math.abs)); // outputs are convex combinations of V rows
      for (const causal of [false, true]) {
        const want = simd.flashAttention(...args(simd), { causal, tile });
        const got = a.flashAttention(...args(a), { causal, tile });
        assertClose(got, want, vmax, `flash ${Tq}x${Tk}x${d} causal=${causal}`);
        assertClose(a.attentionOutput(...args(a), { causal }), simd.attentionOutput(...args(simd), { causal }), vmax, `plain ${Tq}x${Tk}`);
        const t = a.attention(...args(a), { causal }), u = simd.attention(...args(simd), { causal });
        // Scores are sums of d products of |q|, |k| ~ 2: errors scale with d·4, not with the (cancelling) sum.
        for (const stage of ['scores', 'weights', 'output'])
          assertClose(t[stage], u[stage], stage === 'scores' ? 4 * d : stage === 'output' ? vmax : 1, `attention ${stage} ${Tq}x${Tk}`);
        differ += got.data.some((v, i) => v !== want.data[i]) ? 1 : 0;
      }
      const [A, B] = args(a), [C, D] = args(simd);
      assertClose(a.matmulBt(A, B), simd.matmulBt(C, D), 4 * d, `matmulBt ${Tq}x${Tk}x${d}`);
    }
  }
  // The products do run on another instruction: V8 runs f32x4.relaxed_madd as one fused
  // multiply-add on x86-64 with FMA3 and on Arm64, so some outputs differ in the last bits.
  assert.ok(differ > 0, 'the relaxed build rounds like a fused multiply-add somewhere');
});

test('relaxed build: the same errors and non-finite rules; the module keeps working', { skip }, () => {
  assert.throws(() => relaxed.scores(relaxed.matrix(2, 3), relaxed.matrix(2, 4)), (e) => e instanceof RangeError && e.kind === 'ShapeError');
  const t = relaxed.attention(relaxed.matrix(2, 1, [1, NaN]), relaxed.matrix(2, 1, [1, 1]), relaxed.matrix(2, 1, [1, 2]), { causal: true });
  assert.equal(t.output.data[0], 1);
  assert.ok(Number.isNaN(t.output.data[1]));
  // A zero weight takes nothing from an infinite V entry (the products skip it).
  const V = relaxed.matrix(2, 1, [1, Infinity]);
  const o = relaxed.flashAttention(relaxed.matrix(2, 1, [1, 1]), relaxed.matrix(2, 1, [1, 1]), V, { causal: true });
  assert.equal(o.data[0], 1);
  const ex = relaxed.example('core-attention');
  const [Q] = relaxed.splitHeads(ex.Q, 2), [K] = relaxed.splitHeads(ex.K, 2), [W] = relaxed.splitHeads(ex.V, 2);
  const r = relaxed.attention(Q, K, W, { causal: true });
  [0.114, 0.042, 0.844, 1].forEach((w, j) => assert.ok(Math.abs(r.output.data[8 + j] - w) < 5e-4), 'the document numbers');
});

// ---- the patcher, on hand-made modules ---------------------------------------------------------

const leb = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
// A module with one function () -> v128 whose body is `code` (no locals), plus one memory.
function moduleWith(code) {
  const body = [0, ...code, 0x0b];
  const section = (id, bytes) => [id, ...leb(bytes.length), ...bytes];
  return new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, [1, 0x60, 0, 1, 0x7b]), ...section(3, [1, 0]), ...section(5, [1, 0, 1]),
    ...section(10, [1, ...leb(body.length), ...body])]);
}
const FMA_PRE = [0xfd, 0xaf, 0x01], FMA_STD = [0xfd, 0x85, 0x02];
const find = (bytes, seq) => {
  const at = [];
  for (let i = 0; i + seq.length <= bytes.length; i++) if (seq.every((b, k) => bytes[i + k] === b)) at.push(i);
  return at;
};

test('the patcher rewrites genuine f32x4.fma only, never the same bytes inside immediates', { skip }, () => {
  const code = [
    0x41, ...FMA_PRE, 0x1a, // i32.const 22525 (41 FD AF 01), drop
    0x41, 0, 0x28, 0x02, ...FMA_PRE, 0x1a, // i32.load offset=22525 (memarg FD AF 01), drop
    0xfd, 0x0c, ...FMA_PRE, ...FMA_PRE, ...FMA_PRE, ...FMA_PRE, 0, 0, 0, 0, // v128.const holding FD AF 01 x 4
    0xfd, 0x0c, ...Array(16).fill(0), 0xfd, 0x0c, ...Array(16).fill(0),
    ...FMA_PRE, // f32x4.fma (c0 * c1 + c2): the one genuine instruction
  ];
  const bytes = moduleWith(code);
  assert.equal(find(bytes, FMA_PRE).length, 7); // 6 inside immediates, 1 instruction
  const genuine = bytes.length - 1 - 3; // the fma sits just before the function's end
  const before = bytes.slice();
  assert.equal(rewriteRelaxedMadd(bytes).count, 1);
  for (let i = 0; i < bytes.length; i++)
    if (i < genuine + 1 || i > genuine + 2) assert.equal(bytes[i], before[i], `byte ${i} untouched`);
  assert.deepEqual([...bytes.slice(genuine, genuine + 3)], FMA_STD);
  assert.equal(find(bytes, FMA_PRE).length, 6);
  assert.ok(WebAssembly.validate(bytes), 'the rewritten module validates (relaxed SIMD)');
  assert.ok(!WebAssembly.validate(before), 'the pre-standard opcode is rejected by V8');
});

test('the patcher fails loudly on an opcode it does not know or a body that does not decode', () => {
  assert.throws(() => rewriteRelaxedMadd(moduleWith([0xfe, 0x00])), /unknown opcode 0xfe/); // atomics: not in the build
  assert.throws(() => rewriteRelaxedMadd(moduleWith([0xfd, 0xb0, 0x01])), /pre-standard relaxed-SIMD opcode/); // f32x4.fms
  assert.throws(() => rewriteRelaxedMadd(moduleWith([0x44, 0])), /unexpected end/); // f64.const cut short
  assert.throws(() => rewriteRelaxedMadd(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])), /not a WebAssembly module/);
});
