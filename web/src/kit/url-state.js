// Compact, URL-safe text form of a chapter's state slice, for permalinks and for the
// widget's `state` attribute. Generic over chapters: it knows matrices {rows, cols, data}
// and plain values, and writes only what differs from the chapter's defaults.
//
//   encodeSlice({Q, causal: false, head: 1}, defaults)  ->  "Q:~19_5;causal:!f;head:1"
//   decodeSlice("Q:~19_5;causal:!f", defaults)          ->  {slice, meta, problems}
//
// Grammar of a slice (entries separated by ';', key and value by the first ':'):
//   value  := '!t' | '!f' | '!n'                       true, false, null
//           | number                                   shortest text that reads back to the
//                                                      same float32: 2, -.5, 1e-7, !inf, !-inf, !nan
//           | R 'x' C [',' number]*                    a matrix, row-major: 2x2,1,0,0,1
//           | '~' [index '_' number] (',' ...)*         the default matrix with these entries
//                                                      (flat index) changed: ~19_5,20_-1
//           | '@' [item (',' item)*]                   a flat list of numbers, booleans, strings
//           | name | '$' escaped                       a string (bare when it is a plain name)
//           | '!j' base64url(JSON)                     anything else (nested values)
//   keys starting with '!' are meta entries (e.g. !step, !hide) that belong to the host.
// Only unreserved characters and ',;:!~@$_*' are used, so browsers and chat apps leave
// the text alone; a value percent-encoded on the way is decoded once before parsing.

import { NUMBER_TEXT, quoteTyped } from '../components/typed-number.js';
import { f32Text } from '../format.js';
import en from './en.js';
import { fill } from './fill.js';

// A problem with a link, a widget attribute or an exercise cell: a key of common.link in
// kit/<lang>.js and its values, so that a notice says it in the language it is shown in
// (problemText). A value may itself be a problem ("Q: ... is outside ..."). String(p) is
// the English text.
export function problem(key, vars = {}) {
  const p = { key, vars };
  p.toString = () => problemText(p, englishText);
  return p;
}
const englishText = (k, v) => fill(en.link[k], v);
// The text of a problem (or of a plain string, as is) through t(key, vars), e.g.
// (k, v) => i18n.t(`common.link.${k}`, v).
export function problemText(p, t) {
  if (typeof p !== 'object' || p === null || !p.key) return String(p);
  const vars = {};
  for (const [k, v] of Object.entries(p.vars)) vars[k] = typeof v === 'object' && v !== null && v.key ? problemText(v, t) : v;
  return t(p.key, vars);
}

export class UrlStateError extends Error {
  constructor(key, vars = {}) {
    const p = problem(key, vars);
    super(String(p));
    this.problem = p;
  }
}

const f32 = (x) => Math.fround(x);
const BARE = /^[A-Za-z_][\w.-]*$/;
// a link's numbers: the typed-number rule's, without '+' (a link writes 2, not +2)
const NUMBER = { test: (t) => t[0] !== '+' && NUMBER_TEXT.test(t) };
const MATRIX = /^(\d{1,6})x(\d{1,6})(?:,(.*))?$/;
export const MAX_ELEMENTS = 1 << 16; // a hand-edited URL must not allocate gigabytes
export const VALUE_LIMIT = 1e6; // same bound as a typed cell (format.js LIMIT)

export const isMatrix = (v) =>
  v !== null && typeof v === 'object' && Number.isInteger(v.rows) && Number.isInteger(v.cols) &&
  (ArrayBuffer.isView(v.data) || Array.isArray(v.data)) && v.data.length === v.rows * v.cols;

// Shortest decimal text that reads back to the same float32 (or double when exact=false).
export function encodeNumber(x, single = true) {
  if (typeof x !== 'number' || Number.isNaN(x)) return '!nan';
  if (x === Infinity) return '!inf';
  if (x === -Infinity) return '!-inf';
  let s = single ? f32Text(x) : String(x);
  if (s === '-0') s = '0';
  return s.replace('e+', 'e').replace(/^(-?)0\./, '$1.');
}

