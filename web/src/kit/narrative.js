// The narrative as data: a chapter's prose blocks and figures in reading order, one entry
// each, kept in the chapter's narrative.js (the words are in ko.js/en.js, the figures are
// built by index.js); the kit renders the list in order (kit.js, k.narrative). Reordering a
// chapter, or moving a paragraph between two figures, is an edit of that list only.
//
//   export default [
//     { h2: 'title' },                                  // a prose block: <h2> with the text `title`
//     { p: 'lead', class: 'lead' },
//     { p: 'editHint', common: true, class: 'hint' },   // the page's common text (kit/ko.js)
//     { figure: 'scores' },                             // built by the chapter: figures.scores(parent)
//     { p: 'verdict', vars: 'axisVars', data: { verdict: 'axis' } },
//     { p: ['zeroScore', 'zeroScoreNone'], choose: 'zero' },   // one of these keys, by the state
//     { ul: [ { li: 'checkPositive', name: 'checkPos' } ], class: 'checks' },  // a container
//   ];
//
// A prose entry has exactly one tag (TAGS) naming its text key, or the keys it may show
// (a list, with `choose`), or, for a container, its entries (a list of entries). Options:
//   class    the element's class
//   data     its data-* attributes ({ check: 'sums' } is data-check="sums")
//   id       its id
//   attrs    other attributes ({ 'aria-labelledby': 'x-title' })
//   common   true: the key is in the page's common text, not the chapter's
//   vars     the values its {placeholders} get: the chapter's function vars[name](state,
//            result), or else the field `name` of what the draw function last returned
//   choose   the chapter's function choose[name](state) -> the key to show (one of the
//            listed keys), or null to hide the block in that state
//   example  the block describes the example's numbers (kit describesExample): a list of
//            state fields, or the chapter's function example[name](state)
//   edited   with example: the key shown in its place once the numbers differ from the
//            example's (a text written for that case; without it the page's common
//            "this describes the example" note is added after the block's text)
//   name     the element is returned under this name (for the draw function)
// A figure entry { figure: 'name' } calls the chapter's figures[name](parent, placed) in its
// place (placed: what the entries before it were returned under, e.g. the step panels a
// stepper takes); what it returns is returned under that name. Every figure the chapter defines is placed
// exactly once, every name is used once; anything else throws when the chapter mounts.

export const TAGS = ['h2', 'h3', 'h4', 'p', 'li', 'ul', 'ol', 'dl', 'dt', 'dd', 'div', 'section', 'aside', 'span'];
const OPTIONS = new Set(['class', 'data', 'id', 'attrs', 'common', 'vars', 'choose', 'example', 'edited', 'name']);

// -> { tag, keys, children } or { figure } for one entry; throws on a malformed one.
export function entryShape(e, where = 'entry') {
  if (!e || typeof e !== 'object' || Array.isArray(e)) throw new Error(`narrative ${where}: an entry is an object`);
  const own = Object.keys(e);
  if ('figure' in e) {
    if (typeof e.figure !== 'string' || own.length !== 1) throw new Error(`narrative ${where}: { figure: 'name' } takes nothing else`);
    return { figure: e.figure };
  }
  const tags = own.filter((x) => TAGS.includes(x));
  const unknown = own.filter((x) => !TAGS.includes(x) && !OPTIONS.has(x));
  if (unknown.length) throw new Error(`narrative ${where}: unknown ${unknown.join(', ')} (tags: ${TAGS.join(' ')}; options: ${[...OPTIONS].join(' ')})`);
  if (tags.length !== 1) throw new Error(`narrative ${where}: one tag per entry, not ${tags.length ? tags.join(' and ') : 'none'}`);
  const tag = tags[0];
  const v = e[tag];
  if ('edited' in e && (typeof e.edited !== 'string' || !e.example))
    throw new Error(`narrative ${where}: edited is a text key, with example`);
  if (typeof v === 'string') {
    if (e.choose) throw new Error(`narrative ${where}: choose needs the list of keys it may show`);
    return { tag, keys: [v] };
  }
  if (Array.isArray(v) && v.length && v.every((x) => typeof x === 'string')) {
    if (!e.choose) throw new Error(`narrative ${where}: a list of keys needs choose`);
    return { tag, keys: v };
  }
  if (Array.isArray(v) && v.every((x) => x && typeof x === 'object')) {
    for (const o of ['vars', 'choose', 'example', 'edited', 'common'])
      if (o in e) throw new Error(`narrative ${where}: a container (${tag}) has no text, so no ${o}`);
    return { tag, children: v };
  }
  throw new Error(`narrative ${where}: ${tag} is a text key, a list of keys, or a list of entries`);
}

