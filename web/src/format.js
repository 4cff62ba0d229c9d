// Number formatting and parsing for display and editable cells.

const MINUS = '\u2212';

// Display form: typographic minus, "−∞" for masked entries, fixed or trimmed decimals.
//   fmt(-1.5) -> "−1.5"; fmt(0.11419, {digits: 3, fixed: true}) -> "0.114"; fmt(-Infinity) -> "−∞"
// With { significant: n } the decimals follow the value's size, n significant digits (at
// most 6 decimals), as a number is written by hand: fmt(16.9189, {significant: 4}) ->
// "16.92", fmt(0.084172, {significant: 4}) -> "0.08417"; digits is then unused.
export function fmt(x, opts = {}) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '∞';
  if (x === -Infinity) return `${MINUS}∞`;
  let s = x.toFixed(decimals(x, opts));
  if (!opts.fixed && s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  if (/^-0(\.0*)?$/.test(s)) s = s.slice(1); // no "−0"
  return s.startsWith('-') ? MINUS + s.slice(1) : s;
}

// The decimals fmt writes for x: digits, or as many as n significant digits need.
export function decimals(x, { digits = 3, significant = 0 } = {}) {
  if (!significant || !Number.isFinite(x) || x === 0) return digits;
  return Math.max(0, Math.min(6, significant - 1 - Math.floor(Math.log10(Math.abs(x)))));
}

// The shortest decimal text that reads back to the same float32 (the page stores every
// input as float32): f32Text(123456.789) -> "123456.79" (the float is 123456.7890625),
// f32Text(1e-7) -> "1e-7", f32Text(1.23456789) -> "1.2345679". Plain ASCII, so it can be
// typed over; ±∞ and NaN as "Infinity", "-Infinity", "NaN".
export function f32Text(x) {
  if (!Number.isFinite(x)) return String(x);
  const want = Math.fround(x);
  if (want === 0) return '0';
  for (let p = 1; p <= 9; p++) {
    const t = Number(want.toPrecision(p));
    if (Math.fround(t) === want) return String(t);
  }
  return String(want);
}

// Editing form of a stored input: the shortest text of its float32.
export const editText = f32Text;

// A stored input quoted in a message: its shortest float32 text, with a typographic minus.
export const inputText = (x) => (Number.isFinite(x) ? f32Text(x).replace(/^-/, MINUS) : fmt(x));

// A float32 in a read-only cell: fmt's decimals, but never more digits than the float32
// holds, so a computed copy of a stored input reads as the input cell does (editText):
// cellText(123456.7890625) -> "123456.79", not "123456.789"; cellText(0.30000001) -> "0.3";
// cellText(999999995904) -> "1000000000000" (the float32 of 1e12), not its 12 exact digits;
// cellText(1.2345679) -> "1.235" (fmt's); cellText(1e-7) -> "0" (fmt's); fixed is fmt's.
// A number that is not a float32 (a double computed in JS) is fmt's.
export function cellText(x, opts = {}) {
  const s = fmt(x, opts);
  if (opts.fixed || !Number.isFinite(x) || Math.fround(x) !== x) return s;
  const t = f32Text(x);
  if (/e/.test(t) || (t.split('.')[1] ?? '').length > decimals(x, opts)) return s;
  return t.replace(/^-/, MINUS);
}

// TeX form of a number, e.g. for formulas with the current values filled in: the digits
// a grid shows for the same value and options (cellText), so a number reads the same in a
// grid cell, in a worked formula and in a sentence.
export function tex(x, opts) {
  const s = cellText(x, opts).replaceAll(MINUS, '-');
  if (s === '-∞') return '-\\infty';
  if (s === '∞') return '\\infty';
  if (s === 'NaN') return '\\text{NaN}';
  return s;
}

// A factor of a worked product, e.g. `2 \cdot (-0.5)`: in parentheses when what it shows is
// negative (a value that rounds to 0 shows "0", not "(0)").
export function texFactor(x, opts) {
  const t = tex(x, opts);
  return t.startsWith('-') ? `(${t})` : t;
}

// Reading what a learner types (parseCell, numberText, LIMIT…) is components/typed-number.js.

// Whole numbers with thousands separators: fmtCount(67108864) -> "67,108,864".
export function fmtCount(x) {
  if (!Number.isFinite(x)) return fmt(x);
  return Math.round(x).toLocaleString('en-US');
}

// Three significant digits, trailing zeros kept: sig3(134.217728) -> "134", sig3(1.61) -> "1.61".
function sig3(x) {
  if (x === 0) return '0';
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(x))));
  return x.toFixed(Math.min(digits, 6));
}

// A byte count in decimal units with the binary figure beside it (CONTENT.md: MB/GB are
// decimal; MiB/GiB binary): fmtBytes(134217728) -> "134 MB (128 MiB)".
export function fmtBytes(bytes) {
  if (!Number.isFinite(bytes)) return fmt(bytes);
  const pick = (base, units) => {
    let i = 0;
    while (i < units.length - 1 && Math.abs(bytes) >= base ** (i + 1)) i++;
    return `${sig3(bytes / base ** i)} ${units[i]}`;
  };
  const dec = pick(1000, ['B', 'kB', 'MB', 'GB', 'TB', 'PB']);
  const bin = pick(1024, ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB']);
  return dec === bin ? dec : `${dec} (${bin})`;
}

// A count with an SI prefix: fmtSI(2.5e9, 'FLOP') -> "2.50 GFLOP"; small counts stay whole.
export function fmtSI(x, unit = '') {
  if (!Number.isFinite(x)) return fmt(x);
  const prefixes = ['', 'k', 'M', 'G', 'T', 'P', 'E'];
  let i = 0;
  while (i < prefixes.length - 1 && Math.abs(x) >= 1000 ** (i + 1)) i++;
  const v = i === 0 ? fmtCount(x) : sig3(x / 1000 ** i);
  return `${v} ${prefixes[i]}${unit}`.trim();
}
