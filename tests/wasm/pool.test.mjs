// The attention pool (web/src/workers/pool.js) in Node: the heads split into blocks over
// its workers, each block run by the workers' own handler (web/src/workers/heads-task.js)
// on a core instance of its own, behind a stand-in for a Web Worker whose messages are
// structured clones with transfer (as postMessage does, buffers detached on the sending
// side). The browser's real workers are tested with the cost chapter (cost.test.mjs).
import test from 'node:test';
import assert from 'node:assert/strict';
import createAttention from '../../web/dist/attn.mjs';
import { createPool, defaultPoolSize, splitBlocks } from '../../web/src/workers/pool.js';
import { serveHeads } from '../../web/src/workers/heads-task.js';

const attn = await createAttention({ training: false });

// A stand-in Worker: its own core; `crash(msg)` returning true makes it fail as a crashed
// worker does (an error event, no reply).
function workers({ crash = () => false, load = () => createAttention({ training: false }) } = {}) {
  const made = [];
  const create = () => {
    const w = { received: [], replied: [], dead: false };
    const later = (f) => setTimeout(() => !w.dead && f(), 0);
    const deliver = (m, transfer) => {
      w.replied.push({ type: m.type, bytes: (transfer ?? []).reduce((a, b) => a + b.byteLength, 0) }); // before the clone detaches them
      const data = structuredClone(m, { transfer });
      later(() => w.onmessage?.({ data }));
    };
    const ready = load();
    ready.then((a) => deliver({ type: 'ready', simd: a.simd }), (e) => deliver({ type: 'error', message: e.message }));
    const handle = serveHeads(ready, deliver);
    w.postMessage = (msg, transfer) => {
      const data = structuredClone(msg, { transfer });
      w.received.push({ ...data, heads: data.heads?.map((p) => ({ ...p, qBytes: p.q?.byteLength })) }); // before the reply detaches them
      later(() => (crash(data) ? w.onerror?.({ message: 'boom', preventDefault() {} }) : handle({ data })));
    };
    w.terminate = () => { w.dead = true; };
    made.push(w);
    return w;
  };
  return { create, made };
}

const heads = (h, n, d, seed) => ['Q', 'K', 'V'].map((_, j) =>
  Array.from({ length: h }, (__, i) => attn.random({ rows: n, cols: d, seed: seed + 3 * i + j })));
const copy = (list) => list.map((m) => ({ rows: m.rows, cols: m.cols, data: m.data.slice() }));
const bits = (m) => Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength);

test('splitBlocks: contiguous, balanced blocks covering every head, none empty', () => {
  assert.deepEqual(splitBlocks(8, 2), [[0, 4], [4, 8]]);
  assert.deepEqual(splitBlocks(8, 1), [[0, 8]]);
  assert.deepEqual(splitBlocks(1, 4), [[0, 1]]);
  for (let count = 1; count <= 17; count++)
    for (let parts = 1; parts <= 6; parts++) {
      const b = splitBlocks(count, parts);
      assert.equal(b.length, Math.min(count, parts));
      assert.equal(b[0][0], 0);
      assert.equal(b.at(-1)[1], count);
      b.forEach(([a, e], i) => i && assert.equal(a, b[i - 1][1]));
      const sizes = b.map(([a, e]) => e - a);
      assert.ok(Math.min(...sizes) >= 1 && Math.max(...sizes) - Math.min(...sizes) <= 1, `${count} over ${parts}: ${sizes}`);
    }
});

test('defaultPoolSize follows navigator.hardwareConcurrency, at least 1, at most 16', (t) => {
  const saved = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  t.after(() => (saved ? Object.defineProperty(globalThis, 'navigator', saved) : delete globalThis.navigator));
  for (const [cores, want] of [[2, 2], [1, 1], [64, 16], [undefined, 1], [0, 1]]) {
    Object.defineProperty(globalThis, 'navigator', { value: { hardwareConcurrency: cores }, configurable: true });
    assert.equal(defaultPoolSize(), want, `${cores} cores`);
  }
  assert.throws(() => createPool({ size: 0, createWorker: workers().create }), /size must be a whole number from 1 to 256, got 0/);
});

