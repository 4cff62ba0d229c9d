// Chapter "The cost of n²" (source: seeds/001, section "n² 비용"): the complexity table
// for the learner's n, d, h; the attention-matrix memory calculator; n²·d against n·d²
// with the crossover at n = d; a live run of the plain and the tiled kernel over h heads,
// spread over a pool of Web Workers (time and memory against n); the maximum path length.
// Every figure comes from the core: the cost model (attn.cost) or measurements of the
// core's kernels (run in web/src/workers/cost-run.js, one core per worker of
// web/src/workers/pool.js).
import { chapterKit } from '../../kit/kit.js';
import { createPool, defaultPoolSize } from '../../workers/pool.js';
import { setText } from '../../kit/prose.js';
import { fmt, fmtBytes, fmtCount, fmtSI } from '../../format.js';
import narrative from './narrative.js';

const ID = 'cost';
const LIVE_D_HEAD = 64;
const LIVE_MAX_N = [4096, 8192, 16384, 32768];
const LIVE_HEADS = [1, 2, 4, 8, 16];
// Workers offered: 1 up to the logical cores the browser reports (at most 16).
const LIVE_WORKERS = Array.from({ length: defaultPoolSize() }, (_, i) => i + 1);
// By default one worker fewer than the browser reports cores (at least one): the page's own
// thread keeps a core. With a worker on every core, the page's frames waited for the workers
// (gaps of 70–150 ms at n = 16,384 on 2 cores; under 40 ms with one worker: docs/benchmarks.md).
const LIVE_WORKERS_DEFAULT = Math.max(1, LIVE_WORKERS.length - 1);
const pow2 = (lo, hi) => {
  const out = [];
  for (let v = lo; v <= hi; v *= 2) out.push(v);
  return out;
};
const nTick = (v) => (v >= 1024 ? `${v / 1024}K` : String(v));

