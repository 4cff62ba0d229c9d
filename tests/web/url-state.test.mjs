// Permalink text (web/src/kit/url-state.js) and matrix text (web/src/matrix-text.js), in Node:
// round trips, defaults left out, and every kind of hand-edited or corrupt input refused
// with a reason instead of an exception.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  encodeNumber, decodeNumber, encodeValue, decodeValue, encodeSlice, decodeSlice, sameValue,
  readQuery, buildQuery, readFragment, parseCellRefs, cellRef,
} from '../../web/src/kit/url-state.js';
import { plainNumber, matrixToText, matrixToLatex, matrixToMarkdown, matrixToCsv, parseMatrixText, MatrixTextError } from '../../web/src/matrix-text.js';

const M = (rows, cols, xs) => ({ rows, cols, data: Float32Array.from(xs) });

test('numbers: shortest text that reads back to the same float32', () => {
  for (const x of [0, 1, -1, 0.5, -0.25, 0.1, 1 / 3, -2.718281828, 1e-7, 123456.789, 3.4e38, -1e-30]) {
    const f = Math.fround(x);
    const t = encodeNumber(f);
    assert.equal(Math.fround(decodeNumber(t)), f, `${x} -> ${t}`);
    assert.ok(!/[^0-9.e-]/.test(t), `${t} uses only digits, '.', 'e', '-'`);
  }
  assert.equal(encodeNumber(Math.fround(0.1)), '.1');
  assert.equal(encodeNumber(Math.fround(-0.5)), '-.5');
  assert.equal(encodeNumber(-0), '0');
  assert.equal(encodeNumber(-Infinity), '!-inf');
  assert.equal(decodeNumber('!-inf'), -Infinity);
  assert.ok(Number.isNaN(decodeNumber('!nan')));
  assert.throws(() => decodeNumber('1..2'), /not a number/);
  // the typed-number rule's texts, without '+' (a link writes 2) and without ASCII's others
  for (const t of ['+2', '', 'Infinity', '0x10', '1,5', '1e', '.']) assert.throws(() => decodeNumber(t), /not a number/, t);
  for (const [t, x] of [['2.', 2], ['-.5', -0.5], ['1E-3', 0.001], ['007', 7]]) assert.equal(decodeNumber(t), x, t);
  // a matrix entry float32 would store as 0 though written nonzero: refused, as a cell refuses it
  for (const t of ['1e-999', '-1e-50', '0.00000000000000000000000000000000000000000000001'])
    assert.throws(() => decodeNumber(t, true), (e) => e.code === 'tiny' || /closer to 0/.test(e.message), t);
  for (const t of ['0', '-0', '0e-999', '1e-45', '0.000']) assert.ok(Number.isFinite(decodeNumber(t, true)), t); // (0 and float32's smallest subnormal are kept)
  assert.throws(() => decodeNumber('0x10'), /not a number/);
});

