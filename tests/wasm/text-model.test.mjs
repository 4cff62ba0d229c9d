// loadModel(bytes) of the built module in Node: the committed text model
// (models/text-model/model.bin) loads through the loader the page uses, reproduces the
// loss recorded in results.json on the committed evaluation slice, maps tokens back onto
// the characters typed, and refuses damaged files with a clear error.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import createAttention from '../../web/dist/attn.mjs';

const attn = await createAttention();
const dir = new URL('../../models/text-model/', import.meta.url);
const bytes = new Uint8Array(await readFile(new URL('model.bin', dir)));
const results = JSON.parse(await readFile(new URL('results.json', dir), 'utf8'));
const evalText = await readFile(new URL('eval.txt', dir), 'utf8');

test('loadModel returns a handle like createModel\'s; its configuration is the file\'s', () => {
  const m = attn.loadModel(bytes);
  try {
    assert.equal(Object.getPrototypeOf(m), Object.prototype);
    assert.ok(Object.isFrozen(m));
    assert.equal(m.config.kind, 'text');
    assert.equal(m.config.layers, results.model.layers);
    assert.equal(m.config.heads, results.model.heads);
    assert.equal(m.config.maxLen, results.model.maxLen);
    assert.equal(m.config.vocab, results.model.vocab);
    assert.equal(m.parameters, results.model.parameters);
    assert.equal(m.symbols.length, m.config.vocab);
    assert.equal(m.symbols[1], '<s>');
    for (const k of ['probe', 'evaluate', 'heads', 'dispose']) assert.equal(typeof m[k], 'function');
  } finally {
    m.dispose();
  }
  // an ArrayBuffer works too
  attn.loadModel(bytes.slice().buffer).dispose();
});

test('the committed weights reproduce the recorded held-out loss within 1%', () => {
  const m = attn.loadModel(bytes);
  const e = m.evaluate(evalText);
  m.dispose();
  assert.equal(e.chars, results.evalSlice.chars);
  assert.ok(Math.abs(e.loss / results.evalSlice.natsPerToken - 1) < 0.01, `${e.loss} vs ${results.evalSlice.natsPerToken}`);
  assert.ok(Math.abs(e.bitsPerChar / results.evalSlice.bitsPerChar - 1) < 0.01);
});

test('probe maps every token onto the character typed; weights are causal distributions', () => {
  const m = attn.loadModel(bytes);
  const p = m.probe('고양이가 mat에 앉았다');
  m.dispose();
  const T = p.tokens.length;
  assert.equal(p.tokens[0], 1);  // <s>
  assert.equal(p.charIndex[0], -1);
  assert.deepEqual(p.chars.slice(0, 4), ['고', '양', '이', '가']);
  // 고: ᄀ ᅩ (2 jamo), 양: ᄋ ᅣ ᆼ (3)
  assert.deepEqual(p.charIndex.slice(1, 6), [0, 0, 1, 1, 1]);
  assert.equal(T, 1 + 2 + 3 + 2 + 2 + 1 + 3 + 2 + 1 + 3 + 3 + 2);  // <s>, then each character's tokens
  assert.equal(p.truncated, 0);
  assert.equal(p.layers.length, results.model.layers);
  for (const layer of p.layers) {
    assert.equal(layer.heads.length, results.model.heads);
    for (const [h, P] of layer.heads.entries()) {
      assert.equal(P.rows, T);
      for (let i = 0; i < T; i++) {
        let sum = 0;
        for (let j = 0; j < T; j++) {
          if (j > i) assert.equal(P.data[i * T + j], 0);
          sum += P.data[i * T + j];
        }
        assert.ok(Math.abs(sum - 1) < 1e-4);
      }
      assert.equal(layer.valueNorm[h].length, T);
      assert.ok(layer.valueNorm[h].every((v) => v >= 0 && Number.isFinite(v)));
    }
  }
  assert.equal(p.rollout.rows, T);
  assert.equal(p.predictions.length, T);
});

