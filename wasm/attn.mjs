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
// How the API is made: most functions are one row of SIGNATURES below (their parameters,
// each with an argument kind), turned into a function by one generic wrapper (binding):
// it checks each argument with its kind and calls the raw function of the same name
// (wasm/<header>.cpp binds it, one line per function), which crosses the wire (connect()
// below) and rethrows a core error as a RangeError. The core's limits (matrix size, tile, model ranges...) are read from the
// module, not copied here. A few functions are written out: matrix() (no core call),
// memoryStats() and createModel() (a handle object). tests/wasm/api.test.mjs keeps
// attn.d.ts equal to what this returns.
//
// Works unchanged in browsers, workers and Node >= 20: in Node the wasm bytes are read
// from the file next to this module and handed to the Emscripten loader.
// The builds of the core sit next to this file: attn-core.{mjs,wasm} (WebAssembly SIMD128
// kernels), attn-core-relaxed.wasm (the same, its matrix products multiply-adding with
// relaxed SIMD's f32x4.relaxed_madd), the -lite variants of both (no trainer), and
// attn-core-scalar.{mjs,wasm} (plain loops, for engines without SIMD).
// createAttention() probes for relaxed SIMD and SIMD and loads one that runs; attn.simd says which.

const isNode = typeof process === 'object' && !!process.versions?.node && typeof window === 'undefined';

// The largest matrix the core allocates (attn::kMaxElements, core/include/attn/matrix.hpp),
// and the most steps one model.train() call runs: the module exports both (MAX_ELEMENTS,
// MAX_TRAIN_STEPS); they are here too so a page can read them before the module loads, and
// createAttention() refuses a module that disagrees.
export const MAX_ELEMENTS = 2 ** 28;
export const MAX_TRAIN_STEPS = 100000;

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

// A tiny module using one relaxed-SIMD instruction (three i32x4.splat, f32x4.relaxed_madd,
// standard opcode 0xFD 0x85 0x02): engines without relaxed SIMD reject it.
const RELAXED_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 19, 1, 17, 0,
  65, 0, 253, 17, 65, 0, 253, 17, 65, 0, 253, 17, 253, 133, 2, 11]);

/** True when this engine runs WebAssembly relaxed SIMD (Chromium; Node 20 behind --experimental-wasm-relaxed-simd). */
export function relaxedSimdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(RELAXED_PROBE);
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

