// The memory transfer of matrices across the boundary: connect(module) turns the module's
// Embind functions into JS functions of checked arguments (the arguments copied into the
// module's arena, the result read out of wasm memory into fresh objects).

// ---- the boundary (wasm/bind.hpp, wasm/boundary.cpp) ------------------------------------------------
//
// Every function is an Embind function of the module (Module[name]) that takes numbers and
// returns one: the wrapper copies each matrix once into an arena the module owns and passes
// its address; the function returns the address of a small table describing its result
// (or 0 after an error, whose kind and message the module keeps: lastError()), which is
// read here into plain objects, each matrix's data a fresh Float32Array copy (never a view
// into wasm memory, which detaches when memory grows). How each parameter is staged and
// how each result reads (describe(), once) come from the C++ types: see wasm/bind.hpp.

// A checked matrix argument (checkMatrix returns these).
export class Mat {
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
export const INTO = Symbol('attn.into');

// Lone surrogates cannot be encoded in UTF-8: U+FFFD instead, as TextEncoder does.
const wellFormed = typeof String.prototype.toWellFormed === 'function'
  ? (s) => s.toWellFormed()
  : (s) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

const GROW = Symbol('attn.grow');

// Connects to a loaded module: returns {name: function} for every function the module
// binds (each takes the checked arguments in order and returns the result read into
// plain objects, or throws a RangeError with the core's `kind`) and {NAME: number} for its
// constants.
export function connect(module) {
  const { functions, types, records, constants } = JSON.parse(module.describe());
  // 'r<id>' kinds resolved once to their record's layout
  const layouts = records.map(() => ({ keys: [], kinds: [] }));
  const resolve = (kind) => (kind[0] === 'r' ? layouts[+kind.slice(1)] : kind);
  records.forEach((fields, id) => {
    for (const [key, kind] of fields) {
      layouts[id].keys.push(key);
      layouts[id].kinds.push(resolve(kind));
    }
  });
  const KEEP = constants.find(([k]) => k === 'ARENA_KEEP')[1];
  let H, F, U8; // the memory's views, taken afresh at every call (memory growth detaches them)
  const views = () => {
    H = module.HEAPF64;
    F = module.HEAPF32;
    U8 = module.HEAPU8;
  };

  // ---- in: the arena
  let base = module.arena(KEEP), cap = base ? KEEP : 0, top = 0, want = 0;
  views();
  function alloc(bytes) {
    const at = top;
    top += Math.ceil(bytes / 16) * 16;
    if (top > cap) {
      want = top;
      throw GROW;
    }
    return base + at;
  }
  function stage(kind, v) {
    switch (kind) {
      case 'n': return typeof v === 'boolean' ? +v : v;
      case 's': return wellFormed(v);
      case 'm': {
        const n = v.rows * v.cols, at = alloc(16 + 4 * n);
        H[at / 8] = v.rows;
        H[at / 8 + 1] = v.cols;
        if (n) F.set(v.data, at / 4 + 4);
        return at;
      }
      case 'l': {
        const at = alloc(8 * (v.length + 1));
        H[at / 8] = v.length;
        for (let k = 0; k < v.length; k++) H[at / 8 + 1 + k] = +v[k];
        return at;
      }
      case 'L': {
        const addresses = Array.from(v, (m) => stage('m', m));
        return stage('l', addresses);
      }
      default: { // an options record ('r<id>', resolved to {keys, kinds}): [present, value]
        // per key, a nested value (matrix, record) staged after it
        const { keys, kinds } = kind, at = alloc(16 * keys.length);
        for (let k = 0, w = at / 8; k < keys.length; k++, w += 2) {
          const x = v[keys[k]];
          const absent = x === undefined || x === null;
          H[w] = absent ? 0 : 1;
          H[w + 1] = absent ? 0 : stage(kinds[k], x);
        }
        return at;
      }
    }
  }

  // ---- out: reading a result's table
  let i = 0, bytes = 0, target = null, pending = null;
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
  // A fresh Float32Array of the n floats at F[at]: element by element when small (cheaper
  // than slice() on a view of the whole memory at the page's sizes), slice() otherwise.
  function copy(at, n) {
    if (n > 64) return F.slice(at, at + n);
    const data = new Float32Array(n);
    for (let k = 0; k < n; k++) data[k] = F[at + k];
    return data;
  }
  const readers = [];
  function reader(l) {
    if (typeof l === 'number') {
      return () => (readers[l] ??= object(types[l]))();
    }
    if (Array.isArray(l)) {
      const element = reader(l[1]);
      return () => {
        const n = H[i++], a = new Array(n);
        for (let k = 0; k < n; k++) a[k] = element();
        return a;
      };
    }
    switch (l) {
      case 'n': return () => H[i++];
      case 'b': return () => H[i++] !== 0;
      case 's': return () => {
        const len = H[i++], at = H[i++];
        return text(bytes + at, len);
      };
      case 'm': return () => {
        const rows = H[i++], cols = H[i++], at = H[i++] / 4, n = rows * cols;
        if (target !== null && target.length === n) {
          const data = target;
          target = null;
          data.set(F.subarray(at, at + n));
          return { rows, cols, data };
        }
        return { rows, cols, data: copy(at, n) };
      };
      case 'f': return () => {
        const n = H[i++], at = H[i++] / 4;
        return copy(at, n);
      };
      case 'd': return () => (readers[H[i]] ??= object(types[H[i]]), readers[H[i++]]());
      default: throw new Error(`attn.mjs: the module describes an unknown layout ${l}`);
    }
  }
  function object(fields) {
    const keys = fields.map(([key]) => key), read = fields.map(([, l]) => reader(l)), n = keys.length;
    return () => {
      const o = {};
      for (let k = 0; k < n; k++) o[keys[k]] = read[k]();
      return o;
    };
  }
  const failure = () => {
    const message = module.lastError(), nl = message.indexOf('\n');
    const e = new RangeError(message.slice(nl + 1));
    e.kind = message.slice(0, nl);
    return e;
  };

  let busy = false;
  const busyError = () => new Error('attn: a call into the core started while another was reading its arguments (from a getter?)');
  // The start of every call into the core (its `finally` clears busy): no pending output
  // array carried over, and no call while another is still reading its arguments.
  const enter = () => {
    pending = null;
    if (busy) throw busyError();
    busy = true;
  };
  // A function of the module as a JS function of its checked arguments (at most five: one
  // arrow per arity, so a call builds no argument array; the page calls attention() on
  // every edit).
  function caller(fn, kinds, read) {
    const [k0, k1, k2, k3, k4] = kinds;
    const call = [
      () => fn(),
      (a) => fn(stage(k0, a)),
      (a, b) => fn(stage(k0, a), stage(k1, b)),
      (a, b, c) => fn(stage(k0, a), stage(k1, b), stage(k2, c)),
      (a, b, c, d) => fn(stage(k0, a), stage(k1, b), stage(k2, c), stage(k3, d)),
      (a, b, c, d, e) => fn(stage(k0, a), stage(k1, b), stage(k2, c), stage(k3, d), stage(k4, e)),
    ][kinds.length];
    if (!call) throw new Error(`attn.mjs: a function of the module takes more than five parameters (${kinds})`);
    return (a, b, c, d, e) => {
      const into = pending;
      enter();
      try {
        let address;
        for (;;) {
          if (F.length === 0) views(); // memory grew since: the old views are detached
          top = 0;
          try {
            // the arguments are staged (and GROW thrown) before fn runs
            address = call(a, b, c, d, e);
            break;
          } catch (err) {
            if (err !== GROW) throw err;
            grow();
          }
        }
        if (cap > KEEP && top <= KEEP) { // give a large arena back once the calls are small again
          base = module.arena(KEEP);
          cap = KEEP;
        }
        if (!address) throw failure();
        if (read === null) return undefined;
        if (F.length === 0) views();
        target = into;
        i = address / 8;
        bytes = H[i++];
        return read();
      } finally {
        busy = false;
        target = null;
      }
    };
  }
  function grow() {
    const size = Math.max(want, 2 * cap), at = module.arena(size);
    views();
    if (!at) {
      base = module.arena(KEEP);
      cap = base ? KEEP : 0;
      throw Object.assign(new RangeError('out of memory: the WebAssembly module could not allocate the arguments'), { kind: 'SizeError' });
    }
    base = at;
    cap = size;
  }

  const raw = {};
  for (const [name, kinds, result] of functions)
    raw[name] = caller(module[name], kinds.map(resolve), result === null ? null : reader(result));
  for (const [name, v] of constants) raw[name] = v;
  raw[INTO] = (array) => (pending = array);

  // ---- the hot calls ------------------------------------------------------------------------
  //
  // What a chapter calls on every edit (attention, attentionOutput, flashAttention, scores,
  // softmax) crosses by the same rules as above, written out for their own signatures: the
  // arena is sized once per call (no GROW and retry), each argument is staged by its own
  // code and the result read by its own (a generic stage() or reader shared by every
  // function runs megamorphic). Their layouts are checked against describe() here, once.
  const expand = (l) => (typeof l === 'number' ? types[l].map(([k, x]) => [k, expand(x)])
    : Array.isArray(l) ? [l[0], expand(l[1])] : l);
  const expandKind = (k) => (k[0] === 'r' ? records[+k.slice(1)].map(([key, x]) => [key, expandKind(x)]) : k);
  const MASK_RECORD = [['causal', 'n'], ['scale', 'n'], ['mask', 'm'], ['dropout', [['rate', 'n'], ['seed', 'n'], ['training', 'n']]]];
  const FLASH_RECORD = [['causal', 'n'], ['scale', 'n'], ['tile', 'n'], ['mask', 'm']];
  const TRACE = [['scale', 'n'], ['scores', 'm'], ['scaled', 'm'], ['masked', 'm'], ['weights', 'm'], ['dropped', 'm'],
    ['output', 'm'], ['nonFinite', [['count', 'n'], ['entries', ['a', [['input', 's'], ['row', 'n'], ['col', 'n'], ['value', 'n']]]],
      ['stages', ['a', 's']]]]];
  const HOT = {
    scores: [['m', 'm'], 'm'],
    softmax: [['m', 'n'], 'm'],
    attention: [['m', 'm', 'm', MASK_RECORD], TRACE],
    attentionOutput: [['m', 'm', 'm', MASK_RECORD], 'm'],
    flashAttention: [['m', 'm', 'm', FLASH_RECORD], 'm'],
  };
  for (const [name, kinds, result] of functions) {
    if (!HOT[name]) continue;
    if (JSON.stringify([kinds.map(expandKind), expand(result)]) !== JSON.stringify(HOT[name]))
      throw new Error(`attn.mjs: the module's ${name} has another signature than api/boundary.mjs's hot path expects`);
  }

  // The arena's bytes for a checked matrix, and its staging (room() has made space).
  // Addresses are below 2^31 (the module's memory is at most 2 GB): >>> is exact.
  const matrixBytes = (m) => Math.ceil((16 + 4 * m.rows * m.cols) / 16) * 16;
  function put(m) {
    const rows = m.rows, cols = m.cols, n = rows * cols, at = base + top;
    top += Math.ceil((16 + 4 * n) / 16) * 16;
    H[at >>> 3] = rows;
    H[(at >>> 3) + 1] = cols;
    if (n) F.set(m.data, (at >>> 2) + 4);
    return at;
  }
  // [present, value] of a number (or boolean) at H[w].
  function putNumber(w, x) {
    const absent = x === undefined || x === null;
    H[w] = absent ? 0 : 1;
    H[w + 1] = absent ? 0 : typeof x === 'boolean' ? +x : x;
  }
  function putMatrixField(w, x) {
    const absent = x === undefined || x === null;
    H[w] = absent ? 0 : 1;
    H[w + 1] = absent ? 0 : put(x);
  }
  // {causal, scale, mask, dropout: {rate, seed, training}} (attention, attentionOutput)
  const maskRecordBytes = (o) => 64 + (o.mask === undefined || o.mask === null ? 0 : matrixBytes(o.mask)) +
    (o.dropout === undefined || o.dropout === null ? 0 : 48);
  function putMaskRecord(o) {
    const at = base + top, w = at >>> 3;
    top += 64;
    putNumber(w, o.causal);
    putNumber(w + 2, o.scale);
    putMatrixField(w + 4, o.mask);
    const d = o.dropout;
    if (d === undefined || d === null) {
      H[w + 6] = 0;
      H[w + 7] = 0;
    } else {
      const r = base + top, v = r >>> 3;
      top += 48;
      putNumber(v, d.rate);
      putNumber(v + 2, d.seed);
      putNumber(v + 4, d.training);
      H[w + 6] = 1;
      H[w + 7] = r;
    }
    return at;
  }
  // {causal, scale, tile, mask} (flashAttention)
  const flashRecordBytes = (o) => 64 + (o.mask === undefined || o.mask === null ? 0 : matrixBytes(o.mask));
  function putFlashRecord(o) {
    const at = base + top, w = at >>> 3;
    top += 64;
    putNumber(w, o.causal);
    putNumber(w + 2, o.scale);
    putNumber(w + 4, o.tile);
    putMatrixField(w + 6, o.mask);
    return at;
  }

  // Before staging: the arena holds `need` bytes (grown as in caller(), once).
  function room(need) {
    if (F.length === 0) views(); // memory grew since: the old views are detached
    top = 0;
    if (need > cap) {
      want = need;
      grow();
    }
  }
  // After the call: the arena given back if large, the error thrown, the table's start.
  function done(address) {
    if (cap > KEEP && top <= KEEP) {
      base = module.arena(KEEP);
      cap = KEEP;
    }
    if (!address) throw failure();
    if (F.length === 0) views();
    i = address >>> 3;
    bytes = H[i++];
  }
  function readMatrix() {
    const rows = H[i], cols = H[i + 1], at = H[i + 2] >>> 2, n = rows * cols;
    i += 3;
    if (n > 64) return { rows, cols, data: F.slice(at, at + n) };
    const data = new Float32Array(n);
    for (let k = 0; k < n; k++) data[k] = F[at + k];
    return { rows, cols, data };
  }
  // flashAttention's `out`: the result copied into `into` when it is there.
  function readMatrixInto(into) {
    if (into === null) return readMatrix();
    const rows = H[i], cols = H[i + 1], at = H[i + 2] >>> 2, n = rows * cols;
    i += 3;
    if (into.length !== n) return { rows, cols, data: copy(at, n) };
    into.set(F.subarray(at, at + n));
    return { rows, cols, data: into };
  }
  function readNonFinite() {
    const count = H[i++], n = H[i++], entries = new Array(n);
    for (let k = 0; k < n; k++) {
      const len = H[i], at = H[i + 1];
      i += 2;
      const input = text(bytes + at, len), row = H[i], col = H[i + 1], value = H[i + 2];
      i += 3;
      entries[k] = { input, row, col, value };
    }
    const m = H[i++], stages = new Array(m);
    for (let k = 0; k < m; k++) {
      const len = H[i], at = H[i + 1];
      i += 2;
      stages[k] = text(bytes + at, len);
    }
    return { count, entries, stages };
  }
  function readTrace() {
    const scale = H[i++];
    const scores = readMatrix(), scaled = readMatrix(), masked = readMatrix(), weights = readMatrix();
    const dropped = readMatrix(), output = readMatrix(), nonFinite = readNonFinite();
    return { scale, scores, scaled, masked, weights, dropped, output, nonFinite };
  }

  const fScores = module.scores, fSoftmax = module.softmax, fAttention = module.attention;
  const fAttentionOutput = module.attentionOutput, fFlash = module.flashAttention;
  // raw[name] of the hot calls: the same functions of checked arguments as caller() makes.
  raw.scores = (a, b) => {
    enter();
    try {
      room(matrixBytes(a) + matrixBytes(b));
      done(fScores(put(a), put(b)));
      return readMatrix();
    } finally {
      busy = false;
    }
  };
  raw.softmax = (a, axis) => {
    enter();
    try {
      room(matrixBytes(a));
      done(fSoftmax(put(a), typeof axis === 'boolean' ? +axis : axis));
      return readMatrix();
    } finally {
      busy = false;
    }
  };
  raw.attention = (q, k, v, o) => {
    enter();
    try {
      room(matrixBytes(q) + matrixBytes(k) + matrixBytes(v) + maskRecordBytes(o));
      done(fAttention(put(q), put(k), put(v), putMaskRecord(o)));
      return readTrace();
    } finally {
      busy = false;
    }
  };
  raw.attentionOutput = (q, k, v, o) => {
    enter();
    try {
      room(matrixBytes(q) + matrixBytes(k) + matrixBytes(v) + maskRecordBytes(o));
      done(fAttentionOutput(put(q), put(k), put(v), putMaskRecord(o)));
      return readMatrix();
    } finally {
      busy = false;
    }
  };
  raw.flashAttention = (q, k, v, o) => {
    const into = pending;
    enter();
    try {
      room(matrixBytes(q) + matrixBytes(k) + matrixBytes(v) + flashRecordBytes(o));
      done(fFlash(put(q), put(k), put(v), putFlashRecord(o)));
      return readMatrixInto(into);
    } finally {
      busy = false;
    }
  };
  return raw;
}

