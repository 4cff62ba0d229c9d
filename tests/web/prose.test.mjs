// Worked formulas whose numbers change (web/src/kit/prose.js): a formula is typeset once
// per structure with its numbers in slots, and later numbers are written into the slots.
// That is only right if writing digits into the slots gives what KaTeX would typeset for
// the new numbers, and if the slots change nothing else (spacing, struts, MathML).
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { slottedHtml, texToHtml, assemble, skeleton as slotsOf, escapeHtml } from '../../web/src/kit/prose.js';
import { tex } from '../../web/src/format.js';

const require = createRequire(new URL('../../web/package.json', import.meta.url));
const katex = require('katex');
const fc = require('fast-check');

// Formulas shaped as the chapters write them (their templates, with numbers from tex()).
const paren = (x) => (x < 0 ? `(${tex(x)})` : tex(x));
const w3 = { digits: 3, fixed: true };
const vec = (xs, o) => `[${xs.map((x) => tex(x, o)).join(',\\ ')}]`;
const FORMULAS = [
  (a, b, c) => `\\begin{aligned} q_{1} \\cdot k_{2} &= ${paren(a)} \\times ${paren(b)} + ${paren(c)} \\times ${paren(a)} \\\\ &= \\mathbf{${tex(a * b + c * a)}} \\end{aligned}`,
  (a, b, c) => `\\begin{aligned} P_{2,\\cdot} &= \\frac{[e^{${tex(a)}},\\ e^{${tex(b)}}]}{e^{${tex(a)}} + e^{${tex(b)}}} \\\\ &= ${vec([a, b, c], w3)} \\end{aligned}`,
  (a, b) => `\\omega_{12} = ${paren(a)}\\times${paren(b)} = \\mathbf{${tex(a * b)}}`,
  (a, b, c) => `\\frac{${tex(a)}}{${tex(b, w3)}} \\approx \\mathbf{${tex(c, w3)}}`,
  (a, b) => `\\sqrt{d_k} = \\sqrt{${Math.round(Math.abs(a)) + 1}} \\approx ${tex(b, w3)}`,
  (a, b) => `\\alpha_{1} = \\frac{${tex(Math.abs(a), w3)}\\times10^{3}}{${tex(Math.abs(b), w3)}} \\approx \\mathbf{${tex(a, w3)}}`,
  (a, b, c) => `\\textstyle\\sum_j \\alpha_{1j} = ${tex(a, w3)} + ${tex(b, w3)} + ${tex(c, w3)}`,
  (a, b) => `z_1 = ${tex(a, w3)}\\,x_{1} + ${tex(b, w3)}\\,x_{2}`,
  (a, b) => `\\begin{aligned} o_{3} &= ${tex(a, w3)}\\,${vec([a, b])} \\\\ &= ${vec([b, a])} \\end{aligned}`,
  // numbers in both columns of a later row: the HTML holds the left column first
  (a, b, c) => `\\begin{aligned}\\alpha_{2} &= ${vec([a, b], w3)} \\\\ \\textstyle\\sum_j \\alpha_{{2}j} &= ${tex(c, w3)}\\end{aligned}`,
  (a) => `\\mathrm{PE}_{(2, 4)} = \\sin\\!\\left(\\frac{2}{10000^{4/8}}\\right) = ${tex(a)}`,
];
const number = fc.double({ min: -500, max: 500, noNaN: true }).map((x) => Math.round(x * 1000) / 1000);

