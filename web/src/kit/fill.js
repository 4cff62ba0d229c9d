// The one way to fill {placeholders} in the page's text: String(value), as is. Inside
// $...$ a value is TeX, and around it the template may hold simple HTML, so text a learner
// typed is escaped by the caller (escapeHtml in prose.js) before it goes into prose set as
// HTML. Unknown names stay as {name}. Used by i18n.t(key, vars) (so by the kit's tr and
// common), by prose.js and by the grids' tool texts.
export function fill(template, vars = {}) {
  return template.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}
