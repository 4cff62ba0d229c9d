// Chapter "Why attention" (sources: seeds/001 and seeds/004): long-range dependencies in
// the documents' Korean sentences; a recurrent state that dilutes a token with distance
// (attn.recurrentScan, h_t = r·h_{t−1} + (1−r)·x_t) against one attention lookup whose
// share does not depend on distance (attn.attention); sequential steps n vs 2 and path
// length n−1 vs 1 from the cost model, with a step counter that honours
// prefers-reduced-motion. The memory and complexity tables belong to the `cost` chapter.
import { chapterKit } from '../../kit/kit.js';
import { setText, rebuild } from '../../kit/prose.js';
import { fmt } from '../../format.js';
import narrative from './narrative.js';

const ID = 'why-attention';
const TICK_MS = 140;

const reducedMotion = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

export default {
  id: ID,
  mount(section, ctx) {
    const { attn } = ctx;
    const k = chapterKit(section, ctx, ID, () => ({ sentence: 0, pair: 0, r: 0.8, a: 6, n: 24, N: 12, tick: 0 }));
    const { el, text, tr, state, patch } = k;
    const f3 = (x) => fmt(x, { digits: 3 });
    const sentences = () => tr('sentences');
    const pairOf = (s) => sentences()[s.sentence].pairs[s.pair] ?? sentences()[s.sentence].pairs[0];

    const pairButtons = [];
    let chips, plot, recCells, attCells;
    // The figures, each built in its place in narrative.js.
    const figures = {
      pairs(parent) {
        const pickers = el('div', 'controls', parent);
        pickers.setAttribute('role', 'radiogroup');
        text('span', 'pairLabel', pickers, undefined, 'label');
        sentences().forEach((sen, si) => sen.pairs.forEach((_, pi) => {
          const b = el('button', 'pair-button', pickers);
          b.type = 'button';
          b.addEventListener('click', () => patch({ sentence: si, pair: pi }));
          b.dataset.control = `pair-${si}-${pi}`;
          pairButtons.push([b, si, pi]);
        }));
        chips = el('ol', 'token-chips sentence-chips', parent);
        chips.dataset.sentence = 'long-range';
      },
      dilution(parent) {
        const sliders = el('div', 'controls', parent);
        k.slider('r', 'sliderR', { min: 0.5, max: 0.98, step: 0.01, parent: sliders });
        k.slider('a', 'sliderA', { min: 1, max: 10, step: 0.5, parent: sliders });
        k.slider('n', 'sliderN', { min: 10, max: 60, step: 1, parent: sliders });
        plot = k.plot({
          title: () => tr('plotTitle'), x: { label: () => tr('axisDistance') }, y: { label: () => tr('axisShare'), domain: [0, 1] }, testId: 'why-plot',
        });
        parent.append(plot.el);
      },
      steps(parent) {
        const stepControls = el('div', 'controls', parent);
        k.slider('N', 'sliderN2', { min: 2, max: 100, step: 1, parent: stepControls });
        const run = k.button('run', () => play(), stepControls);
        run.dataset.control = 'run';
        k.button('step', () => { stop(); patch((s) => ({ tick: Math.min(s.tick + 1, s.N) })); }, stepControls).dataset.control = 'step';
        k.button('rewind', () => { stop(); patch({ tick: 0 }); }, stepControls).dataset.control = 'rewind';
        const tracks = el('div', 'tracks', parent);
        const recTrack = el('div', 'track', tracks);
        text('p', 'trackRecurrent', recTrack, (s, r) => (r ? { done: Math.min(s.tick, r.cost.sequentialStepsRecurrent), total: r.cost.sequentialStepsRecurrent } : {}), 'track-label');
        recCells = el('ol', 'cells', recTrack);
        recCells.dataset.track = 'recurrent';
        const attTrack = el('div', 'track', tracks);
        text('p', 'trackAttention', attTrack, (s, r) => (r ? { done: Math.min(s.tick, r.cost.sequentialStepsAttention), total: r.cost.sequentialStepsAttention } : {}), 'track-label');
        attCells = el('ol', 'cells', attTrack);
        attCells.dataset.track = 'attention';
      },
    };
    k.narrative(narrative, {
      figures,
      vars: {
        pairNote: (s) => ({ note: pairOf(s).note }),
        pairNumbers: (s, r) => (r ? { from: r.pair.from, to: r.pair.to, k: r.pair.k, rec: f3(r.recAt), att: f3(r.attAt) } : {}),
        pathNumbers: (s, r) => (r ? {
          N: s.N, rec: r.cost.pathLengthRecurrent, att: r.cost.pathLengthAttention, srec: r.cost.sequentialStepsRecurrent, satt: r.cost.sequentialStepsAttention,
        } : {}),
      },
    });

    // ---- animation (a UI counter; the totals come from the core's cost model) ------------------
    let timer = null;
    function stop() {
      if (timer) clearInterval(timer);
      timer = null;
    }
    function play() {
      stop();
      const s = state();
      if (reducedMotion()) {
        patch({ tick: s.N }); // no motion: show the finished state at once
        return;
      }
      if (s.tick >= s.N) patch({ tick: 0 });
      timer = setInterval(() => {
        const cur = state();
        if (cur.tick >= cur.N) return stop();
        patch({ tick: cur.tick + 1 });
      }, TICK_MS);
    }

    function compute(s) {
      const n = s.n;
      const I = attn.matrix(n, n, Array.from({ length: n * n }, (_, q) => (q % (n + 1) === 0 ? 1 : 0)));
      // Recurrent: row n−1 is the last token's state; its component s is token s's share.
      const H = attn.recurrentScan(I, s.r);
      // Attention: query s looks for key s with score a (scale 1), every other key scores 0;
      // with V = I, output (s, s) is the share token s gets in that lookup.
      const A = attn.attention(attn.scale(I, s.a), I, I, { scale: 1 }).output;
      const rec = [], att = [];
      for (let dist = 0; dist < n; dist++) {
        const src = n - 1 - dist;
        rec.push([dist, H.data[(n - 1) * n + src]]);
        att.push([dist, A.data[src * n + src]]);
      }
      const p = pairOf(s);
      const dist = p.to - p.from;
      const tokens = sentences()[s.sentence].tokens;
      return {
        rec, att, recAt: rec[dist][1], attAt: att[dist][1],
        pair: { from: tokens[p.from], to: tokens[p.to], k: dist },
        cost: attn.cost({ n: s.N, dModel: 8 }),
      };
    }

    function drawCells(list, count, filled, cls) {
      if (list.children.length !== count) {
        list.replaceChildren();
        for (let i = 0; i < count; i++) el('li', 'cell', list).setAttribute('aria-hidden', 'true');
      }
      [...list.children].forEach((c, i) => {
        const name = `cell ${filled(i) ? cls : ''}`;
        if (c.className !== name) c.className = name;
      });
    }

    k.start((s) => {
      pairButtons.forEach(([b, si, pi]) => {
        const sen = sentences()[si], p = sen.pairs[pi];
        setText(b, `${sen.tokens[p.to]} → ${sen.tokens[p.from]}`);
        b.setAttribute('aria-pressed', String(si === s.sentence && pi === s.pair));
      });
      const sen = sentences()[s.sentence];
      const p = pairOf(s);
      rebuild(chips, (into) => sen.tokens.forEach((t, i) => {
        const li = el('li', `chip${i === p.from ? ' from' : ''}${i === p.to ? ' to' : ''}${i > p.from && i < p.to ? ' between' : ''}`, into);
        el('span', 'chip-token', li).textContent = t;
        if (sen.gloss) el('span', 'chip-gloss', li).textContent = sen.gloss[i];
      }));
      const r = compute(s);
      const marks = [
        { x: r.pair.k, y: r.recAt, label: r.pair.from, color: '#c2760c' },
        { x: r.pair.k, y: r.attAt, color: '#1f5fbf' },
      ];
      plot.update({
        series: [
          { name: tr('seriesRecurrent'), points: r.rec, color: '#c2760c' },
          { name: tr('seriesAttention'), points: r.att, color: '#1f5fbf', dashed: true },
        ],
        marks,
        summary: tr('plotSummary', { k: r.pair.k, rec: f3(r.recAt), att: f3(r.attAt) }),
      });
      const steps = r.cost.sequentialStepsAttention;
      drawCells(recCells, s.N, (i) => i < s.tick, 'done');
      drawCells(attCells, s.N, () => s.tick >= steps || s.tick >= 1, s.tick >= steps ? 'done' : 'half');
      return r;
    });
  },
};
