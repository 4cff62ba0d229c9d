// A small pool of Web Workers for attention over several heads (the cost chapter's live
// run): each worker holds its own instance of the core (cost-run.js), the heads of a call
// are split into contiguous blocks, one block per worker (or, when they do not divide
// evenly and there is no causal mask, every head's query rows are), and the inputs and
// outputs travel as transferred ArrayBuffers. Nothing is shared between workers, so the page
// needs no SharedArrayBuffer and no cross-origin isolation (COOP/COEP): it works from
// any static host. Heads are independent (Vaswani et al. 2017, §3.2.2), so each head's
// output is the one a single worker computes, bit for bit; so are the rows of Q (each row
// is its own softmax over all the keys).
//
//   const pool = createPool({ url: new URL('./cost-run.js', import.meta.url), size: 2, maxRows: 4096 });
//   const r = await pool.attention({ Q, K, V, kernel: 'tiled', causal: false });
//   // r: {heads: [{output, ms, workBytes}], Q, K, V, workers, split, ms, timing}
//   // or with inputs the workers draw and keep (nothing n x d made or sent by the page):
//   await pool.draw({ rows: 4096, cols: 64, heads: 8, seed: 1 });
//   const r2 = await pool.attention({ kernel: 'tiled' }); // r2: as r, without Q, K, V
//   // or only the timings and a checksum per head (no output crosses to the page's thread):
//   const r3 = await pool.attention({ kernel: 'tiled', outputs: false }); // r3.heads: [{output: null, sum, ms, workBytes}]
//   pool.terminate();
//
// Errors: a call with bad arguments rejects with a TypeError/RangeError (the core's message
// for shapes, prefixed with the head); a call with more than maxRows tokens rejects with a
// RangeError of kind 'SizeError' before anything is copied or sent; a worker that fails (its script, its core, a
// crash) rejects the calls it held with an Error naming it, and is replaced, so the pool
// keeps working. After terminate() every pending call rejects and new calls throw.

/** Workers a pool gets by default: one per logical core the browser reports, at least 1
 * and at most `max`. */
export function defaultPoolSize(max = 16) {
  const n = globalThis.navigator?.hardwareConcurrency;
  return Math.max(1, Math.min(max, Number.isInteger(n) && n > 0 ? n : 1));
}

/** Contiguous, balanced blocks of `count` items over at most `parts` workers:
 * [[start, end), ...], no block empty (fewer blocks than parts when count < parts). */
export function splitBlocks(count, parts) {
  const used = Math.max(1, Math.min(parts, count));
  const out = [];
  for (let w = 0; w < used; w++) out.push([Math.floor((w * count) / used), Math.floor(((w + 1) * count) / used)]);
  return out.filter(([a, b]) => b > a);
}

// A matrix's data as a Float32Array that owns its whole buffer (transferable as is);
// anything else is copied once.
function ownedFloat32(m, what) {
  const d = m?.data;
  const shared = typeof SharedArrayBuffer !== 'undefined' && d?.buffer instanceof SharedArrayBuffer;
  if (d instanceof Float32Array && d.byteOffset === 0 && d.byteLength === d.buffer.byteLength && !shared) return d;
  if (d instanceof Float32Array || d instanceof Float64Array || Array.isArray(d)) return Float32Array.from(d);
  throw new TypeError(`attention pool: ${what}.data must be a Float32Array, Float64Array or array of numbers`);
}

/** size: workers (1 to 256); maxRows: the most tokens n a call may have (its n x n buffers
 * and inputs are made for it: the caller's own limit, e.g. the live run's largest n). */