test('heads(text): role scores and the loss with each head zeroed', () => {
  const m = attn.loadModel(bytes);
  const text = evalText.slice(0, 600);
  const whole = m.evaluate(text);
  const rows = m.heads(text);
  m.dispose();
  assert.equal(rows.length, results.model.layers * results.model.heads);
  for (const r of rows) {
    for (const k of ['previousToken', 'firstToken', 'local', 'induction']) assert.ok(r[k] >= 0 && r[k] <= 1 + 1e-6, k);
    assert.equal(typeof r.role, 'string');
    assert.equal(r.ablated.tokens, whole.tokens);
  }
  // zeroing some head costs something
  assert.ok(rows.some((r) => r.ablated.nats > whole.nats));
});

test('a changed byte, a truncated file, a wrong type or size are refused; the module keeps working', () => {
  const bad = bytes.slice();
  bad[bad.length >> 1] ^= 1;
  assert.throws(() => attn.loadModel(bad), (e) => e instanceof RangeError && /checksum mismatch/.test(e.message));
  assert.throws(() => attn.loadModel(bytes.slice(0, bytes.length - 7)), (e) => e instanceof RangeError && /truncated/.test(e.message));
  assert.throws(() => attn.loadModel(new Uint8Array(12)), (e) => e instanceof RangeError && /too short/.test(e.message));
  const foreign = bytes.slice();
  foreign[0] = 0x50;
  assert.throws(() => attn.loadModel(foreign), /not a text model file/);
  assert.throws(() => attn.loadModel([1, 2, 3]), TypeError);
  assert.throws(() => attn.loadModel('model.bin'), TypeError);
  const m = attn.loadModel(bytes);
  assert.throws(() => m.probe(''), RangeError);
  assert.throws(() => m.probe(42), TypeError);
  assert.ok(m.probe('hello').tokens.length === 6);
  // U+FEFF is a character like any other, first or inside (not a byte-order mark to drop)
  assert.deepEqual(m.probe('\uFEFFab').chars, ['\uFEFF', 'a', 'b']);
  assert.deepEqual(m.probe('a\uFEFFb').chars, ['a', '\uFEFF', 'b']);
  m.dispose();
  m.dispose();  // twice is fine
  assert.throws(() => m.probe('hello'), /disposed/);
});

test('loading and disposing does not grow the heap', () => {
  for (let k = 0; k < 3; k++) attn.loadModel(bytes).dispose();
  const before = attn.memoryStats().mallocBytes;
  for (let k = 0; k < 20; k++) attn.loadModel(bytes).dispose();
  assert.ok(attn.memoryStats().mallocBytes <= before + 4096, `${attn.memoryStats().mallocBytes} vs ${before}`);
});

test('groupByCharacter, normWeights, weightNormDistance: the page\'s views of a probe, by character', () => {
  const m = attn.loadModel(bytes);
  try {
    const p = m.probe('고양이 cat');
    const P = p.layers[0].heads[0];
    const group = p.charIndex.map((c) => c + 1); // <s> is character 0
    const C = p.chars.length + 1;
    const G = attn.groupByCharacter(P, group);
    assert.deepEqual([G.rows, G.cols], [C, C]);
    // row c is the row of c's last token, its columns summed per character: rows still sum to 1
    for (let i = 0; i < C; i++) {
      const row = G.data.subarray(i * C, (i + 1) * C);
      assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5);
    }
    const last = group.lastIndexOf(1); // 고 = ㄱ ㅗ: row 1 is the row of ㅗ
    const T = P.cols;
    assert.ok(Math.abs(G.data[1 * C + 1] - (P.data[last * T + 1] + P.data[last * T + 2])) < 1e-6);
    // attention × value norm: columns scaled by ‖v_j W_O‖, and its distance from P
    const N = attn.normWeights(P, p.layers[0].valueNorm[0]);
    assert.ok(Math.abs(N.data[T + 1] - P.data[T + 1] * p.layers[0].valueNorm[0][1]) < 1e-5);
    const d = attn.weightNormDistance(P, N);
    assert.ok(d > 0 && d < 1, `distance ${d}`);
    assert.ok(attn.weightNormDistance(P, P) < 1e-6); // rows renormalised in float
    // errors: ids that skip, a wrong count, a NaN norm
    assert.throws(() => attn.groupByCharacter(P, group.map((g) => 2 * g)), { name: 'RangeError', message: /go up by at most 1/ });
    assert.throws(() => attn.groupByCharacter(P, group.slice(1)), RangeError);
    assert.throws(() => attn.normWeights(P, [NaN]), { name: 'RangeError', message: /valueNorm\[0\] must be finite/ });
  } finally {
    m.dispose();
  }
});

