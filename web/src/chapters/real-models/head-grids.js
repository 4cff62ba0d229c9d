// The real-models chapter's chosen head enlarged: its weights P as a T × T grid beside the
// value-norm view (P weighted by each value's norm, rows renormalised) or the rollout, the
// radio group that picks between the two, and the line that says when a long sentence shows
// only its first tokens. The grids are written a few rows a frame (a job of frames.js), and
// only near the screen; the pair's data-filled says whether both show the chosen head.
//
//   const grids = headGrids({ k, id, frames, model: () => info, state });
//   grids.figure(parent);                 // the view's radios, the cut line, the two grids
//   grids.draw(heads, head, view, labels); // the chosen head of this sentence (no work when unchanged)
//   grids.clear();                        // no sentence: nothing to write
// Pure parts (tests/web/real-models-grids.test.mjs): valueNormView, firstTokens, gridStep.
import { offscreenCheap, say, show } from './lines.js';

// The value-norm view of a head's weights P (T × T, row-major): P_ij ‖v_j W_O^h‖, each row
// renormalised to sum 1 (a row of zeros stays so).
export function valueNormView(P, norm, T) {
  const d = new Float32Array(T * T);
  for (let i = 0; i < T; i++) {
    let sum = 0;
    for (let j = 0; j < T; j++) sum += d[i * T + j] = P[i * T + j] * norm[j];
    if (sum > 0) for (let j = 0; j < T; j++) d[i * T + j] /= sum;
  }
  return { rows: T, cols: T, data: d };
}

// A square matrix's first W rows and columns (itself when W is its size).
export function firstTokens(m, W) {
  const T = m.rows;
  if (W === T) return m;
  const data = new Float32Array(W * W);
  for (let i = 0; i < W; i++) data.set(m.data.subarray(i * T, i * T + W), i * W);
  return { rows: W, cols: W, data };
}

// A grid's T × T cells `cells` at a time (whole rows, at least one): the rows up to job.r
// show the new matrix, the ones below it what the grid showed (a table of the same width
// keeps its cells; a new one grows by rows, as the grid's table is built: grid/table.js).
// False when the grid shows the whole new matrix. filling: grid -> the matrix it fills to.
export function gridStep(job, { cells, filling }) {
  const { grid, data: D } = job;
  const S = grid.value;
  filling.set(grid, D);
  job.r = Math.min(D.rows, (job.r ?? 0) + Math.max(1, Math.floor(cells / D.cols)));
  if (job.r >= D.rows) {
    grid.update(D);
    grid.flush(); // (written now, whatever the grid's own observer last saw)
    return false;
  }
  const kept = S && S.cols === D.cols ? Math.min(S.rows, D.rows) : 0;
  const rows = Math.max(kept, job.r);
  const data = new Float32Array(rows * D.cols);
  data.set(D.data.subarray(0, job.r * D.cols));
  if (rows > job.r) data.set(S.data.subarray(job.r * D.cols, rows * D.cols), job.r * D.cols);
  grid.update({ rows, cols: D.cols, data });
  grid.flush();
  return true;
}

const GRID_CELLS = 64; // a frame's cells (besides the frame's budget)

