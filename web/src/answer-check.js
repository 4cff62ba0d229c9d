// Checking a learner's answer to a "compute it yourself" exercise against the value the
// core computed. Pure functions (no DOM), so node tests can run them.
//
//   const v = parseAnswer(['9.44', '0.56']);          // {values: [9.44, 0.56]} or {error, index, text}
//   checkAnswer(v.values, core, {mistakes: {noScale: coreWithoutScale}})
//     -> {verdict: 'right' | 'close' | 'mistake' | 'wrong', mistake?: 'noScale', within: [bool...]}
//
// Tolerance: |answer − value| ≤ abs + rel·|value| per component (default abs 0.01,
// rel 0.001). Two decimals, as the documents print the answer, always pass; so does a
// learner who rounded √2 to 1.414 along the way (the result moves by about 3·10⁻⁴).
// "close" means within ten times that: right idea, rounded too early.
import { parseCell } from './components/typed-number.js';

export const TOLERANCE = Object.freeze({ abs: 0.01, rel: 0.001 });

export function parseAnswer(texts) {
  const values = [];
  for (let i = 0; i < texts.length; i++) {
    const text = String(texts[i] ?? '').trim();
    if (text === '') return { error: 'empty', index: i, text };
    const r = parseCell(text);
    if ('error' in r) return { error: r.error, index: i, text };
    values.push(r.value);
  }
  return { values };
}

const within = (a, x, k, tol) => Number.isFinite(x) && Math.abs(a - x) <= k * (tol.abs + tol.rel * Math.abs(x));
const all = (a, xs, k, tol) => xs.length === a.length && xs.every((x, i) => within(a[i], x, k, tol));

export function checkAnswer(values, expected, { mistakes = {}, tolerance = TOLERANCE } = {}) {
  const xs = Array.from(expected);
  if (values.length !== xs.length) throw new RangeError(`expected ${xs.length} numbers, got ${values.length}`);
  const result = { within: xs.map((x, i) => within(values[i], x, 1, tolerance)) };
  if (all(values, xs, 1, tolerance)) return { ...result, verdict: 'right' };
  // A recognisable slip (e.g. skipping ÷√d_k) says more than "close".
  for (const [name, m] of Object.entries(mistakes))
    if (m && all(values, Array.from(m), 1, tolerance) && !all(Array.from(m), xs, 1, tolerance))
      return { ...result, verdict: 'mistake', mistake: name };
  if (all(values, xs, 10, tolerance)) return { ...result, verdict: 'close' };
  return { ...result, verdict: 'wrong' };
}
