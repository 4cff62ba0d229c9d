// Chapter "Terms and the formula" (sources: seeds/004's glossary and reading order,
// seeds/001's one-line formula): the words first, then softmax(QKᵀ/√d_k)V read from the
// inside out. The values quoted here are those of the next chapter's example (two-keys),
// computed by the core from its current inputs. Where that chapter is on the page, each
// symbol of the formula links to where it appears in its live numbers; alone (a widget, an
// ?embed= frame) nothing links there, the numbers are the example's defaults and the prose
// introduces them itself.
import katex from 'katex';
import { chapterKit } from '../../kit/kit.js';
import { setHtml } from '../../kit/prose.js';
import { tex } from '../../format.js';
import { rowOf } from '../../matrix.js';
import { cellValue } from '../../components/grid/hidden-values.js';
import { TWO_KEYS_DEFAULTS, computeTwoKeys, EXP_DIGITS } from '../two-keys/index.js';
import narrative from './narrative.js';

const ID = 'terms-formula';
const TARGETS = {
  q: 'two-keys-q', k: 'two-keys-K', v: 'two-keys-V',
  scores: 'two-keys-step-scores', dk: 'two-keys-step-scaled', softmax: 'two-keys-step-weights',
  exp: 'two-keys-step-exp', output: 'two-keys-step-output',
};

// The line of the inside-out list that works a symbol out (Q and K: the QKᵀ line).
const LINE = { q: 'scores', k: 'scores' };

const cls = (name, body) => `\\htmlClass{sym sym-${name}}{${body}}`;
const RHS = `${cls('softmax', '\\mathrm{softmax}')}\\!\\left(\\frac{${cls('scores', `${cls('q', 'Q')}${cls('k', 'K^{\\top}')}`)}}{${cls('dk', '\\sqrt{d_k}')}}\\right)${cls('v', 'V')}`;
// One line where it fits; on a phone the right-hand side goes on its own line.
const FORMULA = `\\mathrm{Attention}(Q,K,V) = ${RHS}`;
const FORMULA_NARROW = `\\begin{aligned} &\\mathrm{Attention}(Q,K,V) \\\\ &\\quad = ${RHS} \\end{aligned}`;

function renderFormula(src) {
  return katex.renderToString(src, {
    displayMode: true, throwOnError: false, output: 'htmlAndMathml', strict: 'ignore',
    trust: ({ command }) => command === '\\htmlClass',
  });
}

