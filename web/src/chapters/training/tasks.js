// The training chapter's settings: the tasks and what picking one sets, the values each
// control offers, and the trainer's configuration a state stands for (and those one edit
// away, which the worker builds ahead while idle).
//
//   configOf(state) -> the trainer's configure message's config (web/src/workers/trainer.js)
//   pickTask(state, name) -> the patch that picking the task makes
//   neighbours(state, lastEdited) -> the configurations one edit away, the edited control's first,
//     then one of each other control's in turn

// Per-task settings applied when the task changes (the learner may change heads after).
// two-relations gives each head a value width of d_v = 2 (see the task's description) and
// d_k = 16: with 64, Adam moves the scores twice as fast and on some seeds both heads lock
// onto i−1 before either finds i−3 (docs/training.md).
// induction needs two layers (one cannot solve it), d_model 64 (with 32 the heads form
// later and on some seeds layer 1 learns a duplicate-token head instead of a previous-token
// head) and lr 3·10⁻³ (at 10⁻² the heads form but the loss then oscillates;
// docs/training.md), set when the task is picked; leaving it puts the page's defaults back.
export const TASKS = [
  { name: 'previous-token', key: 'previous', heads: 1, dV: 0, dK: 64 },
  { name: 'two-relations', key: 'two', heads: 2, dV: 2, dK: 16 },
  { name: 'sort', key: 'sort', heads: 1, dV: 0, dK: 64 },
  { name: 'induction', key: 'induction', heads: 2, dV: 0, dK: 64, dModel: 64, layers: 2, lr: 0.003 },
];
export const LRS = [0.001, 0.003, 0.01, 0.02, 0.03];
export const HEADS = [1, 2, 4];
export const LAYERS = [1, 2];
export const MAX_SEED = 2147483647;
export const EVAL_SIZE = 128; // held-out sequences (evaluated up to ten times a second, for both models)

export const initialState = () => ({
  task: 'previous-token', seed: 1, lr: 0.01, heads: 1, layers: 1, dropout: 0, scale: true, positional: true,
});

/** The task a state names (the first one for a name that is none). */
export const taskOf = (s) => TASKS.find((x) => x.name === s.task) ?? TASKS[0];

// What picking a task sets (the task radios): a link that names the task and leaves these
// out gets them, so `task:induction` trains the two-layer model the task needs.
export function taskSettings(s) {
  const t = taskOf(s);
  const d = initialState();
  return { heads: t.heads, layers: t.layers ?? d.layers, lr: t.lr ?? d.lr };
}

// The patch picking task `name` makes from state s: its heads, and its layers and learning
// rate where it has its own; leaving induction puts the page's defaults back for those.
export function pickTask(s, name) {
  const t = TASKS.find((x) => x.name === name);
  const d = initialState();
  return {
    task: t.name, heads: t.heads,
    layers: t.layers ?? (s.task === 'induction' ? d.layers : s.layers), lr: t.lr ?? (s.task === 'induction' ? d.lr : s.lr),
  };
}

export function configOf(s) {
  const t = taskOf(s);
  return {
    task: t.name, seed: s.seed, lr: s.lr, heads: s.heads, layers: s.layers, dropout: s.dropout,
    positional: s.positional, dModel: t.dModel ?? 32, dK: t.dK, dV: t.dV, batch: 32, evalSize: EVAL_SIZE,
  };
}

// The configurations one edit away (every control of the chapter but the scale toggle,
// which shows the other model of the same pair), for the worker to build while idle.
// The control edited last comes first (a select stepped through, a slider dragged): the
// worker builds them in this order and a new edit starts a new list.
export function neighbours(s, lastEdited) {
  const by = { positional: [], dropout: [], lr: [], heads: [], layers: [], task: [], seed: [] };
  const add = (name, over) => by[name].push(configOf({ ...s, ...over }));
  add('positional', { positional: !s.positional });
  for (const d of [s.dropout + 0.05, s.dropout - 0.05]) if (d > -1e-9 && d < 0.5 + 1e-9) add('dropout', { dropout: +d.toFixed(6) });
  for (const lr of LRS) if (lr !== s.lr) add('lr', { lr });
  for (const heads of HEADS) if (heads !== s.heads) add('heads', { heads });
  for (const layers of LAYERS) if (layers !== s.layers) add('layers', { layers });
  // (not into induction: its two-layer model takes several times as long to build and
  // evaluate, and a configure arriving meanwhile would wait for it)
  for (const t of TASKS) if (t.name !== s.task && t.name !== 'induction') add('task', pickTask(s, t.name));
  for (const seed of [s.seed + 1, s.seed - 1]) if (seed >= 0 && seed <= MAX_SEED) add('seed', { seed });
  const first = by[lastEdited] ?? [];
  // then one of each other control in turn, so that the first edit of another control
  // finds its model built too (the worker builds them one by one while idle)
  const rest = Object.values(by).filter((x) => x !== first);
  const out = [...first];
  for (let i = 0; rest.some((x) => i < x.length); i++) for (const x of rest) if (i < x.length) out.push(x[i]);
  return out;
}