// `single`: the number is stored as a float32 (a matrix's entries). Infinity and NaN are
// written !inf, !-inf, !nan: a decimal text too large to be stored (1e999; 1e39 as a float32)
// is refused, never read as ±Infinity. (`lenient`: it is read as ±Infinity, for decodeSlice,
// which then refuses it with the message that fits its setting: overflowCheck.)
export function decodeNumber(t, single = false, lenient = false) {
  if (t === '!nan') return NaN;
  if (t === '!inf') return Infinity;
  if (t === '!-inf') return -Infinity;
  if (!NUMBER.test(t)) throw new UrlStateError('notNumber', { text: short(t) });
  const x = Number(t);
  if (!lenient && !Number.isFinite(single ? f32(x) : x)) throw new UrlStateError('overflow', { text: short(t) });
  // (a matrix entry that float32 stores as 0 though it is written nonzero, "1e-999": refused
  // as a typed cell refuses it, not read silently as 0)
  if (single && f32(x) === 0 && /[1-9]/.test(t.split(/e/i)[0])) throw new UrlStateError('tiny', { text: short(t) });
  return x;
}

const short = quoteTyped; // (a link's text quoted as a typed one is: 24 characters)
const escape = (s) =>
  encodeURIComponent(s).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%/g, '*');
const unescape = (t) => {
  try {
    return decodeURIComponent(t.replace(/\*/g, '%'));
  } catch {
    throw new UrlStateError('badEscape', { text: short(t) });
  }
};
export const encodeString = (s) => (BARE.test(s) ? s : `$${escape(s)}`);

