// Chapter "Two keys, by hand" (source: seeds/004): one query, two keys, d_k = 2, every
// step of softmax(qKᵀ/√d_k)V written out with the core's numbers; then the lecture's
// exercise as a try-it-yourself whose answer is checked against the core's value.
import { chapterKit } from '../../kit/kit.js';
import { tex, fmt, texFactor } from '../../format.js';
import { setMath, setProse, setText } from '../../kit/prose.js';
import { rowOf, at } from '../../matrix.js';
import { parseAnswer, checkAnswer } from '../../answer-check.js';
import narrative from './narrative.js';
import { cellValue } from '../../components/grid/hidden-values.js';

const ID = 'two-keys';
const m = (rows, cols, data) => ({ rows, cols, data: Float32Array.from(data) });

// The documents' inputs (seeds/004). Everything after them is computed by the core.
export const TWO_KEYS_DEFAULTS = () => ({
  q: m(1, 2, [1, 1]), K: m(2, 2, [1, 0, 0, 2]), V: m(2, 2, [1, 0, 0, 1]),
  eq: m(1, 2, [2, 0]), eK: m(2, 2, [2, 0, 0, 2]), eV: m(2, 2, [10, 0, 0, 10]),
});

// e^x and its sum: 4 significant digits, trailing zeros trimmed, as printed by hand (2.028,
// 16.92, 1, 6.141, 0.08417), in the formulas and in their grids alike (and where
// terms-formula quotes them).
export const EXP_DIGITS = { significant: 4 };
const texSig = (x) => tex(x, EXP_DIGITS);
const w3 = { digits: 3, fixed: true };
const vecTex = (xs, f = (x) => tex(x)) => `[${xs.map(f).join(',\\ ')}]`;
// One formula per line (narrow screens keep every line readable).
// (room between rows, so that stacked fractions do not touch: KaTeX's default leaves
// the digits of one denominator and the next numerator overlapping)
const lines = (xs) => `\\begin{gathered} ${xs.join(' \\\\[0.8em] ')} \\end{gathered}`;

// Computes one worked example through the core.
export function computeTwoKeys(attn, q, K, V) {
  const t = attn.attention(q, K, V);
  const sc = attn.scoreScale(q.cols);
  const parts = attn.softmaxParts(t.scaled);
  const sum = attn.rowSums(t.weights);
  return { t, sc, parts, sum };
}

