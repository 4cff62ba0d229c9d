// Chapter "Positional encoding" (source: seeds/004): PE(pos, 2i) = sin(pos / 10000^(2i/d)),
// PE(pos, 2i+1) = cos(...), as a heatmap over positions × dimensions with adjustable T and
// d (odd d included), and the permutation demo: one token set in two orders (개 사람 물었다 /
// 사람 개 물었다, "dog bites man" / "man bites dog"). Without positional encoding, a causal
// mask or dropout, reordering the tokens only reorders the outputs; with any of them the
// outputs differ. Every number comes from the core.
import { chapterKit } from '../../kit/kit.js';
import { fmt, tex } from '../../format.js';
import { setMath, setText } from '../../kit/prose.js';
import { at, colOf } from '../../matrix.js';
import narrative from './narrative.js';

const ID = 'positional-encoding';
const SAME = 1e-5; // float rounding of a reordered sum stays far below this

// The 6 orders of three words, for "another order".
const ORDERS = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

export default {
  id: ID,
  mount(section, ctx) {
    const { attn } = ctx;
    const ex = attn.example('permutation');
    const k = chapterKit(section, ctx, ID, () => ({
      T: 10, d: 8, cell: [3, 2], E: ex.embeddings, pe: false, causal: false, dropout: false, orderB: null,
    }));
    const { el, tr, state, patch } = k;
    const word = (w) => tr('words')[w];
    const f4 = (x) => fmt(x, { digits: 4 });

    let gridPE, workedTitle, workedMath, plot, gridE, gridOA, gridOB, gridOAB;
    // The figures, each built in its place in narrative.js.
    const figures = {
      encoding(parent) {
        const controls = el('div', 'controls', parent);
        k.slider('T', 'sliderT', { min: 1, max: 32, step: 1, parent: controls });
        k.slider('d', 'sliderD', { min: 1, max: 16, step: 1, parent: controls });
        gridPE = k.grid({
          caption: () => '\\mathrm{PE}', ariaLabel: () => tr('gridPE'), rowLabel: (i) => `${i}`, colLabel: (j) => `${j}`,
          note: () => tr('gridNote'), color: 'diverging', digits: 2, fixed: true, testId: 'pe-grid',
          onSelect: (i, j) => patch({ cell: [i, j] }), explains: () => worked,
        });
        parent.append(gridPE.el);
        const worked = el('div', 'worked', parent);
        worked.dataset.worked = 'pe';
        workedTitle = el('p', 'worked-title', worked);
        workedMath = el('div', 'worked-math', worked);
      },
      curves(parent) {
        plot = k.plot({ title: () => tr('plotTitle'), x: { label: () => tr('axisPos') }, y: { label: () => 'PE', domain: [-1.05, 1.05] }, testId: 'pe-plot' });
        parent.append(plot.el);
      },
      permutation(parent) {
        const permControls = el('div', 'controls', parent);
        k.toggle('pe', 'togglePE', permControls);
        k.toggle('causal', 'toggleCausal', permControls);
        k.toggle('dropout', 'toggleDropout', permControls);
        k.button('anotherOrder', () => patch((s) => {
          const cur = JSON.stringify(orderB(s));
          const at0 = ORDERS.findIndex((o) => JSON.stringify(o) === cur);
          let next = ORDERS[(at0 + 1) % ORDERS.length];
          if (JSON.stringify(next) === JSON.stringify(orderA())) next = ORDERS[(at0 + 2) % ORDERS.length];
          return { orderB: next };
        }), permControls, '', { edits: true }).dataset.control = 'pe-another-order';
        k.button('common.reset', k.reset, permControls, 'reset');
        const eRow = el('div', 'grid-row', parent);
        gridE = k.editable('E', { caption: () => '\\text{embedding}', ariaLabel: () => tr('gridE'), rowLabel: word, colLabel: (j) => String(j + 1), testId: 'pe-E' });
        eRow.append(gridE.el);
        const oRow = el('div', 'grid-row', parent);
        gridOA = k.grid({ caption: () => 'O_A', ariaLabel: () => tr('gridOA'), rowLabel: (i) => word(orderA()[i]), colLabel: (j) => String(j + 1), digits: 3, testId: 'pe-OA' });
        gridOB = k.grid({ caption: () => 'O_B', ariaLabel: () => tr('gridOB'), rowLabel: (i) => word(orderB(state())[i]), colLabel: (j) => String(j + 1), digits: 3, testId: 'pe-OB' });
        gridOAB = k.grid({ caption: () => tr('reorderedCaption'), ariaLabel: () => tr('gridOAB'), rowLabel: (i) => word(orderB(state())[i]), colLabel: (j) => String(j + 1), digits: 3, testId: 'pe-OA-reordered' });
        oRow.append(gridOA.el, gridOB.el, gridOAB.el);
      },
    };
    k.narrative(narrative, {
      figures,
      vars: {
        orders: (s) => ({ a: orderA().map(word).join(' '), b: orderB(s).map(word).join(' ') }),
        // The mark says whether what the chapter leads the learner to expect holds: the same
        // outputs, reordered, without positional encoding, mask and dropout; different
        // outputs with any of them on. (Not whether the two are equal.)
        check: (s, r) => {
          if (!r) return {};
          const on = [s.pe && tr('causePE'), s.causal && tr('causeCausal'), s.dropout && tr('causeDropout')].filter(Boolean);
          const same = r.diff <= SAME, expected = same === (on.length === 0);
          const verdict = same ? (expected ? 'same' : 'sameAnyway') : (expected ? 'differ' : 'differAnyway');
          return { diff: f4(r.diff), ok: expected ? '✓' : '✗', verdict: tr(verdict, { causes: on.join(', ') }) };
        },
      },
    });

    function orderA() {
      return tr('orderA');
    }
    function orderB(s) {
      return s.orderB ?? tr('orderB');
    }

    function compute(s) {
      const pe = attn.positionalEncoding(s.T, s.d);
      const angles = attn.sinusoidAngles(s.T, s.d);
      const a = orderA(), b = orderB(s);
      const pe3 = attn.positionalEncoding(3, s.E.cols);
      const input = (order) => {
        const X = attn.permuteRows(s.E, order);
        return s.pe ? attn.add(X, pe3) : X;
      };
      const opts = { causal: s.causal, dropout: { rate: 0.5, seed: 1, training: s.dropout } };
      const run = (X) => attn.attention(attn.matmul(X, ex.Wq), attn.matmul(X, ex.Wk), attn.matmul(X, ex.Wv), opts).output;
      const OA = run(input(a)), OB = run(input(b));
      const bFromA = b.map((w) => a.indexOf(w)); // row i of B's order is row bFromA[i] of A's
      const OAB = attn.permuteRows(OA, bFromA);
      return { pe, angles, OA, OB, OAB, diff: attn.maxAbsDiff(OAB, OB) };
    }

    k.start((s) => {
      const r = compute(s);
      gridPE.update(r.pe);
      const [pos, c] = [Math.min(s.cell[0], s.T - 1), Math.min(s.cell[1], s.d - 1)];
      gridPE.select(pos, c);
      const i = Math.floor(c / 2);
      const fn = c % 2 ? '\\cos' : '\\sin';
      setText(workedTitle, tr('workedTitle', { pos, c }));
      setMath(workedMath,
        `\\mathrm{PE}(${pos}, ${c}) = ${fn}\\!\\left(\\frac{${pos}}{10000^{2\\cdot ${i}/${s.d}}}\\right) = ${fn}(${tex(at(r.angles, pos, c), { digits: 4 })}) = ${tex(at(r.pe, pos, c), { digits: 4 })}`,
        { display: true });
      // Curves: the sine columns 0, 2, 4, 6 (as far as d allows) over the positions.
      const series = [];
      for (let col = 0; col < Math.min(s.d, 8); col += 2)
        series.push({ name: tr('seriesName', { c: col }), points: colOf(r.pe, col).map((v, p) => [p, v]) });
      plot.update({ series, summary: tr('plotSummary', { n: series.length }) });
      gridE.update(s.E);
      gridOA.update(r.OA);
      gridOB.update(r.OB);
      gridOAB.update(r.OAB);
      return r;
    });
  },
};
