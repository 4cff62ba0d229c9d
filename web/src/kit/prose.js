// Renders the page's prose: strings from chapters/<id>/<lang>.js and kit/<lang>.js with
// {name} placeholders filled from computed values (fill: the one way to fill them, used
// by i18n.t(key, vars) too) and $...$ segments typeset by KaTeX.
import katex from 'katex';
import morphdom from 'morphdom';
import { fill } from './fill.js';

const ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ESC[c]);

// Typesets one TeX string; a bad formula degrades to red source text, never an exception.
// Results are memoised: every render re-fills a chapter's prose, and most of its formulas
// have not changed since the last one.
const typeset = new Map();
const TYPESET_LIMIT = 4000;
export function texToHtml(src, { display = false } = {}) {
  const key = `${display ? 'D' : 'I'}${src}`;
  let html = typeset.get(key);
  if (html === undefined) {
    html = katex.renderToString(src, { displayMode: display, throwOnError: false, output: 'htmlAndMathml' });
    if (typeset.size >= TYPESET_LIMIT) typeset.delete(typeset.keys().next().value); // oldest first
    typeset.set(key, html);
  }
  return html;
}

// fill lives in fill.js (no KaTeX there, so the page's first chunk can fill text).
export { fill };

export function proseToHtml(template, vars) {
  const filled = vars ? fill(template, vars) : template;
  // Split into text and $math$ segments ($$ for display math).
  return filled
    .split(/(\$\$[^$]+\$\$|\$[^$]+\$)/g)
    .map((seg) => {
      if (seg.startsWith('$$')) return texToHtml(seg.slice(2, -2), { display: true });
      if (seg.startsWith('$') && seg.endsWith('$') && seg.length > 1) return texToHtml(seg.slice(1, -1));
      return seg; // our own strings may hold simple HTML (<strong>, <em>)
    })
    .join('');
}

// Render only what changed: these write to the DOM only when the content differs from
// what the element holds, so an update that changes nothing costs no style or layout.
export function setText(el, text) {
  const t = String(text);
  if (el.textContent !== t) el.textContent = t;
}
// New HTML for an element that already shows some (a formula whose numbers changed) is
// morphed into it (morphdom): the nodes that stay the same are kept, so only the changed
// digits are styled and laid out again, not the whole typeset formula.
export function setHtml(el, html) {
  if (el.__html === html) return;
  if (el.__html === undefined || !el.firstChild) el.innerHTML = html;
  else {
    const next = el.cloneNode(false);
    next.innerHTML = html;
    morphdom(el, next, { childrenOnly: true });
  }
  el.__html = html;
}

// Sets an element's content from a template; cheap enough to call on every update: the
// TeX is typeset once per string (texToHtml), and when the filled template is the one the
// element already shows nothing else is done.
export function setProse(el, template, vars) {
  const filled = fill(template, vars);
  if (el.__filled === filled) return;
  el.__filled = filled;
  setHtml(el, proseToHtml(filled));
}

// Rebuilds an element's children with build(into), where `into` is a detached copy of the
// element; what is new is morphed into the element (morphdom), so rows, chips and cells
// that come out the same are left alone. For content without listeners of its own (morphdom
// keeps the old nodes, with the listeners they had).
export function rebuild(el, build) {
  const next = el.cloneNode(false);
  build(next);
  if (!el.firstChild) el.append(...next.childNodes);
  else morphdom(el, next, { childrenOnly: true });
}
