// Chapter "Attention without trainable weights" (source: seeds/002): every input vector
// is at once the query, the key and the value. Scores X·Xᵀ (one token's row also as a
// loop of single dot products, shown equal), softmax weights, context vectors P·X.
// Every number comes from the WebAssembly core (attn.*).
import { exampleKit } from '../../kit/kit.js';
import { choice, sameBits, opGroup } from '../../kit/controls.js';
import { tex, texFactor } from '../../format.js';
import { setText, setMath, setProse } from '../../kit/prose.js';
import { at, rowOf } from '../../matrix.js';
import narrative from './narrative.js';

const ID = 'no-weights';

export default {
  id: ID,
  mount(section, ctx) {
    const { attn } = ctx;
    const k = exampleKit(section, ctx, ID, (ex) => ({ X: ex.X, focus: 1 }));
    const { el, text, tr, state, patch, ex, tok, comp } = k;
    const T = ex.X.rows;
    const d = ex.X.cols;
    const dims = () => ({ T, d });
    const w3 = { digits: 3, fixed: true };
    const vec = (xs, o) => `[${xs.map((x) => tex(x, o)).join(',\\ ')}]`;
    const n = () => state().focus + 1;
    let same = true; // set by draw: do the loop and the matrix product agree bit for bit?
    let selfMax = true; // is the focus token's largest score the one with itself?

    // The figures, each built in its place in narrative.js.
    const figures = {
      reset(parent) {
        const controls = el('div', 'controls', parent);
        k.button('common.reset', k.reset, controls, 'reset');
      },
      inputs(parent) {
        const gX = k.editable('X', { caption: () => 'X', ariaLabel: () => tr('gridX'), rowLabel: tok, colLabel: comp, testId: 'nw-X' });
        parent.append(gX.el);
        return gX;
      },
      focus: (parent) => choice(k, 'focus', {
        labelKey: 'focusLabel', testId: 'nw-focus', parent,
        options: () => Array.from({ length: T }, (_, i) => ({ value: i, text: tok(i) })),
      }),
      scores(parent) {
        const pair = el('div', 'grid-row loop-vs-matrix', parent);
        const loop = el('div', 'worked loop', pair);
        loop.dataset.worked = 'loop';
        const loopTitle = el('p', 'worked-title', loop);
        const loopMath = el('div', 'worked-math', loop);
        const gS = k.grid({
          caption: () => 'S = X X^\\top', ariaLabel: () => tr('gridS'), rowLabel: tok, colLabel: tok,
          note: () => k.common('rowsQueries'), testId: 'nw-S', onSelect: (i) => patch({ focus: i }),
        });
        pair.append(gS.el);
        const compare = el('div', 'worked compare', parent);
        compare.dataset.worked = 'compare';
        const compareMath = el('div', 'worked-math', compare);
        // loop row = matrix row, one element per part: a new query token writes the digits and
        // the row number in place (one morph of the whole line would parse it anew)
        const cmpLoop = el('span', 'cmp-label', compareMath);
        const cmpLoopMath = el('span', '', compareMath);
        const cmpEq = el('span', 'cmp-eq', compareMath);
        const cmpRow = el('span', 'cmp-label', compareMath);
        const cmpRowMath = el('span', '', compareMath);
        for (const x of [cmpLoopMath, cmpEq, cmpRow, cmpRowMath]) x.before(' ');
        return { loopTitle, loopMath, gS, cmpLoop, cmpLoopMath, cmpEq, cmpRow, cmpRowMath };
      },
      weights(parent) {
        const rowW = el('div', 'grid-row', parent);
        const gP = k.grid({
          caption: () => 'P = \\mathrm{softmax}(S)', ariaLabel: () => tr('gridP'), rowLabel: tok, colLabel: tok,
          note: () => k.common('rowsQueries'), color: 'weights', digits: 3, fixed: true, testId: 'nw-P',
          onSelect: (i) => patch({ focus: i }),
        });
        const gSum = k.grid({
          caption: () => '\\textstyle\\sum_j', ariaLabel: () => tr('rowSum'), rowLabel: tok, colLabel: () => 'Σ',
          color: 'none', digits: 3, fixed: true, testId: 'nw-P-sums',
        });
        rowW.append(gP.el, gSum.el);
        const sm = el('div', 'worked', parent);
        sm.dataset.worked = 'softmax';
        const smTitle = el('p', 'worked-title', sm);
        const smMath = el('div', 'worked-math', sm);
        return { gP, gSum, smTitle, smMath };
      },
      context(parent) {
        const rowZ = el('div', 'grid-row', parent);
        const gP2 = k.grid({ caption: () => 'P', ariaLabel: () => tr('gridP'), rowLabel: tok, colLabel: tok, color: 'weights', digits: 3, fixed: true, testId: 'nw-P-2' });
        const gX2 = k.grid({ caption: () => 'X', ariaLabel: () => tr('gridX'), rowLabel: tok, colLabel: comp, testId: 'nw-X-2' });
        const gZ = k.grid({ caption: () => 'Z = P X', ariaLabel: () => tr('gridZ'), rowLabel: tok, colLabel: comp, testId: 'nw-Z' });
        rowZ.append(gP2.el, gX2.el);
        opGroup(rowZ, '=', gZ.el);
        const ctxBox = el('div', 'worked', parent);
        ctxBox.dataset.worked = 'context';
        const ctxTitle = el('p', 'worked-title', ctxBox);
        const ctxMath = el('div', 'worked-math', ctxBox);
        return { gP2, gX2, gZ, ctxTitle, ctxMath };
      },
    };
    // The next chapter (projections) is pointed at where it is on the page; alone, the
    // paragraphs' second form (…Alone) does without it.
    const here = (key) => () => (ctx.onPage?.('projections') ? key : `${key}Alone`);
    const f = k.narrative(narrative, {
      figures,
      vars: {
        dims,
        focus: () => ({ n: n() }),
        selfMax: (s, r) => (r ? { n: n(), m: r.argmax + 1, own: tex(at(r.S, s.focus, s.focus)), best: tex(at(r.S, s.focus, r.argmax)) } : {}),
      },
      choose: {
        same: () => (same ? 'checkSame' : 'checkDiff'),
        selfMax: () => (selfMax ? 'selfMaxYes' : 'selfMaxNo'),
        weights: here('weightsBody'), summary: here('summary'),
      },
    });
    const { inputs: gX, focus: pick } = f;
    const { loopTitle, loopMath, gS, cmpLoop, cmpLoopMath, cmpEq, cmpRow, cmpRowMath } = f.scores;
    const { gP, gSum, smTitle, smMath } = f.weights;
    const { gP2, gX2, gZ, ctxTitle, ctxMath } = f.context;

    const ones = attn.matrix(T, 1, new Float32Array(T).fill(1));
    k.start((s) => {
      pick.sync(s);
      gX.update(s.X);
      const i = s.focus;
      // The whole product at once, and the simplest attention: no weights, no scaling.
      const t = attn.attention(s.X, s.X, s.X, { scale: 1 });
      const S = attn.scores(s.X, s.X);
      // The same row as a loop: one core call per dot product x_i · x_j.
      const xi = attn.matrix(1, d, rowOf(s.X, i));
      const loopRow = Array.from({ length: T }, (_, j) => attn.scores(xi, attn.matrix(1, d, rowOf(s.X, j))).data[0]);
      const loopM = attn.matrix(1, T, loopRow);
      const matM = attn.matrix(1, T, rowOf(S, i));
      same = sameBits(loopM, matM, 0);
      const sums = attn.matmul(t.weights, ones);
      const row = rowOf(S, i);
      let argmax = 0;
      row.forEach((x, j) => { if (x > row[argmax]) argmax = j; });
      selfMax = row[i] >= row[argmax];

      setText(loopTitle, tr('loopTitle', { n: i + 1 }));
      const xiv = rowOf(s.X, i);
      setMath(loopMath, loopRow.map((v, j) =>
        `\\omega_{${i + 1}${j + 1}} = ${xiv.map((a, c) => `${texFactor(a)}\\times${texFactor(at(s.X, j, c))}`).join(' + ')} = \\mathbf{${tex(v)}}`), { display: true });
      setText(cmpLoop, tr('loopLabel'));
      setMath(cmpLoopMath, vec(loopRow));
      setText(cmpEq, same ? '=' : '≠');
      setProse(cmpRow, tr('rowLabel'), { n: i + 1 }, { keep: true });
      setMath(cmpRowMath, vec(row));
      gS.update(S);
      gS.highlight({ rows: [i] });
      gP.update(t.weights);
      gP.highlight({ rows: [i] });
      gSum.update(sums);
      gSum.highlight({ rows: [i] });
      const es = rowOf(t.scaled, i).map((x) => `e^{${tex(x)}}`);
      setText(smTitle, tr('softmaxRow', { n: i + 1 }));
      setMath(smMath,
        `\\begin{aligned}\\alpha_{${i + 1}} &= \\frac{[${es.join(',\\ ')}]}{${es.join(' + ')}} \\\\ &= ${vec(rowOf(t.weights, i), w3)} \\\\ \\textstyle\\sum_j \\alpha_{{${i + 1}}j} &= ${tex(sums.data[i], w3)}\\end{aligned}`,
        { display: true });
      gP2.update(t.weights);
      gP2.highlight({ rows: [i] });
      gX2.update(s.X);
      gZ.update(t.output);
      gZ.highlight({ rows: [i] });
      setText(ctxTitle, tr('contextRow', { n: i + 1 }));
      setMath(ctxMath,
        `\\begin{aligned}z_{${i + 1}} &= ${rowOf(t.weights, i).map((p, j) => `${tex(p, w3)}\\,x_{${j + 1}}`).join(' + ')} \\\\ &= ${vec(rowOf(t.output, i))}\\end{aligned}`,
        { display: true });
      return { S, argmax };
    });
  },
};
