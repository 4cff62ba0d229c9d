// Renders the page's prose: strings from chapters/<id>/<lang>.js and kit/<lang>.js with
// {name} placeholders filled from computed values (fill: the one way to fill them, used
// by i18n.t(key, vars) too) and $...$ segments typeset by KaTeX.
import katex from 'katex';

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

// Fills {name} placeholders with String(value), as is: inside $...$ a value is TeX, and
// around it the template may hold simple HTML, so text a learner typed is escaped by the
// caller (escapeHtml) before it goes into prose set as HTML. Unknown names stay as {name}.
export function fill(template, vars = {}) {
  return template.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

export function proseToHtml(template, vars = {}) {
  const filled = fill(template, vars);
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

// Sets an element's content from a template; cheap enough to call on every update.
export function setProse(el, template, vars) {
  const html = proseToHtml(template, vars);
  if (el.__prose !== html) {
    el.innerHTML = html;
    el.__prose = html;
  }
}
