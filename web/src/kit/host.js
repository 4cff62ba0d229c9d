// The embedding host of a set of chapters: the page (web/src/main.js) or one
// <attention-explorer> widget (web/src/widget.js). The chapter kit talks to it through
// ctx.host (optional: a chapter mounted without a host works as before). It
//   - gives chapters their options (sizes, mask, seed) and whether inputs are editable,
//   - restores a chapter's state slice from its permalink text and writes it back,
//   - knows every stepper and grid of each chapter, so a link can carry the step and the
//     exercise (hidden cells) and the host can move to a step or hide cells by name.
// Restoring never throws: a slice that cannot be read, or that the chapter cannot
// compute, falls back to the defaults and is reported through onNotice.
import { decodeSlice, encodeSlice, parseCellRefs, cellRef, problem } from './url-state.js';
import { cellKey } from '../components/grid/hidden-values.js';

export function createHost({ store, options = {}, readOnly = false, restore = {}, step = null, hide = null, tolerance } = {}) {
  const chapters = new Map(); // id -> {defaults, transient, steppers: [], grids: Map}
  const pendingSteps = new Map(); // id -> string | string[]
  const stepFrom = new Map(); // id -> where the pending step was asked for: 'step' | 'state'
  const pendingHide = new Map(); // id -> Map(gridKey -> [[i, j, from, ref as written]])
  const notices = [];
  const noticeListeners = new Set();
  const changeListeners = new Set();
  let picking = false;

  // `from`: what asked for what could not be used, the state (a link's or a widget's state
  // attribute), or the widget's step or hide attribute (host options `step`, `hide`).
  function notice(chapter, problems, from = 'state') {
    const n = { chapter, problems: [].concat(problems), from };
    notices.push(n);
    for (const fn of noticeListeners) fn(n);
  }
  const changed = () => {
    for (const fn of changeListeners) fn();
  };

  function addHidden(id, refs, from) {
    const { cells, problems } = parseCellRefs(refs);
    if (problems.length) notice(id, problems, from);
    const byGrid = pendingHide.get(id) ?? new Map();
    for (const c of cells) byGrid.set(c.grid, [...(byGrid.get(c.grid) ?? []), [c.i, c.j, from, c.ref]]);
    pendingHide.set(id, byGrid);
  }

  function chapter(id) {
    let c = chapters.get(id);
    if (!c) {
      c = { defaults: () => ({}), transient: [], steppers: [], grids: new Map(), cache: null };
      chapters.set(id, c);
    }
    return c;
  }

  const host = {
    options,
    readOnly,
    tolerance,
    store,
    chapters,
    notices,
    onNotice: (fn) => noticeListeners.add(fn),
    onChange: (fn) => changeListeners.add(fn),
    notice,

    registerChapter(id, { defaults, transient = [], implied = null }) {
      const c = chapter(id);
      c.registered = true;
      c.defaults = () => (c.cache ??= defaults());
      c.transient = transient;
      // Settings that follow from others (the training chapter's task sets its heads,
      // layers and learning rate): a link leaves them out when they are what the others
      // imply, and a link that leaves them out gets what the others imply.
      c.linkDefaults = (s) => (implied ? { ...c.defaults(), ...implied(s) } : c.defaults());
    },

    // The slice a chapter starts from: its defaults with the restored entries over them.
    initialSlice(id, init) {
      const base = init();
      const text = restore[id];
      if (step && !pendingSteps.has(id)) {
        pendingSteps.set(id, step);
        stepFrom.set(id, 'step');
      }
      if (hide) addHidden(id, hide, 'hide');
      if (!text) return base;
      chapter(id).restored = true;
      const { slice, meta, problems } = decodeSlice(text, base);
      if (problems.length) notice(id, problems);
      if (meta.step !== undefined) {
        pendingSteps.set(id, meta.step);
        stepFrom.set(id, 'state');
      }
      if (meta.hide !== undefined) addHidden(id, meta.hide, 'state');
      return { ...chapter(id).linkDefaults({ ...base, ...slice }), ...slice };
    },

    // The chapter could not compute from the restored slice: back to the defaults. (why: a
    // problem, url-state problem(), or an Error, said by its message)
    restoreFailed(id, why) {
      notice(id, [why instanceof Error ? why.message : why]);
      chapter(id).restored = false;
      changed();
    },

    registerStepper(id, stepper) {
      const c = chapter(id);
      const k = c.steppers.push(stepper) - 1;
      const want = pendingSteps.get(id);
      if (want === undefined) return;
      const key = Array.isArray(want) ? want[k] : want;
      if (key === undefined || key === null) return;
      if (stepper.has(key)) {
        stepper.goTo(key);
        if (!Array.isArray(want)) pendingSteps.delete(id);
      } else if (Array.isArray(want)) notice(id, [problem('noStep', { step: key })], stepFrom.get(id));
    },

    registerGrid(id, key, grid) {
      const c = chapter(id);
      c.grids.set(key, grid);
      const cells = pendingHide.get(id)?.get(key);
      if (cells) {
        // a cell past the figure's edge (P.9.9 when P is 3 × 3) is named and left out
        // (each named as written: P.01.1, or a row too large to read exactly)
        const fromOf = new Map(cells.map(([i, j, from]) => [`${i},${j}`, from]));
        const refOf = new Map(cells.map(([i, j, , ref]) => [`${i},${j}`, ref ?? cellRef(key, i, j)]));
        grid.setHidden(cells, {
          onOutside: (out, shape) => {
            for (const from of new Set(out.map(([i, j]) => fromOf.get(`${i},${j}`))))
              notice(id, out.filter(([i, j]) => fromOf.get(`${i},${j}`) === from)
                .map(([i, j]) => problem('noCell', { cell: refOf.get(`${i},${j}`), grid: key, rows: shape.rows, cols: shape.cols })), from);
          },
        });
        pendingHide.get(id).delete(key);
      }
      if (tolerance !== undefined) grid.setTolerance?.(tolerance);
      if (picking) grid.setPicking?.(true);
    },

    // After a chapter's first render (every chapter's when `id` is not given): report
    // what the link named for it but nothing matched (a grid or step that does not exist).
    finishRestore(id) {
      for (const [cid, byGrid] of pendingHide) {
        if (id !== undefined && cid !== id) continue;
        for (const [key, cells] of byGrid) notice(cid, [problem('noFigure', { grid: key })], cells[0]?.[2]);
        pendingHide.delete(cid);
      }
      for (const [cid, want] of pendingSteps) {
        if (id !== undefined && cid !== id) continue;
        if (!Array.isArray(want) && chapters.has(cid)) notice(cid, [problem('noStep', { step: want })], stepFrom.get(cid));
        pendingSteps.delete(cid);
      }
    },

    stepChanged: () => changed(),
    hiddenChanged: () => changed(),

    setPicking(on) {
      picking = !!on;
      for (const c of chapters.values()) for (const g of c.grids.values()) g.setPicking?.(picking);
    },
    get picking() {
      return picking;
    },

    // The cells a chapter's exercise hides, and those it covers as giving them away, as
    // "gridKey:i,j" (hidden-values.js cellKey): for another chapter that quotes its numbers
    // (terms-formula quotes two-keys), so that it writes "?" for them too. Those of the grids
    // built so far and those the link names for grids still to come.
    hiddenCells(id) {
      const out = new Set();
      const c = chapters.get(id);
      if (c) for (const [key, g] of c.grids) {
        for (const [i, j] of g.hidden ?? []) out.add(cellKey(key, i, j));
        for (const k of g.covered ?? []) out.add(cellKey(key, ...k.split(',').map(Number)));
      }
      for (const [key, cells] of pendingHide.get(id) ?? []) for (const [i, j] of cells) out.add(cellKey(key, i, j));
      return out;
    },
    // ... and the values those hidden cells show ("0.114"), for a chapter whose own figures
    // repeat them (multi-head's head 1 is core-attention's head): found by their digits.
    hiddenTexts(id) {
      const c = chapters.get(id);
      return c ? [...c.grids.values()].flatMap((g) => g.hiddenTexts?.() ?? []) : [];
    },

    hiddenRefs(id) {
      const out = [];
      for (const [key, g] of chapter(id).grids) for (const [i, j] of g.hidden ?? []) out.push(cellRef(key, i, j));
      return out;
    },

    // The permalink text of one chapter ('' when everything is at its defaults).
    encode(id, { withHidden = true } = {}) {
      const c = chapter(id);
      const s = store.get()[id];
      if (!s) return '';
      const meta = {};
      const steps = c.steppers.map((st) => st.key);
      if (c.steppers.some((st) => st.index !== 0)) meta.step = steps.length === 1 ? steps[0] : steps;
      const hidden = withHidden ? host.hiddenRefs(id) : [];
      if (hidden.length) meta.hide = hidden;
      return encodeSlice(s, c.linkDefaults(s), { transient: c.transient, meta });
    },
    // Whether a chapter's numbers differ from its defaults (prose of another chapter that
    // quotes them says so): its state once it is mounted, else whether the link carries a
    // state for it.
    differsFromDefaults(id) {
      if (chapters.get(id)?.registered && store.get()[id]) return host.encodeState(id) !== '';
      return !!restore[id];
    },
    // The slice only (for the widget's `state` attribute) and the hidden cells apart.
    encodeState: (id) => {
      const s = store.get()[id] ?? {};
      return encodeSlice(s, chapter(id).linkDefaults(s), { transient: chapter(id).transient });
    },
  };
  return host;
}
