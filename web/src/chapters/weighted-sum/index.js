// Chapter "The weighted sum" (source: seeds/001): 「나는 사과를 먹었다」, Values [1,0], [0,1],
// [1,1] and weights [0.2, 0.5, 0.3] give [0.5, 0.8]. The learner drags the Values or the
// weights; the output stays inside the convex hull of the Values, with the two exceptions
// CONTENT.md names (training-mode dropout, a fully masked row). Every number comes from
// the core: the normalised weights, the output, the hull, the distances and ranges.
import { chapterKit } from '../../kit/kit.js';
import { fmt, tex } from '../../format.js';
import { setMath } from '../../kit/prose.js';
import { rowOf, withEntry } from '../../matrix.js';
import narrative from './narrative.js';
import { cellValue } from '../../components/grid/hidden-values.js';

const ID = 'weighted-sum';
const [LO, HI] = [-1, 2]; // Values are kept in [LO, HI], the plot's fixed axes
const INSIDE = 1e-5; // distances below this are float rounding of a point on an edge

export default {
  id: ID,
  mount(section, ctx) {
    const { attn } = ctx;
    const ex = attn.example(ID);
    const w0 = rowOf(ex.weights, 0).map((x) => Math.round(x * 100) / 100); // slider positions
    const k = chapterKit(section, ctx, ID, () => ({
      V: ex.V, mode: 'weights', w0: w0[0], w1: w0[1], w2: w0[2], s0: 0, s1: 1, s2: 0.5,
      dropout: false, rate: 0.5, seed: 1,
    }));
    const { el, text, tr, state, patch } = k;
    const token = (j) => tr('tokens')[j];
    const f3 = (x) => fmt(x, { digits: 3 });
    const vec = (xs, o, cell = null) => `[${xs.map((x, j) => (cell ? cell(j, tex(x, o)) : tex(x, o))).join(',\\ ')}]`;

    // Edits of V are clamped to the plot's range (the grid itself accepts ±10⁶).
    const clamp = (v) => Math.max(LO, Math.min(HI, v));
    const mark = (ok) => (ok ? '✓' : '✗');

    // The figures, each built in its place in narrative.js.
    const figures = {
      inputs(parent) {
        const inputs = el('div', 'grid-row', parent);
        const gridV = k.grid({
          editable: true, color: 'none', caption: () => 'V', ariaLabel: () => tr('gridV'), rowLabel: token, colLabel: (j) => `${j + 1}`,
          testId: 'ws-V', onEdit: (i, j, v) => patch({ V: withEntry(state().V, i, j, clamp(v)) }),
        });
        inputs.append(gridV.el);

        const modeBox = el('div', 'controls', parent);
        modeBox.setAttribute('role', 'radiogroup');
        text('span', 'modeLabel', modeBox, undefined, 'label');
        const modeButtons = ['weights', 'scores'].map((mode) => {
          const lab = el('label', 'toggle', modeBox);
          const r = el('input', '', lab);
          Object.assign(r, { type: 'radio', name: `${ID}-mode`, value: mode });
          r.dataset.control = `mode-${mode}`;
          r.addEventListener('change', () => patch({ mode }));
          text('span', mode === 'weights' ? 'modeWeights' : 'modeScores', lab);
          return r;
        });
        const sliders = el('div', 'controls sliders', parent);
        const wSliders = [0, 1, 2].map((j) => k.slider(`w${j}`, 'rawWeight', { min: 0, max: 1, step: 0.01, parent: sliders, vars: () => ({ token: token(j), value: fmt(state()[`w${j}`]) }) }));
        const sSliders = [0, 1, 2].map((j) => k.slider(`s${j}`, 'score', { min: -4, max: 4, step: 0.1, parent: sliders, vars: () => ({ token: token(j), value: fmt(state()[`s${j}`]) }) }));
        return { gridV, modeButtons, wSliders, sSliders };
      },
      output(parent) {
        const weightsRow = el('div', 'grid-row', parent);
        const gridW = k.grid({ caption: () => '\\alpha', ariaLabel: () => tr('gridW'), rowLabel: () => token(2), colLabel: token, color: 'weights', digits: 3, fixed: true, testId: 'ws-weights' });
        const gridSum = k.grid({ caption: () => '\\textstyle\\sum_j \\alpha_j', ariaLabel: () => tr('rowSum'), rowLabel: () => token(2), colLabel: () => 'Σ', color: 'none', digits: 3, fixed: true, testId: 'ws-sum' });
        const gridO = k.grid({ caption: () => 'o = \\alpha V', ariaLabel: () => tr('gridO'), rowLabel: () => token(2), colLabel: (j) => `${j + 1}`, color: 'none', digits: 3, testId: 'ws-output' });
        weightsRow.append(gridW.el, gridSum.el, el('span', 'arrow', null), gridO.el);
        weightsRow.querySelector('.arrow').textContent = '→';
        const worked = el('div', 'worked', parent);
        worked.dataset.worked = 'weighted-sum';
        const workedMath = el('div', 'worked-math', worked);
        return { gridW, gridSum, gridO, workedMath };
      },
      plot(parent) {
        const figure = el('div', 'plot-row square', parent);
        const plot = k.plot({
          title: () => tr('plotTitle'), x: { label: () => tr('axis1'), domain: [LO, HI] }, y: { label: () => tr('axis2'), domain: [LO, HI] },
          width: 360, height: 360, square: true, testId: 'ws-plot', dragStep: 0.1,
          onDrag: (id, x, y) => {
            const i = Number(id.slice(1));
            const snap = (v) => clamp(Math.round(v * 20) / 20);
            patch({ V: withEntry(withEntry(state().V, i, 0, snap(x)), i, 1, snap(y)) });
          },
        });
        figure.append(plot.el);
        return plot;
      },
      dropout(parent) {
        const dropControls = el('div', 'controls', parent);
        k.toggle('dropout', 'dropoutToggle', dropControls);
        const rateSlider = k.slider('rate', 'rate', { min: 0.1, max: 0.9, step: 0.1, parent: dropControls });
        const reseed = k.button('reseed', () => patch({ seed: state().seed + 1 }), dropControls, '', { edits: true });
        reseed.dataset.control = 'ws-reseed';
        const dropRow = el('div', 'grid-row', parent);
        const gridDrop = k.grid({ caption: () => '\\mathrm{dropout}(\\alpha)', ariaLabel: () => tr('gridDrop'), rowLabel: () => token(2), colLabel: token, color: 'none', digits: 3, fixed: true, testId: 'ws-dropped' });
        const gridDropSum = k.grid({ caption: () => '\\textstyle\\sum_j', ariaLabel: () => tr('rowSum'), rowLabel: () => token(2), colLabel: () => 'Σ', color: 'none', digits: 3, fixed: true, testId: 'ws-dropped-sum' });
        const gridDropO = k.grid({ caption: () => "o'", ariaLabel: () => tr('gridDropO'), rowLabel: () => token(2), colLabel: (j) => `${j + 1}`, color: 'none', digits: 3, testId: 'ws-dropped-output' });
        dropRow.append(gridDrop.el, gridDropSum.el, gridDropO.el);
        return { rateSlider, reseed, dropRow, gridDrop, gridDropSum, gridDropO };
      },
    };
    // The values the check lines fill in, from what the draw function returned.
    const vars = {
      hull: (st, r) => (r ? { d: f3(r.dist), ok: mark(r.dist <= INSIDE) } : {}),
      range: (st, r) => {
        if (!r) return {};
        const o = rowOf(r.o, 0), lo = rowOf(r.range.min, 0), hi = rowOf(r.range.max, 0);
        const ok = o.every((x, c) => x >= lo[c] - INSIDE && x <= hi[c] + INSIDE);
        return { o1: f3(o[0]), o2: f3(o[1]), lo1: f3(lo[0]), hi1: f3(hi[0]), lo2: f3(lo[1]), hi2: f3(hi[1]), ok: mark(ok) };
      },
      drop: (st, r) => (r ? {
        sum: f3(r.dropSum.data[0]), d: f3(r.dropDist), ok: mark(r.dropDist <= INSIDE), scale: f3(1 / (1 - st.rate)),
      } : {}),
      masked: (st, r) => (r ? {
        w: vec(rowOf(r.maskedW, 0), { digits: 3 }), o: vec(rowOf(r.om, 0), { digits: 3 }), d: f3(r.maskedDist),
      } : {}),
    };
    const f = k.narrative(narrative, { figures, vars });
    const { gridV, modeButtons, wSliders, sSliders } = f.inputs;
    const { gridW, gridSum, gridO, workedMath } = f.output;
    const { plot, dropCheck } = f;
    const { rateSlider, reseed, dropRow, gridDrop, gridDropSum, gridDropO } = f.dropout;

    const fullyMasked = attn.matrix(1, 3, [-Infinity, -Infinity, -Infinity]);
    function compute(s) {
      const raw = s.mode === 'weights'
        ? attn.normalizeWeights(attn.matrix(1, 3, [s.w0, s.w1, s.w2]))
        : attn.softmax(attn.matrix(1, 3, [s.s0, s.s1, s.s2]));
      const o = attn.weightedSum(raw, s.V);
      const hull = attn.convexHull(s.V);
      const dist = attn.hullDistance(o, s.V);
      const range = attn.columnRange(s.V);
      const dropped = attn.dropout(raw, { rate: s.rate, seed: s.seed });
      const od = attn.weightedSum(dropped, s.V);
      const maskedW = attn.softmax(fullyMasked);
      const om = attn.weightedSum(maskedW, s.V);
      return {
        w: raw, sum: attn.rowSums(raw), o, hull, dist, range, dropped, dropSum: attn.rowSums(dropped), od,
        dropDist: attn.hullDistance(od, s.V), maskedW, om, maskedDist: attn.hullDistance(om, s.V),
      };
    }


    // Screen direction pointing away from the other points (for a label that stays clear of
    // the hull); y grows downwards on screen.
    const away = (pts, p) => {
      const cx = pts.reduce((a, q) => a + q[0], 0) / pts.length, cy = pts.reduce((a, q) => a + q[1], 0) / pts.length;
      return [p[0] >= cx ? 1 : -1, p[1] >= cy ? -1 : 1];
    };

    k.start((s) => {
      modeButtons.forEach((b) => (b.checked = b.value === s.mode));
      wSliders.forEach((sl) => (sl.label.hidden = s.mode !== 'weights'));
      sSliders.forEach((sl) => (sl.label.hidden = s.mode !== 'scores'));
      rateSlider.label.hidden = !s.dropout;
      reseed.hidden = !s.dropout;
      dropRow.hidden = !s.dropout;
      dropCheck.hidden = !s.dropout;
      gridV.update(s.V);
      const r = compute(s);
      gridW.update(r.w);
      gridSum.update(r.sum);
      gridO.update(r.o);
      gridDrop.update(r.dropped);
      gridDropSum.update(r.dropSum);
      gridDropO.update(r.od);
      const wv = rowOf(r.w, 0);
      setMath(workedMath,
        // (the weights and the output as the cells of their grids: hidden-values.js cellValue)
        `o = ${wv.map((a, j) => `${cellValue('ws-weights', 0, j, tex(a, { digits: 3 }))}\\,${vec(rowOf(s.V, j))}`).join(' + ')} = ${vec(rowOf(r.o, 0), { digits: 3 }, (c, x) => cellValue('ws-output', 0, c, x))}`,
        { display: true });
      const pts = [0, 1, 2].map((j) => rowOf(s.V, j));
      const o = rowOf(r.o, 0);
      const marks = [{ x: o[0], y: o[1], label: 'o', color: '#c2760c' }];
      if (s.dropout) marks.push({ x: r.od.data[0], y: r.od.data[1], label: "o'", color: '#b3416b', r: 4 });
      plot.update({
        polygons: [{ points: r.hull.map((j) => pts[j]), color: '#1f5fbf' }],
        marks,
        handles: pts.map((p, j) => ({ id: `v${j}`, x: p[0], y: p[1], label: token(j), labelDir: away(pts, p), ariaLabel: tr('handleLabel', { token: token(j), x: fmt(p[0]), y: fmt(p[1]) }) })),
        summary: tr('plotSummary', { o: `(${f3(o[0])}, ${f3(o[1])})`, d: f3(r.dist) }),
      });
      return r;
    });

  },
};
