// The training chapter's settings (web/src/chapters/training/tasks.js): what picking a task
// sets, the trainer configuration a state stands for, and the configurations one edit away
// that the worker builds ahead.
import test from 'node:test';
import assert from 'node:assert/strict';
import { TASKS, initialState, taskOf, taskSettings, pickTask, configOf, neighbours, MAX_SEED } from '../../web/src/chapters/training/tasks.js';

test('picking a task sets its heads, and induction its layers and learning rate; leaving it puts the defaults back', () => {
  const d = initialState();
  assert.deepEqual(pickTask(d, 'induction'), { task: 'induction', heads: 2, layers: 2, lr: 0.003 });
  const ind = { ...d, ...pickTask(d, 'induction') };
  assert.deepEqual(pickTask(ind, 'sort'), { task: 'sort', heads: 1, layers: d.layers, lr: d.lr });
  // away from any other task, the learner's own layers and learning rate stay
  const mine = { ...d, layers: 2, lr: 0.02 };
  assert.deepEqual(pickTask(mine, 'two-relations'), { task: 'two-relations', heads: 2, layers: 2, lr: 0.02 });
  // a link that names only the task gets what picking it from the defaults sets
  for (const t of TASKS) {
    const { task, ...rest } = pickTask(d, t.name);
    assert.deepEqual(taskSettings({ ...d, task }), rest, t.name);
  }
});

test('configOf: the task\'s widths, d_model 64 for induction, an unknown task read as the first', () => {
  const d = initialState();
  assert.deepEqual(configOf(d), {
    task: 'previous-token', seed: 1, lr: 0.01, heads: 1, layers: 1, dropout: 0, positional: true, dModel: 32, dK: 64, dV: 0, batch: 32, evalSize: 128,
  });
  assert.equal(configOf({ ...d, task: 'induction' }).dModel, 64);
  assert.deepEqual([configOf({ ...d, task: 'two-relations' }).dK, configOf({ ...d, task: 'two-relations' }).dV], [16, 2]);
  assert.equal(configOf({ ...d, task: 'nonsense' }).task, 'previous-token');
  assert.equal(taskOf({ task: 'nonsense' }), TASKS[0]);
  assert.equal('scale' in configOf(d), false, 'the scale toggle shows the other model of the same pair');
});

test('neighbours: one edit away, distinct, within the controls\' ranges, the edited control first, never induction', () => {
  const d = initialState();
  const here = JSON.stringify(configOf(d));
  for (const last of [null, 'lr', 'seed', 'task', 'dropout']) {
    const n = neighbours(d, last);
    const keys = n.map((c) => JSON.stringify(c));
    assert.equal(new Set(keys).size, keys.length, 'distinct');
    assert.ok(!keys.includes(here), 'not the configuration itself');
    assert.ok(n.every((c) => c.task !== 'induction'));
    assert.ok(n.every((c) => c.dropout >= 0 && c.dropout <= 0.5 && c.seed >= 0 && c.seed <= MAX_SEED));
    // each differs from here in one control (a task also brings its heads)
    for (const c of n) {
      const diff = Object.keys(c).filter((k) => c[k] !== configOf(d)[k]);
      assert.ok(diff.length === 1 || diff.includes('task'), `${JSON.stringify(diff)}`);
    }
  }
  assert.deepEqual(neighbours(d, 'lr').slice(0, 4).map((c) => c.lr), [0.001, 0.003, 0.02, 0.03]);
  assert.deepEqual(neighbours(d, 'seed').slice(0, 1).map((c) => c.seed), [2], 'seed 0 is a seed too, but 1 - 1 comes second');
  assert.deepEqual(neighbours(d, 'seed')[1].seed, 0);
  assert.deepEqual(neighbours(d, null)[0], configOf({ ...d, positional: false }));
  assert.deepEqual(neighbours({ ...d, dropout: 0.5 }, 'dropout').map((c) => c.dropout).slice(0, 1), [0.45]);
});
