// Chapter "Softmax" (sources: seeds/004, why softmax gives a probability distribution;
// seeds/001, the dim=-1 pitfall): exp, then divide by the row sum, with every weight
// positive and every row summing to 1 checked on screen; then the wrong-axis bug side
// by side: softmax over columns keeps the shape but the rows no longer sum to 1.
import { chapterKit } from '../../kit/kit.js';
import { tex, fmt } from '../../format.js';
import { setMath, setProse, setText } from '../../kit/prose.js';
import { cellValue } from '../../components/grid/hidden-values.js';
import { rowOf } from '../../matrix.js';
import narrative from './narrative.js';

const ID = 'softmax';
const m = (rows, cols, data) => ({ rows, cols, data: Float32Array.from(data) });

// Illustrative scores (rows = query tokens): row 2 is all zeros, so each of its weights is
// e^0 / (4 e^0) — a zero score is not a zero weight.
const defaults = () => ({
  S: m(3, 4, [2, 1, 0.5, -1, 0, 0, 0, 0, 3, -2, 1, 1]),
  row: 0,
});

export default {
  id: ID,
  mount(section, ctx) {
    const { attn } = ctx;
    const k = chapterKit(section, ctx, ID, defaults, { transient: ['row'] });
    const { el, text, tr, patch } = k;
    const qLabel = (i) => `q${i + 1}`;
    const kLabel = (j) => `k${j + 1}`;
    const one = () => 'Σ';

    // a row whose scores are all equal (row 2 of the defaults: all 0), found in the state; a
    // row of zeros first (what the sentence about e⁰ = 1 is about)
    const evenRow = (S) => {
      let found = -1;
      for (let i = 0; i < S.rows; i++) {
        const r = rowOf(S, i);
        if (r.length > 1 && Number.isFinite(r[0]) && r.every((x) => x === r[0])) {
          if (r[0] === 0) return i;
          if (found < 0) found = i;
        }
      }
      return found;
    };

    // The figures, each built in its place in narrative.js.
    const figures = {
      reset(parent) {
        const controls = el('div', 'controls', parent);
        k.button('common.reset', k.reset, controls, 'reset');
      },
      steps(parent) {
        const row1 = el('div', 'grid-row', parent);
        const gS = k.editable('S', { caption: () => 'S', ariaLabel: () => tr('gridS'), rowLabel: qLabel, colLabel: kLabel, note: () => k.common('rowsQueries') });
        const gMax = k.grid({ caption: () => '\\max_j', ariaLabel: () => tr('gridMax'), rowLabel: qLabel, colLabel: () => 'max', color: 'none', testId: `${ID}-max` });
        const gExp = k.grid({
          caption: () => 'e^{\\,S - \\max}', ariaLabel: () => tr('gridExp'), rowLabel: qLabel, colLabel: kLabel, color: 'none', digits: 4, testId: `${ID}-exp`,
          onSelect: (i) => patch({ row: i }), explains: () => f.worked.pair,
        });
        const gSum = k.grid({ caption: () => '\\textstyle\\sum_j', ariaLabel: () => tr('gridSum'), rowLabel: qLabel, colLabel: one, color: 'none', digits: 4, testId: `${ID}-sum` });
        row1.append(gS.el, gMax.el, gExp.el, gSum.el);
        const row2 = el('div', 'grid-row', parent);
        const gP = k.grid({
          caption: () => 'P = e^{\\,S-\\max} / \\textstyle\\sum', ariaLabel: () => tr('gridP'), rowLabel: qLabel, colLabel: kLabel,
          color: 'weights', digits: 3, fixed: true, testId: `${ID}-P`, onSelect: (i) => patch({ row: i }), explains: () => f.worked.pair,
        });
        const gPsum = k.grid({ caption: () => '\\textstyle\\sum_j P_{ij}', ariaLabel: () => tr('gridRowSums'), rowLabel: qLabel, colLabel: one, color: 'none', digits: 6, fixed: true, testId: `${ID}-P-sums` });
        row2.append(gP.el, gPsum.el);
        return { gS, gMax, gExp, gSum, gP, gPsum };
      },
      // one row, worked: e^x itself (when it fits a float) and the shift the core applies;
      // the row is picked by clicking a cell above or with this menu (keyboard)
      worked(parent) {
        const pick = el('label', 'controls row-picker', parent);
        text('span', 'rowPicker', pick);
        const rowSelect = el('select', '', pick);
        rowSelect.dataset.control = 'row';
        rowSelect.addEventListener('change', () => patch({ row: Number(rowSelect.value) }));
        // When e^x overflows, the naive computation (∞, then ∞/∞ = NaN) stands beside the
        // shifted one, so the overflow the text speaks of is seen.
        const pair = el('div', 'worked-pair', parent);
        const naive = el('div', 'worked naive', pair);
        naive.dataset.worked = 'softmax-naive';
        const naiveTitle = el('p', 'worked-title', naive);
        const naiveMath = el('div', 'worked-math', naive);
        const worked = el('div', 'worked', pair);
        worked.dataset.worked = 'softmax-row';
        const workedTitle = el('p', 'worked-title', worked);
        const workedMath = el('div', 'worked-math', worked);
        return { rowSelect, pair, naive, naiveTitle, naiveMath, workedTitle, workedMath };
      },
      axes(parent) {
        const code = el('div', 'code-pair', parent);
        const codeOk = el('pre', 'code ok', code);
        setText(codeOk, "attn.softmax(S, { axis: 'rows' })\n// PyTorch: F.softmax(scores, dim=-1)");
        const codeBad = el('pre', 'code bad', code);
        setText(codeBad, "attn.softmax(S, { axis: 'cols' })\n// PyTorch: F.softmax(scores, dim=-2)");
        const pair = el('div', 'side-by-side', parent);
        const right = el('div', 'side ok', pair);
        text('h4', 'axisRows', right);
        const rRow = el('div', 'grid-row compact', right);
        const gPr = k.grid({ caption: () => '\\text{rows}', ariaLabel: () => tr('gridPRows'), rowLabel: qLabel, colLabel: kLabel, color: 'weights', digits: 3, fixed: true, testId: `${ID}-rows` });
        const gPrS = k.grid({ caption: () => '\\textstyle\\sum_j', ariaLabel: () => tr('gridRowSums'), rowLabel: qLabel, colLabel: one, color: 'none', digits: 3, fixed: true, testId: `${ID}-rows-sums` });
        rRow.append(gPr.el, gPrS.el);
        const wrong = el('div', 'side bad', pair);
        text('h4', 'axisCols', wrong);
        const wRow = el('div', 'grid-row compact', wrong);
        const gPc = k.grid({ caption: () => '\\text{cols}', ariaLabel: () => tr('gridPCols'), rowLabel: qLabel, colLabel: kLabel, color: 'weights', digits: 3, fixed: true, testId: `${ID}-cols` });
        const gPcS = k.grid({ caption: () => '\\textstyle\\sum_j', ariaLabel: () => tr('gridRowSums'), rowLabel: qLabel, colLabel: one, color: 'none', digits: 3, fixed: true, testId: `${ID}-cols-sums` });
        wRow.append(gPc.el, gPcS.el);
        const gPcC = k.grid({ caption: () => '\\textstyle\\sum_i', ariaLabel: () => tr('gridColSums'), rowLabel: one, colLabel: kLabel, color: 'none', digits: 3, fixed: true, testId: `${ID}-cols-colsums` });
        wrong.append(gPcC.el);
        return { gPr, gPrS, gPc, gPcS, gPcC };
      },
    };
    const f = k.narrative(narrative, {
      figures,
      choose: { zero: (s) => {
        const i = evenRow(s.S);
        return i < 0 ? 'zeroScoreNone' : s.S.data[i * s.S.cols] === 0 ? 'zeroScore' : 'equalScore';
      } },
    });
    const { gS, gMax, gExp, gSum, gP, gPsum } = f.steps;
    const { rowSelect, naive, naiveTitle, naiveMath, workedTitle, workedMath } = f.worked;
    const { gPr, gPrS, gPc, gPcS, gPcC } = f.axes;
    const { checkPos, checkSum } = f;

    k.start((s) => {
      gS.update(s.S);
      const parts = attn.softmaxParts(s.S);
      const sums = attn.rowSums(parts.weights);
      const mom = attn.moments(parts.weights);
      gMax.update(parts.max);
      gExp.update(parts.exp);
      gSum.update(parts.sums);
      gP.update(parts.weights);
      gPsum.update(sums);
      const row = Math.min(s.row, s.S.rows - 1);
      if (rowSelect.options.length !== s.S.rows)
        rowSelect.replaceChildren(...Array.from({ length: s.S.rows }, (_, i) => new Option(qLabel(i), String(i))));
      rowSelect.value = String(row);
      gExp.select(row, 0);
      gP.highlight({ rows: [row] });
      gExp.highlight({ rows: [row] });

      // checks, computed: smallest weight, every row sum
      const sumList = Array.from(sums.data);
      const allOne = sumList.every((x) => Math.abs(x - 1) <= 1e-6) && s.S.cols > 0;
      const positive = mom.min > 0;
      checkPos.classList.toggle('ok', positive);
      checkPos.classList.toggle('fail', !positive);
      checkSum.classList.toggle('ok', allOne);
      checkSum.classList.toggle('fail', !allOne);
      const checkVars = {
        min: fmt(mom.min, { digits: mom.min > 0 && mom.min < 1e-3 ? 8 : 4 }),
        sums: sumList.map((x) => fmt(x, { digits: 6, fixed: true })).join(', '),
        mark: positive ? '✓' : '✗', markSum: allOne ? '✓' : '✗', why: positive ? '' : tr('underflow'),
      };
      checkPos.dataset.ok = String(positive);
      checkSum.dataset.ok = String(allOne);

      // the worked row
      const sv = rowOf(s.S, row);
      const raw = Number.isFinite(parts.sumsRaw.data[row]);
      const ex = rowOf(raw ? parts.expRaw : parts.exp, row);
      const total = (raw ? parts.sumsRaw : parts.sums).data[row];
      const w = rowOf(parts.weights, row);
      const e = sv.map((x) => (raw ? `e^{${tex(x)}}` : `e^{${tex(x)} - ${tex(parts.max.data[row])}}`));
      setProse(workedTitle, tr(raw ? 'workedRaw' : 'workedShifted'), { i: row + 1 });
      if (naive.hidden !== raw) naive.hidden = raw;
      if (!raw) {
        // e^x as written, in float32: the core's e^{S} (∞ past ~88.72) and its sum; then
        // each share divided by that sum in float32 (∞/∞ = NaN, x/∞ = 0).
        const exRaw = rowOf(parts.expRaw, row);
        const totalRaw = parts.sumsRaw.data[row];
        const wRaw = exRaw.map((x) => Math.fround(x / totalRaw));
        setProse(naiveTitle, tr('workedNaive'), { i: row + 1 });
        setMath(naiveMath,
          `\\begin{aligned} &${sv.map((x) => `e^{${tex(x)}}`).join(' + ')} \\\\ &= ${exRaw.map((x) => tex(x, { digits: 3 })).join(' + ')} \\\\ &= ${tex(totalRaw, { digits: 3 })} \\\\ ` +
          `&P_{${row + 1},\\cdot} = [${wRaw.map((x) => tex(x, { digits: 3, fixed: true })).join(',\\ ')}] \\end{aligned}`,
          { display: true });
      }
      // (the weights as the cells of P: an exercise hides them by what they are, not by their
      // digits; hidden-values.js cellValue)
      setMath(workedMath,
        `\\begin{aligned} &${e.join(' + ')} \\\\ &= ${ex.map((x) => tex(x, { digits: 3 })).join(' + ')} \\\\ &= ${tex(total, { digits: 3 })} \\\\ ` +
        `&P_{${row + 1},\\cdot} = [${w.map((x, j) => cellValue(`${ID}-P`, row, j, tex(x, { digits: 3, fixed: true }))).join(',\\ ')}] \\end{aligned}`,
        { display: true });

      // the row of equal scores, and the weight the core gives each of its entries
      const ei = evenRow(s.S);
      const even = ei >= 0
        ? { i: ei + 1, v: tex(s.S.data[ei * s.S.cols]), n: s.S.cols, w: tex(parts.weights.data[ei * s.S.cols], { digits: 3, fixed: true }) }
        : {};

      // the wrong axis
      const Pc = attn.softmax(s.S, { axis: 'cols' });
      const rs = attn.rowSums(Pc);
      const cs = attn.colSums(Pc);
      gPr.update(parts.weights);
      gPrS.update(sums);
      gPc.update(Pc);
      gPcS.update(rs);
      gPcC.update(cs);
      const off = Array.from(rs.data).filter((x) => Math.abs(x - 1) > 1e-3).length;
      const axisVars = {
        off, T: s.S.rows, shape: `${Pc.rows} × ${Pc.cols}`,
        lo: fmt(Math.min(...rs.data), { digits: 3, fixed: true }), hi: fmt(Math.max(...rs.data), { digits: 3, fixed: true }),
      };
      return { checkVars, axisVars, even };
    });
  },
};
