// The typed-number rule (web/src/components/typed-number.js), used by every grid cell and
// every number field: how typed text is read (every Unicode decimal digit, full-width
// forms, format characters) and the field's state machine (what applies, what is refused,
// what the message says, the pause before a half-typed number is explained, Enter, Escape,
// leaving the input, ↑/↓), on a stand-in input without a browser.
import test, { mock } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { numberText, parseCell, readDecimal, readWhole, typedNumber, isIncomplete } from '../../web/src/components/typed-number.js';
import { fmtCount } from '../../web/src/format.js';

const fc = createRequire(new URL('../../web/package.json', import.meta.url))('fast-check');
const ND = /^\p{Nd}$/u;

// ---- reading --------------------------------------------------------------------------------

test('every Unicode decimal digit (Nd) reads as its value: Arabic-Indic, Devanagari, full-width, …', () => {
  assert.deepEqual(parseCell('١٢'), { value: 12 });
  assert.deepEqual(parseCell('-١٫٥'), { value: -1.5 }, 'with the Arabic decimal separator');
  assert.deepEqual(parseCell('۳.۵'), { value: 3.5 }, 'Extended Arabic-Indic (Persian, Urdu)');
  assert.deepEqual(parseCell('२०'), { value: 20 }, 'Devanagari');
  assert.deepEqual(parseCell('１２'), { value: 12 }, 'full-width');
  assert.deepEqual(parseCell('𝟏𝟐'), { value: 12 }, 'mathematical bold (a run of five sets of ten)');
  assert.deepEqual(parseCell('𝟿'), { value: 9 }, 'mathematical monospace nine, the last of that run');
  assert.deepEqual(readWhole('١٢'), { value: 12 });
  assert.deepEqual(readWhole('٠', { min: 0 }), { value: 0 });
  // not decimal digits: a superscript, a circled digit, a fraction, a CJK numeral
  for (const t of ['2²', '①', '½', '一', 'Ⅻ']) assert.deepEqual(parseCell(t), { error: 'nan' }, t);
  // The engine's own numbering systems are the oracle: each writes 0…9 with its digits.
  let checked = 0;
  for (const nu of Intl.supportedValuesOf('numberingSystem')) {
    const written = new Intl.NumberFormat('en', { numberingSystem: nu, useGrouping: false }).format(1234567890);
    const chars = [...written];
    if (chars.length !== 10 || !chars.every((c) => ND.test(c))) continue; // hanidec (一二三) and the like are not Nd
    assert.equal(numberText(written), '1234567890', nu);
    checked++;
  }
  assert.ok(checked >= 40, `${checked} numbering systems`);
});

test('Unicode encodes decimal digits in runs of ten from 0 (what numberText relies on), and reads each one', () => {
  let start = -1;
  let digits = 0;
  for (let cp = 0; cp <= 0x110000; cp++) {
    const nd = cp < 0x110000 && ND.test(String.fromCodePoint(cp));
    if (nd && start < 0) start = cp;
    if (!nd && start >= 0) {
      assert.equal((cp - start) % 10, 0, `the run of Nd from U+${start.toString(16)} to U+${(cp - 1).toString(16)}`);
      for (let c = start; c < cp; c++) assert.equal(numberText(String.fromCodePoint(c)), String((c - start) % 10));
      digits += cp - start;
      start = -1;
    }
  }
  assert.ok(digits >= 600, `${digits} decimal digits`);
});

test('invisible format characters and full-width forms: the same number; nothing else is read', () => {
  for (const t of ['\u200b1', '１\u200b', '\ufeff1', '1\u00ad', '\u200e1\u200f', '\u3000１\u3000']) {
    assert.deepEqual(parseCell(t), { value: 1 }, JSON.stringify(t));
    assert.deepEqual(readWhole(t), { value: 1 }, JSON.stringify(t));
  }
  assert.deepEqual(parseCell('－３．５'), { value: -3.5 });
  assert.deepEqual(parseCell('−2'), { value: -2 });
  assert.equal(isIncomplete('－'), true);
  assert.equal(isIncomplete('١e'), true);
  // a digit in any script never changes what the rule says about the rest of the text
  const toScript = (t, zero) => t.replace(/[0-9]/g, (d) => String.fromCodePoint(zero + Number(d)));
  const numberish = fc.stringMatching(/^[ ]?[+\-\u2212]?[0-9]{0,8}[.,]?[0-9]{0,6}([eE][+\-]?[0-9]{0,3})?$/);
  fc.assert(fc.property(numberish, fc.constantFrom(0x660, 0x6f0, 0x966, 0x9e6, 0xe50, 0xff10, 0x1d7ce, 0x1d7f6), (t, zero) => {
    assert.deepEqual(parseCell(toScript(t, zero)), parseCell(t), t);
    assert.deepEqual(readDecimal(toScript(t, zero)), readDecimal(t), t);
    assert.deepEqual(readWhole(toScript(t, zero), { min: -1e9, max: 1e9 }), readWhole(t, { min: -1e9, max: 1e9 }), t);
  }), { numRuns: 1000, seed: 26 });
});