test('2 and 3 workers give the same bits as 1, for both kernels, causal or not; inputs are transferred and come back', async () => {
  const [Q, K, V] = heads(5, 70, 16, 11);
  const want = (kernel, causal) => Q.map((q, i) => (kernel === 'tiled' ? attn.flashAttention : attn.attentionOutput)(q, K[i], V[i], { causal }));
  for (const size of [1, 2, 3]) {
    const w = workers();
    const pool = createPool({ size, createWorker: w.create });
    assert.equal((await pool.ready()).length, size);
    for (const kernel of ['plain', 'tiled'])
      for (const causal of [false, true]) {
        const [q, k, v] = [copy(Q), copy(K), copy(V)];
        const r = await pool.attention({ Q: q, K: k, V: v, kernel, causal });
        // transferred: the caller's buffers are detached; the same values come back
        assert.equal(q[0].data.byteLength, 0);
        assert.equal(v[4].data.byteLength, 0);
        r.Q.forEach((m, i) => assert.ok(bits(m).equals(bits(Q[i]))));
        r.V.forEach((m, i) => assert.ok(bits(m).equals(bits(V[i]))));
        assert.equal(r.workers, size);
        assert.equal(r.heads.length, 5);
        want(kernel, causal).forEach((o, i) => {
          assert.deepEqual([r.heads[i].output.rows, r.heads[i].output.cols], [70, 16]);
          assert.ok(bits(r.heads[i].output).equals(bits(o)), `${kernel}, causal ${causal}, ${size} workers: head ${i} differs`);
          assert.ok(r.heads[i].ms >= 0 && r.heads[i].workBytes > 0);
        });
      }
    // Without the causal mask (the first call) and 5 heads over 2 or 3 workers, every worker
    // got a contiguous block of every head's query rows; with it, a contiguous block of whole heads.
    // (The first worker gets the caller's buffers and reads its rows from row `a` on; the
    // others get a copy of their rows of Q only, from row 0.)
    const parts = (call) => w.made.map((x) => x.received[call].heads.map((p) => [p.head, p.row, p.count, p.qBytes / (16 * 4)]));
    assert.deepEqual(parts(0), size === 1 ? [[0, 1, 2, 3, 4].map((i) => [i, 0, 70, 70])]
      : splitBlocks(70, size).map(([a, b], k) => [0, 1, 2, 3, 4].map((i) => (k === 0 ? [i, a, b - a, 70] : [i, 0, b - a, b - a]))));
    assert.deepEqual(parts(1), splitBlocks(5, size).map(([a, b]) => Array.from({ length: b - a }, (_, j) => [a + j, 0, 70, 70])));
    pool.terminate();
  }
});

test('one head (or heads that do not divide evenly) over 2 workers: its query rows are split, same bits; causal keeps whole heads', async () => {
  const [Q, K, V] = heads(1, 301, 64, 21);
  const pool = createPool({ size: 2, createWorker: workers().create });
  for (const kernel of ['plain', 'tiled'])
    for (const causal of [false, true]) {
      const r = await pool.attention({ Q: copy(Q), K: copy(K), V: copy(V), kernel, causal });
      const want = (kernel === 'tiled' ? attn.flashAttention : attn.attentionOutput)(Q[0], K[0], V[0], { causal });
      assert.ok(bits(r.heads[0].output).equals(bits(want)), `${kernel}, causal ${causal}`);
      assert.deepEqual([r.workers, r.split], causal ? [1, 'heads'] : [2, 'rows']);
      assert.ok(bits(r.Q[0]).equals(bits(Q[0])) && bits(r.K[0]).equals(bits(K[0])) && bits(r.V[0]).equals(bits(V[0])), 'the inputs come back');
      // the head's memory: one worker's, or both parts' (the plain kernel's 301 x 301 scores
      // split in two; K, V and the tiles in each worker: at most twice one worker's)
      const one = attn.profileAttention(Q[0], K[0], V[0], { kernel, causal }).workBytes;
      if (causal) assert.equal(r.heads[0].workBytes, one);
      else assert.ok(r.heads[0].workBytes >= one && r.heads[0].workBytes <= 2 * one, `${kernel}: ${r.heads[0].workBytes} vs ${one}`);
    }
  pool.terminate();
});

