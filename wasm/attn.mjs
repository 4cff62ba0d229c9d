// The public JavaScript API of the attention core (see attn.d.ts and docs/js-api.md).
//
//   import createAttention from './attn.mjs';
//   const attn = await createAttention();
//   const t = attn.attention(Q, K, V, {causal: true});   // {scores, scaled, masked, weights, dropped, output}
//
// A matrix is a plain object {rows, cols, data: Float32Array} in row-major order.
// Every result is a fresh copy owned by JS. Bad arguments throw a TypeError (wrong
// type) or a RangeError (wrong shape, size or value) whose message comes from the
// core; the module keeps working after any error.
//
// Works unchanged in browsers, workers and Node >= 20: in Node the wasm bytes are read
// from the file next to this module and handed to the Emscripten loader.
import createAttnCore from './attn-core.mjs';

const isNode = typeof process === 'object' && !!process.versions?.node && typeof window === 'undefined';

function fail(kind, message) {
  const e = kind === 'TypeError' ? new TypeError(message) : new RangeError(message);
  e.kind = kind;
  return e;
}

function checkCount(value, what, { min = 0 } = {}) {
  if (typeof value !== 'number') throw fail('TypeError', `${what} must be a number, got ${typeof value}`);
  if (!Number.isInteger(value) || value < min)
    throw fail('RangeError', `${what} must be an integer >= ${min}, got ${value}`);
  return value;
}

function checkBool(value, what) {
  if (value !== undefined && typeof value !== 'boolean')
    throw fail('TypeError', `${what} must be true or false, got ${typeof value}`);
  return value === true;
}

function checkMatrix(m, what) {
  if (m === null || typeof m !== 'object')
    throw fail('TypeError', `${what} must be a matrix {rows, cols, data}, got ${m === null ? 'null' : typeof m}`);
  checkCount(m.rows, `${what}.rows`);
  checkCount(m.cols, `${what}.cols`);
  const { data } = m;
  if (!(data instanceof Float32Array) && !(data instanceof Float64Array) && !Array.isArray(data))
    throw fail('TypeError', `${what}.data must be a Float32Array or an array of numbers`);
  if (data.length !== m.rows * m.cols)
    throw fail('RangeError',
      `${what}.data has ${data.length} values but a ${m.rows}x${m.cols} matrix needs ${m.rows * m.cols}` +
      (data.length === 0 && data.buffer?.byteLength === 0 ? ' (is its buffer detached?)' : ''));
  if (Array.isArray(data)) {
    for (let i = 0; i < data.length; i++)
      if (typeof data[i] !== 'number')
        throw fail('TypeError', `${what}.data[${i}] must be a number, got ${typeof data[i]}`);
  }
  return { rows: m.rows, cols: m.cols, data };
}

function checkDropout(d, what) {
  if (d === undefined || d === null) return undefined;
  if (typeof d !== 'object') throw fail('TypeError', `${what} must be an object {rate, seed, training}`);
  const out = {};
  if (d.rate !== undefined) {
    if (typeof d.rate !== 'number') throw fail('TypeError', `${what}.rate must be a number`);
    out.rate = d.rate;
  }
  if (d.seed !== undefined) {
    if (typeof d.seed !== 'number') throw fail('TypeError', `${what}.seed must be a number`);
    if (!Number.isSafeInteger(d.seed) || d.seed < 0)
      throw fail('RangeError', `${what}.seed must be a non-negative safe integer, got ${d.seed}`);
    out.seed = d.seed;
  }
  out.training = checkBool(d.training, `${what}.training`);
  return out;
}

// Rethrows an error object returned by the raw bindings as a JS Error.
function unwrap(r) {
  if (r && typeof r === 'object' && typeof r.__error === 'string')
    throw fail(r.__error === 'Error' ? 'Error' : 'RangeError', r.message);
  return r;
}

