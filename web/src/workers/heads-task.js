// What one worker of the attention pool (pool.js) does, apart from the messaging, so that
// Node tests can run it on a core of their own: attention for a few heads (or a block of
// query rows of each), each part timed and measured the way profileAttention does it
// (time of the call, core memory at its peak beyond what was held before: the kernel's
// buffers and its output).
//
// A part is {q, k, v, head, row, count}: q, k, v ArrayBuffers of float32 (row-major, cols
// per row); k and v hold all `rows` keys and values of the head; q holds the head's query
// rows, of which the part is the `count` rows from `row` on (row = 0, count = rows: the
// whole head). Rows of Q are independent (each is its own softmax over all the keys), so a
// part's rows are bit for bit the rows the whole head gives. The reply carries each part's
// output (count x cols, a fresh ArrayBuffer) and the inputs back, all to be transferred.
// A part {head, row, count, drawn: true} reads the inputs this worker drew itself (drawInputs:
// the page made and sent nothing of size rows x cols), which stay here for the next call.
// With `outputs: false` in the message the outputs stay here too: a part's reply carries its
// output's sum (a checksum) instead, so nothing of size rows x cols crosses to the page.

/** Compiles the hot WebAssembly functions with the engine's optimising tier before
 * anything is measured: both kernels on a 256 x dHead input, at least 10 times and for a
 * quarter of a second. */
export function warmUp(attn, dHead = 64, ms = 250) {
  const w = attn.random({ rows: 256, cols: dHead, seed: 1 });
  const t0 = performance.now();
  for (let i = 0; i < 10 || performance.now() - t0 < ms; i++)
    for (const kernel of ['plain', 'tiled']) attn.profileAttention(w, w, w, { kernel });
}

// A clock shared by the page and its workers (ms since the epoch, sub-millisecond): each
// context's performance.now() counts from its own time origin.
const clock = () => performance.timeOrigin + performance.now();

/** Runs `msg.heads` (parts [{q, k, v, head, row, count}], keys and values rows x cols) with
 * `msg.kernel` ('plain': attentionOutput, one count x rows buffer; 'tiled': flashAttention)
 * and `msg.causal` (whole heads only: the core's causal mask is aligned with row 0).
 * `msg.outputs` false: each part's output is summed here and not sent (output: null, sum).
 * Returns {reply: {heads: [{output, ms, workBytes, q, k, v}], at: [start, end]}, transfer},
 * `at` the clock (ms since the epoch) when the work began and ended. `partDone(done, of)`,
 * if given, is called after each part.
 * Throws what the core throws (RangeError with the core's message, prefixed by the head). */