test('timing: per worker, when its work began and ended, its time in the core and when its reply was back', async () => {
  const pool = createPool({ size: 2, createWorker: workers().create });
  const [Q, K, V] = heads(4, 200, 32, 7);
  const r = await pool.attention({ Q, K, V, kernel: 'plain' });
  assert.equal(r.timing.length, 2);
  const eps = 0.01; // rounding of the clocks
  for (const t of r.timing) {
    assert.ok(t.start >= -eps && t.start <= t.end + eps && t.end <= t.back + eps && t.back <= r.ms + eps, JSON.stringify(t));
    assert.ok(t.core > 0 && t.core <= t.end - t.start + eps, JSON.stringify(t));
  }
  assert.equal(r.timing[0].core, r.heads[0].ms + r.heads[1].ms);
  pool.terminate();
});

test('a worker refuses a part that is not in its buffers, and rows of a causal head', async () => {
  const { runHeads } = await import('../../web/src/workers/heads-task.js');
  const [q, k, v] = heads(1, 10, 4, 3).map((l) => l[0].data.slice().buffer);
  assert.throws(() => runHeads(attn, { heads: [{ q, k, v, head: 2, row: 8, count: 3 }], rows: 10, cols: 4, kernel: 'tiled' }),
    { name: 'RangeError', message: /head 2: rows 8 to 11 of q are not in its 160 bytes/ });
  assert.throws(() => runHeads(attn, { heads: [{ q, k, v, head: 0, row: 5, count: 5 }], rows: 10, cols: 4, kernel: 'tiled', causal: true }),
    { name: 'RangeError', message: /a causal mask needs whole heads, not rows 5 to 10/ });
  const { reply } = runHeads(attn, { heads: [{ q, k, v, head: 0, row: 5, count: 5 }], rows: 10, cols: 4, kernel: 'tiled' });
  const whole = attn.flashAttention(...[q, k, v].map((b) => ({ rows: 10, cols: 4, data: new Float32Array(b) })));
  assert.deepEqual(new Float32Array(reply.heads[0].output), whole.data.subarray(20));
});

test('the memory each head reports is what profileAttention measures for that kernel', async () => {
  const pool = createPool({ size: 2, createWorker: workers().create });
  const [Q, K, V] = heads(2, 300, 64, 5);
  for (const kernel of ['plain', 'tiled']) {
    const r = await pool.attention({ Q: copy(Q), K: copy(K), V: copy(V), kernel });
    const p = attn.profileAttention(Q[1], K[1], V[1], { kernel });
    assert.equal(r.heads[1].workBytes, p.workBytes, kernel);
  }
  pool.terminate();
});

test('a NaN in one head follows the core\'s rule (its row only), as with one worker', async () => {
  const [Q, K, V] = heads(4, 8, 4, 3);
  Q[3].data[2 * 4 + 1] = NaN;
  const outs = [];
  for (const size of [1, 2]) {
    const pool = createPool({ size, createWorker: workers().create });
    const r = await pool.attention({ Q: copy(Q), K: copy(K), V: copy(V) });
    outs.push(r.heads.map((x) => x.output));
    const o = r.heads[3].output.data;
    for (let i = 0; i < 8; i++) for (let j = 0; j < 4; j++) assert.equal(Number.isNaN(o[i * 4 + j]), i === 2, `row ${i}`);
    assert.ok(r.heads.slice(0, 3).every((x) => x.output.data.every(Number.isFinite)));
    pool.terminate();
  }
  outs[0].forEach((o, i) => assert.ok(bits(o).equals(bits(outs[1][i]))));
});