// A method whose failed checks name it ("attention: Q must be ...", "train: steps ...").
function named(name, f, length = f.length) {
  const g = function (...args) {
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
  Object.defineProperty(g, 'length', { value: length });
  return g;
}

// A kind that gives several raw arguments (an array of them) from one public argument.
function spreading(kind) {
  kind.spreads = true;
  return kind;
}

// ---- the wire (wasm/bind.hpp, wasm/wire.cpp) ------------------------------------------------------
//
// Every call into the core crosses as two streams of float64 words in wasm memory, not as
// JS objects handed to C++: the arguments (already checked here) are encoded into one
// preallocated buffer, each matrix's data copied once into another (C++ reads views of
// it), and the result comes back as a stream whose matrices point at the result's own
// storage; it is decoded into plain objects with fresh Float32Array copies and released.
// The tags and the format are described in wasm/bind.hpp (enum Tag).
const WIRE = { undefined: 0, false: 1, true: 2, number: 3, string: 4, array: 5, object: 6, matrix: 7, float32: 8, error: 9 };

// A checked matrix argument (checkMatrix returns these): the encoder copies its data.
class Mat {
  constructor(rows, cols, data) {
    this.rows = rows;
    this.cols = cols;
    this.data = data;
  }
}

// ignoreBOM: a U+FEFF at the start of a string is a character of it (the text model's
// chars are decoded one by one), not a byte-order mark to drop.
const utf8 = typeof TextDecoder === 'function' ? new TextDecoder('utf-8', { ignoreBOM: true }) : null;

// raw[INTO](array): the next call's result matrix is copied into this Float32Array (its
// length checked by the caller) instead of a fresh one (flashAttention's `out` option).
const INTO = Symbol('attn.into');

// Connects to a loaded module: returns {name: function} for every function the module
// binds (each takes the raw arguments in order and returns the decoded result, or throws
// a RangeError with the core's `kind`) and {NAME: number} for its constants.
function connect(module) {
  let W = new Float64Array(4096); // the argument stream, built here, then copied in one set()
  let n = 0; // words used
  let floats = 0; // floats of matrix data so far (each matrix 64-byte aligned)
  const copies = []; // data, offset, data, offset...
  let busy = false;
  let pending = null; // raw[INTO]'s array, until the next call starts
  let target = null; // where this call's result matrix goes (null: a fresh Float32Array)

  const room = (k) => {
    if (n + k <= W.length) return;
    const w = new Float64Array(Math.max(2 * W.length, n + k));
    w.set(W);
    W = w;
  };
  function put(v) {
    switch (typeof v) {
      case 'number':
        room(2);
        W[n++] = WIRE.number;
        W[n++] = v;
        return;
      case 'boolean':
        room(1);
        W[n++] = v ? WIRE.true : WIRE.false;
        return;
      case 'string':
        room(2 + v.length);
        W[n++] = WIRE.string;
        W[n++] = v.length;
        for (let i = 0; i < v.length; i++) W[n++] = v.charCodeAt(i);
        return;
      case 'object': {
        if (v === null) break;
        if (v instanceof Mat) {
          room(4);
          W[n++] = WIRE.matrix;
          W[n++] = v.rows;
          W[n++] = v.cols;
          W[n++] = floats;
          copies.push(v.data, floats);
          floats += Math.ceil((v.rows * v.cols) / 16) * 16;
          return;
        }
        room(3);
        const at = n;
        n += 3;
        let count = 0;
        if (Array.isArray(v)) {
          W[at] = WIRE.array;
          for (let i = 0; i < v.length; i++) put(v[i]);
          count = v.length;
        } else {
          W[at] = WIRE.object;
          for (const key in v) {
            const x = v[key];
            if (x === undefined || !Object.hasOwn(v, key)) continue;
            room(1 + key.length);
            W[n++] = key.length;
            for (let i = 0; i < key.length; i++) W[n++] = key.charCodeAt(i);
            put(x);
            count++;
          }
        }
        W[at + 1] = count;
        W[at + 2] = n - at - 3;
        return;
      }
      default:
    }
    room(1);
    W[n++] = WIRE.undefined;
  }

  // Decoding the result stream.
  let H, F, U8, bytes, i = 0, keys = [];
  function text(at, len) {
    let ascii = len <= 64;
    for (let k = 0; ascii && k < len; k++) ascii = U8[at + k] < 128;
    if (ascii) {
      let t = '';
      for (let k = 0; k < len; k++) t += String.fromCharCode(U8[at + k]);
      return t;
    }
    return utf8.decode(U8.subarray(at, at + len));
  }
  function value() {
    switch (H[i++]) {
      case WIRE.number: return H[i++];
      case WIRE.matrix: {
        const rows = H[i++], cols = H[i++], at = H[i++] / 4;
        if (target !== null && target.length === rows * cols) {
          const data = target;
          target = null;
          data.set(F.subarray(at, at + rows * cols));
          return { rows, cols, data };
        }
        return { rows, cols, data: F.slice(at, at + rows * cols) };
      }
      case WIRE.object: {
        const count = H[i++], o = {};
        for (let k = 0; k < count; k++) {
          const key = keys[H[i++]];
          o[key] = value();
        }
        return o;
      }
      case WIRE.array: {
        const count = H[i++], a = [];
        for (let k = 0; k < count; k++) a.push(value());
        return a;
      }
      case WIRE.float32: {
        const len = H[i++], at = H[i++] / 4;
        return F.slice(at, at + len);
      }
      case WIRE.string: {
        const len = H[i++], at = H[i++];
        return text(bytes + at, len);
      }
      case WIRE.true: return true;
      case WIRE.false: return false;
      case WIRE.error: {
        const kind = value();
        const e = new RangeError(value());
        e.kind = kind;
        throw e;
      }
      default: return undefined;
    }
  }
  function decode(address) {
    H = module.HEAPF64;
    F = module.HEAPF32;
    U8 = module.HEAPU8;
    i = address / 8;
    bytes = H[i++];
    return value();
  }

  // Runs function id on the arguments put() has encoded since start().
  function start(count) {
    const into = pending;
    pending = null;
    if (busy) throw new Error('attn: a call into the core started while another was reading its arguments (from a getter?)');
    busy = true;
    target = into;
    n = 3;
    floats = 0;
    W[0] = WIRE.array;
    W[1] = count;
  }
  function finish(id) {
    try {
      W[2] = n - 3;
      const where = module._attn_args(n, floats);
      if (!where) throw Object.assign(new RangeError('out of memory: the WebAssembly module could not allocate the arguments'), { kind: 'SizeError' });
      const H64 = module.HEAPF64;
      const words = H64[where / 8], data = H64[where / 8 + 1] / 4;
      H64.set(n === W.length ? W : W.subarray(0, n), words / 8);
      const F32 = module.HEAPF32;
      for (let k = 0; k < copies.length; k += 2) F32.set(copies[k], data + copies[k + 1]);
      copies.length = 0;
      try {
        return decode(module._attn_call(id));
      } finally {
        module._attn_release();
      }
    } finally {
      copies.length = 0;
      busy = false;
      target = null;
    }
  }
  // A put() that throws (a getter in the input) leaves nothing half-done behind.
  function abandon(e) {
    copies.length = 0;
    busy = false;
    target = null;
    throw e;
  }
  // One function per arity, so a call builds no argument array (the page calls attention()
  // on every edit); more than four arguments go through an array.
  function caller(id, arity) {
    switch (arity) {
      case 0: return () => (start(0), finish(id));
      case 1: return (a) => {
        start(1);
        try { put(a); } catch (e) { abandon(e); }
        return finish(id);
      };
      case 2: return (a, b) => {
        start(2);
        try { put(a); put(b); } catch (e) { abandon(e); }
        return finish(id);
      };
      case 3: return (a, b, c) => {
        start(3);
        try { put(a); put(b); put(c); } catch (e) { abandon(e); }
        return finish(id);
      };
      case 4: return (a, b, c, d) => {
        start(4);
        try { put(a); put(b); put(c); put(d); } catch (e) { abandon(e); }
        return finish(id);
      };
      default: return (...args) => {
        start(args.length);
        try { args.forEach(put); } catch (e) { abandon(e); }
        return finish(id);
      };
    }
  }

  const [functions, keyNames, constants] = decode(module._attn_describe());
  module._attn_release();
  keys = keyNames;
  const raw = {};
  functions.forEach(([name, arity], id) => (raw[name] = caller(id, arity)));
  for (const [name, v] of constants) raw[name] = v;
  raw[INTO] = (array) => (pending = array);
  return raw;
}

// The core's limits, as the module exports them (wasm/matrix.cpp, flash.cpp, inspect.cpp, model.cpp).
function limitsOf(raw) {
  const L = {
    maxElements: raw.MAX_ELEMENTS,
    maxCount: raw.MAX_COUNT,
    maxTile: raw.MAX_TILE,
    maxBins: raw.MAX_HISTOGRAM_BINS,
    maxTrainSteps: raw.MAX_TRAIN_STEPS,
    maxLr: raw.MODEL_MAX_lr,
    // createModel's sizes: [key, min, max], in the order the module lists them.
    modelRanges: Object.keys(raw).filter((k) => k.startsWith('MODEL_MIN_')).map((k) => {
      const key = k.slice('MODEL_MIN_'.length);
      return [key, raw[k], raw[`MODEL_MAX_${key}`]];
    }),
  };
  for (const [k, v] of Object.entries(L))
    if (v === undefined || (Array.isArray(v) && v.length === 0)) throw new Error(`attn.mjs: the module exports no limit for ${k}`);
  if (L.maxElements !== MAX_ELEMENTS || L.maxTrainSteps !== MAX_TRAIN_STEPS)
    throw new Error('attn.mjs: MAX_ELEMENTS or MAX_TRAIN_STEPS differ from the module\'s; rebuild both together');
  return L;
}

// ---- argument checks -------------------------------------------------------------------------

// The checks every kind is made of; L holds the module's limits.
function checks(L) {
  function checkCount(value, what, { min = 0, max = L.maxElements } = {}) {
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

  // An object that must be there: {what} names its keys in the message.
  function checkObject(o, message) {
    if (o === null || typeof o !== 'object' || Array.isArray(o)) throw fail('TypeError', `${message}, got ${describe(o)}`);
    return o;
  }

  function checkMatrix(m, what) {
    if (m === null || typeof m !== 'object' || Array.isArray(m))
      throw fail('TypeError', `${what} must be a matrix {rows, cols, data}, got ${describe(m)}`);
    checkCount(m.rows, `${what}.rows`);
    checkCount(m.cols, `${what}.cols`);
    if (m.rows * m.cols > L.maxElements)
      throw fail('SizeError', `${what} is ${m.rows}x${m.cols} = ${m.rows * m.cols} elements, more than the limit of ${L.maxElements}`);
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
    return new Mat(m.rows, m.cols, data);
  }

  function checkNumber(value, what, { finite = true } = {}) {
    if (typeof value !== 'number') throw fail('TypeError', `${what} must be a number, got ${typeof value}`);
    if (finite && !Number.isFinite(value)) throw fail('RangeError', `${what} must be finite, got ${value}`);
    return value;
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

  const tile = (t) => checkCount(t, 'tile', { min: 1, max: L.maxTile });

  // The argument kinds of SIGNATURES: each takes (value, label) and returns what the raw
  // function takes there (a spreading kind: an array of several raw arguments), or throws.
  const kinds = {
    matrix: checkMatrix,
    matrices(list) {
      if (!Array.isArray(list)) throw fail('TypeError', 'expects an array of matrices');
      // Array.from visits holes too ([A, , B] names heads[1]), where map would skip them.
      return Array.from(list, (m, i) => checkMatrix(m, `heads[${i}]`));
    },
    count: (v, what) => checkCount(v, what),
    positive: (v, what) => checkCount(v, what, { min: 1 }),
    number(v, what) {
      if (typeof v !== 'number') throw fail('TypeError', `${what} must be a number, got ${typeof v}`);
      return v;
    },
    nonNegative(v, what) {
      checkNumber(v, what);
      if (v < 0) throw fail('RangeError', `${what} must be >= 0, got ${v}`);
      return v;
    },
    positiveNumber(v, what) {
      checkNumber(v, what);
      if (!(v > 0)) throw fail('RangeError', `${what} must be > 0, got ${v}`);
      return v;
    },
    string(v, what) {
      if (typeof v !== 'string') throw fail('TypeError', `${what} must be a string, got ${typeof v}`);
      return v;
    },
    indices: checkIndexList,
    // a list of finite numbers (e.g. one value per token)
    numbers(list, what) {
      if (!Array.isArray(list)) throw fail('TypeError', `${what} must be an array of numbers`);
      return Array.from(list, (x, i) => checkNumber(x, `${what}[${i}]`));
    },
    // {axis: 'rows' | 'cols'} -> the axis
    axis(options, what) {
      const { axis = 'rows' } = checkOptions(options, what);
      if (axis !== 'rows' && axis !== 'cols') throw fail('TypeError', `axis must be 'rows' or 'cols', got ${String(axis)}`);
      return axis;
    },
    maskOptions: (options, what) => maskOptions(checkOptions(options, what)),
    attentionOptions(opts, what) {
      const options = checkOptions(opts, what);
      const o = maskOptions(options);
      o.dropout = checkDropout(options.dropout, 'dropout');
      return o;
    },
    flashOptions(opts, what) {
      const options = checkOptions(opts, what);
      const o = maskOptions(options);
      if (options.tile !== undefined && options.tile !== null) o.tile = tile(options.tile);
      return o;
    },
    profileOptions(opts, what) {
      const options = checkOptions(opts, what);
      const { kernel = 'tiled' } = options;
      if (kernel !== 'plain' && kernel !== 'tiled')
        throw fail('TypeError', `kernel must be 'plain' or 'tiled', got ${describe(kernel)}`);
      const o = { kernel, causal: checkBool(options.causal, 'causal') };
      if (options.tile !== undefined && options.tile !== null) o.tile = tile(options.tile);
      return o;
    },
    // dropout(P, {rate, seed}) -> (rate, seed)
    rateAndSeed: spreading((options, what) => {
      const { rate = 0, seed = 0 } = checkOptions(options, what);
      const d = checkDropout({ rate, seed }, 'dropout');
      return [d.rate, d.seed];
    }),
    multiHeadOptions(options, what) {
      checkObject(options, `${what} must be an object {Wq, Wk, Wv, Wo, heads, causal}`);
      return {
        Wq: checkMatrix(options.Wq, 'Wq'),
        Wk: checkMatrix(options.Wk, 'Wk'),
        Wv: checkMatrix(options.Wv, 'Wv'),
        Wo: checkMatrix(options.Wo, 'Wo'),
        heads: checkCount(options.heads, 'heads', { min: 1 }),
        causal: checkBool(options.causal, 'causal'),
        dropout: checkDropout(options.dropout, 'dropout'),
      };
    },
    costInput(input) {
      checkObject(input, 'expects an object {n, dModel, heads, layers, bytesPerElement, tile}');
      const { n, dModel, heads = 1, layers = 1, bytesPerElement = 4, tile: t = 128 } = input;
      const count = { min: 1, max: L.maxCount };
      return {
        n: checkCount(n, 'n', count),
        dModel: checkCount(dModel, 'dModel', count),
        heads: checkCount(heads, 'heads', count),
        layers: checkCount(layers, 'layers', count),
        bytesPerElement: checkCount(bytesPerElement, 'bytesPerElement', count),
        tile: checkCount(t, 'tile', count),
      };
    },
    randomOptions(options) {
      checkObject(options, 'expects an object {rows, cols, seed, distribution, ...}');
      const { rows, cols, seed = 0, distribution = 'normal', mean = 0, std = 1, lo = 0, hi = 1 } = options;
      checkCount(rows, 'rows');
      checkCount(cols, 'cols');
      if (rows * cols > L.maxElements) throw fail('SizeError', `a ${rows}x${cols} matrix is more than the limit of ${L.maxElements} elements`);
      checkSeed(seed, 'seed');
      if (distribution !== 'normal' && distribution !== 'uniform')
        throw fail('TypeError', `distribution must be 'normal' or 'uniform', got ${String(distribution)}`);
      for (const [k, v] of Object.entries({ mean, std, lo, hi }))
        if (typeof v !== 'number') throw fail('TypeError', `${k} must be a number`);
      return { rows, cols, seed, distribution, mean, std, lo, hi };
    },
    // histogram(M, {bins, lo, hi}) -> (bins, lo, hi)
    histogramOptions: spreading((options, what) => {
      const { bins = 20, lo, hi } = checkOptions(options, what);
      checkCount(bins, 'bins', { min: 1 });
      if (bins > L.maxBins) throw fail('RangeError', `bins must be at most ${L.maxBins}, got ${bins}`);
      checkNumber(lo, 'lo');
      checkNumber(hi, 'hi');
      if (!(lo < hi)) throw fail('RangeError', `need lo < hi, got [${lo}, ${hi}]`);
      return [bins, lo, hi];
    }),
    // diagonalCheck(S, {relTol}) -> relTol
    relTol(options, what) {
      const { relTol = 1e-6 } = checkOptions(options, what);
      checkNumber(relTol, 'relTol');
      if (relTol < 0) throw fail('RangeError', `relTol must be >= 0, got ${relTol}`);
      return relTol;
    },
    // sampleDotProducts({dk, count, seed, first}) -> (dk, count, seed, first)
    sampleOptions: spreading((options, what) => {
      const { dk, count = 2000, seed = 0, first = 0 } = checkOptions(options, what);
      checkCount(dk, 'dk', { min: 1 });
      checkCount(count, 'count', { min: 1 });
      checkCount(first, 'first');
      if (first + count > L.maxElements) throw fail('RangeError', `first + count = ${first + count} exceeds ${L.maxElements} pairs`);
      checkDropout({ seed }, 'sampleDotProducts');
      // 2·seed + 1 must stay exact in a double on its way to the core.
      if (seed >= 2 ** 52) throw fail('RangeError', `seed must be below 2^52, got ${seed}`);
      if (dk * count > L.maxElements) throw fail('RangeError', `dk x count = ${dk * count} exceeds ${L.maxElements} entries`);
      return [dk, count, seed, first];
    }),
  };
  return { kinds, checkCount, checkMatrix, checkSeed, checkRate };
}

// ---- the functions that are one binding each ---------------------------------------------------
//
// name: its parameters, 'label: kind' or 'label: kind = default' (JSON). The label names the
// argument in error messages; the kind checks it (see checks() above). The raw function of
// the same name is bound in wasm/<header>.cpp; adding a function is one line here, one line
// there and its entry in attn.d.ts.
const SIGNATURES = {
  // linalg.hpp
  matmul: ['A: matrix', 'B: matrix'],
  matmulBt: ['A: matrix', 'B: matrix'],
  transpose: ['A: matrix'],
  // attention.hpp
  scores: ['Q: matrix', 'K: matrix'],
  scale: ['S: matrix', 'factor: number'],
  causalMask: ['Tq: count', 'Tk: count'],
  addMask: ['S: matrix', 'mask: matrix'],
  softmax: ['S: matrix', 'options: axis'],
  weightedSum: ['P: matrix', 'V: matrix'],
  attention: ['Q: matrix', 'K: matrix', 'V: matrix', 'options: attentionOptions'],
  attentionOutput: ['Q: matrix', 'K: matrix', 'V: matrix', 'options: maskOptions'],
  // flash.hpp
  flashAttention: ['Q: matrix', 'K: matrix', 'V: matrix', 'options: flashOptions'],
  // dropout.hpp
  dropout: ['P: matrix', 'options: rateAndSeed'],
  // multihead.hpp
  splitHeads: ['X: matrix', 'heads: positive'],
  concatHeads: ['list: matrices'],
  multiHeadAttention: ['X: matrix', 'options: multiHeadOptions'],
  // positional.hpp
  positionalEncoding: ['T: count', 'd: positive'],
  sinusoidAngles: ['T: count', 'd: positive'],
  // cost.hpp
  cost: ['input: costInput'],
  // random.hpp
  random: ['options: randomOptions'],
  // memory.hpp
  heapBytes: [],
  resetPeakMemory: [],
  profileAttention: ['Q: matrix', 'K: matrix', 'V: matrix', 'options: profileOptions'],
  // examples.hpp
  example: ['example name: string'],
  // inspect.hpp
  rowSums: ['M: matrix'],
  colSums: ['M: matrix'],
  rowMax: ['M: matrix'],
  rowArgmax: ['M: matrix'],
  rowDots: ['A: matrix', 'B: matrix'],
  rowNorms: ['M: matrix'],
  normalizeRows: ['M: matrix', 'norm: nonNegative = 1'],
  normalizeWeights: ['W: matrix'],
  difference: ['A: matrix', 'B: matrix'],
  add: ['A: matrix', 'B: matrix'],
  maxAbsDiff: ['A: matrix', 'B: matrix'],
  diagonal: ['M: matrix'],
  permuteRows: ['M: matrix', 'perm: indices'],
  columnRange: ['M: matrix'],
  moments: ['M: matrix'],
  histogram: ['M: matrix', 'histogram options: histogramOptions'],
  dotGeometry: ['a: matrix', 'b: matrix'],
  convexHull: ['points: matrix'],
  hullDistance: ['p: matrix', 'points: matrix'],
  diagonalCheck: ['S: matrix', 'diagonalCheck options: relTol'],
  softmaxParts: ['S: matrix', 'softmaxParts options: axis'],
  softmaxJacobianDiag: ['P: matrix'],
  scalingEffect: ['S: matrix', 'factor: positiveNumber'],
  scoreScale: ['dk: positive'],
  sampleDotProducts: ['sampleDotProducts options: sampleOptions'],
  // grad.hpp
  softmaxJacobian: ['p: matrix'],
  // recurrent.hpp: the toy recurrent state h_t = r h_{t-1} + (1 - r) x_t
  recurrentScan: ['X: matrix', 'retention: number'],
  // reading.hpp: constructed heads
  tokenFeatures: ['flags: indices'],
  constructedHead: ['kind: string', 'T: positive', 'strength: number = 4'],
  // heads.hpp: views of a text model's attention (the trained-heads chapter)
  groupByCharacter: ['P: matrix', 'group: indices'],
  normWeights: ['P: matrix', 'valueNorm: numbers'],
  weightNormDistance: ['P: matrix', 'N: matrix'],
  // model.hpp
  task: ['task name: string'],
  liveModels: [],
};

// The one generic wrapper: a public function from its row of SIGNATURES.
function binding(raw, name, params, kinds) {
  const fn = raw[name];
  if (typeof fn !== 'function') throw new Error(`attn.mjs: the module binds no ${name}`);
  const ps = params.map((p) => {
    const m = /^(.*?):\s*(\w+)(?:\s*=\s*(.+))?$/.exec(p);
    if (!m || !kinds[m[2]]) throw new Error(`attn.mjs: bad signature '${p}' of ${name}`);
    return { label: m[1], check: kinds[m[2]], fallback: m[3] === undefined ? undefined : JSON.parse(m[3]) };
  });
  const arg = (p, v) => p.check(v === undefined ? p.fallback : v, p.label);
  const [p0, p1, p2, p3] = ps;
  let f;
  if (ps.some((p) => p.check.spreads)) {
    f = (...args) => {
      const out = [];
      ps.forEach((p, i) => (p.check.spreads ? out.push(...arg(p, args[i])) : out.push(arg(p, args[i]))));
      return fn(...out);
    };
  } else {
    // One arrow per arity, so a call builds no argument array (the page calls attention()
    // on every edit).
    f = [() => fn(),
      (a) => fn(arg(p0, a)),
      (a, b) => fn(arg(p0, a), arg(p1, b)),
      (a, b, c) => fn(arg(p0, a), arg(p1, b), arg(p2, c)),
      (a, b, c, d) => fn(arg(p0, a), arg(p1, b), arg(p2, c), arg(p3, d))][ps.length];
  }
  if (!f) throw new Error(`attn.mjs: ${name} takes more parameters than binding() handles`);
  return named(name, f, ps.length);
}

// The handle of a model living in the module (createModel, loadModel): a frozen plain
// object holding only its id and `fields`; each method (name -> [arity, f]) throws once the
// model is disposed and names itself in its errors; dispose() frees the model (safe twice)
// and `finalizer` frees it if the handle is dropped without.
function moduleHandle(id, fields, methods, free, finalizer, what, again) {
  let disposed = false;
  const handle = { id, ...fields };
  for (const [name, [arity, f]] of Object.entries(methods))
    handle[name] = named(name, (...args) => {
      if (disposed) throw new Error(`${what} ${id} was disposed: ${again}`);
      return f(...args);
    }, arity);
  /** Frees the model in the module; later calls throw. Safe to call twice. */
  handle.dispose = () => {
    if (disposed) return;
    disposed = true;
    finalizer?.unregister(handle);
    free(id);
  };
  Object.defineProperty(handle, 'disposed', { get: () => disposed, enumerable: true });
  finalizer?.register(handle, id, handle);
  return Object.freeze(handle);
}

function makeApi(raw) {
  const L = limitsOf(raw);
  const { kinds, checkCount, checkMatrix, checkSeed, checkRate } = checks(L);
  // Frees a model whose handle was garbage-collected without dispose().
  const finalizer = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((id) => raw.modelDispose(id)) : null;
  const textFinalizer = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((id) => raw.textModelDispose(id)) : null;
  const checkText = (text, what) => {
    if (typeof text !== 'string') throw fail('TypeError', `${what} must be a string, got ${describe(text)}`);
    // UTF-8 bytes: at most 3 per UTF-16 unit, so only a long string needs the exact count
    if (text.length * 3 > raw.TEXT_MAX_BYTES && new TextEncoder().encode(text).length > raw.TEXT_MAX_BYTES)
      throw fail('SizeError', `${what} is longer than the limit of ${raw.TEXT_MAX_BYTES} bytes (UTF-8)`);
    return text;
  };
  const api = {
    /** Which instruction set the core was built for, e.g. "wasm-simd128". */
    simd: raw.simd(),
    /** Memory in use: the heap's size, bytes allocated by malloc now, results the boundary
     *  still holds (0 between calls), and the core's own matrices and kernel buffers now
     *  and at their peak. */
    memoryStats: () => ({
      heapBytes: raw.heapBytes(),
      mallocBytes: raw.mallocBytes(),
      handles: raw.heldResults(),
      ...raw.memoryStats(),
    }),
    /** A rows x cols matrix, zero-filled or copied from data (no call into the core). */
    matrix(rows, cols, data) {
      checkCount(rows, 'rows');
      checkCount(cols, 'cols');
      if (rows * cols > L.maxElements) throw fail('SizeError', `a ${rows}x${cols} matrix is more than the limit of ${L.maxElements} elements`);
      if (data === undefined) return { rows, cols, data: new Float32Array(rows * cols) };
      const m = checkMatrix({ rows, cols, data }, 'matrix');
      return { rows, cols, data: Float32Array.from(m.data) };
    },
    /**
     * A tiny Transformer and its Adam optimiser, living inside the module. Returns a plain
     * object: train(steps), evaluate(), probe(tokens), heads(sequences), dispose(). No object of the module
     * is handed out; the handle holds only the model's id.
     */
    createModel(config = {}) {
      if (!raw.modelCreate) throw new Error(WITHOUT_TRAINER);
      if (config === null || typeof config !== 'object' || Array.isArray(config))
        throw fail('TypeError', `expects an object, got ${describe(config)}`);
      const c = { ...MODEL_DEFAULTS, ...config };
      if (typeof c.task !== 'string') throw fail('TypeError', `task must be a string, got ${typeof c.task}`);
      checkSeed(c.seed, 'seed');
      // the core's ranges (attn::limits in model.hpp, read from the module)
      for (const [k, min, max] of L.modelRanges) checkCount(c[k], k, { min, max });
      for (const k of ['positional', 'scale'])
        if (typeof c[k] !== 'boolean') throw fail('TypeError', `${k} must be true or false, got ${typeof c[k]}`);
      checkRate(c.dropout, 'dropout');
      if (typeof c.lr !== 'number') throw fail('TypeError', `lr must be a number, got ${describe(c.lr)}`);
      if (!(Math.fround(c.lr) > 0 && c.lr <= L.maxLr)) // the core works in float: 1e-300 is 0 there
        throw fail('ValueError', `lr (the learning rate) must be in (0, ${L.maxLr}] (and at least ~1.4e-45), got ${c.lr}`);
      const r = raw.modelCreate({
        task: c.task, seed: c.seed, heads: c.heads, layers: c.layers, dModel: c.dModel, dK: c.dK, dV: c.dV,
        mlpHidden: c.mlpHidden, positional: c.positional, scale: c.scale, dropout: c.dropout, lr: c.lr,
        batch: c.batch, evalSize: c.evalSize,
      });
      return moduleHandle(r.id, { config: Object.freeze(r.config), task: Object.freeze(r.task), parameters: r.parameters }, {
        /** Runs `steps` Adam steps; per-step loss, batch accuracy and gradient norms. */
        train: [1, (steps = 1) => raw.modelTrain(r.id, checkCount(steps, 'steps', { min: 1, max: L.maxTrainSteps }))],
        /** Loss and accuracy on the task's held-out sequences. */
        evaluate: [0, () => raw.modelEvaluate(r.id)],
        /** Every head's weights and the predictions on one sequence of token ids. */
        probe: [1, (tokens) => {
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
          return raw.modelProbe(r.id, Array.from(tokens));
        }],
        /** Every head's role scores (heads.hpp; Olsson et al. 2022 for induction) on the first
         *  `sequences` held-out sequences of the task: {heads: [{layer, head, previousToken,
         *  firstToken, local, induction, role}] (layer-major, from 0; role '' for none), rows,
         *  inductionRows, sequences}. */
        heads: [1, (sequences = 64) => raw.modelHeads(r.id, checkCount(sequences, 'sequences', { min: 1, max: L.modelRanges.find((x) => x[0] === 'evalSize')[2] }))],
      }, raw.modelDispose, finalizer, 'model', 'create a new one with createModel()');
    },
  };
  /**
   * The project's trained text model from its file (docs/text-model.md: "ATTNTXT", version 1,
   * binary16, CRC-32), e.g. the bytes of models/text-model/model.bin. Returns a handle like
   * createModel's: probe(text), evaluate(text), heads(text), dispose(). Throws TypeError when
   * bytes is not a Uint8Array or ArrayBuffer, SizeError past TEXT_MODEL_MAX_BYTES, and
   * RangeError (ValueError) with the reader's message for a damaged or foreign file (a
   * changed byte fails the checksum).
   */
  api.loadModel = named('loadModel', (bytes) => {
    if (!raw.textModelLoad) throw new Error(WITHOUT_TEXT_MODEL);
    if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
    if (!(bytes instanceof Uint8Array))
      throw fail('TypeError', `expects the model file as a Uint8Array or ArrayBuffer, got ${describe(bytes)}`);
    if (bytes.length > raw.TEXT_MODEL_MAX_BYTES)
      throw fail('SizeError', `${bytes.length} bytes is more than the limit of ${raw.TEXT_MODEL_MAX_BYTES} for a model file`);
    // the bytes cross as one row of a matrix (the wire copies the Uint8Array's values into floats)
    const r = raw.textModelLoad(new Mat(1, bytes.length, bytes));
    const config = Object.freeze({
      kind: 'text', vocab: r.vocab, maxLen: r.maxLen, dModel: r.dModel, heads: r.heads, dK: r.dK, dV: r.dV,
      layers: r.layers, mlpHidden: r.mlpHidden, layerNorm: r.layerNorm,
    });
    return moduleHandle(r.id, { config, parameters: r.parameters, symbols: Object.freeze(r.symbols) }, {
      /** Every head's weights on [<s>, the text's first maxLen − 1 tokens], with each token's
       *  character; {off: h} zeroes head h's output (layer·heads + head), as heads() does. */
      probe: [1, (text, options) => {
        const t = checkText(text, 'text');
        if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options)))
          throw fail('TypeError', `options must be an object, got ${describe(options)}`);
        const off = options?.off ?? -1;
        if (typeof off !== 'number') throw fail('TypeError', `off must be a number, got ${describe(off)}`);
        return raw.textModelProbe(r.id, t, off);
      }],
      /** Loss on the whole text: nats per token and bits per character. */
      evaluate: [1, (text) => raw.textModelEvaluate(r.id, checkText(text, 'text'))],
      /** Each head's role scores on the text and the loss with that head zeroed. */
      heads: [1, (text) => raw.textModelHeads(r.id, checkText(text, 'text'))],
    }, raw.textModelDispose, textFinalizer, 'text model', 'load it again with loadModel()');
  }, 1);
  api.memoryStats = named('memoryStats', api.memoryStats, 0);
  api.matrix = named('matrix', api.matrix, 3);
  api.createModel = named('createModel', api.createModel, 1);
  for (const [name, params] of Object.entries(SIGNATURES)) api[name] = binding(raw, name, params, kinds);
  // flashAttention(Q, K, V, {out}): the output written into the caller's Float32Array of
  // T_q·d_v values (no fresh array per call; a benchmark's or worker's loop reuses one).
  const flash = api.flashAttention;
  api.flashAttention = named('flashAttention', (Q, K, V, options) => {
    const out = options !== null && typeof options === 'object' ? options.out : undefined;
    if (out === undefined || out === null) return flash(Q, K, V, options);
    if (!(out instanceof Float32Array)) throw fail('TypeError', `out must be a Float32Array, got ${describe(out)}`);
    const q = checkMatrix(Q, 'Q'), v = checkMatrix(V, 'V');
    if (out.length !== q.rows * v.cols)
      throw fail('ShapeError', `out has ${out.length} values but the ${q.rows}x${v.cols} output needs ${q.rows * v.cols}`);
    raw[INTO](out);
    try {
      return flash(Q, K, V, options);
    } finally {
      raw[INTO](null);
    }
  }, 4);
  return Object.freeze(api);
}