// The slots' digits as typeset: [digits] in order, and the HTML with them taken out.
// (KaTeX puts the spacing that follows a number inside its slot, after the digits.)
// A slot's class ae-n<k> is its number's place in the TeX (the HTML's order can differ).
const SLOT = /<span class="enclosing ae-n ae-n(\d+)( mtight)?">(<span class="[^"]*"(?: style="[^"]*")?>)([^<]*)(<\/span>)((?:<span class="mspace[^"]*" style="[^"]*"><\/span>)*)<\/span>/g;
const digitsOf = (html) => [...html.matchAll(SLOT)].sort((a, b) => a[1] - b[1]).map((m) => m[4]);
const withDigits = (html, digits) => html.replace(SLOT, (m, k, tight = '', open, d, close, space) => `<span class="enclosing ae-n ae-n${k}${tight}">${open}${digits[k]}${close}${space}</span>`);
// Without the slots' wrappers; and \mathbf{\htmlClass{..}{1.5}} loses an unstyled <span
// class="mord"> around the bold digits that \mathbf{1.5} has, which changes nothing on
// screen (no rule of KaTeX's stylesheet selects it, and spacing is typeset, not styled).
const unslotted = (html) => plainOrd(html.replace(SLOT, (m, k, tight, open, d, close, space) => `${open}${d}${close}${space}`));
const plainOrd = (html) => html.replace(/<span class="mord">((?:<span class="mord">−<\/span>)?<span class="mord mathbf">[^<]*<\/span>)<\/span>/g, '$1');
// A signed slot (prose.js signSlot): the sign and parentheses KaTeX would set, put in
// beside the digits as the page puts them in; without the slots' wrappers.
const unslottedSigned = (html, signed) => plainOrd(html.replace(SLOT, (m, k, tight, open, d, close, space) => {
  const form = signed[k][0] === '(' ? '(-' : signed[k][0] === '-' ? '-' : '';
  const t = open.includes('mtight') ? ' mtight' : '';
  const sign = form ? `<span class="mord${t}">−</span>` : '';
  const [l, r] = form === '(-' ? [`<span class="mopen${t}">(</span>`, `<span class="mclose${t}">)</span>`] : ['', ''];
  return `${l}${sign}${open}${d}${close}${r}${space}`;
}));
// A base's strut holds the height and depth KaTeX measured: typeset with the digits alone,
// a slot's is that of the digits, not of a minus or a parenthesis put in later (these
// reach no deeper than the line's own text, so nothing moves: the browser test of
// core-attention compares the boxes)
const noStruts = (html) => html.replace(/<span class="strut" style="[^"]*"><\/span>/g, '<span class="strut"></span>');
const skeleton = (t) => slotsOf(t).skel;

test('KaTeX output assembled from its HTML-only and MathML-only parts is its own htmlAndMathml output', () => {
  for (const f of FORMULAS) for (const display of [false, true]) {
    const t = f(1.5, -2.25, 0.125);
    const html = katex.renderToString(t, { displayMode: display, output: 'html', throwOnError: false });
    const ml = katex.renderToString(t, { displayMode: display, output: 'mathml', throwOnError: false }).replace(/^<span class="katex">|<\/span>$/g, '');
    assert.equal(assemble(html, ml), texToHtml(t, { display }), t);
  }
});

test('slots change nothing else: without their wrappers, a slotted formula is KaTeX\'s own output', () => {
  fc.assert(fc.property(fc.integer({ min: 0, max: FORMULAS.length - 1 }), number, number, number, fc.boolean(), (k, a, b, c, display) => {
    const t = FORMULAS[k](a, b, c);
    const slotted = slottedHtml(t, { display });
    assert.ok(digitsOf(slotted).length > 0, `${t} has slots`);
    assert.equal(noStruts(unslottedSigned(slotted, slotsOf(t).digits)), noStruts(plainOrd(texToHtml(t, { display }))), t);
  }), { numRuns: 300 });
});

test('writing new digits into the slots gives what typesetting the new numbers gives', () => {
  let compared = 0;
  fc.assert(fc.property(fc.integer({ min: 0, max: FORMULAS.length - 1 }), fc.array(number, { minLength: 6, maxLength: 6 }), fc.boolean(), (k, xs, display) => {
    const a = FORMULAS[k](xs[0], xs[1], xs[2]);
    const b = FORMULAS[k](xs[3], xs[4], xs[5]);
    if (skeleton(a) !== skeleton(b)) return; // another structure: the page typesets anew
    compared++;
    const before = slottedHtml(a, { display });
    const after = slottedHtml(b, { display });
    // the HTML part only: the MathML is rebuilt from the TeX on every change
    const html = (h) => h.replace(/<span class="katex-mathml">.*?<\/math><\/span>/, '');
    assert.equal(html(withDigits(before, digitsOf(after))), html(after), `${a} → ${b}`);
  }), { numRuns: 400 });
  assert.ok(compared > 100, `${compared} pairs of the same structure compared`);
});

