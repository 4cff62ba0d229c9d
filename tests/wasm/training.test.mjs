// The live-training API of the built module (attn.createModel, attn.task) in Node:
// plain-object handles, no leaks, typed errors, and the previous-token task learned
// through WebAssembly with a fixed seed.
import test from 'node:test';
import assert from 'node:assert/strict';
import createAttention from '../../web/dist/attn.mjs';

const attn = await createAttention();

test('task() describes each toy task, computed by the core', () => {
  const t = attn.task('previous-token');
  assert.equal(t.vocabIn, 10);
  assert.equal(t.seqLen, 8);
  assert.deepEqual(t.probe, [3, 1, 4, 1, 5, 9, 2, 6]);
  assert.equal(t.tokenLabels.length, t.vocabIn);
  const two = attn.task('two-relations');
  assert.equal(two.outputLabels[47], '47');
  const sort = attn.task('sort');
  assert.equal(sort.tokenLabels[sort.separator], '|');
  assert.throws(() => attn.task('copy'), (e) => e instanceof RangeError && /previous-token/.test(e.message));
  assert.throws(() => attn.task(3), TypeError);
});

test('createModel returns a plain object; dispose frees the model; nothing leaks', () => {
  const before = attn.liveModels();
  const m = attn.createModel();
  assert.equal(attn.liveModels(), before + 1);
  assert.equal(Object.getPrototypeOf(m), Object.prototype);
  assert.ok(Object.isFrozen(m));
  assert.equal(m.config.task, 'previous-token');
  assert.equal(m.config.dK, 64);
  assert.equal(m.config.dV, 32);
  assert.ok(m.parameters > 1000);
  const r = m.train(3);
  assert.equal(r.step, 3);
  assert.ok(r.loss instanceof Float32Array && r.loss.length === 3);
  assert.ok(r.gradLogits.every((g) => g > 0 && Number.isFinite(g)));
  const p = m.probe(m.task.probe);
  assert.equal(Object.getPrototypeOf(p), Object.prototype);
  assert.equal(p.layers.length, 1);
  assert.equal(p.layers[0].heads.length, 1);
  const W = p.layers[0].heads[0];
  for (let i = 0; i < W.rows; i++) {
    const row = W.data.subarray(i * W.cols, (i + 1) * W.cols);
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5, `row ${i} sums to 1`);
    for (let j = i + 1; j < W.cols; j++) assert.equal(row[j], 0, 'causal: future weights are exactly 0');
  }
  m.dispose();
  m.dispose(); // twice is fine
  assert.equal(attn.liveModels(), before);
  assert.equal(m.disposed, true);
  assert.throws(() => m.train(1), /disposed/);
  // create, train and dispose repeatedly: the module's memory settles
  const run = () => {
    const x = attn.createModel({ task: 'sort', heads: 2, layers: 2, mlpHidden: 16 });
    x.train(2);
    x.probe([3, 9, 1, 7, 4]);
    x.dispose();
  };
  run();
  const heap = attn.heapBytes();
  for (let i = 0; i < 20; i++) run();
  assert.equal(attn.heapBytes(), heap);
  assert.equal(attn.liveModels(), before);
});

