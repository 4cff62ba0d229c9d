// Chapter "Trained heads": its prose blocks and figures in reading order (kit/narrative.js).
// The words are in ko.js/en.js; the figures are built by index.js.
export default [
  { h2: 'title' },
  // (the rest of the page named only where it is there: leadAlone otherwise)
  { p: ['lead', 'leadAlone'], choose: 'lead', class: 'lead' },
  { p: 'modelNote', vars: 'model', class: 'note' },
  { p: ['loadFailed', 'loadFailedCore', 'fileWrong', 'loading'], choose: 'status', vars: 'status', class: 'check-line', attrs: { role: 'status' }, name: 'status' },

  // the sentence
  { h3: 'inputTitle' },
  { p: 'inputBody', vars: 'window' },
  { figure: 'sentence' }, // the text field, its message and what it reads

  // every head
  { h3: 'headsTitle' },
  { p: 'headsBody' },
  { figure: 'thumbs' }, // one small map per head

  // one head, enlarged, beside attention × value norm or rollout
  { h3: 'oneTitle', vars: 'oneTitle' },
  { p: 'oneBody' },
  { figure: 'one' }, // the query characters, the view, P and the view beside it
  { p: 'differenceLine', vars: 'diff', class: 'check-line', data: { check: 'difference' } },
  { p: 'differenceAll', vars: 'diff', class: 'check-line', data: { check: 'difference-all' } },
  { p: 'caution' },
  { h4: 'everyTitle', vars: 'everyTitle' },
  { figure: 'every' }, // one character's row in every head

  // roles (the thresholds, once, and what on the held-out text stays under them)
  { h3: 'rolesTitle' },
  { p: 'rolesBody' },
  { p: 'thresholds', vars: 'thresholds', data: { check: 'thresholds' } },
  { p: 'rolesCount', vars: 'roles', class: 'check-line', data: { check: 'roles' } },
  { figure: 'roles' }, // the table of heads and their scores
  { p: ['sentenceRoles'], choose: 'sentenceRoles', vars: 'sentenceRoles', class: 'hint', data: { check: 'sentence-roles' }, name: 'sentenceRoles' },

  // ablation
  { h3: 'ablationTitle' },
  { p: 'ablationBody' },
  { figure: 'ablation' }, // the head to switch off
  { p: ['ablationNone', 'ablationLine'], choose: 'ablation', vars: 'ablation', class: 'check-line', data: { check: 'ablation' } },
  // a Δ below zero (in the line above or the table): what it means, when one is shown
  { p: ['negativeDelta'], choose: 'negative', vars: 'negative', class: 'hint', data: { check: 'negative-delta' } },
  { p: ['summary'], choose: 'summary', vars: 'roles', class: 'summary' },
];