test('the rules say why a text is not used, and which texts may still become a number', () => {
  assert.deepEqual(readDecimal(''), { why: 'empty', pending: true });
  assert.deepEqual(readDecimal('-'), { why: 'incomplete', pending: true });
  assert.deepEqual(readDecimal('1e'), { why: 'incomplete', pending: true });
  assert.deepEqual(readDecimal('1,5'), { why: 'comma', vars: { fix: '1.5' } });
  assert.deepEqual(readDecimal('١,٥'), { why: 'comma', vars: { fix: '1.5' } });
  assert.deepEqual(readDecimal('1e40'), { why: 'range' });
  assert.deepEqual(readDecimal('1e-50'), { why: 'tiny' });
  assert.deepEqual(readDecimal('abc'), { why: 'nan' });
  assert.deepEqual(readWhole(''), { why: 'empty', pending: true });
  assert.deepEqual(readWhole('-', { min: 1, max: 9 }), { why: 'whole', vars: { min: 1, max: 9 }, pending: true });
  assert.deepEqual(readWhole('1.5', { min: 1, max: 9 }), { why: 'whole', vars: { min: 1, max: 9 }, pending: false });
  assert.deepEqual(readWhole('10', { min: 1, max: 9 }), { why: 'whole', vars: { min: 1, max: 9 }, pending: false });
  // a whole number written as a cell takes it: "1e3", "4.0", "1.5e3"; not "2.5e-1", "1e", "0x10"
  for (const [t, v] of [['1e3', 1000], ['4.0', 4], ['1.5E3', 1500], ['+7', 7], ['１ｅ３', 1000]]) assert.deepEqual(readWhole(t, { max: 4096 }), { value: v }, t);
  for (const t of ['2.5e-1', '1e4', '0x10', 'Infinity', '1e999'])
    assert.equal(readWhole(t, { max: 4096 }).why, 'whole', t);
  assert.equal(readWhole('1e', { max: 4096 }).why, 'whole');
  assert.deepEqual(readWhole('3', { check: (v) => (v % 2 ? 'odd' : null) }), { reason: 'odd' });
  assert.deepEqual(readWhole('４', { check: (v) => (v % 2 ? 'odd' : null) }), { value: 4 });
});

// A fresh try typed "1,024" into the cost chapter's field for n, which the page itself
// prints as "1,024", and was told it is not a whole number. A number field reads digits
// grouped as the page prints them (fmtCount); a grid cell still reads a "," as a decimal
// comma (3,5), and grouping that is not the page's is still refused.
test('whole-number fields read digits grouped as the page prints them ("1,024"); cells do not', () => {
  const n = { min: 1, max: 1048576 };
  assert.deepEqual(readWhole('1,024', n), { value: 1024 });
  assert.deepEqual(readWhole('1,048,576', n), { value: 1048576 });
  assert.deepEqual(readWhole(' １，０２４ ', n), { value: 1024 }, 'full-width, as an input method types it');
  assert.deepEqual(readWhole('١,٠٢٤', n), { value: 1024 });
  assert.deepEqual(readWhole('-1,024', { min: -2000, max: 0 }), { value: -1024 });
  assert.deepEqual(readWhole('2,000,000', n), { why: 'whole', vars: n, pending: false }, 'grouped, out of range: the range is said');
  for (const t of ['1,02', '1,0245', '1024,', ',024', '1,,024', '1,024,5', '10000,000', '1.024', '1 024', '1,024.0'])
    assert.equal(readWhole(t, n).why, 'whole', t);
  // every count the page prints reads back as itself
  fc.assert(fc.property(fc.integer({ min: 1, max: 1048576 }), (v) => {
    assert.deepEqual(readWhole(fmtCount(v), n), { value: v }, fmtCount(v));
  }), { numRuns: 500, seed: 26 });
  // a cell: "," is a decimal comma, as before
  assert.deepEqual(readDecimal('3,5'), { why: 'comma', vars: { fix: '3.5' } });
  // "1,024" may be grouping or a decimal comma: both readings are offered; more groups are grouping
  assert.deepEqual(readDecimal('1,024'), { why: 'grouped', vars: { whole: '1024', fix: '1.024' } });
  assert.deepEqual(readDecimal('-1,048,576'), { why: 'groupedWhole', vars: { whole: '-1048576' } });
  assert.deepEqual(readDecimal('1,0245'), { why: 'comma', vars: { fix: '1.0245' } });
  assert.deepEqual(readDecimal('1,02,4'), { why: 'nan' });
  assert.deepEqual(parseCell('1,024'), { error: 'nan' });
});