test('bad configurations and inputs give typed errors; the module keeps working', () => {
  assert.throws(() => attn.createModel({ heads: 3 }), (e) => e instanceof RangeError && /heads do not divide/.test(e.message));
  assert.throws(() => attn.createModel({ dropout: 1 }), RangeError);
  assert.throws(() => attn.createModel({ layers: 9 }), RangeError);
  assert.throws(() => attn.createModel({ lr: 0 }), RangeError);
  assert.throws(() => attn.createModel({ heads: '2' }), TypeError);
  assert.throws(() => attn.createModel({ scale: 1 }), TypeError);
  assert.throws(() => attn.createModel({ seed: -1 }), (e) => e instanceof RangeError && /^createModel: seed must be/.test(e.message));
  assert.throws(() => attn.createModel({ dropout: NaN }), (e) => e instanceof RangeError && /dropout must be in \[0, 1\), got NaN/.test(e.message));
  assert.throws(() => attn.createModel({ lr: NaN }), (e) => e instanceof RangeError && /lr .* got NaN/.test(e.message));
  assert.throws(() => attn.createModel(null), TypeError);
  assert.throws(() => attn.createModel([]), TypeError);
  assert.throws(() => attn.createModel({ heads: 2 ** 40 }), (e) => e.message === 'createModel: heads = 1099511627776 is past the limit of 16');
  assert.throws(() => attn.createModel({ evalSize: 1e9 }), /past the limit of 4096/);
  assert.throws(() => attn.createModel({ heads: 0 }), /heads must be an integer >= 1, got 0/);
  assert.throws(() => attn.createModel({ lr: 1e-300 }), (e) => e instanceof RangeError && /^createModel: lr/.test(e.message));
  const m = attn.createModel();
  assert.throws(() => m.probe([1]), (e) => e instanceof RangeError && /^probe: previous-token takes 2 to 8 tokens, got 1$/.test(e.message));
  assert.throws(() => m.probe(new Array(10000).fill(1)), /takes 2 to 8 tokens, got 10000/);
  assert.throws(() => m.probe([1, 10]), (e) => e instanceof RangeError && /^probe: token 2 is 10; tokens are 0..9$/.test(e.message));
  assert.throws(() => m.probe([1, 2, 3, 2 ** 40]), /token 4 is 1099511627776/);
  assert.throws(() => m.probe([1, 2.5]), /token 2 is 2.5/);
  assert.throws(() => m.probe(['1', 2]), (e) => e instanceof TypeError && /token 1 must be a number, got the string "1"/.test(e.message));
  assert.throws(() => m.probe('12'), TypeError);
  assert.throws(() => m.probe(new DataView(new ArrayBuffer(8))), (e) => e instanceof TypeError && /^probe: expects an array/.test(e.message));
  assert.throws(() => m.train(0), (e) => e instanceof RangeError && /^train: steps/.test(e.message));
  assert.throws(() => m.train(1e9), (e) => e.message === "train: steps = 1000000000 is past the limit of 100000");
  assert.throws(() => m.train(100001), /past the limit of 100000/);
  const s = attn.createModel({ task: 'sort' });
  assert.throws(() => s.probe([1, 1, 2, 3, 4]), /different/);
  s.dispose();
  assert.equal(m.train(1).step, 1);
  m.dispose();
});

test('a seed names a training run: same seed, same losses', () => {
  const a = attn.createModel({ seed: 11 }), b = attn.createModel({ seed: 11 }), c = attn.createModel({ seed: 12 });
  const la = a.train(4).loss, lb = b.train(4).loss, lc = c.train(4).loss;
  assert.deepEqual(la, lb);
  assert.notDeepEqual(la, lc);
  for (const m of [a, b, c]) m.dispose();
});

test('previous token, seed 1, default settings: learned within 200 steps; the head looks at i-1', () => {
  const m = attn.createModel({ task: 'previous-token', seed: 1 });
  let best = Infinity;
  for (let s = 0; s < 200; s += 25) best = Math.min(best, (m.train(25), m.evaluate()).loss);
  const ev = m.evaluate();
  assert.ok(best < 0.05, `held-out loss ${best} should fall below 0.05 within 200 steps`);
  assert.ok(ev.accuracy >= 0.99, `held-out accuracy ${ev.accuracy}`);
  const p = m.probe(m.task.probe);
  const W = p.layers[0].heads[0];
  let mean = 0;
  for (let i = 1; i < W.rows; i++) {
    const row = Array.from(W.data.subarray(i * W.cols, (i + 1) * W.cols));
    assert.equal(row.indexOf(Math.max(...row)), i - 1, `row ${i}: largest weight on position i-1`);
    mean += row[i - 1] / (W.rows - 1);
  }
  assert.ok(mean > 0.5, `mean weight on i-1: ${mean}`);
  assert.deepEqual(p.predictions.slice(1), m.task.probe.slice(0, -1));
  // the core's role scores on held-out sequences name it (head_roles.hpp, the text model's thresholds)
  const h = m.heads();
  assert.equal(h.sequences, 64);
  assert.ok(h.rows > 0);
  assert.deepEqual(h.heads.map((x) => [x.layer, x.head]), [[0, 0]]);
  assert.ok(h.heads[0].previousToken > 0.5, `previous-token score ${h.heads[0].previousToken}`);
  assert.equal(h.heads[0].role, 'previous-token');
  assert.ok(h.heads[0].previousToken + h.heads[0].firstToken <= 1 + 1e-6);
  assert.ok(m.heads(8).rows < h.rows, 'fewer sequences, fewer rows');
  for (const bad of [0, 4097, 1.5]) assert.throws(() => m.heads(bad), RangeError, String(bad));
  assert.throws(() => m.heads('8'), TypeError);
  m.dispose();
  assert.throws(() => m.heads(), /disposed/);
});

