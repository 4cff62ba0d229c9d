// The trained-heads chapter's measurer (web/src/workers/sentence-heads.js), in Node with a
// stand-in for the core: its messages, and every failure reaching the page as a message
// (the real core's figures through it: tests/wasm/text-model.test.mjs).
import test from 'node:test';
import assert from 'node:assert/strict';
import { createSentenceHeads } from '../../web/src/workers/sentence-heads.js';

// A stand-in core whose model measures the text's length (so each reply can be told apart).
function fakeCore({ loadFails = null, headsFail = null } = {}) {
  const disposed = [];
  return {
    disposed,
    loadModel(bytes) {
      if (loadFails) throw new Error(loadFails);
      const id = bytes[0];
      return {
        heads(text) {
          if (headsFail && text === headsFail) throw new RangeError(`heads: "${text}" is too long`);
          return [{ role: 'local', local: text.length / 100, ablated: { bitsPerChar: id + text.length } }];
        },
        evaluate: (text) => ({ bitsPerChar: text.length, loss: 1 }),
        dispose: () => disposed.push(id),
      };
    },
  };
}
function run(core) {
  const out = [];
  let wake = null;
  const m = createSentenceHeads({ ready: Promise.resolve(core), post: (msg) => (out.push(msg), wake?.()) });
  const next = async (n) => {
    while (out.length < n) await new Promise((r) => (wake = r));
    return out.slice(0, n);
  };
  return { m, out, next };
}

test('sentence-heads: ready after load, then one reply per sentence with the core\'s figures', async () => {
  const { m, next } = run(fakeCore());
  m.receive({ type: 'load', bytes: new Uint8Array([7]) });
  m.receive({ type: 'measure', id: 1, text: 'The cat' });
  m.receive({ type: 'measure', id: 2, text: '고양이' });
  const [ready, a, b] = await next(3);
  assert.deepEqual(ready, { type: 'ready' });
  assert.deepEqual(a, { type: 'measured', id: 1, text: 'The cat', heads: [{ role: 'local', local: 0.07, ablated: { bitsPerChar: 14 } }], base: { bitsPerChar: 7, loss: 1 } });
  assert.equal(b.id, 2);
  assert.equal(b.base.bitsPerChar, 3);
});

test('sentence-heads: a failed sentence says why under its id, and the next one still works', async () => {
  const { m, next } = run(fakeCore({ headsFail: 'bad' }));
  m.receive({ type: 'load', bytes: new Uint8Array([1]) });
  m.receive({ type: 'measure', id: 5, text: 'bad' });
  m.receive({ type: 'measure', id: 6, text: 'good' });
  const [, bad, good] = await next(3);
  assert.deepEqual(bad, { type: 'error', id: 5, message: 'heads: "bad" is too long' });
  assert.equal(good.type, 'measured');
  assert.equal(good.id, 6);
});

test('sentence-heads: a model that does not load is an error without id, and so is every sentence after', async () => {
  const { m, next } = run(fakeCore({ loadFails: 'model file: checksum mismatch' }));
  m.receive({ type: 'measure', id: 1, text: 'too early' });
  m.receive({ type: 'load', bytes: new Uint8Array([1]) });
  m.receive({ type: 'measure', id: 2, text: 'after' });
  const msgs = await next(3);
  assert.deepEqual(msgs[0], { type: 'error', id: 1, message: 'no model loaded' });
  assert.ok(msgs.some((x) => x.id === null && x.message === 'model file: checksum mismatch'));
  assert.ok(msgs.some((x) => x.id === 2 && x.type === 'error' && /checksum/.test(x.message)));
});

test('sentence-heads: a core that does not start is said too; loading again replaces the model', async () => {
  const out = [];
  const broken = createSentenceHeads({ ready: Promise.reject(new Error('wasm: out of memory')), post: (x) => out.push(x) });
  broken.receive({ type: 'load', bytes: new Uint8Array([1]) });
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(out, [{ type: 'error', id: null, message: 'wasm: out of memory' }]);

  const core = fakeCore();
  const { m, next } = run(core);
  m.receive({ type: 'load', bytes: new Uint8Array([1]) });
  m.receive({ type: 'load', bytes: new Uint8Array([2]) });
  m.receive({ type: 'measure', id: 3, text: 'ab' });
  const msgs = await next(3);
  assert.equal(msgs.at(-1).heads[0].ablated.bitsPerChar, 2 + 2); // the second model's
  assert.deepEqual(core.disposed, [1]);
  m.receive({ type: 'other' }); // unknown messages are ignored
});
