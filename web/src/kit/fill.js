// The one way to fill {placeholders} in the page's text: String(value), as is. Inside
// $...$ a value is TeX, and around it the template may hold simple HTML, so text a learner
// typed is escaped by the caller (escapeHtml in prose.js) before it goes into prose set as
// HTML. Unknown names stay as {name}. Used by i18n.t(key, vars) (so by the kit's tr and
// common), by prose.js and by the grids' tool texts.
//
// A count with its noun: {n|token|tokens} writes the value and the form that English
// plural rules (Intl.PluralRules) pick for it: "1 token", "3 tokens", "1,024 tokens".
// (Korean nouns have one form: its texts write "{n}개".)
const EN = new Intl.PluralRules('en');
const countOf = (v) => Number(String(v).replace(/[,\u2009\u202f ]/g, '').replace('\u2212', '-'));
export function plural(value, one, other) {
  const n = countOf(value);
  return `${value} ${Number.isFinite(n) && EN.select(n) === 'one' ? one : other}`;
}
export function fill(template, vars = {}) {
  return template.replace(/\{(\w+)(?:\|([^|{}]*)\|([^|{}]*))?\}/g, (m, k, one, other) => {
    if (!(k in vars)) return m;
    return one === undefined ? String(vars[k]) : plural(vars[k], one, other);
  });
}
