// Chapter "Trainable projections" (source: seeds/002): W_Q, W_K, W_V turn the same
// inputs into queries, keys and values; the three steps of the previous chapter then run
// on Q, K, V (with the 1/√d_k scaling). Weights are editable or drawn from a seed by the
// core (attn.random). Every number comes from the WebAssembly core.
import { exampleKit } from '../../kit/kit.js';
import { choice, opGroup } from '../../kit/controls.js';
import { tex, texFactor } from '../../format.js';
import { setMath, setText } from '../../kit/prose.js';
import { at, rowOf } from '../../matrix.js';
import narrative from './narrative.js';

const ID = 'projections';

export default {
  id: ID,
  mount(section, ctx) {
    const { attn } = ctx;
    const k = exampleKit(section, ctx, ID, (ex) => ({ X: ex.X, Wq: ex.Wq, Wk: ex.Wk, Wv: ex.Wv, seed: 1, focus: 1 }));
    const { el, text, tr, state, patch, ex, tok, comp } = k;
    const T = ex.X.rows;
    const dIn = ex.X.cols;
    const dOut = () => state().Wq.cols;
    const dims = (s = state(), r = null) => ({ T, din: dIn, dout: s.Wq.cols, scale: r ? tex(r.t.scale) : '' });
    const vec = (xs, o) => `[${xs.map((x) => tex(x, o)).join(',\\ ')}]`;
    let symmetric = false;

    const g = {}; // the computed grids, by name, filled by the figures below
    const gW = {};
    // The figures, each built in its place in narrative.js.
    const figures = {
      controls(parent) {
        const controls = el('div', 'controls', parent);
        k.number('seed', 'seedLabel', { min: 0, max: 2 ** 31, parent: controls, testId: 'pj-seed' });
        // Draw W_Q, W_K, W_V from the core's seeded generator: one 3 x 6 matrix split into
        // three 3 x 2 blocks, rounded to two decimals so that a learner can read and retype
        // them (rounding prepares the inputs; everything downstream is computed by the core).
        const draw = k.button('drawWeights', () => {
          const s = state();
          const R = attn.random({ rows: dIn, cols: 3 * dOut(), seed: s.seed, distribution: 'uniform', lo: 0, hi: 1 });
          const round = (m) => ({ rows: m.rows, cols: m.cols, data: Float32Array.from(m.data, (x) => Math.round(x * 100) / 100) });
          const [Wq, Wk, Wv] = attn.splitHeads(R, 3).map(round);
          patch({ Wq, Wk, Wv });
        }, controls, '', { edits: true });
        draw.dataset.control = 'pj-draw';
        k.button('common.reset', k.reset, controls, 'reset');
      },
      inputs(parent) {
        const inputs = el('div', 'grid-row', parent);
        const gX = k.editable('X', { caption: () => 'X', ariaLabel: () => 'X', rowLabel: tok, colLabel: comp, testId: 'pj-X' });
        inputs.append(gX.el);
        for (const [name, cap] of [['Wq', 'W_Q'], ['Wk', 'W_K'], ['Wv', 'W_V']]) {
          gW[name] = k.editable(name, { caption: () => cap, ariaLabel: () => cap.replace('_', ''), rowLabel: comp, colLabel: comp, testId: `pj-${name}` });
          inputs.append(gW[name].el);
        }
        return gX;
      },
      projections(parent) {
        const rowQKV = el('div', 'grid-row', parent);
        for (const name of ['Q', 'K', 'V']) {
          g[name] = k.grid({ caption: () => `${name} = X W_${name}`, ariaLabel: () => name, rowLabel: tok, colLabel: comp, testId: `pj-${name}` });
          rowQKV.append(g[name].el);
        }
        const proj = el('div', 'worked', parent);
        proj.dataset.worked = 'projection';
        const projTitle = el('p', 'worked-title', proj);
        const projMath = el('div', 'worked-math', proj);
        return { projTitle, projMath };
      },
      focus: (parent) => choice(k, 'focus', {
        labelKey: 'focusLabel', testId: 'pj-focus', parent,
        options: () => Array.from({ length: T }, (_, i) => ({ value: i, text: tok(i) })),
      }),
      scores(parent) {
        const rowS = el('div', 'grid-row', parent);
        g.S = k.grid({ caption: () => 'S = Q K^\\top', ariaLabel: () => tr('gridS'), rowLabel: tok, colLabel: tok, note: () => k.common('rowsQueries'), testId: 'pj-S', onSelect: (i) => patch({ focus: i }) });
        g.scaled = k.grid({ caption: () => 'S / \\sqrt{d_k}', ariaLabel: () => tr('gridScaled'), rowLabel: tok, colLabel: tok, testId: 'pj-scaled' });
        rowS.append(g.S.el);
        opGroup(rowS, '→', g.scaled.el);
      },
      context(parent) {
        const rowP = el('div', 'grid-row', parent);
        g.P = k.grid({ caption: () => 'P = \\mathrm{softmax}(S / \\sqrt{d_k})', ariaLabel: () => tr('gridP'), rowLabel: tok, colLabel: tok, color: 'weights', digits: 3, fixed: true, testId: 'pj-P', onSelect: (i) => patch({ focus: i }) });
        g.sums = k.grid({ caption: () => '\\textstyle\\sum_j', ariaLabel: () => tr('rowSum'), rowLabel: tok, colLabel: () => 'Σ', color: 'none', digits: 3, fixed: true, testId: 'pj-P-sums' });
        g.V2 = k.grid({ caption: () => 'V', ariaLabel: () => 'V', rowLabel: tok, colLabel: comp, testId: 'pj-V-2' });
        g.Z = k.grid({ caption: () => 'Z = P V', ariaLabel: () => tr('gridZ'), rowLabel: tok, colLabel: comp, testId: 'pj-Z' });
        rowP.append(g.P.el, g.sums.el, g.V2.el);
        opGroup(rowP, '=', g.Z.el);
        const ctxBox = el('div', 'worked', parent);
        ctxBox.dataset.worked = 'context';
        const ctxTitle = el('p', 'worked-title', ctxBox);
        const ctxMath = el('div', 'worked-math', ctxBox);
        return { ctxTitle, ctxMath };
      },
    };
    // The chapter before (no-weights) is compared with where it is on the page; alone, the
    // paragraphs' second form (…Alone) does without it.
    const here = (key) => () => (ctx.onPage?.('no-weights') ? key : `${key}Alone`);
    const f = k.narrative(narrative, {
      figures,
      vars: {
        dims: (s, r) => dims(s, r),
        symmetry: (s, r) => (r?.asym ? {
          i: r.asym[0] + 1, j: r.asym[1] + 1, a: tex(at(r.t.scores, r.asym[0], r.asym[1])), b: tex(at(r.t.scores, r.asym[1], r.asym[0])),
        } : {}),
      },
      choose: {
        lead: here('lead'), input: here('inputBody'), weights: here('weightsBody'),
        symmetric: () => (symmetric ? 'symYes' : here('symNo')()),
      },
    });
    const { inputs: gX, focus: pick } = f;
    const { projTitle, projMath } = f.projections;
    const { ctxTitle, ctxMath } = f.context;

    k.start((s) => {
      pick.sync(s);
      gX.update(s.X);
      for (const name of ['Wq', 'Wk', 'Wv']) gW[name].update(s[name]);
      const Q = attn.matmul(s.X, s.Wq);
      const K = attn.matmul(s.X, s.Wk);
      const V = attn.matmul(s.X, s.Wv);
      const t = attn.attention(Q, K, V); // scale 1/√d_k, d_k = Q's width
      const ones = attn.matrix(T, 1, new Float32Array(T).fill(1));
      const sums = attn.matmul(t.weights, ones);
      // Is S symmetric? (In the previous chapter S = XXᵀ always was.) Comparisons only.
      let asym = null;
      for (let i = 0; i < T && !asym; i++)
        for (let j = i + 1; j < T && !asym; j++) if (!Object.is(at(t.scores, i, j), at(t.scores, j, i))) asym = [i, j];
      symmetric = !asym;
      g.Q.update(Q);
      g.K.update(K);
      g.V.update(V);
      const i = s.focus;
      for (const name of ['Q', 'K', 'V']) g[name].highlight({ rows: [i] });
      setText(projTitle, tr('projRow', { n: i + 1 }));
      const xi = rowOf(s.X, i);
      const term = (W, c) => xi.map((a, r) => `${texFactor(a)}\\times${texFactor(at(W, r, c))}`).join(' + ');
      setMath(projMath,
        `\\begin{aligned}q_{${i + 1}} = x_{${i + 1}} W_Q &= \\big[\\,${Array.from({ length: Q.cols }, (_, c) => term(s.Wq, c)).join(',\\ \\ ')}\\,\\big] \\\\ &= ${vec(rowOf(Q, i))}\\end{aligned}`,
        { display: true });
      g.S.update(t.scores);
      g.S.highlight({ rows: [i] });
      g.scaled.update(t.scaled);
      g.scaled.highlight({ rows: [i] });
      g.P.update(t.weights);
      g.P.highlight({ rows: [i] });
      g.sums.update(sums);
      g.V2.update(V);
      g.Z.update(t.output);
      g.Z.highlight({ rows: [i] });
      setText(ctxTitle, tr('contextRow', { n: i + 1 }));
      setMath(ctxMath,
        `\\begin{aligned}z_{${i + 1}} &= ${rowOf(t.weights, i).map((p, j) => `${tex(p, { digits: 3, fixed: true })}\\,v_{${j + 1}}`).join(' + ')} \\\\ &= ${vec(rowOf(t.output, i))}\\end{aligned}`,
        { display: true });
      return { t, asym };
    });
  },
};
