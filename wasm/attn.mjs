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
// Two builds of the core sit next to this file: attn-core.{mjs,wasm} (WebAssembly SIMD128
// kernels) and attn-core-scalar.{mjs,wasm} (plain loops, for engines without SIMD).
// createAttention() probes for SIMD and loads the one that runs; attn.simd says which.

const isNode = typeof process === 'object' && !!process.versions?.node && typeof window === 'undefined';

// The largest matrix the core allocates (attn::kMaxElements, core/include/attn/matrix.hpp).
export const MAX_ELEMENTS = 2 ** 28;
// model.train(steps): at most this many steps per call (the core's limit too).
export const MAX_TRAIN_STEPS = 100000;
// createModel's sizes: [key, min, max], the core's ranges.
const MODEL_RANGES = [['heads', 1, 16], ['layers', 1, 4], ['dModel', 1, 512], ['dK', 1, 512], ['dV', 0, 512],
  ['mlpHidden', 0, 2048], ['batch', 1, 1024], ['evalSize', 1, 4096]];
// Counts that are not matrix sizes (n in the cost model) are size_t in wasm32.
const MAX_COUNT = 2 ** 32 - 1;
// The tiled kernel's largest tile edge (attn::kMaxTile, core/include/attn/flash.hpp).
const MAX_TILE = 1024;

// A tiny module using one SIMD128 instruction (v128 result, i8x16.splat, i8x16.popcnt):
// engines without WebAssembly SIMD reject it.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0,
  65, 0, 253, 15, 253, 98, 11]);

/** True when this engine runs WebAssembly SIMD128. */
export function simdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

const FROM_CHECKS = Symbol('attn.check');

// Errors raised here carry `kind` like the core's ('TypeError' for a wrong type;
// 'ShapeError', 'ValueError', 'SizeError' for RangeErrors) and get the API function's
// name in front of their message.
function fail(kind, message) {
  const e = kind === 'TypeError' ? new TypeError(message) : new RangeError(message);
  e.kind = kind === 'RangeError' ? 'ValueError' : kind;
  e[FROM_CHECKS] = true;
  return e;
}

const describe = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : ArrayBuffer.isView(v) ? v.constructor.name
  : typeof v === 'number' ? String(v) : typeof v === 'string' ? `the string "${v.slice(0, 20)}"` : typeof v);

function checkCount(value, what, { min = 0, max = MAX_ELEMENTS } = {}) {
  if (typeof value !== 'number') throw fail('TypeError', `${what} must be a number, got ${describe(value)}`);
  if (!Number.isInteger(value) || value < min)
    throw fail('ValueError', `${what} must be an integer >= ${min}, got ${value}`);
  if (value > max) throw fail('SizeError', `${what} = ${value} is past the limit of ${max}`);
  return value;
}

function checkBool(value, what) {
  if (value !== undefined && typeof value !== 'boolean')
    throw fail('TypeError', `${what} must be true or false, got ${describe(value)}`);
  return value === true;
}

// undefined and null mean "no options"; anything else must be an object.
function checkOptions(o, what) {
  if (o === undefined || o === null) return {};
  if (typeof o !== 'object' || Array.isArray(o)) throw fail('TypeError', `${what} must be an object, got ${describe(o)}`);
  return o;
}

function checkMatrix(m, what) {
  if (m === null || typeof m !== 'object' || Array.isArray(m))
    throw fail('TypeError', `${what} must be a matrix {rows, cols, data}, got ${describe(m)}`);
  checkCount(m.rows, `${what}.rows`);
  checkCount(m.cols, `${what}.cols`);
  if (m.rows * m.cols > MAX_ELEMENTS)
    throw fail('SizeError', `${what} is ${m.rows}x${m.cols} = ${m.rows * m.cols} elements, more than the limit of ${MAX_ELEMENTS}`);
  const { data } = m;
  if (!(data instanceof Float32Array) && !(data instanceof Float64Array) && !Array.isArray(data))
    throw fail('TypeError', `${what}.data must be a Float32Array, a Float64Array or an array of numbers, got ${describe(data)}`);
  if (data.length !== m.rows * m.cols) {
    const detached = !Array.isArray(data) && data.length === 0 && data.buffer?.byteLength === 0 && m.rows * m.cols > 0;
    throw fail('ShapeError', detached
      ? `${what}.data is empty because its buffer was detached (transferred); a ${m.rows}x${m.cols} matrix needs ${m.rows * m.cols} values`
      : `${what}.data has ${data.length} values but a ${m.rows}x${m.cols} matrix needs ${m.rows * m.cols}`);
  }
  if (Array.isArray(data)) {
    for (let i = 0; i < data.length; i++)
      if (typeof data[i] !== 'number')
        throw fail('TypeError', `${what}.data[${i}] must be a number, got ${describe(data[i])}`);
  }
  return { rows: m.rows, cols: m.cols, data };
}

