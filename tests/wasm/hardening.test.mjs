// Every kind of bad argument at every function of the public JS API (wasm/attn.mjs):
// each must throw a JS Error (TypeError or RangeError, never a raw Emscripten exception
// or a number) with a message naming the function or the argument, and the module must
// compute correctly afterwards. Then random junk (fast-check) at every function, and
// memory staying flat over 10,000 create/compute cycles.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import createAttention from '../../web/dist/attn.mjs';

const fc = createRequire(new URL('../../web/package.json', import.meta.url))('fast-check');
const attn = await createAttention();
const counts = {}; // per function: bad inputs tried

// The module still computes the document's numbers (seed 000, head 1, causal).
function stillWorks() {
  const ex = attn.example('core-attention');
  const [Q] = attn.splitHeads(ex.Q, 2);
  const [K] = attn.splitHeads(ex.K, 2);
  const [V] = attn.splitHeads(ex.V, 2);
  const t = attn.attention(Q, K, V, { causal: true });
  const p = Array.from(t.weights.data.subarray(6, 9));
  [0.114, 0.042, 0.844].forEach((w, j) => assert.ok(Math.abs(p[j] - w) < 5e-4, `after an error: P row 3 = ${p}`));
}

const KINDS = new Set(['TypeError', 'ShapeError', 'ValueError', 'SizeError']);
// Calls fn(...args), expects a useful JS error, then checks the module still works.
function rejects(name, args, { type = Error, match } = {}) {
  counts[name] = (counts[name] ?? 0) + 1;
  let caught;
  try {
    attn[name](...args);
  } catch (e) {
    caught = e;
  }
  const label = `${name}(${args.map((a) => { try { return JSON.stringify(a)?.slice(0, 60); } catch { return String(a); } }).join(', ')})`;
  assert.ok(caught !== undefined, `${label} did not throw`);
  assert.ok(caught instanceof Error, `${label} threw a non-Error: ${String(caught)}`);
  assert.ok(caught instanceof type, `${label} threw ${caught.constructor.name}, want ${type.name}: ${caught.message}`);
  assert.ok(caught instanceof TypeError || caught instanceof RangeError, `${label}: ${caught.constructor.name}`);
  assert.ok(KINDS.has(caught.kind), `${label}: kind = ${caught.kind}`);
  assert.ok(caught.message.length >= 15 && !/undefined is not|Cannot read|is not a function/.test(caught.message),
    `${label}: unhelpful message "${caught.message}"`);
  if (match) assert.match(caught.message, match, label);
  stillWorks();
}

const M = (rows, cols, fill = 1) => ({ rows, cols, data: new Float32Array(rows * cols).fill(fill) });
const detached = () => {
  const data = new Float32Array(4).fill(1);
  structuredClone(data.buffer, { transfer: [data.buffer] });
  return { rows: 2, cols: 2, data };
};

// Bad matrices: [value, expected error type].
const badMatrices = [
  [undefined, TypeError], [null, TypeError], [3, TypeError], ['Q', TypeError], [[1, 2, 3], TypeError], [{}, TypeError],
  [{ rows: 2 }, TypeError], [{ rows: '2', cols: 2, data: [1, 2, 3, 4] }, TypeError], [{ rows: 2n, cols: 2, data: [1, 2, 3, 4] }, TypeError],
  [{ rows: -1, cols: 2, data: [] }, RangeError], [{ rows: 1.5, cols: 2, data: [1, 2, 3] }, RangeError],
  [{ rows: NaN, cols: 2, data: [] }, RangeError], [{ rows: Infinity, cols: 2, data: [] }, RangeError],
  [{ rows: 2 ** 20, cols: 2 ** 20, data: [] }, RangeError], [{ rows: 2 ** 53, cols: 1, data: [] }, RangeError],
  [{ rows: 2, cols: 2, data: [1, 2, 3] }, RangeError], [{ rows: 2, cols: 2, data: new Float32Array(5) }, RangeError],
  [{ rows: 2, cols: 2, data: 'abcd' }, TypeError], [{ rows: 2, cols: 2, data: new Int32Array(4) }, TypeError],
  [{ rows: 2, cols: 2, data: new Uint8Array(4) }, TypeError], [{ rows: 2, cols: 2, data: { length: 4 } }, TypeError],
  [{ rows: 2, cols: 2, data: [1, '2', 3, 4] }, TypeError], [{ rows: 2, cols: 2, data: [1, , 3, 4] }, TypeError], // eslint-disable-line no-sparse-arrays
  [{ rows: 2, cols: 2, data: [1, null, 3, 4] }, TypeError], [{ rows: 2, cols: 2, data: [1, 2n, 3, 4] }, TypeError],
  [{ rows: 2, cols: 2, data: [1, {}, 3, 4] }, TypeError], [detached(), RangeError],
];
// Bad counts (sizes, head counts): [value, expected error type].
const badCounts = [
  [undefined, TypeError], [null, TypeError], ['3', TypeError], [3n, TypeError], [true, TypeError], [{}, TypeError],
  [-1, RangeError], [1.5, RangeError], [NaN, RangeError], [Infinity, RangeError], [-Infinity, RangeError],
  [2 ** 53, RangeError], [1e300, RangeError],
];
const badRates = [[1, RangeError], [1.5, RangeError], [-0.1, RangeError], [NaN, RangeError], [Infinity, RangeError],
  [0.99999999, RangeError], ['0.1', TypeError], [null, TypeError]];