// ---- the field ------------------------------------------------------------------------------

// A text input as the field sees it: its text, its attributes, focus, select().
class Input extends EventTarget {
  value = '';
  attrs = new Map();
  selected = false;
  root = { activeElement: null };
  setAttribute(k, v) { this.attrs.set(k, String(v)); }
  removeAttribute(k) { this.attrs.delete(k); }
  hasAttribute(k) { return this.attrs.has(k); }
  getAttribute(k) { return this.attrs.get(k) ?? null; }
  getRootNode() { return this.root; }
  select() { this.selected = true; }
  focus() { this.root.activeElement = this; this.dispatchEvent(new Event('focus')); }
  blur() { this.root.activeElement = null; this.dispatchEvent(new Event('blur')); }
  type(text) { this.value = text; this.dispatchEvent(new Event('input')); }
  key(key, mods = {}) {
    const e = Object.assign(new Event('keydown', { cancelable: true }), { key, altKey: false, shiftKey: false, ...mods });
    this.dispatchEvent(e);
    return e.defaultPrevented;
  }
}

// A field on a stand-in input, with the words as plain codes so the tests read what is said.
function field(read, { start = 2, nudge = null } = {}) {
  const input = new Input();
  const s = { value: start, used: [], shown: null };
  const words = (code, v) => (code === 'typing' || code === 'left' ? `${code}|${v.text}|${v.why}|${v.value}` : code);
  const f = typedNumber(input, {
    read,
    value: () => s.value,
    use: (v) => { s.used.push(v); s.value = v; },
    words,
    show: (m) => { s.shown = m; },
    nudge,
  });
  input.value = String(start);
  const said = () => (s.shown ? s.shown() : null);
  return { input, s, f, said, invalid: () => input.getAttribute('aria-invalid') };
}

test('field: a number is used at once; text that is not is refused, the value from before is used and the message says so', () => {
  const { input, s, said, invalid } = field(readDecimal);
  input.focus();
  input.type('5');
  assert.deepEqual(s.used, [5]);
  assert.equal(said(), null);
  input.type('5x');
  assert.equal(s.value, 2, 'back to the value the cell had when the learner entered it');
  assert.equal(said(), 'typing|5x|nan|2');
  assert.equal(invalid(), 'true');
  input.type('1e40');
  assert.equal(said(), 'typing|1e40|range|2');
  input.type('٧');
  assert.equal(s.value, 7);
  assert.equal(said(), null);
  assert.equal(invalid(), null);
  input.type('1,5');
  assert.equal(said(), 'typing|1,5|comma|2');
  // leaving the input puts the value in use back, and the message stays, saying so
  input.blur();
  assert.equal(input.value, '2');
  assert.equal(invalid(), null);
  assert.equal(said(), 'left|1,5|comma|2');
  // the next valid edit clears it
  input.focus();
  input.type('3');
  assert.equal(said(), null);
  input.blur();
  assert.equal(said(), null);
});

test('field: a half-typed number is explained only after the pause, or at once on Enter; Escape restores, silently', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const { input, s, said, invalid } = field(readDecimal);
    input.focus();
    input.type('4');
    input.type('-');
    assert.equal(s.value, 2, 'not used');
    assert.equal(said(), null, 'nothing said yet');
    assert.equal(invalid(), null, 'not marked yet');
    mock.timers.tick(799);
    assert.equal(said(), null);
    mock.timers.tick(1);
    assert.equal(said(), 'typing|-|incomplete|2');
    assert.equal(invalid(), 'true');
    // typing on: the message about "-" goes at once
    input.type('-1');
    assert.equal(said(), null);
    assert.equal(s.value, -1);
    input.type('');
    input.key('Enter');
    assert.equal(said(), 'typing||empty|2', 'Enter: at once');
    assert.equal(invalid(), 'true');
    // Escape: the value in use back in the input, no message, no late one either
    input.type('1e');
    assert.equal(input.key('Escape'), true);
    assert.equal(input.value, '2');
    assert.ok(input.selected);
    assert.equal(said(), null);
    assert.equal(invalid(), null);
    mock.timers.tick(2000);
    assert.equal(said(), null);
    // a valid text is undone by Escape: the value from when the learner entered the input
    // is put back and used; with nothing left to undo, the key is left to the page
    input.type('3');
    assert.equal(s.value, 3);
    assert.equal(input.key('Escape'), true);
    assert.equal(input.value, '2');
    assert.equal(s.value, 2);
    assert.ok(input.selected);
    assert.equal(said(), null);
    assert.equal(input.key('Escape'), false);
    assert.equal(s.value, 2);
  } finally {
    mock.timers.reset();
  }
});

