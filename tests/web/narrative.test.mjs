// The narrative as data (web/src/kit/narrative.js): a chapter's prose blocks and figures in
// reading order. The list's shape, the checks made when a chapter mounts, the rendering
// through the kit's primitives (stand-ins here, no browser), and every chapter's
// narrative.js against its prose in both languages.
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { entryShape, narrativeKeys, checkNarrative, renderNarrative } from '../../web/src/kit/narrative.js';
import { readChapters, CHAPTERS_DIR } from '../../web/scripts/chapters.mjs';

test('entries: a tag with a key, keys with choose, a container, a figure; anything else throws', () => {
  assert.deepEqual(entryShape({ p: 'lead', class: 'lead' }), { tag: 'p', keys: ['lead'] });
  assert.deepEqual(entryShape({ p: ['a', 'b'], choose: 'c' }), { tag: 'p', keys: ['a', 'b'] });
  assert.deepEqual(entryShape({ ul: [{ li: 'x' }] }), { tag: 'ul', children: [{ li: 'x' }] });
  assert.deepEqual(entryShape({ figure: 'steps' }), { figure: 'steps' });
  for (const [bad, why] of [
    [{ p: 'a', clas: 'x' }, /unknown clas/],
    [{ p: 'a', h3: 'b' }, /one tag per entry, not p and h3/],
    [{ class: 'x' }, /not none/],
    [{ p: ['a', 'b'] }, /needs choose/],
    [{ p: 'a', choose: 'c' }, /list of keys/],
    [{ ul: [{ li: 'x' }], vars: 'v' }, /container \(ul\) has no text/],
    [{ figure: 'f', class: 'x' }, /takes nothing else/],
    [{ p: 3 }, /a text key, a list of keys, or a list of entries/],
    [['p', 'a'], /an object/],
  ]) assert.throws(() => entryShape(bad), why, JSON.stringify(bad));
});

