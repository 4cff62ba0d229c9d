// Chapter "Softmax": its prose blocks and figures in reading order (kit/narrative.js). The
// words are in ko.js/en.js; the figures are built by index.js.
export default [
  { h2: 'title' },
  { p: 'lead', class: 'lead' },

  { h3: 'recipeTitle' },
  { p: 'recipeBody' },
  { figure: 'reset' },
  { p: 'editHint', common: true, class: 'hint' },
  { figure: 'steps' }, // S, max, e^{S - max}, Σ; then P and its row sums
  { p: 'whyProb' },
  { ul: [
    { li: 'checkPositive', vars: 'checkVars', data: { check: 'positive' }, name: 'checkPos' },
    { li: 'checkSums', vars: 'checkVars', data: { check: 'sums' }, name: 'checkSum' },
  ], class: 'checks' },
  { figure: 'worked' }, // the row picker and one row worked (naive beside shifted on overflow)
  { p: 'shiftBody', class: 'note' },
  { p: ['zeroScore', 'equalScore', 'zeroScoreNone'], choose: 'zero', vars: 'even', class: 'note', data: { check: 'even-row' } },

  // the wrong axis
  { h3: 'axisTitle' },
  { p: 'axisBody' },
  { figure: 'axes' }, // the two calls, then rows against columns side by side
  { p: 'axisVerdict', vars: 'axisVars', class: 'verdict', data: { verdict: 'axis' } },
  { p: 'axisWhy', class: 'summary' },
];
