// Chapter "Causal attention and dropout": its prose blocks and figures in reading order
// (kit/narrative.js). The words are in ko.js/en.js; the figures are built by index.js.
// The inputs are the projections chapter's: named there where it is on the page; alone,
// the second form (…Alone) introduces them itself.
export default [
  { h2: 'title' },
  { p: 'lead', vars: 'dims', class: 'lead' },
  { p: 'illustrative', common: true, class: 'note illustrative' },

  // inputs
  { h3: 'inputTitle' },
  { p: ['inputBody', 'inputBodyAlone'], choose: 'input', vars: 'dims' },
  { figure: 'reset' },
  { p: 'editHint', common: true, class: 'hint' },
  { figure: 'inputs' }, // X, then W_Q, W_K, W_V folded away

  // 1. the causal mask
  { h3: 'maskTitle' },
  { p: ['maskOn', 'maskOff'], choose: 'mask', vars: 'dims' },
  { figure: 'mask' }, // the switch; S/√d_k + M = masked scores; P and V
  { p: ['zeroWeights', 'zeroWeightsOff'], choose: 'zeroWeights', vars: 'dims', class: 'hint' },
  { p: ['firstTokenSame', 'firstTokenDropout', 'firstTokenOff'], choose: 'firstToken', vars: 'dims', class: 'check', data: { check: 'first-token' } },

  // 2. the live check
  { h3: 'checkTitle' },
  { p: 'checkBody', vars: 'dims' },
  { figure: 'probe' }, // the token to change, its new input, Z and Z' and which rows changed
  { p: ['verdictOn', 'verdictOff'], choose: 'verdict', vars: 'verdict', class: 'check', data: { check: 'causal-verdict' } },

  // 3. dropout
  { h3: 'dropoutTitle' },
  { p: 'dropoutBody', vars: 'dims' },
  { figure: 'dropout' }, // training or evaluation, rate, seed; P ⊙ D and its row sums
  { p: ['dropEval', 'dropTraining', 'dropTrainingZero'], choose: 'drop', vars: 'drop' },
  { p: ['rangeOk', 'rangeOut'], choose: 'range', vars: 'range', class: 'hint' },

  // 4. two different tools
  { h3: 'compareTitle' },
  { figure: 'compare' }, // the mask against dropout, in words
  { p: 'tryIt', vars: 'dims', class: 'try' },
  { p: 'summary', vars: 'dims', class: 'summary' },
];