const badSeeds = [[-1, RangeError], [1.5, RangeError], [2 ** 60, RangeError], [NaN, RangeError], [Infinity, RangeError],
  [1n, TypeError], ['7', TypeError]];

test('bad matrices at every matrix argument of every function', () => {
  const A = M(2, 2);
  const calls = {
    matmul: (x) => [[x, A], [A, x]], matmulBt: (x) => [[x, A], [A, x]], transpose: (x) => [[x]],
    scores: (x) => [[x, A], [A, x]], scale: (x) => [[x, 2]], addMask: (x) => [[x, A], [A, x]],
    softmax: (x) => [[x]], weightedSum: (x) => [[x, A], [A, x]], dropout: (x) => [[x, { rate: 0.5 }]],
    attention: (x) => [[x, A, A], [A, x, A], [A, A, x], [A, A, A, { mask: x }]],
    splitHeads: (x) => [[x, 1]], concatHeads: (x) => [[[x]], [[A, x]]],
    multiHeadAttention: (x) => [[x, { Wq: A, Wk: A, Wv: A, Wo: A, heads: 1 }], [A, { Wq: x, Wk: A, Wv: A, Wo: A, heads: 1 }],
      [A, { Wq: A, Wk: x, Wv: A, Wo: A, heads: 1 }], [A, { Wq: A, Wk: A, Wv: x, Wo: A, heads: 1 }], [A, { Wq: A, Wk: A, Wv: A, Wo: x, heads: 1 }]],
  };
  for (const [name, argsFor] of Object.entries(calls))
    for (const [bad, type] of badMatrices)
      for (const args of argsFor(bad)) {
        // A bad mask that is undefined or null means "no mask": not an error.
        if (name === 'attention' && args.length === 4 && (bad === undefined || bad === null)) continue;
        rejects(name, args, { type });
      }
});

test('mismatched shapes name both shapes', () => {
  const both = /2x3.*4x5|4x5.*2x3/;
  rejects('matmul', [M(2, 3), M(4, 5)], { type: RangeError, match: both });
  rejects('matmulBt', [M(2, 3), M(4, 5)], { type: RangeError, match: both });
  rejects('scores', [M(2, 3), M(4, 5)], { type: RangeError, match: both });
  rejects('addMask', [M(2, 3), M(4, 5)], { type: RangeError, match: both });
  rejects('weightedSum', [M(2, 3), M(4, 5)], { type: RangeError, match: both });
  rejects('attention', [M(2, 3), M(4, 3), M(5, 2)], { type: RangeError, match: /4x3.*5x2/ });
  rejects('attention', [M(2, 3), M(4, 3), M(4, 2), { mask: M(4, 5) }], { type: RangeError, match: /4x5.*2x4/ });
  rejects('attention', [M(0, 3), M(4, 3), M(4, 2)], { type: RangeError, match: /token/ });
  rejects('attention', [M(2, 0), M(4, 0), M(4, 2)], { type: RangeError, match: /d_k = 0/ });
  rejects('concatHeads', [[M(2, 2), M(3, 2)]], { type: RangeError, match: /2x2.*3x2/ });
  rejects('concatHeads', [[]], { type: RangeError, match: /no heads/ });
  const W = M(4, 4);
  rejects('multiHeadAttention', [M(3, 4), { Wq: M(5, 4), Wk: W, Wv: W, Wo: W, heads: 2 }], { type: RangeError, match: /5x4/ });
  rejects('multiHeadAttention', [M(3, 4), { Wq: W, Wk: W, Wv: W, Wo: M(3, 4), heads: 2 }], { type: RangeError, match: /W_O/ });
});