test('field: whole numbers (a number field), a chapter\'s own check, and ↑/↓ steps (a cell)', () => {
  const w = field((t) => readWhole(t, { min: 1, max: 64, check: (v) => (64 % v ? `${v} does not divide 64` : null) }), { start: 8 });
  w.input.focus();
  w.input.type('١٦');
  assert.equal(w.s.value, 16);
  w.input.type('3');
  assert.equal(w.s.value, 8);
  assert.equal(w.said(), 'typing|3|3 does not divide 64|8');
  w.input.type('100');
  assert.equal(w.said(), 'typing|100|whole|8');
  w.input.blur();
  assert.equal(w.input.value, '8');
  // sync(): written unless the learner is in the field or has text there
  w.s.value = 4;
  w.f.sync();
  assert.equal(w.input.value, '4');
  w.input.focus();
  w.s.value = 2;
  w.f.sync();
  assert.equal(w.input.value, '4', 'not while focused');

  const c = field(readDecimal, { nudge: { unit: 1, fine: 0.1 } });
  c.input.focus();
  assert.equal(c.input.key('ArrowUp'), true);
  assert.equal(c.s.value, 3);
  assert.equal(c.input.value, '3');
  c.input.key('ArrowDown', { shiftKey: true });
  assert.equal(c.s.value, 2.9);
  assert.equal(c.input.key('ArrowDown', { altKey: true }), false, 'Alt+↓ is the grid\'s (it moves)');
  c.input.type('x');
  assert.equal(c.s.value, 2.9, 'after a step, the stepped value is the one to go back to');
});

// Any sequence of what a learner does: the invariants of the rule hold after each step.
test('field: any sequence of typing, pauses, Enter, Escape and leaving keeps the rule (fast-check)', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const texts = fc.oneof(fc.constantFrom('', '-', '1e', '5', '١٢', '1,5', 'abc', '1e40', '０．５', '\u200b7', '.'), fc.string({ maxLength: 6 }));
    const action = fc.oneof(texts.map((t) => ['type', t]), fc.constantFrom(['tick'], ['enter'], ['escape'], ['blur'], ['focus']));
    fc.assert(fc.property(fc.array(action, { maxLength: 25 }), (actions) => {
      const { input, s, f, said, invalid } = field(readDecimal);
      input.focus();
      let entered = 2;
      for (const [what, t] of actions) {
        if (what === 'focus' && input.root.activeElement !== input) {
          input.focus();
          entered = s.value;
        } else if (input.root.activeElement !== input) continue;
        if (what === 'type') input.type(t);
        if (what === 'tick') mock.timers.tick(800);
        if (what === 'enter') input.key('Enter');
        if (what === 'escape') input.key('Escape');
        if (what === 'blur') input.blur();
        const r = readDecimal(input.value.trim());
        // the value in use: the text's, when it reads as one, else the one from before
        if (input.root.activeElement === input && f.typed !== null) assert.equal(s.value, entered, JSON.stringify(actions));
        if ('value' in r && f.typed === null && what === 'type') assert.equal(s.value, r.value);
        // a mark always comes with its message
        if (invalid() === 'true') assert.match(said() ?? '', /^typing\|/);
        // out of the input: no mark, and it shows the value in use
        if (input.root.activeElement !== input) {
          assert.equal(invalid(), null);
          assert.equal(input.value, String(s.value));
          assert.equal(f.typed, null);
        }
      }
      mock.timers.tick(5000);
    }), { numRuns: 500, seed: 26 });
  } finally {
    mock.timers.reset();
  }
});

// One sign at most, whichever: "+-5" and "-+5" are refused as "--5" is (a fresh try found
// "+-5" read as −5).
test('parseCell: two signs are not a number, in either order', async () => {
  const { parseCell } = await import('../../web/src/components/typed-number.js');
  for (const t of ['+-5', '-+5', '--5', '++5', '+−5']) assert.deepEqual(parseCell(t), { error: 'nan' }, t);
  assert.deepEqual(parseCell('+5'), { value: 5 });
  assert.deepEqual(parseCell('+.5'), { value: 0.5 });
  assert.deepEqual(parseCell('-5'), { value: -5 });
});
