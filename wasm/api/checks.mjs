// The argument checks of the public API: every check the JS side makes lives here (see
// docs/js-api.md, "Where each check lives"), with the error kinds they throw. The core
// checks what it computes with (shapes, values it needs); wasm/bind.hpp checks nothing.

import { Mat } from './boundary.mjs';

// The largest matrix the core allocates (attn::kMaxElements, core/include/attn/matrix.hpp),
// and the most steps one model.train() call runs: the module exports both (MAX_ELEMENTS,
// MAX_TRAIN_STEPS); they are here too so a page can read them before the module loads, and
// createAttention() refuses a module that disagrees.
export const MAX_ELEMENTS = 2 ** 28;
export const MAX_TRAIN_STEPS = 100000;

const FROM_CHECKS = Symbol('attn.check');

// Errors raised here carry `kind` like the core's ('TypeError' for a wrong type;
// 'ShapeError', 'ValueError', 'SizeError' for RangeErrors) and get the API function's
// name in front of their message.
export function fail(kind, message) {
  const e = kind === 'TypeError' ? new TypeError(message) : new RangeError(message);
  e.kind = kind === 'RangeError' ? 'ValueError' : kind;
  e[FROM_CHECKS] = true;
  return e;
}

export const describe = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : ArrayBuffer.isView(v) ? v.constructor.name
  : typeof v === 'number' ? String(v) : typeof v === 'string' ? `the string "${v.slice(0, 20)}"` : typeof v);

// A method whose failed checks name it ("attention: Q must be ...", "train: steps ...").
export function named(name, f, length = f.length) {
  // (five named parameters, no rest array: the page calls attention() on every edit; no
  // function of the API takes more than five, and none counts its arguments)
  const g = function (a, b, c, d, e5) {
    try {
      return f.call(this, a, b, c, d, e5);
    } catch (e) {
      throw renamed(e, name);
    }
  };
  Object.defineProperty(g, 'length', { value: length });
  return g;
}

// An error thrown in a method: one of the checks' gets the method's name in front of its message.
export function renamed(e, name) {
  if (e && e[FROM_CHECKS]) {
    e.message = `${name}: ${e.message}`;
    delete e[FROM_CHECKS];
  }
  return e;
}

// A kind that gives several raw arguments (an array of them) from one public argument.
export function spreading(kind) {
  kind.spreads = true;
  return kind;
}

// The core's limits, as the module exports them (wasm/matrix.cpp, flash.cpp, statistics.cpp, model.cpp).
export function limitsOf(raw) {
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
export function checks(L) {
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

  // checkCount(value, what + suffix), the name built only for the error (the hot calls
  // check three matrices per call).
  function checkDimension(value, what, suffix) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= L.maxElements) return value;
    return checkCount(value, `${what}${suffix}`);
  }

  function checkMatrix(m, what) {
    if (m === null || typeof m !== 'object' || Array.isArray(m))
      throw fail('TypeError', `${what} must be a matrix {rows, cols, data}, got ${describe(m)}`);
    checkDimension(m.rows, what, '.rows');
    checkDimension(m.cols, what, '.cols');
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
      if (typeof axis !== 'string') throw fail('TypeError', `axis must be 'rows' or 'cols', got ${describe(axis)}`);
      if (axis !== 'rows' && axis !== 'cols') throw fail('ValueError', `axis must be 'rows' or 'cols', got '${axis.slice(0, 20)}'`);
      return axis === 'cols' ? 1 : 0; // Arg<Axis> in wasm/bind.hpp
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
    // profileAttention(Q, K, V, {kernel, causal, tile}) -> (kernel, {causal, tile})
    profileOptions: spreading((opts, what) => {
      const options = checkOptions(opts, what);
      const { kernel = 'tiled' } = options;
      if (typeof kernel !== 'string') throw fail('TypeError', `kernel must be 'plain' or 'tiled', got ${describe(kernel)}`);
      if (kernel !== 'plain' && kernel !== 'tiled')
        throw fail('ValueError', `kernel must be 'plain' or 'tiled', got ${describe(kernel)}`);
      const o = { causal: checkBool(options.causal, 'causal') };
      if (options.tile !== undefined && options.tile !== null) o.tile = tile(options.tile);
      return [kernel, o];
    }),
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
    // random({rows, cols, seed, distribution, ...}) -> (distribution, {rows, cols, seed, mean, std, lo, hi})
    randomOptions: spreading((options) => {
      checkObject(options, 'expects an object {rows, cols, seed, distribution, ...}');
      const { rows, cols, seed = 0, distribution = 'normal', mean = 0, std = 1, lo = 0, hi = 1 } = options;
      checkCount(rows, 'rows');
      checkCount(cols, 'cols');
      if (rows * cols > L.maxElements) throw fail('SizeError', `a ${rows}x${cols} matrix is more than the limit of ${L.maxElements} elements`);
      checkSeed(seed, 'seed');
      if (typeof distribution !== 'string')
        throw fail('TypeError', `distribution must be 'normal' or 'uniform', got ${describe(distribution)}`);
      if (distribution !== 'normal' && distribution !== 'uniform')
        throw fail('ValueError', `distribution must be 'normal' or 'uniform', got ${describe(distribution)}`);
      for (const [k, v] of Object.entries({ mean, std, lo, hi }))
        if (typeof v !== 'number') throw fail('TypeError', `${k} must be a number`);
      return [distribution, { rows, cols, seed, mean, std, lo, hi }];
    }),
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