test('bad calls reject with a clear error and the pool keeps working', async () => {
  const pool = createPool({ size: 2, createWorker: workers().create });
  const [Q, K, V] = heads(3, 6, 4, 1);
  await assert.rejects(pool.attention({ Q: copy(Q), K: copy(K).slice(1), V: copy(V) }), { name: 'RangeError', message: /same number of heads .* got 3, 2 and 3/ });
  const odd = copy(K);
  odd[2] = attn.random({ rows: 6, cols: 5, seed: 1 });
  await assert.rejects(pool.attention({ Q: copy(Q), K: odd, V: copy(V) }), { name: 'RangeError', message: /K\[2\] is 6x5; every head must be 6x4/ });
  await assert.rejects(pool.attention({ Q: 'Q', K, V }), { name: 'TypeError' });
  await assert.rejects(pool.attention({ Q: copy(Q), K: copy(K), V: copy(V), kernel: 'fast' }), { name: 'RangeError', message: /kernel must be 'plain' or 'tiled', got 'fast'/ });
  // The core's own check, in the worker: a head whose data is too short.
  const short = copy(V);
  short[2] = { rows: 6, cols: 4, data: new Float32Array(7) };
  await assert.rejects(pool.attention({ Q: copy(Q), K: copy(K), V: short }), (e) => e instanceof RangeError && /^head 2: /.test(e.message) && e.kind === 'ShapeError' || assert.fail(`${e.name} ${e.kind}: ${e.message}`));
  const r = await pool.attention({ Q: copy(Q), K: copy(K), V: copy(V) });
  assert.ok(bits(r.heads[2].output).equals(bits(attn.flashAttention(Q[2], K[2], V[2]))));
  pool.terminate();
});

test('more tokens than maxRows: a SizeError before anything is sent; the pool keeps working', async () => {
  assert.throws(() => createPool({ size: 1, maxRows: 0, createWorker: workers().create }), /maxRows must be a whole number ≥ 1, got 0/);
  assert.throws(() => createPool({ size: 1, maxRows: 2.5, createWorker: workers().create }), RangeError);
  assert.equal(createPool({ size: 1, createWorker: workers().create }).maxRows, 1 << 16); // the default
  const w = workers();
  const pool = createPool({ size: 2, maxRows: 8, createWorker: w.create });
  assert.equal(pool.maxRows, 8);
  const [Q, K, V] = heads(2, 9, 4, 3);
  await assert.rejects(pool.attention({ Q, K, V }), (e) => e instanceof RangeError && e.kind === 'SizeError' &&
    /n = 9 tokens is more than this pool takes \(maxRows = 8\)/.test(e.message) || assert.fail(`${e.name} ${e.kind}: ${e.message}`));
  assert.equal(Q[0].data.byteLength, 9 * 4 * 4, 'the inputs stay here (nothing transferred)');
  assert.deepEqual(w.made.map((x) => x.received.length), [0, 0], 'no worker was sent anything');
  const [q, k, v] = heads(2, 8, 4, 3); // n = maxRows runs
  const r = await pool.attention({ Q: copy(q), K: copy(k), V: copy(v) });
  r.heads.forEach((h, i) => assert.ok(bits(h.output).equals(bits(attn.flashAttention(q[i], k[i], v[i])))));
  pool.terminate();
});

test('the same matrix given for several heads and for Q and K is sent to each worker once', async () => {
  const pool = createPool({ size: 2, createWorker: workers().create });
  const X = attn.random({ rows: 9, cols: 4, seed: 8 });
  const want = bits(attn.flashAttention(X, X, X));
  const r = await pool.attention({ Q: [X, X, X], K: [X, X, X], V: [X, X, X] });
  r.heads.forEach((h) => assert.ok(bits(h.output).equals(want)));
  pool.terminate();
});

test('a crashed worker fails its calls with a message naming it, is replaced, and the pool keeps working', async () => {
  let crashes = 1;
  const w = workers({ crash: (msg) => msg.heads[0].head === 2 && crashes-- > 0 });
  const pool = createPool({ size: 2, createWorker: w.create });
  const [Q, K, V] = heads(4, 5, 3, 2);
  await assert.rejects(pool.attention({ Q: copy(Q), K: copy(K), V: copy(V) }), /attention pool: worker 2 stopped: boom/);
  assert.equal(w.made[1].dead, true, 'the crashed worker is terminated');
  const r = await pool.attention({ Q: copy(Q), K: copy(K), V: copy(V) });
  assert.equal(w.made.length, 3, 'one new worker took its place');
  r.heads.forEach((h, i) => assert.ok(bits(h.output).equals(bits(attn.flashAttention(Q[i], K[i], V[i])))));
  pool.terminate();
});