// {causal, scale, mask} as attention, flashAttention and attentionOutput take them.
function maskOptions(options) {
  const o = { causal: checkBool(options.causal, 'causal') };
  if (options.scale !== undefined && options.scale !== null) {
    if (typeof options.scale !== 'number') throw fail('TypeError', `scale must be a number, got ${describe(options.scale)}`);
    o.scale = options.scale;
  }
  if (options.mask !== undefined && options.mask !== null) o.mask = checkMatrix(options.mask, 'mask');
  return o;
}

function checkSeed(seed, what) {
  if (typeof seed !== 'number') throw fail('TypeError', `${what} must be a number, got ${describe(seed)}`);
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw fail('ValueError', `${what} must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}, got ${seed}`);
  return seed;
}

function checkRate(rate, what) {
  if (typeof rate !== 'number') throw fail('TypeError', `${what} must be a number, got ${describe(rate)}`);
  // The core works in float: 0.99999999 rounds to 1, which is not a rate.
  if (!(rate >= 0 && Math.fround(rate) < 1)) throw fail('ValueError', `${what} must be in [0, 1), got ${rate}`);
  return rate;
}

function checkDropout(d, what) {
  if (d === undefined || d === null) return undefined;
  if (typeof d !== 'object' || Array.isArray(d)) throw fail('TypeError', `${what} must be an object {rate, seed, training}, got ${describe(d)}`);
  const out = {};
  if (d.rate !== undefined) out.rate = checkRate(d.rate, `${what}.rate`);
  if (d.seed !== undefined) out.seed = checkSeed(d.seed, `${what}.seed`);
  out.training = checkBool(d.training, `${what}.training`);
  return out;
}

// A list of non-negative integers (a permutation, token flags).
function checkIndexList(list, what) {
  if (!Array.isArray(list)) throw fail('TypeError', `${what} must be an array of integers`);
  list.forEach((x, i) => {
    if (typeof x !== 'number') throw fail('TypeError', `${what}[${i}] must be a number, got ${typeof x}`);
    if (!Number.isInteger(x) || x < 0) throw fail('RangeError', `${what}[${i}] must be an integer >= 0, got ${x}`);
  });
  return list;
}

// A method whose failed checks name it ("attention: Q must be ...", "train: steps ...").
function named(name, f) {
  return function (...args) {
    try {
      return f.apply(this, args);
    } catch (e) {
      if (e && e[FROM_CHECKS]) {
        e.message = `${name}: ${e.message}`;
        delete e[FROM_CHECKS];
      }
      throw e;
    }
  };
}

// Rethrows an error object returned by the raw bindings as a RangeError whose `kind` is
// the core's error type (ShapeError, ValueError, SizeError; Error for anything else).
function unwrap(r) {
  if (r && typeof r === 'object' && typeof r.__error === 'string') {
    const e = new RangeError(r.message);
    e.kind = r.__error;
    throw e;
  }
  return r;
}

// Examples bound in wasm/inspect.cpp (the lecture chapters); the others in bindings.cpp.
const LECTURE_EXAMPLES = new Set(['weighted-sum', 'permutation', 'reading-heads']);
// Examples bound in wasm/heads.cpp (the chapters on heads, masking and dropout).
const HEADS_EXAMPLES = ['no-weights', 'projections', 'causal-dropout', 'multi-head', 'one-head'];

