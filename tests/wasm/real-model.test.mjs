// The real-model worker's module (wasm/pretrained/: attn-pretrained.wasm through pretrained.mjs)
// and its logic (web/src/workers/real-model.js) in Node, on the tiny checkpoints of
// tests/core/data/pretrained/ read as Blobs (what File.slice gives the worker): every layer's
// attention weights, the value norms, the loss and every head's ablated loss against the
// independent PyTorch reference's results (tools/pretrained/reference.py, expected.safetensors)
// within 1e-5 relative, as the native test does; the roles; each error the page names; a
// failed load leaves the previous model usable; cancelling; a URL folder read through Range
// requests.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import createPretrained, { CheckpointError } from '../../web/dist/pretrained.mjs';
import { createTokenizer, TokenizerError } from '../../web/real-models/tokenizer.js';
import { createRealModel, maskedPositions, ablationPieces, filesSource, FIRST_ROW, THRESHOLDS } from '../../web/src/workers/real-model.js';

const data = new URL('../core/data/pretrained/', import.meta.url);
const manifest = JSON.parse(await readFile(new URL('manifest.json', data), 'utf8'));
const core = createPretrained();

async function folder(name) {
  const dir = new URL(`${name}/`, data);
  const out = {};
  for (const f of await readdir(dir)) if (f !== 'expected.safetensors') out[f] = new Uint8Array(await readFile(new URL(f, dir)));
  return out;
}
const asFiles = (files) => Object.entries(files).map(([name, bytes]) => new File([bytes], name));

// A safetensors file's F32 tensors, {name: {shape, data: Float32Array}}.
function readSafetensors(bytes) {
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  const out = {};
  for (const [k, v] of Object.entries(header)) {
    if (k === '__metadata__') continue;
    const [b, e] = v.data_offsets;
    out[k] = { shape: v.shape, data: new Float32Array(bytes.slice(8 + n + b, 8 + n + e).buffer) };
  }
  return out;
}
function relErr(ours, theirs) {
  let d = 0, m = 0;
  for (let i = 0; i < theirs.length; i++) {
    d = Math.max(d, Math.abs(ours[i] - theirs[i]));
    m = Math.max(m, Math.abs(theirs[i]));
  }
  return d / m;
}

// A driver of the worker's logic: open a source, send messages, wait for the answer.
function driver({ defer } = {}) {
  const got = [];
  let wakers = [];
  const rm = createRealModel({ core, defer, post: (m, transfer) => { got.push({ ...m, transfer }); for (const w of wakers.splice(0)) w(); } });
  let next = 1;
  async function until(id, types) {
    for (;;) {
      const i = got.findIndex((m) => m.id === id && types.includes(m.type));
      if (i >= 0) return got.splice(i, 1)[0];
      await new Promise((r) => wakers.push(r));
    }
  }
  return {
    rm, got,
    async open(source) {
      const id = next++;
      rm.receive({ type: 'open', id, source });
      return until(id, ['loaded', 'error', 'cancelled']);
    },
    async analyse(text) {
      const id = next++;
      rm.receive({ type: 'analyse', id, text });
      const heads = await until(id, ['heads', 'error']);
      if (heads.type === 'error') return { heads };
      return { heads, roles: await until(id, ['roles', 'error']) };
    },
    async ablate() {
      const id = next++;
      rm.receive({ type: 'ablate', id });
      return until(id, ['ablation', 'error']);
    },
    until,
    id: () => next++,
  };
}