test('a worker whose core does not load: ready() and calls reject with its message', async () => {
  const pool = createPool({ size: 1, createWorker: workers({ load: () => Promise.reject(new Error('no WebAssembly here')) }).create });
  await assert.rejects(pool.ready(), /worker 1 could not start: no WebAssembly here/);
  const [Q, K, V] = heads(1, 2, 2, 1);
  await assert.rejects(pool.attention({ Q, K, V }), /no WebAssembly here/);
  pool.terminate();
});

test('terminate(): pending calls reject, every worker stops, later calls throw', async () => {
  const w = workers();
  const pool = createPool({ size: 2, createWorker: w.create });
  const [Q, K, V] = heads(2, 40, 8, 4);
  const pending = pool.attention({ Q, K, V });
  pool.terminate();
  await assert.rejects(pending, /terminated/);
  assert.ok(w.made.every((x) => x.dead));
  const [Q2, K2, V2] = heads(2, 40, 8, 4);
  await assert.rejects(pool.attention({ Q: Q2, K: K2, V: V2 }), /the pool was terminated/);
  await assert.rejects(pool.ready(), /the pool was terminated/);
});

// The cost chapter's live run (issue 26): the workers draw the inputs themselves and keep
// them across calls, so that the page's thread makes and sends nothing of size n x d.
test('draw(): inputs drawn in the workers, the same bits as the page\'s core draws; the page sends only the parts\' places', async () => {
  for (const size of [1, 2, 3])
    for (const [h, causal] of [[4, false], [3, false], [3, true]]) {
      const w = workers();
      const pool = createPool({ size, createWorker: w.create });
      await assert.rejects(pool.attention({ kernel: 'tiled' }), /none drawn/);
      await pool.draw({ rows: 70, cols: 16, heads: h, seed: 5, causal });
      const [Q, K, V] = heads(h, 70, 16, 5);
      for (const kernel of ['plain', 'tiled'])
        for (let rep = 0; rep < 2; rep++) { // the drawn inputs stay for the next call
          const r = await pool.attention({ kernel, causal });
          assert.equal(r.Q, undefined, 'no inputs come back: they stay in the workers');
          r.heads.forEach((x, i) => {
            const want = (kernel === 'tiled' ? attn.flashAttention : attn.attentionOutput)(Q[i], K[i], V[i], { causal });
            assert.ok(bits(x.output).equals(bits(want)), `${size} workers, ${h} heads, causal ${causal}, ${kernel}: head ${i}`);
          });
        }
      // what the page posted: small messages with no buffer in them
      for (const worker of w.made)
        for (const m of worker.received) {
          assert.ok(JSON.stringify(m).length < 2000, `a message of ${JSON.stringify(m).length} characters`);
          assert.ok(!m.heads?.some((p) => p.q || p.k || p.v || p.qBytes), 'no input buffer is sent');
        }
      pool.terminate();
    }
  const pool = createPool({ size: 2, maxRows: 64, createWorker: workers().create });
  await assert.rejects(pool.draw({ rows: 65, cols: 16, heads: 2 }), (e) => e.kind === 'SizeError');
  await assert.rejects(pool.draw({ rows: 8, cols: 0, heads: 2 }), /cols must be a whole number ≥ 1, got 0/);
  pool.terminate();
});

