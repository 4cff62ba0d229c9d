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
