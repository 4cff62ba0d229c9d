// Chapter "Multi-head attention end to end": its prose blocks and figures in reading order
// (kit/narrative.js). The words are in ko.js/en.js; the figures are built by index.js.
export default [
  { h2: 'title' },
  { p: 'lead', vars: 'dims', class: 'lead' },
  { p: 'illustrative', common: true, class: 'note illustrative' },
  { p: 'construction', vars: 'dims', class: 'note construction', example: ['X', 'Wq', 'Wk', 'Wv'], edited: 'constructionEdited' }, // (true of the example's numbers)

  // inputs
  { h3: 'inputTitle' },
  { p: 'inputBody', vars: 'dims' },
  { figure: 'controls' }, // the causal toggle and reset
  { p: 'editHint', common: true, class: 'hint' },
  { figure: 'inputs' }, // X, then W_Q, W_K, W_V, W_O folded away

  // 1. projections and the split
  { h3: 'splitTitle' },
  { figure: 'heads' }, // the choice of h
  { p: 'splitBody', vars: 'dims' },
  { figure: 'projections' }, // Q, K, V tinted by head

  // 2. attention per head
  { h3: 'perHeadTitle' },
  { p: 'perHeadBody', vars: 'dims' },
  { figure: 'cards' }, // one card per head: P_i and O_i
  { p: ['continued', 'continuedOff', 'continuedEdited', 'continuedThere'], choose: 'continuity', vars: 'continuity', class: 'check', data: { check: 'continued' } },

  // 3. concat and W_O
  { h3: 'concatTitle' },
  { p: 'concatBody', vars: 'dims' },
  { figure: 'concat' }, // H, W_O and H W_O
  { p: 'residual', vars: 'dims', class: 'hint' },

  // 4. the original model's arithmetic (the heading says so only for its numbers)
  { h3: ['costTitle', 'costTitleOther'], choose: 'costTitle', vars: 'cost', data: { out: 'cost-title' } },
  { p: 'costBody', vars: 'cost' },
  { figure: 'costControls' }, // n, d_model and h
  { figure: 'costTable' }, // one row per number of heads that divides d_model
  { p: 'costNote', vars: 'costNote' },
  { p: 'tryIt', vars: 'dims', class: 'try' },
  { p: 'summary', vars: 'dims', class: 'summary' },
];