function checkNumber(value, what, { finite = true } = {}) {
  if (typeof value !== 'number') throw fail('TypeError', `${what} must be a number, got ${typeof value}`);
  if (finite && !Number.isFinite(value)) throw fail('RangeError', `${what} must be finite, got ${value}`);
  return value;
}

function checkAxis(options, fn) {
  const { axis = 'rows' } = checkOptions(options, `${fn} options`);
  if (axis !== 'rows' && axis !== 'cols') throw fail('TypeError', `axis must be 'rows' or 'cols', got ${String(axis)}`);
  return axis;
}

// Analysis helpers for the walkthroughs (core/include/attn/analysis.hpp): softmax parts
// and gradient, the q·k variance experiment, the effect of scaling, small reductions.
function analysisApi(raw) {
  return {
    rowSums: (M) => unwrap(raw.rowSums(checkMatrix(M, 'M'))),
    colSums: (M) => unwrap(raw.colSums(checkMatrix(M, 'M'))),
    rowMax: (M) => unwrap(raw.rowMax(checkMatrix(M, 'M'))),
    rowDots: (A, B) => unwrap(raw.rowDots(checkMatrix(A, 'A'), checkMatrix(B, 'B'))),
    rowNorms: (M) => unwrap(raw.rowNorms(checkMatrix(M, 'M'))),
    normalizeRows(M, norm = 1) {
      checkNumber(norm, 'norm');
      if (norm < 0) throw fail('RangeError', `norm must be >= 0, got ${norm}`);
      return unwrap(raw.normalizeRows(checkMatrix(M, 'M'), norm));
    },
    difference: (A, B) => unwrap(raw.difference(checkMatrix(A, 'A'), checkMatrix(B, 'B'))),
    diagonal: (M) => unwrap(raw.diagonal(checkMatrix(M, 'M'))),
    moments: (M) => unwrap(raw.moments(checkMatrix(M, 'M'))),
    histogram(M, options) {
      const { bins = 20, lo, hi } = checkOptions(options, 'histogram options');
      checkCount(bins, 'bins', { min: 1 });
      if (bins > 10000) throw fail('RangeError', `bins must be at most 10000, got ${bins}`);
      checkNumber(lo, 'lo');
      checkNumber(hi, 'hi');
      if (!(lo < hi)) throw fail('RangeError', `need lo < hi, got [${lo}, ${hi}]`);
      return unwrap(raw.histogram(checkMatrix(M, 'M'), bins, lo, hi));
    },
    dotGeometry: (a, b) => unwrap(raw.dotGeometry(checkMatrix(a, 'a'), checkMatrix(b, 'b'))),
    diagonalCheck(S, options) {
      const { relTol = 1e-6 } = checkOptions(options, 'diagonalCheck options');
      checkNumber(relTol, 'relTol');
      if (relTol < 0) throw fail('RangeError', `relTol must be >= 0, got ${relTol}`);
      return unwrap(raw.diagonalCheck(checkMatrix(S, 'S'), relTol));
    },
    softmaxParts: (S, options = {}) => unwrap(raw.softmaxParts(checkMatrix(S, 'S'), checkAxis(options, 'softmaxParts'))),
    softmaxJacobianDiag: (P) => unwrap(raw.softmaxJacobianDiag(checkMatrix(P, 'P'))),
    softmaxJacobian: (p) => unwrap(raw.softmaxJacobian(checkMatrix(p, 'p'))),
    scalingEffect(S, factor) {
      checkNumber(factor, 'factor');
      if (!(factor > 0)) throw fail('RangeError', `factor must be > 0, got ${factor}`);
      return unwrap(raw.scalingEffect(checkMatrix(S, 'S'), factor));
    },
    scoreScale: (dk) => unwrap(raw.scoreScale(checkCount(dk, 'dk', { min: 1 }))),
    sampleDotProducts(options) {
      const { dk, count = 2000, seed = 0 } = checkOptions(options, 'sampleDotProducts options');
      checkCount(dk, 'dk', { min: 1 });
      checkCount(count, 'count', { min: 1 });
      checkDropout({ seed }, 'sampleDotProducts');
      if (seed >= 2 ** 52) throw fail('RangeError', `seed must be below 2^52, got ${seed}`);
      if (dk * count > 2 ** 28) throw fail('RangeError', `dk x count = ${dk * count} exceeds 2^28 entries`);
      return unwrap(raw.sampleDotProducts(dk, count, seed));
    },
  };
}