test('two relations, seed 1, as on the page (d_v = 2, d_k = 16): each of two heads takes one offset; one head cannot', () => {
  const cfg = { task: 'two-relations', seed: 1, dV: 2, dK: 16 };
  assert.deepEqual(attn.task('two-relations').offsets, [1, 3]);
  const two = attn.createModel({ ...cfg, heads: 2 }), one = attn.createModel({ ...cfg, heads: 1 });
  two.train(700);
  one.train(700);
  const a = two.evaluate(), b = one.evaluate();
  assert.ok(a.accuracy >= 0.98, `two heads: held-out accuracy ${a.accuracy}`); // measured 1.000
  assert.ok(b.accuracy < 0.3, `one head: held-out accuracy ${b.accuracy}`);
  const p = two.probe(two.task.probe);
  const w = p.layers[0].offsetWeight;
  const near = w[0][1] > w[1][1] ? 0 : 1, far = 1 - near;
  assert.ok(w[near][1] > 0.8 && w[near][3] < 0.05, `near head: i-1 ${w[near][1]}, i-3 ${w[near][3]}`); // 0.98 / 0.00
  assert.ok(w[far][3] > 0.9 && w[far][1] < 0.05, `far head: i-3 ${w[far][3]}, i-1 ${w[far][1]}`); // 0.95 / 0.00
  // offsetWeight[h][o] is the mean of head h's diagonal i - o over the rows where both
  // i-1 and i-3 exist (3..T-1)
  const W = p.layers[0].heads[far];
  let sum = 0;
  for (let i = 3; i < W.rows; i++) sum += W.data[i * W.cols + i - 1];
  assert.ok(Math.abs(w[far][1] - sum / (W.rows - 3)) < 1e-6);
  const w1 = one.probe(one.task.probe).layers[0].offsetWeight[0];
  assert.ok(w1[3] < 0.1, `the single head on i-3: ${w1[3]}`);
  two.dispose();
  one.dispose();
});

test('without 1/sqrt(d_k) the same initial weights give softmax inputs 8 times wider, and saturated rows', () => {
  const on = attn.createModel({ task: 'sort' }), off = attn.createModel({ task: 'sort', scale: false });
  const a = on.probe(on.task.probe).layers[0], b = off.probe(off.task.probe).layers[0];
  assert.ok(Math.abs(b.logitStd[0] / a.logitStd[0] - 8) < 1e-3, `${b.logitStd[0]} / ${a.logitStd[0]}`);
  assert.ok(b.meanMaxWeight[0] > 0.9, `mean largest weight without the scale: ${b.meanMaxWeight[0]}`);
  assert.ok(a.meanMaxWeight[0] < b.meanMaxWeight[0]);
  // the first 20 steps: the gradient reaching the scores through the saturated softmax is smaller
  const ga = on.train(20).gradLogits, gb = off.train(20).gradLogits;
  const mean = (x) => x.reduce((s, v) => s + v, 0) / x.length;
  assert.ok(mean(gb) < mean(ga), `mean ‖∂L/∂Z‖ without ${mean(gb)} vs with ${mean(ga)}`);
  on.dispose();
  off.dispose();
});

test('induction: the task, its parts, and per-part held-out losses through WebAssembly', () => {
  const t = attn.task('induction');
  assert.deepEqual(t.parts, ['first', 'repeated']);
  assert.equal(t.seqLen, 22);
  assert.equal(t.tokenLabels[t.separator], '·');
  const m = attn.createModel({ task: 'induction', layers: 2, heads: 2, lr: 0.003, evalSize: 64 });
  try {
    m.train(5);
    const e = m.evaluate();
    assert.equal(e.parts.length, 2);
    assert.equal(e.parts[0].positions + e.parts[1].positions, e.positions);
    const mean = (e.parts[0].loss * e.parts[0].positions + e.parts[1].loss * e.parts[1].positions) / e.positions;
    assert.ok(Math.abs(mean - e.loss) < 1e-4 * e.loss);
    // every head of both layers scored; the held-out sequences repeat, so the induction
    // score has rows to average (an untrained model: no role above its threshold yet)
    const h = m.heads(16);
    assert.deepEqual(h.heads.map((x) => `${x.layer}.${x.head}`), ['0.0', '0.1', '1.0', '1.1']);
    assert.ok(h.inductionRows > 0 && h.rows > 0);
    for (const x of h.heads) for (const k of ['previousToken', 'firstToken', 'local', 'induction']) assert.ok(x[k] >= 0 && x[k] <= 1, `${k} ${x[k]}`);
    const p = m.probe(t.probe);
    // Q W E R T Y U I O P twice: the second copy's first nine letters are "repeated"
    assert.deepEqual(p.parts, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1]);
  } finally {
    m.dispose();
  }
  assert.deepEqual(attn.task('sort').parts, []);
});
