// Chapter "Watch attention learn": a tiny Transformer trains live, computed by the core in
// a Web Worker (web/src/workers/training.js). Two models of the same configuration and seed
// train side by side, one with the 1/√d_k scale and one without; this module draws what
// the worker reports: loss, held-out accuracy, the gradient reaching the scores, every
// head's weights on a probe sequence, and the model on a sequence the learner types.
// Every number shown is computed by the core; this module only lays them out.
import { chapterKit } from '../../kit/kit.js';
import { createTrainer, FRESH_KEPT } from '../../workers/trainer.js';
import { fmt, fmtCount } from '../../format.js';
import { setProse, setText } from '../../kit/prose.js';
import { trainerLink } from './trainer-link.js';
import { readSequence } from './sequence.js';
import { LRS, HEADS, LAYERS, MAX_SEED, TASKS, initialState, taskOf, taskSettings, pickTask, configOf, neighbours } from './tasks.js';
import narrative from './narrative.js';

const ID = 'training';
// The phase change of the induction task: the first held-out evaluation at which the
// repeated half's loss is below half of the first half's (which stays at chance, ~ln 26).
const PHASE_RATIO = 0.5;
// A head "reads" an offset when more than this share of its weight sits there on average
// (one half would call a head still spread over three positions a reader).
const TAKES = 0.7;
const MAX_POINTS = 400; // drawn per curve (every k-th step once a run is longer)
const TARGET_ACC = 0.99;
const pct = (x) => `${fmt(100 * x, { digits: 1, fixed: true })}%`;

const STEP_BOUNDS = [10, 20, 50, 100, 200, 300, 500, 1000, 1500, 2000, 3000];
// The whole decades around the positive finite values (log axes).
function decades(values) {
  let lo = Infinity, hi = -Infinity;
  for (const v of values) if (v > 0 && Number.isFinite(v)) (lo = Math.min(lo, v), hi = Math.max(hi, v));
  if (lo > hi) return [0.1, 1];
  const a = 10 ** Math.floor(Math.log10(lo)), b = 10 ** Math.ceil(Math.log10(hi));
  return [a, b > a ? b : a * 10];
}

function decimate(arr) {
  const n = arr.length;
  const stride = Math.max(1, Math.ceil(n / MAX_POINTS));
  const pts = [];
  for (let i = 0; i < n; i += stride) pts.push([i + 1, arr[i]]);
  if (n && (n - 1) % stride !== 0) pts.push([n, arr[n - 1]]);
  return pts;
}