test('bad counts, sizes past the limit and sizes that would not fit in memory', () => {
  const X = M(3, 4);
  const W = M(4, 4);
  for (const [bad, type] of badCounts) {
    rejects('matrix', [bad, 2], { type });
    rejects('matrix', [2, bad], { type });
    rejects('causalMask', [bad, 3], { type });
    rejects('causalMask', [3, bad], { type });
    rejects('positionalEncoding', [bad, 4], { type });
    rejects('positionalEncoding', [4, bad], { type });
    rejects('splitHeads', [X, bad], { type });
    rejects('multiHeadAttention', [X, { Wq: W, Wk: W, Wv: W, Wo: W, heads: bad }], { type });
    rejects('random', [{ rows: bad, cols: 2 }], { type });
    rejects('random', [{ rows: 2, cols: bad }], { type });
    for (const key of ['n', 'dModel', 'heads', 'layers', 'bytesPerElement'])
      if (bad !== undefined || key === 'n' || key === 'dModel') rejects('cost', [{ n: 8, dModel: 8, [key]: bad }], { type });
  }
  rejects('splitHeads', [X, 0], { type: RangeError, match: /heads.*>= 1/ });
  rejects('splitHeads', [X, 3], { type: RangeError, match: /do not divide/ });
  rejects('splitHeads', [X, 8], { type: RangeError, match: /more than/ });
  rejects('multiHeadAttention', [X, { Wq: W, Wk: W, Wv: W, Wo: W, heads: 3 }], { type: RangeError, match: /do not divide/ });
  rejects('cost', [{ n: 8, dModel: 8, heads: 3 }], { type: RangeError, match: /divide/ });
  rejects('cost', [{ n: 0, dModel: 8 }], { type: RangeError });
  rejects('cost', [{ n: 2 ** 40, dModel: 8 }], { type: RangeError, match: /limit/ });
  // Past kMaxElements (2^28 floats per matrix): refused before anything is allocated.
  const limit = /limit/;
  rejects('matrix', [2 ** 15, 2 ** 14], { type: RangeError, match: limit });
  rejects('causalMask', [2 ** 15, 2 ** 14], { type: RangeError, match: limit });
  rejects('causalMask', [2 ** 28, 2 ** 28], { type: RangeError, match: limit });
  rejects('positionalEncoding', [1e6, 1e6], { type: RangeError, match: limit });
  rejects('random', [{ rows: 1e5, cols: 1e5 }], { type: RangeError, match: limit });
  rejects('scores', [M(20000, 1), M(20000, 1)], { type: RangeError, match: limit });
  // Within the per-matrix limit, but the trace (six 12000 x 12000 matrices, 3.5 GB)
  // cannot fit in the module's 2 GB: refused up front, the heap does not grow.
  const before = attn.heapBytes();
  rejects('attention', [M(12000, 1), M(12000, 1), M(12000, 1)], { type: RangeError, match: /MB/ });
  rejects('multiHeadAttention', [M(10000, 2), { Wq: M(2, 2), Wk: M(2, 2), Wv: M(2, 2), Wo: M(2, 2), heads: 2 }], { type: RangeError, match: /MB/ });
  assert.equal(attn.heapBytes(), before);
});

