// The characters of the learner's sentence as a reader sees them (trained-heads): one label
// per grapheme on its chip and its grid row (shown), and the sentence quoted in a message
// (quoted) with the same signs, so that an invisible or control character is named the
// same way everywhere and never written raw.

// A character's label on its button and in the prose: white space and characters that draw
// nothing get a visible sign (the tab ⇥, a line break ↵, the space ␣), and a character
// made only of invisible code points (zero-width space, word joiner, BOM, ...) its code.
export function shown(c) {
  if (c === ' ') return '␣';
  if (c === '\t') return '⇥';
  if (c === '\n' || c === '\r\n' || c === '\r') return '↵';
  if (/^[\p{Cc}\p{Default_Ignorable_Code_Point}\s]+$/u.test(c))
    return [...c].map((x) => `U+${x.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
  return c;
}

// The characters as a reader sees them: chars (code points, as the core read them) grouped
// into graphemes. -> {labels: one per grapheme, of: code point c -> its grapheme}.
const segmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;
export function graphemes(chars) {
  const labels = [], of = [];
  for (const g of segmenter ? Array.from(segmenter.segment(chars.join('')), (x) => x.segment) : chars) {
    for (const _ of g) of.push(labels.length);
    labels.push(g);
  }
  return { labels, of };
}

// A sentence quoted in a message: its first `max` graphemes ("…" after them), each as its
// chip shows it (shown), a space as a space; a character's code (U+0007) stands apart
// from the letters beside it.
export function quoted(t, max = 40) {
  const { labels } = graphemes([...t]);
  const parts = labels.slice(0, max).map((g) => {
    if (g === ' ') return g;
    const s = shown(g);
    return s.startsWith('U+') && s !== g ? ` ${s} ` : s;
  });
  const out = parts.join('').replace(/ {2,}/g, ' ').replace(/^ (?=U\+)|(?<=U\+[0-9A-F]{4,6}) $/g, '');
  return labels.length > max ? `${out}…` : out;
}