export function createPool({ size = defaultPoolSize(), url, createWorker, maxRows = 1 << 16 } = {}) {
  if (!Number.isInteger(size) || size < 1 || size > 256) throw new RangeError(`attention pool: size must be a whole number from 1 to 256, got ${size}`);
  if (!Number.isInteger(maxRows) || maxRows < 1) throw new RangeError(`attention pool: maxRows must be a whole number ≥ 1, got ${maxRows}`);
  const spawn = createWorker ?? (() => new Worker(url, { type: 'module' }));
  let nextId = 1;
  let closed = false;
  let drawn = null; // the inputs the workers drew (draw()): {rows, cols, heads, causal, byRows, parts}
  const slots = []; // {worker, pending: Map(id -> {resolve, reject})}

  // (info: fields for a caller that says it in its own words, e.g. {worker, script} of a
  // worker whose script did not load, {worker, file} of one whose core's files did not)
  function fail(slot, message, info = {}) {
    drawn = null; // what this worker drew is gone with it
    slot.loaded.reject(Object.assign(new Error(message), info));
    for (const p of slot.pending.values()) p.reject(Object.assign(new Error(message), info));
    slot.pending.clear();
    slot.worker.terminate();
    slot.worker = null; // replaced at its next call: the pool keeps its size
  }
  function start(slot) {
    const w = spawn();
    slot.loaded = {};
    slot.loaded.promise = new Promise((resolve, reject) => Object.assign(slot.loaded, { resolve, reject }));
    slot.loaded.promise.catch(() => {}); // seen by ready() or a call, not unhandled
    w.onmessage = ({ data: m }) => {
      if (slot.worker !== w) return;
      if (m?.type === 'ready') return slot.loaded.resolve(m);
      if (m?.type === 'error' && m.id == null) {
        const n = slots.indexOf(slot) + 1; // (file: the core's file that did not load, when that is the cause)
        return fail(slot, `attention pool: worker ${n} could not start: ${m.message}`, m.file ? { worker: n, file: m.file } : { worker: n });
      }
      const p = slot.pending.get(m?.id);
      if (!p) return;
      if (m.type === 'progress') return p.onProgress?.(m); // a part of the call is done; more to come
      slot.pending.delete(m.id);
      if (m.type === 'result') p.resolve({ ...m, back: performance.now() });
      else {
        const E = m.name === 'TypeError' ? TypeError : m.name === 'RangeError' ? RangeError : Error;
        const e = new E(m.message);
        if (m.kind) e.kind = m.kind;
        p.reject(e);
      }
    };
    w.onerror = (e) => {
      e?.preventDefault?.();
      // (a script that is not there, a widget's folder without cost-run.js: named)
      const file = url ? new URL(url, globalThis.location?.href).pathname.split('/').pop() : '';
      const n = slots.indexOf(slot) + 1;
      if (slot.worker === w) fail(slot, `attention pool: worker ${n} stopped: ${e?.message || `it crashed or its script failed to load${file ? ` (${file})` : ''}`}`,
        e?.message ? { worker: n } : { worker: n, script: file || null });
    };
    w.onmessageerror = () => slot.worker === w && fail(slot, `attention pool: worker ${slots.indexOf(slot) + 1} could not read a message`);
    return w;
  }
  for (let i = 0; i < size; i++) {
    const slot = { worker: null, pending: new Map() };
    slots.push(slot);
    slot.worker = start(slot);
  }

  function request(slot, msg, transfer, onProgress = null) {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      slot.worker ??= start(slot);
      slot.pending.set(id, { resolve, reject, onProgress });
      slot.worker.postMessage({ ...msg, id, ...(onProgress ? { progress: true } : {}) }, transfer);
    });
  }

  return {
    get size() { return slots.length; },
    /** The most tokens n a call may have. */
    get maxRows() { return maxRows; },
    /** Resolves when every worker has loaded its core (and warmed it up): [{simd}] per
     * worker; rejects with the first worker's failure. Calls made before simply wait. */
    ready() {
      if (closed) return Promise.reject(new Error('attention pool: the pool was terminated'));
      return Promise.all(slots.map((slot) => {
        slot.worker ??= start(slot);
        return slot.loaded.promise.then((m) => ({ simd: m.simd }));
      }));
    },
    /**
     * Attention of h independent heads (Vaswani et al. 2017, eq. 1; 'tiled' is Dao et al.
     * 2022's kernel). Q, K, V: arrays of h matrices {rows, cols, data}, every head n x d_h
     * with the same shapes. kernel: 'plain' or 'tiled'; causal: the causal mask.
     * The inputs' buffers are transferred (detached here) and come back in the result:
     * {heads: [{output, ms, workBytes}], Q, K, V, workers: how many were used, split:
     * 'heads' or 'rows', ms: wall time of the whole call, transfers included, timing: per
     * worker {start, end, core, back} in ms (docs/js-api.md)}.
     * outputs: false keeps every output in its worker: each head comes back as {output: null,
     * sum: the sum of its output's entries, ms, workBytes}, so that a call at a large n sends
     * the page's thread no n x d arrays to receive, hold and collect (the live run's case).
     * onProgress(fraction): called each time a worker has finished one part of the call (a
     * head, or a head's block of rows), with the fraction of the call's parts done (a call
     * at a large n takes seconds: the page shows that it moves).
     */
    async attention({ Q, K, V, kernel = 'tiled', causal = false, outputs = true, onProgress = null }) {
      if (closed) throw new Error('attention pool: the pool was terminated');
      outputs = outputs !== false;
      if (Q === undefined && K === undefined && V === undefined) return attentionDrawn(kernel, causal, outputs, onProgress);
      if (!Array.isArray(Q) || !Array.isArray(K) || !Array.isArray(V)) throw new TypeError('attention pool: Q, K and V must be arrays of matrices, one per head');
      const h = Q.length;
      if (h < 1 || K.length !== h || V.length !== h) throw new RangeError(`attention pool: Q, K and V must hold the same number of heads (≥ 1), got ${Q.length}, ${K.length} and ${V.length}`);
      const { rows, cols } = Q[0];
      if (rows > maxRows) {
        const e = new RangeError(`attention pool: n = ${rows} tokens is more than this pool takes (maxRows = ${maxRows})`);
        e.kind = 'SizeError';
        throw e;
      }
      for (const [name, list] of [['Q', Q], ['K', K], ['V', V]])
        list.forEach((m, i) => {
          if (m?.rows !== rows || m?.cols !== cols) throw new RangeError(`attention pool: ${name}[${i}] is ${m?.rows}x${m?.cols}; every head must be ${rows}x${cols} like Q[0]`);
        });
      const { byRows, parts } = plan(h, rows, causal);
      // A buffer can be transferred to one worker only: its first user gets it (the caller's
      // matrices come back from there); another worker gets a copy (rows of Q: its rows only).
      const owner = new Map(); // buffer -> worker
      const data = [Q, K, V].map((list, j) => list.map((m, i) => ownedFloat32(m, `${'QKV'[j]}[${i}]`)));
      const send = (w, j, p) => {
        const d = data[j][p.head];
        if (!owner.has(d.buffer)) owner.set(d.buffer, w);
        if (owner.get(d.buffer) === w) return { buffer: d.buffer, row: p.row };
        return j === 0 && byRows ? { buffer: d.slice(p.row * cols, (p.row + p.count) * cols).buffer, row: 0 } : { buffer: d.slice().buffer, row: p.row };
      };
      const t0 = performance.now(); // the copies are part of the call
      // every message is made before the first is sent (sending detaches the buffers)
      const messages = parts.map((list, w) => {
        const heads = list.map((p) => {
          const q = send(w, 0, p);
          return { head: p.head, row: q.row, count: p.count, q: q.buffer, k: send(w, 1, p).buffer, v: send(w, 2, p).buffer };
        });
        // the same buffer twice (Q = K) is sent once
        return [{ type: 'heads', heads, rows, cols, kernel, causal, outputs }, [...new Set(heads.flatMap((x) => [x.q, x.k, x.v]))]];
      });
      const tick = progressOf(parts, onProgress);
      const replies = await Promise.all(messages.map(([msg, transfer], w) => request(slots[w], msg, transfer, tick)));
      return gather(replies, parts, byRows, rows, cols, t0);
    },
    /**
     * Inputs drawn by the workers and kept there, for attention({kernel, causal}) calls
     * without Q, K, V: head i's Q, K and V are the core's random({rows, cols, seed: seed +
     * 3i + j}) for j = 0, 1, 2 (the matrices the page's own core would draw). Nothing of size
     * rows x cols is made on the page's thread or crosses it, so a run at a large n does not
     * hold the page up. Each worker draws what its part needs (its heads; with the rows split,
     * every head); `causal` must be the calls' (it decides the split). Replaces the inputs
     * drawn before. Resolves when every worker has them.
     */
    async draw({ rows, cols, heads, seed = 1, causal = false }) {
      if (closed) throw new Error('attention pool: the pool was terminated');
      for (const [name, v, lo] of [['rows', rows, 1], ['cols', cols, 1], ['heads', heads, 1], ['seed', seed, 0]])
        if (!Number.isInteger(v) || v < lo) throw new RangeError(`attention pool: draw: ${name} must be a whole number ≥ ${lo}, got ${v}`);
      if (rows > maxRows) {
        const e = new RangeError(`attention pool: n = ${rows} tokens is more than this pool takes (maxRows = ${maxRows})`);
        e.kind = 'SizeError';
        throw e;
      }
      drawn = null;
      const { byRows, parts } = plan(heads, rows, causal);
      await Promise.all(parts.map((list, w) => request(slots[w], { type: 'draw', rows, cols, seed, heads: byRows ? Array.from({ length: heads }, (_, i) => i) : list.map((p) => p.head) })));
      drawn = { rows, cols, heads, causal, byRows, parts };
    },
    /**
     * Stops every worker (their memory is freed); pending calls reject at once. With
     * `stagger` (ms), the workers are stopped one at a time, that far apart: freeing a worker's
     * wasm memory (a GB after the plain kernel's large n) keeps a core busy for a few hundred
     * ms, and stopping all at once on a machine with as many cores as workers leaves none for
     * the page's thread.
     */
    terminate({ stagger = 0 } = {}) {
      closed = true;
      slots.forEach((slot, i) => {
        for (const p of slot.pending.values()) p.reject(new Error('attention pool: terminated'));
        slot.pending.clear();
        const w = slot.worker;
        slot.worker = null;
        if (!w) return;
        if (stagger > 0 && i > 0) setTimeout(() => w.terminate(), stagger * i);
        else w.terminate();
      });
    },
  };

  // The work: whole heads in contiguous blocks, one block per worker; or, when the heads do
  // not divide evenly over the workers and there is no causal mask (the core's is aligned
  // with row 0), every head's query rows in blocks, one per worker, each worker with all of
  // K and V (rows of Q are independent: the same bits per row).
  function plan(h, rows, causal) {
    const size = slots.length;
    const byRows = !causal && h % size !== 0;
    const blocks = splitBlocks(byRows ? rows : h, size);
    const parts = blocks.map(([a, b]) => (byRows
      ? Array.from({ length: h }, (_, i) => ({ head: i, row: a, count: b - a }))
      : Array.from({ length: b - a }, (_, j) => ({ head: a + j, row: 0, count: rows }))));
    return { byRows, parts };
  }

  // A call on the inputs the workers drew (draw): only the parts' places are sent.
  // The parts done over all workers, as a fraction of the call (null: nobody asked).
  function progressOf(parts, onProgress) {
    if (typeof onProgress !== 'function') return null;
    const total = parts.reduce((a, list) => a + list.length, 0);
    let done = 0;
    return () => onProgress(Math.min(1, ++done / total));
  }
  async function attentionDrawn(kernel, causal, outputs, onProgress) {
    if (!drawn) throw new Error('attention pool: no Q, K, V given and none drawn (call draw() first)');
    if (!!causal !== !!drawn.causal && plan(drawn.heads, drawn.rows, causal).byRows !== drawn.byRows)
      throw new RangeError('attention pool: the inputs were drawn for the other mask (draw() again with this causal)');
    const { rows, cols, byRows, parts } = drawn;
    const t0 = performance.now();
    const tick = progressOf(parts, onProgress);
    const replies = await Promise.all(parts.map((list, w) => request(slots[w], { type: 'heads', heads: list.map((p) => ({ ...p, drawn: true })), rows, cols, kernel, causal, outputs }, undefined, tick)));
    return gather(replies, parts, byRows, rows, cols, t0);
  }

  // The replies of one call put together (see attention()).
  function gather(replies, parts, byRows, rows, cols, t0) {
    const ms = performance.now() - t0;
    const h = Math.max(...parts.flat().map((p) => p.head)) + 1;
    // Each head: its output (rows put together), its time (summed over its parts) and its
    // memory (summed: what the head needs, wherever its parts ran).
    const out = Array.from({ length: h }, () => ({ output: null, sum: 0, ms: 0, workBytes: 0 }));
    const back = [0, 1, 2].map(() => new Array(h).fill(null));
    replies.forEach((r, w) => r.heads.forEach((x, j) => {
      const p = parts[w][j], o = out[p.head];
      if (x.output == null) o.sum += x.sum; // outputs: false (the worker kept it)
      else if (byRows) {
        o.output ??= new Float32Array(rows * cols);
        o.output.set(new Float32Array(x.output), p.row * cols);
      } else o.output = new Float32Array(x.output);
      o.ms += x.ms;
      o.workBytes += x.workBytes;
      // the caller's matrices: from the worker that had the whole head, or from the first
      // (which got every head's buffers) when the rows were split (none: the workers drew them)
      if (x.q && (!byRows || w === 0)) [x.q, x.k, x.v].forEach((buffer, k) => { back[k][p.head] = new Float32Array(buffer); });
    }));
    const epoch = performance.timeOrigin + t0;
    const matrix = (d) => ({ rows, cols, data: d });
    return {
      heads: out.map((o) => (o.output ? { output: matrix(o.output), ms: o.ms, workBytes: o.workBytes } : { output: null, sum: o.sum, ms: o.ms, workBytes: o.workBytes })),
      ...(back[0][0] ? { Q: back[0].map(matrix), K: back[1].map(matrix), V: back[2].map(matrix) } : {}),
      workers: parts.length,
      split: byRows ? 'rows' : 'heads',
      ms,
      // Where the call's time went, per worker (ms from the call's start): its message
      // arrived and its work began (`start`), its work ended (`end`), the time in the core's
      // kernel calls (`core`), and when its reply was back here (`back`).
      timing: replies.map((r) => ({ start: r.at[0] - epoch, end: r.at[1] - epoch, core: r.heads.reduce((a, x) => a + x.ms, 0), back: r.back - t0 })),
    };
  }
}