function b64urlEncode(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
function b64urlDecode(t) {
  try {
    const bin = atob(t.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  } catch {
    throw new UrlStateError('badBase64');
  }
}
const TYPED = { Float32Array, Float64Array, Int32Array, Uint8Array, Int8Array, Uint16Array, Int16Array, Uint32Array };
const jsonReplacer = (k, v) => (ArrayBuffer.isView(v) ? { $typed: v.constructor.name, v: Array.from(v, (x) => encodeNumber(x, v instanceof Float32Array)) } : v);
const jsonReviver = (k, v, context) => {
  if (v && typeof v === 'object' && typeof v.$typed === 'string' && Array.isArray(v.v)) {
    const T = TYPED[v.$typed];
    if (!T) throw new UrlStateError('badTyped', { text: short(v.$typed) });
    return T.from(v.v, (x) => decodeNumber(String(x), T === Float32Array));
  }
  // (JSON reads 1e999 as Infinity: refused as a decimal text is, quoted as written where the
  // engine says so)
  if (typeof v === 'number' && !Number.isFinite(v)) throw new UrlStateError('overflow', { text: short(context?.source ?? String(v)) });
  return v;
};

function kind(v) {
  if (v === null || v === undefined) return 'null';
  if (isMatrix(v)) return 'matrix';
  if (Array.isArray(v)) return 'list';
  return typeof v; // number, boolean, string, object
}

const isPrimitive = (v) => v === null || ['number', 'boolean', 'string'].includes(typeof v);

function encodePrimitive(v) {
  if (v === null || v === undefined) return '!n';
  if (v === true) return '!t';
  if (v === false) return '!f';
  if (typeof v === 'number') return encodeNumber(v, false);
  return encodeString(v);
}

export function encodeValue(v, dflt) {
  if (isMatrix(v)) {
    const single = !(v.data instanceof Float64Array) && !Array.isArray(v.data);
    const dense = `${v.rows}x${v.cols}` + Array.from(v.data, (x) => `,${encodeNumber(x, single)}`).join('');
    if (isMatrix(dflt) && dflt.rows === v.rows && dflt.cols === v.cols) {
      const parts = [];
      for (let k = 0; k < v.data.length; k++)
        if (!sameNumber(v.data[k], dflt.data[k])) parts.push(`${k}_${encodeNumber(v.data[k], single)}`);
      const sparse = `~${parts.join(',')}`;
      if (sparse.length < dense.length) return sparse;
    }
    return dense;
  }
  if (Array.isArray(v) && v.every(isPrimitive)) return `@${v.map(encodePrimitive).join(',')}`;
  if (isPrimitive(v) || v === undefined) return encodePrimitive(v);
  return `!j${b64urlEncode(JSON.stringify(v, jsonReplacer))}`;
}

function decodePrimitive(t, written = null) {
  if (t === '!t') return true;
  if (t === '!f') return false;
  if (t === '!n') return null;
  if (t.startsWith('$')) return unescape(t.slice(1));
  if (BARE.test(t)) return t;
  written?.set('', t);
  return decodeNumber(t, false, written !== null);
}

// `written` (optional, a Map) receives the text each number was written as, by its flat index
// in a matrix or list ('' for a lone number), so that a message quotes what was written; a
// number too large to store is then read as ±Infinity, for the caller to refuse
// (overflowCheck), else it is refused here.
export function decodeValue(t, dflt, written = null) {
  const lenient = written !== null;
  const m = MATRIX.exec(t);
  if (m) {
    const rows = Number(m[1]), cols = Number(m[2]);
    if (rows * cols > MAX_ELEMENTS) throw new UrlStateError('tooLarge', { rows, cols });
    const items = m[3] === undefined ? [] : m[3].split(',');
    if (items.length !== rows * cols)
      throw new UrlStateError('matrixCount', { rows, cols, n: rows * cols, have: items.length });
    items.forEach((x, k) => written?.set(k, x));
    return { rows, cols, data: Float32Array.from(items, (x) => decodeNumber(x, true, lenient)) };
  }
  if (t.startsWith('~')) {
    if (!isMatrix(dflt)) throw new UrlStateError('notMatrix');
    const data = Float32Array.from(dflt.data);
    if (t.length > 1)
      for (const item of t.slice(1).split(',')) {
        const us = item.indexOf('_');
        const k = Number(item.slice(0, us));
        if (us < 1 || !/^\d+$/.test(item.slice(0, us)) || k >= data.length)
          throw new UrlStateError('notEntry', { text: short(item), rows: dflt.rows, cols: dflt.cols });
        written?.set(k, item.slice(us + 1));
        data[k] = decodeNumber(item.slice(us + 1), true, lenient);
      }
    return { rows: dflt.rows, cols: dflt.cols, data };
  }
  if (t.startsWith('@')) {
    const items = t.length === 1 ? [] : t.slice(1).split(',');
    items.forEach((x, k) => written?.set(k, x));
    return items.map((x) => decodePrimitive(x, lenient ? new Map() : null));
  }
  if (t.startsWith('!j')) {
    try {
      return JSON.parse(b64urlDecode(t.slice(2)), jsonReviver);
    } catch (e) {
      throw e instanceof UrlStateError ? e : new UrlStateError('badJson');
    }
  }
  return decodePrimitive(t, written);
}

const sameNumber = (a, b) => a === b || (Number.isNaN(a) && Number.isNaN(b)) || f32(a) === f32(b);

export function sameValue(a, b) {
  if (isMatrix(a) || isMatrix(b)) {
    if (!isMatrix(a) || !isMatrix(b) || a.rows !== b.rows || a.cols !== b.cols) return false;
    for (let k = 0; k < a.data.length; k++) if (!sameNumber(a.data[k], b.data[k])) return false;
    return true;
  }
  if (typeof a === 'number' && typeof b === 'number') return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, k) => sameValue(x, b[k]));
  }
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b) || a.length !== b.length) return false;
    return Array.prototype.every.call(a, (x, k) => sameNumber(x, b[k]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a), kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => k in b && sameValue(a[k], b[k]));
  }
  return (a ?? null) === (b ?? null);
}

