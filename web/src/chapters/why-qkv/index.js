// Chapter "Why three matrices" (source: seeds/001, "Q·K·V의 역할 분리" and "Self와 크로스
// 어텐션"; seeds/004 step 1, token → embedding): tokens become embedding rows, three
// learned projections make Q, K and V whatever the sequence length, using X itself for all
// three biases every token towards itself (Cauchy–Schwarz), separate W_Q and W_K make
// scores directional, and cross-attention takes Q from one sequence and K, V from another.
import { chapterKit } from '../../kit/kit.js';
import { setText, rebuild } from '../../kit/prose.js';
import { tex, fmt } from '../../format.js';
import { at } from '../../matrix.js';
import narrative from './narrative.js';

const ID = 'why-qkv';
const m = (rows, cols, data) => ({ rows, cols, data: Float32Array.from(data) });

// Token ids of the example sentence (labels per language in the content files); token 2
// comes back at position 5, so two rows of X are equal and their scores tie.
const SENTENCE = [0, 1, 2, 3, 1, 4];
const VOCAB = 5;
const D_MODEL = 4;
const D_K = 2;

// Illustrative inputs chosen by this project (seed 003's matrices are not available):
// small numbers, one embedding ("샀다"/"coffee") much longer than another ("나는"/"I")
// so that without equal norms the diagonal can lose.
const defaults = () => ({
  T: 6,
  E: m(VOCAB, D_MODEL, [
    1, 0, 1, 0,
    0, 2, 0, 1,
    1, 1, 0, -1,
    1, 0, 0, 1,
    2, 0, 2, 1,
  ]),
  Wq: m(D_MODEL, D_K, [1, 0, 0, 1, 1, 1, 0, -1]),
  Wk: m(D_MODEL, D_K, [0, 1, 1, 0, 1, 0, 1, 1]),
  Wv: m(D_MODEL, D_K, [1, 0, 0, 1, 0, 1, 1, 0]),
  equalNorms: true,
  shareWk: false,
  Y: m(2, D_MODEL, [1, 0, 0, 1, 0, 1, 1, 0]),
});

