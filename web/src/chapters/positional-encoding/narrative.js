// Chapter "Positional encoding": its prose blocks and figures in reading order
// (kit/narrative.js). The words are in ko.js/en.js; the figures are built by index.js.
export default [
  { h2: 'title' },
  { p: 'lead' },

  // the encoding
  { h3: 'formulaTitle' },
  { p: 'formula' },
  { p: 'formulaBody' },
  { figure: 'encoding' }, // T and d sliders, the PE heatmap and one cell worked
  { p: 'cellHint', class: 'hint' },
  { figure: 'curves' }, // the sine columns over the positions
  { p: 'plotBody' },

  // the permutation demo
  { h3: 'permTitle' },
  { p: 'permBody' },
  { p: 'permTokens', vars: 'orders', class: 'sentence-line' },
  { figure: 'permutation' }, // the toggles, the embeddings and the outputs of both orders
  { p: 'check', vars: 'check', class: 'check-line big', data: { check: 'permutation' } },
  { p: 'conditions' },
  { p: 'summary', class: 'summary' },
];
