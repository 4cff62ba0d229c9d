// Renders the page's prose: strings from chapters/<id>/<lang>.js and kit/<lang>.js with
// {name} placeholders filled from computed values (fill: the one way to fill them, used
// by i18n.t(key, vars) too) and $...$ segments typeset by KaTeX.
import katex from 'katex';
import morphdom from 'morphdom';
import { fill } from './fill.js';
import { maskHidden, hiddenTextsAt } from '../components/grid/hidden-values.js';

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
    remember(key, html);
  }
  return html;
}

// fill lives in fill.js (no KaTeX there, so the page's first chunk can fill text).
export { fill };

// Text and $math$ segments ($$ for display math) of filled prose: strings (our own text,
// which may hold simple HTML such as <strong>) and {tex, display} parts, for setParts.
export const prose = (template, vars) => proseParts(vars ? fill(template, vars) : template);
function proseParts(filled) {
  return filled
    .split(/(\$\$[^$]+\$\$|\$[^$]+\$)/g)
    .filter((seg) => seg !== '')
    .map((seg) => {
      if (seg.startsWith('$$')) return { tex: seg.slice(2, -2), display: true };
      if (seg.startsWith('$') && seg.endsWith('$') && seg.length > 1) return { tex: seg.slice(1, -1), display: false };
      return seg;
    });
}

// Whether filling `template` with `vars` leaves a {name} (or {name|one|other}) of its text
// unfilled: a value the caller does not have. (Braces inside $TeX$ are TeX's own.)
const PLACEHOLDER = /\{\w+(?:\|[^|{}]*\|[^|{}]*)?\}/;
export function unfilled(template, vars) {
  return proseParts(fill(template, vars ?? {})).some((p) => typeof p === 'string' && PLACEHOLDER.test(p));
}

export function proseToHtml(template, vars) {
  const filled = vars ? fill(template, vars) : template;
  return proseParts(filled).map((p) => (typeof p === 'string' ? p : texToHtml(p.tex, p))).join('');
}

// Render only what changed: these write to the DOM only when the content differs from
// what the element holds, so an update that changes nothing costs no style or layout.
export function setText(el, text) {
  const t = String(text);
  if (el.textContent !== t) {
    // one text node already: rewrite its data (no node comes or goes, so the browser
    // only lays out the changed text again); else replace the content
    const only = el.firstChild;
    if (only && only.nodeType === 3 && !only.nextSibling) only.data = t;
    else el.textContent = t;
    el.__html = el.__parts = el.__filled = undefined;
  }
}
// New HTML for an element that already shows some (a formula whose numbers changed) is
// morphed into it (morphdom): the nodes that stay the same are kept, so only the changed
// digits are styled and laid out again, not the whole typeset formula.
export function setHtml(el, html) {
  if (el.__html === html) return;
  el.__parts = el.__filled = undefined; // what setParts knew about the element's formulas is gone
  morphInto(el, html);
  el.__html = html;
}
function morphInto(el, html) {
  if (!el.firstChild) el.innerHTML = html;
  else {
    const next = el.cloneNode(false);
    next.innerHTML = html;
    morphdom(el, next, { childrenOnly: true });
  }
}

