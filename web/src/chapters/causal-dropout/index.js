// Chapter "Causal attention and dropout" (source: seeds/002, with seeds/000 for the
// additive mask): the causal mask as an additive 0/−∞ matrix (with a switch), a live
// check that a later token cannot change an earlier token's output, and inverted
// attention dropout (rate, seed, training vs evaluation). Every number comes from the
// WebAssembly core; this module only compares results (booleans) and lays them out.
import { exampleKit } from '../../kit/kit.js';
import { choice, sameBits, opGroup, foldForPrint } from '../../kit/controls.js';
import { tex, fmt } from '../../format.js';
import { rowOf, colOf } from '../../matrix.js';
import { setProse, setText, rebuild } from '../../kit/prose.js';
import narrative from './narrative.js';

const ID = 'causal-dropout';

export default {
  id: ID,
  mount(section, ctx) {
    const { attn } = ctx;
    // A new input for the token the learner changes: drawn by the core (seeded), rounded
    // to two decimals so it is easy to read and retype.
    const drawRow = (seed, d) => {
      const r = attn.random({ rows: 1, cols: d, seed, distribution: 'uniform', lo: -1, hi: 1 });
      return { rows: 1, cols: d, data: Float32Array.from(r.data, (x) => Math.round(x * 100) / 100) };
    };
    const k = exampleKit(section, ctx, ID, (ex) => ({
      X: ex.X, Wq: ex.Wq, Wk: ex.Wk, Wv: ex.Wv, causal: true,
      training: true, rate: 0.5, seed: 1, probe: 3, probeSeed: 1, newRow: drawRow(1, ex.X.cols),
    }));
    const { el, text, tr, state, patch, ex, tok, comp } = k;
    const T = ex.X.rows;
    const d = ex.X.cols;
    const dims = () => ({ T, d });
    const score = (key, caption, testId, extra = {}) => k.grid({
      caption, ariaLabel: () => tr(key), rowLabel: tok, colLabel: tok, testId, ...extra,
    });
    const weights = { color: 'weights', digits: 3, fixed: true };
    const flags = { z1: true, rangeOk: true };

    let gX, gScaled, gM, gMasked, gP, gV, probe, gNew, gZ, gZ2, statusCap, statusHead, statusBody;
    let mode, gP2, gD, gPd, gSums, cmpCap, cmpHead, cmpBody;
    const gW = {};
    // The figures, each built in its place in narrative.js.
    const figures = {
      reset(parent) {
        const controls = el('div', 'controls', parent);
        k.button('common.reset', k.reset, controls, 'reset');
      },
      inputs(parent) {
        gX = k.editable('X', { caption: () => 'X', ariaLabel: () => 'X', rowLabel: tok, colLabel: comp, testId: 'cd-X' });
        parent.append(gX.el);
        const details = foldForPrint(el('details', 'weights-details', parent));
        text('summary', 'weightsSummary', details);
        const wRow = el('div', 'grid-row', details);
        for (const [name, cap] of [['Wq', 'W_Q'], ['Wk', 'W_K'], ['Wv', 'W_V']]) {
          gW[name] = k.editable(name, { caption: () => cap, ariaLabel: () => cap.replace('_', ''), rowLabel: comp, colLabel: comp, testId: `cd-${name}` });
          wRow.append(gW[name].el);
        }
      },
      mask(parent) {
        const maskControls = el('div', 'controls', parent);
        const causalToggle = k.toggle('causal', 'causalToggle', maskControls);
        causalToggle.box.dataset.control = 'cd-causal';
        const rowM = el('div', 'grid-row', parent);
        gScaled = score('gridScaled', () => 'S / \\sqrt{d_k}', 'cd-scaled');
        gM = score('gridMask', () => 'M', 'cd-M', { color: 'none' });
        gMasked = score('gridMasked', () => 'S / \\sqrt{d_k} + M', 'cd-masked', { note: () => k.common('rowsQueries') });
        rowM.append(gScaled.el);
        opGroup(rowM, '+', gM.el);
        opGroup(rowM, '=', gMasked.el);
        const rowP = el('div', 'grid-row', parent);
        gP = score('gridP', () => 'P = \\mathrm{softmax}(\\cdot)', 'cd-P', weights);
        gV = k.grid({ caption: () => 'V = X W_V', ariaLabel: () => 'V', rowLabel: tok, colLabel: comp, testId: 'cd-V' });
        rowP.append(gP.el, gV.el);
      },
      probe(parent) {
        probe = choice(k, 'probe', {
          labelKey: 'probeLabel', testId: 'cd-probe', parent,
          options: () => Array.from({ length: T - 1 }, (_, i) => ({ value: i + 1, text: tok(i + 1) })),
        });
        const probeRow = el('div', 'grid-row', parent);
        gNew = k.editable('newRow', {
          caption: () => `x'_{${state().probe + 1}}`, ariaLabel: () => tr('gridNew'), rowLabel: () => tok(state().probe),
          colLabel: comp, testId: 'cd-new',
        });
        probeRow.append(gNew.el);
        const redraw = k.button('redraw', () => {
          const probeSeed = state().probeSeed + 1;
          patch({ probeSeed, newRow: drawRow(probeSeed, d) });
        }, probeRow, '', { edits: true });
        redraw.dataset.control = 'cd-redraw';
        const rowZ = el('div', 'grid-row', parent);
        gZ = k.grid({ caption: () => 'Z', ariaLabel: () => tr('gridZ'), rowLabel: tok, colLabel: comp, testId: 'cd-Z' });
        gZ2 = k.grid({ caption: () => "Z'", ariaLabel: () => tr('gridZ2'), rowLabel: tok, colLabel: comp, testId: 'cd-Z2' });
        rowZ.append(gZ.el, gZ2.el);
        const status = el('table', 'status-table', rowZ);
        status.dataset.check = 'causal-status';
        statusCap = el('caption', '', status);
        statusHead = el('tr', '', el('thead', '', status));
        statusBody = el('tbody', '', status);
      },
      dropout(parent) {
        mode = choice(k, 'training', {
          labelKey: 'modeLabel', testId: 'cd-mode', parent,
          options: () => [{ value: true, text: tr('modeTraining') }, { value: false, text: tr('modeEval') }],
        });
        const dControls = el('div', 'controls', parent);
        const rate = k.slider('rate', 'rateLabel', { min: 0, max: 0.9, step: 0.05, parent: dControls, vars: () => ({ value: fmt(state().rate, { digits: 2 }) }) });
        rate.input.dataset.control = 'cd-rate';
        k.number('seed', 'seedLabel', { min: 0, max: 2 ** 31, parent: dControls, testId: 'cd-seed' });
        const rowD = el('div', 'grid-row', parent);
        gP2 = score('gridP', () => 'P', 'cd-P-2', weights);
        gD = score('gridDrop', () => (state().training ? 'D' : 'D\\ (\\times)'), 'cd-D', { color: 'none', digits: 2 });
        gPd = score('gridDropped', () => 'P \\odot D', 'cd-Pd', weights);
        gSums = k.grid({ caption: () => '\\textstyle\\sum_j', ariaLabel: () => tr('rowSum'), rowLabel: tok, colLabel: () => 'Σ', color: 'none', digits: 3, fixed: true, testId: 'cd-sums' });
        rowD.append(gP2.el);
        opGroup(rowD, '⊙', gD.el);
        opGroup(rowD, '=', gPd.el);
        rowD.append(gSums.el);
      },
      compare(parent) {
        ({ caption: cmpCap, head: cmpHead, body: cmpBody } = k.table(parent, 'compare-table', 'mask-vs-dropout'));
      },
    };
    k.narrative(narrative, {
      figures,
      vars: {
        dims,
        verdict: (s, r) => ({ n: s.probe + 1, before: s.probe, changed: r ? r.changedBefore : '' }),
        drop: (s, r) => ({ keep: r?.keep ?? '—', rate: fmt(s.rate, { digits: 2 }), mean: r?.mean ?? '', seed: s.seed }),
        range: (s, r) => ({ rows: r?.outside ?? '' }),
      },
      choose: {
        mask: (s) => (s.causal ? 'maskOn' : 'maskOff'),
        zeroWeights: (s) => (s.causal ? 'zeroWeights' : 'zeroWeightsOff'),
        firstToken: (s) => (s.causal ? (flags.z1 ? 'firstTokenSame' : 'firstTokenDropout') : 'firstTokenOff'),
        verdict: (s) => (s.causal ? 'verdictOn' : 'verdictOff'),
        drop: (s) => (!s.training ? 'dropEval' : s.rate > 0 ? 'dropTraining' : 'dropTrainingZero'),
        range: () => (flags.rangeOk ? 'rangeOk' : 'rangeOut'),
        // (the inputs are the projections chapter's example: named where it is on the page)
        input: () => (ctx.onPage?.('projections') ? 'inputBody' : 'inputBodyAlone'),
      },
    });

    const ones = (r, c) => attn.matrix(r, c, new Float32Array(r * c).fill(1));
    const cell = (tag, txt, parent, cls = '') => {
      const n = document.createElement(tag);
      if (cls) n.className = cls;
      setText(n, txt);
      parent.append(n);
      return n;
    };
    // The table holds only words: built again when the language changes, not on every edit.
    let compareLang = null;
    let statusShown = null; // what the status table says now
    const meanOf = { key: null, value: 0 }; // the mean of a 100 x 100 dropout mask
    function drawCompare() {
      if (compareLang === ctx.i18n.lang) return;
      compareLang = ctx.i18n.lang;
      setText(cmpCap, tr('compareCaption'));
      rebuild(cmpHead, (into) => {
        cell('td', '', into, 'corner');
        for (const key of ['cmpMask', 'cmpDropout']) cell('th', tr(key), into).scope = 'col';
      });
      rebuild(cmpBody, (into) => {
        for (const row of ['Purpose', 'When', 'Where', 'Sums', 'Kind']) {
          const tr_ = document.createElement('tr');
          cell('th', tr(`cmpRow${row}`), tr_).scope = 'row';
          setProse(cell('td', '', tr_), tr(`cmpMask${row}`));
          setProse(cell('td', '', tr_), tr(`cmpDrop${row}`));
          into.append(tr_);
        }
      });
    }

    k.start((s) => {
      probe.sync(s);
      mode.sync(s);
      gX.update(s.X);
      for (const name of ['Wq', 'Wk', 'Wv']) gW[name].update(s[name]);
      gNew.update(s.newRow);
      const opts = { causal: s.causal, dropout: { rate: s.rate, seed: s.seed, training: s.training } };
      const run = (X) => {
        const [Q, K, V] = [s.Wq, s.Wk, s.Wv].map((W) => attn.matmul(X, W));
        return { V, t: attn.attention(Q, K, V, opts) };
      };
      const a = run(s.X);
      // X with the probed token's row replaced by the learner's new input.
      const X2 = { rows: T, cols: d, data: Float32Array.from(s.X.data) };
      X2.data.set(s.newRow.data, s.probe * d);
      const b = run(X2);
      const M = s.causal ? attn.causalMask(T, T) : attn.matrix(T, T);
      const D = attn.dropout(ones(T, T), { rate: s.rate, seed: s.seed });
      const sums = attn.matmul(a.t.dropped, ones(T, 1));
      // The mean of 10 000 multipliers, by the core: 1ᵀ D 1 / 10 000.
      // (kept for the last (rate, seed): most edits do not change it)
      const meanKey = `${s.rate}/${s.seed}`;
      if (meanOf.key !== meanKey) {
        const big = attn.dropout(ones(100, 100), { rate: s.rate, seed: s.seed });
        meanOf.key = meanKey;
        meanOf.value = attn.scale(attn.matmul(attn.matmul(ones(1, 100), big), ones(100, 1)), 1e-4).data[0];
      }
      const mean = meanOf.value;

      gScaled.update(a.t.scaled);
      gM.update(M);
      gMasked.update(a.t.masked);
      gP.update(a.t.weights);
      gV.update(a.V);
      gP2.update(a.t.weights);
      gD.update(D);
      gD.el.classList.toggle('inactive', !s.training);
      gPd.update(a.t.dropped);
      gSums.update(sums);
      gZ.update(a.t.output);
      gZ2.update(b.t.output);
      gZ2.highlight({ rows: [s.probe] });
      gX.highlight({ rows: [s.probe] });
      flags.z1 = sameBits(a.t.output, a.V, 0);

      // Status per token: are Z and Z' bit-identical in that row? (comparisons only)
      setText(statusCap, tr('statusCaption'));
      // The status table is rebuilt only when what it says changes (most edits keep it).
      let changedBefore = 0;
      const status_ = [];
      for (let i = 0; i < T; i++) {
        const same = sameBits(a.t.output, b.t.output, i);
        if (i < s.probe && !same) changedBefore++;
        status_.push([same, tr(i === s.probe ? 'statusChangedInput' : same ? 'statusSame' : 'statusChanged')]);
      }
      const statusKey = JSON.stringify([tr('statusToken'), tr('statusResult'), status_]);
      if (statusKey !== statusShown) {
        statusShown = statusKey;
        rebuild(statusHead, (into) => {
          cell('th', tr('statusToken'), into).scope = 'col';
          cell('th', tr('statusResult'), into).scope = 'col';
        });
        rebuild(statusBody, (into) => status_.forEach(([same, said], i) => {
          const row = document.createElement('tr');
          cell('th', tok(i), row).scope = 'row';
          const c = cell('td', said, row, same ? 'same' : 'changed');
          c.dataset.token = String(i);
          c.dataset.same = String(same);
          into.append(row);
        }));
      }

      // Multiplier 1/(1 − rate) as the core applied it: any kept entry of D.
      const kept = Array.from(D.data).find((x) => x !== 0);
      // Do the outputs stay inside the range of V's columns? (comparisons only)
      const outside = [];
      for (let i = 0; i < T; i++) {
        const zi = rowOf(a.t.output, i);
        if (zi.some((z, c) => { const col = colOf(a.V, c); return z < Math.min(...col) || z > Math.max(...col); })) outside.push(tok(i));
      }
      flags.rangeOk = outside.length === 0;
      drawCompare();
      return {
        changedBefore,
        keep: kept === undefined ? '—' : tex(kept, { digits: 3 }),
        mean: tex(mean, { digits: 3, fixed: true }),
        outside: outside.join(', '),
      };
    });
  },
};
