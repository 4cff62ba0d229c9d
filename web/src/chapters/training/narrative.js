// Chapter "Training": its prose blocks and figures in reading order (kit/narrative.js). The
// words are in ko.js/en.js; the figures (and the lines the run writes) are built by index.js.
export default [
  { h2: 'title' },
  // (the chapters before it named only where they are on the page: leadAlone otherwise)
  { p: ['lead', 'leadAlone'], choose: 'lead', vars: 'info', class: 'lead', name: 'lead' },

  // task
  { h3: 'taskTitle' },
  { figure: 'task' }, // the four tasks
  { p: ['desc_previous', 'desc_two', 'desc_sort', 'desc_induction'], choose: 'task', vars: 'info', class: 'task-desc' },

  // controls
  { h3: 'controlsTitle' },
  { figure: 'controls' }, // start, step, reset; seed, lr, heads, layers, dropout; the toggles
  { p: 'configNote', vars: 'info', class: 'hint' },
  { figure: 'status' }, // the run's error, its status line and what is announced
  { figure: 'plots' }, // loss, accuracy, gradient; induction's two halves and its phase line

  { h3: 'scaleTitle' },
  { figure: 'scale' }, // what this run is next to a real model

  // heads
  { h3: 'headsTitle' },
  { p: 'headsBody' },
  // induction: what the role line under each map means (the trained-heads chapter's words)
  { p: ['headRolesBody', 'headRolesBodyAlone'], choose: 'headRoles', data: { check: 'head-roles' } },
  { figure: 'heads' }, // the probe's split, each head's map, the caution, the PE note, the swap
  { h4: 'predTitle' },
  { figure: 'pred' }, // the probe's predictions

  // your sequence
  { h3: 'yourTitle' },
  { p: 'yourBody', vars: 'info', name: 'yourBody' },
  { figure: 'yours' }, // the field, its message, the predictions and heads for it
  { p: 'summary', vars: 'info', class: 'summary' },
];
