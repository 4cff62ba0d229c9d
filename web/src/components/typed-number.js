// The typed number: one rule for every number a learner types, in a grid cell
// (matrix-grid.js) and in a chapter's number field (kit.js number()) alike.
//
//   typedNumber(input, { read: readDecimal, value, use, text, quote, words, show });
//
// Reading: what was typed is read as ASCII first (numberText): every Unicode decimal
// digit (category Nd: ٣, ३, ３, 𝟑…) as its value, full-width forms (what a CJK input
// method types: ．, －, ｅ) as their ASCII forms, the Arabic decimal separator ٫ as a point,
// any minus sign as "-", invisible format characters (Cf: a zero-width space, a byte order
// mark, a soft hyphen, direction marks) dropped, spaces around trimmed. Nothing else: a
// superscript ², a circled ① or a fraction ½ is not a digit. A rule (readDecimal for cells,
// readWhole for number fields, which also reads digits grouped as the page prints them,
// "1,024") then says {value} or why the text is not used:
// {why: code, vars?, pending?} or, from a chapter's own check, {reason: words}.
//
// The field (typedNumber): text the rule reads as a value is used at once. Anything else
// (half-typed, not a number, out of range, empty) is not used: the computation goes back
// to the value the input had when the learner entered it (or after their last ↑/↓), the
// input is marked (aria-invalid) and the message says what was typed, why it is not used
// and which value is. A text that may still become a number ("", "-", "1e": `pending`)
// is marked and explained only if the learner stops there (`delay`, 800 ms) or presses
// Enter; until then the message is empty, so nothing says what the previous keystroke's
// text was. Escape puts the value in use back at once, with no message; after a text that
// was used, it puts back (and uses again) the value from when the learner entered the input
// or made their last ↑/↓, and with nothing to undo it is left to the page. Leaving the input
// puts that value back too, and the message stays, saying so, until the next edit.
// Optionally (cells) ↑/↓ step the value by 1, Shift+↑/↓ by 0.1 (Alt+↑/↓ is left to the
// caller, which moves between cells).

// ---- reading --------------------------------------------------------------------------------

// The largest magnitude a typed value may have (the core's inputs stay within it).
export const LIMIT = 1e6;

// A typographic, small or full-width minus (−, –, ﹣, －) read as "-".
const MINUSES = /[\u2212\u2013\uFE63\uFF0D]/g;

// Full-width forms (U+FF01–FF5E, the ideographic space) as ASCII. Only these: NFKC would
// also read a superscript ² or a circled ① as a digit.
export function asciiForms(text) {
  return String(text).replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xFEE0)).replace(/\u3000/g, ' ');
}

// A decimal digit's value. Unicode encodes every script's decimal digits (Nd) as runs of
// ten, 0 to 9 in order, and a longer run of Nd (the mathematical digits) is several such
// runs end to end: the value is the distance from the start of the run, modulo 10.
const ND = /\p{Nd}/u;
const digits = new Map();
function digitValue(c) {
  let d = digits.get(c);
  if (d === undefined) {
    const cp = c.codePointAt(0);
    let start = cp;
    while (start > 0 && ND.test(String.fromCodePoint(start - 1))) start--;
    d = String((cp - start) % 10);
    digits.set(c, d);
  }
  return d;
}

// What a learner typed, as ASCII (see the top of this file).
export function numberText(text) {
  return asciiForms(text)
    .replace(/\p{Nd}/gu, (c) => (c <= '9' ? c : digitValue(c)))
    .replace(/\u066B/g, '.')
    .replace(MINUSES, '-')
    .replace(/\p{Cf}/gu, '')
    .trim();
}

// (Of any length: 400 nines is a number, out of range, as 1e309 is. Each pattern reads a
// text once, in time linear in its length: no two parts can take the same digits.)
// A number's text in ASCII: 2, -.5, 1e-3, +4 (not '', 'Infinity', '0x10', '1,5'). Also the
// rule of a widget's number attributes (widget.js) and, without '+', of a link's numbers
// (kit/url-state.js).
export const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;
const NUMBER = NUMBER_TEXT;
// Text that is not a number yet but may become one as the learner keeps typing:
// "-", ".", "1e", "2e-", "+".
const PREFIX = /^[+-]?(\d+(\.\d*)?|\.\d*)?(e[+-]?)?$/i;
export function isIncomplete(text) {
  const t = numberText(text);
  return t.length > 0 && PREFIX.test(t) && !NUMBER.test(t.replace(/^\+/, ''));
}