test('bad options: types, NaN and ±Infinity, rates and seeds', () => {
  const A = M(2, 2);
  const W = M(2, 2);
  for (const bad of ['causal', 5, true, [1], Symbol('x')]) rejects('attention', [A, A, A, bad], { type: TypeError });
  for (const bad of ['yes', 1, {}]) rejects('attention', [A, A, A, { causal: bad }], { type: TypeError });
  for (const bad of ['2', 2n, {}, true]) rejects('attention', [A, A, A, { scale: bad }], { type: TypeError });
  for (const bad of [NaN, Infinity, -Infinity, 1e300, -1e300]) {
    rejects('attention', [A, A, A, { scale: bad }], { type: RangeError, match: /finite/ });
    rejects('scale', [A, bad], { type: RangeError, match: /finite/ });
  }
  for (const bad of ['2', undefined, null, 2n, [2]]) rejects('scale', [A, bad], { type: TypeError });
  for (const bad of [5, 'x', [0.1]]) rejects('attention', [A, A, A, { dropout: bad }], { type: TypeError });
  for (const [bad, type] of badRates) {
    rejects('attention', [A, A, A, { dropout: { rate: bad } }], { type });
    rejects('dropout', [A, { rate: bad }], { type });
    rejects('multiHeadAttention', [A, { Wq: W, Wk: W, Wv: W, Wo: W, heads: 1, dropout: { rate: bad } }], { type });
  }
  for (const [bad, type] of badSeeds) {
    rejects('attention', [A, A, A, { dropout: { rate: 0.1, seed: bad } }], { type });
    rejects('dropout', [A, { rate: 0.1, seed: bad }], { type });
    rejects('random', [{ rows: 2, cols: 2, seed: bad }], { type });
  }
  for (const bad of ['true', 1, {}]) rejects('attention', [A, A, A, { dropout: { rate: 0.1, training: bad } }], { type: TypeError });
  for (const bad of [0, null]) rejects('softmax', [A, { axis: bad }], { type: TypeError });
  for (const bad of ['diag', 'ROWS']) rejects('softmax', [A, { axis: bad }], { type: RangeError }); // a wrong value
  for (const bad of ['rows', 3, [1]]) rejects('softmax', [A, bad], { type: TypeError });
  for (const bad of ['x', 5]) rejects('dropout', [A, bad], { type: TypeError });
  for (const bad of [null, 'x', 5, [1], undefined]) rejects('multiHeadAttention', [A, bad], { type: TypeError });
  for (const bad of [null, 'x', 5, [1], undefined]) rejects('cost', [bad], { type: TypeError });
  for (const bad of [null, 'x', 5, [1], undefined]) rejects('random', [bad], { type: TypeError });
  rejects('random', [{ rows: 2, cols: 2, distribution: 3 }], { type: TypeError });
  rejects('random', [{ rows: 2, cols: 2, distribution: 'cauchy' }], { type: RangeError });
  for (const bad of [{ std: -1 }, { std: NaN }, { mean: Infinity }, { distribution: 'uniform', lo: 2, hi: 1 },
    { distribution: 'uniform', hi: Infinity }, { distribution: 'uniform', lo: NaN }])
    rejects('random', [{ rows: 2, cols: 2, ...bad }], { type: RangeError });
  for (const bad of [{ mean: '0' }, { std: null }, { lo: [] }]) rejects('random', [{ rows: 2, cols: 2, ...bad }], { type: TypeError });
  rejects('example', ['nope'], { type: RangeError, match: /nope/ });
  for (const bad of [undefined, 5, null, {}]) rejects('example', [bad], { type: TypeError });
  for (const bad of [undefined, null, 'x', 5, {}]) rejects('concatHeads', [bad], { type: TypeError });
  rejects('matrix', [2, 2, [1, 2, 3]], { type: RangeError });
  rejects('matrix', [2, 2, 'abcd'], { type: TypeError });
  rejects('matrix', [1, 2, [1, 'x']], { type: TypeError });
});

test('createAttention rejects bad options', async () => {
  const bad = [null, 'simd', 5, [1], { simd: 'yes' }, { simd: 1 }, { simd: null }];
  for (const o of bad) await assert.rejects(createAttention(o), (e) => e instanceof TypeError && /createAttention/.test(e.message));
  counts.createAttention = bad.length;
  stillWorks();
});

test('documented non-finite behaviour through the JS API, with the trace saying where it entered', () => {
  const Q = attn.matrix(3, 2, [1, 0, NaN, 1, 0, 1]);
  const K = attn.matrix(3, 2, [1, 0, 0, 1, 1, 1]);
  const V = attn.matrix(3, 2, [1, 2, 3, 4, 5, Infinity]);
  const t = attn.attention(Q, K, V, { causal: true });
  assert.deepEqual(t.nonFinite.entries, [{ input: 'Q', row: 1, col: 0, value: NaN }, { input: 'V', row: 2, col: 1, value: Infinity }]);
  assert.equal(t.nonFinite.count, 2);
  assert.deepEqual(t.nonFinite.stages, ['scores', 'scaled', 'masked', 'weights', 'output']);
  // Row 0 sees only key 0: untouched by the NaN in query 1 and the ∞ in Value 2.
  assert.deepEqual(Array.from(t.output.data.subarray(0, 2)), [1, 2]);
  assert.ok(Array.from(t.weights.data.subarray(3, 6)).every(Number.isNaN), 'query 1 row is NaN');
  assert.equal(t.masked.data[2], -Infinity);
  // Clean inputs: an empty report. ±1e30 logits: finite weights.
  const clean = attn.attention(K, K, K, { scale: 1e30 });
  assert.deepEqual(clean.nonFinite, { count: 0, entries: [], stages: [] });
  assert.ok(clean.weights.data.every(Number.isFinite));
  const mh = attn.multiHeadAttention(K, { Wq: attn.matrix(2, 2, [1, 0, 0, NaN]), Wk: attn.matrix(2, 2, [1, 0, 0, 1]), Wv: attn.matrix(2, 2, [1, 0, 0, 1]), Wo: attn.matrix(2, 2, [1, 0, 0, 1]), heads: 2 });
  assert.equal(mh.nonFinite.entries[0].input, 'W_Q');
  assert.deepEqual(mh.heads[0].nonFinite.stages, []);
  assert.equal(mh.heads[1].nonFinite.count, 3);
});

