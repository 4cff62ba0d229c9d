// The JS side of the real-model module (attn-pretrained.mjs/.wasm, wasm/pretrained/pretrained.cpp):
// the learner's GPT-2 or BERT checkpoint loaded tensor by tensor, and every head of a sentence.
// Loaded only by the real-model worker (web/src/workers/real-model-worker.js); Node tests
// import it from web/dist/ (docs/real-models.md).
//
//   const core = await createPretrained(moduleArgs?)
//   core.begin(configText) -> config            config.json checked; a fresh load
//   core.setIndex(indexText)                    model.safetensors.index.json (sharded)
//   core.headerLength(first8, fileSize, name) -> N   (first8: the file's first bytes)
//   core.addFile(name, fileSize, headerBytes)   each safetensors file's JSON header
//   core.plan() -> {chunks, bytesTotal, tensorsTotal}
//   core.chunk(i) -> {file, fileName, tensor, offset, bytes}   where to read chunk i from
//   core.put(i, bytes)                          chunk i's bytes into the tensor, committed
//   core.into(i) -> {write(bytes, at), done()}  chunk i's bytes in pieces, then committed
//   core.progress() -> {bytesDone, bytesTotal, tensorsDone, tensorsTotal}
//   core.finish() -> model;  core.abort()       (a failed or cancelled load leaves nothing)
//   core.checkWeightsName(name)                 throws for pytorch_model.bin and the like
//   core.heapBytes()                            the module's memory now
//   model.info -> {modelType, layers, heads, dModel, positions, vocab, ..., weightBytes}
//   model.forward(tokens, {types, off, valueNorms, rollout})
//        -> {T, weights: Float32Array [layer][head][i][j], norms: [layer][head][j] | null,
//            rollout: Float32Array T×T | null}
//   model.loss(tokens, targets, {types, off}) -> {nats, scored, loss}
//   model.ablate(tokens, targets, {types, progress(done, total), heads: [first, end], base})
//        -> {base, delta, loss}     (heads: only those, layer-major, in pieces a caller can
//                                    stop between; base: the {nats, scored} of an earlier piece)
//   model.roles(tokens, {pool, bos, eos, sequences, repeat, seed}) -> {layers: [[{…, role}]], unnamed, …}
//   model.free()
// Every failure throws a CheckpointError (an Error; .kind as safetensors.hpp lists them, plus
// "value" and "memory"; .file, .tensor, .detail; and the error's numbers as fields set where it
// was thrown, undefined where none: .what names the quantity ("shape", "dtype", "vocab_size",
// "d_model", "layers", "model_type", "json", "bytes"), .expected and .got are text (a shape is
// "[2, 3]"), .line and .column numbers (1-based) for a JSON syntax error); the module stays
// usable. A caller words a message from the fields, never from .detail's English.
import createPretrainedCore from './attn-pretrained.mjs';

const isNode = typeof process === 'object' && !!process.versions?.node && typeof window === 'undefined';

export class CheckpointError extends Error {
  constructor({ kind, file, tensor, detail, message, what, expected, got, line, column }) {
    super(message);
    this.name = 'CheckpointError';
    this.kind = kind;
    this.file = file || '';
    this.tensor = tensor || '';
    this.detail = detail || message;
    // the numbers ("" and 0 from the module where there are none)
    this.what = what || undefined;
    this.expected = expected || undefined;
    this.got = got || undefined;
    this.line = line || undefined;
    this.column = line ? column : undefined;
  }
}