function makeApi(raw) {
  // Frees a model whose handle was garbage-collected without dispose().
  const finalizer = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((id) => raw.modelDispose(id)) : null;
  const api = {
    /** Which instruction set the core was built for, e.g. "wasm-simd128". */
    simd: raw.simd(),
    /** Current size of the module's memory in bytes (for leak checks). */
    heapBytes: () => raw.heapBytes(),
    /** Memory in use: the heap's size, bytes allocated by malloc now, live Embind handles,
     *  and the core's own matrices and kernel buffers now and at their peak. */
    memoryStats: () => ({
      heapBytes: raw.heapBytes(),
      mallocBytes: raw.mallocBytes(),
      handles: typeof raw.count_emval_handles === 'function' ? raw.count_emval_handles() : 0,
      ...raw.memoryStats(),
    }),

    matrix(rows, cols, data) {
      checkCount(rows, 'rows');
      checkCount(cols, 'cols');
      if (rows * cols > MAX_ELEMENTS) throw fail('SizeError', `a ${rows}x${cols} matrix is more than the limit of ${MAX_ELEMENTS} elements`);
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
    softmax(S, options) {
      const { axis = 'rows' } = checkOptions(options, 'options');
      if (axis !== 'rows' && axis !== 'cols')
        throw fail('TypeError', `axis must be 'rows' or 'cols', got ${String(axis)}`);
      return unwrap(raw.softmax(checkMatrix(S, 'S'), axis));
    },
    weightedSum: (P, V) => unwrap(raw.weightedSum(checkMatrix(P, 'P'), checkMatrix(V, 'V'))),
    dropout(P, options) {
      const { rate = 0, seed = 0 } = checkOptions(options, 'options');
      const d = checkDropout({ rate, seed }, 'dropout');
      return unwrap(raw.dropout(checkMatrix(P, 'P'), d.rate, d.seed));
    },
    attention(Q, K, V, opts) {
      const options = checkOptions(opts, 'options');
      const o = maskOptions(options);
      o.dropout = checkDropout(options.dropout, 'dropout');
      return unwrap(raw.attention(checkMatrix(Q, 'Q'), checkMatrix(K, 'K'), checkMatrix(V, 'V'), o));
    },
    splitHeads: (X, heads) => unwrap(raw.splitHeads(checkMatrix(X, 'X'), checkCount(heads, 'heads', { min: 1 }))),
    concatHeads(list) {
      if (!Array.isArray(list)) throw fail('TypeError', 'expects an array of matrices');
      // Array.from visits holes too ([A, , B] names heads[1]), where map would skip them.
      return unwrap(raw.concatHeads(Array.from(list, (m, i) => checkMatrix(m, `heads[${i}]`))));
    },
    multiHeadAttention(X, options) {
      if (options === null || typeof options !== 'object' || Array.isArray(options))
        throw fail('TypeError', `options must be an object {Wq, Wk, Wv, Wo, heads, causal}, got ${describe(options)}`);
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
    flashAttention(Q, K, V, opts) {
      const options = checkOptions(opts, 'options');
      const o = maskOptions(options);
      if (options.tile !== undefined && options.tile !== null) o.tile = checkCount(options.tile, 'tile', { min: 1, max: MAX_TILE });
      return unwrap(raw.flashAttention(checkMatrix(Q, 'Q'), checkMatrix(K, 'K'), checkMatrix(V, 'V'), o));
    },
    attentionOutput(Q, K, V, opts) {
      const options = checkOptions(opts, 'options');
      const o = maskOptions(options);
      return unwrap(raw.attentionOutput(checkMatrix(Q, 'Q'), checkMatrix(K, 'K'), checkMatrix(V, 'V'), o));
    },
    resetPeakMemory: () => raw.resetPeakMemory(),
    profileAttention(Q, K, V, opts) {
      const options = checkOptions(opts, 'options');
      const { kernel = 'tiled' } = options;
      if (kernel !== 'plain' && kernel !== 'tiled')
        throw fail('TypeError', `kernel must be 'plain' or 'tiled', got ${describe(kernel)}`);
      const o = { kernel, causal: checkBool(options.causal, 'causal') };
      if (options.tile !== undefined && options.tile !== null) o.tile = checkCount(options.tile, 'tile', { min: 1, max: MAX_TILE });
      return unwrap(raw.profileAttention(checkMatrix(Q, 'Q'), checkMatrix(K, 'K'), checkMatrix(V, 'V'), o));
    },
    positionalEncoding(T, d) {
      checkCount(T, 'T');
      checkCount(d, 'd', { min: 1 });
      if (T * d > MAX_ELEMENTS) throw fail('SizeError', `a ${T}x${d} encoding is more than the limit of ${MAX_ELEMENTS} elements`);
      return unwrap(raw.positionalEncoding(T, d));
    },
    cost(input) {
      if (input === null || typeof input !== 'object' || Array.isArray(input))
        throw fail('TypeError', `expects an object {n, dModel, heads, layers, bytesPerElement, tile}, got ${describe(input)}`);
      const { n, dModel, heads = 1, layers = 1, bytesPerElement = 4, tile = 128 } = input;
      const count = { min: 1, max: MAX_COUNT };
      return unwrap(raw.cost({
        n: checkCount(n, 'n', count),
        dModel: checkCount(dModel, 'dModel', count),
        heads: checkCount(heads, 'heads', count),
        layers: checkCount(layers, 'layers', count),
        bytesPerElement: checkCount(bytesPerElement, 'bytesPerElement', count),
        tile: checkCount(tile, 'tile', count),
      }));
    },
    random(options) {
      if (options === null || typeof options !== 'object' || Array.isArray(options))
        throw fail('TypeError', `expects an object {rows, cols, seed, distribution, ...}, got ${describe(options)}`);
      const { rows, cols, seed = 0, distribution = 'normal', mean = 0, std = 1, lo = 0, hi = 1 } = options;
      checkCount(rows, 'rows');
      checkCount(cols, 'cols');
      if (rows * cols > MAX_ELEMENTS) throw fail('SizeError', `a ${rows}x${cols} matrix is more than the limit of ${MAX_ELEMENTS} elements`);
      checkSeed(seed, 'seed');
      if (distribution !== 'normal' && distribution !== 'uniform')
        throw fail('TypeError', `distribution must be 'normal' or 'uniform', got ${String(distribution)}`);
      for (const [k, v] of Object.entries({ mean, std, lo, hi }))
        if (typeof v !== 'number') throw fail('TypeError', `${k} must be a number`);
      return unwrap(raw.random({ rows, cols, seed, distribution, mean, std, lo, hi }));
    },
    example(name) {
      if (typeof name !== 'string') throw fail('TypeError', `example name must be a string, got ${describe(name)}`);
      if (LECTURE_EXAMPLES.has(name)) return unwrap(raw.lectureExample(name));
      if (typeof name !== 'string') throw fail('TypeError', 'example name must be a string');
      if (HEADS_EXAMPLES.includes(name)) return unwrap(raw.exampleHeads(name));
      return unwrap(raw.example(name));
    },

    // Reading an attention result (core/include/attn/inspect.hpp).
    // (rowSums, colSums: see analysisApi)
    rowArgmax: (M) => unwrap(raw.rowArgmax(checkMatrix(M, 'M'))),
    add: (A, B) => unwrap(raw.add(checkMatrix(A, 'A'), checkMatrix(B, 'B'))),
    permuteRows: (M, perm) => unwrap(raw.permuteRows(checkMatrix(M, 'M'), checkIndexList(perm, 'perm'))),
    maxAbsDiff: (A, B) => unwrap(raw.maxAbsDiff(checkMatrix(A, 'A'), checkMatrix(B, 'B'))),
    normalizeWeights: (W) => unwrap(raw.normalizeWeights(checkMatrix(W, 'W'))),
    columnRange: (M) => unwrap(raw.columnRange(checkMatrix(M, 'M'))),
    convexHull: (points) => unwrap(raw.convexHull(checkMatrix(points, 'points'))),
    hullDistance: (p, points) => unwrap(raw.hullDistance(checkMatrix(p, 'p'), checkMatrix(points, 'points'))),
    sinusoidAngles: (T, d) => unwrap(raw.sinusoidAngles(checkCount(T, 'T'), checkCount(d, 'd', { min: 1 }))),
    // The toy recurrent state h_t = r h_{t-1} + (1 - r) x_t (core/include/attn/recurrent.hpp).
    recurrentScan(X, retention) {
      if (typeof retention !== 'number') throw fail('TypeError', `retention must be a number, got ${typeof retention}`);
      return unwrap(raw.recurrentScan(checkMatrix(X, 'X'), retention));
    },
    // Constructed heads (core/include/attn/reading.hpp).
    tokenFeatures: (flags) => unwrap(raw.tokenFeatures(checkIndexList(flags, 'flags'))),
    constructedHead(kind, T, strength = 4) {
      if (typeof kind !== 'string') throw fail('TypeError', `kind must be a string, got ${typeof kind}`);
      if (typeof strength !== 'number') throw fail('TypeError', `strength must be a number, got ${typeof strength}`);
      return unwrap(raw.constructedHead(kind, checkCount(T, 'T', { min: 1 }), strength));
    },
    // ---- live training (core/include/attn/model.hpp) ----------------------------------
    /** A toy task of the training chapter: vocabulary, lengths, probe sequence, labels. */
    task(name) {
      if (typeof name !== 'string') throw fail('TypeError', `task name must be a string, got ${typeof name}`);
      return unwrap(raw.task(name));
    },
    /**
     * A tiny Transformer and its Adam optimiser, living inside the module. Returns a plain
     * object: train(steps), evaluate(), probe(tokens), dispose(). No Embind object is
     * handed out; the handle holds only the model's id.
     */
    createModel(config = {}) {
      if (config === null || typeof config !== 'object' || Array.isArray(config))
        throw fail('TypeError', `expects an object, got ${describe(config)}`);
      const c = { ...MODEL_DEFAULTS, ...config };
      if (typeof c.task !== 'string') throw fail('TypeError', `task must be a string, got ${typeof c.task}`);
      checkSeed(c.seed, 'seed');
      // the core's ranges (core/src/model.cpp), checked here so the message names them
      for (const [k, min, max] of MODEL_RANGES) checkCount(c[k], k, { min, max });
      for (const k of ['positional', 'scale'])
        if (typeof c[k] !== 'boolean') throw fail('TypeError', `${k} must be true or false, got ${typeof c[k]}`);
      checkRate(c.dropout, 'dropout');
      if (typeof c.lr !== 'number') throw fail('TypeError', `lr must be a number, got ${describe(c.lr)}`);
      if (!(Math.fround(c.lr) > 0 && c.lr <= 10)) // the core works in float: 1e-300 is 0 there
        throw fail('ValueError', `lr (the learning rate) must be in (0, 10] (and at least ~1.4e-45), got ${c.lr}`);
      const r = unwrap(raw.modelCreate({
        task: c.task, seed: c.seed, heads: c.heads, layers: c.layers, dModel: c.dModel, dK: c.dK, dV: c.dV,
        mlpHidden: c.mlpHidden, positional: c.positional, scale: c.scale, dropout: c.dropout, lr: c.lr,
        batch: c.batch, evalSize: c.evalSize,
      }));
      const { id } = r;
      let disposed = false;
      const alive = () => {
        if (disposed) throw new Error(`model ${id} was disposed: create a new one with createModel()`);
      };
      const handle = {
        id,
        config: Object.freeze(r.config),
        task: Object.freeze(r.task),
        parameters: r.parameters,
        /** Runs `steps` Adam steps; per-step loss, batch accuracy and gradient norms. */
        train(steps = 1) {
          alive();
          return unwrap(raw.modelTrain(id, checkCount(steps, 'steps', { min: 1, max: MAX_TRAIN_STEPS })));
        },
        /** Loss and accuracy on the task's held-out sequences. */
        evaluate() {
          alive();
          return unwrap(raw.modelEvaluate(id));
        },
        /** Every head's weights and the predictions on one sequence of token ids. */
        probe(tokens) {
          alive();
          if (!Array.isArray(tokens) && !(ArrayBuffer.isView(tokens) && !(tokens instanceof DataView)))
            throw fail('TypeError', `expects an array of token ids, got ${describe(tokens)}`);
          const t = r.task;
          if (tokens.length < t.minLen || tokens.length > t.maxLen)
            throw fail('ValueError', `${t.name} takes ${t.minLen} to ${t.maxLen} tokens, got ${tokens.length}`);
          for (let i = 0; i < tokens.length; i++) {
            const x = tokens[i];
            if (typeof x !== 'number') throw fail('TypeError', `token ${i + 1} must be a number, got ${describe(x)}`);
            if (!Number.isInteger(x) || x < 0 || x >= t.vocabIn)
              throw fail('ValueError', `token ${i + 1} is ${x}; tokens are 0..${t.vocabIn - 1}`);
          }
          return unwrap(raw.modelProbe(id, Array.from(tokens)));
        },
        /** Frees the model in the module; later calls throw. Safe to call twice. */
        dispose() {
          if (disposed) return;
          disposed = true;
          finalizer?.unregister(handle);
          raw.modelDispose(id);
        },
        get disposed() {
          return disposed;
        },
      };
      for (const name of ['train', 'evaluate', 'probe']) handle[name] = named(name, handle[name]);
      finalizer?.register(handle, id, handle);
      return Object.freeze(handle);
    },
    /** How many models are alive in the module (for leak checks). */
    liveModels: () => raw.modelCount(),
    ...analysisApi(raw),
  };
  for (const [name, f] of Object.entries(api)) if (typeof f === 'function') api[name] = named(name, f);
  return Object.freeze(api);
}

// createModel's defaults: the training chapter's default configuration.
export const MODEL_DEFAULTS = Object.freeze({
  task: 'previous-token', seed: 1, heads: 1, layers: 1, dModel: 32, dK: 64, dV: 0, mlpHidden: 0,
  positional: true, scale: true, dropout: 0, lr: 0.01, batch: 32, evalSize: 256,
});

/**
 * Loads the WebAssembly core and returns the API.
 * @param {object} [options]
 *   simd: 'auto' (default: SIMD128 when the engine has it, else the scalar build),
 *         true (SIMD build; fails without SIMD) or false (scalar build);
 *   other keys go to the Emscripten loader (e.g. wasmBinary, locateFile).
 */
export default async function createAttention(options = {}) {
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new TypeError(`createAttention: options must be an object, got ${describe(options)}`);
  const { simd = 'auto', ...moduleArgs } = options;
  if (simd !== 'auto' && simd !== true && simd !== false)
    throw new TypeError(`createAttention: simd must be 'auto', true or false, got ${describe(simd)}`);
  const useSimd = simd === 'auto' ? simdSupported() : simd;
  if (simd === true && !simdSupported())
    throw new Error('createAttention: this engine has no WebAssembly SIMD; use {simd: false} or the default \'auto\'');
  const file = useSimd ? 'attn-core' : 'attn-core-scalar';
  const { default: createAttnCore } = useSimd ? await import('./attn-core.mjs') : await import('./attn-core-scalar.mjs');
  if (isNode && !moduleArgs.wasmBinary && !moduleArgs.locateFile && !moduleArgs.instantiateWasm) {
    const { readFile } = await import('node:fs/promises');
    moduleArgs.wasmBinary = await readFile(new URL(`./${file}.wasm`, import.meta.url));
  }
  const raw = await createAttnCore(moduleArgs);
  return makeApi(raw);
}

export { createAttention };
