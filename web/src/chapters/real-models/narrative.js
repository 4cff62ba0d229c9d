// Chapter "Heads of a real pretrained model": its prose blocks and figures in reading order
// (kit/narrative.js). The words are in ko.js/en.js; the figures are built by index.js. The
// lines a worker's message rewrites (the load's status and errors, the sentence's message and
// tokens, the roles' and the ablation's lines) belong to their figures: they are redrawn
// without a render of the chapter.
export default [
  { h2: 'title' },
  { p: 'lead' },
  { p: 'privacy', class: 'note', data: { check: 'privacy' } },

  // opening a model
  { h3: 'openTitle' },
  { p: 'openBody' },
  { figure: 'drop' }, // the file and folder buttons, the drop zone
  { figure: 'load' }, // the load's bar and cancel button, the model's line, its error

  // everything below shows once a model is open (index.js hides it until then)
  {
    div: [
      // the sentence
      { h3: 'inputTitle' },
      { p: 'inputBody' },
      { figure: 'sentence' }, // the text field, its message and its tokens

      // every layer × head
      { h3: 'viewTitle', name: 'viewTitle' }, // (the model view is labelled by it)
      { p: 'viewBody' },
      { figure: 'modelView' }, // one small map per head, a row per layer

      // one head, enlarged, beside attention × value norm or rollout
      { h3: 'oneTitle', vars: 'oneTitle', name: 'oneTitle' }, // (hidden with the grids: no sentence, no head)
      { p: 'oneBody', name: 'oneBody' },
      { figure: 'one' }, // the view toggle, P and the view beside it
      { p: 'caution' },

      // roles (its numbers and the thresholds, the worker's from the core)
      { h3: 'rolesTitle' },
      { p: 'rolesBody', vars: 'rolesBody', name: 'rolesBody' },
      { p: 'rolesThresholds', vars: 'thresholds', data: { check: 'thresholds' }, name: 'rolesThresholds' },
      { figure: 'roles' }, // the roles' line and the table of heads and their scores

      // ablation
      { h3: 'ablationTitle' },
      { p: 'ablationBody' },
      { figure: 'ablation' }, // the button, its bar and stop button, and its line
    ],
    name: 'work',
  },
];
