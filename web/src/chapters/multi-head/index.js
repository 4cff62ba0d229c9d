// Chapter "Multi-head attention end to end" (sources: seeds/000, seeds/001 last section,
// seeds/002): X → Q, K, V → split into h heads of d_h = d_model / h contiguous columns
// → attention per head → concat → W_O → output, continuing the core-attention example
// (T = 3, d = 8, h = 2) with explicit, constructed X and weights; the learner picks h
// among the divisors of d_model. Then the original model's arithmetic (d_model = 512,
// h = 8, d_k = 64) from the core's cost model. Every number comes from the core.
import { exampleKit } from '../../kit/kit.js';
import { setText, rebuild } from '../../kit/prose.js';
import { choice, tintColumns, divisors, foldForPrint } from '../../kit/controls.js';
import { tex } from '../../format.js';
import { rowOf } from '../../matrix.js';
import narrative from './narrative.js';

const ID = 'multi-head';
const MAX_HEADS_LISTED = 64;

export default {
  id: ID,
  mount(section, ctx) {
    const { attn } = ctx;
    const k = exampleKit(section, ctx, ID, (ex) => ({
      X: ex.X, Wq: ex.Wq, Wk: ex.Wk, Wv: ex.Wv, Wo: ex.Wo, heads: ex.heads, causal: true,
      n: 512, dModel: 512, costHeads: 8,
    }), { quotes: 'core-attention' }); // (head 1 is core-attention's head: the values its exercise hides are covered here)
    const { el, text, tr, state, ex, tok, comp } = k;
    const T = ex.tokens;
    const d = ex.dModel;
    const vec = (xs, o) => `[${xs.map((x) => tex(x, o)).join(',\\ ')}]`;
    const w3 = { digits: 3, fixed: true };
    const dims = (s = state(), r = null) => ({ T, d, h: s.heads, dh: r ? r.dh : '', scale: r ? tex(r.t.heads[0].scale) : '' });

    const g = {}; // the computed grids, by name, filled by the figures below
    const gW = {};
    let gX, heads, costHeads, cards, costCap, costHead, costBody;
    let costTableKey = ''; // what the cost table shows (its words and numbers)
    // One card per head index, built the first time h reaches it and kept: a new h takes
    // cards 1..h (P_i keeps its T × T table, O_i adds or drops columns as d_h changes)
    // instead of building every card's grids anew (≈ 200 grid nodes per edit at h = 8).
    const pool = [];
    function card(i) {
      const box = el('div', `head-card head-${i % 4}`, null); // (out of the page until shown)
      box.dataset.head = String(i);
      const title = el('h4', 'flow-title', box);
      const row = el('div', 'grid-row compact', box);
      const P = k.grid({
        caption: () => `P_{${i + 1}}`, ariaLabel: () => tr('gridPHead', { n: i + 1 }), rowLabel: (r) => `q${r + 1}`,
        colLabel: (c) => `k${c + 1}`, color: 'weights', digits: 3, fixed: true, testId: `mh-P${i + 1}`,
      });
      const O = k.grid({
        caption: () => `O_{${i + 1}}`, ariaLabel: () => tr('gridOHead', { n: i + 1 }), rowLabel: tok,
        colLabel: comp, digits: 2, testId: `mh-O${i + 1}`,
      });
      row.append(P.el, O.el);
      return { box, title, P, O };
    }
    // Cards 1..h in the page, in order (those shown are always a prefix of the pool); returns
    // the cards just put back, which are drawn at once (a card out of the page counted as far
    // from the screen, and its grids would wait for the observer's next look).
    function showCards(h) {
      while (pool.length < h) pool.push(card(pool.length));
      for (const c of pool.slice(h)) if (c.box.parentNode) c.box.remove();
      const added = pool.slice(0, h).filter((c) => c.box.parentNode !== cards);
      cards.append(...added.map((c) => c.box));
      return added;
    }
    // The cards not shown yet are built while the page is idle, one per idle slice, out of
    // the page, with the core's numbers for the largest h (so the first switch to a larger h
    // builds nothing: it was that edit's slowest part). A card put in later is drawn anew.
    const idle = (fn) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(fn, { timeout: 3000 }) : setTimeout(fn, 200));
    let warmed = false;
    function warm() {
      const s = state();
      const hMax = divisors(s.X.cols).at(-1);
      if (pool.length >= hMax) {
        cards.dataset.built = 'all'; // (for the tests: every card of the largest h is built)
        return;
      }
      const t = attn.multiHeadAttention(s.X, { Wq: s.Wq, Wk: s.Wk, Wv: s.Wv, Wo: s.Wo, heads: hMax, causal: s.causal });
      const c = card(pool.length);
      c.P.update(t.heads[pool.length].weights);
      c.O.update(t.heads[pool.length].output);
      pool.push(c);
      idle(warm);
    }
    // The continuity with the core-attention chapter holds for the example's numbers here
    // (X and the weights that make head 1; h and the mask) and there: the sentence says
    // which side differs, and follows both.
    const same = (a, b) => a.rows === b.rows && a.cols === b.cols && a.data.every((x, i) => Object.is(x, b.data[i]));
    const continuity = (s) => {
      if (s.heads !== ex.heads || !s.causal) return 'continuedOff';
      if (!['X', 'Wq', 'Wk', 'Wv'].every((n) => same(s[n], ex[n]))) return 'continuedEdited';
      return ctx.host?.differsFromDefaults?.('core-attention') ? 'continuedThere' : 'continued';
    };
    // A new d_model keeps the h the learner chose when it still divides, else the largest
    // divisor below it; the chosen h is remembered while d_model is typed digit by digit
    // (512 → 7 → 76 → 768 gives h = 7, 4, then 8 again, not 4), until h is set otherwise
    // (the learner's pick, a reset, a permalink).
    let wantHeads = null, patchedHeads = null;

    // The figures, each built in its place in narrative.js.
    const figures = {
      controls(parent) {
        const controls = el('div', 'controls', parent);
        const causal = k.toggle('causal', 'causalToggle', controls);
        causal.box.dataset.control = 'mh-causal';
        k.button('common.reset', k.reset, controls, 'reset');
      },
      inputs(parent) {
        gX = k.editable('X', { caption: () => 'X', ariaLabel: () => 'X', rowLabel: tok, colLabel: comp, testId: 'mh-X' });
        parent.append(gX.el);
        const details = foldForPrint(el('details', 'weights-details', parent));
        text('summary', 'weightsSummary', details);
        const wRow = el('div', 'grid-row', details);
        for (const [name, cap] of [['Wq', 'W_Q'], ['Wk', 'W_K'], ['Wv', 'W_V'], ['Wo', 'W_O']]) {
          gW[name] = k.editable(name, { caption: () => cap, ariaLabel: () => cap.replace('_', ''), rowLabel: comp, colLabel: comp, testId: `mh-${name}` });
          wRow.append(gW[name].el);
        }
      },
      heads(parent) {
        heads = choice(k, 'heads', {
          labelKey: 'headsLabel', testId: 'mh-heads', parent,
          options: (s) => divisors(s.X.cols).map((h) => ({ value: h, text: `h = ${h}` })),
        });
      },
      projections(parent) {
        const rowQKV = el('div', 'grid-row', parent);
        for (const name of ['Q', 'K', 'V']) {
          g[name] = k.grid({ caption: () => `${name} = X W_${name}`, ariaLabel: () => name, rowLabel: tok, colLabel: comp, color: 'none', testId: `mh-${name}` });
          rowQKV.append(g[name].el);
        }
      },
      cards(parent) {
        cards = el('div', 'head-cards', parent);
        cards.dataset.heads = 'mh';
      },
      concat(parent) {
        const rowH = el('div', 'grid-row', parent);
        g.H = k.grid({ caption: () => 'H = [\\,O_1 \\mid \\cdots \\mid O_h\\,]', ariaLabel: () => tr('gridH'), rowLabel: tok, colLabel: comp, digits: 2, testId: 'mh-H' });
        g.Wo = k.grid({ caption: () => 'W_O', ariaLabel: () => 'WO', rowLabel: comp, colLabel: comp, color: 'none', testId: 'mh-Wo-2' });
        g.Y = k.grid({ caption: () => 'H W_O', ariaLabel: () => tr('gridY'), rowLabel: tok, colLabel: comp, digits: 2, testId: 'mh-Y' });
        rowH.append(g.H.el, g.Wo.el);
        rowH.append(g.Y.el); // its caption says H W_O; no '=' so that it fits 360 px
      },
      costControls(parent) {
        const costControls = el('div', 'controls', parent);
        k.number('n', 'nLabel', { min: 1, max: 1e6, parent: costControls, testId: 'mh-n' });
        k.number('dModel', 'dModelLabel', {
          min: 1, max: 65536, parent: costControls, testId: 'mh-dmodel',
          patchFor: (v) => {
            const want = wantHeads ?? state().costHeads;
            patchedHeads = divisors(v).filter((h) => h <= Math.min(want, MAX_HEADS_LISTED)).at(-1);
            return { dModel: v, costHeads: patchedHeads };
          },
        });
        costHeads = choice(k, 'costHeads', {
          labelKey: 'costHeadsLabel', testId: 'mh-cost-heads', parent,
          options: (s) => divisors(s.dModel).filter((h) => h <= MAX_HEADS_LISTED).map((h) => ({ value: h, text: String(h) })),
        });
      },
      costTable(parent) {
        ({ caption: costCap, head: costHead, body: costBody } = k.table(parent, 'cost-table', 'cost'));
      },
    };
    k.narrative(narrative, {
      figures,
      vars: {
        dims: (s, r) => dims(s, r),
        continuity: (s, r) => ({
          p3: r && r.t.heads.length > 1 ? vec(rowOf(r.t.heads[0].weights, 2), w3) : '',
          o3: r && r.t.heads.length > 1 ? vec(rowOf(r.t.heads[0].output, 2), w3) : '', h: ex.heads,
        }),
        // The heading's figures follow the fields below it.
        cost: (s, r) => ({ dk: r ? r.cost.dHead : '', dModel: s.dModel, costHeads: s.costHeads, n: s.n }),
        costNote: (s, r) => (r ? { flops: r.flops, memLo: r.memLo, memHi: r.memHi, hMax: r.hMax } : {}),
      },
      choose: {
        continuity,
        costTitle: (s) => (s.dModel === 512 && s.costHeads === 8 ? 'costTitle' : 'costTitleOther'),
      },
    });

    // Korean and English group digits alike (1,234.56): one en-US format serves both (a
    // ko-KR one costs ~25 ms to create the first time, on the chapter's first render).
    const format = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
    const num = (x) => format.format(x);
    // Decimal megabytes with the binary figure beside (1 MB = 10⁶ B, 1 MiB = 2²⁰ B).
    const mb = (bytes) => `${num(bytes / 1e6)} MB (${num(bytes / 2 ** 20)} MiB)`;
    const cell = (tag, txt, parent) => {
      const c = document.createElement(tag);
      setText(c, txt);
      parent.append(c);
      return c;
    };

    k.start((s) => {
      heads.sync(s);
      costHeads.sync(s);
      if (s.costHeads !== patchedHeads) [wantHeads, patchedHeads] = [s.costHeads, null];
      gX.update(s.X);
      for (const name of Object.keys(gW)) gW[name].update(s[name]);
      const t = attn.multiHeadAttention(s.X, { Wq: s.Wq, Wk: s.Wk, Wv: s.Wv, Wo: s.Wo, heads: s.heads, causal: s.causal });
      const dh = attn.splitHeads(t.q, s.heads)[0].cols; // d_h as the core split it
      const headOf = (j) => Math.floor(j / dh);
      for (const name of ['Q', 'K', 'V']) {
        g[name].update(t[name.toLowerCase()]);
        tintColumns(g[name], headOf);
      }
      const added = showCards(s.heads);
      if (!warmed) {
        warmed = true;
        idle(warm);
      }
      t.heads.forEach((tr_, i) => {
        const c = pool[i];
        setText(c.title, tr(dh === 1 ? 'headCardOne' : 'headCard', { n: i + 1, a: i * dh + 1, b: (i + 1) * dh }));
        c.P.update(tr_.weights);
        c.O.update(tr_.output);
      });
      for (const c of added) {
        c.P.flush();
        c.O.flush();
      }
      g.H.update(t.concat);
      tintColumns(g.H, headOf);
      g.Wo.update(s.Wo);
      g.Y.update(t.output);

      // The cost model, one row per number of heads that divides d_model.
      const cost = attn.cost({ n: s.n, dModel: s.dModel, heads: s.costHeads });
      const hs = divisors(s.dModel).filter((h) => h <= MAX_HEADS_LISTED);
      const rows = hs.map((h) => ({ h, c: attn.cost({ n: s.n, dModel: s.dModel, heads: h }) }));
      setText(costCap, tr('costCaption', { n: num(s.n), dModel: num(s.dModel) }));
      // (rebuilt only when its words or numbers changed: most edits leave the table as it is)
      const colNames = ['colHeads', 'colDh', 'colAttention', 'colProjections', 'colLayer', 'colMemory'].map((key) => tr(key));
      const body = rows.map(({ h, c }) => [h, num(c.dHead), num(c.flopsAttention), num(c.flopsProjections), num(c.flopsLayer), mb(c.bytesPerLayer)]);
      const tableKey = JSON.stringify([colNames, body, s.costHeads]);
      if (tableKey !== costTableKey) {
        costTableKey = tableKey;
        rebuild(costHead, (into) => {
          for (const text of colNames) cell('th', text, into).scope = 'col';
        });
        rebuild(costBody, (into) => {
          for (const [h, ...values] of body) {
            const r = document.createElement('tr');
            if (h === s.costHeads) r.className = 'current';
            r.dataset.heads = String(h);
            cell('th', String(h), r).scope = 'row';
            for (const v of values) cell('td', v, r);
            into.append(r);
          }
        });
      }
      const lo = rows[0].c, hi = rows.at(-1).c;
      return {
        t, dh, cost, flops: num(cost.flopsLayer), memLo: mb(lo.bytesPerLayer), memHi: mb(hi.bytesPerLayer), hMax: rows.at(-1).h,
      };
    });
    // the continuity sentence follows the core-attention chapter's numbers too
    let coreSlice = ctx.store.get()['core-attention'];
    ctx.store.subscribe((all) => {
      if (all['core-attention'] === coreSlice) return;
      coreSlice = all['core-attention'];
      k.render();
    });
  },
};