function makeApi(raw) {
  const api = {
    /** Which instruction set the core was built for, e.g. "wasm-simd128". */
    simd: raw.simd(),
    /** Current size of the module's memory in bytes (for leak checks). */
    heapBytes: () => raw.heapBytes(),

    matrix(rows, cols, data) {
      checkCount(rows, 'rows');
      checkCount(cols, 'cols');
      if (data === undefined) return { rows, cols, data: new Float32Array(rows * cols) };
      const m = checkMatrix({ rows, cols, data }, 'matrix');
      return { rows, cols, data: Float32Array.from(m.data) };
    },
    matmul: (A, B) => unwrap(raw.matmul(checkMatrix(A, 'A'), checkMatrix(B, 'B'))),
    matmulBt: (A, B) => unwrap(raw.matmulBt(checkMatrix(A, 'A'), checkMatrix(B, 'B'))),
    transpose: (A) => unwrap(raw.transpose(checkMatrix(A, 'A'))),
    scores: (Q, K) => unwrap(raw.scores(checkMatrix(Q, 'Q'), checkMatrix(K, 'K'))),
    scale(S, factor) {
      if (typeof factor !== 'number') throw fail('TypeError', `factor must be a number, got ${typeof factor}`);
      return unwrap(raw.scale(checkMatrix(S, 'S'), factor));
    },
    causalMask: (Tq, Tk) => unwrap(raw.causalMask(checkCount(Tq, 'Tq'), checkCount(Tk, 'Tk'))),
    addMask: (S, M) => unwrap(raw.addMask(checkMatrix(S, 'S'), checkMatrix(M, 'mask'))),
    softmax(S, { axis = 'rows' } = {}) {
      if (axis !== 'rows' && axis !== 'cols')
        throw fail('TypeError', `axis must be 'rows' or 'cols', got ${String(axis)}`);
      return unwrap(raw.softmax(checkMatrix(S, 'S'), axis));
    },
    weightedSum: (P, V) => unwrap(raw.weightedSum(checkMatrix(P, 'P'), checkMatrix(V, 'V'))),
    dropout(P, { rate = 0, seed = 0 } = {}) {
      const d = checkDropout({ rate, seed }, 'dropout');
      return unwrap(raw.dropout(checkMatrix(P, 'P'), d.rate, d.seed));
    },
    attention(Q, K, V, options = {}) {
      if (options === null || typeof options !== 'object') throw fail('TypeError', 'options must be an object');
      const o = { causal: checkBool(options.causal, 'causal') };
      if (options.scale !== undefined && options.scale !== null) {
        if (typeof options.scale !== 'number') throw fail('TypeError', 'scale must be a number');
        o.scale = options.scale;
      }
      if (options.mask !== undefined && options.mask !== null) o.mask = checkMatrix(options.mask, 'mask');
      o.dropout = checkDropout(options.dropout, 'dropout');
      return unwrap(raw.attention(checkMatrix(Q, 'Q'), checkMatrix(K, 'K'), checkMatrix(V, 'V'), o));
    },
    splitHeads: (X, heads) => unwrap(raw.splitHeads(checkMatrix(X, 'X'), checkCount(heads, 'heads', { min: 1 }))),
    concatHeads(list) {
      if (!Array.isArray(list)) throw fail('TypeError', 'concatHeads expects an array of matrices');
      return unwrap(raw.concatHeads(list.map((m, i) => checkMatrix(m, `heads[${i}]`))));
    },
    multiHeadAttention(X, options) {
      if (options === null || typeof options !== 'object')
        throw fail('TypeError', 'options must be an object {Wq, Wk, Wv, Wo, heads, causal}');
      const o = {
        Wq: checkMatrix(options.Wq, 'Wq'),
        Wk: checkMatrix(options.Wk, 'Wk'),
        Wv: checkMatrix(options.Wv, 'Wv'),
        Wo: checkMatrix(options.Wo, 'Wo'),
        heads: checkCount(options.heads, 'heads', { min: 1 }),
        causal: checkBool(options.causal, 'causal'),
        dropout: checkDropout(options.dropout, 'dropout'),
      };
      return unwrap(raw.multiHeadAttention(checkMatrix(X, 'X'), o));
    },
    flashAttention(Q, K, V, options = {}) {
      if (options === null || typeof options !== 'object') throw fail('TypeError', 'options must be an object');
      const o = { causal: checkBool(options.causal, 'causal') };
      if (options.scale !== undefined && options.scale !== null) {
        if (typeof options.scale !== 'number') throw fail('TypeError', 'scale must be a number');
        o.scale = options.scale;
      }
      if (options.mask !== undefined && options.mask !== null) o.mask = checkMatrix(options.mask, 'mask');
      if (options.tile !== undefined && options.tile !== null) o.tile = checkCount(options.tile, 'tile', { min: 1 });
      return unwrap(raw.flashAttention(checkMatrix(Q, 'Q'), checkMatrix(K, 'K'), checkMatrix(V, 'V'), o));
    },
    attentionOutput(Q, K, V, options = {}) {
      if (options === null || typeof options !== 'object') throw fail('TypeError', 'options must be an object');
      const o = { causal: checkBool(options.causal, 'causal') };
      if (options.scale !== undefined && options.scale !== null) {
        if (typeof options.scale !== 'number') throw fail('TypeError', 'scale must be a number');
        o.scale = options.scale;
      }
      if (options.mask !== undefined && options.mask !== null) o.mask = checkMatrix(options.mask, 'mask');
      return unwrap(raw.attentionOutput(checkMatrix(Q, 'Q'), checkMatrix(K, 'K'), checkMatrix(V, 'V'), o));
    },
    memoryStats: () => raw.memoryStats(),
    resetPeakMemory: () => raw.resetPeakMemory(),
    profileAttention(Q, K, V, options = {}) {
      if (options === null || typeof options !== 'object') throw fail('TypeError', 'options must be an object');
      const { kernel = 'tiled' } = options;
      if (kernel !== 'plain' && kernel !== 'tiled')
        throw fail('TypeError', `kernel must be 'plain' or 'tiled', got ${String(kernel)}`);
      const o = { kernel, causal: checkBool(options.causal, 'causal') };
      if (options.tile !== undefined && options.tile !== null) o.tile = checkCount(options.tile, 'tile', { min: 1 });
      return unwrap(raw.profileAttention(checkMatrix(Q, 'Q'), checkMatrix(K, 'K'), checkMatrix(V, 'V'), o));
    },
    positionalEncoding: (T, d) =>
      unwrap(raw.positionalEncoding(checkCount(T, 'T'), checkCount(d, 'd', { min: 1 }))),
    cost(input) {
      if (input === null || typeof input !== 'object') throw fail('TypeError', 'cost expects an object');
      const { n, dModel, heads = 1, layers = 1, bytesPerElement = 4, tile = 128 } = input;
      return unwrap(raw.cost({
        n: checkCount(n, 'n', { min: 1 }),
        dModel: checkCount(dModel, 'dModel', { min: 1 }),
        heads: checkCount(heads, 'heads', { min: 1 }),
        layers: checkCount(layers, 'layers', { min: 1 }),
        bytesPerElement: checkCount(bytesPerElement, 'bytesPerElement', { min: 1 }),
        tile: checkCount(tile, 'tile', { min: 1 }),
      }));
    },
    random({ rows, cols, seed = 0, distribution = 'normal', mean = 0, std = 1, lo = 0, hi = 1 } = {}) {
      checkCount(rows, 'rows');
      checkCount(cols, 'cols');
      checkDropout({ seed }, 'random');
      if (distribution !== 'normal' && distribution !== 'uniform')
        throw fail('TypeError', `distribution must be 'normal' or 'uniform', got ${String(distribution)}`);
      for (const [k, v] of Object.entries({ mean, std, lo, hi }))
        if (typeof v !== 'number') throw fail('TypeError', `${k} must be a number`);
      return unwrap(raw.random({ rows, cols, seed, distribution, mean, std, lo, hi }));
    },
    example(name) {
      if (typeof name !== 'string') throw fail('TypeError', 'example name must be a string');
      return unwrap(raw.example(name));
    },
  };
  return Object.freeze(api);
}

/**
 * Loads the WebAssembly core and returns the API.
 * @param {object} [options] passed to the Emscripten loader (e.g. wasmBinary, locateFile).
 */
export default async function createAttention(options = {}) {
  const moduleArgs = { ...options };
  if (isNode && !moduleArgs.wasmBinary && !moduleArgs.locateFile && !moduleArgs.instantiateWasm) {
    const { readFile } = await import('node:fs/promises');
    moduleArgs.wasmBinary = await readFile(new URL('./attn-core.wasm', import.meta.url));
  }
  const raw = await createAttnCore(moduleArgs);
  return makeApi(raw);
}

export { createAttention };