// The message of createModel() on a core loaded with {training: false} (attn-core-lite).
// The message of loadModel() on a core loaded with {training: false}: the text model's
// bindings ride with the trainer (wasm/CMakeLists.txt).
const WITHOUT_TEXT_MODEL = 'loadModel: this core was loaded with {training: false}, which leaves the trained ' +
  'text model out; load the whole core (createAttention() without that option) to use it';
const WITHOUT_TRAINER = 'createModel: this core was loaded with {training: false}, which leaves the trainer out; ' +
  'call createAttention() without it to train models';

// createModel's defaults: the training chapter's default configuration.
export const MODEL_DEFAULTS = Object.freeze({
  task: 'previous-token', seed: 1, heads: 1, layers: 1, dModel: 32, dK: 64, dV: 0, mlpHidden: 0,
  positional: true, scale: true, dropout: 0, lr: 0.01, batch: 32, evalSize: 256,
});

/**
 * Loads the WebAssembly core and returns the API.
 * @param {object} [options]
 *   simd: 'auto' (default: SIMD128 when the engine has it, else the scalar build; with
 *         training: false, the relaxed-SIMD build first where the engine has relaxed SIMD),
 *         'relaxed' (the relaxed-SIMD build: the matrix products multiply-add with
 *         f32x4.relaxed_madd; fails without relaxed SIMD), true (SIMD128 build; fails
 *         without SIMD) or false (scalar build);
 *   training: true (default) or false: false loads the SIMD core without the trainer
 *         (attn-core-lite.wasm, a quarter smaller; createModel() then throws; everything
 *         else, task() included, is the same). The scalar build always has the trainer.
 *         'auto' keeps the whole core on SIMD128: the trainer's runs stay the same bits on
 *         every engine with SIMD (a seed names one run).
 *   other keys go to the Emscripten loader (e.g. wasmBinary, locateFile).
 */
