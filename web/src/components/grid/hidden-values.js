// An exercise's hidden values stay hidden everywhere in their chapter, not only in their
// grid: whatever writes a value outside the grids (a worked formula, setMath; a sentence,
// setProse: kit/prose.js) asks here first, and writes "?" for a hidden value. The writers
// ask, not the chapters: a worked box that follows the pointer, the keyboard's focus or a
// click (another row, another token) can never show an answer the teacher hid, in any
// chapter. The kit registers each chapter's section with the texts its grids hide
// (g.hiddenTexts(): the digits the grid shows, which are the digits a formula or a
// sentence shows for the same value, format.js tex/cellText) and redraws when they change.
// What stays on screen in another grid is the teacher's to see (exercise.js checkLeaks);
// the learner sees it covered (exercise.js setCovered, through the kit).
//
// By identity where the writer says which cell a value is: cellValue(key, i, j, text)
// tags the text with its grid and cell, and maskHidden writes "?" for it when that cell is
// hidden or covered (hidden.cells holds "key:i,j"), and the text as is otherwise, even when
// it equals a hidden value (α₂ = α₁ = 0.500 is no reason to hide α₂). A value without a tag
// is masked by its digits, as before (never shown when it reads as a hidden one).

const sources = new WeakMap(); // root element -> () => the texts hidden under it

export function hideValuesUnder(root, texts) {
  sources.set(root, texts);
}

// The hidden texts as the writers of one render are told them (texts()), and whether one
// of them was told other texts than the grids hold at the end of it (stale()): a formula
// written before its grid took the render's values (the first render, or an edit) was told
// the values the grid held before, and would show the new ones. The kit then renders again.
export function watchHidden(read) {
  const seen = new Set();
  const keyOf = (t) => `${t.join('\n')}|${[...(t.cells ?? [])].join(' ')}`;
  return {
    texts: () => {
      const t = read();
      seen.add(keyOf(t));
      return t;
    },
    reset: () => seen.clear(),
    stale: () => {
      if (!seen.size) return false;
      const now = keyOf(read());
      return [...seen].some((k) => k !== now);
    },
  };
}

// The texts worth hiding: not "0" or "1" alone, which are found everywhere (a subscript,
// an exponent), but a value with decimals or of two digits or more.
export const worthHiding = (t) => /\d\.\d|\d{2,}/.test(t);

// The hidden texts for an element: those of the nearest registered ancestor.
export function hiddenTextsAt(el) {
  for (let n = el; n; n = n.parentNode) {
    const fn = sources.get(n);
    if (fn) return fn();
  }
  return [];
}

const MINUS = /^[-\u2212]/;
const patterns = new Map(); // text -> RegExp
function patternOf(t) {
  let re = patterns.get(t);
  if (!re) {
    const body = t.replace(MINUS, '').replace(/[.]/g, '\\.');
    // a negative value with its sign (TeX's "-", the page's "−"); a positive one also where
    // it follows a minus (−0.818 gives 0.818 away too); never inside a longer number
    re = new RegExp(`${MINUS.test(t) ? '[-\\u2212]\\s*' : ''}(?<![\\d.])${body}(?!\\d|\\.\\d)`, 'g');
    patterns.set(t, re);
  }
  re.lastIndex = 0;
  return re;
}

// A value of cell (i, j) of the grid `key` in a formula or a sentence (see above).
const TAG = /\uE000([^\uE001]*)\uE001([^\uE002]*)\uE002/g;
export const cellValue = (key, i, j, text) => `\uE000${key}:${i},${j}\uE001${text}\uE002`;
export const cellKey = (key, i, j) => `${key}:${i},${j}`;

// `text` (TeX or prose) with every hidden value in it written as "?": a tagged one when its
// cell is in hidden.cells, an untagged one when its digits are a hidden text's.
export function maskHidden(text, hidden) {
  if (typeof text !== 'string') return text;
  const tagged = text.includes('\uE000');
  if (!hidden.length && !tagged) return text;
  const kept = [];
  let out = tagged ? text.replace(TAG, (m, ref, value) => {
    if (hidden.cells?.has(ref)) return '?';
    kept.push(value);
    return `\uE003${kept.length - 1}\uE003`; // (out of reach of the masking by digits below)
  }) : text;
  for (const t of hidden) if (worthHiding(t)) out = out.replace(patternOf(t), '?');
  return kept.length ? out.replace(/\uE003(\d+)\uE003/g, (m, k) => kept[Number(k)]) : out;
}