const encodeKey = (k) => (/^!?[A-Za-z_][\w-]*$/.test(k) ? k : `$${escape(k)}`);
const decodeKey = (t) => (t.startsWith('$') ? unescape(t.slice(1)) : t);

// The text of one slice: entries whose value differs from the default, in the defaults'
// key order, then meta entries ({step: ..., hide: [...]}, written as !step, !hide).
export function encodeSlice(slice, defaults = {}, { transient = [], meta = {} } = {}) {
  const out = [];
  const keys = [...Object.keys(defaults), ...Object.keys(slice).filter((k) => !(k in defaults))];
  for (const k of keys) {
    if (transient.includes(k) || !(k in slice) || typeof slice[k] === 'function') continue;
    if (k in defaults && sameValue(slice[k], defaults[k])) continue;
    out.push(`${encodeKey(k)}:${encodeValue(slice[k], defaults[k])}`);
  }
  for (const [k, v] of Object.entries(meta)) if (v !== undefined) out.push(`!${k}:${encodeValue(v)}`);
  return out.join(';');
}

// Reads a slice written by encodeSlice and checks it against the defaults: unknown keys,
// a value of another kind than the default, and non-finite or huge numbers where the
// default has finite ones are dropped and reported in `problems` (plain English
// sentences, shown in the notice). Returns {slice, meta, problems}; slice holds only the
// keys read successfully (merge it over the defaults).
export function decodeSlice(text, defaults = {}) {
  const slice = {};
  const meta = {};
  const problems = [];
  if (!text) return { slice, meta, problems };
  for (const entry of text.split(';')) {
    if (entry === '') continue;
    const colon = entry.indexOf(':');
    if (colon < 1) {
      problems.push(problem('notSetting', { text: short(entry) }));
      continue;
    }
    let key;
    try {
      key = decodeKey(entry.slice(0, colon));
    } catch (e) {
      problems.push(e.problem ?? e.message);
      continue;
    }
    const raw = entry.slice(colon + 1);
    if (key.startsWith('!')) {
      try {
        meta[key.slice(1)] = decodeValue(raw);
      } catch (e) {
        problems.push(problem('inSetting', { name: key, problem: e.problem ?? e.message }));
      }
      continue;
    }
    if (!(key in defaults)) {
      problems.push(problem('noSetting', { name: short(key) }));
      continue;
    }
    try {
      const dflt = defaults[key];
      const written = new Map();
      const v = decodeValue(raw, dflt, written);
      checkLike(v, dflt, key, written);
      overflowCheck(v, written);
      slice[key] = v;
    } catch (e) {
      if (!(e instanceof UrlStateError)) throw e;
      problems.push(problem('inSetting', { name: key, problem: e.problem }));
    }
  }
  return { slice, meta, problems };
}

// (`text`: the number as written, which the message quotes: 1e7, not 10000000)
function finiteLike(x, d, key, text) {
  if (Number.isFinite(d) && Number.isNaN(x))
    throw new UrlStateError('notANumber', { value: text === undefined ? encodeNumber(x) : short(text), name: key });
  if (Number.isFinite(d) && !(Number.isFinite(x) && Math.abs(x) <= Math.max(VALUE_LIMIT, Math.abs(d))))
    throw new UrlStateError('outOfRange', { value: text === undefined ? encodeNumber(x) : short(text), name: key });
}

