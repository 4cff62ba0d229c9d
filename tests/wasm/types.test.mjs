// attn.d.ts against what the built module really exports: the ES module's exports, every
// member of the Attention object createAttention() resolves to, and every member of a
// createModel() handle, by name and by arity (the number of parameters declared, optional
// ones included, must equal the function's length). A function added to attn.mjs without
// its .d.ts entry, or a .d.ts entry for something that is gone, fails here.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as mod from '../../web/dist/attn.mjs';

const dts = await readFile(new URL('../../wasm/attn.d.ts', import.meta.url), 'utf8');
const attn = await mod.default();

// The declarations with comments removed.
const source = dts.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

// Splits s at `sep` where no bracket is open ('=>' is not a bracket).
function splitTop(s, sep) {
  const parts = [];
  let depth = 0, start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if ('({[<'.includes(c)) depth++;
    else if (')}]'.includes(c) || (c === '>' && s[i - 1] !== '=')) depth--;
    else if (c === sep && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

// interface name -> Map(member -> {method: true, arities: Set} | {method: false})
function members(name) {
  const at = source.indexOf(`export interface ${name} {`);
  assert.ok(at >= 0, `attn.d.ts declares interface ${name}`);
  let i = source.indexOf('{', at) + 1, depth = 1;
  const begin = i;
  for (; depth > 0; i++) depth += source[i] === '{' ? 1 : source[i] === '}' ? -1 : 0;
  const out = new Map();
  for (const decl of splitTop(source.slice(begin, i - 1), ';')) {
    const m = /^(?:readonly\s+)?(?:get\s+)?([A-Za-z_$][\w$]*)\??\s*(\(|:)/.exec(decl);
    assert.ok(m, `cannot read the member '${decl}' of ${name}`);
    const [, member, open] = m;
    if (open === ':') {
      out.set(member, { method: false });
      continue;
    }
    const params = decl.slice(decl.indexOf('(') + 1);
    let depthP = 1, j = 0;
    for (; depthP > 0; j++) depthP += '({['.includes(params[j]) ? 1 : ')}]'.includes(params[j]) ? -1 : 0;
    const arity = splitTop(params.slice(0, j - 1), ',').length;
    const entry = out.get(member) ?? { method: true, arities: new Set() };
    entry.arities.add(arity);
    out.set(member, entry);
  }
  return out;
}

function same(declared, object, what) {
  const names = Object.keys(object);
  const missing = [...declared.keys()].filter((k) => !(k in object));
  const undeclared = names.filter((k) => !declared.has(k));
  assert.deepEqual(missing, [], `${what}: declared in attn.d.ts but not there`);
  assert.deepEqual(undeclared, [], `${what}: there but not declared in attn.d.ts`);
  for (const [name, d] of declared) {
    const value = object[name];
    if (!d.method) {
      assert.notEqual(typeof value, 'function', `${what}.${name} is declared a property`);
      continue;
    }
    assert.equal(typeof value, 'function', `${what}.${name} is declared a method`);
    for (const arity of d.arities)
      assert.equal(value.length, arity, `${what}.${name} takes ${value.length} parameters, attn.d.ts declares ${arity}`);
  }
}

test('the Attention object has exactly the members attn.d.ts declares, with their arity', () => {
  const declared = members('Attention');
  assert.ok(declared.size > 50, `${declared.size} members read from attn.d.ts`);
  same(declared, attn, 'attn');
});

test('a createModel() handle has exactly the members of ModelHandle', () => {
  const m = attn.createModel();
  try {
    same(members('ModelHandle'), m, 'model');
  } finally {
    m.dispose();
  }
});

test('the ES module exports exactly what attn.d.ts exports', () => {
  const exported = new Map();
  for (const m of source.matchAll(/export\s+(default\s+)?(?:declare\s+)?(function|const)\s+([A-Za-z_$][\w$]*)\s*(\([^)]*\))?/g)) {
    const [, isDefault, kind, name, params] = m;
    const arity = params ? splitTop(params.slice(1, -1), ',').length : undefined;
    exported.set(isDefault ? 'default' : name, { kind, arity });
    if (isDefault) exported.set(`(default) ${name}`, { kind, arity });
  }
  for (const m of source.matchAll(/export\s*\{([^}]*)\}/g))
    for (const name of m[1].split(',').map((x) => x.trim()).filter(Boolean)) exported.set(name, { kind: 'alias' });
  const defaultName = [...exported.keys()].find((k) => k.startsWith('(default) ')).slice('(default) '.length);
  exported.delete(`(default) ${defaultName}`);
  assert.deepEqual(Object.keys(mod).sort(), [...exported.keys()].sort());
  for (const [name, { kind, arity }] of exported) {
    const value = mod[name];
    if (kind === 'function') {
      assert.equal(typeof value, 'function', `${name} is declared a function`);
      assert.equal(value.length, arity, `${name} takes ${value.length} parameters, attn.d.ts declares ${arity}`);
    } else if (kind === 'const') {
      assert.notEqual(typeof value, 'function', `${name} is declared a constant`);
    } else {
      assert.equal(value, mod[defaultName], `${name} re-exports ${defaultName}`);
    }
  }
});

test('the constants attn.mjs exports are the module\'s own limits', () => {
  assert.equal(mod.MAX_ELEMENTS, 2 ** 28);
  // Past the limit by one element: refused by the core with the same number in its message.
  assert.throws(() => attn.matrix(mod.MAX_ELEMENTS + 1, 1), new RegExp(`limit of ${mod.MAX_ELEMENTS}`));
  const m = attn.createModel();
  try {
    assert.throws(() => m.train(mod.MAX_TRAIN_STEPS + 1), new RegExp(`past the limit of ${mod.MAX_TRAIN_STEPS}`));
  } finally {
    m.dispose();
  }
});

// ---- the fields of the results ----------------------------------------------------------------
//
// Each function is called once (the arguments below) and what it returns is compared with
// the return type attn.d.ts declares: every object has exactly the declared keys (optional
// ones may be missing), every value the declared type, recursively (number, string,
// boolean, Float32Array, T[], interfaces, inline object types, unions, intersections,
// Required<>, Omit<>, Readonly<>, string literals).

// A type expression of attn.d.ts as a tree: {k: 'prim', name} | {k: 'lit', value} |
// {k: 'array', of} | {k: 'obj', fields: Map(key -> {type, optional})} | {k: 'ref', name, args}
// | {k: 'union', of} | {k: 'and', of}.
function parseType(text) {
  let s = text.trim(), i = 0;
  const ws = () => { while (/\s/.test(s[i])) i++; };
  const ident = () => {
    ws();
    const m = /^[A-Za-z_$][\w$]*/.exec(s.slice(i));
    if (!m) throw new Error(`cannot read a type at '${s.slice(i, i + 30)}' in '${s}'`);
    i += m[0].length;
    return m[0];
  };
  function union() {
    ws();
    if (s[i] === '|') i++;
    const of = [inter()];
    for (ws(); s[i] === '|'; ws()) (i++, of.push(inter()));
    return of.length === 1 ? of[0] : { k: 'union', of };
  }
  function inter() {
    const of = [postfix()];
    for (ws(); s[i] === '&'; ws()) (i++, of.push(postfix()));
    return of.length === 1 ? of[0] : { k: 'and', of };
  }
  function postfix() {
    let t = primary();
    for (ws(); s.startsWith('[]', i); ws()) (i += 2, t = { k: 'array', of: t });
    return t;
  }
  function primary() {
    ws();
    if (s.startsWith('readonly ', i)) return (i += 9, postfix());
    if (s[i] === "'") {
      const j = s.indexOf("'", i + 1), value = s.slice(i + 1, j);
      i = j + 1;
      return { k: 'lit', value };
    }
    if (s[i] === '(') {
      i++;
      const t = union();
      ws();
      i++; // )
      return t;
    }
    if (s[i] === '{') {
      i++;
      const fields = new Map();
      for (ws(); s[i] !== '}'; ws()) {
        if (s.startsWith('readonly ', i)) i += 9;
        const key = ident();
        ws();
        const optional = s[i] === '?';
        if (optional) i++;
        ws();
        i++; // :
        fields.set(key, { type: union(), optional });
        ws();
        if (s[i] === ';' || s[i] === ',') i++;
      }
      i++;
      return { k: 'obj', fields };
    }
    const name = ident();
    ws();
    const args = [];
    if (s[i] === '<') {
      i++;
      for (ws(); s[i] !== '>'; ws()) {
        args.push(union());
        ws();
        if (s[i] === ',') i++;
      }
      i++;
    }
    if (['number', 'string', 'boolean', 'Float32Array', 'void', 'undefined', 'null'].includes(name)) return { k: 'prim', name };
    return { k: 'ref', name, args };
  }
  const t = union();
  ws();
  assert.equal(i, s.length, `could not read all of the type '${s}'`);
  return t;
}

// The body of `export interface name {...}` (comments removed).
function interfaceBody(name) {
  const at = source.indexOf(`export interface ${name} {`);
  if (at < 0) return null;
  let i = source.indexOf('{', at) + 1, depth = 1;
  const begin = i;
  for (; depth > 0; i++) depth += source[i] === '{' ? 1 : source[i] === '}' ? -1 : 0;
  return source.slice(begin, i - 1);
}
const interfaces = new Map();
function interfaceType(name) {
  if (!interfaces.has(name)) {
    const body = interfaceBody(name);
    const alias = new RegExp(`export type ${name}\\s*=\\s*([^;]*);`).exec(source);
    interfaces.set(name, body !== null ? parseType(`{${body}}`) : alias ? parseType(alias[1]) : null);
  }
  return interfaces.get(name);
}

// The return types of the methods of an interface: name -> [type text...] (overloads).
function returnTypes(name) {
  const out = new Map();
  for (const decl of splitTop(interfaceBody(name), ';')) {
    const m = /^([A-Za-z_$][\w$]*)\s*\(/.exec(decl);
    if (!m) continue;
    let depth = 0, j = decl.indexOf('(');
    for (; j < decl.length; j++) {
      if ('({['.includes(decl[j])) depth++;
      else if (')}]'.includes(decl[j]) && --depth === 0) break;
    }
    const ret = decl.slice(j + 1).replace(/^\s*:\s*/, '');
    out.set(m[1], [...(out.get(m[1]) ?? []), ret]);
  }
  return out;
}

// The object type a type stands for (interfaces, Required<>, Omit<>, Readonly<>, A & B), or null.
function objectOf(t) {
  if (t.k === 'obj') return t;
  if (t.k === 'and') {
    const fields = new Map();
    for (const p of t.of) for (const [k, f] of objectOf(p).fields) fields.set(k, f);
    return { k: 'obj', fields };
  }
  if (t.k === 'ref') {
    if (t.name === 'Required') {
      const o = objectOf(t.args[0]);
      return { k: 'obj', fields: new Map([...o.fields].map(([k, f]) => [k, { ...f, optional: false }])) };
    }
    if (t.name === 'Readonly') return objectOf(t.args[0]);
    if (t.name === 'Omit') {
      const o = objectOf(t.args[0]);
      const drop = (t.args[1].k === 'union' ? t.args[1].of : [t.args[1]]).map((x) => x.value);
      return { k: 'obj', fields: new Map([...o.fields].filter(([k]) => !drop.includes(k))) };
    }
    const named = interfaceType(t.name);
    assert.ok(named, `attn.d.ts declares no type ${t.name}`);
    return objectOf(named);
  }
  return null;
}

// The ways value differs from type t ([] when it conforms).
function differences(value, t, path) {
  switch (t.k) {
    case 'prim':
      if (t.name === 'Float32Array') return value instanceof Float32Array ? [] : [`${path} is not a Float32Array`];
      if (t.name === 'void' || t.name === 'undefined') return value === undefined ? [] : [`${path} is not undefined`];
      if (t.name === 'null') return value === null ? [] : [`${path} is not null`];
      return typeof value === t.name ? [] : [`${path} is ${typeof value}, declared ${t.name}`];
    case 'lit':
      return value === t.value ? [] : [`${path} is ${JSON.stringify(value)}, declared '${t.value}'`];
    case 'array':
      if (!Array.isArray(value)) return [`${path} is not an array`];
      return value.flatMap((v, k) => differences(v, t.of, `${path}[${k}]`)).slice(0, 5);
    case 'union': {
      const each = t.of.map((o) => differences(value, o, path));
      return each.some((d) => d.length === 0) ? [] : each.flat();
    }
    case 'ref':
      if (t.name === 'ArrayLike') return value && typeof value.length === 'number' ? [] : [`${path} is not array-like`];
      if (interfaceBody(t.name) === null && !['Required', 'Readonly', 'Omit'].includes(t.name)) { // a type alias
        const alias = interfaceType(t.name);
        assert.ok(alias, `attn.d.ts declares no type ${t.name}`);
        return differences(value, alias, path);
      }
    // falls through
    default: {
      const o = objectOf(t);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path} is not an object`];
      const out = [];
      for (const k of Object.keys(value)) if (!o.fields.has(k)) out.push(`${path}.${k} is there but not declared`);
      for (const [k, f] of o.fields) {
        if (!(k in value)) {
          if (!f.optional) out.push(`${path}.${k} is declared but missing`);
          continue;
        }
        out.push(...differences(value[k], f.type, `${path}.${k}`));
      }
      return out;
    }
  }
}

test('every result has the fields attn.d.ts declares for it, of the declared types', () => {
  const M = (r, c, s = 1) => attn.matrix(r, c, Array.from({ length: r * c }, (_, i) => Math.sin(1.7 * i + s)));
  const Q = M(3, 4, 1), K = M(3, 4, 2), V = M(3, 4, 3), S = M(3, 3, 4), P = attn.softmax(S);
  const W = M(4, 4, 5);
  const calls = {
    matrix: [2, 2], heapBytes: [], memoryStats: [], resetPeakMemory: [],
    profileAttention: [Q, K, V, { kernel: 'plain' }],
    matmul: [Q, attn.transpose(K)], matmulBt: [Q, K], transpose: [Q],
    scores: [Q, K], scale: [S, 0.5], causalMask: [3, 3], addMask: [S, attn.causalMask(3, 3)], softmax: [S],
    weightedSum: [P, V], attention: [Q, K, V, { causal: true, mask: attn.causalMask(3, 3), dropout: { rate: 0.5, seed: 1, training: true } }],
    attentionOutput: [Q, K, V], flashAttention: [Q, K, V, { causal: true }], dropout: [P, { rate: 0.5, seed: 2 }],
    splitHeads: [Q, 2], concatHeads: [[M(3, 2), M(3, 2)]],
    multiHeadAttention: [Q, { Wq: W, Wk: W, Wv: W, Wo: W, heads: 2, causal: true }],
    positionalEncoding: [4, 6], sinusoidAngles: [4, 6], cost: [{ n: 64, dModel: 32 }],
    random: [{ rows: 2, cols: 3, seed: 1 }], rowSums: [S], colSums: [S], rowMax: [S], rowArgmax: [S],
    rowDots: [Q, K], rowNorms: [Q], normalizeRows: [Q], normalizeWeights: [P], difference: [Q, K], add: [Q, K],
    maxAbsDiff: [Q, K], diagonal: [S], permuteRows: [Q, [2, 0, 1]], columnRange: [Q], moments: [Q],
    histogram: [Q, { bins: 4, lo: -1, hi: 1 }], dotGeometry: [M(1, 2, 1), M(1, 2, 2)],
    convexHull: [M(5, 2, 3)], hullDistance: [M(1, 2, 9), M(5, 2, 3)], diagonalCheck: [S], softmaxParts: [S],
    softmaxJacobianDiag: [P], scalingEffect: [S, 0.5], scoreScale: [16], sampleDotProducts: [{ dk: 4, count: 10 }],
    softmaxJacobian: [M(1, 3)], recurrentScan: [Q, 0.5], tokenFeatures: [[1, 2, 0]],
    constructedHead: ['previous', 4], groupByCharacter: [S, [0, 0, 1]], normWeights: [S, [1, 2, 3]],
    weightNormDistance: [P, attn.normWeights(P, [1, 2, 3])], task: ['induction'], liveModels: [],
  };
  const declared = returnTypes('Attention');
  const checked = [];
  for (const [name, types] of declared) {
    if (name === 'example') {
      for (const ex of ['core-attention', 'weighted-sum', 'permutation', 'reading-heads', 'no-weights', 'projections',
        'causal-dropout', 'multi-head', 'one-head']) {
        const r = attn.example(ex);
        const each = types.map((t) => differences(r, parseType(t), `example('${ex}')`));
        assert.ok(each.some((d) => d.length === 0), `example('${ex}') matches no declared overload: ${each.map((d) => d[0]).join('; ')}`);
      }
      checked.push(name);
      continue;
    }
    if (name === 'createModel' || name === 'loadModel') continue; // below
    assert.ok(name in calls, `no sample call for ${name}: add one here`);
    const r = attn[name](...calls[name]);
    assert.deepEqual(differences(r, parseType(types[0]), name), []);
    checked.push(name);
  }
  assert.ok(checked.length > 55, `${checked.length} results checked`);
  assert.deepEqual(differences(attn.simd, parseType('string'), 'simd'), []);
});

test('a model handle\'s results have the fields attn.d.ts declares', async () => {
  const m = attn.createModel({ task: 'induction', dModel: 16, dK: 8, batch: 4, evalSize: 8 });
  try {
    assert.deepEqual(differences(m.config, objectOf(parseType('Required<ModelConfig>')), 'config'), []);
    assert.deepEqual(differences(m.task, parseType('TaskInfo'), 'task'), []);
    const r = returnTypes('ModelHandle');
    assert.deepEqual(differences(m.train(2), parseType(r.get('train')[0]), 'train'), []);
    assert.deepEqual(differences(m.evaluate(), parseType(r.get('evaluate')[0]), 'evaluate'), []);
    const n = m.task.minLen;
    assert.deepEqual(differences(m.probe(Array.from({ length: n }, (_, i) => i % 2)), parseType(r.get('probe')[0]), 'probe'), []);
    assert.deepEqual(differences(m.heads(4), parseType(r.get('heads')[0]), 'heads'), []);
  } finally {
    m.dispose();
  }
  const bytes = await readFile(new URL('../../models/text-model/model.bin', import.meta.url));
  const t = attn.loadModel(bytes);
  try {
    assert.deepEqual(differences(t.config, parseType('TextModelConfig'), 'config'), []);
    const r = returnTypes('TextModelHandle');
    assert.deepEqual(differences(t.probe('the cat sat'), parseType(r.get('probe')[0]), 'probe'), []);
    assert.deepEqual(differences(t.evaluate('the cat sat'), parseType(r.get('evaluate')[0]), 'evaluate'), []);
    assert.deepEqual(differences(t.heads('the cat sat on the mat'), parseType(r.get('heads')[0]), 'heads'), []);
  } finally {
    t.dispose();
  }
});
