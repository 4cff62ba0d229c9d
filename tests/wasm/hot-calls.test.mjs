// The hot calls written out (wasm/api/hot.mjs) against the generic wrapper their row of
// SIGNATURES makes (wasm/api/signatures.mjs binding()): for every combination of good and bad
// arguments, the same outcome — the same error (kind, name, message) or the same arguments
// handed to the module. No module is loaded: `raw` records what it is given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checks, limitsOf, MAX_ELEMENTS, MAX_TRAIN_STEPS } from '../../wasm/api/checks.mjs';
import { hotApi } from '../../wasm/api/hot.mjs';
import { binding, SIGNATURES } from '../../wasm/api/signatures.mjs';

const HOT = ['scores', 'softmax', 'attention', 'attentionOutput', 'flashAttention'];

// The module's limits as limitsOf() reads them (small tile and count limits: reachable).
const limits = {
  MAX_ELEMENTS, MAX_TRAIN_STEPS, MAX_COUNT: 1 << 20, MAX_TILE: 64, MAX_HISTOGRAM_BINS: 256,
  MODEL_MAX_lr: 1, MODEL_MIN_dModel: 1, MODEL_MAX_dModel: 64,
};
const calls = [];
const raw = { ...limits };
for (const name of HOT) raw[name] = (...args) => (calls.push([name, args]), name);

const L = limitsOf(raw);
const { kinds, checkMatrix } = checks(L);
const hot = hotApi(raw, kinds, checkMatrix);

function outcome(f, args) {
  calls.length = 0;
  try {
    const r = f(...args);
    return { returned: r, calls: structuredClone(calls) };
  } catch (e) {
    return { threw: [e?.constructor?.name, e?.name, e?.kind, e?.message] };
  }
}

const m = (rows, cols, data = new Float32Array(rows * cols).map((_, i) => i / 7)) => ({ rows, cols, data });
const matrices = [
  m(2, 3), m(3, 3), m(2, 4), m(0, 3),
  m(2, 3, [0, 1, 2, 3, 4, 5]), m(2, 3, new Float64Array(6)),
  m(2, 3, new Float32Array([0, NaN, 1, Infinity, -Infinity, 2])),
  m(2, 3, new Float32Array(5)), m(2, 3, 'abc'), m(2, 3, null),
  { rows: '2', cols: 3, data: new Float32Array(6) }, { rows: 2.5, cols: 2, data: new Float32Array(5) },
  { rows: -1, cols: 3, data: new Float32Array(0) }, { rows: MAX_ELEMENTS, cols: 2, data: new Float32Array(0) },
  { cols: 3, data: new Float32Array(6) }, null, undefined, 5, 'Q', [], [[1, 2, 3]],
];
const options = [
  undefined, null, {}, 5, 'causal', [], { causal: true }, { causal: 'yes' }, { causal: 1 },
  { scale: 0.5 }, { scale: '0.5' }, { scale: NaN }, { mask: m(2, 3) }, { mask: m(3, 3) }, { mask: 'x' },
  { tile: 2 }, { tile: 0 }, { tile: 1.5 }, { tile: 1000 }, { tile: '2' },
  { axis: 'rows' }, { axis: 'cols' }, { axis: 'x' }, { axis: 1 }, { causal: true, tile: 2, mask: m(2, 2) },
];

for (const name of HOT) {
  test(`${name}: the written-out call and its SIGNATURES row agree on every argument`, () => {
    const generic = binding(raw, name, SIGNATURES[name], kinds);
    const params = SIGNATURES[name];
    assert.equal(hot[name].length, params.length, 'the same number of parameters');
    // Every parameter position takes the matrices (or options for the last one, if it is one).
    const values = params.map((p) => (/: matrix$/.test(p) ? matrices : options));
    let n = 0, errors = 0;
    const walk = (args, i) => {
      if (i === values.length) {
        const a = outcome(generic, args), b = outcome(hot[name], args);
        assert.deepEqual(b, a, `${name}(${args.map((x) => JSON.stringify(x) ?? String(x)).join(', ')})`);
        n++;
        if (a.threw) errors++;
        return;
      }
      for (const v of values[i]) walk([...args, v], i + 1);
    };
    // With four parameters not every combination (21³ × 25): every value at each position,
    // the others from a shorter list of good and bad ones.
    if (values.length === 4) {
      // every pair of positions through all their values, the other two through a few
      const few = [matrices.slice(0, 3), matrices.slice(0, 3), matrices.slice(0, 3), options.slice(0, 4)];
      for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) {
        const lists = few.map((f, k) => (k === i || k === j ? values[k] : f));
        for (const a of lists[0]) for (const b of lists[1]) for (const c of lists[2]) for (const d of lists[3]) walk([a, b, c, d], 4);
      }
    } else walk([], 0);
    assert.ok(n > 100 && errors > 0 && errors < n, `${n} cases, ${errors} errors: good and bad arguments both tried`);
  });
}
