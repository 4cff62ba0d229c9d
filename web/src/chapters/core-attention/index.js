// Chapter "Core Attention" (source: seeds/000): the multi-head flow for T = 3, d = 8,
// h = 2, then one head step by step: S = QKᵀ, ÷√d_h, + M, softmax, O = PV.
// Every number shown comes from the WebAssembly core (attn.*); this module only lays
// the numbers out and wires edits back into the computation.
import { chapterKit } from '../../kit/kit.js';
import { tex, texFactor } from '../../format.js';
import { setMath, setText } from '../../kit/prose.js';
import { at, rowOf } from '../../matrix.js';
import narrative from './narrative.js';
import { cellValue } from '../../components/grid/hidden-values.js';

const ID = 'core-attention';

export default {
  id: ID,
  // What an embedder may set (<attention-explorer mask="none">): the sizes are the
  // document's worked example (T = 3, d = 8, h = 2) and stay fixed.
  options: ['mask'],
  mount(section, ctx) {
    const { attn } = ctx;
    const example = attn.example(ID);
    const T = example.tokens;
    const h = example.heads;
    const d = example.dModel;
    const dh = d / h;
    const k = chapterKit(section, ctx, ID, (o) => ({
      Q: example.Q, K: example.K, V: example.V, causal: o.mask !== 'none', head: 0, focus: [2, 0], hover: null,
    }), { transient: ['hover'] });
    const { el, text, tr, state, patch } = k;
    const dims = () => ({ T, d, h, dh });

    const headClass = (j) => `head-${Math.floor(j / dh) % 4}`;
    const tokenLabel = (i) => `t${i + 1}`;
    const compLabel = (j) => String(j + 1);
    const qLabel = (i) => `q${i + 1}`;
    const kLabel = (j) => `k${j + 1}`;
    const hd = () => state().head + 1;
    const scoreGrid = (key, caption, extra = {}) => k.grid({
      caption, ariaLabel: () => tr(key), rowLabel: qLabel, colLabel: kLabel, note: () => k.common('rowsQueries'), ...extra,
    });
    const hoverTo = (name) => (i, j) => patch({ hover: i == null ? null : [name, i, j] });
    const g = {};
    const row = (parent, ...items) => {
      const r = el('div', 'grid-row', parent);
      for (const it of items) {
        if (typeof it === 'string') el('span', 'arrow', r).textContent = it;
        else r.append(it.el);
      }
      return r;
    };
    // Our own code for a step, beside its numbers (static text; the comments follow the language).
    const codeBlocks = [];
    const code = (n) => (parent) => {
      const fig = el('figure', 'code', parent);
      text('figcaption', 'codeCaption', fig);
      const pre = el('pre', '', fig);
      const c = el('code', '', pre);
      codeBlocks.push([c, `code${n}`]);
    };
    const worked = (parent, name) => {
      const box = el('div', 'worked', parent);
      box.dataset.worked = name;
      return { title: el('p', 'worked-title', box), math: el('div', 'worked-math', box) };
    };
    const inputGrids = {};
    const flowGrids = [];
    const headButtons = [];
    let gridH, dot, sm, out;
    const weights = { color: 'weights', digits: 3, fixed: true };

    // The figures, each built in its place in narrative.js.
    const figures = {
      controls(parent) {
        const controls = el('div', 'controls', parent);
        k.toggle('causal', 'causal', controls);
        k.button('common.reset', k.reset, controls, 'reset');
      },
      inputs(parent) {
        const inputRow = el('div', 'grid-row inputs', parent);
        for (const name of ['Q', 'K', 'V']) {
          inputGrids[name] = k.editable(name, {
            caption: () => name, ariaLabel: () => name, rowLabel: tokenLabel, colLabel: compLabel,
            colClass: headClass, testId: `input-${name}`,
          });
          inputRow.append(inputGrids[name].el);
        }
      },
      // ---- the multi-head flow ----------------------------------------------------------
      flow(parent) {
        const flow = el('div', 'flow', parent);
        for (let head = 0; head < h; head++) {
          const box = el('div', `flow-head head-${head}`, flow);
          text('h4', 'headLabel', box, () => ({ n: head + 1 }), 'flow-title');
          const r = el('div', 'grid-row compact', box);
          const fg = {};
          for (const name of ['Q', 'K', 'V', 'O']) {
            if (name === 'O') el('span', 'arrow', r).textContent = '→';
            fg[name] = k.grid({
              caption: () => `${name}_{${head + 1}}`, ariaLabel: () => `${name}${head + 1}`,
              rowLabel: tokenLabel, colLabel: compLabel, testId: `flow-${name}${head + 1}`,
              ...(name === 'O' ? {} : { colClass: () => `head-${head}`, color: 'none' }),
            });
            r.append(fg[name].el);
          }
          flowGrids.push(fg);
        }
      },
      concat(parent) {
        gridH = k.grid({
          caption: () => 'H = [\\,O_1 \\mid O_2\\,]', ariaLabel: () => tr('gridH'),
          rowLabel: tokenLabel, colLabel: compLabel, colClass: headClass, testId: 'H',
          onHover: (i, j) => flowGrids.forEach((fg, head) =>
            fg.O.highlight(i != null && Math.floor(j / dh) === head ? { cells: [[i, j % dh]] } : {})),
        });
        parent.append(gridH.el);
      },
      // ---- one head, step by step --------------------------------------------------------
      headPicker(parent) {
        const picker = el('div', 'controls head-picker', parent);
        picker.setAttribute('role', 'radiogroup');
        text('span', 'headPicker', picker, undefined, 'label');
        for (let head = 0; head < h; head++) {
          const lab = el('label', `toggle head-${head}`, picker);
          const r = el('input', '', lab);
          Object.assign(r, { type: 'radio', name: `${ID}-head`, value: head });
          r.dataset.control = `head-${head + 1}`;
          r.addEventListener('change', () => patch({ head }));
          text('span', 'headLabel', lab, () => ({ n: head + 1 }));
          headButtons.push(r);
        }
      },
      // Step 1: S = Q Kᵀ
      scores(parent) {
        g.Qh = k.grid({ caption: () => `Q_{${hd()}}`, ariaLabel: () => 'Q', rowLabel: qLabel, colLabel: compLabel, testId: 'step-Q' });
        g.Kh = k.grid({ caption: () => `K_{${hd()}}`, ariaLabel: () => 'K', rowLabel: kLabel, colLabel: compLabel, testId: 'step-K' });
        g.S = scoreGrid('gridS', () => `S = Q_{${hd()}} K_{${hd()}}^\\top`, {
          testId: 'S', onHover: hoverTo('S'), onSelect: (i, j) => patch({ focus: [i, j] }), explains: () => dot.title.parentElement,
        });
        row(parent, g.Qh, g.Kh, g.S);
      },
      dot: (parent) => (dot = worked(parent, 'dot')),
      // Step 2: ÷ √d_h
      scale(parent) {
        g.S2 = scoreGrid('gridS', () => 'S', { testId: 'S-2' });
        g.scaled = scoreGrid('gridScaled', () => 'S / \\sqrt{d_h}', { testId: 'scaled', onHover: hoverTo('scaled') });
        row(parent, g.S2, '→', g.scaled);
      },
      // Step 3: + M
      mask(parent) {
        g.scaled3 = scoreGrid('gridScaled', () => 'S / \\sqrt{d_h}', { testId: 'scaled-3' });
        g.M = scoreGrid('gridMask', () => 'M', { testId: 'M', color: 'none' });
        g.masked = scoreGrid('gridMasked', () => 'S / \\sqrt{d_h} + M', { testId: 'masked', onHover: hoverTo('masked') });
        row(parent, g.scaled3, '+', g.M, '=', g.masked);
      },
      // Step 4: softmax
      softmax(parent) {
        g.masked4 = scoreGrid('gridMasked', () => 'S / \\sqrt{d_h} + M', { testId: 'masked-4' });
        g.P = scoreGrid('gridP', () => 'P = \\mathrm{softmax}(\\cdot)', {
          testId: 'P', ...weights, onHover: hoverTo('P'), onSelect: (i, j) => patch({ focus: [i, j] }), explains: () => sm.title.parentElement,
        });
        g.sums = k.grid({ caption: () => '\\textstyle\\sum_j', ariaLabel: () => tr('rowSum'), rowLabel: qLabel, colLabel: () => 'Σ', color: 'none', digits: 3, fixed: true, testId: 'P-sums' });
        row(parent, g.masked4, '→', g.P, g.sums);
      },
      softmaxWorked: (parent) => (sm = worked(parent, 'softmax')),
      // Step 5: O = P V
      output(parent) {
        g.P5 = scoreGrid('gridP', () => 'P', { testId: 'P-5', ...weights });
        g.Vh = k.grid({ caption: () => `V_{${hd()}}`, ariaLabel: () => 'V', rowLabel: kLabel, colLabel: compLabel, testId: 'step-V' });
        g.O = k.grid({
          caption: () => `O_{${hd()}} = P V_{${hd()}}`, ariaLabel: () => tr('gridO'), rowLabel: qLabel, colLabel: compLabel,
          testId: 'O', onHover: hoverTo('O'), onSelect: (i, j) => patch({ focus: [i, j] }), explains: () => out.title.parentElement,
        });
        row(parent, g.P5, g.Vh, '=', g.O);
      },
      outputWorked: (parent) => (out = worked(parent, 'output')),
      code1: code(1), code2: code(2), code3: code(3), code4: code(4), code5: code(5),
      // The five panels above, as the stepper's tabs (moved into it, in the stepper's place).
      steps(parent, placed) {
        const stepKeys = ['scores', 'scale', 'mask', 'softmax', 'output'];
        k.stepper(stepKeys.map((key, n) => ({ key, panel: placed[`${key}Panel`], labelKey: `step${n + 1}` })), { parent });
      },
    };
    k.narrative(narrative, {
      figures,
      vars: {
        dims,
        stepsTitle: (s) => ({ n: s.head + 1 }),
        scoresBody: (s) => ({ ...dims(), n: s.head + 1 }),
        scaleBody: (s, r) => ({ ...dims(), scale: r ? tex(r.traces[s.head].scale) : '' }),
      },
      choose: {
        maskBody: (s) => (s.causal ? 'maskBodyOn' : 'maskBodyOff'),
        firstToken: (s) => (s.causal ? 'firstToken' : null),
      },
    });

    // ---- computing and drawing --------------------------------------------------------------
    const ones = attn.matrix(T, 1, new Float32Array(T).fill(1));
    function compute(s) {
      const [qs, ks, vs] = [s.Q, s.K, s.V].map((m) => attn.splitHeads(m, h));
      const traces = qs.map((q, n) => attn.attention(q, ks[n], vs[n], { causal: s.causal }));
      return {
        qs, ks, vs, traces,
        H: attn.concatHeads(traces.map((t) => t.output)),
        M: s.causal ? attn.causalMask(T, T) : attn.matrix(T, T),
        sums: traces.map((t) => attn.matmul(t.weights, ones)), // row sums, by the core
      };
    }

    const vecTex = (xs, o, cell = null) => `[${xs.map((x, j) => (cell ? cell(j, tex(x, o)) : tex(x, o))).join(',\\ ')}]`;
    // A number of a grid written as that grid's cell: an exercise hides it by what it is,
    // not by being equal to a hidden number (hidden-values.js cellValue).
    const w3 = { digits: 3, fixed: true };
    const hovered = (s, ...names) => (s.hover && names.includes(s.hover[0]) ? s.hover : null);

    function drawWorked(s, r) {
      const t = r.traces[s.head];
      // The dot product term by term; the sum shown is the core's entry of S.
      const [fi, fj] = hovered(s, 'S')?.slice(1) ?? s.focus;
      const q = rowOf(r.qs[s.head], fi), kk = rowOf(r.ks[s.head], fj);
      k.shown(dot.math, () => {
        setText(dot.title, tr('dotTitle', { i: fi + 1, j: fj + 1 }));
        setMath(dot.math,
          `\\begin{aligned} q_{${fi + 1}} \\cdot k_{${fj + 1}} &= ${q.map((x, c) => `${texFactor(x)} \\times ${texFactor(kk[c])}`).join(' + ')} \\\\ &= \\mathbf{${cellValue('S', fi, fj, tex(at(t.scores, fi, fj)))}} \\end{aligned}`,
          { display: true });
      });
      g.S.select(fi, fj);
      // One row's softmax: exponents are the core's masked scores, results its weights.
      const si = hovered(s, 'P', 'masked')?.[1] ?? s.focus[0];
      const es = rowOf(t.masked, si).map((x, j) => `e^{${cellValue('masked', si, j, tex(x))}}`);
      k.shown(sm.math, () => {
        setText(sm.title, tr('softmaxRow', { i: si + 1 }));
        setMath(sm.math,
          `\\begin{aligned} P_{${si + 1},\\cdot} &= \\frac{[${es.join(',\\ ')}]}{${es.join(' + ')}} \\\\ &= ${vecTex(rowOf(t.weights, si), w3, (j, x) => cellValue('P', si, j, x))} \\end{aligned}`, { display: true });
      });
      // One output row: weights times Value rows.
      const oi = hovered(s, 'O')?.[1] ?? s.focus[0];
      const terms = rowOf(t.weights, oi).map((p, j) => `${cellValue('P', oi, j, tex(p, w3))}\\,${vecTex(rowOf(r.vs[s.head], j))}`).join(' + ');
      k.shown(out.math, () => {
        setText(out.title, tr('outputRow', { i: oi + 1 }));
        setMath(out.math, `\\begin{aligned} o_{${oi + 1}} &= ${terms} \\\\ &= ${vecTex(rowOf(t.output, oi), undefined, (c, x) => cellValue('O', oi, c, x))} \\end{aligned}`, { display: true });
      });
    }

    function drawHighlights(s) {
      for (const grid of Object.values(g)) grid.highlight({});
      if (!s.hover) return;
      const [name, i, j] = s.hover;
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

    k.start((s) => {
      for (const [c, key] of codeBlocks) setText(c, tr(key));
      headButtons.forEach((b, n) => (b.checked = n === s.head));
      for (const name of ['Q', 'K', 'V']) inputGrids[name].update(s[name]);
      const r = compute(s); // throws on a core error: the kit shows it, the old picture stays
      flowGrids.forEach((fg, n) => {
        fg.Q.update(r.qs[n]);
        fg.K.update(r.ks[n]);
        fg.V.update(r.vs[n]);
        fg.O.update(r.traces[n].output);
      });
      gridH.update(r.H);
      const t = r.traces[s.head];
      const show = { Qh: r.qs[s.head], Kh: r.ks[s.head], S: t.scores, S2: t.scores, scaled: t.scaled, scaled3: t.scaled,
        M: r.M, masked: t.masked, masked4: t.masked, P: t.weights, sums: r.sums[s.head], P5: t.weights, Vh: r.vs[s.head], O: t.output };
      for (const [name, m] of Object.entries(show)) g[name].update(m);
      drawWorked(s, r);
      drawHighlights(s);
      return r;
    });
  },
};