// ---- formulas whose numbers change ---------------------------------------------------------
// A worked formula is typeset once per *structure*: its TeX with every number replaced by
// '#' (the skeleton). The numbers are typeset as slots, \htmlClass{ae-n ae-n<k>}{1.25} for
// the k-th number of the TeX (a span KaTeX treats as transparent for spacing; the HTML may
// hold them in another order, as an aligned environment's columns), and an edit that
// changes only numbers, to numbers of the same kind, writes the new digits into the slots'
// text nodes: no KaTeX, no HTML parsing, no morph, and the browser lays out only the
// changed text. A number's kind is its place in the skeleton; a digit string has the same
// height and depth whatever its digits (KaTeX's struts stay right); the sign is part of the skeleton, and
// −∞, ∞ and NaN are not numbers here, so a change of sign or to a non-finite value
// typesets the formula anew. The formula's MathML (what screen readers read) gets the
// same digits: when its <mn> elements are the slots' numbers, one each and in order, the
// digits are written into them and the TeX into its <annotation> (KaTeX's MathML for the
// new numbers, tests/web/prose.test.mjs); otherwise it is typeset from the real TeX
// (cached by string) and morphed in, so only its changed <mn> text is laid out again.
//
// Numbers that stay in the skeleton: an unbraced sub- or superscript (x_1, whose argument
// cannot be a command), a number followed by a letter (a unit such as 2pt, or 2x), and a
// number with a script (10^{3} puts the 3 on the 0 alone; a slot would put it on 10), and
// a number next to a slash (KaTeX typesets 4/8 as one run of text; slots would split it).
const NUMBER = /(?<![_^\d./|]|[_^]\s+)\d+(?:\.\d+)?(?![\d.A-Za-z/|]|\s*[_^])/g;
const SLOT = 'ae-n';
const SLOT_OPTIONS = {
  throwOnError: false,
  trust: (c) => c.command === '\\htmlClass',
  strict: (code) => (code === 'htmlExtension' ? 'ignore' : 'warn'),
};
// A number with its sign: a unary minus (after the start of a group, an opening bracket,
// a comma, a relation or a binary operator, where KaTeX makes it an ordinary atom), and a
// negative factor in parentheses after a relation, a binary operator, a comma or the start
// of a group, are one slot. The slot is typeset with the digits alone, and the sign and
// parentheses are put in beside them as the spans KaTeX makes for them (<span
// class="mord">−</span>, "mopen", "mclose"), so a sign that flips writes a span, not a new
// formula; only the MathML (<mo>−</mo>) is typeset again. The spacing around the slot is
// an ordinary atom's, which KaTeX's table also gives "(" and ")" there (it differs only
// after an operator such as \sum, which is not in the list). Not in a command's argument
// other than \mathbf's (\text{-1} is a hyphen), nor in a fraction's denominator (the
// minus's depth is part of the fraction's). tests/web/prose.test.mjs compares the HTML
// with KaTeX's but for the struts, which hold the height and depth of what was typeset
// (the digits alone) and are never the deepest part of their line; the core-attention
// browser test compares the boxes on the page.
const LEAD = String.raw`(?<=(?:^|(?<![A-Za-z}])\{|\\mathbf\{|[(\[,=+]|\\times|\\cdot|\\ )\s*)`;
const NUM = String.raw`\d+(?:\.\d+)?`;
const AFTER = String.raw`(?![\d.A-Za-z/|]|\s*[_^])`;
const SIGNED = new RegExp(String.raw`(?<=(?:^|(?<![A-Za-z}])\{|\\mathbf\{|[,=+]|\\times|\\cdot)\s*)\(\s*-\s*${NUM}\s*\)${AFTER}|${LEAD}-\s*${NUM}${AFTER}|${NUMBER.source}`, 'g');
const digitsIn = (m) => m.replace(/[^\d.]/g, ''); // "(-0.25)" -> "0.25"
const formOf = (m) => (m[0] === '(' ? '(-' : m[0] === '-' ? '-' : ''); // "(-0.25)" -> "(-"
// Puts a slot's sign and parentheses in or out: slot = {digits: the digits' span, sign,
// open, close: the spans put in, or null}.
function signSlot(slot, form) {
  const tight = slot.digits.classList.contains('mtight') ? ' mtight' : '';
  const span = (cls, text) => {
    const n = document.createElement('span');
    n.className = cls + tight;
    n.textContent = text;
    return n;
  };
  const paren = form === '(-';
  if (!paren && slot.open) {
    slot.open.remove();
    slot.close.remove();
    slot.open = slot.close = null;
  }
  if (!form && slot.sign) {
    slot.sign.remove();
    slot.sign = null;
  }
  if (form && !slot.sign) slot.digits.before((slot.sign = span('mord', '\u2212')));
  if (paren && !slot.open) {
    slot.sign.before((slot.open = span('mopen', '(')));
    slot.digits.after((slot.close = span('mclose', ')')));
  }
}
export function skeleton(tex) {
  const digits = [];
  const skel = tex.replace(SIGNED, (m) => {
    digits.push(m);
    return '#';
  });
  return { skel, digits };
}
// KaTeX's output with the HTML typeset from the slotted TeX and the MathML from the real
// one, assembled as KaTeX's own htmlAndMathml output is (tests/web/prose.test.mjs checks
// that the assembly of an unslotted formula is KaTeX's output byte for byte).
export function slottedHtml(tex, { display = false } = {}) {
  const key = `S${display ? 'D' : 'I'}${tex}`;
  let html = typeset.get(key);
  if (html === undefined) {
    let k = 0;
    const slotted = tex.replace(SIGNED, (m) => `\\htmlClass{${SLOT} ${SLOT}${k++}}{${digitsIn(m)}}`);
    html = assemble(katex.renderToString(slotted, { ...SLOT_OPTIONS, displayMode: display, output: 'html' }), mathml(tex, display))
      ?? texToHtml(tex, { display });
    remember(key, html);
  }
  return html;
}
export function assemble(htmlOnly, math) {
  const at = htmlOnly.indexOf(ROOT);
  if (at < 0 || math === null) return null;
  return `${htmlOnly.slice(0, at + ROOT.length)}<span class="katex-mathml">${math}</span>${htmlOnly.slice(at + ROOT.length)}`;
}
const ROOT = '<span class="katex">';
// The <math> element of a formula (KaTeX's MathML-only output, without its wrapper).
function mathml(tex, display) {
  const key = `M${display ? 'D' : 'I'}${tex}`;
  let m = typeset.get(key);
  if (m === undefined) {
    const out = katex.renderToString(tex, { throwOnError: false, displayMode: display, output: 'mathml' });
    m = out.startsWith(ROOT) && out.endsWith('</span>') ? out.slice(ROOT.length, -'</span>'.length) : null;
    remember(key, m);
  }
  return m;
}
function remember(key, value) {
  if (typeset.size >= TYPESET_LIMIT) typeset.delete(typeset.keys().next().value); // oldest first
  typeset.set(key, value);
}

