// Chapter "Attention without trainable weights": its prose blocks and figures in reading
// order (kit/narrative.js). The words are in ko.js/en.js; the figures are built by index.js.
// Two paragraphs point ahead to the next chapter (projections) where it is on the page;
// alone, their second form (…Alone) says the same without pointing at it.
export default [
  { h2: 'title' },
  { p: 'lead', vars: 'dims', class: 'lead' },
  { p: 'illustrative', common: true, class: 'note illustrative' },

  { h3: 'inputTitle', vars: 'dims' },
  { p: 'inputBody', vars: 'dims' },
  { figure: 'reset' },
  { p: 'editHint', common: true, class: 'hint' },
  { figure: 'inputs' }, // X

  // 1. scores: a loop of dot products, and the whole product at once
  { h3: 'scoresTitle' },
  { p: 'scoresBody', vars: 'dims' },
  { figure: 'focus' }, // the query token
  { figure: 'scores' }, // its row as a loop beside S = X Xᵀ, and the two compared
  { p: ['checkSame', 'checkDiff'], choose: 'same', vars: 'focus', class: 'check', data: { check: 'loop-vs-matrix' } },
  { p: ['selfMaxYes', 'selfMaxNo'], choose: 'selfMax', vars: 'selfMax', class: 'hint' },

  // 2. weights
  { h3: 'weightsTitle' },
  { p: ['weightsBody', 'weightsBodyAlone'], choose: 'weights', vars: 'dims' },
  { figure: 'weights' }, // P = softmax(S), its row sums, one row worked

  // 3. context vectors
  { h3: 'contextTitle' },
  { p: 'contextBody', vars: 'dims' },
  { figure: 'context' }, // Z = P X, one row worked
  { p: 'tryIt', vars: 'dims', class: 'try' },
  { p: ['summary', 'summaryAlone'], choose: 'summary', vars: 'dims', class: 'summary' },
];