test('random junk at every function (fast-check): only TypeError or RangeError, and the module keeps working', () => {
  const small = fc.integer({ min: 0, max: 6 });
  const num = fc.oneof(fc.double({ min: -1e3, max: 1e3 }), fc.constantFrom(NaN, Infinity, -Infinity, -0, 1e30, -1e30, 2 ** 53, 1e300, 0.5));
  const data = fc.oneof(fc.array(num, { maxLength: 40 }), fc.array(num, { maxLength: 40 }).map((a) => Float32Array.from(a)),
    fc.array(num, { maxLength: 40 }).map((a) => Float64Array.from(a)), fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 10 }));
  const matrix = fc.record({ rows: fc.oneof(small, num), cols: fc.oneof(small, num), data });
  // A well-formed matrix half of the time, so calls also get past the type checks.
  const good = fc.tuple(small, small).chain(([r, c]) => fc.array(num, { minLength: r * c, maxLength: r * c }).map((a) => attn.matrix(r, c, a)));
  const junk = fc.oneof(good, good, matrix, num, small, fc.string({ maxLength: 8 }), fc.constantFrom(undefined, null, true, 3n, [], {}),
    fc.record({ causal: fc.anything({ maxDepth: 0 }), scale: num, heads: fc.oneof(small, num), axis: fc.constantFrom('rows', 'cols', 'x'),
      rate: num, seed: num, dropout: fc.record({ rate: num, seed: fc.oneof(small, num), training: fc.boolean() }),
      rows: fc.oneof(small, num), cols: fc.oneof(small, num), n: fc.oneof(small, num), dModel: fc.oneof(small, num),
      Wq: good, Wk: good, Wv: good, Wo: good, mask: fc.oneof(good, matrix) }, { requiredKeys: [] }),
    fc.array(good, { maxLength: 3 }));
  const names = Object.keys(attn).filter((k) => typeof attn[k] === 'function');
  let calls = 0;
  fc.assert(fc.property(fc.constantFrom(...names), fc.array(junk, { maxLength: 4 }), (name, args) => {
    calls++;
    try {
      attn[name](...args);
    } catch (e) {
      assert.ok(e instanceof TypeError || e instanceof RangeError, `${name} threw ${e?.constructor?.name}: ${e?.message ?? e}`);
      assert.ok(KINDS.has(e.kind) && e.message.length >= 15, `${name}: ${e.kind} "${e.message}"`);
    }
  }), { numRuns: 3000, seed: 7 });
  counts.junk = calls;
  stillWorks();
});

test('memory stays flat over 10,000 create/compute cycles (no results left held by the boundary, no leaked C++ memory)', () => {
  const cycle = (i) => {
    const X = attn.random({ rows: 4, cols: 8, seed: i });
    const t = attn.attention(X, X, X, { causal: i % 2 === 0, dropout: { rate: 0.1, seed: i, training: i % 3 === 0 } });
    const heads = attn.splitHeads(t.output, 2);
    attn.concatHeads(heads);
    if (i % 10 === 0) {
      const W = attn.random({ rows: 8, cols: 8, seed: i + 1 });
      attn.multiHeadAttention(X, { Wq: W, Wk: W, Wv: W, Wo: W, heads: 2 });
      attn.softmax(attn.causalMask(5, 5));
      attn.positionalEncoding(6, 8);
      attn.cost({ n: 100, dModel: 64, heads: 8 });
    }
    if (i % 7 === 0) assert.throws(() => attn.scores(X, attn.matrix(2, 3)), RangeError); // errors must not leak either
    if (i % 11 === 0) assert.throws(() => attn.splitHeads(X, 3), RangeError);
  };
  for (let i = 0; i < 200; i++) cycle(i); // warm up: the heap reaches its working size
  const warm = attn.memoryStats();
  for (let i = 200; i < 10000; i++) cycle(i);
  const end = attn.memoryStats();
  assert.equal(end.heapBytes, warm.heapBytes, `heap grew from ${warm.heapBytes} to ${end.heapBytes}`);
  assert.equal(end.handles, warm.handles, `held results: ${warm.handles} -> ${end.handles}`);
  // A leak of even 1 byte per cycle would show as ~10 kB.
  assert.ok(end.mallocBytes - warm.mallocBytes <= 256, `malloc'd bytes: ${warm.mallocBytes} -> ${end.mallocBytes}`);
  stillWorks();
});