// Sets an element's content from parts: strings of HTML and {tex, display} formulas. When
// the element shows the same parts but for the numbers of its formulas, only the digits
// are written (above); otherwise the new HTML is morphed in as setHtml does. The first
// time, formulas are typeset as KaTeX does (no slots: prose whose numbers never change
// costs nothing more); from the second time on, with slots. With { slotted: true } (a
// worked formula, whose numbers change with the learner's edits: setMath) with slots from
// the first time, so that the first edit writes digits too instead of typesetting and
// morphing every formula of the chapter again (about as much KaTeX work at the mount).
export function setParts(el, parts, { slotted = false } = {}) {
  el.__filled = undefined; // (setProse sets it after)
  const now = parts.map((p) => (typeof p === 'string' ? { html: p } : { ...p, ...skeleton(p.tex) }));
  const was = el.__parts;
  if (was && was.length === now.length && now.every((p, i) => sameShape(was[i], p))) {
    for (let i = 0; i < now.length; i++) {
      const p = now[i], o = was[i];
      if (p.html !== undefined) {
        // words between the formulas (a count, a ratio written as text): their text nodes
        if (o.html !== p.html) {
          const words = wordsOf(p.html).words;
          for (let j = 0; j < words.length; j++) if (o.texts[j].data !== words[j]) o.texts[j].data = words[j];
          o.html = p.html;
        }
        continue;
      }
      if (o.tex === p.tex) continue;
      let signs = false; // a sign came or went: the MathML's <mo>−</mo> with it
      for (let j = 0; j < p.digits.length; j++) if (o.digits[j] !== p.digits[j]) {
        const d = digitsIn(p.digits[j]), form = formOf(p.digits[j]);
        if (o.slots[j].data !== d) o.slots[j].data = d;
        if (form !== formOf(o.digits[j])) {
          signSlot(o.signs[j], form);
          signs = true;
        } else if (o.mslots) o.mslots[j].data = d;
      }
      o.tex = p.tex;
      o.digits = p.digits;
      if (o.mslots && !signs) o.annotation.data = p.tex;
      else {
        const m = mathml(p.tex, p.display);
        if (m !== null) morphInto(o.math, m); // only the changed <mn> text is laid out again
        findMathSlots(o);
      }
    }
    el.__html = null; // known to setParts only
    return;
  }
  const slots = was || slotted;
  const html = now.map((p) => (p.html !== undefined ? p.html : slots && p.digits.length ? slottedHtml(p.tex, p) : texToHtml(p.tex, p))).join('');
  if (el.__html !== html) morphInto(el, html);
  el.__html = html;
  el.__parts = findSlots(el, now);
}
// A part of words is the same shape when it is the same HTML, or the same markup around
// other words (no entity, no word emptied) and the old part's words are text nodes of the
// element, one each (findTexts): the new words are written into those nodes, as a
// formula's new digits into its slots.
const sameShape = (o, p) => (p.html !== undefined ? o.html === p.html || (!!o.texts && sameMarkup(o, p.html))
  : o.slots !== null && o.skel === p.skel && o.display === p.display);