test('values of every kind round-trip', () => {
  const dflt = M(2, 3, [1, 2, 3, 4, 5, 6]);
  const cases = [
    true, false, null, 0, -3, 0.125, 'rows', 'a string; with: separators, and % * ~ ( )', '12', 'Ünïcödé 한국어', '\uFEFFa byte-order mark first',
    [2, 0], [], ['a', true, null, 1.5], M(2, 3, [1, 2, 3, 4, 5, 6.5]), M(0, 0, []), M(1, 2, [-Infinity, 0]),
    { nested: { list: [1, 2] } }, [M(1, 1, [7])],
  ];
  for (const v of cases) {
    const t = encodeValue(v, dflt);
    assert.ok(!/[\s&#?=+%]/.test(t), `${t} is safe in a query value`);
    assert.ok(sameValue(decodeValue(t, dflt), v), `${JSON.stringify(v)} via ${t}`);
  }
});

test('a matrix with a few edits is written as the changed entries only', () => {
  const dflt = M(3, 8, Array.from({ length: 24 }, (_, k) => k % 3));
  const edited = { ...dflt, data: Float32Array.from(dflt.data) };
  edited.data[19] = 5;
  assert.equal(encodeValue(edited, dflt), '~19_5');
  assert.deepEqual(Array.from(decodeValue('~19_5', dflt).data), Array.from(edited.data));
  const all = M(3, 8, Array.from({ length: 24 }, (_, k) => k + 0.5));
  assert.match(encodeValue(all, dflt), /^3x8,/); // dense is shorter when everything changed
  assert.throws(() => decodeValue('~24_1', dflt), /not an entry/);
  assert.throws(() => decodeValue('~x_1', dflt), /not an entry/);
  assert.throws(() => decodeValue('~1_1', 5), /not a matrix/);
});

test('slices: only what differs from the defaults, transient keys left out, meta entries apart', () => {
  const defaults = { Q: M(2, 2, [1, 0, 0, 1]), causal: true, head: 0, focus: [2, 0], hover: null, label: 'x' };
  assert.equal(encodeSlice(defaults, defaults), '');
  const s = { ...defaults, Q: M(2, 2, [1, 0, 0.5, 1]), causal: false, hover: ['S', 1, 1], head: 1 };
  const text = encodeSlice(s, defaults, { transient: ['hover'], meta: { step: 'softmax', hide: ['P.3.1', 'P.3.2'] } });
  assert.equal(text, 'Q:~2_.5;causal:!f;head:1;!step:softmax;!hide:@P.3.1,P.3.2');
  const back = decodeSlice(text, defaults);
  assert.deepEqual(back.problems, []);
  assert.deepEqual(back.meta, { step: 'softmax', hide: ['P.3.1', 'P.3.2'] });
  const merged = { ...defaults, ...back.slice };
  for (const k of ['Q', 'causal', 'head', 'focus']) assert.ok(sameValue(merged[k], s[k]), k);
  assert.equal(merged.hover, null);
});

test('hand-edited or corrupt slices: each bad entry dropped with a reason, the rest kept', () => {
  const defaults = { Q: M(2, 2, [1, 0, 0, 1]), causal: true, head: 0, focus: [2, 0] };
  const bad = [
    ['Q:2x2,1,2,3', /needs 4 numbers/],
    ['Q:99999x99999,1', /too large/],
    ['Q:2x2,1,2,3,abc', /not a number/],
    ['Q:2x2,1,2,3,1e300', /outside the allowed range/],
    ['Q:2x2,1,2,3,!inf', /outside the allowed range/],
    ['Q:!t', /expected a matrix/],
    ['causal:3', /expected a boolean/],
    ['head:!nan', /NaN, not a number/],
    ['focus:@a,b', /expected a list of numbers/],
    ['zzz:1', /no setting "zzz"/],
    ['garbage', /not a setting/],
    ['Q:!j%%%', /JSON|base64/],
    ['$%E0:1', /escaped/],
  ];
  for (const [text, re] of bad) {
    const r = decodeSlice(`${text};head:1`, defaults);
    assert.equal(r.problems.length, 1, text);
    assert.match(String(r.problems[0]), re, text);
    assert.equal(r.slice.head, 1, `the good entry after ${text} is kept`);
    assert.ok(!('Q' in r.slice) || text.startsWith('head'), text);
  }
});

test('query strings: read raw (percent-decoded once), written without escaping our characters', () => {
  const q = buildQuery([['lang', 'en'], ['core-attention', 'Q:~19_5;causal:!f;!hide:@P.3.1'], ['x', undefined]]);
  assert.equal(q, '?lang=en&core-attention=Q:~19_5;causal:!f;!hide:@P.3.1');
  assert.deepEqual(readQuery(q), [['lang', 'en', false], ['core-attention', 'Q:~19_5;causal:!f;!hide:@P.3.1', false]]);
  // a chat app that percent-encodes the separators on the way
  assert.deepEqual(readQuery('?core-attention=Q%3A~19_5%3Bcausal%3A!f')[0][1], 'Q:~19_5;causal:!f');
  assert.equal(readQuery('?a=%E0%A4%A')[0][2], true); // malformed escapes are flagged, not thrown
  assert.deepEqual(readQuery(''), []);
});

test('fragments: decoded without ever throwing; a malformed escape stays as typed (issue 26)', () => {
  assert.equal(readFragment('#two-keys'), 'two-keys');
  assert.equal(readFragment('two-keys'), 'two-keys');
  assert.equal(readFragment(''), '');
  assert.equal(readFragment('#%ED%95%9C'), '\uD55C');
  assert.equal(readFragment('#two-keys%'), 'two-keys%');
  assert.equal(readFragment('#%%'), '%%');
  assert.equal(readFragment('#%E0%A4%A'), '%E0%A4%A');
  // the valid escapes beside a broken one are still decoded
  assert.equal(readFragment('#two%2Dkeys%'), 'two-keys%');
  assert.equal(readFragment('#%ED%95%9C%FF%41'), '\uD55C%FFA');
  assert.equal(readFragment('#%C3%28'), '%C3(');
  for (let i = 0; i < 2000; i++) {
    const t = Array.from({ length: 1 + (i % 9) }, (_, k) => '%%0A9FfzE-'[(i * 7 + k * 13) % 10]).join('');
    assert.equal(typeof readFragment(`#${t}`), 'string', t);
  }
});

test('exercise cell references: grid.row.column from 1', () => {
  assert.equal(cellRef('P', 2, 0), 'P.3.1');
  const { cells, problems } = parseCellRefs('P.3.1, P-sums.1.1 flow-O1.2.4 P.0.1 nonsense');
  assert.deepEqual(cells, [{ grid: 'P', i: 2, j: 0, ref: 'P.3.1' }, { grid: 'P-sums', i: 0, j: 0, ref: 'P-sums.1.1' }, { grid: 'flow-O1', i: 1, j: 3, ref: 'flow-O1.2.4' }]);
  assert.equal(problems.length, 2);
  // each keeps its text as written, for a message: a row too large to read exactly is not 1e+23
  assert.equal(parseCellRefs('P.99999999999999999999.1').cells[0].ref, 'P.99999999999999999999.1');
});

// A number written as a decimal that is too large to store (1e999 as a double, 1e39 as a
// float32 entry of a matrix) is refused, never read as ±Infinity, whatever the default says
// (out of the allowed range where the default has one); every message quotes the number as
// it was written (not "!inf", not 10000000 for 1e7).
test('numbers too large to store are refused, and messages quote what was written', () => {
  for (const t of ['1e999', '-1e400', '9'.repeat(400)]) assert.throws(() => decodeNumber(t), /outside the range of numbers that can be stored/, t);
  assert.equal(decodeNumber('1e39'), 1e39, 'a double');
  assert.throws(() => decodeNumber('1e39', true), /1e39 is outside the range of numbers that can be stored/, 'a float32');
  assert.equal(decodeNumber('!inf'), Infinity, 'written as infinity: kept where a default allows it');
  // a default that says nothing about the kind (null), a list, a matrix, JSON: the same
  const defaults = { Q: M(2, 2, [1, 0, 0, 1]), q: M(1, 2, [1, 1]), head: 0, focus: [2, 0], cell: null, mask: M(1, 2, [-Infinity, 0]), X: {} };
  const json = (v) => `!j${Buffer.from(v).toString('base64url')}`;
  const cases = [
    ['q:1x2,1e999,0', /^q: 1e999 is outside the allowed range for q$/],
    ['Q:~3_1e999', /^Q: 1e999 is outside the allowed range for Q$/],
    ['head:-1e999', /^head: -1e999 is outside the allowed range for head$/],
    ['mask:1x2,1e39,0', /^mask: 1e39 is outside the range of numbers that can be stored$/],
    ['cell:1e999', /^cell: 1e999 is outside the range/],
    ['cell:@1,-1e999', /^cell: -1e999 is outside the range/],
    ['focus:@2,1e999', /^focus: 1e999 is outside the allowed range/],
    [`X:${json('{"a":1e999}')}`, /^X: (1e999|Infinity) is outside the range/],
    // finite but out of the allowed range: quoted as written
    ['Q:2x2,1,2,3,1e7', /^Q: 1e7 is outside the allowed range for Q$/],
    ['Q:~1_-2.5e30', /^Q: -2\.5e30 is outside the allowed range for Q$/],
    ['head:1e300', /^head: 1e300 is outside the allowed range for head$/],
    ['focus:@2,1e20', /^focus: 1e20 is outside the allowed range/],
    ['Q:2x2,1,2,3,!inf', /^Q: !inf is outside the allowed range for Q$/],
    // NaN is said as not a number, not as out of range
    ['Q:~1_!nan', /^Q: !nan \(NaN, not a number\) is not allowed for Q$/],
    ['head:!nan', /^head: !nan \(NaN, not a number\) is not allowed for head$/],
  ];
  for (const [text, re] of cases) {
    const r = decodeSlice(`${text};head:1`, defaults);
    assert.equal(r.problems.length, 1, text);
    assert.match(String(r.problems[0]), re, text);
    assert.equal(r.slice.head, 1, text);
    assert.deepEqual(Object.keys(r.slice), ['head'], `${text}: nothing else is kept`);
  }
  assert.deepEqual(Array.from(decodeSlice('mask:1x2,!-inf,3', defaults).slice.mask.data), [-Infinity, 3]);
});

test('problems are said in the language of the notice, every one (ko and en)', async () => {
  const { problemText } = await import('../../web/src/kit/url-state.js');
  const { fill } = await import('../../web/src/kit/fill.js');
  const ko = (await import('../../web/src/kit/ko.js')).default;
  const en = (await import('../../web/src/kit/en.js')).default;
  const defaults = { Q: { rows: 2, cols: 2, data: new Float32Array(4) }, causal: true };
  const { problems } = decodeSlice('zzz:1;Q:2x2,1,2,3,!inf;causal:3;Q:3x3,1;Q:~9_1;garbage;!step:%;!step:1e999;Q:~1_!nan;Q:~1_1e-999', defaults);
  problems.push(...parseCellRefs('P.0.1').problems);
  assert.equal(problems.length, 11);
  for (const p of problems) {
    const k = problemText(p, (key, v) => fill(ko.link[key], v));
    const e = problemText(p, (key, v) => fill(en.link[key], v));
    assert.equal(e, String(p));
    assert.doesNotMatch(k, /\{|\b(there|is|the|expected|not|a|link)\b/, `${e} -> ${k}`);
    assert.match(k, /[\uac00-\ud7a3]/, `${e} -> ${k}`);
  }
});

test('matrix text: copy out, paste in, LaTeX, Markdown, CSV', () => {
  const m = M(2, 3, [1, -0.5, Math.fround(0.1), -Infinity, 2.25, 1e-7]);
  assert.equal(plainNumber(Math.fround(0.1)), '0.1');
  assert.equal(matrixToText(m), '1 -0.5 0.1\n-inf 2.25 1e-7');
  assert.equal(matrixToLatex(m, { digits: 3 }), '\\begin{bmatrix}\n  1 & -0.5 & 0.1 \\\\\n  -\\infty & 2.25 & 0\n\\end{bmatrix}');
  assert.equal(matrixToMarkdown(m, { digits: 2, fixed: true, rowLabel: (i) => `q${i + 1}`, colLabel: (j) => `k${j + 1}` }),
    '|  | k1 | k2 | k3 |\n|---|---:|---:|---:|\n| q1 | 1.00 | −0.50 | 0.10 |\n| q2 | −∞ | 2.25 | 0.00 |');
  assert.equal(matrixToCsv(m), '1,-0.5,0.1\r\n-inf,2.25,1e-7');
  const hidden = new Set(['0,1']);
  assert.equal(matrixToText(m, { hidden }).split('\n')[0], '1 ? 0.1');
  assert.match(matrixToLatex(m, { hidden }), /1 & \\square & 0\.1/);
  const finite = M(2, 2, [1.5, -2, Math.fround(0.3), 4]);
  assert.deepEqual(parseMatrixText(matrixToText(finite)), finite);
  for (const text of ['1.5, -2\n0.3, 4', '1.5\t-2\r\n0.3\t4\n\n', '[[1.5, -2], [0.3, 4]]', '\\begin{bmatrix} 1.5 & -2 \\\\ 0.3 & 4 \\end{bmatrix}', '1.5 −2\n0.3 +4'])
    assert.deepEqual(Array.from(parseMatrixText(text).data), Array.from(finite.data), JSON.stringify(text));
  const err = (text, code) => assert.throws(() => parseMatrixText(text), (e) => e instanceof MatrixTextError && e.code === code, `${JSON.stringify(text)} -> ${code}`);
  err('', 'empty');
  err('1 2\n3', 'ragged');
  err('1 2\n3 abc', 'nan');
  err('1,,2', 'gap');
  err('1 2\n3 ; ; 4', 'gap');
  err(',,,', 'empty');
  err(';\n , ', 'empty');
  assert.deepEqual(Array.from(parseMatrixText('1 ,2;\n;\n3, 4').data), [1, 2, 3, 4]); // a separator line is skipped
  err('1 2\n3 1e9', 'range');
  err('1 NaN', 'nan');
  err('x'.repeat(300000), 'long');
});

// A widget's state attribute is not a link: every problem text that speaks of the link
// (common.link) has the attribute's wording too (common.attrLink, used by widget.js).
test('every problem text that names the link has an attribute wording, in both languages', async () => {
  const { default: en } = await import('../../web/src/kit/en.js');
  const { default: ko } = await import('../../web/src/kit/ko.js');
  for (const [lang, words, re] of [['en', en, /\blink\b/i], ['ko', ko, /링크/]]) {
    for (const [k, v] of Object.entries(words.link)) if (re.test(v)) assert.ok(k in words.attrLink, `${lang} link.${k}: ${v}`);
    for (const [k, v] of Object.entries(words.attrLink)) {
      assert.doesNotMatch(v, re, `${lang} attrLink.${k}`);
      assert.ok(k in en.attrLink && k in ko.attrLink, `${lang} attrLink.${k} in both languages`);
    }
  }
});

// A grid's Markdown export pastes back (a fresh try found "“|” on row 1 is not a number"),
// with its header, rule and row labels left out; a Markdown table without row labels too.
test('parseMatrixText reads a Markdown table, as matrixToMarkdown writes it', async () => {
  const { matrixToMarkdown, parseMatrixText } = await import('../../web/src/matrix-text.js');
  const m = { rows: 2, cols: 3, data: Float32Array.from([1, -2.5, 0.125, 4, 5, -6]) };
  const md = matrixToMarkdown(m, { digits: 3, rowLabel: (i) => `q${i + 1}`, colLabel: (j) => `k|${j + 1}` });
  const back = parseMatrixText(md);
  assert.deepEqual([back.rows, back.cols, [...back.data]], [2, 3, [1, -2.5, 0.125, 4, 5, -6]]);
  const plain = parseMatrixText('| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |');
  assert.deepEqual([plain.rows, plain.cols, [...plain.data]], [2, 2, [1, 2, 3, 4]]);
  assert.throws(() => parseMatrixText('|  | 1 |\n|---|---:|\n| q1 | ? |'), /not a number/); // (a hidden cell's "?")
});