export default {
  id: ID,
  mount(section, ctx) {
    const { attn, store } = ctx;
    // (quotes: the two-keys example's cells its exercise hides are "?" here too)
    const k = chapterKit(section, ctx, ID, () => ({}), { quotes: 'two-keys' });
    const { el, text, tr } = k;
    // The symbols link to two-keys only where it is on the page.
    const linked = !!ctx.onPage?.('two-keys');

    let formula;
    const goTo = (name) => {
      const id = TARGETS[name];
      const target = document.getElementById(id);
      if (!target) return;
      if (location.hash === `#${id}`) target.scrollIntoView({ block: 'center' });
      else location.hash = id; // scrolls there; :target highlights it
    };
    const light = (name, on) => {
      if (linked) document.getElementById(TARGETS[name])?.classList.toggle('linked', on);
      section.querySelectorAll(`[data-sym="${LINE[name] ?? name}"]`).forEach((n) => n.classList.toggle('linked', on));
      formula.querySelectorAll(`.sym-${name}`).forEach((n) => n.classList.toggle('linked', on));
    };
    // The innermost symbol under the pointer wins (Q inside QKᵀ).
    const symOf = (node) => {
      const s = node?.closest?.('.sym');
      return s ? [...s.classList].find((c) => c.startsWith('sym-'))?.slice(4) : null;
    };
    let lit = null;
    const setLit = (name) => {
      if (lit === name) return;
      if (lit) light(lit, false);
      lit = name;
      if (lit) light(lit, true);
    };
    // A link from a step of the inside-out list to its numbers in the next chapter (none
    // when that chapter is not on the page).
    const seeLink = (sym) => (parent) => {
      if (!linked) return;
      const a = el('a', 'see-link', parent);
      a.href = `#${TARGETS[sym === 'v' ? 'output' : sym]}`;
      a.dataset.link = sym;
      a.addEventListener('pointerenter', () => setLit(sym));
      a.addEventListener('pointerleave', () => setLit(null));
      text('span', 'seeIt', a);
    };
    // The figures, each built in its place in narrative.js.
    const figures = {
      formula(parent) {
        // (sym-formula: a symbol under the pointer lights up its line of the list below;
        // linked-formula: the symbols are links to two-keys)
        formula = el('div', `formula sym-formula${linked ? ' linked-formula' : ''}`, parent);
        setHtml(formula, `<div class="formula-wide">${renderFormula(FORMULA)}</div><div class="formula-narrow">${renderFormula(FORMULA_NARROW)}</div>`);
        formula.addEventListener('pointerover', (e) => setLit(symOf(e.target)));
        formula.addEventListener('pointerleave', () => setLit(null));
        formula.querySelectorAll('.sym').forEach((n) => (n.dataset.symbol = symOf(n)));
        // Alone the formula is plain maths: KaTeX's MathML is what assistive technology reads.
        if (!linked) return;
        // The symbols are links, so the typeset (HTML) half of KaTeX's output is what assistive
        // technology meets: it is not hidden, the MathML copy is, and the formula is one group
        // named by its plain-text reading (formulaLabel, set with the language in k.start).
        formula.setAttribute('role', 'group');
        formula.querySelectorAll('.katex-html').forEach((n) => n.removeAttribute('aria-hidden'));
        formula.querySelectorAll('.katex-mathml').forEach((n) => n.setAttribute('aria-hidden', 'true'));
        formula.querySelectorAll('.sym').forEach((n) => {
          n.tabIndex = 0;
          n.setAttribute('role', 'link');
        });
        formula.addEventListener('focusin', (e) => setLit(symOf(e.target)));
        formula.addEventListener('focusout', () => setLit(null));
        formula.addEventListener('click', (e) => {
          const name = symOf(e.target);
          if (name) goTo(name);
        });
        formula.addEventListener('keydown', (e) => {
          const name = symOf(e.target);
          if (name && (e.key === 'Enter' || e.key === ' ')) {
            e.preventDefault();
            goTo(name);
          }
        });
      },
      seeScores: seeLink('scores'), seeDk: seeLink('dk'), seeSoftmax: seeLink('softmax'), seeV: seeLink('v'),
    };
    // The next chapter's numbers, as it prints them (and its inputs, which the prose quotes
    // when that chapter is not on the page).
    const numbers = (s, r) => {
      if (!r) return {};
      const { t, sc, parts, input } = r;
      const raw = Number.isFinite(parts.sumsRaw.data[0]);
      // each value tagged with the two-keys grid that shows it (hidden-values.js cellValue)
      const vec = (m, grid, o, i = 0) => `[${rowOf(m, i).map((x, j) => cellValue(`two-keys-${grid}`, i, j, tex(x, o))).join(',\\ ')}]`;
      const w3 = { digits: 3, fixed: true };
      return {
        scores: vec(t.scores, 'scores'), sqrt: tex(sc.sqrtDk, w3), dk: sc.dk, scaled: vec(t.scaled, 'scaled', w3),
        exp: vec(raw ? parts.expRaw : parts.exp, 'exp', EXP_DIGITS), // as the next chapter prints them
        sum: cellValue('two-keys-sum', 0, 0, tex((raw ? parts.sumsRaw : parts.sums).data[0], EXP_DIGITS)),
        weights: vec(t.weights, 'weights', w3), output: vec(t.output, 'output', w3),
        q: vec(input.q, 'q'), k1: vec(input.K, 'K'), k2: vec(input.K, 'K', undefined, 1),
        v1: vec(input.V, 'V'), v2: vec(input.V, 'V', undefined, 1),
      };
    };
    // Where two-keys is on the page the prose points there; alone it says where the
    // numbers come from without it.
    const here = (key) => () => (linked ? key : `${key}Alone`);
    k.narrative(narrative, {
      figures, vars: { numbers },
      choose: { lead: here('lead'), hint: here('formulaHint'), insideOut: here('insideOutBody') },
    });

    // Numbers of the two-keys example (its inputs, or the documents' before it mounts).
    let seen;
    store.subscribe((all) => {
      if (all['two-keys'] !== seen) k.render();
    });
    k.start(() => {
      const s = store.get()['two-keys'] ?? TWO_KEYS_DEFAULTS();
      seen = store.get()['two-keys'];
      if (linked) {
        formula.setAttribute('aria-label', tr('formulaLabel'));
        formula.querySelectorAll('.sym').forEach((n) => {
          // The accessible name starts with the symbol as it reads on screen.
          const label = `${n.textContent.replace(/\s+/g, '')}: ${tr(`sym_${n.dataset.symbol}`)}`;
          n.setAttribute('aria-label', label);
          n.title = label;
        });
      }
      return { ...computeTwoKeys(attn, s.q, s.K, s.V), input: s };
    });
  },
};