// Parses what a learner typed into a cell. Accepts "-1.5", "−1.5" (typographic minus),
// "+2", ".5", "1e-3", full-width "－１．５", "١٫٥", surrounding spaces. Returns {value} or
// {error: 'nan' | 'range' | 'tiny'}. Every input is stored as float32, so the rule is
// float32's on both sides: past ±LIMIT is 'range', and a nonzero number closer to 0 than
// float32's smallest (≈1.4e-45, which would be stored as 0) is 'tiny'; neither is used, as
// the learner typed something else than what would be computed. (Subnormals, 1.4e-45 to
// 1.2e-38, are kept: they read back.)
export function parseCell(text) {
  const t = numberText(text).replace(/^\+(?=[\d.])/, ''); // (one sign: "+-5" is no more a number than "--5")
  if (t.length === 0 || !NUMBER.test(t)) return { error: 'nan' };
  const value = Number(t);
  if (!Number.isFinite(value) || Math.abs(value) > LIMIT) return { error: 'range' };
  // ("1e-999" is 0 even as a double: whether the text is nonzero is read from its digits)
  if (Math.fround(value) === 0 && /[1-9]/.test(t.split(/e/i)[0])) return { error: 'tiny' };
  return { value: value === 0 ? 0 : value };
}

// A cell's rule: a number within ±LIMIT that float32 does not store as 0.
// Codes: empty, incomplete (both pending), comma (vars.fix: the number with a point),
// grouped (vars.whole, vars.fix: "1,024" as a whole number and as a decimal), groupedWhole
// (vars.whole: "1,048,576" without its commas), nan, range, tiny.
export function readDecimal(text) {
  const r = parseCell(text);
  if ('value' in r) return r;
  const t = numberText(text);
  if (t === '') return { why: 'empty', pending: true };
  if (isIncomplete(t)) return { why: 'incomplete', pending: true };
  const comma = /^([+-]?\d+),(\d+)$/.exec(t);
  // "1,024" may be a thousand and twenty-four written as the page prints counts, or a
  // decimal comma: both are said; "12,345,678" can only be grouping.
  if (comma && GROUPED.test(t)) return { why: 'grouped', vars: { whole: t.replace(',', ''), fix: `${comma[1]}.${comma[2]}` } };
  if (comma) return { why: 'comma', vars: { fix: `${comma[1]}.${comma[2]}` } };
  if (GROUPED.test(t)) return { why: 'groupedWhole', vars: { whole: t.replaceAll(',', '') } };
  return { why: r.error };
}

// Digit grouping as the page prints a count (format.js fmtCount, in both languages: "1,024",
// "1,048,576"): one to three digits, then groups of three, each after a ",". Read only in a
// whole number, where a "," cannot be a decimal point; a cell uses none of "3,5", "1,024"
// and "1,048,576" and says what to write (readDecimal: 'comma', 'grouped', 'groupedWhole').
const GROUPED = /^[+-]?\d{1,3}(,\d{3})+$/;

// A number field's rule: a whole number in [min, max] that passes `check` (which returns
// the reason it refuses one, in words, or null), its digits grouped or not ("1,024"),
// written as a cell takes it or not ("1e3", "4.0").
// Codes: empty (pending), whole (vars: min, max; pending while only a sign is typed).
export function readWhole(text, { min = 1, max = Number.MAX_SAFE_INTEGER, check = null } = {}) {
  let t = numberText(text);
  if (GROUPED.test(t)) t = t.replaceAll(',', '');
  if (t === '') return { why: 'empty', pending: true };
  const v = Number(t);
  if (!NUMBER.test(t) || !Number.isInteger(v) || v < min || v > max) // ("1e3" and "2.0" are whole numbers too)
    return { why: 'whole', vars: { min, max }, pending: /^[+-]$/.test(t) };
  const reason = check?.(v) ?? null;
  return reason === null ? { value: v === 0 ? 0 : v } : { reason };
}

// ---- the field ------------------------------------------------------------------------------

// A long entry is quoted in part.
export const quoteTyped = (t) => (t.length > 24 ? `${t.slice(0, 24)}…` : t);