export default async function createAttention(options = {}) {
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new TypeError(`createAttention: options must be an object, got ${describe(options)}`);
  const { simd = 'auto', training = true, ...moduleArgs } = options;
  if (simd !== 'auto' && simd !== 'relaxed' && simd !== true && simd !== false)
    throw new TypeError(`createAttention: simd must be 'auto', 'relaxed', true or false, got ${describe(simd)}`);
  if (training !== true && training !== false)
    throw new TypeError(`createAttention: training must be true or false, got ${describe(training)}`);
  if (simd === true && !simdSupported())
    throw new Error('createAttention: this engine has no WebAssembly SIMD; use {simd: false} or the default \'auto\'');
  if (simd === 'relaxed' && !relaxedSimdSupported())
    throw new Error('createAttention: this engine has no WebAssembly relaxed SIMD (Node 20: --experimental-wasm-relaxed-simd); use {simd: true} or the default \'auto\'');
  const kind = simd === 'auto'
    ? (!training && relaxedSimdSupported() ? 'relaxed' : simdSupported() ? 'simd' : 'scalar')
    : simd === 'relaxed' ? 'relaxed' : simd ? 'simd' : 'scalar';
  const file = kind === 'scalar' ? 'attn-core-scalar'
    : `attn-core${training ? '' : '-lite'}${kind === 'relaxed' ? '-relaxed' : ''}`;
  const { default: createAttnCore } = kind === 'scalar' ? await import('./attn-core-scalar.mjs') : await import('./attn-core.mjs');
  // The lite and relaxed cores are loaded by attn-core.mjs (the loaders differ only in the file name).
  if (file !== 'attn-core' && file !== 'attn-core-scalar' && !moduleArgs.wasmBinary && !moduleArgs.locateFile &&
      !moduleArgs.instantiateWasm && !isNode)
    moduleArgs.locateFile = () => new URL(`./${file}.wasm`, import.meta.url).href;
  if (isNode && !moduleArgs.wasmBinary && !moduleArgs.locateFile && !moduleArgs.instantiateWasm) {
    const { readFile } = await import('node:fs/promises');
    moduleArgs.wasmBinary = await readFile(new URL(`./${file}.wasm`, import.meta.url));
  }
  return makeApi(connect(await createAttnCore(moduleArgs)));
}

// Its declared arity (options is optional), which tests/wasm/types.test.mjs compares with attn.d.ts.
Object.defineProperty(createAttention, 'length', { value: 1 });

export { createAttention };