// The five step cards (scores, ÷√d_k, e^x, weights, output), used by the example and by
// the exercise's "reveal the steps". Card ids are link targets (#two-keys-step-scores...).
function stepCards(k, parent, { idPrefix, gridPrefix }) {
  const { el, text, tr } = k;
  const list = el('ol', 'step-cards', parent);
  const cards = {};
  const keyLabel = (j) => `k${j + 1}`;
  const vec = (key, caption, cols, extra = {}) => k.grid({
    caption, ariaLabel: () => tr(key), rowLabel: () => 'q', colLabel: cols, color: 'none', testId: `${gridPrefix}-${extra.name}`, ...extra,
  });
  for (const name of ['scores', 'scaled', 'exp', 'weights', 'output']) {
    const li = el('li', 'step-card', list);
    li.id = `${idPrefix}-${name}`;
    li.dataset.step = name;
    const title = text('h4', `card_${name}`, li);
    const body = el('div', 'step-body', li);
    const math = el('div', 'worked-math', body);
    const grids = el('div', 'grid-row compact', body);
    const note = el('p', 'hint', li);
    note.hidden = true;
    cards[name] = { li, title, math, grids, note };
  }
  const g = {
    scores: vec('gridScores', () => 'q K^\\top', keyLabel, { name: 'scores', digits: 3 }),
    scaled: vec('gridScaled', () => 'q K^\\top / \\sqrt{d_k}', keyLabel, { name: 'scaled', digits: 3, fixed: true }),
    exp: vec('gridExp', () => 'e^{x}', keyLabel, { name: 'exp', ...EXP_DIGITS }),
    sum: vec('gridSum', () => '\\textstyle\\sum', () => 'Σ', { name: 'sum', ...EXP_DIGITS }),
    weights: vec('gridWeights', () => '\\alpha', (j) => `α${j + 1}`, { name: 'weights', ...w3, color: 'weights' }),
    wsum: vec('gridWeightSum', () => '\\alpha_1 + \\alpha_2', () => 'Σ', { name: 'weights-sum', ...w3 }),
    output: vec('gridOutput', () => 'o', (j) => String(j + 1), { name: 'output', digits: 3, fixed: true }),
  };
  cards.scores.grids.append(g.scores.el);
  cards.scaled.grids.append(g.scaled.el);
  cards.exp.grids.append(g.exp.el, g.sum.el);
  cards.weights.grids.append(g.weights.el, g.wsum.el);
  cards.output.grids.append(g.output.el);

  // r = computeTwoKeys(...); V the values used. Called from the chapter's draw, so every
  // text set here follows the language too.
  // Each number the formulas share with a grid is written as that grid's cell (cellValue):
  // an exercise that hides the cell hides it here, and no other number that only equals it.
  const cell = (name, j, text) => cellValue(`${gridPrefix}-${name}`, 0, j, text);
  function update(r, q, K, V) {
    const { t, sc, parts, sum } = r;
    const n = K.rows;
    const qv = rowOf(q, 0);
    // 1. scores, dot product term by term
    const dots = Array.from({ length: n }, (_, j) =>
      `q \\cdot k_{${j + 1}} = ${qv.map((x, c) => `${texFactor(x)} \\cdot ${texFactor(at(K, j, c))}`).join(' + ')} = \\mathbf{${cell('scores', j, tex(at(t.scores, 0, j)))}}`);
    setMath(cards.scores.math, lines(dots), { display: true });
    g.scores.update(t.scores);
    // 2. ÷ √d_k
    const scaled = Array.from({ length: n }, (_, j) =>
      `\\frac{${cell('scores', j, tex(at(t.scores, 0, j)))}}{${tex(sc.sqrtDk, w3)}} \\approx \\mathbf{${cell('scaled', j, tex(at(t.scaled, 0, j), w3))}}`);
    setMath(cards.scaled.math,
      lines([`\\sqrt{d_k} = \\sqrt{${sc.dk}} \\approx ${tex(sc.sqrtDk, w3)}`, ...scaled]), { display: true });
    g.scaled.update(t.scaled);
    // 3. e^x and the sum: e^x itself when it fits in a float, else e^{x − max}
    const raw = Number.isFinite(parts.sumsRaw.data[0]);
    const ex = raw ? parts.expRaw : parts.exp;
    const total = raw ? parts.sumsRaw : parts.sums;
    const exps = Array.from({ length: n }, (_, j) =>
      raw ? `e^{${cell('scaled', j, tex(at(t.scaled, 0, j), w3))}} \\approx ${cell('exp', j, texSig(at(ex, 0, j)))}`
        : `e^{${cell('scaled', j, tex(at(t.scaled, 0, j), w3))} - ${tex(parts.max.data[0], w3)}} \\approx ${cell('exp', j, texSig(at(ex, 0, j)))}`);
    setMath(cards.exp.math,
      lines([...exps, `\\textstyle\\sum = ${Array.from({ length: n }, (_, j) => cell('exp', j, texSig(at(ex, 0, j)))).join(' + ')} \\approx \\mathbf{${cell('sum', 0, texSig(total.data[0]))}}`]),
      { display: true });
    g.exp.update(ex);
    g.sum.update(total);
    cards.exp.note.hidden = raw;
    setProse(cards.exp.note, tr('expShifted'));
    // 4. weights
    const ws = Array.from({ length: n }, (_, j) =>
      `\\alpha_{${j + 1}} = \\frac{${cell('exp', j, texSig(at(ex, 0, j)))}}{${cell('sum', 0, texSig(total.data[0]))}} \\approx \\mathbf{${cell('weights', j, tex(at(t.weights, 0, j), w3))}}`);
    setMath(cards.weights.math, lines(ws), { display: true });
    g.weights.update(t.weights);
    g.wsum.update(sum);
    // 5. output
    const terms = Array.from({ length: n }, (_, j) => `${cell('weights', j, tex(at(t.weights, 0, j), w3))}\\,${vecTex(rowOf(V, j))}`);
    setMath(cards.output.math,
      `\\begin{aligned} &${terms.join(' + ')} \\\\ &= ${vecTex(rowOf(t.output, 0), (x, c) => cell('output', c, tex(x, w3)))} \\end{aligned}`, { display: true });
    g.output.update(t.output);
  }
  return { list, cards, update, grids: g };
}

