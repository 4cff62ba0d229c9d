// Plain text of a filled prose string: $TeX$ written as a reader would say it in text
// (d_k, √d_k, ≈, ×), HTML tags dropped. The accessible name of a form control whose
// visible label holds maths: a screen reader would otherwise read KaTeX's MathML token by
// token ("d k = 64"), and a label made only of maths may count as no label at all.
//   plainText('$d_k = 64$ (std $\\sqrt{d_k} \\approx 8$)') -> 'd_k = 64 (std √d_k ≈ 8)'
const SYMBOLS = {
  times: '×', cdot: '·', approx: '≈', infty: '∞', to: '→', top: 'ᵀ', theta: 'θ', alpha: 'α', omega: 'ω',
  ne: '≠', le: '≤', ge: '≥', in: '∈', pm: '±', div: '÷', sum: 'Σ', partial: '∂', dots: '…', ldots: '…',
  max: 'max', min: 'min', cos: 'cos', sin: 'sin', exp: 'exp', log: 'log', lVert: '‖', rVert: '‖', mid: '|',
  left: '', right: '', textstyle: '', displaystyle: '', quad: ' ', qquad: ' ', ',': ' ', ';': ' ', '!': '', ' ': ' ',
};
function tex(s) {
  let t = s;
  for (let k = 0; k < 4; k++) // nested groups, innermost first
    t = t
      .replace(/\\(?:text|mathrm|operatorname|mathbf|mathit|boldsymbol)\{([^{}]*)\}/g, '$1')
      .replace(/\\sqrt\{([^{}]*)\}/g, (m, a) => `√${a.length > 1 && !/^\w+(_\w+)?$/.test(a) ? `(${a})` : a}`)
      .replace(/\\frac\{([^{}]*)\}\{([^{}]*)\}/g, '($1)/($2)')
      .replace(/\^\{([^{}]*)\}/g, (m, a) => (a === '\\top' ? 'ᵀ' : `^(${a})`))
      .replace(/_\{([^{}]*)\}/g, '_$1');
  return t
    .replace(/\\([a-zA-Z]+|[,;! ])/g, (m, name) => SYMBOLS[name] ?? name)
    .replace(/\^ᵀ/g, 'ᵀ')
    .replace(/[{}]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
export function plainText(filled) {
  return String(filled)
    .replace(/\$\$([^$]+)\$\$|\$([^$]+)\$/g, (m, a, b) => tex(a ?? b))
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

// The readable text of an element that may hold typeset maths (KaTeX keeps each formula's
// TeX in an <annotation>): the plain text above, e.g. a table's caption as a name.
export function readableText(el) {
  const c = el.cloneNode(true);
  for (const k of c.querySelectorAll('.katex')) k.replaceWith(`$${k.querySelector('annotation')?.textContent ?? ''}$`);
  return plainText(c.textContent);
}

// A title that may hold $TeX$ as a heading shows it before KaTeX is loaded (a chapter not
// mounted yet, lazy-chapters.js): plain text with subscripts as subscripts, never a "$" or
// a backslash on screen or in a screen reader's headings list.
//   headingParts('Adding trainable weights: $W_Q$') -> ['Adding trainable weights: W', { sub: 'Q' }]
export function headingParts(title) {
  const parts = [];
  const text = plainText(title);
  let last = 0;
  for (const m of text.matchAll(/(?<=[\p{L}\p{N})])_([\p{L}\p{N}]+)/gu)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    parts.push({ sub: m[1] });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
// The heading `h` shows `title` (above).
export function setHeading(h, title) {
  if (h.__title === title) return;
  h.__title = title;
  h.replaceChildren(...headingParts(title).map((p) => {
    if (typeof p === 'string') return p;
    const s = document.createElement('sub');
    s.textContent = p.sub;
    return s;
  }));
}

// A caption as part of a name (a scroll box's: kit.js): without its closing full stop, cut at
// a word (with "…") past `max` characters.
export function shortName(text, max = 120) {
  const t = String(text).trim().replace(/[.。]+$/, '');
  if (t.length <= max) return t;
  const cut = t.slice(0, max), space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}