// Wires `input` (a text input) to the rule above.
//   read(text)      the rule: readDecimal, or (t) => readWhole(t, {min, max, check})
//   value()         the value in use now (undefined: none yet)
//   use(v)          use v (the computation); called only with a value that differs
//   text(v)         the input's text for v
//   quote(v)        v as the message writes it
//   words(code, vars)  the words, in the page's language, for a rule's codes and for
//                   'typing' and 'left' (vars: text, why, value)
//   show(message)   message: null, or () => text (asked again when shown anew, so that a
//                   language switch re-words it)
//   onText()        after the input's text changed (typed or written here)
//   nudge           {unit, fine}: ↑/↓ step the value by unit, Shift+↑/↓ by fine
// Returns {typed, reset(), sync()}: typed is the text not used while the input has it
// (else null); reset() forgets it and the mark (a paste replaced every value); sync()
// writes the value in use into the input unless the learner is in it or has text there.
export function typedNumber(input, { read, value, use, text = String, quote = String, words, show, onText = () => {}, nudge = null, delay = 800 }) {
  let before = null; // the value when the learner entered the input, or after their last ↑/↓
  let typed = null;
  let timer = 0;
  const mark = (on) => {
    if (on) input.setAttribute('aria-invalid', 'true');
    else if (input.hasAttribute('aria-invalid')) input.removeAttribute('aria-invalid');
  };
  const whyOf = (t) => {
    const r = read(t);
    return 'value' in r ? '' : (r.reason ?? words(r.why, r.vars ?? {}));
  };
  const message = (t, v, left) => () => words(left ? 'left' : 'typing', { text: quoteTyped(t), why: whyOf(t), value: quote(v) });
  let using; // the value in use while the text is not
  const say = (t) => {
    mark(true);
    show(message(t, using, false));
  };
  const put = (v) => {
    const t = text(v);
    if (input.value !== t) input.value = t;
    onText();
  };
  const commit = (v) => {
    clearTimeout(timer);
    typed = null;
    mark(false);
    show(null);
    if (v !== value()) use(v);
  };

  input.addEventListener('focus', () => {
    before = value() ?? null;
  });
  input.addEventListener('input', () => {
    clearTimeout(timer);
    onText();
    const t = input.value.trim();
    const r = read(t);
    if ('value' in r) {
      commit(r.value);
      return;
    }
    typed = t;
    using = before ?? value();
    if (using !== value()) use(using);
    if (r.pending) {
      mark(false);
      show(null);
      timer = setTimeout(() => say(t), delay);
    } else say(t);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && typed !== null) {
      // (not prevented: a grid moves to the next row, which leaves the cell)
      clearTimeout(timer);
      say(typed);
    } else if (e.key === 'Escape' && typed !== null && value() !== undefined) {
      e.preventDefault();
      clearTimeout(timer);
      typed = null;
      mark(false);
      show(null);
      put(value());
      input.select();
    } else if (e.key === 'Escape' && typed === null && before !== null && value() !== undefined && value() !== before) {
      // a value typed since the learner entered the input (or since their last ↑/↓): the
      // one from before is put back and used again (with nothing to undo, the key is the page's)
      e.preventDefault();
      put(before);
      commit(before);
      input.select();
    } else if (nudge && (e.key === 'ArrowUp' || e.key === 'ArrowDown') && !e.altKey && value() !== undefined) {
      e.preventDefault();
      const step = (e.shiftKey ? nudge.fine : nudge.unit) * (e.key === 'ArrowUp' ? 1 : -1);
      const base = read(input.value).value ?? value();
      const next = Math.max(-LIMIT, Math.min(LIMIT, Math.round((base + step) * 1e6) / 1e6));
      put(next);
      commit(next);
      before = next; // a deliberate step, not a prefix on the way to another number
    }
  });
  input.addEventListener('blur', () => {
    clearTimeout(timer);
    const v = value();
    if (v === undefined) return;
    if (typed !== null) {
      const t = typed;
      typed = null;
      mark(false);
      show(message(t, v, true));
    }
    put(v);
  });

  const focused = () => input.getRootNode?.().activeElement === input || globalThis.document?.activeElement === input;
  return {
    get typed() {
      return typed;
    },
    reset() {
      clearTimeout(timer);
      typed = null;
      mark(false);
    },
    sync() {
      const v = value();
      if (v !== undefined && typed === null && !focused()) {
        const t = text(v);
        if (input.value !== t) {
          input.value = t;
          onText();
        }
      }
    },
  };
}