// The live run asks for timings only (outputs: false): each head's output stays in its worker
// and comes back as its sum, so that no n x d array reaches the page's thread (issue 26).
test('outputs: false: no output crosses, each head comes back as the sum of its output, split or not', async () => {
  const sum = (m) => m.data.reduce((a, x) => a + x, 0);
  for (const size of [1, 2, 3])
    for (const [h, causal] of [[4, false], [3, false], [3, true]]) {
      const w = workers();
      const pool = createPool({ size, createWorker: w.create });
      await pool.draw({ rows: 70, cols: 16, heads: h, seed: 5, causal });
      const [Q, K, V] = heads(h, 70, 16, 5);
      for (const kernel of ['plain', 'tiled']) {
        const r = await pool.attention({ kernel, causal, outputs: false });
        assert.equal(r.heads.length, h);
        r.heads.forEach((x, i) => {
          const want = (kernel === 'tiled' ? attn.flashAttention : attn.attentionOutput)(Q[i], K[i], V[i], { causal });
          assert.equal(x.output, null);
          assert.ok(Math.abs(x.sum - sum(want)) <= 1e-9 * Math.max(1, Math.abs(sum(want))), `${size} workers, ${h} heads, causal ${causal}, ${kernel}: head ${i}: ${x.sum} vs ${sum(want)}`);
          assert.ok(x.ms >= 0 && x.workBytes > 0);
        });
      }
      assert.deepEqual(w.made.flatMap((x) => x.replied).filter((m) => m.bytes > 0), [], 'replies that transfer buffers');
      // given inputs still come back (they are the caller's), and no output with them
      const [q, k, v] = heads(h, 70, 16, 5);
      const r = await pool.attention({ Q: q, K: k, V: v, kernel: 'tiled', causal, outputs: false });
      assert.ok(bits(r.V[h - 1]).equals(bits(V[h - 1])));
      assert.ok(r.heads.every((x) => x.output === null && Number.isFinite(x.sum)));
      pool.terminate();
    }
});

test('terminate({stagger}): calls end at once, the workers are stopped one at a time that far apart', async () => {
  const w = workers();
  const pool = createPool({ size: 3, createWorker: w.create });
  const [Q, K, V] = heads(3, 40, 8, 5);
  await pool.attention({ Q: copy(Q), K: copy(K), V: copy(V), kernel: 'plain' }); // all three started
  const pending = pool.attention({ Q, K, V, kernel: 'plain' });
  const t0 = performance.now();
  pool.terminate({ stagger: 60 });
  assert.deepEqual(w.made.map((x) => x.dead), [true, false, false], 'the first at once, the others later');
  await assert.rejects(pending, /terminated/);
  await assert.rejects(pool.attention({ Q, K, V, kernel: 'plain' }), /terminated/);
  const when = [];
  await new Promise((resolve) => {
    const poll = setInterval(() => {
      w.made.forEach((x, i) => { if (x.dead && when[i] === undefined) when[i] = performance.now() - t0; });
      if (when.filter((x) => x !== undefined).length === 3) clearInterval(poll), resolve();
    }, 5);
  });
  // (timers never fire early; late is fine)
  assert.ok(when[1] >= 50 && when[2] >= 110 && when[2] > when[1], `one by one: ${when.map((x) => x.toFixed(0))}`);
});

// A call at a large n takes seconds (the cost chapter's last call, ~30 s): onProgress hears
// each part as its worker finishes it, so the page can show that the call moves.
test('onProgress: a fraction after every part of a call, rising to 1 before it resolves; the same bits', async () => {
  for (const [size, h, causal] of [[1, 4, false], [2, 4, false], [2, 3, false], [3, 3, true]]) {
    const w = workers();
    const pool = createPool({ size, createWorker: w.create });
    await pool.draw({ rows: 40, cols: 8, heads: h, seed: 2, causal });
    const seen = [];
    const r = await pool.attention({ kernel: 'tiled', causal, onProgress: (f) => seen.push(f) });
    const parts = r.split === 'rows' ? h * r.workers : h;
    assert.equal(seen.length, parts, `${size} workers, ${h} heads: a report per part`);
    seen.forEach((f, i) => assert.equal(f, (i + 1) / parts));
    const plain = await pool.attention({ kernel: 'tiled', causal });
    r.heads.forEach((x, i) => assert.ok(bits(x.output).equals(bits(plain.heads[i].output)), `head ${i}`));
    // given inputs too; and no progress message unless asked
    const [Q, K, V] = heads(h, 40, 8, 2);
    const given = [];
    await pool.attention({ Q, K, V, kernel: 'plain', causal, onProgress: (f) => given.push(f) });
    assert.equal(given.at(-1), 1);
    assert.ok(w.made.every((x) => x.received.filter((m) => m.type === 'heads' && !m.progress).length > 0));
    pool.terminate();
  }
});