for (const c of manifest.cases) {
  test(`${c.name}: every head, value norms, loss and ablation match PyTorch within 1e-5`, async () => {
    const d = driver();
    const files = await folder(c.name);
    const r = await d.open({ kind: 'files', files: asFiles(files) });
    assert.equal(r.type, 'loaded', JSON.stringify(r.error));
    const exp = readSafetensors(new Uint8Array(await readFile(new URL(`${c.name}/expected.safetensors`, data))));
    const m = d.rm.model;
    const { layers: L, heads: H } = m.info;
    const T = c.tokens.length;
    const types = c.token_types.length ? c.token_types : null;
    const f = m.forward(c.tokens, { types });
    assert.equal(f.weights.length, L * H * T * T);
    for (let l = 0; l < L; l++) {
      const ours = f.weights.subarray(l * H * T * T, (l + 1) * H * T * T);
      assert.ok(relErr(ours, exp[`attn.${l}`].data) <= 1e-5, `attn.${l}: ${relErr(ours, exp[`attn.${l}`].data)}`);
      const norms = f.norms.subarray(l * H * T, (l + 1) * H * T);
      assert.ok(relErr(norms, exp[`value_norm.${l}`].data) <= 1e-5, `value_norm.${l}`);
    }
    assert.equal(f.rollout.length, T * T);
    if (exp.loss) {
      let tokens = c.tokens;
      if (c.masked_positions) {
        tokens = tokens.slice();
        for (const p of c.masked_positions) tokens[p] = c.mask_id;
      }
      const base = m.loss(tokens, c.targets, { types });
      assert.ok(Math.abs(base.loss - exp.loss.data[0]) <= 1e-5 * Math.abs(exp.loss.data[0]), `loss ${base.loss} vs ${exp.loss.data[0]}`);
      const ticks = [];
      const a = m.ablate(tokens, c.targets, { types, progress: (done, total) => ticks.push([done, total]) });
      assert.ok(relErr(a.loss, exp.ablation.data) <= 1e-5, `ablation ${relErr(a.loss, exp.ablation.data)}`);
      assert.ok(a.delta instanceof Float64Array && a.delta.length === L * H);
      assert.ok(Math.abs(a.delta[0] - (a.loss[0] - base.loss)) < 1e-9);
      assert.deepEqual(ticks.at(-1), [L * H, L * H]);
    }
    m.free();
  });
}

test('a sentence through the worker: tokens mapped back to the text, every head, roles, ablation', async () => {
  for (const name of ['gpt2-f32', 'bert-f32']) {
    const d = driver();
    assert.equal((await d.open({ kind: 'files', files: asFiles(await folder(name)) })).type, 'loaded');
    const text = 'the cat sat on the mat and the cat sat';
    const { heads, roles } = await d.analyse(text);
    assert.equal(heads.type, 'heads', JSON.stringify(heads.error));
    const info = d.rm.model.info;
    assert.equal(heads.weights.length, info.layers * info.heads * heads.T * heads.T);
    assert.equal(heads.labels.length, heads.T);
    if (name === 'gpt2-f32') assert.equal(heads.ids[0], 320); // <|endoftext|> first
    else assert.deepEqual([heads.tokens[0], heads.tokens.at(-1)], ['[CLS]', '[SEP]']);
    assert.ok(heads.labels.includes('cat') || heads.labels.includes(' cat') || heads.labels.some((l) => l.includes('c')));
    // every row of every head sums to 1
    for (let r = 0; r < heads.weights.length / heads.T; r++) {
      let s = 0;
      for (let j = 0; j < heads.T; j++) s += heads.weights[r * heads.T + j];
      assert.ok(Math.abs(s - 1) < 1e-5);
    }
    assert.equal(roles.type, 'roles', JSON.stringify(roles.error));
    assert.equal(roles.roles.layers.length, info.layers);
    assert.equal(roles.roles.layers[0].length, info.heads);
    const named = roles.roles.layers.flat().filter((h) => h.role).length;
    assert.equal(named + roles.roles.unnamed, info.layers * info.heads);
    const ab = await d.ablate();
    assert.equal(ab.type, 'ablation', JSON.stringify(ab.error));
    assert.equal(ab.ablation.delta.length, info.layers * info.heads);
    assert.ok(Number.isFinite(ab.ablation.base.loss));
    if (name === 'bert-f32') assert.ok(ab.ablation.masked.length >= 1);
  }
});