test('the trained-heads chapter\'s measurer (its Web Worker\'s code) gives the figures heads(text) and evaluate(text) give', async () => {
  const { createSentenceHeads } = await import('../../web/src/workers/sentence-heads.js');
  const out = [];
  let wake = null;
  const measurer = createSentenceHeads({ ready: Promise.resolve(attn), post: (msg) => (out.push(msg), wake?.()) });
  measurer.receive({ type: 'load', bytes });
  const sentences = ['The cat sat on the mat.', '고양이가 매트에 앉았다.'];
  sentences.forEach((text, id) => measurer.receive({ type: 'measure', id, text }));
  while (out.length < 3) await new Promise((r) => (wake = r));
  assert.deepEqual(out[0], { type: 'ready' });
  const m = attn.loadModel(bytes);
  try {
    sentences.forEach((text, id) => {
      const r = out.find((x) => x.id === id);
      assert.equal(r.type, 'measured');
      assert.deepEqual(r.heads, m.heads(text));
      assert.deepEqual(r.base, m.evaluate(text));
    });
  } finally {
    m.dispose();
  }
  measurer.receive({ type: 'load', bytes: bytes.slice(0, 100) }); // a damaged file: said, not thrown
  while (out.length < 4) await new Promise((r) => (wake = r));
  assert.equal(out[3].id, null);
  assert.match(out[3].message, /model file/);
});

test('probe {off}: a zeroed head leaves its own layer alone and changes what later layers read', () => {
  const m = attn.loadModel(bytes);
  try {
    const H = m.config.heads, n = m.config.layers * H;
    const text = 'The cat sat on the mat. 고양이가 앉았다.';
    const base = m.probe(text);
    const same = (a, b) => a.data.every((x, k) => x === b.data[k]);
    // the default is no head off: {off: -1}, {} and null give the same weights
    for (const o of [{ off: -1 }, {}, null]) assert.ok(same(m.probe(text, o).layers[1].heads[0], base.layers[1].heads[0]));
    for (const off of [0, H - 1]) {  // heads of layer 1
      const p = m.probe(text, { off });
      p.layers[0].heads.forEach((P, h) => assert.ok(same(P, base.layers[0].heads[h]), `layer 1 head ${h + 1} unchanged with ${off} off`));
      const moved = p.layers[1].heads.map((P, h) => Math.max(...P.data.map((x, k) => Math.abs(x - base.layers[1].heads[h].data[k]))));
      assert.ok(moved.every((d) => d > 1e-4), `every layer-2 head moves with layer 1 head ${off + 1} off: ${moved}`);
      assert.ok(!same(p.rollout, base.rollout));
    }
    // a head of the last layer: nothing after it, every map as before
    const last = m.probe(text, { off: n - 1 });
    last.layers.forEach((L, l) => L.heads.forEach((P, h) => assert.ok(same(P, base.layers[l].heads[h]))));
    for (const off of [n, -2, 1.5, NaN, Infinity])
      assert.throws(() => m.probe(text, { off }), (e) => e instanceof RangeError && /off must be -1 \(no head off\) or a head from 0 to 7/.test(e.message), String(off));
    assert.throws(() => m.probe(text, { off: '2' }), TypeError);
    assert.throws(() => m.probe(text, 3), TypeError);
    assert.ok(same(m.probe(text).layers[1].heads[0], base.layers[1].heads[0]), 'the module keeps working');
  } finally {
    m.dispose();
  }
});
