// Chapter "Reading the attention matrix" (source: seeds/001): rows sum to 1, column sums
// range from 0 to n, the matrix is not symmetric; click a row to see who a token attends
// to. Heads constructed from hand-set W_Q, W_K (attn.constructedHead; labelled as
// constructed), BERT-base's 12 × 12 = 144 matrices from the cost model, the pronoun head
// falling apart when the sentence changes, and why one layer's weights cannot explain the
// output (two stacked previous-token heads reach token i−2). Every number from the core.
import { chapterKit } from '../../kit/kit.js';
import { setText, rebuild } from '../../kit/prose.js';
import { fmt } from '../../format.js';
import { at, rowOf, withEntry } from '../../matrix.js';
import { weightScale, textColorFor, isDark } from '../../components/colors.js';
import narrative from './narrative.js';

const ID = 'reading-matrix';

export default {
  id: ID,
  mount(section, ctx) {
    const { attn, i18n } = ctx;
    const ex = attn.example('reading-heads');
    const STRENGTH = 4; // the example's
    const k = chapterKit(section, ctx, ID, () => ({
      sentence: 'a', head: 'previous', strength: STRENGTH, focus: 3, cell: null, X: {}, residual: false, layers: 12, heads: 12, n: 8,
    }));
    const { el, text, tr, state, patch } = k;
    const f2 = (x) => fmt(x, { digits: 2, fixed: true });
    const f3 = (x) => fmt(x, { digits: 3 });
    const sentenceOf = (s) => ex.sentences.find((x) => x.lang === i18n.lang && x.id === s.sentence);
    const xKey = (s) => `${i18n.lang}-${s.sentence}`;
    const inputX = (s) => s.X[xKey(s)] ?? attn.tokenFeatures(sentenceOf(s).flags);
    let tokens = sentenceOf(state()).tokens;
    const tokenLabel = (i) => tokens[i] ?? String(i + 1);
    const featureLabel = (j) => (j < 4 ? tr('features')[j] : `p${j - 4}`);

    const radios = (name, values, labelKey, parent) => {
      const box = el('div', 'controls', parent);
      box.setAttribute('role', 'radiogroup');
      text('span', labelKey, box, undefined, 'label');
      return values.map((v) => {
        const lab = el('label', 'toggle', box);
        const r = el('input', '', lab);
        Object.assign(r, { type: 'radio', name: `${ID}-${name}`, value: v });
        r.dataset.control = `${name}-${v}`;
        r.addEventListener('change', () => patch({ [name]: v, cell: null }));
        text('span', `${name}_${v}`, lab);
        return r;
      });
    };
    let sentenceButtons, headButtons, sentenceLine, gridX, gridWq, gridWk, gridP, gridRows, gridCols, chips, gridP1, gridP2;
    // Its claim (i−2 gets almost nothing in one layer and the most through two) is checked on
    // the current numbers (strength, sentence); where it does not hold, the text says so.
    let layersHold = true;
    // The figures, each built in its place in narrative.js.
    const figures = {
      setup(parent) {
        sentenceButtons = radios('sentence', ['a', 'b'], 'sentenceLabel', parent);
        headButtons = radios('head', ex.heads, 'headLabel', parent);
        const sliders = el('div', 'controls', parent);
        k.slider('strength', 'strength', { min: 0, max: 6, step: 0.5, parent: sliders });
        sentenceLine = el('p', 'sentence-line', parent);
      },
      inputs(parent) {
        const xDetails = el('details', 'inputs-details', parent);
        text('summary', 'inputsSummary', xDetails);
        text('p', 'inputsBody', xDetails);
        gridX = k.grid({
          editable: true, color: 'none', caption: () => 'X', ariaLabel: () => tr('gridX'), rowLabel: tokenLabel, colLabel: featureLabel,
          testId: 'rm-X', onEdit: (i, j, v) => patch((s) => ({ X: { ...s.X, [xKey(s)]: withEntry(inputX(s), i, j, v) } })),
        });
        xDetails.append(gridX.el);
        k.button('common.reset', () => patch((s) => ({ X: { ...s.X, [xKey(s)]: undefined } })), xDetails, 'reset');
        const wRow = el('div', 'grid-row', xDetails);
        gridWq = k.grid({ caption: () => 'W_Q', ariaLabel: () => 'W_Q', rowLabel: featureLabel, colLabel: (j) => String(j + 1), color: 'none', digits: 1, testId: 'rm-Wq' });
        gridWk = k.grid({ caption: () => 'W_K', ariaLabel: () => 'W_K', rowLabel: featureLabel, colLabel: (j) => String(j + 1), color: 'none', digits: 1, testId: 'rm-Wk' });
        wRow.append(gridWq.el, gridWk.el);
      },
      matrix(parent) {
        const mRow = el('div', 'grid-row', parent);
        gridP = k.grid({
          caption: () => 'P = \\mathrm{softmax}(QK^\\top/\\sqrt{d_k})', ariaLabel: () => tr('gridP'), rowLabel: tokenLabel, colLabel: tokenLabel,
          note: () => k.common('rowsQueries'), color: 'weights', digits: 2, fixed: true, testId: 'rm-P',
          onSelect: (i, j) => patch({ focus: i, cell: [i, j] }),
        });
        gridRows = k.grid({ caption: () => '\\textstyle\\sum_j', ariaLabel: () => tr('rowSums'), rowLabel: tokenLabel, colLabel: () => 'Σ', color: 'none', digits: 3, fixed: true, testId: 'rm-row-sums' });
        mRow.append(gridP.el, gridRows.el);
        gridCols = k.grid({ caption: () => '\\textstyle\\sum_i', ariaLabel: () => tr('colSums'), rowLabel: () => 'Σ', colLabel: tokenLabel, color: 'none', digits: 2, fixed: true, testId: 'rm-col-sums' });
        parent.append(gridCols.el);
      },
      chips(parent) {
        chips = el('ol', 'token-chips', parent);
        chips.dataset.attends = 'row';
      },
      bert(parent) {
        const bert = el('div', 'controls', parent);
        k.slider('layers', 'layers', { min: 1, max: 24, step: 1, parent: bert });
        k.slider('heads', 'heads', { min: 1, max: 16, step: 1, parent: bert });
        k.slider('n', 'tokens', { min: 2, max: 64, step: 1, parent: bert });
      },
      layers(parent) {
        const layerControls = el('div', 'controls', parent);
        k.toggle('residual', 'residual', layerControls);
        const lRow = el('div', 'grid-row', parent);
        gridP1 = k.grid({ caption: () => 'P_{\\text{prev}}', ariaLabel: () => tr('gridP1'), rowLabel: tokenLabel, colLabel: tokenLabel, color: 'weights', digits: 2, fixed: true, testId: 'rm-layer' });
        gridP2 = k.grid({ caption: () => (state().residual ? 'R\\,R,\\ R = \\tfrac12(P + I)' : 'P_{\\text{prev}}\\,P_{\\text{prev}}'), ariaLabel: () => tr('gridP2'), rowLabel: tokenLabel, colLabel: tokenLabel, color: 'weights', digits: 2, fixed: true, testId: 'rm-composed' });
        lRow.append(gridP1.el, el('span', 'arrow', null), gridP2.el);
        lRow.querySelector('.arrow').textContent = '→';
      },
    };
    k.narrative(narrative, {
      figures,
      vars: {
        attends: (s, r) => ({ token: tokenLabel(r ? r.focus : s.focus) }),
        checkRows: (s, r) => (r ? { lo: f3(r.rowRange.min.data[0]), hi: f3(r.rowRange.max.data[0]) } : {}),
        checkCols: (s, r) => (r ? {
          lo: f2(r.colRange.min.data[0]), hi: f2(r.colRange.max.data[0]), n: r.T, total: f2(r.colTotal.data[0]),
        } : {}),
        checkSym: (s, r) => {
          if (!r) return {};
          const [i, j] = r.cell;
          return { i: tokenLabel(i), j: tokenLabel(j), pij: f3(at(r.P, i, j)), pji: f3(at(r.P, j, i)), diff: f3(r.asym) };
        },
        pronoun: (s, r) => (r ? {
          pronoun: tokenLabel(r.sentence.pronoun), top: tokenLabel(r.pronounTop), referent: tokenLabel(r.sentence.referent),
          ok: r.pronounTop === r.sentence.referent ? '✓' : '✗',
        } : {}),
        bert: (s, r) => (r ? {
          layers: s.layers, heads: s.heads, count: fmt(r.cost.attentionMatrices, { digits: 0 }), n: s.n, entries: fmt(r.cost.attentionEntries, { digits: 0 }),
        } : {}),
        layersBody: (s) => ({ s: fmt(s.strength), s0: fmt(STRENGTH) }),
        layerCheck: (s, r) => (r && r.two >= 0 ? {
          token: tokenLabel(r.layerRow), back: tokenLabel(r.layerRow - 2), one: f3(at(r.prev, r.layerRow, r.layerRow - 2)), two: f3(at(r.composed, r.layerRow, r.layerRow - 2)),
        } : {}),
      },
      choose: { layers: () => (layersHold ? 'layersBody' : 'layersBodyWeak') },
    });

    // ---- computing and drawing ------------------------------------------------------------------
    const headP = (X, kind, strength) => {
      const w = attn.constructedHead(kind, X.rows, strength);
      return { w, P: attn.attention(attn.matmul(X, w.Wq), attn.matmul(X, w.Wk), X).weights };
    };
    function compute(s) {
      const sentence = sentenceOf(s);
      const X = inputX(s);
      const T = X.rows;
      const { w, P } = headP(X, s.head, s.strength);
      const rs = attn.rowSums(P), cs = attn.colSums(P);
      const focus = Math.min(s.focus, T - 1);
      const cell = s.cell && s.cell[0] < T && s.cell[1] < T ? s.cell : [focus, Math.max(0, focus - 1)];
      const pronounP = headP(X, 'pronoun-noun', s.strength).P;
      const prev = headP(X, 'previous', s.strength).P;
      let composed;
      if (s.residual) {
        const I = attn.matrix(T, T, Array.from({ length: T * T }, (_, q) => (q % (T + 1) === 0 ? 1 : 0)));
        const R = attn.add(attn.scale(prev, 0.5), attn.scale(I, 0.5));
        composed = attn.matmul(R, R);
      } else composed = attn.matmul(prev, prev);
      const layerRow = Math.max(2, Math.min(focus, T - 1));
      const pp = s.residual ? attn.matmul(prev, prev) : composed;
      layersHold = T > 2 && at(prev, layerRow, layerRow - 2) < 0.1 && rowOf(pp, layerRow).every((x, j) => x <= at(pp, layerRow, layerRow - 2) || j === layerRow - 2);
      return {
        sentence, X, T, w, P, rs, cs, focus, cell,
        rowRange: attn.columnRange(rs), colRange: attn.columnRange(attn.transpose(cs)), colTotal: attn.rowSums(cs),
        asym: attn.maxAbsDiff(P, attn.transpose(P)),
        pronounTop: attn.rowArgmax(pronounP).data[sentence.pronoun],
        prev, composed, layerRow, two: T > 2 ? layerRow : -1,
        cost: attn.cost({ n: s.n, dModel: 64 * s.heads, heads: s.heads, layers: s.layers }),
      };
    }

    k.start((s) => {
      const scale = weightScale(isDark(section));
      sentenceButtons.forEach((b) => (b.checked = b.value === s.sentence));
      headButtons.forEach((b) => (b.checked = b.value === s.head));
      tokens = sentenceOf(s).tokens;
      const r = compute(s);
      setText(sentenceLine, tokens.join(' '));
      gridX.update(r.X);
      gridWq.update(r.w.Wq);
      gridWk.update(r.w.Wk);
      gridP.update(r.P);
      gridP.highlight({ rows: [r.focus] });
      gridP.select(...r.cell);
      gridRows.update(r.rs);
      gridCols.update(r.cs);
      // Who the selected token attends to: the row, over the sentence.
      rebuild(chips, (into) => rowOf(r.P, r.focus).forEach((p, j) => {
        const li = el('li', 'chip', into);
        li.style.backgroundColor = scale(p);
        li.style.color = textColorFor(scale(p));
        el('span', 'chip-token', li).textContent = tokenLabel(j);
        el('span', 'chip-value', li).textContent = f2(p);
      }));
      gridP1.update(r.prev);
      gridP2.update(r.composed);
      gridP1.highlight({ rows: [r.layerRow] });
      gridP2.highlight({ rows: [r.layerRow] });
      return r;
    });
  },
};