// Words with simple HTML: the tags in order, and the words between them (empty ones out).
// null where an entity is (its text is not its source).
function wordsOf(html) {
  if (html.includes('&')) return null;
  const bits = html.split(/(<[^>]*>)/);
  return { tags: bits.filter((b, i) => i % 2).join(''), words: bits.filter((b, i) => !(i % 2) && b !== '') };
}
function sameMarkup(o, html) {
  const w = wordsOf(html);
  return !!w && w.tags === o.tags && w.words.length === o.texts.length;
}

const PLACE = new RegExp(`^${SLOT}(\\d+)$`);
function slotPlace(span) {
  for (const c of span.classList) {
    const m = PLACE.exec(c);
    if (m) return Number(m[1]);
  }
  return -1;
}

// After new HTML: each formula's KaTeX root, its MathML holder and its slots' text nodes.
// A formula whose slots are not one text node each (KaTeX split a number) is marked
// unslotted (slots: null) and is always typeset whole.
function findSlots(el, parts) {
  const roots = el.querySelectorAll('.katex');
  const formulas = parts.filter((p) => p.html === undefined);
  if (roots.length !== formulas.length) {
    for (const p of formulas) p.slots = null;
    return parts;
  }
  findTexts(el, parts, roots);
  formulas.forEach((p, k) => {
    const root = roots[k];
    p.math = root.querySelector(':scope > .katex-mathml');
    const spans = root.querySelectorAll(`.katex-html .${SLOT}`);
    // a slot's place in the TeX is its class ae-n<k>: the HTML can hold the numbers in
    // another order (an aligned environment lays out its left column, then its right one)
    const byPlace = new Array(p.digits.length).fill(null);
    for (const s of spans) {
      const j = slotPlace(s);
      if (j >= 0 && j < byPlace.length && !byPlace[j]) byPlace[j] = s;
    }
    p.slots = p.math && spans.length === p.digits.length && !byPlace.includes(null) ? byPlace.map((s, j) => {
      // <span class="enclosing ae-n ae-n<j>"><span class="mord">1.25</span>(KaTeX's spacing after it)</span>
      const t = s.firstChild;
      const only = t && t.nodeType === 1 && t.childNodes.length === 1 ? t.firstChild : null;
      for (let x = t?.nextSibling; x; x = x.nextSibling) if (!x.classList?.contains('mspace')) return null;
      return only && only.nodeType === 3 && only.data === digitsIn(p.digits[j]) ? only : null;
    }) : null;
    if (p.slots?.some((t) => t === null)) p.slots = null;
    // typeset without their signs: the signs are put in beside the digits
    p.signs = p.slots?.map((t, j) => {
      const slot = { digits: t.parentNode, sign: null, open: null, close: null };
      if (formOf(p.digits[j])) signSlot(slot, formOf(p.digits[j]));
      return slot;
    });
    findMathSlots(p);
  });
  return parts;
}
// The text nodes of each part of words, walking the element's children in the parts'
// order: a part of words is the children up to the one holding the next formula's KaTeX
// root. Its words are known (texts: the nodes, tags: its markup) when its text nodes are
// its words, one each and in order; else (an entity, a scroll hint put in) new words there
// are morphed in.
function findTexts(el, parts, roots) {
  let child = el.firstChild, k = 0;
  for (const p of parts) {
    p.texts = null;
    if (p.html === undefined) {
      const root = roots[k++];
      while (child && !child.contains(root)) child = child.nextSibling;
      child = child?.nextSibling ?? null;
      continue;
    }
    const next = roots[k];
    const texts = [];
    for (; child && !(next && child.contains(next)); child = child.nextSibling) {
      if (child.nodeType === 3) texts.push(child);
      else if (child.nodeType === 1) {
        const tw = document.createTreeWalker(child, NodeFilter.SHOW_TEXT);
        for (let t = tw.nextNode(); t; t = tw.nextNode()) texts.push(t);
      }
    }
    const w = wordsOf(p.html);
    if (w && w.words.length === texts.length && texts.every((t, j) => t.data === w.words[j])) {
      p.texts = texts;
      p.tags = w.tags;
    }
  }
}
// The MathML's numbers: its <mn> elements, if they are the slots' digits in order.
function findMathSlots(p) {
  const mns = p.slots ? p.math.querySelectorAll('mn') : [];
  const annotation = p.slots ? p.math.querySelector('annotation')?.firstChild : null;
  p.mslots = annotation?.nodeType === 3 && annotation.data === p.tex && mns.length === p.digits.length
    && Array.from(mns).every((n, j) => n.childNodes.length === 1 && n.firstChild.nodeType === 3 && n.firstChild.data === digitsIn(p.digits[j]))
    ? Array.from(mns, (n) => n.firstChild) : null;
  p.annotation = p.mslots ? annotation : null;
}

