// The KaTeX fonts the widgets carry, and for the one-file widget the characters kept in each
// (web/scripts/build.mjs subsets them with subset-font, HarfBuzz's hb-subset in WebAssembly,
// and drops their hinting).
//
// The faces are those the page requests with every chapter rendered, in both languages (Main
// regular and bold, Math italic, the Size1–3 delimiters); the other 14 (AMS, Caligraphic,
// Fraktur, SansSerif, Script, Typewriter, Size4, italics of Main and Math bold) would add
// some 200 KB. The characters: what the chapters' maths draws in that face, and room around
// it: every printable ASCII character in Main (digits, letters and operators of any number or
// \text a chapter may show), the Latin letters in Math italic with the Greek ones the
// chapters write (\alpha, \theta, \omega: a new Greek letter goes here), the digits and the
// signs of a number in Main bold (the worked formulas' bold numbers), the delimiters and large
// operators a chapter may grow in the Size faces.
// tests/e2e/widget.test.mjs renders every chapter in both languages and fails when the maths
// asks for a face that is not here, or for a character that its face here does not keep.
const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => String.fromCodePoint(a + i)).join('');
const ASCII = range(0x20, 0x7e);
// maths signs in KaTeX_Main that the chapters use or may (×, −, ≤, →, ⋯, ∞, ⊙, ⊤, …)
const MAIN_SIGNS = '\u00a0°×÷—\u200b’…′→←↦∈∉−∓±√∝∞∣∥≈≠≡≤≥⊙⊤⊥⋅⋯⋮⋱⊗∑∏∂∇';

// the Greek letters the chapters' maths writes (in Math italic; Main draws none: a Δ or Σ
// in the prose is the text font's)
const MATH_GREEK = 'αθω';

// the Size faces' delimiters and large operators that a chapter may grow: the kinds the
// chapters write (brackets of a matrix and of \left( \right), a case's brace, sums, roots)
// and their kin (slashes, bars and norms); angle brackets, floor and ceiling, arrows,
// products, integrals and the like are left out (none is written)
const SIZE_SIGNS = ' ()/[\\]{}|‖∣∥∑√';
export const WIDGET_FONTS = [
  { face: 'Main-Regular', text: ASCII + MAIN_SIGNS },
  { face: 'Main-Bold', text: '0123456789.,+-−e∞ \u00a0' },
  { face: 'Math-Italic', text: range(0x41, 0x5a) + range(0x61, 0x7a) + MATH_GREEK },
  { face: 'Size1-Regular', text: SIZE_SIGNS },
  { face: 'Size2-Regular', text: SIZE_SIGNS },
  { face: 'Size3-Regular', text: SIZE_SIGNS },
];
