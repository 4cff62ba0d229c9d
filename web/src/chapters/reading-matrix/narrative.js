// Chapter "Reading the attention matrix": its prose blocks and figures in reading order
// (kit/narrative.js). The words are in ko.js/en.js; the figures are built by index.js.
export default [
  { h2: 'title' },
  { p: 'lead' },
  { p: 'constructedNote', class: 'note illustrative' },

  // sentence, head, strength
  { h3: 'setupTitle' },
  { p: 'setupBody' },
  { figure: 'setup' }, // sentence and head radios, the strength slider, the sentence
  { figure: 'inputs' }, // X (editable), W_Q and W_K, folded away

  // the matrix
  { h3: 'matrixTitle' },
  { p: 'matrixBody' },
  { figure: 'matrix' }, // P with its row sums, then its column sums
  { p: 'clickHint', class: 'hint' },
  { div: [
    { h4: 'attendsTitle', vars: 'attends' },
    { figure: 'chips' }, // the selected row over the sentence
  ], class: 'attends' },
  { ul: [
    { li: 'checkRows', vars: 'checkRows' },
    { li: 'checkCols', vars: 'checkCols' },
    { li: 'checkSym', vars: 'checkSym' },
  ], class: 'checks', data: { checks: 'reading-matrix' } },

  // the falling-apart pronoun head
  { h3: 'headsTitle' },
  { p: 'headsBody' },
  { p: 'pronounCheck', vars: 'pronoun', class: 'check-line', data: { check: 'pronoun' } },
  { p: 'fallApart' },

  // 144 matrices
  { h3: 'bertTitle' },
  { p: 'bertBody' },
  { figure: 'bert' }, // layers, heads, tokens
  { p: 'bertCount', vars: 'bert', class: 'check-line big', data: { check: 'bert' } },

  // what one layer cannot tell (the claim is checked on the current numbers)
  { h3: 'cautionTitle' },
  { p: 'cautionBody' },
  { p: ['layersBody', 'layersBodyWeak'], choose: 'layers', vars: 'layersBody' },
  { figure: 'layers' }, // the residual toggle; one previous-token head, then two stacked
  { p: 'layerCheck', vars: 'layerCheck', class: 'check-line', data: { check: 'layers' } },
  { p: 'cautionEnd' },
  { p: 'summary', class: 'summary' },
];