// One formula (or several, display: each its own block) whose numbers change.
// A value an exercise hides is written "?" (components/grid/hidden-values.js).
export function setMath(el, tex, { display = false } = {}) {
  const hidden = hiddenTextsAt(el);
  setParts(el, (Array.isArray(tex) ? tex : [tex]).map((t) => ({ tex: maskHidden(t, hidden), display })), { slotted: true });
}

// Sets an element's content from a template; cheap enough to call on every update: the
// TeX is typeset once per structure (setParts), and when the filled template is the one
// the element already shows nothing else is done.
//
// A paragraph that changes its words (a switch between two texts, a sign that flips) keeps
// the nodes of the text it showed, a few per element: switching back puts those nodes back
// in place, without typesetting, parsing or morphing (a toggle flipped to and fro, a
// select stepped through its options). Nodes once kept are never written to again. Only
// with { keep: true } (the kit's renders, but not a language switch: there every word
// changes and every formula stays, so the morph keeps the formulas' nodes instead).
const KEPT = 2;
export function setProse(el, template, vars, { keep: keeping = false } = {}) {
  const filled = maskHidden(fill(template, vars), hiddenTextsAt(el)); // (an exercise's hidden values: "?")
  if (el.__filled === filled) return;
  // Words and digits written in place cost less than putting kept nodes back (which are
  // styled and laid out anew): kept nodes are for a text whose shape changed.
  const parts = proseParts(filled);
  const kept = el.__kept?.get(filled);
  if (kept && !(el.__parts && sameParts(el.__parts, parts))) {
    if (keeping) keep(el);
    el.__kept.delete(filled);
    el.replaceChildren(...kept.nodes.filter((n) => !n.classList?.contains('scroll-hint')));
    el.__parts = kept.parts;
    el.__html = kept.html;
    el.__filled = filled;
    return;
  }
  if (keeping && el.__filled !== undefined && el.__parts && !sameParts(el.__parts, parts)) {
    keep(el);
    el.__parts = []; // typeset with slots (its numbers may change next), into an empty element
  }
  setParts(el, parts);
  el.__filled = filled;
}
function keep(el) {
  if (el.__filled === undefined || !el.firstChild) return;
  if (!el.__kept) el.__kept = new Map();
  el.__kept.delete(el.__filled);
  if (el.__kept.size >= KEPT) el.__kept.delete(el.__kept.keys().next().value); // oldest first
  el.__kept.set(el.__filled, { nodes: [...el.childNodes], parts: el.__parts, html: el.__html });
  el.replaceChildren();
  el.__html = undefined;
}
// Would setParts write these parts into the element in place (only digits changed)?
function sameParts(was, parts) {
  if (was.length !== parts.length) return false;
  return parts.every((p, i) => (typeof p === 'string' ? sameShape(was[i], { html: p })
    : sameShape(was[i], { tex: p.tex, display: p.display, ...skeleton(p.tex) })));
}

// Rebuilds an element's children with build(into), where `into` is a detached copy of the
// element; what is new is morphed into the element (morphdom), so rows, chips and cells
// that come out the same are left alone. For content without listeners of its own (morphdom
// keeps the old nodes, with the listeners they had), which nothing else writes to: when
// the new content is the HTML the last rebuild left, nothing is compared or written.
export function rebuild(el, build) {
  const next = el.cloneNode(false);
  build(next);
  const html = next.innerHTML;
  if (el.__rebuilt === html && el.firstChild) return;
  el.__rebuilt = html;
  if (!el.firstChild) el.append(...next.childNodes);
  else morphdom(el, next, { childrenOnly: true });
}