// Every entry in reading order, depth first, with its shape and path ("3", "5.1").
export function* walk(list, path = '') {
  if (!Array.isArray(list)) throw new Error('narrative: a list of entries');
  for (const [i, e] of list.entries()) {
    const where = `${path}${i + 1}`;
    const shape = entryShape(e, where);
    yield { e, shape, where };
    if (shape.children) yield* walk(shape.children, `${where}.`);
  }
}

// The text keys a narrative shows: { chapter: [...], common: [...] } (for the test that
// both languages have them).
export function narrativeKeys(list) {
  const out = { chapter: [], common: [] };
  for (const { e, shape } of walk(list)) if (shape.keys) out[e.common ? 'common' : 'chapter'].push(...shape.keys, ...(e.edited ? [e.edited] : []));
  return out;
}

// Throws unless the list is well formed and fits the chapter's parts: every figure placed
// once and defined, every choose/example function defined, every name used once.
export function checkNarrative(list, { figures = {}, choose = {}, example = {} } = {}) {
  const placed = new Set();
  const names = new Set();
  const problems = [];
  const name = (n, where) => {
    if (names.has(n)) problems.push(`${where}: the name ${n} is used twice`);
    names.add(n);
  };
  for (const { e, shape, where } of walk(list)) {
    if (shape.figure) {
      if (placed.has(shape.figure)) problems.push(`${where}: figure ${shape.figure} is placed twice`);
      else if (typeof figures[shape.figure] !== 'function') problems.push(`${where}: figure ${shape.figure} is not one of the chapter's (${Object.keys(figures).join(', ')})`);
      placed.add(shape.figure);
      name(shape.figure, where);
      continue;
    }
    if (e.choose && typeof choose[e.choose] !== 'function') problems.push(`${where}: choose ${e.choose} is not one of the chapter's`);
    if (typeof e.example === 'string' && typeof example[e.example] !== 'function') problems.push(`${where}: example ${e.example} is not one of the chapter's`);
    if (e.name) name(e.name, where);
  }
  for (const f of Object.keys(figures)) if (!placed.has(f)) problems.push(`figure ${f} is defined but not placed`);
  if (problems.length) throw new Error(`narrative: ${problems.join('; ')}`);
}

// Renders the list into `section` with the kit's primitives, in order: prose blocks through
// kit.text / kit.commonText, containers through kit.el, figures by the chapter. Returns
// { [name]: element or what the figure returned }.
export function renderNarrative(list, section, kit, parts = {}) {
  const { figures = {}, vars = {}, choose = {}, example = {} } = parts;
  checkNarrative(list, parts);
  const out = {};
  const place = (entries, parent) => {
    for (const e of entries) {
      const shape = entryShape(e);
      if (shape.figure) {
        out[shape.figure] = figures[shape.figure](parent, out);
        continue;
      }
      let n;
      if (shape.children) {
        n = kit.el(shape.tag, e.class ?? '', parent);
        place(shape.children, n);
      } else if (e.common) {
        n = kit.commonText(shape.tag, shape.keys[0], parent, e.class);
      } else {
        const key = e.choose ? chooser(choose[e.choose], shape.keys, e.choose) : shape.keys[0];
        const v = !e.vars ? undefined
          : typeof vars[e.vars] === 'function' ? vars[e.vars]
            : ((field) => (s, r) => r?.[field] ?? {})(e.vars);
        n = kit.text(shape.tag, key, parent, v, e.class);
        if (e.example) kit.describesExample(n, typeof e.example === 'string' ? example[e.example] : e.example, e.edited);
      }
      if (e.id) n.id = e.id;
      for (const [a, v] of Object.entries(e.attrs ?? {})) n.setAttribute(a, v);
      if (e.data) Object.assign(n.dataset, e.data);
      if (e.name) out[e.name] = n;
    }
  };
  place(list, section);
  return out;
}

// choose[name](state) must give one of the keys the entry lists (or null: hidden).
function chooser(fn, keys, name) {
  return (s) => {
    const k = fn(s);
    if (k != null && !keys.includes(k)) throw new Error(`narrative: choose ${name} gave ${k}, not one of ${keys.join(', ')}`);
    return k;
  };
}