export function headGrids({ k, id, frames, model, state }) {
  const { el, text, tr, patch } = k;
  // a long sentence: the grids show its first GRID_TOKENS tokens (a 500-token sentence's two
  // 250,000-cell tables took seconds of the page's thread to lay out)
  const GRID_TOKENS = globalThis.__realModelsGridTokens ?? 64; // (tests set a smaller one: their models read 24 positions)
  let viewBox, viewButtons, gridsCut, pair, gridP, gridV;
  let labels = [];
  const label = (i) => labels[i] ?? '';
  const fillingTo = new Map(); // a grid of the chosen head -> the matrix it is filling to (gridStep)
  let jobs = []; // {grid, data, r} to update, GRID_CELLS a frame
  let gridKey = null;
  // Far from the screen (half a screen's margin, as components/nearby.js), the grids wait
  // and are written, a few rows a frame again, when they come near: left to the grid's own
  // deferral, a far grid's whole table would be written in the one frame it comes near.
  let pairNear = true; // (until the observer first says otherwise)
  // The grids written whole now: before printing, and when the keyboard comes into their
  // figures (at their tools), so that the next Tab finds their cells, not the table below.
  const writeGridsNow = () => {
    for (const { grid, data } of jobs.splice(0)) grid.update(data);
  };

  frames.add({
    step(budget) {
      if (jobs.length && pairNear && !gridStep(jobs[0], { cells: GRID_CELLS, filling: fillingTo })) jobs.shift(); // (besides the budget)
      const done = String(!jobs.length);
      if (pair.dataset.filled !== done) pair.dataset.filled = done;
      return budget;
    },
    pending: () => !!jobs.length && pairNear,
  });

  return {
    figure(parent) {
      viewBox = el('div', 'controls', parent);
      viewBox.setAttribute('role', 'radiogroup');
      text('span', 'viewLabel', viewBox, undefined, 'label');
      // one name for both: one radio group, one Tab stop, the arrow keys move between them
      const viewName = `${id}-view-${Math.random().toString(36).slice(2)}`;
      viewButtons = ['norm', 'rollout'].map((v) => {
        const lab = el('label', 'toggle', viewBox);
        const r = el('input', '', lab);
        Object.assign(r, { type: 'radio', name: viewName, value: v });
        r.dataset.control = `view-${v}`;
        r.disabled = k.readOnly;
        r.addEventListener('change', () => patch({ view: v }));
        text('span', `view_${v}`, lab);
        return r;
      });
      // (a long sentence: the tables show its first tokens, and this says so, above them)
      gridsCut = el('p', 'hint', parent);
      gridsCut.dataset.check = 'grids-cut';
      gridsCut.hidden = true;
      pair = el('div', 'grid-row', parent);
      pair.dataset.grids = 'head';
      // While a grid fills row by row its table holds part of the new matrix: the caption
      // names the shape it is filling to (T × T), marked as filling, never the rows so far.
      const shape = (grid) => (m) => {
        const D = fillingTo.get(grid());
        return D && m !== D ? `${D.rows}\u2009×\u2009${D.cols} (${tr('gridFilling')})` : null;
      };
      gridP = k.grid({
        caption: () => 'P', ariaLabel: () => tr('gridP'), rowLabel: label, colLabel: label, shape: shape(() => gridP),
        note: () => k.common('rowsQueries'), color: 'weights', digits: 2, fixed: true, testId: 'rm-P',
      });
      gridV = k.grid({
        caption: () => (state().view === 'norm' ? '\\tilde P_{ij} \\propto P_{ij}\\,\\lVert v_j W_O^h \\rVert' : '\\text{rollout}'),
        ariaLabel: () => tr(state().view === 'norm' ? 'gridNorm' : 'gridRollout'), rowLabel: label, colLabel: label,
        color: 'weights', digits: 2, fixed: true, testId: 'rm-view', shape: shape(() => gridV),
      });
      pair.append(gridP.el, gridV.el);
      offscreenCheap(pair, '24rem');
      if (typeof IntersectionObserver === 'function' && !globalThis.__eagerFigures)
        new IntersectionObserver((entries) => {
          pairNear = entries.at(-1).isIntersecting;
          if (pairNear) frames.later();
        }, { rootMargin: '50% 0px' }).observe(pair);
      window.addEventListener('beforeprint', writeGridsNow);
      pair.addEventListener('focusin', writeGridsNow);
    },
    setView(view) {
      viewButtons.forEach((b) => (b.checked = b.value === view));
    },
    // the radios and the grids shown (a sentence's heads are here) or hidden
    show(on) {
      show(viewBox, on);
      show(pair, on);
    },
    // the head enlarged, and beside it the value-norm view or the rollout
    // (a render with the same head, view and language leaves the grids' work as it is)
    draw(H, head, view, tokenLabels) {
      labels = tokenLabels;
      const T = H.T;
      const gk = [H, head, view, document.documentElement.lang];
      if (gridKey && gk.every((v, i) => v === gridKey[i])) return;
      gridKey = gk;
      const P = { rows: T, cols: T, data: H.weights.slice(head * T * T, (head + 1) * T * T) };
      const other = view === 'rollout' ? { rows: T, cols: T, data: H.rollout } : valueNormView(P.data, H.norms.subarray(head * T, (head + 1) * T), T);
      const W = Math.min(T, GRID_TOKENS);
      jobs = [{ grid: gridP, data: firstTokens(P, W) }, { grid: gridV, data: firstTokens(other, W) }]; // GRID_CELLS a frame (step)
      pair.dataset.filled = 'false';
      if (W < T) say(gridsCut, tr(model().modelType === 'gpt2' ? 'gridsCutCausal' : 'gridsCut'), { T, W });
      else say(gridsCut, null);
    },
    // no sentence: the grids it spoke of are gone with it
    clear() {
      say(gridsCut, null);
      jobs = [];
      gridKey = null;
    },
  };
}