test('a sentence of FIRST_ROW tokens or fewer: induction and duplicate-token still measured, the sentence\'s scores null, the tokens needed said', async () => {
  for (const name of ['gpt2-f32', 'bert-f16']) {
    const d = driver();
    const loaded = await d.open({ kind: 'files', files: asFiles(await folder(name)) });
    assert.equal(loaded.type, 'loaded');
    assert.deepEqual(loaded.info.roles.thresholds, THRESHOLDS);
    const long = await d.analyse('the cat sat on the mat and the cat sat');
    const th = long.roles.roles.thresholds;
    // the page's constants are the core's
    assert.equal(th.firstRow, FIRST_ROW);
    for (const k of Object.keys(THRESHOLDS)) assert.ok(Math.abs(th[k] - THRESHOLDS[k]) < 1e-12, k);
    assert.equal(long.roles.roles.repeatLength, loaded.info.roles.repeat);
    assert.equal(long.roles.roles.sequences, loaded.info.roles.sequences);
    for (const text of name === 'gpt2-f32' ? ['cat', 'the cat', 'the cat sat'] : ['cat', 'the cat']) { // (BERT: [CLS] … [SEP])
      const { heads, roles } = await d.analyse(text);
      assert.equal(heads.type, 'heads');
      assert.ok(heads.T <= FIRST_ROW, `${name} ${text}: ${heads.T}`);
      assert.equal(roles.type, 'roles', `${name} ${text}: ${JSON.stringify(roles.error)}`);
      const R = roles.roles;
      assert.deepEqual(R.short, { n: heads.T, min: FIRST_ROW + 1 });
      const all = R.layers.flat();
      assert.equal(all.length, loaded.info.layers * loaded.info.heads);
      // the random sequences' scores do not depend on the sentence
      assert.deepEqual(all.map((h) => [h.induction, h.duplicateToken]), long.roles.roles.layers.flat().map((h) => [h.induction, h.duplicateToken]));
      for (const h of all) {
        assert.deepEqual([h.previousToken, h.firstToken, h.local], [null, null, null]);
        assert.ok(['', 'induction', 'duplicate-token'].includes(h.role));
      }
      assert.equal(all.filter((h) => h.role).length + R.unnamed, all.length);
    }
  }
});

test('BERT on a sentence whose words are all [UNK]: the tokens say [UNK], the ablation refuses with the reason, not a loss of 0', async () => {
  const d = driver();
  assert.equal((await d.open({ kind: 'files', files: asFiles(await folder('bert-f16')) })).type, 'loaded');
  const { heads } = await d.analyse('고양이가 매트 위에 앉았다');
  assert.equal(heads.type, 'heads');
  assert.deepEqual(heads.tokens, ['[CLS]', '[UNK]', '[UNK]', '[UNK]', '[UNK]', '[SEP]']);
  assert.deepEqual(heads.unknown, [false, true, true, true, true, false]);
  assert.equal(heads.labels[1], '고양이가');
  const ab = await d.ablate();
  assert.equal(ab.type, 'error');
  assert.equal(ab.error.kind, 'noScoredUnk');
  // a sentence with a word the vocabulary has: scored as before, its tokens not [UNK]
  const ok = await d.analyse('the cat sat');
  assert.ok(!ok.heads.unknown.some(Boolean));
  const ab2 = await d.ablate();
  assert.equal(ab2.type, 'ablation', JSON.stringify(ab2.error));
  assert.ok(ab2.ablation.masked.length >= 1);
});

test('the ablation\'s pieces: every head once, in order, none costing more than about a quarter of the first layer', () => {
  for (const [L, H] of [[12, 12], [2, 4], [6, 12], [24, 16], [1, 1]]) {
    const p = ablationPieces(L, H);
    assert.deepEqual(p.flatMap(([a, b]) => Array.from({ length: b - a }, (_, i) => a + i)), Array.from({ length: L * H }, (_, i) => i));
    for (const [a, b] of p) assert.equal(Math.floor(a / H), Math.floor((b - 1) / H)); // within one layer
    const cost = ([a, b]) => (b - a) * (L - Math.floor(a / H) + 1);
    assert.ok(Math.max(...p.map(cost)) <= Math.max(L - 0 + 1, Math.floor((H * (L + 1)) / 4)), `${L}x${H}`);
  }
  assert.equal(ablationPieces(12, 12).length, 33);
  assert.deepEqual(ablationPieces(12, 12).slice(0, 4), [[0, 3], [3, 6], [6, 9], [9, 12]]);
});