test('checks: every figure placed once and defined, names once, choose and example defined', () => {
  const figures = { a: () => {}, b: () => {} };
  assert.doesNotThrow(() => checkNarrative([{ figure: 'a' }, { p: 'x', name: 'n' }, { figure: 'b' }], { figures }));
  assert.throws(() => checkNarrative([{ figure: 'a' }], { figures }), /figure b is defined but not placed/);
  assert.throws(() => checkNarrative([{ figure: 'a' }, { figure: 'b' }, { figure: 'a' }], { figures }), /figure a is placed twice/);
  assert.throws(() => checkNarrative([{ figure: 'c' }], {}), /3?1: figure c is not one of the chapter's/);
  assert.throws(() => checkNarrative([{ p: 'x', name: 'n' }, { ul: [{ li: 'y', name: 'n' }] }]), /2\.1: the name n is used twice/);
  assert.throws(() => checkNarrative([{ p: ['x', 'y'], choose: 'which' }]), /choose which is not one of the chapter's/);
  assert.throws(() => checkNarrative([{ p: 'x', example: 'edited' }]), /example edited is not one of the chapter's/);
  assert.deepEqual(narrativeKeys([{ h2: 'title' }, { p: 'hint', common: true }, { ul: [{ li: ['a', 'b'], choose: 'c' }] }, { figure: 'f' }]),
    { chapter: ['title', 'a', 'b'], common: ['hint'] });
});

// The kit's primitives, recording what was made where.
function standIn() {
  const made = [];
  const node = (tag, cls, parent) => {
    const n = { tag, cls: cls || '', dataset: {}, children: [] };
    (parent?.children ?? made).push(n);
    return n;
  };
  const kit = {
    el: (tag, cls, parent) => node(tag, cls, parent),
    text: (tag, key, parent, vars, cls) => Object.assign(node(tag, cls, parent), { key, vars }),
    commonText: (tag, key, parent, cls) => Object.assign(node(tag, cls, parent), { common: key }),
    describesExample: (n, fields) => Object.assign(n, { example: fields }),
  };
  return { kit, section: node('section') };
}

test('rendering: in order, into the right parent, with class, data, id, vars, choose, example and names', () => {
  const { kit, section } = standIn();
  const edited = (s) => s.X !== 1;
  const out = renderNarrative([
    { h2: 'title' },
    { p: 'hint', common: true, class: 'hint' },
    { figure: 'grids' },
    { ul: [
      { li: 'sum', vars: 'sums', data: { check: 'sums' }, name: 'sumLine' },
      { li: 'own', vars: 'mine' },
    ], class: 'checks' },
    { p: ['even', 'uneven'], choose: 'even', id: 'x-even', example: 'edited' },
    { p: 'body', example: ['X', 'Y'] },
  ], section, kit, {
    figures: { grids: (parent) => ({ grid: kit.el('div', 'grid-row', parent) }) },
    vars: { mine: () => ({ a: 1 }) },
    choose: { even: (s) => (s.even ? 'even' : null) },
    example: { edited },
  });
  assert.deepEqual(section.children.map((n) => n.tag), ['h2', 'p', 'div', 'ul', 'p', 'p']);
  const [h2, hint, grid, ul, even, body] = section.children;
  assert.equal(h2.key, 'title');
  assert.equal(h2.vars, undefined, 'no vars: the kit default');
  assert.deepEqual([hint.common, hint.cls], ['hint', 'hint']);
  assert.equal(out.grids.grid, grid, 'a figure returns what it built, under its name');
  assert.equal(ul.cls, 'checks');
  const [sum, own] = ul.children;
  assert.equal(out.sumLine, sum);
  assert.deepEqual(sum.dataset, { check: 'sums' });
  assert.deepEqual(sum.vars({}, { sums: { s: '1, 1' } }), { s: '1, 1' }, 'vars: a field of the draw result');
  assert.deepEqual(sum.vars({}, null), {}, 'before the first result: no values');
  assert.deepEqual(own.vars({}, null), { a: 1 }, "vars: the chapter's function");
  assert.equal(even.id, 'x-even');
  assert.equal(even.key({ even: true }), 'even');
  assert.equal(even.key({ even: false }), null);
  assert.equal(even.example, edited);
  assert.deepEqual(body.example, ['X', 'Y']);
  const { kit: k2, section: s2 } = standIn();
  const [p] = (renderNarrative([{ p: ['a', 'b'], choose: 'c' }], s2, k2, { choose: { c: () => 'z' } }), s2.children);
  assert.throws(() => p.key({}), /choose c gave z, not one of a, b/);
});

test("every chapter has a narrative.js: well formed, and its keys in ko.js and en.js", async () => {
  const kitText = { ko: (await import('../../web/src/kit/ko.js')).default, en: (await import('../../web/src/kit/en.js')).default };
  const chapters = await readChapters();
  for (const c of chapters) {
    const file = join(CHAPTERS_DIR, c.id, 'narrative.js');
    assert.ok(existsSync(file), `${c.id} has a narrative.js`);
    const list = (await import(file)).default;
    const keys = narrativeKeys(list);
    for (const lang of ['ko', 'en']) {
      for (const key of keys.chapter) assert.equal(typeof c.text[lang][key], 'string', `${c.id}: ${lang}.js has ${key}`);
      for (const key of keys.common) assert.equal(typeof kitText[lang][key], 'string', `${c.id}: kit/${lang}.js has ${key}`);
    }
    assert.deepEqual(list.slice(0, 1), [{ h2: 'title' }], `${c.id}: the narrative opens with the title`);
  }
  assert.ok(chapters.length > 0, 'the chapters are found');
});

test('a figure gets what the entries before it were returned under (a stepper takes its panels)', () => {
  const { kit, section } = standIn();
  let seen = null;
  renderNarrative([
    { div: [{ p: 'one' }], name: 'panel1' },
    { div: [{ p: 'two' }], name: 'panel2' },
    { figure: 'steps' },
    { p: 'after', name: 'after' },
  ], section, kit, { figures: { steps: (parent, placed) => (seen = { ...placed }) } });
  assert.deepEqual(Object.keys(seen), ['panel1', 'panel2']);
  assert.equal(seen.panel1, section.children[0]);
});
