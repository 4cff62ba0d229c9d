// Chapter "Why three matrices": its prose blocks and figures in reading order
// (kit/narrative.js). The words are in ko.js/en.js; the figures are built by index.js.
export default [
  { h2: 'title' },
  { p: 'lead', class: 'lead' },
  { p: 'illustrative', common: true, class: 'note illustrative' },

  // roles
  { h3: 'rolesTitle' },
  { dl: [
    { dt: 'roleQ' }, { dd: 'roleQBody' },
    { dt: 'roleK' }, { dd: 'roleKBody' },
    { dt: 'roleV' }, { dd: 'roleVBody' },
  ], class: 'glossary roles' },
  { p: 'rolesWhy' },

  // token → embedding
  { h3: 'embedTitle' },
  { p: 'embedBody', vars: 'sizes' },
  { figure: 'embedding' }, // the sentence's chips, T and reset; one-hot · E = X

  // projections
  { h3: 'projTitle' },
  { p: 'projBody', vars: 'sizes' },
  { figure: 'projections' }, // W_Q, W_K, W_V; Q, K, V
  { p: 'projLength', vars: 'sizes', class: 'summary' },

  // Q = K = V = X
  { h3: 'selfTitle' },
  { p: 'selfBody', vars: 'sizes' },
  { figure: 'self' }, // the equal-norms toggle; X̂, its norms, X̂X̂ᵀ and the diagonal check
  { p: ['selfVerdictEqual', 'selfVerdictRaw'], choose: 'selfVerdict', vars: 'selfVerdict', class: 'verdict', data: { verdict: 'diagonal' } },

  // W_Q ≠ W_K: direction
  { h3: 'asymTitle' },
  { p: 'asymBody' },
  { figure: 'direction' }, // the shared-W_K toggle; S and S − Sᵀ
  { p: ['asymShared', 'asymSeparate'], choose: 'asym', vars: 'asym', class: 'verdict', data: { verdict: 'asymmetry' } },
  { p: 'oneSpace', class: 'note' },

  // self vs cross
  { h3: 'crossTitle' },
  { p: 'crossHistory' },
  { p: 'crossBody', vars: 'cross' },
  { figure: 'cross' }, // Y, Q = YW_Q, the weights over X's tokens, O
  { p: 'crossShape', vars: 'crossShape', class: 'summary' },
  { p: 'decoderBlocks', class: 'note' },
];
