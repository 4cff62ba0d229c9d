// Chapter "Core Attention" (source: seeds/000): the multi-head flow for T = 3, d = 8,
// h = 2, then one head step by step: S = QKᵀ, ÷√d_h, + M, softmax, O = PV.
// Every number shown comes from the WebAssembly core (attn.*); this module only lays
// the numbers out and wires edits back into the computation.
import { createMatrixGrid } from '../components/matrix-grid.js';
import { createStepper } from '../components/stepper.js';
import { fmt, tex } from '../format.js';
import { setProse, texToHtml } from '../prose.js';

const ID = 'core-attention';

export default {
  id: ID,
  mount(section, { attn, i18n, store }) {
    const tr = (k) => i18n.t(`${ID}.${k}`);
    const common = (k) => i18n.t(`common.${k}`);
    const example = attn.example(ID);
    const T = example.tokens;
    const h = example.heads;
    const d = example.dModel;
    const dh = d / h;

    const initial = () => ({ Q: example.Q, K: example.K, V: example.V, causal: true, head: 0, focus: [2, 0], hover: null });
    if (!store.get()[ID]) store.set({ [ID]: initial() });
    const state = () => store.get()[ID];
    const patch = (p) => store.set({ [ID]: { ...state(), ...p } });

    // ---- layout -------------------------------------------------------------------------
    const el = (tag, cls, parent) => {
      const n = document.createElement(tag);
      if (cls) n.className = cls;
      if (parent) parent.append(n);
      return n;
    };
    const prose = []; // [element, key, vars()]
    const text = (tag, key, parent, vars = () => ({}), cls) => {
      const n = el(tag, cls, parent);
      prose.push([n, key, vars]);
      return n;
    };
    const dims = () => ({ T, d, h, dh });

    text('h2', 'title', section);
    text('p', 'lead', section, dims, 'lead');
    el('p', 'note illustrative', section).dataset.common = 'illustrative';

    text('h3', 'inputsTitle', section);
    text('p', 'inputsBody', section, dims);
    const controls = el('div', 'controls', section);
    const causalLabel = el('label', 'toggle', controls);
    const causalBox = el('input', '', causalLabel);
    causalBox.type = 'checkbox';
    causalBox.dataset.control = 'causal';
    const causalText = el('span', '', causalLabel);
    const reset = el('button', 'reset', controls);
    reset.type = 'button';
    el('p', 'hint', section).dataset.common = 'editHint';
    const chapterError = el('p', 'chapter-error', section);
    chapterError.setAttribute('role', 'alert');
    chapterError.hidden = true;

    const headClass = (j) => `head-${Math.floor(j / dh) % 4}`;
    const tokenLabel = (i) => `t${i + 1}`;
    const compLabel = (j) => String(j + 1);
    const invalidMessage = (i, j, txt, kind, last) =>
      common(kind === 'range' ? 'outOfRange' : 'invalidNumber')
        .replace('{text}', txt.length > 24 ? `${txt.slice(0, 24)}…` : txt)
        .replace('{last}', fmt(last));

    const inputRow = el('div', 'grid-row inputs', section);
    const inputGrids = {};
    for (const name of ['Q', 'K', 'V']) {
      inputGrids[name] = createMatrixGrid({
        caption: () => name,
        ariaLabel: () => name,
        rowLabel: tokenLabel,
        colLabel: compLabel,
        editable: true,
        colClass: headClass,
        color: 'none',
        testId: `input-${name}`,
        onEdit: (i, j, v) => {
          const m = state()[name];
          const data = Float32Array.from(m.data);
          data[i * m.cols + j] = v;
          patch({ [name]: { rows: m.rows, cols: m.cols, data } });
        },
        onError: invalidMessage,
      });
      inputRow.append(inputGrids[name].el);
    }

    text('h3', 'flowTitle', section);
    text('p', 'flowBody', section, dims);
    const flow = el('div', 'flow', section);
    const flowGrids = [];
    for (let k = 0; k < h; k++) {
      const box = el('div', `flow-head head-${k}`, flow);
      const title = text('h4', 'headLabel', box, () => ({ n: k + 1 }));
      title.className = 'flow-title';
      const row = el('div', 'grid-row compact', box);
      const g = {};
      for (const name of ['Q', 'K', 'V']) {
        g[name] = createMatrixGrid({ caption: () => `${name}_{${k + 1}}`, ariaLabel: () => `${name}${k + 1}`, rowLabel: tokenLabel, colLabel: compLabel, colClass: () => `head-${k}`, color: 'none', testId: `flow-${name}${k + 1}` });
        row.append(g[name].el);
      }
      el('span', 'arrow', row).textContent = '→';
      g.O = createMatrixGrid({ caption: () => `O_{${k + 1}}`, ariaLabel: () => `O${k + 1}`, rowLabel: tokenLabel, colLabel: compLabel, testId: `flow-O${k + 1}` });
      row.append(g.O.el);
      flowGrids.push(g);
    }
    text('p', 'concatBody', section, dims);
    const gridH = createMatrixGrid({
      caption: () => 'H = [\\,O_1 \\mid O_2\\,]',
      ariaLabel: () => tr('gridH'),
      rowLabel: tokenLabel,
      colLabel: compLabel,
      colClass: headClass,
      testId: 'H',
      onHover: (i, j) => {
        flowGrids.forEach((g, k) => g.O.highlight(i != null && Math.floor(j / dh) === k ? { cells: [[i, j % dh]] } : {}));
      },
    });
    section.append(gridH.el);

    // ---- one head, step by step -------------------------------------------------------------
    const stepsTitle = text('h3', 'stepsTitle', section, () => ({ n: state().head + 1 }));
    stepsTitle.id = `${ID}-steps`;
    const picker = el('div', 'controls head-picker', section);
    picker.setAttribute('role', 'radiogroup');
    const pickerLabel = el('span', 'label', picker);
    const headButtons = [];
    for (let k = 0; k < h; k++) {
      const lab = el('label', `toggle head-${k}`, picker);
      const r = el('input', '', lab);
      r.type = 'radio';
      r.name = `${ID}-head`;
      r.value = k;
      r.dataset.control = `head-${k + 1}`;
      r.addEventListener('change', () => patch({ head: k }));
      text('span', 'headLabel', lab, () => ({ n: k + 1 }));
      headButtons.push(r);
    }

    const qLabel = (i) => `q${i + 1}`;
    const kLabel = (j) => `k${j + 1}`;
    const rowsAreQueries = () => common('rowsQueries');
    const scoreGrid = (key, caption, extra = {}) =>
      createMatrixGrid({ caption, ariaLabel: () => tr(key), rowLabel: qLabel, colLabel: kLabel, note: rowsAreQueries, ...extra });

    const g = {};
    const hoverTo = (fn) => (i, j) => {
      patch({ hover: i == null ? null : fn(i, j) });
    };

    // Step 1: S = Q Kᵀ
    const p1 = el('div');
    text('p', 'scoresBody', p1, dims);
    let row = el('div', 'grid-row', p1);
    g.Qh = createMatrixGrid({ caption: () => `Q_{${state().head + 1}}`, ariaLabel: () => 'Q', rowLabel: qLabel, colLabel: compLabel, testId: 'step-Q' });
    g.Kh = createMatrixGrid({ caption: () => `K_{${state().head + 1}}`, ariaLabel: () => 'K', rowLabel: kLabel, colLabel: compLabel, testId: 'step-K' });
    g.S = scoreGrid('gridS', () => `S = Q_{${state().head + 1}} K_{${state().head + 1}}^\\top`, {
      testId: 'S',
      onHover: hoverTo((i, j) => ['S', i, j]),
      onSelect: (i, j) => patch({ focus: [i, j] }),
    });
    row.append(g.Qh.el, g.Kh.el, g.S.el);
    text('p', 'scoresTry', p1, dims, 'hint');
    const dotBox = el('div', 'worked', p1);
    dotBox.dataset.worked = 'dot';
    const dotTitle = el('p', 'worked-title', dotBox);
    const dotMath = el('div', 'worked-math', dotBox);

    // Step 2: ÷ √d_h
    const p2 = el('div');
    const scaleText = el('p', '', p2);
    row = el('div', 'grid-row', p2);
    g.S2 = scoreGrid('gridS', () => 'S', { testId: 'S-2' });
    g.scaled = scoreGrid('gridScaled', () => 'S / \\sqrt{d_h}', { testId: 'scaled', onHover: hoverTo((i, j) => ['scaled', i, j]) });
    row.append(g.S2.el, el('span', 'arrow'), g.scaled.el);
    row.querySelector('.arrow').textContent = '→';

    // Step 3: + M
    const p3 = el('div');
    const maskText = el('p', '', p3);
    row = el('div', 'grid-row', p3);
    g.scaled3 = scoreGrid('gridScaled', () => 'S / \\sqrt{d_h}', { testId: 'scaled-3' });
    g.M = scoreGrid('gridMask', () => 'M', { testId: 'M', color: 'none' });
    g.masked = scoreGrid('gridMasked', () => 'S / \\sqrt{d_h} + M', { testId: 'masked', onHover: hoverTo((i, j) => ['masked', i, j]) });
    row.append(g.scaled3.el, el('span', 'arrow op'), g.M.el, el('span', 'arrow'), g.masked.el);
    row.querySelector('.op').textContent = '+';
    row.querySelectorAll('.arrow')[1].textContent = '=';

    // Step 4: softmax
    const p4 = el('div');
    text('p', 'softmaxBody', p4, dims);
    row = el('div', 'grid-row', p4);
    g.masked4 = scoreGrid('gridMasked', () => 'S / \\sqrt{d_h} + M', { testId: 'masked-4' });
    g.P = scoreGrid('gridP', () => 'P = \\mathrm{softmax}(\\cdot)', {
      testId: 'P',
      color: 'weights',
      digits: 3,
      fixed: true,
      onHover: hoverTo((i, j) => ['P', i, j]),
      onSelect: (i, j) => patch({ focus: [i, j] }),
    });
    g.sums = createMatrixGrid({ caption: () => '\\textstyle\\sum_j', ariaLabel: () => tr('rowSum'), rowLabel: qLabel, colLabel: () => 'Σ', color: 'none', digits: 3, fixed: true, testId: 'P-sums' });
    row.append(g.masked4.el, el('span', 'arrow'), g.P.el, g.sums.el);
    row.querySelector('.arrow').textContent = '→';
    const smBox = el('div', 'worked', p4);
    smBox.dataset.worked = 'softmax';
    const smTitle = el('p', 'worked-title', smBox);
    const smMath = el('div', 'worked-math', smBox);

    // Step 5: O = P V
    const p5 = el('div');
    text('p', 'pvBody', p5, dims);
    row = el('div', 'grid-row', p5);
    g.P5 = scoreGrid('gridP', () => 'P', { testId: 'P-5', color: 'weights', digits: 3, fixed: true });
    g.Vh = createMatrixGrid({ caption: () => `V_{${state().head + 1}}`, ariaLabel: () => 'V', rowLabel: kLabel, colLabel: compLabel, testId: 'step-V' });
    g.O = createMatrixGrid({
      caption: () => `O_{${state().head + 1}} = P V_{${state().head + 1}}`,
      ariaLabel: () => tr('gridO'),
      rowLabel: qLabel,
      colLabel: compLabel,
      testId: 'O',
      onHover: hoverTo((i, j) => ['O', i, j]),
      onSelect: (i, j) => patch({ focus: [i, j] }),
    });
    row.append(g.P5.el, g.Vh.el, el('span', 'arrow'), g.O.el);
    row.querySelector('.arrow').textContent = '=';
    const outBox = el('div', 'worked', p5);
    outBox.dataset.worked = 'output';
    const outTitle = el('p', 'worked-title', outBox);
    const outMath = el('div', 'worked-math', outBox);

    const stepKeys = ['scores', 'scale', 'mask', 'softmax', 'output'];
    const stepper = createStepper({
      testId: ID,
      label: () => tr('stepsLabel'),
      prevText: () => common('prev'),
      nextText: () => common('next'),
      steps: [p1, p2, p3, p4, p5].map((panel, k) => ({
        key: stepKeys[k],
        panel,
        label: () => tr(`step${k + 1}`),
      })),
    });
    section.append(stepper.el);
    text('p', 'tryIt', section, dims, 'try');
    text('p', 'summary', section, dims, 'summary');

    causalBox.addEventListener('change', () => patch({ causal: causalBox.checked }));
    reset.addEventListener('click', () => store.set({ [ID]: initial() }));

    // ---- computing ------------------------------------------------------------------------
    let last = null; // last good result: kept on screen when a computation fails
    function compute(s) {
      const split = (m) => attn.splitHeads(m, h);
      const qs = split(s.Q), ks = split(s.K), vs = split(s.V);
      const traces = qs.map((q, k) => attn.attention(q, ks[k], vs[k], { causal: s.causal }));
      const H = attn.concatHeads(traces.map((t) => t.output));
      const M = s.causal ? attn.causalMask(T, T) : attn.matrix(T, T);
      const sums = traces.map((t) => attn.matmul(t.weights, attn.matrix(T, 1, new Float32Array(T).fill(1))));
      return { qs, ks, vs, traces, H, M, sums };
    }

    const at = (m, i, j) => m.data[i * m.cols + j];
    const rowOf = (m, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
    const vecTex = (xs, o) => `[${xs.map((x) => tex(x, o)).join(',\\ ')}]`;
    const paren = (x) => (x < 0 ? `(${tex(x)})` : tex(x));

    function renderWorked(s, r) {
      const k = s.head;
      const t = r.traces[k];
      const [fi, fj] = s.hover && (s.hover[0] === 'S') ? [s.hover[1], s.hover[2]] : s.focus;
      // Dot product written out term by term; the sum is the core's S entry.
      const q = rowOf(r.qs[k], fi), kk = rowOf(r.ks[k], fj);
      dotTitle.textContent = tr('dotTitle').replace('{i}', fi + 1).replace('{j}', fj + 1);
      dotMath.innerHTML = texToHtml(
        `q_{${fi + 1}} \\cdot k_{${fj + 1}} = ${q.map((x, c) => `${paren(x)} \\times ${paren(kk[c])}`).join(' + ')} = \\mathbf{${tex(at(t.scores, fi, fj))}}`,
        { display: true });
      g.S.select(fi, fj);

      // Softmax of one row: the exponents are the core's masked scores, the results its weights.
      const si = s.hover && ['P', 'masked'].includes(s.hover[0]) ? s.hover[1] : s.focus[0];
      const xs = rowOf(t.masked, si), ps = rowOf(t.weights, si);
      const denom = xs.map((x) => `e^{${tex(x)}}`).join(' + ');
      smTitle.textContent = tr('softmaxRow').replace('{i}', si + 1);
      smMath.innerHTML = texToHtml(
        `P_{${si + 1},\\cdot} = \\frac{[${xs.map((x) => `e^{${tex(x)}}`).join(',\\ ')}]}{${denom}} = ${vecTex(ps, { digits: 3, fixed: true })}`,
        { display: true });

      // Output row: weights times value rows.
      const oi = s.hover && s.hover[0] === 'O' ? s.hover[1] : s.focus[0];
      const w = rowOf(t.weights, oi);
      const terms = w.map((p, j) => `${tex(p, { digits: 3, fixed: true })}\\,${vecTex(rowOf(r.vs[k], j))}`).join(' + ');
      outTitle.textContent = tr('outputRow').replace('{i}', oi + 1);
      outMath.innerHTML = texToHtml(`o_{${oi + 1}} = ${terms} = ${vecTex(rowOf(t.output, oi))}`, { display: true });
    }

    function renderHighlights(s) {
      for (const grid of Object.values(g)) grid.highlight({});
      const hv = s.hover;
      if (!hv) return;
      const [name, i, j] = hv;
      if (name === 'S') {
        g.Qh.highlight({ rows: [i] });
        g.Kh.highlight({ rows: [j] });
      } else if (name === 'scaled') g.S2.highlight({ cells: [[i, j]] });
      else if (name === 'masked') {
        g.scaled3.highlight({ cells: [[i, j]] });
        g.M.highlight({ cells: [[i, j]] });
      } else if (name === 'P') g.masked4.highlight({ rows: [i] });
      else if (name === 'O') {
        g.P5.highlight({ rows: [i] });
        g.Vh.highlight({ cols: [j] });
      }
    }

    function render() {
      const s = state();
      for (const [n, key, vars] of prose) setProse(n, tr(key), vars());
      section.querySelectorAll('[data-common]').forEach((n) => (n.textContent = common(n.dataset.common)));
      causalBox.checked = s.causal;
      causalText.textContent = tr('causal');
      reset.textContent = common('reset');
      pickerLabel.textContent = tr('headPicker');
      headButtons.forEach((b, k) => (b.checked = k === s.head));
      stepper.relabel();

      let r;
      try {
        r = compute(s);
        last = r;
        chapterError.hidden = true;
      } catch (e) {
        chapterError.hidden = false;
        chapterError.textContent = common('computeError').replace('{message}', e.message);
        r = last;
        if (!r) return;
      }
      for (const name of ['Q', 'K', 'V']) inputGrids[name].update(s[name]);
      flowGrids.forEach((fg, k) => {
        fg.Q.update(r.qs[k]);
        fg.K.update(r.ks[k]);
        fg.V.update(r.vs[k]);
        fg.O.update(r.traces[k].output);
      });
      gridH.update(r.H);

      const k = s.head;
      const t = r.traces[k];
      g.Qh.update(r.qs[k]);
      g.Kh.update(r.ks[k]);
      g.S.update(t.scores);
      g.S2.update(t.scores);
      g.scaled.update(t.scaled);
      g.scaled3.update(t.scaled);
      g.M.update(r.M);
      g.masked.update(t.masked);
      g.masked4.update(t.masked);
      g.P.update(t.weights);
      g.sums.update(r.sums[k]);
      g.P5.update(t.weights);
      g.Vh.update(r.vs[k]);
      g.O.update(t.output);
      setProse(scaleText, tr('scaleBody'), { ...dims(), scale: tex(t.scale) });
      setProse(maskText, tr(s.causal ? 'maskBodyOn' : 'maskBodyOff'), dims());
      renderWorked(s, r);
      renderHighlights(s);
    }

    store.subscribe(render);
    i18n.onChange(render);
    render();
    return { render };
  },
};