function checkLike(v, dflt, key, written = new Map()) {
  const kd = kind(dflt);
  if (kd === 'null') return; // the default says nothing about the kind
  const kv = kind(v);
  if (kv !== kd) throw new UrlStateError('wrongKind', { want: problem(`kind_${kd}`), have: problem(`kind_${kv}`) });
  if (kv === 'matrix') {
    const allFinite = Array.prototype.every.call(dflt.data, Number.isFinite);
    if (allFinite) v.data.forEach((x, k) => finiteLike(x, 0, key, written.get(k)));
  } else if (kv === 'number') finiteLike(v, dflt, key, written.get(''));
  else if (kv === 'list' && dflt.length > 0 && dflt.every((x) => typeof x === 'number')) {
    if (!v.every((x) => typeof x === 'number')) throw new UrlStateError('numberList');
    v.forEach((x, k) => finiteLike(x, 0, key, written.get(k)));
  }
}

// A number written as a decimal but too large to store (read as ±Infinity by a lenient
// decodeValue) where checkLike had no range to say it is out of: refused all the same.
function overflowCheck(v, written) {
  for (const [k, text] of written) {
    const x = k === '' ? v : isMatrix(v) ? v.data[k] : Array.isArray(v) ? v[k] : undefined;
    if (typeof x === 'number' && !Number.isFinite(x) && NUMBER.test(text)) throw new UrlStateError('overflow', { text: short(text) });
  }
}

// Query strings: read raw (each value decoded once, '+' kept), write with our own
// characters left as they are. Returns [[name, value], ...] in order.
export function readQuery(search) {
  const out = [];
  const q = search.startsWith('?') ? search.slice(1) : search;
  if (!q) return out;
  for (const part of q.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const [n, v] = eq < 0 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
    let name = n, value = v, bad = false;
    try {
      name = decodeURIComponent(n);
      value = decodeURIComponent(v);
    } catch {
      bad = true;
    }
    out.push([name, value, bad]);
  }
  return out;
}

// A URL fragment (location.hash, with or without its '#'), decoded: whatever the address bar
// holds, never an exception. A malformed escape ('%', '%%', a cut-off UTF-8 sequence) stays as
// typed while the valid escapes around it are decoded; the result is then simply an id that
// names nothing.
export function readFragment(hash) {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  try {
    return decodeURIComponent(raw);
  } catch {
    // Each run of escapes, one UTF-8 sequence at a time: a sequence that decodes is decoded,
    // a byte that starts none is kept as its escape.
    return raw.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      let out = '';
      for (let i = 0; i < run.length;) {
        const lead = parseInt(run.slice(i + 1, i + 3), 16);
        const n = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
        try {
          out += decodeURIComponent(run.slice(i, i + 3 * n));
          i += 3 * n;
        } catch {
          out += run.slice(i, i + 3);
          i += 3;
        }
      }
      return out;
    });
  }
}

export function buildQuery(pairs) {
  const safe = (s) => encodeURIComponent(s).replace(/%(2C|3B|3A|40|24|21|7E|2A)/gi, (m, h) => String.fromCharCode(parseInt(h, 16)));
  const q = pairs.filter(([, v]) => v !== undefined && v !== null).map(([n, v]) => (v === '' ? safe(n) : `${safe(n)}=${safe(v)}`));
  return q.length ? `?${q.join('&')}` : '';
}

// Exercise cells: "P.3.1" = grid P, row 3, column 1 (counted from 1, as a teacher says them);
// each with its text as written (ref).
export function parseCellRefs(list) {
  const items = Array.isArray(list) ? list : String(list ?? '').split(/[\s,]+/);
  const out = [];
  const problems = [];
  for (const it of items) {
    if (it === '' || it === null || it === undefined) continue;
    const m = /^(.+)\.(\d+)\.(\d+)$/.exec(String(it));
    if (!m || Number(m[2]) < 1 || Number(m[3]) < 1) problems.push(problem('notCell', { text: short(String(it)) }));
    // (ref: as written, for a message: P.99999999999999999999.1 is no row 1e+20)
    else out.push({ grid: m[1], i: Number(m[2]) - 1, j: Number(m[3]) - 1, ref: short(String(it)) });
  }
  return { cells: out, problems };
}
export const cellRef = (grid, i, j) => `${grid}.${i + 1}.${j + 1}`;