test('the ablation runs a few heads at a time: stopped between two pieces, the model stays usable, the pieces give the whole', async () => {
  const tasks = []; // the worker's deferred pieces, run by hand
  const d = driver({ defer: (f) => tasks.push(f) });
  assert.equal((await d.open({ kind: 'files', files: asFiles(await folder('gpt2-f32')) })).type, 'loaded');
  const text = 'the cat sat on the mat and the cat sat';
  assert.equal((await d.analyse(text)).heads.type, 'heads');
  const { layers, heads } = d.rm.model.info;
  assert.ok(layers >= 2);
  // the whole ablation in one call, for comparison
  const sentenceIds = d.rm.encode(text).ids;
  const whole = d.rm.model.ablate(sentenceIds, sentenceIds.map((_, i) => sentenceIds[i + 1] ?? -1));
  // started: the first piece runs at once, the rest waits for its turn
  const pieces = ablationPieces(layers, heads);
  assert.ok(pieces.length >= 2);
  const first = pieces[0][1];
  const id = d.id();
  d.rm.receive({ type: 'ablate', id });
  assert.deepEqual(d.got.filter((m) => m.id === id).map((m) => [m.type, m.done, m.total]), [['ablating', first, layers * heads]]);
  assert.equal(tasks.length, 1);
  assert.deepEqual(d.rm.ablating, { id, done: first, total: layers * heads, pieces: pieces.length });
  // "Stop": seen before the next piece
  d.rm.receive({ type: 'stopAblation', id });
  tasks.shift()();
  const stopped = await d.until(id, ['ablationStopped', 'ablation', 'error']);
  assert.deepEqual([stopped.type, stopped.done, stopped.total, stopped.why], ['ablationStopped', first, layers * heads, 'asked']);
  assert.equal(d.rm.ablating, null);
  assert.equal(tasks.length, 0);
  // the model is still there: a sentence, then a whole ablation (every piece run)
  assert.equal((await d.analyse(text)).heads.type, 'heads');
  const id2 = d.id();
  d.rm.receive({ type: 'ablate', id: id2 });
  while (tasks.length) tasks.shift()();
  const done = await d.until(id2, ['ablation', 'ablationStopped', 'error']);
  assert.equal(done.type, 'ablation', JSON.stringify(done.error));
  assert.deepEqual([...done.ablation.delta], [...whole.delta]); // the pieces give the whole, bit for bit
  assert.deepEqual(done.ablation.base, whole.base);
  assert.ok(done.transfer?.includes(done.ablation.delta.buffer)); // moved to the page, not copied
  const ticks = d.got.filter((m) => m.id === id2 && m.type === 'ablating').map((m) => m.done);
  assert.deepEqual(ticks, pieces.map(([, end]) => end));
  // a new sentence stops an ablation under way
  const id3 = d.id();
  d.rm.receive({ type: 'ablate', id: id3 });
  await d.analyse('a new sentence');
  tasks.shift()();
  const s3 = await d.until(id3, ['ablationStopped', 'ablation', 'error']);
  assert.deepEqual([s3.type, s3.why], ['ablationStopped', 'sentence']);
  // another model being opened stops an ablation under way as its load begins, not when it
  // ends (by then the pieces would have run on, slowing the load, and a result for the old
  // model would come just before the new one replaced it)
  const id4 = d.id();
  d.rm.receive({ type: 'ablate', id: id4 });
  assert.equal(tasks.length, 1);
  const opening = d.open({ kind: 'files', files: asFiles(await folder('gpt2-f32')) });
  while (tasks.length) tasks.shift()(); // the pieces due while the files are read
  const mine = d.got.filter((m) => m.id === id4).map((m) => [m.type, m.why]);
  assert.deepEqual(mine.at(-1), ['ablationStopped', 'model'], JSON.stringify(mine));
  assert.ok(!d.got.some((m) => m.type === 'loaded'), 'stopped before the new model is loaded');
  assert.equal((await opening).type, 'loaded');
});

test('maskedPositions: about 15% of the content tokens, never a special one', () => {
  const special = new Set([3, 4]);
  const ids = [3, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 4];
  const p = maskedPositions(ids, special);
  assert.ok(p.length >= 1 && p.length <= 2);
  for (const i of p) assert.ok(!special.has(ids[i]));
  assert.deepEqual(maskedPositions([3, 4], special), []);
});