export default {
  id: ID,
  mount(section, ctx) {
    const k = chapterKit(section, ctx, ID, initialState, { implied: taskSettings });
    const { el, text, tr, state, patch } = k;
    // Written only when they differ: a snapshot (ten a second while training) or an edit
    // redraws everything below, and most of it is what is already there.
    const hide = (n, h) => n.hidden !== h && (n.hidden = h);
    const data = (n, key, v) => n.dataset[key] !== v && (n.dataset[key] = v);
    const attr = (n, name, v) => n.getAttribute(name) !== v && n.setAttribute(name, v);

    // ---- what the worker last reported ----------------------------------------------------
    let last = null; // last snapshot
    // Configurations posted and not yet answered: until the worker's first snapshot of the
    // new model arrives, the chapter keeps showing the last one whole (no frame of "…" and
    // emptied plots in between: an edit paints once, when its result is there).
    // (posted, below: the configures on their way; waiting() while the newest is not drawn)
    let hist = null;
    let reachedAt = null;
    let reached = null; // {acc, step} of the announcement (said again in the page's language)
    let announce = null; // the live region (made below, in its place in the chapter)
    const clearHistory = () => {
      hist = { on: { loss: [], gradLogits: [] }, off: { loss: [], gradLogits: [] }, eval: [] };
      reachedAt = null;
      reached = null;
      if (announce) setText(announce, ''); // a new run: the last one's announcement is gone
    };
    clearHistory();
    const shown = () => (state().scale ? 'on' : 'off');
    const info = () => ({
      params: last ? fmtCount(last.parameters) : '…',
      layers: last ? last.config.layers : state().layers,
      heads: last ? last.config.heads : state().heads,
      dk: last ? last.config.dK : '…',
      dModel: last ? last.config.dModel : '…',
      dv: last ? last.config.dV : '…',
      minLen: last ? last.task.minLen : '…',
      maxLen: last ? last.task.maxLen : '…',
      pe: tr((last ? last.config.positional : state().positional) ? 'leadPeOn' : 'leadPeOff'),
      sortHint: state().task === 'sort' ? tr('sortHint') : state().task === 'induction' ? tr('inductionHint') : '',
    });

    // Axis ranges snap to round steps and whole decades, so while training the axes stay
    // put and each snapshot only redraws the curves.
    const stepAxis = () => ({ label: () => tr('axisStep'), domain: [0, 10] });
    const axes = {
      loss: { x: stepAxis(), y: { label: () => tr('axisLoss'), type: 'log', domain: [0.1, 10] } },
      acc: { x: stepAxis(), y: { label: () => tr('axisAcc'), domain: [0, 1] } },
      grad: { x: stepAxis(), y: { label: () => tr('axisGrad'), type: 'log', domain: [1e-3, 1] } },
    };
    // induction: the held-out loss of the first and of the repeated half, and the phase change
    const partsAxes = { x: stepAxis(), y: { label: () => tr('axisLoss'), domain: [0, 4] } };
    const empty = () => tr('plotEmpty');
    let taskRadios, startBtn, stepBtn, errorBox, status, lossPlot, accPlot, gradPlot, partsPlot, phaseLine, scaleBody;
    let plots, splitLine, headsWrap, headsBox, peNote, swapLine, predBox, yourForm, yourIn, yourBtn, yourErr, yourPred, yourHeads;
    // The figures, each built in its place in narrative.js.
    const figures = {
      task(parent) {
        const taskSet = el('fieldset', 'task-picker', parent);
        text('legend', 'taskLegend', taskSet);
        taskRadios = TASKS.map((t) => {
          const lab = el('label', 'toggle', taskSet);
          const r = el('input', '', lab);
          Object.assign(r, { type: 'radio', name: `${ID}-task`, value: t.name, disabled: k.readOnly });
          r.dataset.control = `task-${t.name}`;
          r.addEventListener('change', () => patch((s) => pickTask(s, t.name)));
          text('span', `task_${t.key}`, lab);
          return r;
        });
      },
      controls(parent) {
        const run = el('div', 'controls training-run', parent);
        startBtn = el('button', 'primary', run);
        startBtn.type = 'button';
        startBtn.dataset.control = 'start';
        stepBtn = k.button('step', () => send({ type: 'step', steps: 1 }), run);
        stepBtn.dataset.control = 'step';
        const resetBtn = k.button('reset', () => configure(true), run);
        resetBtn.dataset.control = 'reset';
        const knobs = el('div', 'controls training-knobs', parent);
        // seed: the page's number field (a whole number; anything else is said beside it and
        // the old seed stays)
        k.number('seed', 'seed', { min: 0, max: MAX_SEED, parent: knobs });
        for (const [name, values] of [['lr', LRS], ['heads', HEADS], ['layers', LAYERS]]) k.select(name, name, values, { parent: knobs });
        k.slider('dropout', 'dropout', { min: 0, max: 0.5, step: 0.05, parent: knobs });
        const toggles = el('div', 'controls', parent);
        k.toggle('positional', 'positional', toggles);
        k.toggle('scale', 'scale', toggles);
      },
      status(parent) {
        errorBox = el('p', 'chapter-error', parent);
        errorBox.setAttribute('role', 'alert');
        errorBox.hidden = true;
        status = el('p', 'training-status', parent);
        status.dataset.status = 'training';
        announce = el('p', 'sr-only', parent);
        announce.setAttribute('aria-live', 'polite');
      },
      plots(parent) {
        plots = el('div', 'training-plots', parent);
        lossPlot = k.plot({ title: () => tr('lossTitle'), ...axes.loss, testId: 'training-loss', height: 260, empty });
        accPlot = k.plot({ title: () => tr('accTitle'), ...axes.acc, testId: 'training-accuracy', height: 260, empty });
        gradPlot = k.plot({ title: () => tr('gradTitle'), ...axes.grad, testId: 'training-grad', height: 260, empty });
        plots.append(lossPlot.el, accPlot.el, gradPlot.el);
        partsPlot = k.plot({ title: () => tr('partsTitle'), ...partsAxes, testId: 'training-parts', height: 260, empty });
        plots.append(partsPlot.el);
        phaseLine = el('p', 'check-line', parent);
        phaseLine.dataset.phase = 'induction';
      },
      scale(parent) {
        scaleBody = el('p', 'training-scale', parent);
      },
      heads(parent) {
        splitLine = el('p', 'training-split', parent);
        splitLine.dataset.split = 'probe';
        headsWrap = el('div', 'training-heads-wrap', parent);
        headsBox = el('div', 'training-heads', headsWrap);
        headsBox.dataset.heads = 'probe';
        const caution = el('aside', 'training-caution', headsWrap);
        caution.dataset.caution = 'weights';
        text('h4', 'cautionTitle', caution);
        text('p', 'cautionBody', caution);
        peNote = el('p', 'training-pe-note', parent);
        swapLine = el('p', 'training-swap', parent);
      },
      pred(parent) {
        predBox = el('div', 'training-pred', parent);
        predBox.dataset.pred = 'probe';
      },
      yours(parent) {
        yourForm = el('form', 'controls training-your', parent);
        const yourLab = el('label', 'field', yourForm);
        text('span', 'yourLabel', yourLab);
        yourIn = el('input', '', yourLab);
        Object.assign(yourIn, { type: 'text', autocomplete: 'off', spellcheck: false, size: 16, readOnly: k.readOnly });
        yourIn.dataset.control = 'your-sequence';
        yourBtn = el('button', '', yourForm);
        yourBtn.type = 'submit';
        yourBtn.dataset.control = 'your-run';
        yourErr = el('p', 'grid-error', parent);
        yourErr.setAttribute('role', 'alert');
        yourErr.id = `${ID}-your-error`;
        yourIn.setAttribute('aria-describedby', yourErr.id);
        yourErr.hidden = true;
        yourPred = el('div', 'training-pred', parent);
        yourPred.dataset.pred = 'yours';
        yourHeads = el('div', 'training-heads', parent);
        yourHeads.dataset.heads = 'yours';
      },
    };
    const { lead: leadP, yourBody } = k.narrative(narrative, {
      figures,
      vars: { info },
      choose: {
        task: (s) => `desc_${taskOf(s).key}`,
        // (the chapters before, whose weights are set by hand, named only where they are)
        lead: () => (['projections', 'one-head', 'multi-head'].some((id) => ctx.onPage?.(id)) ? 'lead' : 'leadAlone'),
        // (the chapter on a trained model's heads named only where it is on the page)
        headRoles: (st) => (st.task !== 'induction' ? null : ctx.onPage?.('trained-heads') ? 'headRolesBody' : 'headRolesBodyAlone'),
      },
    });

    // While the worker builds a configuration that was not built ahead (its first snapshot
    // is on its way), what still shows the previous model says so: aria-busy on each, dimmed
    // (styles.css: .training-building), and the status line says the model is being built.
    // Set in the edit's frame (an attribute and a class each, no layout read); cleared when
    // the snapshot of the configuration now chosen is drawn, not an older one's.
    const stale = [leadP, status, plots, phaseLine, scaleBody, splitLine, headsWrap, peNote, swapLine, predBox, yourBody, yourPred, yourHeads];
    let building = false;
    function setBuilding(b) {
      if (b === building) return;
      building = b;
      section.classList.toggle('training-building', b);
      for (const n of stale) {
        if (b) n.setAttribute('aria-busy', 'true');
        else n.removeAttribute('aria-busy');
      }
    }

    // ---- the worker (trainer-link.js: its lifecycle, and what waits for it) ----------------
    const link = trainerLink({
      spawn: () => new Worker(new URL('./training-worker.js', import.meta.url), { type: 'module' }),
      // (the page's own core has no trainer: ctx.coreWithTrainer loads one; a widget's has)
      inPage: (post) => createTrainer({ ready: ctx.coreWithTrainer?.() ?? Promise.resolve(ctx.attn), post }),
      onMessage: (m) => {
        if (m.type === 'snapshot') onSnapshot(m);
        else if (m.type === 'probe') onProbe(m);
        else if (m.type === 'error') {
          posted.length = 0; // the last good picture stays, with the message
          showError(m.message);
          scheduleDraw();
        }
      },
      onError: (message) => showError(message),
    });
    const send = (msg) => link.send(msg);
    let postedConfig = '';
    let postedTask = null;
    let yourTokens = null;
    let yourResult = null;
    let yourProblem = null; // {key, vars} of the message under the learner's field
    let probeId = 0;
    // First snapshots of untrained configurations, by the configuration's JSON: those the
    // worker answered, and those it built ahead while idle (the configurations one edit away,
    // asked for below). Picking one of them draws its snapshot in the same frame, and the
    // worker's own answer to that configure (the same numbers: the models are deterministic
    // under their configuration) is then not drawn again.
    const firsts = new Map();
    const keepFirst = (key, m) => {
      firsts.delete(key);
      firsts.set(key, m);
      if (firsts.size > FRESH_KEPT) firsts.delete(firsts.keys().next().value);
    };
    const posted = []; // configures on their way, in order: {key, drawn}
    // -> true when the new model's picture was drawn now (its first snapshot was known)
    function configure(force = false) {
      const s = state();
      const cfg = configOf(s);
      const key = JSON.stringify(cfg);
      if (!force && key === postedConfig) return false;
      if (lastState) lastEdited = ['task', 'seed', 'lr', 'heads', 'layers', 'dropout', 'positional'].find((x) => s[x] !== lastState[x]) ?? lastEdited;
      lastState = s;
      if (cfg.task !== postedTask) {
        yourTokens = null;
        yourProblem = null;
        sayYourProblem();
      }
      postedConfig = key;
      postedTask = cfg.task;
      yourResult = null;
      send({ type: 'configure', config: cfg });
      const known = firsts.get(key);
      posted.push({ key, drawn: !!known });
      if (!known) return false;
      keepFirst(key, known); // (most recently used last)
      adopt(structuredClone(known), true);
      drawNow();
      prefetch();
      return true;
    }
    // The configurations one edit away (tasks.js), for the worker to build while idle. Not
    // when the trainer runs on the page: that would be the page's own time.
    let lastEdited = null;
    let lastState = null;
    function prefetch() {
      if (!link.inWorker || posted.length > 1 || running()) return;
      const configs = neighbours(state(), lastEdited).filter((c) => !firsts.has(JSON.stringify(c)));
      if (configs.length) send({ type: 'prefetch', configs });
    }
    function showError(message) {
      errorBox.hidden = false;
      setText(errorBox, tr('workerError', { message }));
    }
    link.startNear(section);
    // (a model being configured is not running, whatever the last snapshot said)
    const running = () => !!last?.running && !posted.length;
    const waiting = () => posted.length > 0 && !posted.at(-1).drawn;
    startBtn.addEventListener('click', () => send({ type: running() ? 'pause' : 'start' }));

    let snapshots = 0;
    function onSnapshot(m) {
      if (m.reason === 'prefetch') {
        const { key, ...first } = m;
        keepFirst(key, { ...first, reason: 'configure' });
        return;
      }
      // (what the old models said before the worker took the new configuration: not drawn)
      if (m.reason !== 'configure' && posted.length) return;
      if (m.reason === 'configure') {
        const p = posted.shift();
        if (p && !p.drawn) keepFirst(p.key, m);
        // drawn when it was picked (the same snapshot), or a later configure is on its way
        if (p?.drawn || posted.length) return;
      }
      adopt(m, false);
      if (m.reason === 'configure' && !posted.length) prefetch();
    }
    // now: drawn by the caller in this frame (a render of the kit: its prose follows)
    function adopt(m, now) {
      status.dataset.snapshots = String(++snapshots); // read by the benchmark
      const fresh = m.reason === 'configure';
      if (fresh) clearHistory();
      for (const key of ['on', 'off']) {
        hist[key].loss.push(...m.series[key].loss);
        hist[key].gradLogits.push(...m.series[key].gradLogits);
      }
      if (!hist.eval.length || hist.eval.at(-1).step !== m.eval.step) hist.eval.push(m.eval);
      const wasUnknown = !last;
      last = m;
      hide(errorBox, true);
      const acc = m.eval[shown()].accuracy;
      if (reachedAt === null && m.step > 0 && acc >= TARGET_ACC) {
        reachedAt = m.step;
        reached = { acc: pct(acc), step: String(m.step) };
        setText(announce, tr('reached', reached));
      }
      if (yourTokens) send({ type: 'probe', id: ++probeId, tokens: yourTokens });
      if (now) return;
      if (wasUnknown || fresh) k.render(); // prose that names the model's sizes (and the rest)
      else scheduleDraw();
    }
    function onProbe(m) {
      if (m.id !== probeId) return;
      if (m.error) return yourFail('yourError', { message: m.error });
      yourProblem = null;
      sayYourProblem();
      yourResult = m;
      scheduleDraw();
    }

    // The message under the field is kept as a key and values, so it follows the language
    // toggle; any problem also clears the last result, so no stale table sits under it.
    function sayYourProblem() {
      hide(yourErr, !yourProblem);
      setText(yourErr, yourProblem ? tr(yourProblem.key, yourProblem.vars) : '');
      if (yourProblem) attr(yourIn, 'aria-invalid', 'true');
      else yourIn.removeAttribute('aria-invalid');
    }
    function yourFail(key, vars = {}) {
      yourProblem = { key, vars };
      yourTokens = null;
      yourResult = null;
      probeId++; // a reply still on its way is for the previous entry
      sayYourProblem();
      scheduleDraw();
    }
    yourForm.addEventListener('submit', (e) => {
      e.preventDefault();
      // the task's tokens, from the core (also before the first snapshot of a new setting)
      const { tokens, problem } = readSequence(yourIn.value, ctx.attn.task(state().task));
      if (problem) return yourFail(problem.key, problem.vars);
      yourProblem = null;
      sayYourProblem();
      yourTokens = tokens;
      send({ type: 'probe', id: ++probeId, tokens });
    });

    // ---- drawing ----------------------------------------------------------------------------
    // Snapshots (ten a second while training) are drawn in the next animation frame; an
    // edit draws at once, in the frame that shows the control's change.
    let drawFrame = 0;
    let proseAt = -Infinity;
    function scheduleDraw() {
      if (!drawFrame) drawFrame = requestAnimationFrame(drawNow);
    }
    function drawNow() {
      if (drawFrame) cancelAnimationFrame(drawFrame);
      drawFrame = 0;
      const t0 = performance.now();
      drawLive();
      status.dataset.drawMs = (performance.now() - t0).toFixed(1); // read by the benchmark
    }

    // container -> {cells: the heads drawn, in order, byKey: "l/h" -> its figure}. A head's
    // figure is kept while the model has that head (a select that adds heads or layers builds
    // only the new ones, and one that removes them takes those out): a grid is many nodes,
    // which a new model would otherwise style and lay out anew for every head.
    const headGrids = new Map();
    function headFigure(container, l, h, probe, labels) {
      const fig = el('div', `training-head head-${h % 4}`, null); // (put in place by drawHeads)
      let toks = probe.tokens, names = labels;
      const grid = k.grid({
        caption: () => '', ariaLabel: () => tr('headCaption', { l: l + 1, h: h + 1 }), note: () => tr('headAxes'),
        rowLabel: (i) => `${i + 1}:${names[toks[i]] ?? ''}`, colLabel: (j) => names[toks[j]] ?? '',
        color: 'weights', digits: 2, fixed: true, testId: `${container.dataset.heads}-l${l + 1}h${h + 1}`,
      });
      const cap = el('p', 'training-head-title', fig);
      fig.append(grid.el);
      const stats = el('p', 'training-head-stats', fig);
      const roles = el('p', 'training-head-roles', fig);
      roles.dataset.roles = `l${l + 1}h${h + 1}`;
      return { fig, grid, cap, stats, roles, l, h, setTokens: (t, n) => ((toks = t), (names = n)) };
    }
    // scores: the model's measured heads (trainer: model.heads() at evaluation ticks, for
    // induction only), or undefined: no role line.
    function drawHeads(container, probe, labels, offsets, scores) {
      const layers = probe.layers;
      let drawn = headGrids.get(container);
      if (!drawn) headGrids.set(container, (drawn = { cells: [], byKey: new Map() }));
      const keys = layers.flatMap((layer, l) => layer.heads.map((_, h) => `${l}/${h}`));
      if (keys.join() !== drawn.cells.map((c) => `${c.l}/${c.h}`).join()) {
        const want = new Set(keys);
        for (const [key, c] of drawn.byKey) if (!want.has(key)) {
          c.fig.remove();
          drawn.byKey.delete(key);
        }
        drawn.cells = keys.map((key) => {
          let c = drawn.byKey.get(key);
          if (!c) {
            const [l, h] = key.split('/').map(Number);
            drawn.byKey.set(key, (c = headFigure(container, l, h, probe, labels)));
          }
          return c;
        });
        // in order, moving only what is out of place
        let at = container.firstElementChild;
        for (const c of drawn.cells) {
          if (c.fig !== at) container.insertBefore(c.fig, at);
          else at = at.nextElementSibling;
        }
      }
      const cells = drawn.cells;
      let n = 0;
      layers.forEach((layer, l) => layer.heads.forEach((W, h) => {
        const c = cells[n++];
        c.setTokens(probe.tokens, labels);
        setProse(c.cap, tr('headCaption'), { l: l + 1, h: h + 1 });
        c.grid.update(W);
        const offs = offsets.map((o) => tr('headOffset', { o, w: fmt(layer.offsetWeight[h][o], { digits: 2, fixed: true }) }));
        setProse(c.stats, [tr('headStats'), ...offs].join(' · '), { std: fmt(layer.logitStd[h], { digits: 2 }), max: fmt(layer.meanMaxWeight[h], { digits: 2, fixed: true }) });
        const r = scores?.heads.find((x) => x.layer === l && x.head === h);
        hide(c.roles, !r);
        if (r) setProse(c.roles, tr('headRoles'), { prev: fmt(r.previousToken, { digits: 2, fixed: true }), ind: fmt(r.induction, { digits: 2, fixed: true }), role: tr(`role_${r.role || 'none'}`) });
      }));
    }

    // Two relations: has each offset found its own head? Read from the core's per-head
    // weight on each offset (offsetWeight); only the wording is decided here.
    function drawSplit(probe, task, dV, positional) {
      const offs = task.offsets;
      hide(splitLine, offs.length < 2);
      if (splitLine.hidden) {
        delete splitLine.dataset.state;
        return;
      }
      const heads = probe.layers.flatMap((layer, l) => layer.offsetWeight.map((w, h) => ({
        w, name: tr('splitHead', { l: l + 1, h: h + 1 }),
      })));
      // for each offset, the head that puts the most weight on it
      const best = offs.map((o) => heads.reduce((a, b) => (b.w[o] > a.w[o] ? b : a)));
      const w = (head, o) => fmt(head.w[o], { digits: 2, fixed: true });
      const missing = offs.filter((o, i) => best[i].w[o] <= TAKES);
      const shared = new Set(best).size < best.length;
      if (!missing.length && !shared) {
        const list = offs.map((o, i) => tr('splitItem', { head: best[i].name, o, w: w(best[i], o) }));
        setProse(splitLine, tr('splitYes'), { list: list.join(', ') });
        data(splitLine, 'state', 'split');
      } else {
        const takes = fmt(TAKES, { digits: 1, fixed: true });
        const why = missing.length ? missing.map((o) => tr('splitMissing', { o, takes }))
          : [tr('splitShared', { head: `<span class="nowrap">${best[0].name}</span>` })];
        const one = heads.length < 2;
        const hint = tr(!positional ? 'splitHintPe' : one ? 'splitHintOne' : 'splitHintMore', { dv: dV });
        setProse(splitLine, tr(one ? 'splitOne' : 'splitNo'), { missing: why.join('; '), hint });
        data(splitLine, 'state', one ? 'one' : 'mixed');
      }
    }

    function drawPredictions(container, probe, targets, task) {
      const { tokenLabels: tl, outputLabels: ol } = task;
      const T = probe.tokens.length;
      let table = container.querySelector('table');
      if (!table || table.rows[0].cells.length !== T + 1) {
        container.replaceChildren();
        const scroll = el('div', 'grid-scroll', container);
        table = el('table', 'pred-table', scroll);
        for (let r = 0; r < 4; r++) {
          const row = table.insertRow();
          const th = document.createElement('th');
          th.scope = 'row';
          row.append(th);
          for (let i = 0; i < T; i++) row.insertCell();
        }
      }
      const heads = ['rowPosition', 'rowToken', 'rowTarget', 'rowPred'];
      heads.forEach((key, r) => setText(table.rows[r].cells[0], tr(key)));
      for (let i = 0; i < T; i++) {
        const scored = targets[i] >= 0;
        const ok = scored && probe.predictions[i] === targets[i];
        setText(table.rows[0].cells[i + 1], String(i + 1));
        setText(table.rows[1].cells[i + 1], tl[probe.tokens[i]]);
        setText(table.rows[2].cells[i + 1], scored ? ol[targets[i]] : tr('notScored'));
        const cell = table.rows[3].cells[i + 1];
        setText(cell, scored ? `${ol[probe.predictions[i]]} ${ok ? '✓' : '✗'}` : ol[probe.predictions[i]]);
        const cls = scored ? (ok ? 'ok' : 'wrong') : 'unscored';
        if (cell.className !== cls) cell.className = cls;
      }
    }

    function drawLive() {
      const s = state();
      const which = shown();
      // the new model's first snapshot is on its way: the old one stays, marked as such
      setBuilding(waiting() && !!last);
      if (building) return setText(status, tr('statusBuilding'));
      setText(startBtn, tr(running() ? 'pause' : 'start'));
      attr(startBtn, 'aria-pressed', running() ? 'true' : 'false');
      const noStep = !last || running();
      if (stepBtn.disabled !== noStep) stepBtn.disabled = noStep;
      if (!last) return;
      const m = last;
      const secs = fmt(m.elapsedMs / 1000, { digits: 1, fixed: true });
      if (m.step === 0) setProse(status, tr('statusIdle'));
      else if (m.reason === 'limit') setProse(status, tr('statusLimit'), { step: m.step });
      else setProse(status, tr('status'), { step: m.step, seconds: secs, accOn: pct(m.eval.on.accuracy), accOff: pct(m.eval.off.accuracy) });
      data(status, 'step', String(m.step));
      data(status, 'accuracy', String(m.eval[which].accuracy));
      data(status, 'accuracyOn', String(m.eval.on.accuracy));
      data(status, 'elapsedMs', String(Math.round(m.elapsedMs)));
      data(status, 'running', String(m.running));
      data(status, 'dModel', String(m.config.dModel));

      const names = [tr('withScale'), tr('withoutScale')];
      const curve = (arr, i) => ({ name: names[i], points: decimate(arr), dashed: i === 1 });
      const summary = (series) => series.map((x) => tr('plotSummary', { name: x.name, n: x.points.length, last: x.points.length ? fmt(x.points.at(-1)[1], { digits: 4 }) : '–' })).join(' ');
      const stepBound = STEP_BOUNDS.find((b) => b >= m.step) ?? m.step;
      for (const a of Object.values(axes)) a.x.domain = [0, stepBound];
      axes.loss.y.domain = decades([...hist.on.loss, ...hist.off.loss]);
      axes.grad.y.domain = decades([...hist.on.gradLogits, ...hist.off.gradLogits]);
      const lossSeries = [curve(hist.on.loss, 0), curve(hist.off.loss, 1)];
      const message = m.step === 0 ? tr('plotEmpty') : '';
      lossPlot.update({ series: lossSeries, summary: summary(lossSeries), message });
      const accSeries = ['on', 'off'].map((key, i) => ({ name: names[i], dashed: i === 1, points: hist.eval.map((e) => [e.step, e[key].accuracy]) }));
      accPlot.update({ series: accSeries, summary: summary(accSeries), message });
      const gradSeries = [curve(hist.on.gradLogits, 0), curve(hist.off.gradLogits, 1)];
      gradPlot.update({ series: gradSeries, summary: summary(gradSeries), message });
      drawParts(m, which, stepBound, summary);

      // The explanation with its live numbers is typeset at most a few times a second (it
      // holds several formulas); the curves, maps and status follow every snapshot.
      const l0on = m.probe.on.layers[0], l0off = m.probe.off.layers[0];
      const now = performance.now();
      if (m.running && now - proseAt < 400) return finishLive(m, s, which);
      proseAt = now;
      setProse(scaleBody, tr('scaleBody'), {
        dk: m.config.dK,
        stdOn: fmt(l0on.logitStd[0], { digits: 2 }), stdOff: fmt(l0off.logitStd[0], { digits: 2 }),
        maxOn: fmt(l0on.meanMaxWeight[0], { digits: 3, fixed: true }), maxOff: fmt(l0off.meanMaxWeight[0], { digits: 3, fixed: true }),
      });
      finishLive(m, s, which);
    }

    // Induction: both halves' held-out loss by step, and the step of the phase change.
    function drawParts(m, which, stepBound, summary) {
      const parts = m.task.parts ?? [];
      const on = parts.length === 2;
      hide(partsPlot.el, !on);
      hide(phaseLine, !on);
      if (!on) return;
      const evals = hist.eval.filter((e) => e[which].parts?.length === 2);
      const partSeries = parts.map((name, i) => ({
        name: tr(`part_${name}`), dashed: i === 0, points: evals.map((e) => [e.step, e[which].parts[i].loss]),
      }));
      const phase = evals.find((e) => e.step > 0 && e[which].parts[1].loss < PHASE_RATIO * e[which].parts[0].loss);
      const top = Math.max(4, ...partSeries.flatMap((x) => x.points.map((p) => p[1])).filter(Number.isFinite));
      partsAxes.x.domain = [0, stepBound];
      partsAxes.y.domain = [0, Math.ceil(top)];
      const series = phase ? [...partSeries, { name: tr('phaseMark', { step: phase.step }), points: [[phase.step, 0], [phase.step, top]] }] : partSeries;
      partsPlot.update({ series, marks: phase ? [{ x: phase.step, y: top, label: String(phase.step) }] : [], summary: summary(series), message: m.step === 0 ? tr('plotEmpty') : '' });
      const now = m.eval[which].parts;
      const vars = { first: fmt(now[0].loss, { digits: 2, fixed: true }), repeated: fmt(now[1].loss, { digits: 2, fixed: true }),
        accRepeated: pct(now[1].accuracy), step: phase?.step ?? '' };
      setProse(phaseLine, tr(phase ? 'phaseYes' : 'phaseNotYet'), vars);
      data(phaseLine, 'step', phase ? String(phase.step) : '');
    }

    function finishLive(m, s, which) {

      const probe = m.probe[which];
      drawHeads(headsBox, probe, m.task.tokenLabels, m.task.offsets, m.eval.heads?.[which]);
      drawSplit(probe, m.task, m.config.dV, m.config.positional);
      drawPredictions(predBox, probe, probe.targets, m.task);

      hide(peNote, m.config.positional);
      if (!m.config.positional) setProse(peNote, m.config.layers > 1 ? `${tr('peOff')} ${tr('peOffLayers')}` : tr('peOff'));
      hide(swapLine, !m.swap);
      if (m.swap) {
        const ol = m.task.outputLabels;
        const before = ol[probe.predictions[m.swap.c]], after = ol[m.swap[which].predictions[m.swap.c]];
        // Without positions one layer cannot change the prediction (the core computes both);
        // a second layer can, through the prefixes the causal mask averages. With positions
        // it changes once the model has learned to use them.
        const pe = m.config.positional;
        const why = before !== after ? (pe ? 'swapDiff' : 'swapDiffNoPe')
          : pe ? 'swapNotYet' : m.config.layers > 1 ? 'swapSameLayers' : 'swapSame';
        setProse(swapLine, `${tr('swapLine')} ${tr(why)}`, { a: m.swap.a + 1, b: m.swap.b + 1, c: m.swap.c + 1, before, after });
      }

      const yours = yourResult?.[which];
      hide(yourPred, !yours);
      hide(yourHeads, !yours);
      if (yours) {
        drawPredictions(yourPred, yours, yours.targets, m.task);
        drawHeads(yourHeads, yours, m.task.tokenLabels, m.task.offsets);
      }
    }

    // ---- state -> configuration; the kit re-renders the prose ------------------------------
    k.start((s) => {
      taskRadios.forEach((r) => (r.checked = r.value === s.task));
      setText(yourBtn, tr('yourRun'));
      setText(announce, reached ? tr('reached', reached) : '');
      sayYourProblem(); // in the page's current language
      if (!configure()) drawNow();
      return info();
    });
    // Plot titles and labels follow the language.
    ctx.i18n.onChange(scheduleDraw);
    queueMicrotask(() => section.querySelector('h2')?.after(errorBox));
  },
};
