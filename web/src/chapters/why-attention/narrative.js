// Chapter "Why attention": its prose blocks and figures in reading order (kit/narrative.js).
// The words are in ko.js/en.js; the figures are built by index.js.
export default [
  { h2: 'title' },
  { p: 'lead' },

  // long-range dependencies
  { h3: 'longTitle' },
  { p: 'longBody' },
  { figure: 'pairs' }, // the word pairs to pick, then the sentence as chips
  { p: 'pairNote', vars: 'pairNote', class: 'hint' },

  { h3: 'diluteTitle' },
  { p: 'diluteBody' },
  { figure: 'dilution' }, // r, a and n sliders; the share of a token by distance, both ways
  { p: 'pairNumbers', vars: 'pairNumbers', class: 'check-line big', data: { check: 'dilution' } },
  { p: 'diluteEnd' },

  // parallel vs sequential
  { h3: 'parallelTitle' },
  { p: 'parallelBody' },
  { figure: 'steps' }, // N, run / step / rewind, and the two tracks of steps
  { p: 'reducedMotion', class: 'hint' },

  { h3: 'pathTitle' },
  { p: 'pathBody' },
  { p: 'pathNumbers', vars: 'pathNumbers', class: 'check-line big', data: { check: 'path' } },
  { p: 'tradeoff' },
  { p: 'summary', class: 'summary' },
];