const enc = new TextEncoder();
const edit = (files, name, f) => ({ ...files, [name]: enc.encode(JSON.stringify(f(JSON.parse(new TextDecoder().decode(files[name]))))) });
// the safetensors file with one tensor's dtype renamed (same element size: the layout stays valid)
function retype(bytes, tensor, dtype) {
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  const text = new TextDecoder().decode(bytes.subarray(8, 8 + n));
  const h = JSON.parse(text);
  h[tensor].dtype = dtype;
  const out = enc.encode(JSON.stringify(h).padEnd(n, ' '));
  assert.equal(out.length, n);
  const b = bytes.slice();
  b.set(out, 8);
  return b;
}

test('each error is named, and the previous model stays usable', async () => {
  const d = driver();
  const good = await folder('gpt2-f32');
  assert.equal((await d.open({ kind: 'files', files: asFiles(good) })).type, 'loaded');
  const first = d.rm.model;
  const held = await (await core).models();
  const cases = [
    ['no config.json', (() => { const f = { ...good }; delete f['config.json']; return f; })(), 'missing', 'config.json'],
    ['no weights', (() => { const f = { ...good }; delete f['model.safetensors']; return f; })(), 'missing', 'model.safetensors'],
    ['pytorch_model.bin', (() => { const f = { ...good, 'pytorch_model.bin': new Uint8Array([0x80, 2, 0x8a]) }; delete f['model.safetensors']; return f; })(), 'pickle', 'pytorch_model.bin'],
    ['architecture', edit(good, 'config.json', (c) => ({ ...c, model_type: 'llama' })), 'architecture', 'config.json'],
    ['dtype', { ...good, 'model.safetensors': retype(good['model.safetensors'], 'transformer.h.0.attn.c_attn.weight', 'I32') }, 'dtype', 'model.safetensors'],
    ['truncated', { ...good, 'model.safetensors': good['model.safetensors'].slice(0, good['model.safetensors'].length - 100) }, null, 'model.safetensors'],
    ['config and weights', edit(good, 'config.json', (c) => ({ ...c, n_embd: 16 })), ['config', 'shape'], 'model.safetensors'],
    ['vocab (tokenizer)', edit(good, 'config.json', (c) => ({ ...c, vocab_size: 300 })), 'vocab', 'config.json'],
    ['vocab (weights)', edit(good, 'config.json', (c) => ({ ...c, vocab_size: 400 })), 'vocab', null],
    ['no tokenizer', (() => { const f = { ...good }; delete f['vocab.json']; delete f['merges.txt']; return f; })(), 'tokenizerMissing', null],
  ];
  for (const [what, files, kind, file] of cases) {
    const r = await d.open({ kind: 'files', files: asFiles(files) });
    assert.equal(r.type, 'error', what);
    if (kind) assert.ok([kind].flat().includes(r.error.kind), `${what}: ${JSON.stringify(r.error)}`);
    if (file) assert.equal(r.error.file, file, `${what}: ${JSON.stringify(r.error)}`);
    assert.ok(r.error.message.length > 10);
    if (what === 'truncated') assert.ok(r.error.tensor, `the truncated file's tensor is named: ${JSON.stringify(r.error)}`);
    if (what === 'dtype') assert.equal(r.error.tensor, 'transformer.h.0.attn.c_attn.weight');
    // the numbers cross as parameters (the page words the sentence: errorOf)
    if (what === 'dtype') assert.deepEqual([r.error.what, r.error.got], ['dtype', 'I32']);
    if (what === 'config and weights') assert.ok(r.error.what && r.error.expected != null && r.error.got != null, JSON.stringify(r.error));
    if (what === 'vocab (tokenizer)') assert.deepEqual([r.error.what, r.error.expected], ['vocab_size', '300']);
    if (what === 'vocab (weights)') assert.deepEqual([r.error.what, r.error.expected], ['vocab_size', '400']);
    if (what === 'architecture') assert.deepEqual([r.error.what, r.error.got], ['model_type', 'llama']);
    if (what === 'pytorch_model.bin') assert.match(r.error.message, /safetensors/);
    if (what === 'architecture') assert.match(r.error.message, /gpt2/);
    assert.equal(d.rm.model, first, `${what}: the previous model is kept`);
  }
  const { heads } = await d.analyse('the cat sat');
  assert.equal(heads.type, 'heads');
  // a sentence longer than the model's positions (24)
  const long = await d.analyse('the cat sat on the mat '.repeat(10));
  assert.equal(long.heads.type, 'error');
  assert.equal(long.heads.error.kind, 'tooLong');
  assert.equal(long.heads.error.max, 24);
  assert.ok(long.heads.error.n > 24);
  assert.equal(await (await core).models(), held, 'failed loads leave no model behind');
});