export default {
  id: ID,
  mount(section, ctx) {
    const { attn } = ctx;
    const k = chapterKit(section, ctx, ID, defaults);
    const { el, text, tr, state } = k;
    const words = () => tr('sentence').slice(0, state().T);
    const vocab = () => tr('vocab');
    const target = () => tr('target');
    const comp = (j) => String(j + 1);
    const tokenLabel = (i) => words()[i] ?? `t${i + 1}`;
    const sizes = (s) => ({ T: s.T, dModel: D_MODEL, dk: D_K, vocab: VOCAB });

    function arrow(t) {
      const a = document.createElement('span');
      a.className = 'arrow';
      setText(a, t);
      return a;
    }
    let chips, gOnehot, gE, gX, gXn, gNorms, gS0, gCheck, gS, gD, gY, gQc, gPc, gOc;
    const gW = {};
    const gQKV = {};
    let holds = null; // per token: does its own score win (the check's rows are marked so)
    // The figures, each built in its place in narrative.js.
    const figures = {
      embedding(parent) {
        chips = el('ul', 'token-chips', parent);
        chips.setAttribute('aria-label', tr('sentenceLabel'));
        const controls = el('div', 'controls', parent);
        k.slider('T', 'tSlider', { min: 1, max: SENTENCE.length, parent: controls });
        k.button('common.reset', k.reset, controls, 'reset');
        const embedRow = el('div', 'grid-row', parent);
        gOnehot = k.grid({ caption: () => '\\text{one-hot}', ariaLabel: () => tr('gridOnehot'), rowLabel: tokenLabel, colLabel: (j) => vocab()[j], color: 'none', digits: 0, testId: `${ID}-onehot` });
        gE = k.editable('E', { caption: () => 'E', ariaLabel: () => tr('gridE'), rowLabel: (i) => vocab()[i], colLabel: comp });
        gX = k.grid({ caption: () => 'X', ariaLabel: () => tr('gridX'), rowLabel: tokenLabel, colLabel: comp, testId: `${ID}-X` });
        embedRow.append(gOnehot.el, arrow('·'), gE.el, arrow('='), gX.el);
      },
      projections(parent) {
        const wRow = el('div', 'grid-row inputs', parent);
        for (const [name, cap] of [['Wq', 'W_Q'], ['Wk', 'W_K'], ['Wv', 'W_V']]) {
          gW[name] = k.editable(name, { caption: () => cap, ariaLabel: () => cap, rowLabel: comp, colLabel: comp });
          wRow.append(gW[name].el);
        }
        const qkvRow = el('div', 'grid-row', parent);
        for (const name of ['Q', 'K', 'V']) {
          gQKV[name] = k.grid({ caption: () => `${name} = XW_${name}`, ariaLabel: () => name, rowLabel: tokenLabel, colLabel: comp, testId: `${ID}-${name}` });
          qkvRow.append(gQKV[name].el);
        }
      },
      self(parent) {
        const selfControls = el('div', 'controls', parent);
        k.toggle('equalNorms', 'equalNormsToggle', selfControls);
        const selfRow = el('div', 'grid-row compact', parent);
        gXn = k.grid({ caption: () => (state().equalNorms ? '\\hat X = X / \\lVert x_i \\rVert' : 'X'), ariaLabel: () => tr('gridXn'), rowLabel: tokenLabel, colLabel: comp, digits: 2, testId: `${ID}-Xn` });
        gNorms = k.grid({ caption: () => '\\lVert x_i \\rVert', ariaLabel: () => tr('gridNorms'), rowLabel: tokenLabel, colLabel: () => '‖·‖', color: 'none', testId: `${ID}-norms` });
        gS0 = k.grid({ caption: () => (state().equalNorms ? '\\hat X \\hat X^{\\top}' : 'X X^{\\top}'), ariaLabel: () => tr('gridS0'), rowLabel: tokenLabel, colLabel: tokenLabel, note: () => k.common('rowsQueries'), digits: 2, testId: `${ID}-S0` });
        gCheck = k.grid({
          caption: () => 'S_{ii}\\ \\text{vs}\\ \\max_{j \\ne i} S_{ij}', ariaLabel: () => tr('gridCheck'), rowLabel: tokenLabel,
          colLabel: (j) => [tr('colDiag'), tr('colOffMax'), tr('colMargin')][j], color: 'none', testId: `${ID}-check`,
          rowClass: (i) => (holds ? (holds[i] === 1 ? 'holds' : 'fails') : ''),
        });
        selfRow.append(gXn.el, gNorms.el, gS0.el, gCheck.el);
      },
      direction(parent) {
        const asymControls = el('div', 'controls', parent);
        k.toggle('shareWk', 'shareWkToggle', asymControls);
        const asymRow = el('div', 'grid-row compact', parent);
        gS = k.grid({ caption: () => 'S = QK^{\\top}', ariaLabel: () => tr('gridS'), rowLabel: tokenLabel, colLabel: tokenLabel, note: () => k.common('rowsQueries'), testId: `${ID}-S` });
        gD = k.grid({ caption: () => 'S - S^{\\top}', ariaLabel: () => tr('gridD'), rowLabel: tokenLabel, colLabel: tokenLabel, testId: `${ID}-D` });
        asymRow.append(gS.el, gD.el);
      },
      cross(parent) {
        const crossRow = el('div', 'grid-row compact', parent);
        gY = k.editable('Y', { caption: () => 'Y', ariaLabel: () => tr('gridY'), rowLabel: (i) => target()[i] ?? `y${i + 1}`, colLabel: comp });
        gQc = k.grid({ caption: () => 'Q = YW_Q', ariaLabel: () => tr('gridQc'), rowLabel: (i) => target()[i], colLabel: comp, testId: `${ID}-Qc` });
        gPc = k.grid({
          caption: () => '\\mathrm{softmax}(QK^{\\top}/\\sqrt{d_k})', ariaLabel: () => tr('gridPc'), rowLabel: (i) => target()[i], colLabel: tokenLabel,
          color: 'weights', digits: 3, fixed: true, testId: `${ID}-Pc`, note: () => tr('crossNote'),
        });
        gOc = k.grid({ caption: () => 'O = PV', ariaLabel: () => tr('gridOc'), rowLabel: (i) => target()[i], colLabel: comp, testId: `${ID}-Oc` });
        crossRow.append(gY.el, gQc.el, gPc.el, gOc.el);
      },
    };
    k.narrative(narrative, {
      figures,
      vars: {
        sizes,
        selfVerdict: (s, r) => (r ? { held: r.held, T: s.T, tie: r.tie ? tr('tieNote') : '' } : {}),
        asym: (s, r) => (r && r.pair ? r.pair : {}),
        cross: (s) => ({ T: s.T }),
        crossShape: (s, r) => (r ? { Tq: r.cross.weights.rows, Tk: r.cross.weights.cols } : {}),
      },
      choose: {
        selfVerdict: (s) => (s.equalNorms ? 'selfVerdictEqual' : 'selfVerdictRaw'),
        asym: (s) => (s.shareWk ? 'asymShared' : 'asymSeparate'),
      },
    });

    const onehot = (T) => {
      const data = new Float32Array(T * VOCAB);
      for (let i = 0; i < T; i++) data[i * VOCAB + SENTENCE[i]] = 1;
      return m(T, VOCAB, data);
    };

    let chipsShown = null; // the words and T the chips show: most edits change neither
    k.start((s) => {
      const chipsKey = JSON.stringify([tr('sentence'), s.T, tr('sentenceLabel')]);
      if (chipsKey !== chipsShown) {
        chipsShown = chipsKey;
        rebuild(chips, (into) => tr('sentence').forEach((w, i) => {
          const c = document.createElement('li');
          c.className = `chip${i < s.T ? ' on' : ''}`;
          setText(c, w);
          into.append(c);
        }));
        chips.setAttribute('aria-label', tr('sentenceLabel'));
      }
      gE.update(s.E);
      for (const name of ['Wq', 'Wk', 'Wv']) gW[name].update(s[name]);
      gY.update(s.Y);
      const H = onehot(s.T);
      const X = attn.matmul(H, s.E);
      const Q = attn.matmul(X, s.Wq);
      const K = attn.matmul(X, s.shareWk ? s.Wq : s.Wk);
      const V = attn.matmul(X, s.Wv);
      gOnehot.update(H);
      gX.update(X);
      gQKV.Q.update(Q);
      gQKV.K.update(K);
      gQKV.V.update(V);

      // Q = K = V = X (or its rows scaled to length 1)
      const Xn = s.equalNorms ? attn.normalizeRows(X) : X;
      const S0 = attn.scores(Xn, Xn);
      const chk = attn.diagonalCheck(S0);
      gXn.update(Xn);
      gNorms.update(attn.rowNorms(Xn));
      gS0.update(S0);
      const table = attn.matrix(s.T, 3);
      for (let i = 0; i < s.T; i++) {
        table.data[i * 3] = chk.diagonal.data[i];
        table.data[i * 3 + 1] = chk.offMax.data[i];
        table.data[i * 3 + 2] = chk.margin.data[i];
      }
      holds = chk.holds.data;
      gCheck.update(table);
      const held = attn.colSums(chk.holds).data[0];
      // Rows whose diagonal only ties: a repeated token (equal rows).
      let tie = false;
      gS0.highlight({ cells: Array.from({ length: s.T }, (_, i) => [i, i]) });
      for (let i = 0; i < s.T; i++) if (holds[i] === 1 && Math.abs(chk.margin.data[i]) <= 1e-6 && s.T > 1) tie = true;

      // Direction: S vs Sᵀ
      const S = attn.scores(Q, K);
      const D = attn.difference(S, attn.transpose(S));
      gS.update(S);
      gD.update(D);
      let pair = null;
      if (s.T >= 2) {
        // The pair (i, j) with the largest |S_ij − S_ji|, to quote.
        let best = [0, 1];
        for (let i = 0; i < s.T; i++) for (let j = 0; j < s.T; j++) if (Math.abs(at(D, i, j)) > Math.abs(at(D, ...best))) best = [i, j];
        const [i, j] = best;
        pair = {
          i: tokenLabel(i), j: tokenLabel(j), sij: tex(at(S, i, j)), sji: tex(at(S, j, i)),
          maxDiff: tex(attn.moments(D).max),
        };
        gS.highlight({ cells: [[i, j], [j, i]] });
      }

      // Cross-attention: Q from Y (2 tokens), K and V from X (T tokens)
      const Qc = attn.matmul(s.Y, s.Wq);
      const cross = attn.attention(Qc, K, V);
      gQc.update(Qc);
      gPc.update(cross.weights);
      gOc.update(cross.output);
      return { X, Q, K, V, chk, held: fmt(held, { digits: 0 }), tie, pair, cross };
    });
  },
};
