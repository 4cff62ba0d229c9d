// Chapter "Terms and the formula": its prose blocks and figures in reading order
// (kit/narrative.js). The words are in ko.js/en.js; the formula and the links to the next
// chapter's numbers are built by index.js. Three paragraphs point at the next chapter
// (two-keys) where it is on the page; alone, their second form (…Alone) does without it.
export default [
  { h2: 'title' },
  { p: ['lead', 'leadAlone'], choose: 'lead', class: 'lead' },

  // the words
  { h3: 'glossaryTitle' },
  { dl: [
    { dt: 'term_token', id: 'terms-formula-token' }, { dd: 'def_token' },
    { dt: 'term_embedding', id: 'terms-formula-embedding' }, { dd: 'def_embedding' },
    { dt: 'term_query', id: 'terms-formula-query' }, { dd: 'def_query' },
    { dt: 'term_key', id: 'terms-formula-key' }, { dd: 'def_key' },
    { dt: 'term_value', id: 'terms-formula-value' }, { dd: 'def_value' },
    { dt: 'term_dk', id: 'terms-formula-dk' }, { dd: 'def_dk' },
    { dt: 'term_softmax', id: 'terms-formula-softmax' }, { dd: 'def_softmax' },
    { dt: 'term_position', id: 'terms-formula-position' }, { dd: 'def_position' },
  ], class: 'glossary' },
  { p: 'readingNote', class: 'hint' },

  // the formula, symbol by symbol
  { h3: 'formulaTitle' },
  { p: 'formulaBody' },
  { figure: 'formula' }, // softmax(QKᵀ/√d_k)V, each symbol a link to the next chapter (if there)
  { p: ['formulaHint', 'formulaHintAlone'], choose: 'hint', class: 'hint' },

  // inside out, with the next chapter's numbers (each step: its symbol, a link to it there)
  { h3: 'insideOutTitle' },
  { p: ['insideOutBody', 'insideOutBodyAlone'], choose: 'insideOut', vars: 'numbers' },
  { ol: [
    { li: [{ span: 'io_scores', vars: 'numbers' }, { figure: 'seeScores' }], data: { sym: 'scores' } },
    { li: [{ span: 'io_scale', vars: 'numbers' }, { figure: 'seeDk' }], data: { sym: 'dk' } },
    { li: [{ span: 'io_softmax', vars: 'numbers' }, { figure: 'seeSoftmax' }], data: { sym: 'softmax' } },
    { li: [{ span: 'io_output', vars: 'numbers' }, { figure: 'seeV' }], data: { sym: 'v' } },
  ], class: 'inside-out' },
  { p: 'recipe', class: 'summary' },
];