export default async function createPretrained(moduleArgs = {}) {
  moduleArgs = { ...moduleArgs };
  if (isNode && !moduleArgs.wasmBinary && !moduleArgs.locateFile && !moduleArgs.instantiateWasm) {
    const { readFile } = await import('node:fs/promises');
    moduleArgs.wasmBinary = await readFile(new URL('./attn-pretrained.wasm', import.meta.url));
  }
  if (!isNode && !moduleArgs.locateFile && !moduleArgs.wasmBinary)
    moduleArgs.locateFile = (f) => new URL(`./${f}`, import.meta.url).href;
  const m = await createPretrainedCore(moduleArgs);
  const fail = () => {
    throw new CheckpointError(m.lastError());
  };
  const ok = (status) => {
    if (status !== 0) fail();
  };
  // n int32 copied into the module's memory for one call (freed by the caller's finally)
  const ints = (a) => {
    if (!a) return 0;
    const p = m.allocate(4 * Math.max(1, a.length));
    m.HEAP32.set(Int32Array.from(a, (x) => x | 0), p >>> 2);
    return p;
  };
  const bytesIn = (u8) => {
    const p = m.allocate(Math.max(1, u8.length));
    m.HEAPU8.set(u8, p);
    return p;
  };
  const withMem = (ptrs, f) => {
    try {
      return f();
    } finally {
      for (const p of ptrs) if (p) m.release(p);
    }
  };
  const truncated = (c, n) => new CheckpointError({ kind: 'truncated', file: c.fileName, tensor: c.tensor, detail: `read ${n} of ${c.bytes} bytes`,
    message: `${c.fileName}: tensor '${c.tensor}': read ${n} of ${c.bytes} bytes`, what: 'bytes', expected: String(c.bytes), got: String(n) });
  const floats = (ptr, n) => (n ? m.HEAPF32.slice(ptr >>> 2, (ptr >>> 2) + n) : null);
  const result = () => m.lastResult();

  function wrapModel(id) {
    const info = m.modelInfo(id);
    if (!info) fail();
    let freed = false;
    const live = () => {
      if (freed) throw new CheckpointError({ kind: 'state', message: 'this model was freed' });
    };
    const seq = (tokens, extra) => {
      if (!Array.isArray(tokens) && !(tokens instanceof Int32Array)) throw new TypeError('tokens: an array of token ids');
      if (extra && extra.length !== tokens.length) throw new RangeError(`${extra.length} entries for ${tokens.length} tokens`);
    };
    return Object.freeze({
      id,
      info: Object.freeze(info),
      forward(tokens, { types = null, off = -1, valueNorms = true, rollout = true } = {}) {
        live();
        seq(tokens, types);
        const pt = ints(tokens), ty = ints(types);
        return withMem([pt, ty], () => {
          ok(m.forward(id, pt, tokens.length, ty, off, (valueNorms ? 1 : 0) | (rollout ? 2 : 0)));
          return {
            T: tokens.length,
            weights: floats(m.resultWeights(), m.resultWeightsLength()),
            norms: valueNorms ? floats(m.resultNorms(), m.resultNormsLength()) : null,
            rollout: rollout ? floats(m.resultRollout(), m.resultRolloutLength()) : null,
          };
        });
      },
      loss(tokens, targets, { types = null, off = -1 } = {}) {
        live();
        seq(tokens, targets);
        seq(tokens, types);
        const pt = ints(tokens), pg = ints(targets), ty = ints(types);
        return withMem([pt, pg, ty], () => {
          ok(m.loss(id, pt, tokens.length, pg, ty, off));
          return result();
        });
      },
      ablate(tokens, targets, { types = null, progress = null, heads = null, base = null } = {}) {
        live();
        seq(tokens, targets);
        seq(tokens, types);
        const [first, end] = heads ?? [0, -1];
        const pt = ints(tokens), pg = ints(targets), ty = ints(types);
        return withMem([pt, pg, ty], () => {
          ok(m.ablate(id, pt, tokens.length, pg, ty, first, end, base ? base.nats : -1, base ? base.scored : -1, progress ?? undefined));
          return result();
        });
      },
      roles(tokens, { pool = null, bos = -1, eos = -1, sequences = 4, repeat = 16, seed = 1 } = {}) {
        live();
        seq(tokens);
        const pt = ints(tokens), pp = ints(pool);
        return withMem([pt, pp], () => {
          ok(m.roles(id, pt, tokens.length, pp, pool ? pool.length : 0, bos, eos, sequences, repeat, seed));
          return result();
        });
      },
      free() {
        if (freed) return;
        freed = true;
        ok(m.modelFree(id));
      },
    });
  }

  return Object.freeze({
    begin(configText) {
      if (typeof configText !== 'string') throw new TypeError('config.json: its text');
      ok(m.loadBegin(configText));
      return m.loadConfig();
    },
    setIndex(text) {
      ok(m.loadIndex(text));
    },
    headerLength(first, fileSize, name) {
      const p = bytesIn(first);
      return withMem([p], () => {
        const n = m.headerLength(p, first.length, fileSize, name);
        if (n < 0) fail();
        return n;
      });
    },
    addFile(name, fileSize, header) {
      const p = bytesIn(header);
      withMem([p], () => ok(m.loadAddFile(name, fileSize, p, header.length)));
    },
    plan() {
      ok(m.loadPlan());
      const p = m.loadProgress();
      return { chunks: m.loadChunks(), bytesTotal: p.bytesTotal, tensorsTotal: p.tensorsTotal };
    },
    chunk(i) {
      return m.loadChunk(i);
    },
    put(i, bytes) {
      const c = m.loadChunk(i);
      if (bytes.length !== c.bytes) throw truncated(c, bytes.length);
      const dst = m.loadDestination(i);
      if (!dst) fail();
      m.HEAPU8.set(bytes, dst); // (HEAPU8 read after the call: memory may have grown)
      ok(m.loadCommit(i));
    },
    // chunk i read in pieces straight into its destination (no chunk-sized buffer in JS):
    // write(bytes, at) for each piece as it arrives, then done(n) with the bytes written
    into(i) {
      const c = m.loadChunk(i);
      const dst = m.loadDestination(i);
      if (!dst) fail();
      let written = 0;
      return {
        write(bytes, at) {
          if (at + bytes.length > c.bytes) throw truncated(c, at + bytes.length);
          m.HEAPU8.set(bytes, dst + at); // (HEAPU8 read at each piece: memory may have grown)
          written += bytes.length;
        },
        done() {
          if (written !== c.bytes) throw truncated(c, written);
          ok(m.loadCommit(i));
        },
      };
    },
    progress() {
      return m.loadProgress();
    },
    finish() {
      const id = m.loadFinish();
      if (id < 0) fail();
      return wrapModel(id);
    },
    abort() {
      m.loadAbort();
    },
    checkWeightsName(name) {
      ok(m.weightsFileName(name));
    },
    models() {
      return m.modelCount();
    },
    heapBytes() {
      return m.HEAPU8.length;
    },
  });
}
