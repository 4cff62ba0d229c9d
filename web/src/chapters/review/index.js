// Chapter "Review" (source: seeds/004, the lecture's closing questions and summary). Each
// question is answered by a small live figure computed by the core and by links to the
// chapters whose figures show the answer in full. Links appear only for chapters present
// on the page (ctx.onPage): alone (a widget, an ?embed= frame) there are none, and the
// lead and the heading of the other chapters' list say nothing of them.
import { chapterKit } from '../../kit/kit.js';
import { fmt } from '../../format.js';
import { escapeHtml, setHtml } from '../../kit/prose.js';
import { rowOf } from '../../matrix.js';
import narrative from './narrative.js';

const ID = 'review';

const QUESTIONS = [
  { key: 'q1', links: ['scaling', 'two-keys', 'core-attention'] },
  { key: 'q2', links: ['softmax', 'two-keys', 'reading-matrix'] },
  { key: 'q3', links: ['positional-encoding'] },
];
const POINTS = [
  { key: 'p1', links: ['terms-formula', 'core-attention'] },
  { key: 'p2', links: ['why-qkv', 'terms-formula'] },
  { key: 'p3', links: ['two-keys', 'core-attention'] },
  { key: 'p4', links: ['scaling', 'two-keys'] },
  { key: 'p5', links: ['softmax', 'reading-matrix'] },
  { key: 'p6', links: ['weighted-sum', 'core-attention'] },
  { key: 'p7', links: ['positional-encoding'] },
];
const MORE = ['why-attention', 'multi-head', 'causal-dropout', 'cost', 'training'];