export function runHeads(attn, { heads, rows, cols, kernel, causal = false, first = 0, outputs = true }, drawn = null, partDone = null) {
  const start = clock();
  if (kernel !== 'plain' && kernel !== 'tiled') throw new RangeError(`attention pool: kernel must be 'plain' or 'tiled', got '${kernel}'`);
  if (!Array.isArray(heads)) throw new TypeError('attention pool: heads must be an array');
  const run = kernel === 'tiled' ? attn.flashAttention : attn.attentionOutput;
  const out = [];
  const transfer = [];
  heads.forEach((h, i) => {
    const head = h?.head ?? first + i;
    const row = h?.row ?? 0, count = h?.count ?? rows;
    const own = h?.drawn ? drawn?.get(head) : null;
    if (h?.drawn && (!own || own.rows !== rows || own.cols !== cols)) throw new RangeError(`attention pool: head ${head}: no ${rows}x${cols} inputs drawn in this worker`);
    const src = (name) => (own ? own[name] : h?.[name]);
    const whole = (name) => {
      if (!(src(name) instanceof ArrayBuffer)) throw new TypeError(`attention pool: head ${head}: ${name} must be an ArrayBuffer`);
      return { rows, cols, data: new Float32Array(src(name)) }; // its shape is the core's to check
    };
    let Q = whole('q');
    if (row !== 0 || count !== rows) {
      if (causal) throw new RangeError(`attention pool: head ${head}: a causal mask needs whole heads, not rows ${row} to ${row + count}`);
      if (!Number.isInteger(row) || !Number.isInteger(count) || row < 0 || count < 1 || (row + count) * cols * 4 > src('q').byteLength)
        throw new RangeError(`attention pool: head ${head}: rows ${row} to ${row + count} of q are not in its ${src('q').byteLength} bytes`);
      Q = { rows: count, cols, data: new Float32Array(src('q'), row * cols * 4, count * cols) };
    }
    const K = whole('k'), V = whole('v');
    const before = attn.memoryStats().currentBytes;
    attn.resetPeakMemory();
    const t0 = performance.now();
    let output;
    try {
      output = run(Q, K, V, { causal });
    } catch (e) {
      e.message = `head ${head}: ${e.message}`;
      throw e;
    }
    const ms = performance.now() - t0;
    const workBytes = attn.memoryStats().peakBytes - before;
    if (!outputs) { // a summary only: the output is dropped here (and the inputs kept, if drawn)
      let sum = 0;
      for (const x of output.data) sum += x;
      out.push({ output: null, sum, ms, workBytes, ...(own ? {} : { q: h.q, k: h.k, v: h.v }) });
      if (!own) transfer.push(h.q, h.k, h.v);
      partDone?.(i + 1, heads.length);
      return;
    }
    const o = output.data.byteOffset === 0 && output.data.byteLength === output.data.buffer.byteLength ? output.data : output.data.slice();
    if (own) { // the drawn inputs stay here
      out.push({ output: o.buffer, ms, workBytes });
      transfer.push(o.buffer);
    } else {
      out.push({ output: o.buffer, ms, workBytes, q: h.q, k: h.k, v: h.v });
      transfer.push(o.buffer, h.q, h.k, h.v);
    }
    partDone?.(i + 1, heads.length);
  });
  return { reply: { heads: out, at: [start, clock()] }, transfer: [...new Set(transfer)] }; // Q = K: one buffer, sent once
}

/** Draws the inputs of `heads` (head numbers) into `into` (a Map head -> {rows, cols, q, k,
 * v: ArrayBuffers}, emptied first): head i's Q, K, V are attn.random({rows, cols, seed:
 * seed + 3i + j}), j = 0, 1, 2 (pool.js draw()). */
export function drawInputs(attn, { heads, rows, cols, seed = 1 }, into) {
  into.clear();
  if (!Array.isArray(heads)) throw new TypeError('attention pool: draw: heads must be an array');
  for (const i of heads) {
    const [q, k, v] = [0, 1, 2].map((j) => attn.random({ rows, cols, seed: seed + 3 * i + j }).data);
    const owned = (d) => (d.byteOffset === 0 && d.byteLength === d.buffer.byteLength ? d : d.slice()).buffer;
    into.set(i, { rows, cols, q: owned(q), k: owned(k), v: owned(v) });
  }
}

/** The worker's message handler (cost-run.js wires it to self; Node tests to a fake
 * worker): `ready` resolves to the core, `post(message, transfer)` answers.
 * {type: 'draw', id, heads, rows, cols, seed} -> {type: 'result', id, heads: [], at};
 * {type: 'heads', id, ...} -> {type: 'result', id, heads, at} or {type: 'error', id, message, name, kind};
 * with `progress: true`, first {type: 'progress', id, done, of} after each of its parts. */
export function serveHeads(ready, post) {
  const drawn = new Map(); // head -> its inputs, drawn here (drawInputs)
  return async ({ data }) => {
    if (data?.type !== 'heads' && data?.type !== 'draw') return;
    try {
      const attn = await ready;
      if (data.type === 'draw') {
        const start = clock();
        drawInputs(attn, data, drawn);
        post({ type: 'result', id: data.id, heads: [], at: [start, clock()] }, []);
        return;
      }
      const partDone = data.progress ? (done, of) => post({ type: 'progress', id: data.id, done, of }, []) : null;
      const { reply, transfer } = runHeads(attn, data, drawn, partDone);
      post({ type: 'result', id: data.id, ...reply }, transfer);
    } catch (e) {
      post({ type: 'error', id: data.id, message: e?.message ?? String(e), name: e?.name, kind: e?.kind });
    }
  };
}