export default {
  id: ID,
  mount(section, ctx) {
    const { attn } = ctx;
    const k = chapterKit(section, ctx, ID, TWO_KEYS_DEFAULTS);
    const { el, text, tr, state, patch } = k;

    const comp = (j) => String(j + 1);
    const vecOf = (mm, i) => `[${rowOf(mm, i).map((x) => tex(x)).join(', ')}]`;
    // The result in a sentence: the key with the largest weight, or, when the core's weights
    // are all equal (equal scores), that they are equal: no key "has the highest score" then.
    const even = (r) => rowOf(r.main.t.weights, 0).every((x, _, w) => x === w[0]);

    // The figures, each built in its place in narrative.js.
    const figures = {
      reset(parent) {
        const controls = el('div', 'controls', parent);
        k.button('common.reset', () => patch(() => {
          const d = TWO_KEYS_DEFAULTS();
          return { q: d.q, K: d.K, V: d.V };
        }), controls, 'reset');
      },
      inputs(parent) {
        const inputs = el('div', 'grid-row inputs', parent);
        const gq = k.editable('q', { caption: () => 'q', ariaLabel: () => 'q', rowLabel: () => 'q', colLabel: comp });
        const gK = k.editable('K', { caption: () => 'K', ariaLabel: () => 'K', rowLabel: (i) => `k${i + 1}`, colLabel: comp });
        const gV = k.editable('V', { caption: () => 'V', ariaLabel: () => 'V', rowLabel: (i) => `v${i + 1}`, colLabel: comp });
        inputs.append(gq.el, gK.el, gV.el);
        [gq.el.id, gK.el.id, gV.el.id] = [`${ID}-q`, `${ID}-K`, `${ID}-V`]; // link targets of terms-formula
        return { gq, gK, gV };
      },
      steps: (parent) => stepCards(k, parent, { idPrefix: `${ID}-step`, gridPrefix: ID }),
      exInputs(parent) {
        const exInputs = el('div', 'grid-row inputs', parent);
        const eq = k.editable('eq', { caption: () => 'q', ariaLabel: () => tr('exGridQ'), rowLabel: () => 'q', colLabel: comp, testId: `${ID}-ex-q` });
        const eK = k.editable('eK', { caption: () => 'K', ariaLabel: () => tr('exGridK'), rowLabel: (i) => `k${i + 1}`, colLabel: comp, testId: `${ID}-ex-K` });
        const eV = k.editable('eV', { caption: () => 'V', ariaLabel: () => tr('exGridV'), rowLabel: (i) => `v${i + 1}`, colLabel: comp, testId: `${ID}-ex-V` });
        exInputs.append(eq.el, eK.el, eV.el);
        return { eq, eK, eV };
      },
      answer(parent) {
        const form = el('form', 'answer-form', parent);
        form.noValidate = true;
        text('p', 'exAsk', form, undefined, 'answer-ask');
        const fields = el('div', 'answer-fields', form);
        const answerInputs = [0, 1].map((j) => {
          const lab = el('label', 'answer-field', fields);
          el('span', '', lab).textContent = `o${'₁₂'[j]}`;
          const inp = el('input', '', lab);
          Object.assign(inp, { type: 'text', inputMode: 'decimal', autocomplete: 'off', spellcheck: false, size: 6 });
          inp.dataset.answer = String(j);
          inp.addEventListener('input', () => clearFeedback());
          return inp;
        });
        const check = k.button('exCheck', () => {}, fields, 'primary');
        check.type = 'submit';
        check.dataset.act = 'check-answer';
        const revealBtn = k.button('exReveal', () => setRevealed(!revealed), fields);
        revealBtn.dataset.act = 'reveal-steps';
        revealBtn.setAttribute('aria-expanded', 'false');
        revealBtn.setAttribute('aria-controls', `${ID}-exercise-steps`);
        const feedback = el('p', 'answer-feedback', form);
        feedback.setAttribute('role', 'status');
        feedback.dataset.feedback = '';
        return { form, answerInputs, revealBtn, feedback };
      },
      exSteps: (parent) => stepCards(k, parent, { idPrefix: `${ID}-ex-step`, gridPrefix: `${ID}-ex` }),
    };
    const f = k.narrative(narrative, {
      figures,
      vars: {
        inputs: (s) => ({ dk: s.q.cols }),
        winner: (s, r) => {
          if (!r) return {};
          const w = rowOf(r.main.t.weights, 0);
          const top = w.indexOf(Math.max(...w));
          return { top: top + 1, w: tex(w[top], w3), s: tex(at(r.main.t.scores, 0, top)) };
        },
        exercise: (s) => ({
          q: vecOf(s.eq, 0), k1: vecOf(s.eK, 0), k2: vecOf(s.eK, 1), v1: vecOf(s.eV, 0), v2: vecOf(s.eV, 1), dk: s.eq.cols,
        }),
      },
      choose: { winner: () => (lastResult && even(lastResult) ? 'winnerTie' : 'winner') },
    });
    const { gq, gK, gV } = f.inputs;
    const { eq, eK, eV } = f.exInputs;
    const { form, answerInputs, revealBtn, feedback } = f.answer;
    const { steps, exSteps, reveal } = f;
    reveal.hidden = true;

    let revealed = false;
    let lastCheck = null; // {verdict, ...} while the inputs it was checked against stand
    function setRevealed(on) {
      revealed = on;
      reveal.hidden = !on;
      revealBtn.setAttribute('aria-expanded', String(on));
      setText(revealBtn, tr(on ? 'exHide' : 'exReveal'));
    }
    function clearFeedback() {
      lastCheck = null;
      setText(feedback, '');
      feedback.className = 'answer-feedback';
      answerInputs.forEach((i) => i.removeAttribute('aria-invalid'));
    }
    function showFeedback() {
      if (!lastCheck) return;
      const r = lastResult?.ex;
      const o = r ? rowOf(r.t.output, 0).map((x) => fmt(x, { digits: 3, fixed: true })) : ['', ''];
      const msg = lastCheck.error
        ? tr(`exError_${lastCheck.error}`, { text: lastCheck.text, n: String(lastCheck.index + 1) })
        : tr(lastCheck.verdict === 'mistake' ? `exMistake_${lastCheck.mistake}` : `exVerdict_${lastCheck.verdict}`, { o1: o[0], o2: o[1] });
      setText(feedback, msg);
      feedback.className = `answer-feedback ${lastCheck.error ? 'error' : lastCheck.verdict}`;
      feedback.dataset.verdict = lastCheck.error ? 'error' : lastCheck.verdict;
    }
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const r = lastResult?.ex;
      if (!r) return;
      const parsed = parseAnswer(answerInputs.map((i) => i.value));
      answerInputs.forEach((i) => i.removeAttribute('aria-invalid'));
      if (parsed.error) {
        lastCheck = parsed;
        answerInputs[parsed.index].setAttribute('aria-invalid', 'true');
      } else {
        lastCheck = checkAnswer(parsed.values, rowOf(r.t.output, 0), { mistakes: r.mistakes });
        lastCheck.within.forEach((ok, j) => (ok ? answerInputs[j].removeAttribute('aria-invalid') : answerInputs[j].setAttribute('aria-invalid', 'true')));
      }
      showFeedback();
    });

    // ---- computing and drawing ----------------------------------------------------------------
    let lastResult = null;
    let lastEx = null;
    k.start((s) => {
      gq.update(s.q); gK.update(s.K); gV.update(s.V);
      eq.update(s.eq); eK.update(s.eK); eV.update(s.eV);
      const main = computeTwoKeys(attn, s.q, s.K, s.V);
      const ex = computeTwoKeys(attn, s.eq, s.eK, s.eV);
      // Answers a learner gets from a typical slip, computed by the core too.
      ex.mistakes = {
        noScale: attn.attention(s.eq, s.eK, s.eV, { scale: 1 }).output.data,
        byDk: attn.attention(s.eq, s.eK, s.eV, { scale: 1 / s.eq.cols }).output.data,
        noSoftmax: attn.weightedSum(ex.t.scaled, s.eV).data,
      };
      // The same exercise with √d_k rounded to the printed 1.414, as a learner does by hand.
      const printed = Number(fmt(ex.sc.sqrtDk, w3));
      const byHand = attn.attention(s.eq, s.eK, s.eV, { scale: 1 / printed });
      const handParts = attn.softmaxParts(byHand.scaled);
      const rounding = {
        dk: ex.sc.dk, r: tex(printed, w3),
        s1: tex(at(byHand.scaled, 0, 0), w3), s0: tex(at(ex.t.scaled, 0, 0), w3),
        e1: texSig(at(handParts.expRaw, 0, 0)), e0: texSig(at(ex.parts.expRaw, 0, 0)),
        o: vecTex(rowOf(byHand.output, 0), (x) => tex(x, { digits: 2, fixed: true })),
      };
      steps.update(main, s.q, s.K, s.V);
      exSteps.update(ex, s.eq, s.eK, s.eV);
      // A verdict belongs to the inputs it was checked against.
      const exInputsKey = [s.eq, s.eK, s.eV];
      if (lastEx && exInputsKey.some((x, n) => x !== lastEx[n])) clearFeedback();
      lastEx = exInputsKey;
      lastResult = { main, ex, rounding };
      setText(revealBtn, tr(revealed ? 'exHide' : 'exReveal'));
      showFeedback(); // in the current language
      return lastResult;
    });
  },
};
