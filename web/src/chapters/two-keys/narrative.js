// Chapter "Two keys, by hand": its prose blocks and figures in reading order
// (kit/narrative.js). The words are in ko.js/en.js; the figures are built by index.js.
// The ids are link targets (terms-formula and permalinks point at them).
export default [
  { h2: 'title' },
  { p: 'lead', class: 'lead' },

  // the worked example
  { h3: 'inputsTitle', id: 'two-keys-inputs' },
  { p: 'inputsBody', vars: 'inputs' },
  { figure: 'reset' },
  { p: 'editHint', common: true, class: 'hint' },
  { figure: 'inputs' }, // q, K, V
  { h3: 'stepsTitle' },
  { figure: 'steps' }, // the five step cards
  { p: ['winner', 'winnerTie'], choose: 'winner', vars: 'winner', class: 'summary' },
  { p: 'tryIt', class: 'try' },

  // the exercise
  // (a group, not a region: a course page may hold this chapter twice, and a landmark's
  // name must be unique on its page)
  { div: [
    { h3: 'exTitle', id: 'two-keys-exercise-title' },
    { p: 'exBody', vars: 'exercise' },
    { figure: 'exInputs' }, // its q, K, V
    { figure: 'answer' }, // the answer fields, Check, Reveal, the verdict
    { div: [
      { figure: 'exSteps' }, // the five step cards, on the exercise's numbers
      { p: 'exRounding', vars: 'rounding', class: 'note' },
    ], class: 'reveal', id: 'two-keys-exercise-steps', name: 'reveal' },
  ], class: 'exercise-box', id: 'two-keys-exercise', attrs: { role: 'group', 'aria-labelledby': 'two-keys-exercise-title' } },
];