export default {
  id: ID,
  mount(section, ctx) {
    const { attn } = ctx;
    const k = chapterKit(section, ctx, ID, () => ({
      n: 1024, dModel: 512, heads: 8, // the complexity table and the crossover
      memN: 8192, memHeads: 12, layers: 12, bytes: 2, // the memory calculator (the document's example)
      liveMaxN: 32768, liveHeads: 8, liveCausal: false, live: null, // the live run
      liveWorkers: LIVE_WORKERS_DEFAULT, // one core left to the page (above)
    }), { transient: ['live', 'liveWorkers'] }); // a measurement (and a core count) belongs to this browser and this moment, not to a link
    const { el, text, tr, state, patch } = k;
    const T = (tag, key, parent, cls) => text(tag, key, parent, (s, r) => r?.vars ?? {}, cls);

    // h must divide d_model (d_h = d_model / h): said at the field being edited, and the
    // value is not taken, so the table never meets a combination the core rejects.
    const divides = (d, h, key) => (d % h === 0 ? null : tr(key, { d: fmtCount(d), h: fmtCount(h) }));
    // A link may ask for a largest n or a number of heads the selects do not offer: the
    // nearest offered value (on a log scale) is selected at once, so the select shows what
    // Run will do, and the status line says what the link asked for until a run or a pick.
    const nearest = (values, v) => values.reduce((a, b) => (Math.abs(Math.log2(b / v)) < Math.abs(Math.log2(a / v)) ? b : a));
    let linkAsked = null; // [[key, asked, used], ...]
    {
      const s = state();
      const fixes = [['liveMaxN', LIVE_MAX_N], ['liveHeads', LIVE_HEADS]].filter(([key, values]) => !values.includes(s[key]))
        .map(([key, values]) => [key, s[key], Number(s[key]) > 0 ? nearest(values, Number(s[key])) : values[0]]);
      if (fixes.length) {
        linkAsked = fixes;
        patch(Object.fromEntries(fixes.map(([key, , used]) => [key, used])));
      }
    }
    let crossX, crossPlot, liveSettings, runBtn, cancelBtn, progress, clock, timeX, memX, timePlot, memPlot, liveWrap, liveBody;
    // The figures, each built in its place in narrative.js.
    const figures = {
      // ---- 1. two matrix products: the complexity table ------------------------------------
      sizes(parent) {
        const controls = el('div', 'controls cost-controls', parent);
        k.number('n', 'nLabel', { min: 1, max: 1 << 20, parent: controls });
        k.number('dModel', 'dLabel', { min: 1, max: 65536, parent: controls,
          check: (v) => divides(v, state().heads, 'dModelNotMultiple') });
        k.number('heads', 'hLabel', { min: 1, max: 1024, parent: controls,
          check: (v) => divides(state().dModel, v, 'headsNotDivisor') });
      },
      complexity(parent) {
        const tableWrap = el('div', 'table-scroll', parent);
        const table = el('table', 'complexity-table stack', tableWrap);
        table.dataset.table = 'complexity';
        table.setAttribute('role', 'table'); // explicit roles: the phone layout restyles the rows as grids
        // The caption sits above the table as a paragraph that names it (narrative.js): under
        // explicit table roles, the maths in a <caption> would count as a child the table may
        // not have.
        table.setAttribute('aria-labelledby', `${ID}-complexity-caption`);
        const thead = el('thead', '', table);
        thead.setAttribute('role', 'rowgroup');
        const hr = el('tr', '', thead);
        hr.setAttribute('role', 'row');
        for (const key of ['thOp', 'thComplexity', 'thResult', 'thYours']) {
          const th = T('th', key, hr);
          th.scope = 'col';
          th.setAttribute('role', 'columnheader');
        }
        const tbody = el('tbody', '', table);
        tbody.setAttribute('role', 'rowgroup');
        for (const row of ['QK', 'PV', 'Stored', 'Path', 'Proj']) {
          const tr_ = el('tr', row === 'Proj' ? 'aside' : '', tbody);
          tr_.dataset.row = row;
          tr_.setAttribute('role', 'row');
          const th = T('th', `row${row}`, tr_);
          th.scope = 'row';
          th.setAttribute('role', 'rowheader');
          for (const key of [`cx${row}`, `size${row}`, `yours${row}`]) T('td', key, tr_, key.startsWith('yours') ? 'num' : '').setAttribute('role', 'cell');
        }
      },
      // ---- 2. n²·d against n·d² ---------------------------------------------------------------
      crossover(parent) {
        crossX = { label: () => tr('crossX'), type: 'log', tickFormat: nTick, ticks: [] };
        crossPlot = k.plot({
          title: () => tr('crossPlotTitle'),
          x: crossX,
          y: { label: () => tr('crossY'), type: 'log', tickFormat: (v) => `10${sup(Math.log10(v))}` },
          testId: 'crossover',
        });
        parent.append(crossPlot.el);
      },
      // ---- 3. memory of the attention matrix ---------------------------------------------------
      memory(parent) {
        const memControls = el('div', 'controls cost-controls', parent);
        k.number('memN', 'memNLabel', { min: 1, max: 1 << 22, parent: memControls });
        k.number('memHeads', 'memHeadsLabel', { min: 1, max: 1024, parent: memControls });
        k.number('layers', 'layersLabel', { min: 1, max: 1024, parent: memControls });
        k.number('bytes', 'bytesLabel', { min: 1, max: 8, parent: memControls });
        const dl = el('dl', 'cost-figures', parent);
        dl.dataset.figures = 'memory';
        for (const key of ['Entries', 'Matrix', 'Layer', 'Total']) {
          T('dt', `mem${key}Label`, dl);
          const dd = T('dd', `mem${key}`, dl);
          dd.dataset.figure = key.toLowerCase();
        }
      },
      // ---- 4. the live run ------------------------------------------------------------------
      live(parent) {
        const liveControls = el('div', 'controls live-controls', parent);
        for (const [key, label, values, current] of [
          ['liveMaxN', 'liveMaxLabel', LIVE_MAX_N],
          ['liveHeads', 'liveHeadsLabel', LIVE_HEADS],
          ['liveWorkers', 'liveWorkersLabel', LIVE_WORKERS, (s) => Math.min(s.liveWorkers, LIVE_WORKERS.length)],
        ]) k.select(key, label, values, { parent: liveControls, cls: 'number', format: fmtCount, current });
        k.toggle('liveCausal', 'liveCausalLabel', liveControls);
        // The run's settings wait while it runs (a change would only count for the next run);
        // a control the widget made read-only stays so.
        liveSettings = [...liveControls.querySelectorAll('select, input')].map((c) => [c, c.disabled]);
        runBtn = k.button('liveRun', () => startRun(), liveControls, 'run');
        runBtn.dataset.action = 'run';
        cancelBtn = k.button('liveCancel', () => cancelRun(), liveControls, 'cancel');
        cancelBtn.dataset.action = 'cancel';
        const progressRow = el('div', 'live-progress', parent);
        progress = el('progress', '', progressRow);
        progress.max = 1;
        progress.value = 0;
        progress.id = `${ID}-progress`;
        const status = T('p', (s) => (s.live || !linkAsked ? `liveStatus_${s.live?.status ?? 'idle'}` : 'liveLinkAdjusted'), progressRow, 'live-status');
        status.setAttribute('role', 'status');
        status.setAttribute('aria-live', 'polite');
        // (how far the run is and how long the current size has been running: it moves while
        // a call of several seconds runs; not a live region, which would speak every second)
        clock = el('p', 'live-clock', progressRow);
        clock.hidden = true;
        const plots = el('div', 'plot-row', parent);
        const liveXAxis = () => ({ label: () => tr('liveX'), type: 'log', tickFormat: nTick, ticks: pow2(256, 32768) });
        timeX = liveXAxis();
        memX = liveXAxis(); // their domain: the run's sizes (drawLive)
        timePlot = k.plot({
          title: () => tr('timePlotTitle'),
          x: timeX,
          y: { label: () => tr('timeY'), type: 'log', tickFormat: (v) => fmt(v, { digits: 3 }) },
          testId: 'live-time',
        });
        memPlot = k.plot({
          title: () => tr('memPlotTitle'),
          x: memX,
          y: { label: () => tr('memY'), type: 'log', tickFormat: (v) => fmtBytes(v).replace(/ \(.*\)$/, '').replace(/\.0+ /, ' ') },
          testId: 'live-memory',
        });
        plots.append(timePlot.el, memPlot.el);
        liveWrap = el('div', 'table-scroll', parent);
        const liveTable = el('table', 'complexity-table live-table', liveWrap);
        liveTable.dataset.table = 'live';
        T('caption', 'liveTableCaption', liveTable);
        const lhr = el('tr', '', el('thead', '', liveTable));
        for (const key of ['thN', 'thPlainTime', 'thPlainMem', 'thTiledTime', 'thTiledMem']) T('th', key, lhr).scope = 'col';
        liveBody = el('tbody', '', liveTable);
      },
    };
    k.narrative(narrative, { figures });

    // ---- the worker pool ---------------------------------------------------------------------
    // Without the causal mask the pool splits query rows when the heads do not divide evenly
    // (h = 1 too); with it, a whole head is the unit of work: no more workers than heads.
    const workersFor = (s, heads) => (s.liveCausal ? Math.min(s.liveWorkers, heads) : s.liveWorkers);
    // After the next frame is painted (or 100 ms, where a hidden page paints none).
    const nextFrame = () => new Promise((resolve) => {
      const timer = setTimeout(resolve, 100);
      requestAnimationFrame(() => setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0));
    });
    // Each size and kernel is one call of the pool: the h heads split over its workers. The
    // inputs (seeded per head) are drawn by the workers themselves and stay there for both
    // kernels (pool.draw): the page's thread makes and sends nothing of size n x d, so it
    // stays free to paint however large n is.
    let run = null; // {pool} of the run in progress
    const live = () => state().live;
    const setLive = (p) => patch({ live: { ...live(), ...p } });
    function plannedFlops(sizes, heads) {
      return sizes.map((n) => heads * attn.cost({ n, dModel: LIVE_D_HEAD, heads: 1 }).flopsAttention);
    }
    async function startRun() {
      cancelRun(true);
      const s = state();
      const heads = LIVE_HEADS.includes(s.liveHeads) ? s.liveHeads : 8; // a link may carry anything
      if (!LIVE_MAX_N.includes(s.liveMaxN)) { // so may its n: said here, before any n x n buffer is made
        const message = tr('liveMaxNBad', { n: fmtCount(s.liveMaxN), list: LIVE_MAX_N.map(fmtCount).join(', ') });
        patch({ live: { sizes: [], flops: [], heads, workers: 0, results: [], current: null, failed: null, done: 0, total: 1, status: 'error', message } });
        return;
      }
      const sizes = pow2(256, s.liveMaxN);
      const flops = plannedFlops(sizes, heads);
      const base = { sizes, flops, heads, workers: 0, results: [], current: null, failed: null, message: '', done: 0, total: 2 * flops.reduce((a, b) => a + b, 0) };
      const me = {};
      try {
        me.pool = createPool({ url: new URL('./cost-run.js', import.meta.url), size: workersFor(s, heads), maxRows: s.liveMaxN });
      } catch (e) {
        patch({ live: { ...base, status: 'error', message: failure(e), total: 1 } });
        return;
      }
      run = me;
      patch({ live: { ...base, status: 'loading', workers: me.pool.size } });
      const alive = () => run === me && (section.isConnected || (finish('cancelled'), false));
      try {
        await me.pool.ready();
        if (!alive()) return;
        setLive({ status: 'running' });
        clearInterval(clockTimer);
        clockTimer = setInterval(() => (run === me ? drawClock() : clearInterval(clockTimer)), 1000);
        let plainFits = true;
        for (const n of sizes) {
          await me.pool.draw({ rows: n, cols: LIVE_D_HEAD, heads, seed: 1, causal: s.liveCausal });
          if (!alive()) return;
          for (const kernel of ['plain', 'tiled']) {
            if (kernel === 'plain' && !plainFits) continue;
            partial = 0;
            stepStart = performance.now();
            setLive({ current: { n, kernel } });
            let best = null;
            try {
              // Best of up to 3 calls while they are short (< 30 ms in all), one otherwise.
              for (let rep = 0, spent = 0; rep < 3 && (rep === 0 || spent < 30); rep++) {
                // The page paints its progress first, so that its painting does not take a
                // core from the workers during the call (2 workers on 2 cores have none to spare).
                await nextFrame();
                if (!alive()) return;
                // Timings only: the h outputs (n x 64 each, 64 MB at n = 32K) stay in the
                // workers, so the page's thread receives, holds and collects none of them.
                const r = await me.pool.attention({
                  kernel, causal: s.liveCausal, outputs: false,
                  onProgress: (f) => {
                    if (run !== me || f <= partial) return;
                    partial = f;
                    drawClock();
                  },
                });
                if (!alive()) return;
                spent += r.ms;
                if (!best || r.ms < best.ms) best = r;
              }
            } catch (e) {
              if (!alive()) return;
              if (kernel !== 'plain' || e.kind !== 'SizeError') throw e;
              // The plain kernel will not run again: drop its remaining work from the total.
              plainFits = false;
              partial = 0;
              const L = live();
              const rest = L.sizes.filter((m) => m >= n).reduce((a, m) => a + L.flops[L.sizes.indexOf(m)], 0);
              setLive({ failed: { n, message: failure(e) }, total: L.total - rest });
              continue;
            }
            const L = live();
            partial = 0; // (now counted in done: the bar must not count it twice, then step back)
            setLive({
              results: [...L.results, { n, kernel, ms: best.ms, bytes: Math.max(...best.heads.map((x) => x.workBytes)), workers: best.workers, core: Math.max(...best.timing.map((t) => t.core)) }],
              done: L.done + L.flops[L.sizes.indexOf(n)],
            });
          }
        }
        finish('done');
      } catch (e) {
        if (run === me) finish('error', failure(e));
      }
    }
    function finish(statusName, message = '') {
      clearInterval(clockTimer);
      const pool = run?.pool;
      run = null;
      setLive({ status: statusName, current: null, message });
      // Then the workers are stopped, which frees their wasm memory (the plain kernel's n × n
      // buffers, a GB each at n = 16,384): once the page has drawn the result, one worker at a
      // time. While a worker frees that much, the page's own garbage collection waits on the
      // process's memory map (traced: an 80 ms scavenge with 14 ms of CPU when it fell there).
      if (pool) setTimeout(() => pool.terminate({ stagger: 1000 }), 1000);
    }
    function cancelRun(silent = false) {
      clearInterval(clockTimer);
      if (!run) return;
      run.pool.terminate();
      run = null;
      if (!silent) setLive({ status: 'cancelled', current: null });
    }
    addEventListener('pagehide', () => cancelRun(true));

    // A pool's error in the page's words where the pool says what failed (a worker whose
    // script did not load: a widget's folder without cost-run.js), else its own message.
    const failure = (e) => ('script' in (e ?? {}) ? tr('liveWorkerScript', { n: e.worker, file: e.script ?? '' })
      : e?.file ? tr('liveWorkerCore', { n: e.worker, file: e.file })
      : e?.message || tr('liveWorkerFailed'));

    // ---- drawing ------------------------------------------------------------------------------
    // The progress bar and the line under it: the work of the sizes done, plus the part of
    // the current call's heads its workers have finished (pool.js onProgress), and the
    // seconds the current size has been running (every second, while a run runs).
    let partial = 0, stepStart = 0, clockTimer = 0;
    function drawClock() {
      const L = live();
      const current = L?.status === 'running' ? L.current : null;
      const now = current ? partial * (L.flops[L.sizes.indexOf(current.n)] ?? 0) : 0;
      const f = L ? Math.min(1, (L.done + now) / L.total) : 0;
      if (progress.value !== f) progress.value = f;
      if (clock.hidden !== !current) clock.hidden = !current;
      // (hidden, it holds no text: no stale "0 s so far" for a reader of the DOM)
      if (current) setText(clock, tr('liveClock', { livePercent: Math.floor(100 * f), liveSeconds: fmtCount(Math.floor((performance.now() - stepStart) / 1000)) }));
      else setText(clock, '');
    }
    function drawLive(s) {
      const L = s.live;
      // (a button disabled under the keyboard's focus drops it to the page's top: the focus
      // moves to the other one, Run ↔ Cancel, as a run starts or ends)
      const focused = runBtn.getRootNode().activeElement;
      runBtn.disabled = !!run;
      cancelBtn.disabled = !run;
      if (focused === cancelBtn && !run) runBtn.focus();
      else if (focused === runBtn && run) cancelBtn.focus();
      for (const [c, readOnly] of liveSettings) c.disabled = readOnly || !!run;
      progress.setAttribute('aria-label', tr('liveProgress'));
      drawClock();
      const results = L?.results ?? [];
      const by = (kernel) => results.filter((r) => r.kernel === kernel).sort((a, b) => a.n - b.n);
      const plain = by('plain'), tiled = by('tiled');
      // Trend: 4x per doubling (slope 2 on log-log axes), through the largest tiled point.
      const last = tiled.at(-1);
      const trend = last && tiled.length > 1 ? [tiled[0].n, last.n].map((n) => [n, last.ms * (n / last.n) ** 2]) : [];
      // Both plots span the sizes the run planned, not those measured so far: a run that
      // was cancelled (or is under way) keeps the axis of the whole run, the same as the
      // memory plot's beside it.
      timeX.domain = memX.domain = L?.sizes.length ? [L.sizes[0], L.sizes.at(-1)] : undefined;
      timePlot.update({
        series: [
          { name: tr('seriesPlain'), points: plain.map((r) => [r.n, r.ms]), color: '#c2760c' },
          { name: tr('seriesTiled'), points: tiled.map((r) => [r.n, r.ms]), color: '#1f5fbf' },
          ...(trend.length ? [{ name: tr('seriesTrend'), points: trend, color: '#555b66', dashed: true }] : []),
        ],
        marks: L?.failed ? [{ x: L.failed.n, y: last?.ms ?? 1, label: tr('markNoFit'), color: '#b3261e' }] : [],
        summary: tr('timePlotSummary'),
        message: results.length ? '' : tr('timePlotEmpty'),
      });
      // The cost model's n x n float32 matrix beside the measurement.
      const model = (L?.sizes ?? []).map((n) => [n, attn.cost({ n, dModel: LIVE_D_HEAD, heads: 1, bytesPerElement: 4 }).bytesPerMatrix]);
      memPlot.update({
        series: [
          { name: tr('seriesPlain'), points: plain.map((r) => [r.n, r.bytes]), color: '#c2760c' },
          { name: tr('seriesTiled'), points: tiled.map((r) => [r.n, r.bytes]), color: '#1f5fbf' },
          ...(model.length ? [{ name: tr('seriesModel'), points: model, color: '#555b66', dashed: true }] : []),
        ],
        summary: tr('memPlotSummary'),
        message: results.length ? '' : tr('memPlotEmpty'),
      });
      liveBody.replaceChildren();
      for (const n of L?.sizes ?? []) {
        const p = plain.find((r) => r.n === n), t = tiled.find((r) => r.n === n);
        if (!p && !t && !(L.failed?.n === n)) continue;
        const row = el('tr', '', liveBody);
        const th = el('th', '', row);
        th.scope = 'row';
        setText(th, fmtCount(n));
        const ms = (r) => (r ? `${fmt(r.ms, { digits: r.ms < 10 ? 2 : 0 })} ms` : '');
        const time = (r) => {
          const td = el('td', 'num', row);
          td.textContent = ms(r);
          if (!r) return;
          // the unrounded figure, and the slowest worker's time in the core's kernel calls
          // (tests/bench/pool.mjs reads both: the rest is messages, copies and waiting)
          td.dataset.ms = String(r.ms);
          td.dataset.coreMs = String(r.core);
        };
        if (L.failed && n >= L.failed.n) {
          const td = el('td', 'nofit', row);
          td.colSpan = 2;
          setText(td, n === L.failed.n ? tr('liveNoFit') : '—');
          if (n === L.failed.n) td.title = L.failed.message;
        } else {
          time(p);
          el('td', 'num', row).textContent = p ? fmtBytes(p.bytes) : '';
        }
        time(t);
        el('td', 'num', row).textContent = t ? fmtBytes(t.bytes) : '';
      }
      liveWrap.hidden = !liveBody.rows.length; // (a table of headers only says nothing)
      if (linkAsked?.some(([key, , used]) => s[key] !== used)) linkAsked = null; // the learner picked
      const asked = (i) => (linkAsked ?? []).map((f) => `${tr(f[0] === 'liveMaxN' ? 'liveMaxLabel' : 'liveHeadsLabel')} = ${fmtCount(f[i])}`).join(', ');
      return {
        liveAsked: asked(1),
        liveUsed: asked(2),
        liveN: L?.current ? fmtCount(L.current.n) : '',
        liveKernel: L?.current ? tr(L.current.kernel === 'plain' ? 'kernelPlain' : 'kernelTiled') : '',
        liveFailedN: L?.failed ? fmtCount(L.failed.n) : '',
        liveMessage: L?.message ?? '',
        liveFailedNote: L?.failed ? tr('liveFailedNote', { n: fmtCount(L.failed.n) }) : '',
        liveHeads: fmtCount(L?.heads ?? s.liveHeads),
        liveWorkersUsed: fmtCount(L?.workers || workersFor(s, s.liveHeads)),
      };
    }

    k.start((s) => {
      const liveVars = drawLive(s); // first: a bad table input must not freeze the live run
      // Complexity table and growth, for the learner's n, d, h.
      const c = attn.cost({ n: s.n, dModel: s.dModel, heads: s.heads, bytesPerElement: s.bytes });
      const six = attn.cost({ n: 6, dModel: s.dModel, heads: s.heads });
      // Memory calculator (d_h = 64; the attention matrix does not depend on d).
      const m = attn.cost({ n: s.memN, dModel: 64 * s.memHeads, heads: s.memHeads, layers: s.layers, bytesPerElement: s.bytes });
      // n²·d against n·d² over n = d/16 ... 16·d (powers of two), every point from the core.
      const lo = Math.max(1, 2 ** Math.floor(Math.log2(s.dModel / 16))), hi = 2 ** Math.ceil(Math.log2(s.dModel * 16));
      const ns = pow2(lo, hi);
      const pts = ns.map((n) => attn.cost({ n, dModel: s.dModel, heads: 1 }));
      crossX.ticks = ns.filter((n, i) => i % 2 === 0);
      const at = attn.cost({ n: c.crossoverN, dModel: s.dModel, heads: 1 });
      crossPlot.update({
        series: [
          { name: tr('seriesAttention'), points: pts.map((p, i) => [lo * 2 ** i, p.orderAttention]), color: '#1f5fbf' },
          { name: tr('seriesRecurrent'), points: pts.map((p, i) => [lo * 2 ** i, p.orderRecurrent]), color: '#c2760c', dashed: true },
        ],
        marks: [{ x: c.crossoverN, y: at.orderAttention, label: tr('markCross', { d: fmtCount(c.crossoverN) }) },
          ...(s.n >= lo && s.n <= hi ? [{ x: s.n, y: c.orderAttention, label: tr('markYours'), color: '#5b4fb3', r: 4 }] : [])],
        summary: tr('crossSummary', { d: fmtCount(c.crossoverN) }),
      });
      const vars = {
        n: fmtCount(s.n), d: fmtCount(s.dModel), h: fmtCount(s.heads), dh: fmt(c.dHead, { digits: 2 }),
        six: fmtCount(6), sixScores: fmtCount(six.attentionEntries),
        flopsQK: fmtSI(c.flopsScores, 'FLOP'), flopsPV: fmtSI(c.flopsWeightedSum, 'FLOP'), flopsProj: fmtSI(c.flopsProjections, 'FLOP'),
        entries: fmtCount(c.attentionEntries), bytesPlain: fmtBytes(c.bytesPlainLayer), bytesTiled: fmtBytes(c.bytesTiledLayer),
        bytesPerEntry: fmtCount(s.bytes),
        pathA: fmtCount(c.pathLengthAttention), pathR: fmtCount(c.pathLengthRecurrent),
        growth: fmt(c.attentionGrowth, { digits: 2 }), layerGrowth: fmt(c.layerGrowth, { digits: 2 }), secondHalf: fmt(c.secondHalfRatio, { digits: 2 }),
        layerSecondHalf: fmt(c.layerGrowth - 1, { digits: 2 }), // (f(2n) − f(n)) / f(n) for the whole layer
        cross: fmtCount(c.crossoverN), orderA: fmtSI(c.orderAttention), orderR: fmtSI(c.orderRecurrent),
        cheaper: tr(c.orderAttention < c.orderRecurrent ? 'cheaperAttention' : c.orderAttention > c.orderRecurrent ? 'cheaperRecurrent' : 'cheaperEqual'),
        memN: fmtCount(s.memN), memHeads: fmtCount(s.memHeads), layers: fmtCount(s.layers),
        memEntries: fmtCount(m.attentionEntries), memMatrix: fmtBytes(m.bytesPerMatrix), memLayer: fmtBytes(m.bytesPerLayer), memTotal: fmtBytes(m.bytesTotal),
        liveD: fmtCount(LIVE_D_HEAD),
        ...liveVars,
      };
      return { vars, cost: c, memory: m };
    });
  },
};

function sup(k) {
  const map = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
  return String(Math.round(k)).split('').map((ch) => map[ch] ?? ch).join('');
}