// A getter that throws while the input is read (attn.mjs checks it, then copies it into wasm memory for
// the core): the JS exception must reach the caller as itself, leave nothing held or
// allocated behind, and leave the module working.
test('a JS exception thrown while the core reads its input reaches the caller unchanged', () => {
  const Q = attn.matrix(2, 2, [1, 2, 3, 4]);
  const before = attn.memoryStats();
  for (let i = 0; i < 50; i++) {
    let reads = 0; // attn.mjs checks each value once; the core's read is the second
    const data = new Proxy([1, 2, 3, 4], { get(t, k) {
      if (k === '2' && ++reads > 1) throw new SyntaxError('thrown by a getter');
      return Reflect.get(t, k);
    } });
    assert.throws(() => attn.attention(Q, Q, { rows: 2, cols: 2, data }), (e) => e instanceof SyntaxError && e.message === 'thrown by a getter');
  }
  const after = attn.memoryStats();
  assert.equal(after.handles, before.handles, `held results: ${before.handles} -> ${after.handles}`);
  assert.ok(after.mallocBytes - before.mallocBytes <= 256, `malloc'd bytes: ${before.mallocBytes} -> ${after.mallocBytes}`);
  stillWorks();
});

test.after(() => {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(`bad inputs tried at the module: ${total} (${JSON.stringify(counts)})`);
});

// The one error path (wasm/bind.hpp): a C++ exception is caught where it is thrown, its kind
// and message stay in wasm memory and the wrapper throws them; nothing crosses as an
// exception, so nothing is left on the heap or the stack per error. 100,000 errors in a
// row of each kind the core raises, then the module still computes.
test('100,000 consecutive errors leak nothing and leave the module working', () => {
  const Q = attn.matrix(3, 4), K5 = attn.matrix(3, 5), X = attn.matrix(4, 8);
  const errors = [
    () => attn.scores(Q, K5), // ShapeError from the core
    () => attn.splitHeads(X, 3), // ShapeError from the core
    () => attn.constructedHead('diagonal', 3), // ValueError from the core
    () => attn.example('none'), // ValueError from the core (a string argument)
    () => attn.softmax(Q, { axis: 'diagonal' }), // ValueError from the JS checks
  ];
  const run = (n) => {
    for (let i = 0; i < n; i++) {
      try {
        errors[i % errors.length]();
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
        continue;
      }
      assert.fail(`call ${i} did not throw`);
    }
  };
  run(1000);
  const warm = attn.memoryStats();
  run(100000);
  const end = attn.memoryStats();
  assert.equal(end.heapBytes, warm.heapBytes, `heap grew from ${warm.heapBytes} to ${end.heapBytes}`);
  assert.ok(end.mallocBytes - warm.mallocBytes <= 256, `malloc'd bytes: ${warm.mallocBytes} -> ${end.mallocBytes}`);
  stillWorks();
});

test('10,000 createModel/dispose cycles keep the heap flat', () => {
  const cycle = (i) => {
    const m = attn.createModel({ seed: i, dModel: 8, dK: 8, batch: 2, evalSize: 2 });
    if (i % 100 === 0) m.train(1);
    m.dispose();
  };
  const live = attn.liveModels();
  for (let i = 0; i < 100; i++) cycle(i);
  const warm = attn.memoryStats();
  for (let i = 100; i < 10000; i++) cycle(i);
  const end = attn.memoryStats();
  assert.equal(end.heapBytes, warm.heapBytes, `heap grew from ${warm.heapBytes} to ${end.heapBytes}`);
  assert.ok(end.mallocBytes - warm.mallocBytes <= 256, `malloc'd bytes: ${warm.mallocBytes} -> ${end.mallocBytes}`);
  assert.equal(attn.liveModels(), live);
  stillWorks();
});
