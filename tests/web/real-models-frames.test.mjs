// The real-models chapter's work spread over frames (web/src/chapters/real-models/frames.js)
// and the chosen head's grids (head-grids.js: the value-norm view, a long sentence's first
// tokens, a grid filled a few rows a frame keeping what it showed below them).
import test from 'node:test';
import assert from 'node:assert/strict';
import { framePump, FRAME_BUDGET } from '../../web/src/chapters/real-models/frames.js';
import { valueNormView, firstTokens, gridStep } from '../../web/src/chapters/real-models/head-grids.js';

// A stand-in requestAnimationFrame: frames run when the test says.
function frameQueue() {
  const queue = [];
  let id = 0;
  return { frame: (f) => (queue.push(f), ++id), run: () => queue.splice(0).forEach((f) => f()), get asked() { return queue.length; } };
}
// A job of `units` units at `cost` a unit (as a map: 1, a table row: 4).
function job(units, cost = 1, log = []) {
  let done = 0;
  return {
    log,
    step(budget) {
      const before = done;
      while (done < units && budget > 0) (done++, budget -= cost);
      log.push(done - before);
      return budget;
    },
    pending: () => done < units,
  };
}

test('one frame asked for however often; the jobs share its budget in order; more frames while work is left', () => {
  const q = frameQueue();
  const frames = framePump({ frame: q.frame });
  const a = job(40), b = job(10, 4);
  frames.add(a);
  frames.add(b);
  frames.later();
  frames.later();
  assert.equal(q.asked, 1);
  q.run();
  assert.deepEqual([a.log, b.log], [[FRAME_BUDGET], [0]]);
  assert.equal(q.asked, 1);
  q.run();
  assert.deepEqual([a.log, b.log], [[32, 8], [0, 6]]); // (24 left: 6 rows of 4)
  q.run();
  assert.deepEqual(b.log, [0, 6, 4]);
  assert.equal(q.asked, 0); // (nothing left: no frame asked)
});

test('nothing runs while not ready, and no frame is asked for then', () => {
  const q = frameQueue();
  let ready = false;
  const frames = framePump({ frame: q.frame, ready: () => ready });
  const a = job(5);
  frames.add(a);
  frames.later();
  q.run();
  assert.deepEqual(a.log, []);
  assert.equal(q.asked, 0);
  ready = true;
  frames.later();
  q.run();
  assert.deepEqual(a.log, [5]);
});

test('valueNormView: each weight times its value\'s norm, rows summing to 1; a zero row stays zero', () => {
  const P = new Float32Array([0.5, 0.5, 0, 0, 1, 0, 0, 0, 0]);
  const { rows, cols, data } = valueNormView(P, new Float32Array([3, 1, 2]), 3);
  assert.deepEqual([rows, cols], [3, 3]);
  assert.deepEqual([...data], [0.75, 0.25, 0, 0, 1, 0, 0, 0, 0]);
});

test('firstTokens: the first W rows and columns, or the matrix itself', () => {
  const m = { rows: 3, cols: 3, data: new Float32Array([1, 2, 3, 4, 5, 6, 7, 8, 9]) };
  assert.equal(firstTokens(m, 3), m);
  const w = firstTokens(m, 2);
  assert.deepEqual([w.rows, w.cols, [...w.data]], [2, 2, [1, 2, 4, 5]]);
});

// A stand-in grid: its value and every update, flushed or not.
function fakeGrid(value = null) {
  return { value, updates: [], flushed: 0, update(m) { this.value = m; this.updates.push(m); }, flush() { this.flushed++; } };
}
const matrix = (rows, cols, fill) => ({ rows, cols, data: Float32Array.from({ length: rows * cols }, (_, q) => fill(q)) });

test('gridStep: whole rows a step (at least one), the rows below kept from what the grid showed, then the matrix itself', () => {
  const old = matrix(4, 4, () => -1);
  const grid = fakeGrid(old), D = matrix(4, 4, (q) => q), filling = new Map();
  const job = { grid, data: D };
  assert.equal(gridStep(job, { cells: 8, filling }), true);
  assert.equal(filling.get(grid), D);
  assert.deepEqual([grid.value.rows, [...grid.value.data]], [4, [0, 1, 2, 3, 4, 5, 6, 7, -1, -1, -1, -1, -1, -1, -1, -1]]);
  assert.equal(gridStep(job, { cells: 8, filling }), false);
  assert.equal(grid.value, D); // (the matrix itself, as the caption's shape check expects)
  assert.equal(grid.flushed, 2);
  // (a grid of another width: the new rows only; fewer cells than a row: one row a step)
  const narrow = fakeGrid(matrix(2, 3, () => 0)), job2 = { grid: narrow, data: D };
  assert.equal(gridStep(job2, { cells: 2, filling }), true);
  assert.deepEqual([narrow.value.rows, narrow.value.cols], [1, 4]);
  const empty = fakeGrid(null), job3 = { grid: empty, data: D };
  gridStep(job3, { cells: 64, filling });
  assert.equal(empty.value, D);
});