// The module's errors carry their numbers as fields set where the core threw them
// (safetensors.hpp's CheckpointValues through lastError): asserted on the fields, never on the
// English text, which may be reworded.
test('the module\'s CheckpointError carries what, expected, got, line and column as fields', async () => {
  const c = await core;
  const good = await folder('gpt2-f32');
  const text = (b) => new TextDecoder().decode(b);
  const failure = (f) => {
    try {
      f();
    } catch (e) {
      c.abort();
      return e;
    }
    c.abort();
    assert.fail('no error');
  };
  // up to the plan, where config.json meets the weights
  const planError = (files) => failure(() => {
    c.begin(text(files['config.json']));
    const w = files['model.safetensors'];
    const n = c.headerLength(w.subarray(0, 16), w.length, 'model.safetensors');
    c.addFile('model.safetensors', w.length, w.subarray(8, 8 + n));
    c.plan();
  });
  const fields = (e) => ({ kind: e.kind, what: e.what, expected: e.expected, got: e.got, line: e.line, column: e.column });
  const none = { line: undefined, column: undefined };
  let e = failure(() => c.begin('{\n  "model_type": "gpt2",,\n}'));
  assert.ok(e instanceof CheckpointError);
  assert.deepEqual(fields(e), { kind: 'config', what: 'json', expected: undefined, got: undefined, line: 2, column: 24 });
  e = failure(() => c.begin('{"model_type": "llama"}'));
  assert.deepEqual(fields(e), { kind: 'architecture', what: 'model_type', expected: undefined, got: 'llama', ...none });
  e = planError(edit(good, 'config.json', (j) => ({ ...j, vocab_size: 400 })));
  assert.deepEqual(fields(e), { kind: 'vocab', what: 'vocab_size', expected: '400', got: '321', ...none });
  e = planError(edit(good, 'config.json', (j) => ({ ...j, n_layer: 3 })));
  assert.deepEqual(fields(e), { kind: 'config', what: 'layers', expected: '3', got: '2', ...none });
  e = planError(edit(good, 'config.json', (j) => ({ ...j, n_positions: 32 })));
  assert.deepEqual(fields(e), { kind: 'shape', what: 'shape', expected: '[32, 32]', got: '[24, 32]', ...none });
  e = planError({ ...good, 'model.safetensors': retype(good['model.safetensors'], 'transformer.h.0.attn.c_attn.weight', 'I32') });
  assert.deepEqual(fields(e), { kind: 'dtype', what: 'dtype', expected: undefined, got: 'I32', ...none });
  // an error without numbers has none
  e = failure(() => c.checkWeightsName('pytorch_model.bin'));
  assert.deepEqual(fields(e), { kind: 'pickle', what: undefined, expected: undefined, got: undefined, ...none });
  // a chunk of the wrong length (the wrapper's own error sets its fields too)
  e = failure(() => {
    c.begin(text(good['config.json']));
    const w = good['model.safetensors'];
    const n = c.headerLength(w.subarray(0, 16), w.length, 'model.safetensors');
    c.addFile('model.safetensors', w.length, w.subarray(8, 8 + n));
    c.plan();
    const k = c.chunk(0);
    c.put(0, new Uint8Array(k.bytes - 4));
  });
  assert.equal(e.kind, 'truncated');
  assert.equal(e.what, 'bytes');
  assert.equal(Number(e.expected) - Number(e.got), 4);
});

