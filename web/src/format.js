// Number formatting and parsing for display and editable cells.

const MINUS = '\u2212';

// Display form: typographic minus, "−∞" for masked entries, fixed or trimmed decimals.
//   fmt(-1.5) -> "−1.5"; fmt(0.11419, {digits: 3, fixed: true}) -> "0.114"; fmt(-Infinity) -> "−∞"
export function fmt(x, { digits = 3, fixed = false } = {}) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '∞';
  if (x === -Infinity) return `${MINUS}∞`;
  let s = x.toFixed(digits);
  if (!fixed && s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  if (/^-0(\.0*)?$/.test(s)) s = s.slice(1); // no "−0"
  return s.startsWith('-') ? MINUS + s.slice(1) : s;
}

// Editing form: plain ASCII, up to 6 decimals, so the value can be typed over.
export function editText(x) {
  return String(Math.round(x * 1e6) / 1e6);
}

// TeX form of a number, e.g. for formulas with the current values filled in.
export function tex(x, opts) {
  const s = fmt(x, opts).replaceAll(MINUS, '-');
  if (s === '-∞') return '-\\infty';
  if (s === '∞') return '\\infty';
  return s;
}

export const LIMIT = 1e6;

// Text that is not a number yet but may become one as the learner keeps typing:
// "-", ".", "1e", "2e-", "+".
const PREFIX = /^[+-]?(\d*\.?\d*)(e[+-]?)?$/i;
export function isIncomplete(text) {
  const t = String(text).trim().replace(/[\u2212\u2013\uFE63\uFF0D]/g, '-');
  return t.length > 0 && t.length <= 40 && PREFIX.test(t) && !NUMBER.test(t.replace(/^\+/, ''));
}

// Parses what a learner typed into a cell. Accepts "-1.5", "−1.5" (typographic minus),
// "+2", ".5", "1e-3", surrounding spaces. Returns {value} or {error: 'nan' | 'range'}.
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
export function parseCell(text) {
  const t = String(text).trim().replace(/[\u2212\u2013\uFE63\uFF0D]/g, '-').replace(/^\+/, '');
  if (t.length === 0 || t.length > 40 || !NUMBER.test(t)) return { error: 'nan' };
  const value = Number(t);
  if (!Number.isFinite(value) || Math.abs(value) > LIMIT) return { error: 'range' };
  return { value: value === 0 ? 0 : value };
}