test('the MathML: where its <mn> are the slots\' digits in order, writing new digits and TeX gives KaTeX\'s MathML', () => {
  const MN = /(<mn(?: [^>]*)?>)([^<]*)(<\/mn>)/g;
  const ANNOTATION = /(<annotation encoding="application\/x-tex">)([^<]*)(<\/annotation>)/;
  const mathml = (t, display) => katex.renderToString(t, { displayMode: display, output: 'mathml', throwOnError: false });
  let compared = 0;
  fc.assert(fc.property(fc.integer({ min: 0, max: FORMULAS.length - 1 }), fc.array(number, { minLength: 6, maxLength: 6 }), fc.boolean(), (k, xs, display) => {
    const a = FORMULAS[k](xs[0], xs[1], xs[2]);
    const b = FORMULAS[k](xs[3], xs[4], xs[5]);
    const sa = slotsOf(a), sb = slotsOf(b);
    if (sa.skel !== sb.skel) return; // another structure: the page typesets anew
    // a sign that came or went: prose.js typesets the MathML anew
    if (sa.digits.some((d, j) => (d[0] === '-' || d[0] === '(') !== (sb.digits[j][0] === '-' || sb.digits[j][0] === '('))) return;
    const digits = (xs) => xs.map((d) => d.replace(/[^\d.]/g, ''));
    const before = mathml(a, display);
    const mns = [...before.matchAll(MN)].map((m) => m[2]);
    if (mns.length !== sa.digits.length || mns.some((d, j) => d !== digits(sa.digits)[j])) return; // prose.js morphs these
    compared++;
    let j = 0;
    const written = before.replace(MN, (m, open, d, close) => `${open}${digits(sb.digits)[j++]}${close}`)
      .replace(ANNOTATION, (m, open, t, close) => `${open}${escapeHtml(b)}${close}`);
    assert.equal(written, mathml(b, display), `${a} → ${b}`);
  }), { numRuns: 400 });
  assert.ok(compared > 100, `${compared} pairs with their numbers in <mn> compared`);
});

test('numbers that cannot be slots stay in the structure: unbraced scripts, units, NaN and ∞', () => {
  const digits = (t) => digitsOf(slottedHtml(t));
  assert.deepEqual(digits('x_1 + y^2 = 3.5'), ['3.5']);
  assert.deepEqual(digits('\\hspace{2pt} 12'), ['12']);
  assert.deepEqual(digits('2x + 10'), ['10']);
  assert.deepEqual(digits('1.5 \\times 10^{3} + 2 ^ 2'), ['1.5', '3']);
  assert.deepEqual(digits('10000^{4/8} = 0.5'), ['0.5']);
  assert.deepEqual(digits(`${tex(NaN)} + ${tex(-Infinity)} + 7`), ['7']);
  assert.deepEqual(digits('x_{12} = -0.25'), ['12', '0.25']);
  // a unary minus and a negative factor in parentheses are their number's slot (the page
  // puts the sign in beside the digits); a binary minus, a hyphen and a minus in a
  // denominator stay in the structure
  assert.deepEqual(slotsOf('a = -0.25 \\times (-3) + e^{-1}').digits, ['-0.25', '(-3)', '-1']);
  assert.deepEqual(slotsOf('[0.5,\\ -2] = \\mathbf{-1.5}').digits, ['0.5', '-2', '-1.5']);
  assert.deepEqual(slotsOf('2 - 0.5 + \\text{-5} + \\frac{1}{-4} + \\exp(-1)^{2}').skel, '# - # + \\text{-#} + \\frac{#}{-#} + \\exp(#)^{#}');
  // a formula KaTeX cannot parse degrades as texToHtml does, never an exception
  assert.equal(slottedHtml('\\frac{1}{'), texToHtml('\\frac{1}{'));
});

// A table's caption as part of a scroll box's name (plain.js shortName): no closing full stop
// before the name's colon, and a long one cut at a word with "…", not mid-word.
test('shortName: a caption without its full stop, cut at a word', async () => {
  const { shortName } = await import('../../web/src/kit/plain.js');
  assert.equal(shortName('역할 순서로 놓였습니다.'), '역할 순서로 놓였습니다');
  const long = 'Rows in the order of roles (previous token, first token, duplicate token, local, induction, none), then by layer and head.';
  const s = shortName(long);
  assert.ok(s.length <= 121 && s.endsWith('…') && !/hea…$/.test(s), s);
});
