// Chapter "Why one head is not enough" (source: seeds/001, last section): one softmax
// row is one distribution. A constructed subject – object – verb example where the
// verb needs two relations: with one head its weight splits between them, with two
// heads (same weights, h = 2) each head focuses on one. Every number comes from the core.
import { exampleKit } from '../../kit/kit.js';
import { choice, foldForPrint } from '../../kit/controls.js';
import { tex, fmt } from '../../format.js';
import { at, rowOf } from '../../matrix.js';
import narrative from './narrative.js';

const ID = 'one-head';

export default {
  id: ID,
  mount(section, ctx) {
    const { attn } = ctx;
    const k = exampleKit(section, ctx, ID, (ex) => ({
      X: ex.X, Wq: ex.Wq, Wk: ex.Wk, Wv: ex.Wv, Wo: ex.Wo, sentence: 0, strength: 1,
    }));
    const { el, text, tr, state, ex, comp } = k;
    const d = ex.X.cols;
    const { verb, subject, object } = ex;
    const tokLabel = (i) => tr(`tokens${state().sentence}`).split('|')[i] ?? `t${i + 1}`;
    const featLabel = (j) => tr('features').split('|')[j] ?? String(j + 1);
    // "The fish ate the cat": the same features with the two nouns' identities swapped
    // (columns cat and fish exchanged); a permutation of the inputs, not a computation.
    const swapNouns = (X) => {
      const data = Float32Array.from(X.data);
      for (let i = 0; i < X.rows; i++) [data[i * X.cols], data[i * X.cols + 1]] = [X.data[i * X.cols + 1], X.data[i * X.cols]];
      return { rows: X.rows, cols: X.cols, data };
    };
    const w3 = { digits: 3, fixed: true };
    // the example's numbers: its weights, and its X for the sentence chosen
    const sameM = (a, b) => a.rows === b.rows && a.cols === b.cols && a.data.every((x, i) => Object.is(x, b.data[i]));
    const weightsEdited = (s) => !['Wq', 'Wk', 'Wv', 'Wo'].every((n) => sameM(s[n], ex[n]));
    const inputEdited = (s) => !sameM(s.X, s.sentence ? swapNouns(ex.X) : ex.X);
    const edited = (s) => inputEdited(s) || weightsEdited(s);
    const flags = { sameOne: true, sameTwo: false, tie: true };

    const qLabel = (i) => tokLabel(i);
    const kLabel = (j) => tokLabel(j);
    const weights = { color: 'weights', digits: 3, fixed: true };

    // The figures, each built in its place in narrative.js.
    const figures = {
      sentence: (parent) => choice(k, 'sentence', {
        labelKey: 'sentenceLabel', testId: 'oh-sentence', parent,
        options: () => [0, 1].map((v) => ({ value: v, text: tr(`sentence${v}`) })),
        patchFor: (v) => (v === state().sentence ? {} : { sentence: v, X: swapNouns(state().X) }),
      }),
      inputs(parent) {
        const controls = el('div', 'controls', parent);
        const strength = k.slider('strength', 'strengthLabel', { min: 0.5, max: 4, step: 0.5, parent: controls, vars: () => ({ value: fmt(state().strength) }) });
        strength.input.dataset.control = 'oh-strength';
        k.button('common.reset', k.reset, controls, 'reset');
        const gX = k.editable('X', { caption: () => 'X', ariaLabel: () => 'X', rowLabel: tokLabel, colLabel: featLabel, testId: 'oh-X' });
        parent.append(gX.el);
        const details = foldForPrint(el('details', 'weights-details', parent));
        text('summary', 'weightsSummary', details);
        k.describesExample(text('p', 'weightsBody', details, () => ({}), 'hint'), weightsEdited);
        const wRow = el('div', 'grid-row', details);
        const gW = {};
        for (const [name, cap] of [['Wq', 'W_Q'], ['Wk', 'W_K'], ['Wv', 'W_V'], ['Wo', 'W_O']]) {
          gW[name] = k.editable(name, { caption: () => cap, ariaLabel: () => cap.replace('_', ''), rowLabel: featLabel, colLabel: comp, testId: `oh-${name}` });
          wRow.append(gW[name].el);
        }
        return { gX, gW };
      },
      heads(parent) {
        const panels = el('div', 'head-compare', parent);
        const panel = (cls, key, n) => {
          const p = el('div', `head-panel ${cls}`, panels);
          text('h4', key, p, (st, r) => ({ d, h: n, dh: r ? r.dh[n] : '' }), 'flow-title');
          return el('div', 'grid-row compact', p);
        };
        const rowOne = panel('one', 'oneHead', 1);
        const rowTwo = panel('two', 'twoHeads', 2);
        const g = {
          P: k.grid({ caption: () => 'P', ariaLabel: () => tr('gridOne'), rowLabel: qLabel, colLabel: kLabel, testId: 'oh-P', ...weights }),
          P1: k.grid({ caption: () => 'P_1', ariaLabel: () => tr('gridHead1'), rowLabel: qLabel, colLabel: kLabel, testId: 'oh-P1', ...weights }),
          P2: k.grid({ caption: () => 'P_2', ariaLabel: () => tr('gridHead2'), rowLabel: qLabel, colLabel: kLabel, testId: 'oh-P2', ...weights }),
        };
        rowOne.append(g.P.el);
        rowTwo.append(g.P1.el, g.P2.el);
        return g;
      },
      outputs(parent) {
        const rowOut = el('div', 'grid-row', parent);
        const Y1 = k.grid({ caption: () => 'Y^{(h=1)} = H W_O', ariaLabel: () => tr('outOne'), rowLabel: qLabel, colLabel: comp, testId: 'oh-Y1', digits: 3 });
        const Y2 = k.grid({ caption: () => 'Y^{(h=2)} = H W_O', ariaLabel: () => tr('outTwo'), rowLabel: qLabel, colLabel: comp, testId: 'oh-Y2', digits: 3 });
        rowOut.append(Y1.el, Y2.el);
        return { Y1, Y2 };
      },
    };
    const f = k.narrative(narrative, {
      figures,
      vars: {
        dims: () => ({ d }),
        verdict: (s, r) => (r ? {
          verb: tokLabel(verb), subj: tokLabel(subject), obj: tokLabel(object),
          s1: tex(at(r.one.heads[0].weights, verb, subject), w3), o1: tex(at(r.one.heads[0].weights, verb, object), w3),
          s2: tex(at(r.two.heads[0].weights, verb, subject), w3), o2: tex(at(r.two.heads[1].weights, verb, object), w3),
        } : {}),
        swap: (s, r) => (r ? { verb: tokLabel(verb), one: r.oneRow, two: r.twoRow, twoAlt: r.twoAltRow } : {}),
      },
      choose: {
        verdict: () => (flags.tie ? 'weightsVerdict' : 'weightsVerdictUntied'),
        swap: () => (flags.sameOne && !flags.sameTwo ? 'swapVerdict' : flags.sameOne ? 'swapBoth' : 'swapNeither'),
      },
      example: { inputEdited, edited },
    });
    const { sentence } = f;
    const { gX, gW } = f.inputs;
    const g = { ...f.heads, ...f.outputs };

    const vec = (m, i) => `[${rowOf(m, i).map((x) => tex(x, { digits: 2 })).join(',\\ ')}]`;
    k.start((s) => {
      sentence.sync(s);
      gX.update(s.X);
      for (const name of Object.keys(gW)) gW[name].update(s[name]);
      const w = { Wq: attn.scale(s.Wq, s.strength), Wk: s.Wk, Wv: s.Wv, Wo: s.Wo };
      const one = attn.multiHeadAttention(s.X, { ...w, heads: 1 });
      const two = attn.multiHeadAttention(s.X, { ...w, heads: 2 });
      const alt = swapNouns(s.X);
      const oneAlt = attn.multiHeadAttention(alt, { ...w, heads: 1 });
      const twoAlt = attn.multiHeadAttention(alt, { ...w, heads: 2 });
      // Same to the precision shown? (a comparison of the core's numbers, no new number)
      const shown = (m) => rowOf(m, verb).map((x) => fmt(x, w3)).join(' ');
      flags.sameOne = shown(one.output) === shown(oneAlt.output);
      flags.sameTwo = shown(two.output) === shown(twoAlt.output);
      flags.tie = Object.is(at(one.heads[0].weights, verb, subject), at(one.heads[0].weights, verb, object));
      g.P.update(one.heads[0].weights);
      g.P1.update(two.heads[0].weights);
      g.P2.update(two.heads[1].weights);
      g.Y1.update(one.output);
      g.Y2.update(two.output);
      for (const grid of [g.P, g.P1, g.P2, g.Y1, g.Y2]) grid.highlight({ rows: [verb] });
      const dh = { 1: attn.splitHeads(one.q, 1)[0].cols, 2: attn.splitHeads(two.q, 2)[0].cols };
      return { dh, one, two, oneRow: vec(one.output, verb), twoRow: vec(two.output, verb), twoAltRow: vec(twoAlt.output, verb) };
    });
  },
};
