// Chapter "Dot product and √d_k" (source: seeds/001, "내적" and "스케일링과 포화"): the
// geometry of q·k, the sampling experiment that shows Var(q·k) = d_k (run by the core,
// seeded), and the saturation demo: softmax and its gradient p(1 − p) before and after
// dividing the scores by √d_k (or, over-squashing, by d_k).
import { chapterKit } from '../../kit/kit.js';
import { onPrint } from '../../kit/print.js';
import { setText } from '../../kit/prose.js';
import { tex, fmt, texFactor } from '../../format.js';
import { rowOf, at } from '../../matrix.js';
import narrative from './narrative.js';

const ID = 'scaling';
const m = (rows, cols, data) => ({ rows, cols, data: Float32Array.from(data) });
const SWEEP = [2, 3, 4, 5, 6, 7, 8, 9]; // d_k = 2^e: 4 … 512
const DEFAULT_S = [8, 0, -8];
// The prose calls softmax weights "nearly uniform" only when the largest is at most this
// many times the smallest (and says so).
const UNIFORM = 1.5;

const defaults = () => ({
  q: m(1, 2, [3, 1]), k: m(1, 2, [1, 2]),
  dkExp: 6, // d_k = 64, the article's example
  seed: 1, count: 2000,
  S: m(1, 3, DEFAULT_S),
});

// Enough decimals to show the first significant digit (0.0000001), at least `min`.
const sigDigits = (x, min) => (x > 0 && x < 1 ? Math.max(min, Math.min(8, -Math.floor(Math.log10(x)))) : min);
const small = (x, min = 4) => fmt(x, { digits: sigDigits(Math.abs(x), min), fixed: true });