test('the worker\'s own errors set their numbers where they throw: a read past a file\'s end, the tokenizer\'s vocabulary', async () => {
  const src = filesSource([new File([new Uint8Array(10)], 'model.safetensors')]);
  const e = await src.read('model.safetensors', 4, 8).then(() => null, (x) => x);
  assert.deepEqual([e.kind, e.what, e.expected, e.got], ['truncated', 'bytes', '12', '10']);
  const good = await folder('gpt2-f32');
  const t = Object.fromEntries(Object.entries(good).filter(([k]) => k !== 'model.safetensors').map(([k, v]) => [k, new TextDecoder().decode(v)]));
  const te = (() => {
    try {
      createTokenizer(t, { ...JSON.parse(t['config.json']), vocab_size: 300 });
    } catch (x) {
      return x;
    }
  })();
  assert.ok(te instanceof TokenizerError);
  assert.deepEqual([te.kind, te.what, te.expected], ['vocab', 'vocab_size', '300']);
  assert.ok(Number(te.got) > 300);
});

test('a load is cancelled between chunks; a URL folder loads through Range requests', async () => {
  const good = await folder('gpt2-f32');
  // cancel: the read of the weights' first chunk answers after the cancel
  const d = driver();
  let release;
  const gate = new Promise((r) => (release = r));
  const slow = asFiles(good).map((f) => (f.name !== 'model.safetensors' ? f : ({
    name: f.name, size: f.size, text: () => f.text(),
    slice: (a, b) => ({ arrayBuffer: async () => { if (a > 0 && b - a > 1000) await gate; return f.slice(a, b).arrayBuffer(); } }),
  })));
  const p = d.open({ kind: 'files', files: slow });
  await new Promise((r) => setTimeout(r, 50));
  d.rm.receive({ type: 'cancel' });
  release();
  assert.equal((await p).type, 'cancelled');
  // a second open while one is under way: the first stops, the second loads
  const bert = asFiles(await folder('bert-f16'));
  const first = d.open({ kind: 'files', files: asFiles(good) });
  const second = d.open({ kind: 'files', files: bert });
  assert.equal((await first).type, 'cancelled');
  const r2 = await second;
  assert.equal(r2.type, 'loaded', JSON.stringify(r2.error));
  assert.equal(r2.info.modelType, 'bert');
  // a URL: a fetch that serves the folder with Range
  const ranges = [];
  const fetchFn = async (url, opts = {}) => {
    const name = url.split('/').pop();
    const b = url.startsWith('https://example.test/models/tiny/') ? good[name] : undefined;
    if (!b) return new Response('not found', { status: 404 });
    const m = /bytes=(\d+)-(\d+)/.exec(opts.headers?.Range ?? '');
    if (!m) return new Response(b, { status: 200 });
    ranges.push(name);
    const [a, e] = [Number(m[1]), Math.min(Number(m[2]), b.length - 1)];
    return new Response(b.slice(a, e + 1), { status: 206, headers: { 'content-range': `bytes ${a}-${e}/${b.length}` } });
  };
  const saved = globalThis.fetch;
  globalThis.fetch = fetchFn;
  try {
    const r = await d.open({ kind: 'url', base: 'https://example.test/models/tiny/' });
    assert.equal(r.type, 'loaded', JSON.stringify(r.error));
    assert.ok(ranges.filter((n) => n === 'model.safetensors').length >= 3); // first bytes, header, chunks
    assert.equal(r.info.layers, 2);
    // a link's folder that does not exist: every name answers 404; the error names the first
    // file read, config.json, and the folder (not model.safetensors)
    const none = await d.open({ kind: 'url', base: 'https://example.test/models/nowhere/' });
    assert.equal(none.type, 'error');
    assert.deepEqual([none.error.kind, none.error.file, none.error.folder], ['missing', 'config.json', 'https://example.test/models/nowhere/']);
    // picked files without config.json: config.json named, no folder
    const noConfig = await d.open({ kind: 'files', files: asFiles(Object.fromEntries(Object.entries(good).filter(([n]) => n !== 'config.json'))) });
    assert.deepEqual([noConfig.error.kind, noConfig.error.file, noConfig.error.folder], ['missing', 'config.json', undefined]);
  } finally {
    globalThis.fetch = saved;
  }
});

