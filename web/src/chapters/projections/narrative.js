// Chapter "Trainable projections": its prose blocks and figures in reading order
// (kit/narrative.js). The words are in ko.js/en.js; the figures are built by index.js.
// Four paragraphs compare with the chapter before (no-weights) where it is on the page;
// alone, their second form (…Alone) says the same without pointing at it.
export default [
  { h2: 'title' },
  { p: ['lead', 'leadAlone'], choose: 'lead', vars: 'dims', class: 'lead' },
  { p: 'illustrative', common: true, class: 'note illustrative' },

  { h3: 'inputTitle' },
  { p: ['inputBody', 'inputBodyAlone'], choose: 'input', vars: 'dims' },
  { figure: 'controls' }, // seed, draw the weights, reset
  { p: 'editHint', common: true, class: 'hint' },
  { figure: 'inputs' }, // X, W_Q, W_K, W_V

  // 1. projections
  { h3: 'projTitle' },
  { p: 'projBody', vars: 'dims' },
  { figure: 'projections' }, // Q, K, V and one row worked

  // 2. scores and scaling
  { h3: 'scoresTitle' },
  { p: 'scoresBody', vars: 'dims' },
  { figure: 'focus' }, // the query token
  { figure: 'scores' }, // S = Q Kᵀ → S / √d_k
  { p: ['symYes', 'symNo', 'symNoAlone'], choose: 'symmetric', vars: 'symmetry', class: 'hint', data: { check: 'symmetry' } },

  // 3. weights and context vectors
  { h3: 'weightsTitle' },
  { p: ['weightsBody', 'weightsBodyAlone'], choose: 'weights', vars: 'dims' },
  { figure: 'context' }, // P, its row sums, V, Z = P V, one row worked
  { p: 'tryIt', vars: 'dims', class: 'try' },
  { p: 'summary', vars: 'dims', class: 'summary' },
];
