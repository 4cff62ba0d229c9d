// What one worker of the attention pool (pool.js) does, apart from the messaging, so that
// Node tests can run it on a core of their own: attention for a few heads, each head
// timed and measured the way profileAttention does it (time of the call, core memory at
// its peak beyond what was held before: the kernel's buffers and its output).
//
// A head is {q, k, v}: ArrayBuffers of n x d_h float32 (row-major). The reply carries each
// head's output (n x d_h, a fresh ArrayBuffer) and the inputs back, all to be transferred.

/** Compiles the hot WebAssembly functions with the engine's optimising tier before
 * anything is measured: both kernels on a 256 x dHead input, at least 10 times and for a
 * quarter of a second. */
export function warmUp(attn, dHead = 64, ms = 250) {
  const w = attn.random({ rows: 256, cols: dHead, seed: 1 });
  const t0 = performance.now();
  for (let i = 0; i < 10 || performance.now() - t0 < ms; i++)
    for (const kernel of ['plain', 'tiled']) attn.profileAttention(w, w, w, { kernel });
}

/** Runs `msg.heads` ([{q, k, v}] ArrayBuffers, each rows x cols) with `msg.kernel`
 * ('plain': attentionOutput, one n x n buffer; 'tiled': flashAttention) and `msg.causal`.
 * Returns {reply: {heads: [{output, ms, workBytes, q, k, v}]}, transfer: [ArrayBuffer]}.
 * Throws what the core throws (RangeError with the core's message, prefixed by the head). */
export function runHeads(attn, { heads, rows, cols, kernel, causal = false, first = 0 }) {
  if (kernel !== 'plain' && kernel !== 'tiled') throw new RangeError(`attention pool: kernel must be 'plain' or 'tiled', got '${kernel}'`);
  if (!Array.isArray(heads)) throw new TypeError('attention pool: heads must be an array');
  const run = kernel === 'tiled' ? attn.flashAttention : attn.attentionOutput;
  const out = [];
  const transfer = [];
  heads.forEach((h, i) => {
    const m = (name) => {
      if (!(h?.[name] instanceof ArrayBuffer)) throw new TypeError(`attention pool: head ${first + i}: ${name} must be an ArrayBuffer`);
      return { rows, cols, data: new Float32Array(h[name]) };
    };
    const Q = m('q'), K = m('k'), V = m('v');
    const before = attn.memoryStats().currentBytes;
    attn.resetPeakMemory();
    const t0 = performance.now();
    let output;
    try {
      output = run(Q, K, V, { causal });
    } catch (e) {
      e.message = `head ${first + i}: ${e.message}`;
      throw e;
    }
    const ms = performance.now() - t0;
    const workBytes = attn.memoryStats().peakBytes - before;
    const o = output.data.byteOffset === 0 && output.data.byteLength === output.data.buffer.byteLength ? output.data : output.data.slice();
    out.push({ output: o.buffer, ms, workBytes, q: h.q, k: h.k, v: h.v });
    transfer.push(o.buffer, h.q, h.k, h.v);
  });
  return { reply: { heads: out }, transfer: [...new Set(transfer)] }; // Q = K: one buffer, sent once
}

/** The worker's message handler (cost-run.js wires it to self; Node tests to a fake
 * worker): `ready` resolves to the core, `post(message, transfer)` answers.
 * {type: 'heads', id, ...} -> {type: 'result', id, heads} or {type: 'error', id, message, name, kind}. */
export function serveHeads(ready, post) {
  return async ({ data }) => {
    if (data?.type !== 'heads') return;
    try {
      const attn = await ready;
      const { reply, transfer } = runHeads(attn, data);
      post({ type: 'result', id: data.id, ...reply }, transfer);
    } catch (e) {
      post({ type: 'error', id: data.id, message: e?.message ?? String(e), name: e?.name, kind: e?.kind });
    }
  };
}