test('filesSource.readInto: a slice streamed piece by piece through one reused buffer, as read() gives it', async () => {
  const bytes = new Uint8Array((5 << 20) / 2 + 7).map((_, i) => (i * 2654435761) >>> 24);
  const src = filesSource([new File([bytes], 'model.safetensors')]);
  for (const [offset, n] of [[0, bytes.length], [3, (1 << 20) + 1], [bytes.length - 5, 5], [10, 0]]) {
    const got = new Uint8Array(n);
    const pieces = [];
    const read = await src.readInto('model.safetensors', offset, n, (piece, at) => {
      got.set(piece, at);
      pieces.push(piece.buffer.byteLength); // (the buffer is handed to the next read: detached after it)
    });
    assert.equal(read, n);
    assert.deepEqual(got, bytes.subarray(offset, offset + n));
    assert.deepEqual(got, await src.read('model.safetensors', offset, n));
    assert.ok(pieces.every((b) => b === 1 << 20), `every piece in the one 1 MiB buffer: ${pieces}`);
  }
  await assert.rejects(src.readInto('model.safetensors', bytes.length - 2, 3, () => {}), /pass the end of the file/);
});

// A picked file whose Blob stream stops answering after `after` bytes (as Chromium's now and
// then does), while Blob.arrayBuffer() of a slice still works unless `dead`.
function stallingFile(bytes, name, { after, dead = false }) {
  const sliceOf = (a, b) => ({
    size: b - a,
    stream() {
      let sent = 0;
      return new ReadableStream({
        type: 'bytes',
        async pull(c) {
          if (sent >= after) return new Promise(() => {}); // never answers
          const len = Math.min(65536, after - sent, b - a - sent);
          if (len <= 0) return c.close();
          const req = c.byobRequest;
          req.view.set(bytes.subarray(a + sent, a + sent + len));
          sent += len;
          req.respond(len);
          if (sent >= b - a) c.close();
        },
      });
    },
    arrayBuffer: () => (dead ? new Promise(() => {}) : Promise.resolve(bytes.slice(a, b).buffer)),
  });
  return { name, size: bytes.length, slice: sliceOf };
}

test('filesSource.readInto: a stream that stops answering is given up; the rest comes by arrayBuffer, or a stalled error', async () => {
  const bytes = new Uint8Array(3 << 20).map((_, i) => (i * 2654435761) >>> 24);
  const src = filesSource([stallingFile(bytes, 'model.safetensors', { after: 200000 })], { stallMs: 50 });
  const got = new Uint8Array(bytes.length - 11);
  const read = await src.readInto('model.safetensors', 11, got.length, (piece, at) => got.set(piece, at));
  assert.equal(read, got.length);
  assert.deepEqual(got, bytes.subarray(11));
  // and neither way answers: an error that names the file, in bounded time
  const dead = filesSource([stallingFile(bytes, 'model.safetensors', { after: 70000, dead: true })], { stallMs: 50 });
  await assert.rejects(dead.readInto('model.safetensors', 0, bytes.length, () => {}), (e) => e.kind === 'stalled' && e.file === 'model.safetensors');
});

test('Stop is seen between two pieces of a chunk, not only after the whole chunk', async () => {
  const good = await folder('gpt2-f32');
  const d = driver();
  let release, streamed = 0, gated = false;
  const gate = new Promise((r) => (release = r));
  const bytes = good['model.safetensors'];
  // model.safetensors streamed 1 KiB a piece; the first chunk's stream waits after its first piece
  const files = asFiles(good).map((f) => (f.name !== 'model.safetensors' ? f : ({
    name: f.name, size: f.size, text: () => f.text(),
    slice: (a, b) => ({
      arrayBuffer: async () => bytes.slice(a, b).buffer,
      stream: () => {
        let at = a;
        return new ReadableStream({
          type: 'bytes',
          async pull(c) {
            if (at > a && !gated) {
              gated = true;
              await gate;
            }
            const len = Math.min(1024, b - at, c.byobRequest.view.byteLength);
            c.byobRequest.view.set(bytes.subarray(at, at + len));
            at += len;
            streamed += len;
            c.byobRequest.respond(len);
            if (at >= b) c.close();
          },
        });
      },
    }),
  })));
  const p = d.open({ kind: 'files', files });
  while (!gated) await new Promise((r) => setTimeout(r, 5));
  d.rm.receive({ type: 'cancel' });
  release();
  assert.equal((await p).type, 'cancelled');
  assert.ok(streamed <= 3 * 1024, `${streamed} bytes streamed: the chunk stopped at the piece after Stop`);
});