export default {
  id: ID,
  mount(section, ctx) {
    const { attn } = ctx;
    const k = chapterKit(section, ctx, ID, defaults);
    const { el, text, tr, state, patch } = k;
    const dkOf = (s) => 2 ** s.dkExp;

    const comp = (j) => String(j + 1);
    const dkVars = () => ({ dk: dkOf(state()), std: tex(attn.scoreScale(dkOf(state())).sqrtDk, { digits: 1 }) });
    function arrowEl(t) {
      const a = document.createElement('span');
      a.className = 'arrow';
      setText(a, t);
      return a;
    }

    // The figures, each built in its place in narrative.js.
    const figures = {
      geoInputs(parent) {
        const geoRow = el('div', 'grid-row', parent);
        const gq = k.editable('q', { caption: () => 'q', ariaLabel: () => 'q', rowLabel: () => 'q', colLabel: comp });
        const gk = k.editable('k', { caption: () => 'k', ariaLabel: () => 'k', rowLabel: () => 'k', colLabel: comp });
        geoRow.append(gq.el, gk.el);
        return { gq, gk };
      },
      geoPlot(parent) {
        // Same domain on both axes, so that angles look like angles.
        const geoX = { label: () => 'x₁' }, geoY = { label: () => 'x₂' };
        const geoPlot = k.plot({ title: () => tr('geoPlot'), x: geoX, y: geoY, width: 320, height: 300, square: true, testId: `${ID}-geo` });
        parent.append(geoPlot.el);
        return { geoPlot, geoX, geoY };
      },
      sampleControls(parent) {
        const controls = el('div', 'controls', parent);
        const dkSlider = k.slider('dkExp', 'dkSlider', { min: SWEEP[0], max: SWEEP.at(-1), parent: controls, vars: dkVars });
        k.number('seed', 'seedLabel', { min: 0, max: 1000000, parent: controls });
        k.slider('count', 'countSlider', { min: 200, max: 5000, step: 200, parent: controls });
        k.button('common.reset', k.reset, controls, 'reset');
        return dkSlider;
      },
      histograms(parent) {
        const histRow = el('div', 'plot-row', parent);
        const histRaw = k.plot({ title: () => tr('histRaw', { dk: dkOf(state()) }), x: { label: () => 'q·k' }, y: { label: () => tr('count') }, width: 420, height: 260, testId: `${ID}-hist-raw` });
        const histScaled = k.plot({ title: () => tr('histScaled', { dk: dkOf(state()) }), x: { label: () => 'q·k / √d_k' }, y: { label: () => tr('count') }, width: 420, height: 260, testId: `${ID}-hist-scaled` });
        histRow.append(histRaw.el, histScaled.el);
        return { histRaw, histScaled };
      },
      sweep(parent) {
        const sweepRow = el('div', 'plot-row', parent);
        const sweepPlot = k.plot({
          title: () => tr('sweepPlot'), x: { label: () => 'd_k', type: 'log', ticks: SWEEP.map((e) => 2 ** e) }, y: { label: () => tr('variance'), type: 'log' },
          width: 460, height: 300, testId: `${ID}-sweep`,
        });
        const gSweep = k.grid({
          caption: () => '\\text{Var}', ariaLabel: () => tr('gridSweep'), rowLabel: (i) => `d_k=${2 ** SWEEP[i]}`,
          colLabel: (j) => [tr('colStdTheory'), tr('colStd'), tr('colVar'), tr('colVarSqrt'), tr('colVarDk')][j],
          color: 'none', digits: 3, testId: `${ID}-sweep-table`,
        });
        sweepRow.append(sweepPlot.el, gSweep.el);
        return { sweepRow, sweepPlot, gSweep };
      },
      satControls(parent) {
        const satControls = el('div', 'controls', parent);
        return k.slider('dkExp', 'dkSlider', { min: SWEEP[0], max: SWEEP.at(-1), parent: satControls, vars: dkVars });
      },
      satInputs(parent) {
        const satInputs = el('div', 'grid-row inputs', parent);
        const gS = k.editable('S', { caption: () => 's', ariaLabel: () => tr('gridScores'), rowLabel: () => 's', colLabel: comp });
        satInputs.append(gS.el);
        return gS;
      },
      satRows(parent) {
        const satTable = el('div', 'sat-rows', parent);
        const satRow = (key, divisor, digits, tid) => {
          const row = el('div', 'sat-row', satTable);
          text('h4', key, row, (s, r) => (r ? { dk: dkOf(s), sqrt: tex(r.sc.sqrtDk, { digits: 1 }) } : {}));
          const line = el('div', 'grid-row compact', row);
          const fmtOpts = digits === 'small' ? { digits: 7 } : { digits: 3, fixed: true };
          const g = {
            x: k.grid({ caption: () => divisor, ariaLabel: () => tr('gridInput'), rowLabel: () => 's', colLabel: comp, color: 'none', digits: 3, testId: `${tid}-x` }),
            p: k.grid({ caption: () => 'p = \\mathrm{softmax}', ariaLabel: () => tr('gridP'), rowLabel: () => 'p', colLabel: (j) => `p${j + 1}`, color: 'weights', ...fmtOpts, testId: `${tid}-p` }),
            g: k.grid({ caption: () => 'p(1-p)', ariaLabel: () => tr('gridGrad'), rowLabel: () => '∂', colLabel: (j) => `p${j + 1}`, color: 'none', ...fmtOpts, testId: `${tid}-g` }),
          };
          line.append(g.x.el, arrowEl('→'), g.p.el, g.g.el);
          return g;
        };
        return {
          raw: satRow('satRaw', 's', 'small', `${ID}-raw`),
          sqrt: satRow('satSqrt', 's / \\sqrt{d_k}', 3, `${ID}-sqrt`),
          dk: satRow('satDk', 's / d_k', 3, `${ID}-dk`),
        };
      },
    };
    // Only at the document's own example (d_k = 64, the default S) does the paragraph about
    // its "over 700×" apply: the key is null otherwise, and the kit hides it.
    const isDefault = (s) => dkOf(s) === 64 && rowOf(s.S, 0).every((x, j) => x === DEFAULT_S[j]);
    // Until every d_k is sampled (it starts when the figure comes near the screen), the
    // figure and the table say what they will show.
    let sweepComplete = false;
    // Whether the third line's weights are nearly uniform is read off the core's numbers
    // (set by the draw function, which runs before the prose).
    let dkUniform = false;
    const f = k.narrative(narrative, {
      figures,
      vars: { sat: (s, r) => (r ? { ...r.satVars, sqrt: tex(r.sc.sqrtDk, { digits: 1 }) } : {}) },
      choose: {
        // While the chosen d_k's sample is still being drawn (a large one, in slices), it says so.
        pending: () => (chosenPartial ? 'varPending' : null),
        sweepPending: () => (sweepComplete ? null : 'sweepPending'),
        rounding: (s) => (isDefault(s) ? 'satRounding' : null),
        overSquash: () => (dkUniform ? 'satDkUniform' : 'satDkFlatter'),
        // "Move d_k up towards 512" has nowhere to go at the slider's end.
        push: (s) => (s.dkExp < SWEEP.at(-1) ? 'satPush' : null),
      },
    });
    const { gq, gk } = f.geoInputs;
    const { geoPlot, geoX, geoY } = f.geoPlot;
    const { histRaw, histScaled } = f.histograms;
    const { sweepRow, sweepPlot, gSweep } = f.sweep;
    const { stats, sampleControls: dkSlider, satControls: dk2, satInputs: gS, satRows: rows } = f;

    // The sweep depends only on (count, seed). The core draws a sample's pairs in order from
    // its seed, and sample_dot_products(d_k, n, seed, first) returns pairs first .. first + n − 1
    // of that draw bit for bit (tests/wasm/analysis.test.mjs checks it): so each (seed, d_k)
    // keeps one draw, grown in pieces to the largest count asked, and a count takes its first
    // rows, whose moments (and the scaled dots) the core computes — the numbers of
    // sampleDotProducts({dk, count, seed}) itself. Raising the count draws only the pairs
    // added. The last few seeds are kept, so going back to a seed draws nothing.
    // An edit draws the chosen d_k at once up to SYNC entries (pairs × d_k: 512 pairs at the
    // default d_k = 64, 2–3 ms; all 2 000 took 10–70 ms on the page's thread); a larger draw
    // (a new seed) shows the pairs drawn so far, says so, and completes in slices of SLICE entries that
    // yield to the page (tasks of at most BUSY ms), then redraws. The other d_k are drawn the
    // same way once the sweep comes near the screen (or the page is printed), drawn together
    // at the end; data-complete on the plot and the table marks it. Once the count has been
    // raised, the draws of this seed go on growing in idle slices, shortest first, up to
    // AHEAD pairs past the count (five of the slider's steps; its end at most), so that the
    // next steps up find their pairs drawn and paint once.
    // data-drawn on the sweep counts the pairs drawn so far.
    const setData = (n, key, v) => n.dataset[key] !== v && (n.dataset[key] = v);
    const COUNT_MAX = 5000, SEEDS_KEPT = 4;
    const SYNC = 32768, SLICE = 16384, BUSY = 6, AHEAD = 1000;
    let aheadTo = 0, lastSeed = null, lastCount = null; // the count the draws grow towards when idle
    const draws = new Map(); // "seed/dk" -> {dk, seed, dots (the draw's first n pairs), n, expectedVariance}
    const cache = new Map(); // "count/seed/dk" -> {dk, r, sqrt, byDk}
    let drawn = 0;
    const drawOf = (s, dk) => {
      const key = `${s.seed}/${dk}`;
      const d = draws.get(key) ?? { dk, seed: s.seed, dots: new Float32Array(COUNT_MAX), n: 0, expectedVariance: dk };
      draws.delete(key); // most recently used last
      draws.set(key, d);
      const seeds = [...new Set([...draws.keys()].map((x) => x.split('/')[0]))];
      for (const old of seeds.slice(0, -SEEDS_KEPT)) for (const x of draws.keys()) if (x.startsWith(`${old}/`)) draws.delete(x);
      return d;
    };
    // Draws pairs d.n.. towards `count` in one call of at most `entries` entries (one pair at least).
    const grow = (d, count, entries) => {
      const rows = Math.min(count - d.n, Math.max(1, Math.floor(entries / d.dk)));
      if (rows <= 0) return;
      const r = attn.sampleDotProducts({ dk: d.dk, count: rows, seed: d.seed, first: d.n });
      if (d.n + rows > d.dots.length) { // a count past the slider's end (a hand-made link)
        const more = new Float32Array(d.n + rows);
        more.set(d.dots.subarray(0, d.n));
        d.dots = more;
      }
      d.dots.set(r.dots.data, d.n);
      d.n += rows;
      d.expectedVariance = r.expectedVariance;
      drawn += rows;
    };
    // The sample of the draw's first n pairs, as the core gives it.
    const sampleOf = (d, n) => {
      const dots = attn.matrix(n, 1, d.dots.subarray(0, n));
      const scaled = attn.scale(dots, attn.scoreScale(d.dk).factor);
      return { dk: d.dk, count: n, seed: d.seed, dots, scaled, raw: attn.moments(dots), normalized: attn.moments(scaled), expectedVariance: d.expectedVariance };
    };
    const ready = (s, dk) => (draws.get(`${s.seed}/${dk}`)?.n ?? 0) >= s.count;
    const entry = (s, dk) => {
      const key = `${s.count}/${s.seed}/${dk}`;
      let e = cache.get(key);
      if (!e) {
        const d = drawOf(s, dk);
        while (d.n < s.count) grow(d, s.count, Infinity);
        const r = sampleOf(d, s.count);
        e = { dk, r, sqrt: attn.scoreScale(dk).sqrtDk, byDk: attn.moments(attn.scale(r.dots, 1 / dk)) };
        // what was computed for the last few (count, seed) pairs is kept
        if (cache.size >= 16 * SWEEP.length) cache.delete(cache.keys().next().value);
      }
      cache.delete(key); // most recently used last
      cache.set(key, e);
      return e;
    };
    const have = (s) => SWEEP.map((e) => cache.get(`${s.count}/${s.seed}/${2 ** e}`)).filter(Boolean);
    const missingDk = (s) => SWEEP.map((e) => 2 ** e).find((dk) => !cache.has(`${s.count}/${s.seed}/${dk}`));
    let wanted = typeof IntersectionObserver === 'undefined';
    let timer = null;
    let chosenPartial = false;
    // What a background slice draws: the chosen d_k, then (once wanted) the sweep's, then
    // ahead (the d_k whose draw is shortest).
    const needed = (s) => (!ready(s, dkOf(s)) ? dkOf(s) : wanted ? missingDk(s) : undefined);
    const ahead = (s) => {
      if (!wanted || aheadTo <= s.count) return undefined;
      let best;
      for (const e of SWEEP) {
        const n = draws.get(`${s.seed}/${2 ** e}`)?.n ?? 0;
        if (n < aheadTo && (best === undefined || n < best.n)) best = { dk: 2 ** e, n };
      }
      return best?.dk;
    };
    // One task of background drawing.
    function fillSweep() {
      if (timer !== null || !(chosenPartial || wanted)) return;
      timer = setTimeout(() => {
        timer = null;
        const s = state();
        const t0 = performance.now();
        let redraw = false;
        try {
          do {
            const need = needed(s);
            const dk = need ?? ahead(s);
            if (dk === undefined) break;
            const d = drawOf(s, dk);
            if (need === undefined) {
              grow(d, aheadTo, SLICE);
              continue;
            }
            if (d.n < s.count) grow(d, s.count, SLICE);
            if (d.n >= s.count) {
              entry(s, dk);
              if (dk === dkOf(s) && chosenPartial) redraw = true;
              if (wanted && missingDk(s) === undefined) redraw = true;
            }
          } while (!redraw && performance.now() - t0 < BUSY);
        } catch (e) {
          console.warn(e);
          return;
        }
        // (data-drawn is written when the figure is redrawn or the drawing ends, not by every
        // slice: an attribute written in every frame restyles the figure in every frame)
        if (redraw) k.render();
        if (needed(s) !== undefined || ahead(s) !== undefined) fillSweep();
        else setData(sweepPlot.el, 'drawn', String(drawn));
      }, 0);
    }
    const startSweep = () => {
      wanted = true;
      fillSweep();
    };
    if (!wanted) {
      const io = new IntersectionObserver((entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          io.disconnect();
          startSweep();
        }
      }, { rootMargin: '400px' });
      queueMicrotask(() => io.observe(sweepRow));
    }

    k.start((s) => {
      const dk = dkOf(s);
      for (const sl of [dkSlider, dk2]) sl.input.setAttribute('aria-valuetext', `d_k = ${dk}`);
      gq.update(s.q);
      gk.update(s.k);
      gS.update(s.S);

      // geometry
      const geo = attn.dotGeometry(s.q, s.k);
      const qv = rowOf(s.q, 0), kv = rowOf(s.k, 0);
      const ext = [0, ...qv, ...kv].filter(Number.isFinite);
      const lo = Math.min(...ext), hi = Math.max(...ext), pad = 0.12 * (hi - lo || 1);
      geoX.domain = geoY.domain = [lo - pad, hi + pad];
      geoPlot.update({
        series: [
          { name: 'q', points: [[0, 0], qv] },
          { name: 'k', points: [[0, 0], kv] },
        ],
        marks: [{ x: qv[0], y: qv[1], label: 'q', r: 3 }, { x: kv[0], y: kv[1], label: 'k', r: 3, color: '#c2760c' }, { x: 0, y: 0, r: 2, color: '#555b66' }],
        summary: tr('geoSummary'),
      });
      const geoVars = {
        dot: tex(geo.dot, { digits: 3 }), nq: tex(geo.normA, { digits: 3 }), nk: tex(geo.normB, { digits: 3 }),
        cos: Number.isNaN(geo.cos) ? '\\text{—}' : tex(geo.cos, { digits: 3 }),
        deg: Number.isNaN(geo.degrees) ? '\\text{—}' : tex(geo.degrees, { digits: 1 }),
        terms: qv.map((x, j) => `${texFactor(x)}\\cdot${texFactor(kv[j])}`).join(' + '),
      };

      // the experiment at the chosen d_k: what SYNC allows now, the rest in slices
      if (s.seed !== lastSeed) aheadTo = 0;
      else if (s.count > lastCount) aheadTo = Math.max(aheadTo, Math.min(COUNT_MAX, s.count + AHEAD));
      lastSeed = s.seed;
      lastCount = s.count;
      const chosen = drawOf(s, dk);
      if (chosen.n < s.count) grow(chosen, s.count, SYNC);
      chosenPartial = chosen.n < s.count;
      const r = chosenPartial ? sampleOf(chosen, chosen.n) : entry(s, dk).r;
      // the d_k whose draws hold this many rows already: their first rows, now
      for (const e of SWEEP) if (ready(s, 2 ** e)) entry(s, 2 ** e);
      const sw = have(s);
      const complete = sw.length === SWEEP.length;
      sweepComplete = complete;
      sweepPlot.el.dataset.complete = String(complete);
      gSweep.el.dataset.complete = String(complete);
      setData(sweepPlot.el, 'drawn', String(drawn));
      setData(stats, 'complete', String(!chosenPartial));
      if (!complete || chosenPartial || ahead(s) !== undefined) fillSweep();
      const sc = attn.scoreScale(dk);
      const span = 4 * sc.sqrtDk;
      const bars = (h) => h.counts.map((c, i) => ({ x0: h.edges[i], x1: h.edges[i + 1], y: c }));
      const hr = attn.histogram(r.dots, { bins: 32, lo: -span, hi: span });
      const hs = attn.histogram(r.scaled, { bins: 32, lo: -4, hi: 4 });
      histRaw.update({ bars: bars(hr), summary: tr('histSummary', { n: r.count }) });
      histScaled.update({ bars: bars(hs).map((b) => ({ ...b, color: '#2e8b6e' })), summary: tr('histSummary', { n: r.count }) });
      const statVars = {
        dk, n: r.count, seed: s.seed,
        varRaw: tex(r.raw.variance, { digits: 1 }), stdRaw: tex(r.raw.std, { digits: 2 }),
        varScaled: tex(r.normalized.variance, { digits: 3 }), stdScaled: tex(r.normalized.std, { digits: 3 }),
        expected: tex(r.expectedVariance), sqrt: tex(sc.sqrtDk, { digits: 1 }),
      };
      const pendingVars = { n: r.count, count: s.count, dk };

      // the sweep
      sweepPlot.update({
        series: [
          { name: tr('seriesTheory'), points: sw.map((x) => [x.dk, x.r.expectedVariance]), dashed: true, color: '#555b66' },
          { name: tr('seriesRaw'), points: sw.map((x) => [x.dk, x.r.raw.variance]), kind: 'points' },
          { name: tr('seriesSqrt'), points: sw.map((x) => [x.dk, x.r.normalized.variance]), kind: 'points' },
          { name: tr('seriesDk'), points: sw.map((x) => [x.dk, x.byDk.variance]), kind: 'points' },
        ],
        marks: [{ x: dk, y: r.raw.variance, r: 7, color: 'none' }],
        summary: tr('sweepSummary'),
        message: complete ? '' : tr('sweepPending'),
      });
      // The table lists the d_k sampled so far, in order (the chosen one may run ahead).
      const rowsDone = [];
      for (const x of SWEEP.map((e) => 2 ** e)) {
        const got = sw.find((y) => y.dk === x);
        if (!got) break;
        rowsDone.push(got);
      }
      const table = attn.matrix(rowsDone.length, 5);
      rowsDone.forEach((x, i) => table.data.set([x.sqrt, x.r.raw.std, x.r.raw.variance, x.r.normalized.variance, x.byDk.variance], i * 5));
      gSweep.update(table);
      gSweep.highlight({ rows: [SWEEP.indexOf(s.dkExp)] });

      // saturation
      const eff = attn.scalingEffect(s.S, sc.factor);
      const over = attn.scalingEffect(s.S, 1 / dk);
      rows.raw.x.update(s.S);
      rows.raw.p.update(eff.weights);
      rows.raw.g.update(eff.grad);
      rows.sqrt.x.update(eff.scaled);
      rows.sqrt.p.update(eff.weightsScaled);
      rows.sqrt.g.update(eff.gradScaled);
      rows.dk.x.update(over.scaled);
      rows.dk.p.update(over.weightsScaled);
      rows.dk.g.update(over.gradScaled);
      const top = eff.top.data[0];
      for (const row of Object.values(rows)) row.g.select(0, top);
      const ratio = eff.ratio.data[0];
      const satVars = {
        top: top + 1,
        g0: small(eff.gradTop.data[0], 6), g1: fmt(eff.gradTopScaled.data[0], { digits: 4 }),
        g0r: fmt(eff.gradTop.data[0], { digits: 4 }), g1r: fmt(eff.gradTopScaled.data[0], { digits: 3 }),
        ratio: Number.isFinite(ratio) ? fmt(ratio, { digits: ratio >= 100 ? 0 : 2 }) : '∞',
        // as the first and second lines print them
        p0: tex(at(eff.weights, 0, top), { digits: 7 }), p1: tex(at(eff.weightsScaled, 0, top), { digits: 3, fixed: true }),
        dk,
      };
      // The third line (÷ d_k): its range of scores, largest and smallest weight, their ratio.
      const w3 = rowOf(over.weightsScaled, 0), s3 = rowOf(over.scaled, 0);
      const pmax = Math.max(...w3), pmin = Math.min(...w3);
      const wratio = pmin > 0 ? pmax / pmin : Infinity;
      const wratioText = fmt(wratio, { digits: wratio >= 100 ? 0 : 2 });
      dkUniform = Number(wratioText) <= UNIFORM; // decided on the ratio as printed
      const w3Text = (x) => tex(x, { digits: 3, fixed: true }); // as the third line prints them
      const dkVars = {
        dk, p1: satVars.p1, pmax: w3Text(pmax), pmin: w3Text(pmin), wratio: wratioText, tol: fmt(UNIFORM, { digits: 2 }),
        lo: tex(Math.min(...s3), { digits: 3 }), hi: tex(Math.max(...s3), { digits: 3 }),
      };
      const sqrtMax = attn.scoreScale(2 ** SWEEP.at(-1)).sqrtDk;
      const pushVars = {
        sqrt: tex(sc.sqrtDk, { digits: 1 }), sqrtMax: tex(sqrtMax, { digits: 1 }), dkMax: 2 ** SWEEP.at(-1),
        times: fmt(sqrtMax / sc.sqrtDk, { digits: 2 }),
      };
      return { geoVars, statVars, pendingVars, sc, satVars, dkVars, pushVars };
    });
    // Printing draws the whole sweep (after start: a chapter mounted while the page prints
    // gets this at once).
    onPrint(() => {
      wanted = true;
      const s = state();
      entry(s, dkOf(s));
      for (let dk = missingDk(s); dk !== undefined; dk = missingDk(s)) entry(s, dk);
      k.render();
    });
  },
};