export default {
  id: ID,
  mount(section, ctx) {
    const { attn, i18n } = ctx;
    const perm = attn.example('permutation');
    const k = chapterKit(section, ctx, ID, () => ({
      logDk: 6, q: attn.matrix(1, 2, [1, 1]), K: attn.matrix(2, 2, [1, 0, 0, 2]),
    }));
    const { el, tr } = k;
    const f3 = (x) => fmt(x, { digits: 3, fixed: true });
    const linkLists = []; // [element, ids]

    const linksFor = (parent, ids) => {
      const p = el('p', 'see-also', parent);
      linkLists.push([p, ids]);
      return p;
    };
    const q1 = {}, q2 = {};
    // The figures, each built in its place in narrative.js; <name>Links are the links to
    // the chapters that show an answer in full.
    const figures = {
      q1(parent) {
        const c1 = el('div', 'controls', parent);
        k.slider('logDk', 'sliderDk', { min: 1, max: 9, step: 1, parent: c1, vars: () => ({ value: 2 ** k.state().logDk }) });
        const r1 = el('div', 'grid-row', parent);
        const rowLabel1 = (i) => tr(i === 0 ? 'raw' : 'scaled');
        q1.S = k.grid({ caption: () => '\\text{scores}', ariaLabel: () => tr('gridScores'), rowLabel: rowLabel1, colLabel: (j) => `k${j + 1}`, digits: 2, fixed: true, testId: 'review-scores' });
        q1.W = k.grid({ caption: () => '\\mathrm{softmax}', ariaLabel: () => tr('gridWeights'), rowLabel: rowLabel1, colLabel: (j) => `k${j + 1}`, color: 'weights', digits: 3, fixed: true, testId: 'review-weights' });
        r1.append(q1.S.el, q1.W.el);
      },
      q2(parent) {
        const r2 = el('div', 'grid-row', parent);
        q2.q = k.editable('q', { caption: () => 'q', ariaLabel: () => 'q', rowLabel: () => 'q', colLabel: (j) => String(j + 1), testId: 'review-q' });
        q2.K = k.editable('K', { caption: () => 'K', ariaLabel: () => 'K', rowLabel: (i) => `k${i + 1}`, colLabel: (j) => String(j + 1), testId: 'review-K' });
        q2.scaled = k.grid({ caption: () => 'qK^\\top/\\sqrt{d_k}', ariaLabel: () => tr('gridScaled'), rowLabel: () => 'q', colLabel: (j) => `k${j + 1}`, color: 'none', digits: 3, fixed: true, testId: 'review-scaled' });
        q2.alpha = k.grid({ caption: () => '\\alpha', ariaLabel: () => tr('gridAlpha'), rowLabel: () => 'q', colLabel: (j) => `k${j + 1}`, color: 'weights', digits: 3, fixed: true, testId: 'review-alpha' });
        q2.sum = k.grid({ caption: () => '\\textstyle\\sum_j \\alpha_j', ariaLabel: () => tr('rowSum'), rowLabel: () => 'q', colLabel: () => 'Σ', color: 'none', digits: 3, fixed: true, testId: 'review-sum' });
        r2.append(q2.q.el, q2.K.el, q2.scaled.el, q2.alpha.el, q2.sum.el);
      },
      moreLinks: (parent) => linksFor(parent, MORE),
    };
    for (const q of QUESTIONS) figures[`${q.key}Links`] = (parent) => linksFor(parent, q.links);
    for (const p of POINTS) figures[`${p.key}Links`] = (parent) => linksFor(parent, p.links);
    k.narrative(narrative, {
      figures,
      vars: {
        a1check: (s, r) => (r ? { dk: 2 ** s.logDk, raw: f3(r.q1.topRaw), scaled: f3(r.q1.topScaled) } : {}),
        a2check: (s, r) => (r ? { ok: r.q2.positive ? '✓' : '✗' } : {}),
        a3check: (s, r) => (r ? { without: fmt(r.q3.without, { digits: 4 }), with: fmt(r.q3.with, { digits: 4 }) } : {}),
      },
      choose: {
        lead: () => (MORE.some((id) => ctx.onPage?.(id)) ? 'lead' : 'leadAlone'),
        more: () => (MORE.some((id) => ctx.onPage?.(id)) ? 'moreTitle' : null),
      },
    });

    // ---- computing ----------------------------------------------------------------------------
    const permOrders = { a: [0, 2, 1], b: [1, 2, 0] }; // dog bites man / man bites dog
    function compute(s) {
      const dk = 2 ** s.logDk;
      const q = attn.random({ rows: 1, cols: dk, seed: 11 });
      const K = attn.random({ rows: 4, cols: dk, seed: 12 });
      const raw = attn.attention(q, K, K, { scale: 1 });
      const scaled = attn.attention(q, K, K);
      const stack = (a, b) => attn.matrix(2, a.cols, [...a.data, ...b.data]); // two 1-row results side by side, for display
      const top = (m) => attn.columnRange(attn.transpose(m)).max.data[0];
      const t2 = attn.attention(s.q, s.K, s.K);
      const run = (X) => attn.attention(attn.matmul(X, perm.Wq), attn.matmul(X, perm.Wk), attn.matmul(X, perm.Wv)).output;
      const bFromA = permOrders.b.map((w) => permOrders.a.indexOf(w));
      const diff = (pe) => {
        const add = (X) => (pe ? attn.add(X, attn.positionalEncoding(3, X.cols)) : X);
        const OA = run(add(attn.permuteRows(perm.embeddings, permOrders.a)));
        const OB = run(add(attn.permuteRows(perm.embeddings, permOrders.b)));
        return attn.maxAbsDiff(attn.permuteRows(OA, bFromA), OB);
      };
      return {
        q1: { S: stack(raw.scores, scaled.scaled), W: stack(raw.weights, scaled.weights), topRaw: top(raw.weights), topScaled: top(scaled.weights) },
        q2: { t: t2, sum: attn.rowSums(t2.weights), positive: rowOf(t2.weights, 0).every((x) => x > 0) },
        q3: { without: diff(false), with: diff(true) },
      };
    }

    function drawLinks() {
      for (const [p, ids] of linkLists) {
        const present = ids.filter((id) => id !== ID && ctx.onPage?.(id));
        setHtml(p, present.length
          ? `${escapeHtml(tr('see'))} ${present.map((id) => `<a href="#${id}" data-link="${id}">${escapeHtml(i18n.t(`${id}.toc`))}</a>`).join(' · ')}`
          : '');
        p.hidden = present.length === 0;
      }
    }

    k.start((s) => {
      const r = compute(s);
      q1.S.update(r.q1.S);
      q1.W.update(r.q1.W);
      q2.q.update(s.q);
      q2.K.update(s.K);
      q2.scaled.update(r.q2.t.scaled);
      q2.alpha.update(r.q2.t.weights);
      q2.sum.update(r.q2.sum);
      drawLinks();
      return r;
    });
  },
};
